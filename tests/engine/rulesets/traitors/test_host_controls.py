"""Host controls (docs/host.md): pause/resume, extend, replace, undo, end; each exact under replay."""

from __future__ import annotations

import pytest

from engine.actions import (
    Advance,
    CastVote,
    EndSeries,
    ExtendPhase,
    PauseClock,
    ReplaceContestant,
    ResumeClock,
    StartSeries,
    TimerExpired,
    UndoHostAction,
)
from engine.effects import ClockChanged, ClockStarted, MoveTo, Prompt, TakeItem, Whisper
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item
from engine.outcome import Termination, Winner
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import Settings

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena")
SETTINGS = Settings(contestants=NAMES, traitors=2, hosts=("Host",))


def started() -> Game:
    g = Game(SETTINGS, 5)
    g.handle(StartSeries(), now=0.0)
    return g


def test_pause_stops_the_clock_and_resume_gives_back_the_time_left() -> None:
    g = started()
    assert g.deadline == 300.0 and g.phase_seq == 1
    fx = g.handle(PauseClock("Host"), now=100.0)
    changed = [e for e in fx if isinstance(e, ClockChanged)]
    assert changed == [ClockChanged(2, None, 200.0)]
    assert g.deadline is None and g.paused == 200.0
    # the timer armed for the old deadline is stale now
    assert g.handle(TimerExpired(1), now=300.0) == []
    assert g.phase is Phase.DAY_ZERO
    with pytest.raises(IllegalAction) as info:
        g.handle(PauseClock("Host"), now=110.0)
    assert info.value.reason == "illegal.clock.not_running"
    fx = g.handle(ResumeClock("Host"), now=1000.0)
    assert [e for e in fx if isinstance(e, ClockChanged)] == [ClockChanged(3, 1200.0, 200.0)]
    assert g.handle(TimerExpired(3), now=1200.0)  # the phase moves on at the new deadline
    assert g.phase is not Phase.DAY_ZERO


def test_extend_adds_seconds_running_or_paused_and_refuses_bad_values() -> None:
    g = started()
    g.handle(ExtendPhase("Host", 60), now=10.0)
    assert g.deadline == 360.0
    g.handle(PauseClock("Host"), now=60.0)
    g.handle(ExtendPhase("Host", 40), now=70.0)
    assert g.paused == 340.0
    for bad in (0, -5, 3601):
        with pytest.raises(IllegalAction) as info:
            g.handle(ExtendPhase("Host", bad), now=80.0)
        assert info.value.reason == "illegal.clock.seconds"


@pytest.mark.rule("T1.2")
def test_only_hosts_use_controls_and_a_refusal_changes_nothing() -> None:
    g = started()
    log = list(g.log)
    for action in (
        PauseClock("Kai"),
        ExtendPhase("Kai", 60),
        EndSeries("Kai"),
        UndoHostAction("Kai"),
        ReplaceContestant("Kai", "Alex", "Bob"),
    ):
        with pytest.raises(IllegalAction) as info:
            g.handle(action, now=5.0)
        assert info.value.reason == "illegal.not_host"
    assert g.log == log and g.deadline == 300.0


def test_undo_takes_back_a_move_on_and_restores_places_clock_and_time_left() -> None:
    g = started()
    places = dict(g.places)
    g.handle(Advance("Host"), now=100.0)  # day zero ends: night, the Oath
    assert g.phase is Phase.OATH
    seq = g.phase_seq
    fx = g.handle(UndoHostAction("Host"), now=150.0)
    assert g.phase is Phase.DAY_ZERO and g.places == places
    clocks = [e for e in fx if isinstance(e, ClockStarted)]
    assert len(clocks) == 1 and clocks[0].phase_seq > seq
    assert clocks[0].deadline == 150.0 + 200.0  # 200 s were left when the host moved on
    assert any(isinstance(e, MoveTo) for e in fx)
    with pytest.raises(IllegalAction) as info:
        g.handle(UndoHostAction("Host"), now=151.0)
    assert info.value.reason == "illegal.undo.nothing"
    again = Game.replay(SETTINGS, 5, g.log)
    assert again.record.to_dict() == g.record.to_dict()
    assert (again.phase, again.deadline, again.phase_seq, again.places, again.items) == (
        g.phase,
        g.deadline,
        g.phase_seq,
        g.places,
        g.items,
    )
    assert [(a["action"], a["undone"]) for a in g.record.host_actions] == [
        ("advance", True),
        ("undo_host_action", False),
    ]


def _to_vote(g: Game) -> None:
    now = 10.0
    while g.phase is not Phase.VOTE:
        now += 1
        if g.phase is Phase.OATH:
            g.handle(Advance("Host"), now=now)
        else:
            g.handle(TimerExpired(g.phase_seq), now=now)


def test_undo_of_closing_the_vote_gives_back_papers_and_prompts() -> None:
    g = started()
    _to_vote(g)
    voters = list(g.ballot.voters) if g.ballot else []
    g.handle(CastVote(voters[0], voters[1]), now=500.0)
    items = {n: list(v) for n, v in g.items.items()}
    g.handle(Advance("Host"), now=501.0)  # the host closes the vote
    fx = g.handle(UndoHostAction("Host"), now=502.0)
    assert g.phase is Phase.VOTE and g.items == items
    prompted = {n for e in fx if isinstance(e, Prompt) for n in e.to}
    assert prompted == set(voters) - {voters[0]}


def test_replacement_plays_the_seat_and_learns_the_hand_privately() -> None:
    g = started()
    kai = g.players["Kai"]
    fx = g.handle(ReplaceContestant("Host", "Kai", "Bob_2"), now=20.0)
    whispers = [e for e in fx if isinstance(e, Whisper)]
    assert [w.to for w in whispers] == [frozenset({"Bob_2"})]
    key = whispers[0].message.key
    assert key.startswith("replace.hand.traitor" if kai.allegiance is Allegiance.TRAITOR else "replace.hand.faithful")
    assert g.contestant_of("Bob_2") == "Kai" and g.contestant_of("Kai") is None
    assert "Bob_2" in g.world_state().places and "Kai" not in g.world_state().places
    _to_vote(g)
    assert g.ballot is not None
    target = next(n for n in g.ballot.candidates if n != "Kai")
    g.handle(CastVote("Bob_2", target), now=900.0)  # the stand-in votes for the seat
    assert g.ballot.votes["Kai"] == target
    with pytest.raises(IllegalAction) as info:
        g.handle(CastVote("Kai", target), now=901.0)  # the replaced player can no longer act
    assert info.value.reason == "illegal.replaced"
    # nothing private for the seat goes to the replaced player any more
    again = Game.replay(SETTINGS, 5, g.log)
    assert again.record.to_dict() == g.record.to_dict() and again.stand_ins == {"Kai": "Bob_2"}


def test_replacement_refuses_players_already_in_the_series() -> None:
    g = started()
    for player in ("Alex", "Host", "no"):
        with pytest.raises(IllegalAction) as info:
            g.handle(ReplaceContestant("Host", "Kai", player), now=20.0)
        assert info.value.reason == "illegal.replace.player"


def test_replacement_refuses_a_name_that_differs_only_in_case() -> None:
    """Minecraft finds a player by name without regard to case: ``kai`` is Kai, ``host`` the host, ``bob_2`` the
    stand-in Bob_2; the host is told privately and nothing changes."""
    g = started()
    g.handle(ReplaceContestant("Host", "Kai", "Bob_2"), now=20.0)
    log, record = list(g.log), g.record.to_dict()
    for player, other in (("alex", "Alex"), ("HOST", "Host"), ("bob_2", "Bob_2"), ("kai", "Kai")):
        with pytest.raises(IllegalAction) as info:
            g.handle(ReplaceContestant("Host", "Zuri", player), now=21.0)
        assert info.value.reason == "illegal.replace.case" and dict(info.value.params)["other"] == other
    with pytest.raises(IllegalAction) as info:
        g.handle(ReplaceContestant("Host", "Kai", "kai"), now=22.0)  # the seat's own player returns: as spelt
    assert info.value.reason == "illegal.replace.case"
    assert g.stand_ins == {"Kai": "Bob_2"} and list(g.log) == log and g.record.to_dict() == record
    g.handle(ReplaceContestant("Host", "Kai", "Kai"), now=23.0)
    assert g.stand_ins == {}


def test_end_series_has_no_winner() -> None:
    g = started()
    g.handle(EndSeries("Host"), now=30.0)
    assert g.outcome is not None and g.outcome.winner is Winner.NOBODY
    assert g.outcome.termination is Termination.HOST_ENDED and g.record.winner == "nobody"
    assert g.record.host_actions[-1]["host"] == "Host" and g.record.host_actions[-1]["at"] == 30.0


def test_undo_takes_items_back_in_the_order_they_are_held() -> None:
    """Items are enums whose hash changes from one process to the next: the undo must not take them back in a
    set's per-process order."""
    settings = Settings(contestants=NAMES, traitors=2, hosts=("Host",), first_night_murder=True)
    g = Game(settings, 5)
    g.handle(StartSeries(), now=0.0)
    now = 10.0
    while g.phase is not Phase.TURRET:  # the host moves on: day zero, the Oath, until the Turret opens
        now += 1
        g.handle(Advance("Host"), now=now)
    assert g.night is not None
    first, last = (
        g.night.traitors
    )  # the first sworn got the cloak at the Oath before; the undone move on swore the last
    assert all([i for i, _ in g.items[t]][-2:] == [Item.TRAITORS_CLOAK, Item.LANTERN] for t in (first, last))
    fx = g.handle(UndoHostAction("Host"), now=now + 2)
    taken = [(e.item, e.players) for e in fx if isinstance(e, TakeItem)]
    assert sorted(taken, key=lambda x: x[1]) == taken  # contestant by contestant, each in the order held
    assert set(taken) == {(Item.LANTERN, (first,)), (Item.TRAITORS_CLOAK, (last,)), (Item.LANTERN, (last,))}
    assert taken.index((Item.TRAITORS_CLOAK, (last,))) < taken.index((Item.LANTERN, (last,)))


@pytest.mark.skipif(not hasattr(Game(SETTINGS, 1), "__dict__"), reason="a compiled engine's game has no __dict__")
def test_an_undo_takes_every_attribute_of_the_game_from_the_replay() -> None:
    """``_apply_undo`` copies the replayed game's state by name: the list must name every attribute a game has
    (at the start, in the middle and at the end of a series), but the three it keeps."""
    from engine.rulesets.traitors.game import _REPLAYED_STATE
    from engine.sim import play_series

    kept = {"_fx", "_now", "_reset_items"}
    game = Game(SETTINGS, 5)
    seen = set(vars(game))
    game.handle(StartSeries(), now=0.0)
    seen |= set(vars(game))
    finished, _ = play_series(SETTINGS, 5, bots="random")
    seen |= set(vars(finished))
    assert len(set(_REPLAYED_STATE)) == len(_REPLAYED_STATE)
    assert set(_REPLAYED_STATE) == seen - kept and kept <= seen


def test_every_press_is_one_record_line_naming_the_host_and_the_button() -> None:
    """Two hosts: starting and cancelling a twist and moving on are in ``host_actions`` too, each naming the host
    who pressed and (moving on) the console button; the input log keeps the button, and a replay rebuilds it."""
    from engine.actions import CancelTwist, StartTwist, action_from_dict
    from engine.ids import Twist

    g = Game(Settings(contestants=NAMES, traitors=2, hosts=("Host", "Ann")), 5)
    g.handle(StartSeries(), now=0.0)
    g.handle(StartTwist("Ann", Twist.MURDER), now=1.0)
    g.handle(CancelTwist("Host", Twist.MURDER), now=2.0)
    g.handle(Advance("Ann", button="advance"), now=3.0)
    assert [(a["host"], a["action"], a["detail"]) for a in g.record.host_actions] == [
        ("Ann", "start_twist", "murder, day 1"),
        ("Host", "cancel_twist", "murder, day 1"),
        ("Ann", "advance", "advance"),
    ]
    assert g.log[-1]["button"] == "advance" and action_from_dict(
        {k: v for k, v in g.log[-1].items() if k != "now"}
    ) == Advance("Ann", "advance")
    assert Advance("Ann").to_dict() == {"action": "advance", "host": "Ann"}  # no button: the log as before
    assert Game.replay(g.settings, 5, g.log).record.to_dict() == g.record.to_dict()
