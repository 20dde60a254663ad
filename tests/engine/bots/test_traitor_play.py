"""A smart Traitor reads how the Faithful vote; offers are refused, or answered to win (engine/bots/traitor_play.py)."""

from __future__ import annotations

import random

from engine.actions import CastVote, ChooseEvent
from engine.bots import OpportunistBot, make_bot
from engine.bots.belief import PublicBelief, space
from engine.bots.traitor_play import BUS_AT, NAMED_AT, VoteReading, accepts_offer, bloc_vote, consensus, seduce
from engine.ids import NightEvent

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe")
TRAITORS = {"Alex", "Kai"}


def suspecting(name: str, factor: float = 4.0, k: int = 2) -> PublicBelief:
    """A public record under which every set of Traitors with ``name`` is ``factor`` times likelier."""
    h = space(NAMES, k)
    bit = 1 << h.index[name]
    weights = [factor if m & bit else 1.0 for m in h.masks]
    return PublicBelief(h, weights, (1 << len(NAMES)) - 1, tuple(() for _ in NAMES), (), -1)


def reading_after(papers: list[tuple[str, str]], top: str) -> tuple[VoteReading, list[tuple[str, str]]]:
    """A Traitor's reading after one vote with a distinct consensus ``top`` and these revealed papers."""
    reading = VoteReading()
    reading.note_vote(0, top, True, 1)
    return reading, papers


def votes(me: str) -> list[CastVote]:
    return [CastVote(me, n) for n in NAMES if n != me]


def test_the_consensus_is_the_living_contestant_the_evidence_points_at():
    assert consensus(suspecting("Zuri")) == ("Zuri", True)
    assert consensus(suspecting("Zuri", factor=1.0)) == ("Alex", False)  # all alike: the first seat, not distinct


def test_faithful_who_spread_their_papers_are_outvoted_by_the_traitors_bloc():
    """The Faithful wrote anything but the consensus: the Traitors' bloc decides, so no fellow is given up."""
    spread = [("Zuri", "Noor"), ("Steve", "Sunny"), ("Ari", "Efe"), ("Noor", "Zuri"), ("Sunny", "Ari")]
    reading, history = reading_after(spread * 2, "Steve")
    node = suspecting("Kai")
    assert reading.follow_rate(history) < 0.2
    picks = {bloc_vote(reading, node, votes("Alex"), TRAITORS, "Alex", NAMES, history).target for _ in range(3)}
    assert picks == {"Zuri"}  # the likeliest Faithful (every Faithful alike: the first seat), never Kai


def test_faithful_who_follow_the_evidence_decide_the_vote_so_a_suspected_fellow_is_given_up():
    follow = [(v, "Steve") for v in ("Zuri", "Ari", "Noor", "Sunny", "Efe")]
    reading, history = reading_after(follow, "Steve")
    node = suspecting("Kai")
    assert consensus(node)[0] == "Kai" and node.marginals()[1] >= BUS_AT
    assert reading.follow_rate(history) > 0.8
    assert bloc_vote(reading, node, votes("Alex"), TRAITORS, "Alex", NAMES, history) == CastVote("Alex", "Kai")
    # Kai cannot write his own name: he writes the likeliest Faithful
    assert bloc_vote(reading, node, votes("Kai"), TRAITORS, "Kai", NAMES, history) == CastVote("Kai", "Zuri")


def test_the_traitors_write_a_suspected_faithful_together():
    follow = [(v, "Steve") for v in ("Zuri", "Ari", "Noor", "Sunny", "Efe")]
    for papers in (follow, [("Zuri", "Noor"), ("Ari", "Efe")]):
        reading, history = reading_after(papers, "Steve")
        for me in TRAITORS:
            assert bloc_vote(reading, suspecting("Noor"), votes(me), TRAITORS, me, NAMES, history).target == "Noor"


def test_a_traitors_own_and_fellows_papers_do_not_count_as_faithful_papers():
    reading, history = reading_after([("Alex", "Zuri"), ("Kai", "Zuri"), ("Noor", "Steve")], "Steve")
    reading.fellows |= TRAITORS
    assert reading.follow_rate(history) == (0.7 * 2 + 1) / 3  # the prior counts two papers


def test_answering_to_win_accepts_an_ultimatum_and_a_seduction_unless_the_traitors_are_named():
    """Declining an ultimatum is murder (only surviving Faithful win); a recruit wins with the Traitors."""
    living = ("Alex", "Kai", "Zuri", "Steve")
    assert accepts_offer(True, None, living, "Zuri", to_win=True)
    unsure = {"Alex": 0.5, "Kai": 0.5, "Steve": 0.4}
    sure = {"Alex": 0.9, "Kai": 0.8, "Steve": 0.1}
    assert sure["Alex"] + sure["Kai"] >= NAMED_AT > unsure["Alex"] + unsure["Kai"]
    assert accepts_offer(False, unsure, living, "Zuri", to_win=True)
    assert not accepts_offer(False, sure, living, "Zuri", to_win=True)
    assert not accepts_offer(False, None, living, "Zuri", to_win=True)  # a contestant who cannot count stays Faithful


def test_playing_for_the_side_refuses_every_offer():
    living = ("Alex", "Kai", "Zuri", "Steve")
    unsure = {"Alex": 0.5, "Kai": 0.5, "Steve": 0.4}
    assert not accepts_offer(True, unsure, living, "Zuri", to_win=False)
    assert not accepts_offer(False, unsure, living, "Zuri", to_win=False)


def test_the_opportunist_kind_answers_offers_to_win_and_the_smart_kind_refuses():
    rng = random.Random(1)
    assert make_bot("opportunist", "Zuri", rng, ruleset="traitors").joins_to_win  # type: ignore[attr-defined]
    assert OpportunistBot("Zuri", rng).joins_to_win
    assert not make_bot("smart", "Zuri", rng, ruleset="traitors").joins_to_win  # type: ignore[attr-defined]
    assert type(make_bot("opportunist", "Zuri", rng, ruleset="black_knights")) is type(
        make_bot("smart", "Zuri", rng, ruleset="black_knights")
    )  # no offers in the club rulesets


def test_the_traitors_seduce_only_after_losing_a_fellow_and_while_the_evidence_does_not_name_them():
    node = suspecting("Zuri", k=3)
    events = [ChooseEvent("Alex", e, t) for e in (NightEvent.MURDER, NightEvent.SEDUCE) for t in ("Zuri", "Ari")]
    assert seduce(events, node, TRAITORS, 3)
    assert not seduce(events, node, TRAITORS | {"Efe"}, 3)  # three Traitors: the rules offer only murder anyway
    assert not seduce(events[:2], node, TRAITORS, 3)  # no seduction offered
    assert not seduce(events, None, TRAITORS, 3)
    h = space(NAMES, 3)
    both = (1 << h.index["Alex"]) | (1 << h.index["Kai"])
    named = PublicBelief(h, [50.0 if m & both == both else 1.0 for m in h.masks], (1 << 8) - 1, ((),) * 8, (), -1)
    assert not seduce(events, named, TRAITORS, 3)
