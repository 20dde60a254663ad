"""What a Faithful infers about recruits from quiet nights and papers (engine/bots/recruits.py)."""

from __future__ import annotations

import pytest

from engine.bots.recruits import QUIET_RECRUIT, QUIET_SAVE, quiet_nights, recruit_chances
from engine.bots.traitor_play import VoteReading
from engine.views import OutEntry, PublicView

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena")


def public(day: int, out: tuple[OutEntry, ...]) -> PublicView:
    gone = {o.name for o in out}
    living = tuple(n for n in NAMES if n not in gone)
    return PublicView(day, "round_table", tuple((n, i) for i, n in enumerate(NAMES)), living, out, None, ())


def test_a_night_with_a_murder_is_not_quiet_and_a_save_before_any_reveal_hardly_counts():
    murders = (OutEntry("Alex", "banished", 1, "faithful"), OutEntry("Kai", "murdered", 1, None))
    assert quiet_nights(public(2, murders), 3) == (0.0, 2)
    saved = (OutEntry("Alex", "banished", 1, "faithful"),)  # night 1: no murder, no Traitor revealed yet
    assert quiet_nights(public(2, saved), 3) == (pytest.approx(QUIET_SAVE), 2)


def test_a_quiet_night_after_a_traitor_was_revealed_is_likely_a_recruitment():
    out = (
        OutEntry("Alex", "banished", 1, "traitor"),
        OutEntry("Kai", "murdered", 1, None),
        OutEntry("Zuri", "banished", 2, "faithful"),
    )
    assert quiet_nights(public(3, out), 3) == (pytest.approx(QUIET_RECRUIT), 2)


def test_the_series_going_on_after_every_dealt_traitor_is_revealed_means_a_recruit():
    out = (
        OutEntry("Alex", "banished", 1, "traitor"),
        OutEntry("Kai", "murdered", 1, None),
        OutEntry("Zuri", "banished", 2, "traitor"),
        OutEntry("Steve", "murdered", 2, None),
    )
    expected, _ = quiet_nights(public(3, out), 2)
    assert expected == 1.0


def test_the_recruit_is_likelier_among_those_whose_papers_left_the_consensus_since_the_quiet_night():
    out = (
        OutEntry("Alex", "banished", 1, "traitor"),
        OutEntry("Kai", "murdered", 1, None),
        OutEntry("Zuri", "banished", 2, "faithful"),
    )
    reading = VoteReading()
    reading.note_vote(0, "Noor", True, 3)  # day 3, after the quiet night 2
    history = [("Steve", "Noor"), ("Ari", "Noor"), ("Sunny", "Noor"), ("Efe", "Makena"), ("Makena", "Noor")]
    p = dict.fromkeys(NAMES, 0.2)
    r = recruit_chances(public(3, out), 3, p, reading, history, "Steve")
    assert "Steve" not in r and max(r, key=r.__getitem__) == "Efe"
    assert sum(r.values()) == pytest.approx(QUIET_RECRUIT)
    # the same papers on the day before the quiet night tell nothing about the recruit
    before = VoteReading()
    before.note_vote(0, "Noor", True, 2)
    flat = recruit_chances(public(3, out), 3, p, before, history, "Steve")
    assert len(set(flat.values())) == 1
    assert (
        recruit_chances(public(3, out[:2] + (OutEntry("Zuri", "murdered", 2, None),)), 3, p, reading, history, "Steve")
        == {}
    )


def test_a_faithful_who_refuses_offers_reads_a_quiet_night_as_a_refusal_but_still_counts_a_certain_recruit():
    quiet = (
        OutEntry("Alex", "banished", 1, "traitor"),
        OutEntry("Kai", "murdered", 1, None),
        OutEntry("Zuri", "banished", 2, "faithful"),
    )
    p = dict.fromkeys(NAMES, 0.2)
    joins = recruit_chances(public(3, quiet), 3, p, VoteReading(), [], "Steve", others_join=True)
    refuses = recruit_chances(public(3, quiet), 3, p, VoteReading(), [], "Steve", others_join=False)
    assert sum(joins.values()) == pytest.approx(QUIET_RECRUIT) and sum(refuses.values()) == pytest.approx(QUIET_SAVE)
    every = (
        OutEntry("Alex", "banished", 1, "traitor"),
        OutEntry("Kai", "murdered", 1, None),
        OutEntry("Zuri", "banished", 2, "traitor"),
        OutEntry("Steve", "murdered", 2, None),
    )
    certain = recruit_chances(public(3, every), 2, p, VoteReading(), [], "Ari", others_join=False)
    assert sum(certain.values()) == pytest.approx(1.0)
