"""Host controls of the club rulesets (docs/host.md): pause/resume, extend, replace, undo, end; for Black Knights
and Mafia & Yakuza alike, each exact under replay (``engine.core.host``)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.actions import (
    Advance,
    CastVote,
    ContestantLeft,
    ContestantReturned,
    EndSeries,
    ExtendPhase,
    HoldBack,
    NominateCandidate,
    PauseClock,
    ReplaceContestant,
    ResumeClock,
    SkipPower,
    StartSeries,
    TimerExpired,
    UndoHostAction,
    UsePower,
)
from engine.effects import Announce, ClockChanged, ClockStarted, MoveTo, Prompt, SeriesOver, Whisper
from engine.errors import IllegalAction
from engine.outcome import Termination, Winner
from engine.rulesets import new_game, replay
from engine.rulesets.club.game import ClubGame, ClubPhase, ClubSettings

HOST = "Monk"
BK8 = (
    ("Alex", "courtesan"),
    ("Kai", "grey_cardinal"),
    ("Zuri", "black_knight"),
    ("Steve", "mad_knight"),
    ("Ari", "lord"),
    ("Noor", "heir"),
    ("Sunny", "healer"),
    ("Efe", "white_knight"),
)
MY8 = (
    ("Alex", "don"),
    ("Kai", "oyabun"),
    ("Zuri", "commissar"),
    ("Steve", "doctor"),
    ("Ari", "mistress"),
    ("Noor", "maniac"),
    ("Sunny", "citizen"),
    ("Efe", "citizen"),
)
DEALS = {"black_knights": BK8, "mafia_yakuza": MY8}
RULESETS = sorted(DEALS)


def settings_of(ruleset: str) -> ClubSettings:
    deal = DEALS[ruleset]
    return ClubSettings(ruleset, tuple(n for n, _ in deal), hosts=(HOST,), deal=deal)


def started(ruleset: str) -> ClubGame:
    g = new_game(settings_of(ruleset), 5)
    assert isinstance(g, ClubGame)
    g.handle(StartSeries(), now=0.0)
    assert g.deadline is not None  # a phase clock runs from the start (BK: the first introduction, MY: the first step)
    return g


def snapshot(g: ClubGame) -> tuple[object, ...]:
    """Everything a contestant or the record can see of the series, but the messages already said (nothing said
    is unsaid) and the host actions (an undo is itself logged)."""
    views = {n: dataclasses.replace(g.view_for(n), messages=()) for n in g.contestants()}
    record = {k: v for k, v in g.record.to_dict().items() if k != "host_actions"}
    return views, record, g.phase, g.places, g.items, list(g.log), g.phase_seq


def to_vote(g: ClubGame, now: float) -> float:
    """Move on (the host) until the day's vote opens, every contestant passing or holding back on the way."""
    who = g.player_of  # the player who plays a seat sends its inputs
    while g.phase is not ClubPhase.VOTE:
        now += 1
        if g.phase is ClubPhase.NIGHT and g.pending:
            g.handle(SkipPower(who(g.pending[0])), now=now)
        elif g.phase is ClubPhase.SPEECH and g.speaker is not None:
            # the first speaker nominates, so there is a vote (Black Knights)
            first = g.legal_actions(g.speaker)[0]
            assert isinstance(first, NominateCandidate)
            speaker = who(g.speaker)
            g.handle(NominateCandidate(speaker, first.target) if not g.candidates else HoldBack(speaker), now=now)
        else:
            g.handle(Advance(HOST), now=now)
    return now


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pause_stops_the_clock_and_resume_gives_back_the_time_left(ruleset: str) -> None:
    g = started(ruleset)
    phase, seq, deadline = g.phase, g.phase_seq, g.deadline
    assert deadline is not None
    fx = g.handle(PauseClock(HOST), now=10.0)
    assert [e for e in fx if isinstance(e, ClockChanged)] == [ClockChanged(seq + 1, None, deadline - 10.0)]
    assert g.deadline is None and g.paused == deadline - 10.0
    assert g.handle(TimerExpired(seq), now=deadline) == []  # the old timer is stale
    assert g.phase is phase
    with pytest.raises(IllegalAction) as info:
        g.handle(PauseClock(HOST), now=11.0)
    assert info.value.reason == "illegal.clock.not_running"
    fx = g.handle(ResumeClock(HOST), now=1000.0)
    assert [e for e in fx if isinstance(e, ClockChanged)] == [
        ClockChanged(seq + 2, 1000.0 + deadline - 10.0, deadline - 10.0)
    ]
    with pytest.raises(IllegalAction) as info:
        g.handle(ResumeClock(HOST), now=1001.0)
    assert info.value.reason == "illegal.clock.not_paused"
    assert g.handle(TimerExpired(seq + 2), now=1000.0 + deadline - 10.0)  # the phase ends at the new deadline
    assert g.phase_seq > seq + 2
    assert [a["action"] for a in g.record.host_actions] == ["pause_clock", "resume_clock"]
    assert g.record.host_actions[0] == {
        "host": HOST,
        "action": "pause_clock",
        "at": 10.0,
        "day": g.record.host_actions[0]["day"],
        "phase": phase.value if phase else None,
        "detail": f"{deadline - 10.0:.0f} s left",
        "undone": False,
    }


@pytest.mark.parametrize("ruleset", RULESETS)
def test_extend_adds_seconds_running_or_paused_and_refuses_bad_values(ruleset: str) -> None:
    g = started(ruleset)
    deadline = g.deadline
    assert deadline is not None
    g.handle(ExtendPhase(HOST, 60), now=5.0)
    assert g.deadline == deadline + 60
    g.handle(PauseClock(HOST), now=10.0)
    g.handle(ExtendPhase(HOST, 40), now=20.0)
    assert g.paused == deadline + 60 - 10.0 + 40
    for bad in (0, -5, 3601):
        with pytest.raises(IllegalAction) as info:
            g.handle(ExtendPhase(HOST, bad), now=30.0)
        assert info.value.reason == "illegal.clock.seconds"
    said = [e.message.key for e in g.handle(ResumeClock(HOST), now=40.0) if isinstance(e, Announce)]
    assert said == ["host.resumed"]


@pytest.mark.rule("MY13")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_only_hosts_use_controls_and_a_refusal_changes_nothing(ruleset: str) -> None:
    g = started(ruleset)
    before = snapshot(g)
    for action in (
        PauseClock("Kai"),
        ExtendPhase("Kai", 60),
        EndSeries("Kai"),
        UndoHostAction("Kai"),
        ReplaceContestant("Kai", "Alex", "Bob_2"),
    ):
        with pytest.raises(IllegalAction) as info:
            g.handle(action, now=5.0)
        assert info.value.reason == "illegal.not_host"
    with pytest.raises(IllegalAction) as info:
        g.handle(UndoHostAction(HOST), now=6.0)  # the last input is the start, no host action
    assert info.value.reason == "illegal.undo.nothing"
    assert snapshot(g) == before and g.record.host_actions == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_restores_the_series_before_the_host_moved_on(ruleset: str) -> None:
    g = started(ruleset)
    now = to_vote(g, 0.0)
    before, deadline = snapshot(g), g.deadline
    assert deadline is not None
    g.handle(Advance(HOST), now=now + 10)  # the host closes the vote
    assert g.phase is not ClubPhase.VOTE or g.ballot is None or g.ballot.kind == "revote"
    fx = g.handle(UndoHostAction(HOST), now=now + 20)
    views, record, phase, places, items, log, _seq = snapshot(g)
    assert (views, record, phase, places, items) == before[:5]
    assert log[:-2] == before[5] and [e["action"] for e in log[-2:]] == ["advance", "undo_host_action"]
    clocks = [e for e in fx if isinstance(e, ClockStarted)]
    assert len(clocks) == 1 and clocks[0].deadline == now + 20 + (deadline - (now + 10))  # the time it had left
    assert g.ballot is not None
    prompted = {n for e in fx if isinstance(e, Prompt) for n in e.to}
    assert prompted == {v for v in g.ballot.voters if v not in g.ballot.votes} and prompted
    assert [(a["action"], a["undone"]) for a in g.record.host_actions[-2:]] == [
        ("advance", True),
        ("undo_host_action", False),
    ]
    assert [e.message.key for e in fx if isinstance(e, Announce)] == ["host.undone"]
    again = replay(g.settings, g.seed, g.log)
    assert snapshot(again) == snapshot(g) and again.record.to_dict() == g.record.to_dict()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_of_a_move_on_from_the_morning_moves_everyone_back(ruleset: str) -> None:
    g = started(ruleset)
    now = 0.0
    while g.phase is not ClubPhase.MORNING:
        now += 1
        g.handle(SkipPower(g.pending[0]) if g.pending else TimerExpired(g.phase_seq), now=now)
    before = snapshot(g)
    g.handle(Advance(HOST), now=now + 1)  # on to the speeches or the discussion
    assert g.phase is not ClubPhase.MORNING
    fx = g.handle(UndoHostAction(HOST), now=now + 2)
    assert snapshot(g)[:5] == before[:5] and g.phase is ClubPhase.MORNING
    assert not [e for e in fx if isinstance(e, MoveTo)]  # the morning and the day are both at the round table
    with pytest.raises(IllegalAction) as info:
        g.handle(UndoHostAction(HOST), now=now + 3)  # one step back only: an undo is not undone
    assert info.value.reason == "illegal.undo.nothing"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_of_a_pause_runs_the_clock_again_with_the_time_it_had_left(ruleset: str) -> None:
    g = started(ruleset)
    deadline = g.deadline
    assert deadline is not None
    g.handle(PauseClock(HOST), now=10.0)
    fx = g.handle(UndoHostAction(HOST), now=500.0)
    clocks = [e for e in fx if isinstance(e, ClockStarted)]
    assert g.paused is None and len(clocks) == 1 and clocks[0].deadline == g.deadline == 500.0 + deadline - 10.0
    assert [(a["action"], a["undone"]) for a in g.record.host_actions] == [
        ("pause_clock", True),
        ("undo_host_action", False),
    ]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replacement_keeps_seat_and_role_and_plays_the_seat(ruleset: str) -> None:
    g = started(ruleset)
    zuri = g.players["Zuri"]
    seat, role = zuri.seat, zuri.role
    fx = g.handle(ReplaceContestant(HOST, "Zuri", "Bob_2"), now=5.0)
    assert (g.players["Zuri"].seat, g.players["Zuri"].role) == (seat, role)
    whispers = [e for e in fx if isinstance(e, Whisper)]
    assert whispers and all(w.to == frozenset({"Bob_2"}) for w in whispers)
    assert whispers[0].message.key == "club.replace.hand"
    assert dict(whispers[0].message.params)["seat"] == str(seat)
    assert [e.message.key for e in fx if isinstance(e, Announce)] == ["host.replaced"]
    assert g.contestant_of("Bob_2") == "Zuri" and g.contestant_of("Zuri") is None and g.player_of("Zuri") == "Bob_2"
    assert "Bob_2" in g.world_state().places and "Zuri" not in g.world_state().places
    now = to_vote(g, 5.0)
    assert g.ballot is not None and "Zuri" in g.ballot.voters
    target = next(o for o in g.ballot.options if o not in ("Zuri", "keep everyone"))
    fx = g.handle(CastVote("Bob_2", target), now=now + 1)  # the stand-in votes for the seat
    assert g.ballot is None or g.ballot.votes["Zuri"] == target
    assert all("Zuri" not in e.to for e in fx if isinstance(e, (Whisper, Prompt)))  # nothing private to Zuri
    again = replay(g.settings, g.seed, g.log)
    assert snapshot(again) == snapshot(g) and again.stand_ins == {"Zuri": "Bob_2"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_replaced_player_can_no_longer_act_and_the_new_one_is_prompted(ruleset: str) -> None:
    g = started(ruleset)
    now = 0.0
    while g.phase is not ClubPhase.NIGHT or not g.pending:
        now += 1
        g.handle(Advance(HOST), now=now)
    actor = g.pending[0]
    fx = g.handle(ReplaceContestant(HOST, actor, "Newbie"), now=now + 1)
    prompts = [e for e in fx if isinstance(e, Prompt)]
    assert [p.to for p in prompts] == [frozenset({"Newbie"})]  # the open night step, asked again
    with pytest.raises(IllegalAction) as info:
        g.handle(SkipPower(actor), now=now + 2)
    assert info.value.reason == "illegal.replaced"
    target = next(a.target for a in g.legal_actions(actor) if isinstance(a, UsePower))
    g.handle(UsePower("Newbie", target), now=now + 3)
    assert actor not in g.pending
    for player in ("Alex", HOST, "no", "newbie"):
        with pytest.raises(IllegalAction) as info:
            g.handle(ReplaceContestant(HOST, "Zuri", player), now=now + 4)
        assert info.value.reason in ("illegal.replace.player", "illegal.replace.case")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_end_series_has_no_winner(ruleset: str) -> None:
    g = started(ruleset)
    fx = g.handle(EndSeries(HOST), now=30.0)
    assert g.outcome is not None and g.outcome.winner is Winner.NOBODY and g.outcome.winners == ()
    assert g.outcome.termination is Termination.HOST_ENDED and g.record.winner == "nobody"
    assert g.record.termination == "host_ended" and not any(c.winner for c in g.record.contestants)
    said = [e.message.key for e in fx if isinstance(e, Announce)]
    assert said[:2] == ["host.ended", "series.over.host"]
    assert any(isinstance(e, SeriesOver) for e in fx) and g.is_over and g.deadline is None
    assert g.record.host_actions == [
        {
            "host": HOST,
            "action": "end_series",
            "at": 30.0,
            "day": g.day,
            "phase": g.record.host_actions[0]["phase"],
            "detail": "",
            "undone": False,
        }
    ]
    with pytest.raises(IllegalAction) as info:
        g.handle(UndoHostAction(HOST), now=31.0)  # after the end nothing is taken
    assert info.value.reason == "illegal.phase"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_undo_takes_every_attribute_of_the_game_from_the_replay(ruleset: str) -> None:
    """``REPLAYED_STATE`` names every attribute a club game has (at the start, in the middle and at the end of a
    series) but those it keeps (the effects being gathered, the time, the pending item reset, the rules)."""
    from engine.sim import play_series

    kept = {"_fx", "_now", "_reset_items", "rules", "ruleset"}
    game = new_game(settings_of(ruleset), 5)
    seen = set(vars(game))
    game.handle(StartSeries(), now=0.0)
    seen |= set(vars(game))
    finished, _ = play_series(settings_of(ruleset), 5, bots="random")
    seen |= set(vars(finished))
    state = ClubGame.REPLAYED_STATE
    assert len(set(state)) == len(state)
    assert set(state) == seen - kept and kept <= seen


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_stand_in_leaving_and_returning_is_the_seat_and_the_replaced_player_is_not(ruleset: str) -> None:
    """House rule 3 of ``engine.core.host``: a presence input is translated like any input's actor."""
    g = started(ruleset)
    g.handle(ReplaceContestant(HOST, "Zuri", "Bob_2"), now=5.0)
    g.handle(ContestantLeft("Bob_2"), now=6.0)
    assert not g.players["Zuri"].present
    with pytest.raises(IllegalAction) as refused:
        g.handle(ContestantReturned("Zuri"), now=7.0)
    assert refused.value.reason == "illegal.replaced" and not g.players["Zuri"].present
    g.handle(ContestantReturned("Bob_2"), now=8.0)
    assert g.players["Zuri"].present
