"""The Faithful's weights over the possible sets of Traitors (engine/bots/belief.py)."""

from __future__ import annotations

import random

import pytest

from engine.bots.belief import Private, PublicBelief, advance, space
from engine.bots.suspicion import SuspicionBot

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")


def chances(node: PublicBelief, exclude: str | None = None, private: Private | None = None) -> dict[str, float]:
    mask = 0 if exclude is None else 1 << node.h.index[exclude]
    return dict(zip(NAMES, node.marginals(mask, private), strict=True))


def test_every_set_of_traitors_is_a_hypothesis():
    h = space(NAMES, 2)
    assert len(h.sets) == 15 and len(set(h.masks)) == 15
    with pytest.raises(ValueError):
        space(NAMES, 7)


def test_nothing_known_gives_every_contestant_the_same_chance_and_a_faithful_excludes_themself():
    root = PublicBelief.root(NAMES, 2)
    assert all(p == pytest.approx(2 / 6) for p in chances(root).values())
    mine = chances(root, exclude="Alex")
    assert mine["Alex"] == 0 and mine["Kai"] == pytest.approx(2 / 5)


def test_a_murder_and_a_faithful_reveal_clear_and_a_traitor_reveal_convicts():
    node = PublicBelief.root(NAMES, 2)
    node = advance(node, ("murdered", "Kai"))
    node = advance(node, ("revealed", "Zuri", "0"))
    node = advance(node, ("revealed", "Steve", "1"))
    p = chances(node)
    assert p["Kai"] == 0 and p["Zuri"] == 0 and p["Steve"] > 0.9


def test_a_traitor_seldom_votes_for_a_fellow_so_a_revealed_traitors_papers_clear_their_targets():
    node = PublicBelief.root(NAMES, 2)
    for voter, target in (("Steve", "Ari"), ("Ari", "Steve"), ("Noor", "Kai")):
        node = advance(node, ("paper", voter, target))
    node = advance(node, ("left", "Steve"))
    node = advance(node, ("revealed", "Steve", "1"))
    p = chances(node)
    # Steve (a Traitor) wrote Ari and Ari wrote Steve: Ari is less likely the other Traitor than Kai or Zuri.
    assert p["Ari"] < p["Zuri"]


def test_private_answers_weigh_by_trust_and_the_analyst_links_two():
    node = PublicBelief.root(NAMES, 2)
    private = Private()
    private.is_traitor(node.h, "Kai", True, 0.9)
    p = chances(node, "Alex", private)
    assert p["Kai"] > 0.8
    private.same_side(node.h, "Kai", "Zuri", True, 0.9)
    q = chances(node, "Alex", private)
    assert q["Zuri"] > p["Zuri"]
    different = Private()
    different.same_side(node.h, "Kai", "Zuri", False, 0.99)
    different.is_traitor(node.h, "Kai", False, 0.99)
    assert chances(node, "Alex", different)["Zuri"] > 0.9


def test_the_same_record_gives_the_same_node_to_every_contestant():
    root = PublicBelief.root(NAMES, 2)
    assert advance(root, ("murdered", "Kai")) is advance(root, ("murdered", "Kai"))


def test_a_smart_faithful_learns_only_from_what_it_was_told():
    """The bot's chances come from its messages: the welcome's count, a murder, its own Researcher answer."""

    class View:
        class public:  # noqa: N801 - the shape of PublicView
            seats = tuple((n, i) for i, n in enumerate(NAMES))

    b = SuspicionBot("Alex", random.Random(1))
    b.observe("series.welcome", (("count", "6"), ("traitors", "2")))
    b.observe("breakfast.murdered", (("player", "Kai"),))
    b.observe("result.researcher", (("player", "Zuri"), ("first", "The Silencer"), ("second", "The Spy")))
    p = b._chances(View)
    assert p is not None
    assert p["Kai"] == 0 and p["Alex"] == 0 and max(p, key=p.__getitem__) == "Zuri"
