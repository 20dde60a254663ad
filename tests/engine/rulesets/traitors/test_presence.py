"""Contestants leaving the server mid-series and coming back (issue 6; docs/house-rules.md "Presence")."""

from __future__ import annotations

import pytest

from engine.actions import CastVote, ContestantLeft, ContestantReturned, StartSeries, SwearOath, TimerExpired
from engine.effects import Prompt, Whisper
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Place
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase

NAMES6 = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")


def to_first_vote(d):
    d.until(Phase.OATH)
    while d.game.phase is Phase.OATH:
        if d.game.night.oath_taking:
            d.do(SwearOath(d.game.night.oath_queue[0]))
        else:
            d.advance()  # the Oath's clock runs out (phases house rule 9)
    d.until(Phase.VOTE)


def six(series):
    return series(names=NAMES6, traitors=("Ari",))


def test_host_is_told_and_absent_voter_counts_as_no_vote(series):
    d = six(series)
    to_first_vote(d)
    fx = d.do(ContestantLeft("Kai"))
    assert fx == [Whisper(frozenset({"Host"}), fx[0].message)]
    assert fx[0].message.text == "Kai has left the castle (disconnected)."
    assert not d.game.players["Kai"].present and d.game.present() == ["Alex", "Zuri", "Steve", "Ari", "Noor"]
    votes = {"Alex": "Ari", "Zuri": "Ari", "Steve": "Ari", "Ari": "Alex"}
    for voter, target in votes.items():
        d.do(CastVote(voter, target))
    assert d.game.phase is Phase.VOTE  # Noor (present) has not voted yet
    d.do(CastVote("Noor", "Ari"))
    # everyone still present has voted: the vote closed, Kai's paper was No vote
    assert d.game.phase is not Phase.VOTE
    table = d.game.table
    assert table.rounds[0].votes["Kai"] is None
    assert table.banished == "Ari"
    assert "Kai: no vote" in d.game.inbox["Alex"]


def test_last_missing_voter_leaving_closes_the_vote(series):
    d = six(series)
    to_first_vote(d)
    for voter, target in {"Alex": "Ari", "Zuri": "Ari", "Steve": "Ari", "Ari": "Alex", "Noor": "Ari"}.items():
        d.do(CastVote(voter, target))
    assert d.game.phase is Phase.VOTE
    d.do(ContestantLeft("Kai"))
    assert d.game.table.banished == "Ari"


def test_leaving_after_voting_keeps_the_vote(series):
    d = six(series)
    to_first_vote(d)
    d.do(CastVote("Kai", "Ari"))
    d.do(ContestantLeft("Kai"))
    for voter, target in {"Alex": "Ari", "Zuri": "Ari", "Steve": "Alex", "Ari": "Alex", "Noor": "Ari"}.items():
        d.do(CastVote(voter, target))
    assert d.game.table.rounds[0].votes["Kai"] == "Ari"
    assert d.game.table.banished == "Ari"


def test_everyone_gone_never_closes_the_vote_by_itself(series):
    """A server restart drops everyone at once; the vote then waits for its clock or the host."""
    d = six(series)
    to_first_vote(d)
    for n in NAMES6:
        d.do(ContestantLeft(n))
    assert d.game.phase is Phase.VOTE and d.game.ballot.votes == {}
    d.do(TimerExpired(d.game.phase_seq))
    # Nobody voted: everyone votes again (house rule no_votes), and that vote waits for its clock too.
    assert d.game.ballot.kind == "revote" and [r.kind for r in d.game.table.rounds] == ["first"]
    d.do(TimerExpired(d.game.phase_seq))
    assert d.game.phase is not Phase.VOTE and d.game.table.deadlock == list(NAMES6)


def test_return_during_vote_offers_the_vote_again(series):
    d = six(series)
    to_first_vote(d)
    d.do(ContestantLeft("Kai"))
    fx = d.do(ContestantReturned("Kai"))
    assert d.game.players["Kai"].present
    to_host = [e for e in fx if isinstance(e, Whisper) and e.to == {"Host"}]
    assert [e.message.text for e in to_host] == ["Kai is back in the castle."]
    welcome = [e for e in fx if isinstance(e, Whisper) and e.to == {"Kai"}]
    assert [e.message.key for e in welcome] == ["presence.welcome_back"]
    (prompt,) = [e for e in fx if isinstance(e, Prompt)]
    assert prompt.to == {"Kai"}
    assert {c.action for c in prompt.choices} == {CastVote("Kai", n) for n in NAMES6 if n != "Kai"}
    d.do(CastVote("Kai", "Ari"))
    assert d.game.ballot.votes["Kai"] == "Ari"


def test_return_after_voting_is_not_prompted_again(series):
    d = six(series)
    to_first_vote(d)
    d.do(CastVote("Kai", "Ari"))
    d.do(ContestantLeft("Kai"))
    assert not [e for e in d.do(ContestantReturned("Kai")) if isinstance(e, Prompt)]


def test_illegal_presence_inputs_change_nothing(series):
    d = six(series)
    to_first_vote(d)
    before = d.snapshot()
    with pytest.raises(IllegalAction) as info:
        d.game.handle(ContestantReturned("Kai"), now=d.now)
    assert info.value.reason == "illegal.presence.here"
    with pytest.raises(InvalidCommand):
        d.game.handle(ContestantLeft("Nobody"), now=d.now)
    assert d.snapshot() == before
    d.do(ContestantLeft("Kai"))
    before = d.snapshot()
    with pytest.raises(IllegalAction) as info:
        d.game.handle(ContestantLeft("Kai"), now=d.now)
    assert info.value.reason == "illegal.presence.away"
    assert d.snapshot() == before


def test_before_the_series_starts_presence_is_illegal():
    from engine.rulesets.traitors.settings import Settings

    g = Game(Settings(contestants=NAMES6, traitors=1), seed=3)
    with pytest.raises(IllegalAction):
        g.handle(ContestantLeft("Kai"), now=0)


def test_presence_inputs_replay_exactly_and_positions_are_tracked(series):
    d = six(series)
    assert d.game.places == dict.fromkeys(NAMES6, (Place.FOYER, None))
    to_first_vote(d)
    assert d.game.places["Kai"] == (Place.ROUND_TABLE, 2)
    d.do(ContestantLeft("Kai"))
    d.do(ContestantReturned("Kai"))
    d.do(ContestantLeft("Zuri"))
    g = d.game
    again = Game.replay(g.settings, g.seed, g.log)
    assert again.record.to_dict() == g.record.to_dict()
    assert again.inbox == g.inbox and again.places == g.places
    assert {n: p.present for n, p in again.players.items()} == {n: p.present for n, p in g.players.items()}
    assert [e["action"] for e in g.log[-3:]] == ["contestant_left", "contestant_returned", "contestant_left"]


def test_no_hosts_means_no_whisper():
    from engine.rulesets.traitors.settings import Settings

    g = Game(Settings(contestants=NAMES6, traitors=1), seed=3)
    g.handle(StartSeries(), now=0)
    assert g.handle(ContestantLeft("Kai"), now=1) == []
