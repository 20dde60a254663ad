"""Rule lines of ``docs/rules/traitors.md`` that no other test pins, each played through the engine from the
rulebook's own words (``docs/rules/source/traitors-rulebook.txt``), checking what each contestant was told.

One deal for most: two Traitors (Sunny, The Bartender, false power The Analyst; Efe, The Falsifier, false power
The Researcher), four Faithful with powers (Alex The Cleanser, Kai The Detective, Zuri The Sheriff, Rhea The
Survivor) and three without (Steve, Ari, Vic). Vic is banished on day one so that night one has a murder.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    CastVote,
    ChooseEvent,
    SkipPower,
    StartSeries,
    SwearOath,
    UsePower,
)
from engine.effects import Announce, GiveItem, MoveTo, Prompt, Whisper
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Place, Power, Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.confession import OpenChest, WriteConfession, WriteResponse

HOST = "Host"
T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL
HANDS = (
    DealEntry("Sunny", T, Power.BARTENDER, Power.ANALYST),
    DealEntry("Efe", T, Power.FALSIFIER, Power.RESEARCHER),
    DealEntry("Alex", F, Power.CLEANSER),
    DealEntry("Kai", F, Power.DETECTIVE),
    DealEntry("Zuri", F, Power.SHERIFF),
    DealEntry("Rhea", F, Power.SURVIVOR),
    DealEntry("Steve", F),
    DealEntry("Ari", F),
    DealEntry("Vic", F),
)
TRAITORS = ("Sunny", "Efe")


class Play:
    """A scripted series on an explicit deal; ``do`` applies an input one second after the last and keeps every
    effect in ``fx``."""

    def __init__(self, deal: tuple[DealEntry, ...] = HANDS, seed: int = 3, **kw: Any) -> None:
        kw.setdefault("joker_night", None)
        names = tuple(e.name for e in deal)
        self.g = Game(Settings(contestants=names, hosts=(HOST,), deal=deal, **kw), seed=seed)
        self.now = 0.0
        self.fx: list[Any] = []
        self.do(StartSeries())

    def do(self, action: Action) -> list[Any]:
        self.now += 1
        fx = self.g.handle(action, now=self.now)
        self.fx += fx
        return fx

    def to(self, phase: Phase) -> None:
        """Move on (the host; every Oath question answered) until the series is in ``phase``."""
        for _ in range(60):
            if self.g.phase is phase:
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")

    def banish(self, name: str) -> None:
        """The next vote: everyone names ``name`` (``name`` names someone else)."""
        self.to(Phase.VOTE)
        for voter in list(self.g.ballot.voters):
            self.do(CastVote(voter, name if voter != name else next(c for c in self.g.ballot.candidates if c != name)))
        if self.g.phase is Phase.OATH and not self.g.night.oath_taking:
            self.do(Advance(HOST))  # an Oath clock with nobody at the Oath (phases house rule 9)

    def murder(self, target: str) -> None:
        for t in self.g.night.traitors:
            self.do(ChooseEvent(t, NightEvent.MURDER, target))
        if self.g.phase is Phase.TURRET:
            self.do(Advance(HOST))  # every choice made: the host moves on (phases house rule 9)

    def keys(self, name: str, since: int = 0) -> list[str]:
        """Message keys ``name`` received from effect ``since`` on: whispers and prompts to them, announcements."""
        out = []
        for e in self.fx[since:]:
            if isinstance(e, Announce) or (isinstance(e, (Whisper, Prompt)) and name in e.to):
                out.append(e.message.key)
        return out

    def prompted(self, since: int = 0) -> dict[str, list[str]]:
        """Who was asked what (prompt keys by contestant) from effect ``since`` on."""
        out: dict[str, list[str]] = {}
        for e in self.fx[since:]:
            if isinstance(e, Prompt):
                for n in e.to:
                    out.setdefault(n, []).append(e.message.key)
        return out

    def moves(self, since: int = 0) -> list[tuple[Place, tuple[str, ...]]]:
        return [(e.place, e.players) for e in self.fx[since:] if isinstance(e, MoveTo)]


def night_one(**kw: Any) -> Play:
    """Day one banishes Vic; the series is in night one's Turret."""
    s = Play(**kw)
    s.banish("Vic")
    assert s.g.phase is Phase.TURRET, s.g.phase
    return s


# ---------------------------------------------------------------------------------------------- §1 Setup


@pytest.mark.rule("T1.4")
def test_a_traitor_holds_a_false_power_they_may_claim_but_never_use() -> None:
    """T1.4: "Each Traitor will also be assigned a false Faithful power not already belonging to a player. They
    won't be able to use the power's ability, but they can safely claim it". Sunny's false power is The Analyst,
    which no contestant holds: Sunny is told it at the Oath, is never asked to use it, and cannot."""
    s = night_one()
    sworn = [e.message for e in s.fx if isinstance(e, Whisper) and e.to == {"Sunny"} and e.message.key == "oath.sworn"]
    assert [m.text for m in sworn] == ["You are a Traitor. Your power: The Bartender. Your false power: The Analyst."]
    assert not any(p.power is Power.ANALYST for p in s.g.players.values())
    s.murder("Steve")
    s.to(Phase.HOST_VISIT)
    asked = s.prompted()
    assert "prompt.analyst" not in asked.get("Sunny", []) and "prompt.researcher" not in asked.get("Efe", [])
    assert not set(TRAITORS) & set(s.g.night.pending)
    for refused in (UsePower("Sunny", "Kai", "Zuri"), UsePower("Efe", "Kai")):
        with pytest.raises(IllegalAction) as err:
            s.do(refused)
        assert err.value.reason == "illegal.power.none"


@pytest.mark.rule("T1.6")
@pytest.mark.parametrize("drunk", ["none", "possible", "always"])
def test_the_series_says_before_it_starts_whether_a_drunk_may_be_in_play(drunk: str) -> None:
    """T1.6: "it will typically be clarified before a series takes place whether a drunk Faithful will be, or
    could be in play". The setting is announced to everyone at the start, before day zero begins, and names
    nobody."""
    deal = tuple(
        DealEntry(e.name, e.allegiance, e.power, e.false_power, drunk == "always" and e.name == "Alex") for e in HANDS
    )
    s = Play(deal, drunk=drunk)
    said = [e.message for e in s.fx if isinstance(e, Announce)]
    keys = [m.key for m in said]
    assert keys.index(f"series.drunk.{drunk}") < keys.index("phase.day_zero")
    line = said[keys.index(f"series.drunk.{drunk}")].text
    assert not any(n in line for n in s.g.players)
    for name in s.g.players:  # the announcement reaches every contestant
        assert f"series.drunk.{drunk}" in s.keys(name)


# ---------------------------------------------------------------------------------------------- §4 The vote


@pytest.mark.rule("T4.2")
def test_a_cast_vote_is_the_paper_renamed_to_the_name_and_cannot_be_changed() -> None:
    """T4.2: "the uncast vote paper will be renamed to the targeted player's name" … "A cast vote cannot be
    changed." Kai votes Sunny: Kai's paper becomes a cast paper named Sunny and Kai is told so; a second vote is
    refused and changes nothing."""
    s = Play()
    s.to(Phase.VOTE)
    papers = [e for e in s.fx if isinstance(e, GiveItem) and e.item is Item.VOTE_PAPER]
    assert {n for e in papers for n in e.to} == set(s.g.ballot.voters)
    mark = len(s.fx)
    s.do(CastVote("Kai", "Sunny"))
    cast = [e for e in s.fx[mark:] if isinstance(e, GiveItem) and e.item is Item.CAST_VOTE_PAPER]
    assert [(set(e.to), e.label) for e in cast] == [({"Kai"}, "Sunny")]
    told = [e.message.text for e in s.fx[mark:] if isinstance(e, Whisper) and e.to == {"Kai"}]
    assert told == ["You wrote Sunny on your vote paper."]
    assert not any(isinstance(e, (Whisper, Prompt)) and e.to != {"Kai"} for e in s.fx[mark:])
    with pytest.raises(IllegalAction) as err:
        s.do(CastVote("Kai", "Efe"))
    assert err.value.reason == "illegal.vote.twice"
    assert s.g.ballot.votes["Kai"] == "Sunny"


# ---------------------------------------------------------------------------------------------- §5 Powers


@pytest.mark.rule("T5.1")
def test_the_traitors_use_their_powers_after_choosing_the_event() -> None:
    """T5.1: "After making their decision, each Traitor will also use their power's ability to hinder The
    Faithful." Neither Traitor is asked for their power until the night's murder is decided; then each is asked
    for their own power only, and no Faithful is asked anything yet."""
    s = night_one()
    mark = len(s.fx)
    s.do(ChooseEvent("Sunny", NightEvent.MURDER, "Steve"))
    assert s.prompted(mark) == {} and s.g.phase is Phase.TURRET
    s.do(ChooseEvent("Efe", NightEvent.MURDER, "Steve"))
    s.do(Advance(HOST))  # the Turret's clock ends (phases house rule 9)
    assert s.g.phase is Phase.TRAITOR_POWERS
    assert "turret.decided" in s.keys("Sunny", mark) and "turret.decided" in s.keys("Efe", mark)
    assert s.prompted(mark) == {"Sunny": ["prompt.bartender"], "Efe": ["prompt.falsifier"]}
    decided = next(i for i, e in enumerate(s.fx) if isinstance(e, Whisper) and e.message.key == "turret.decided")
    first_power = next(i for i, e in enumerate(s.fx) if isinstance(e, Prompt) and e.message.key == "prompt.bartender")
    assert decided < first_power


@pytest.mark.rule("T5.2")
def test_the_host_asks_the_sheriff_whether_to_accuse_and_whom() -> None:
    """T5.2: "Host:Would you like to accuse a player? The Sheriff:Yes. Host:Who would you like to accuse?" At the
    host's visit Zuri, The Sheriff, is asked "Would you like to accuse a player?" with every other living
    contestant to name and a way to decline; nobody else sees the question."""
    s = night_one()
    s.murder("Steve")
    s.do(Advance(HOST))  # the Traitor powers pass
    mark = len(s.fx)
    s.to(Phase.HOST_VISIT)
    asks = [e for e in s.fx if isinstance(e, Prompt) and e.message.key == "prompt.sheriff"]
    assert [set(e.to) for e in asks] == [{"Zuri"}]
    assert asks[0].message.text.startswith("Would you like to accuse a player?")
    named = [c.action.target for c in asks[0].choices if isinstance(c.action, UsePower)]
    assert sorted(named) == sorted(n for n in s.g.living() if n != "Zuri")
    assert any(isinstance(c.action, SkipPower) for c in asks[0].choices)
    s.do(SkipPower("Zuri"))  # "No": nobody is accused
    s.to(Phase.ROUND_TABLE)
    assert "sheriff.accuses" not in s.keys("Kai", mark)


@pytest.mark.rule("T5.2")
def test_the_sheriff_hears_the_hosts_second_question_word_for_word() -> None:
    """T5.2: the host's questions are "Would you like to accuse a player?" and "Who would you like to accuse?".
    Zuri, The Sheriff, alone is asked both, in the rulebook's words, in one question whose answers are "No" or a
    name (every other living contestant); the name she picks is the accusation at the next round table."""
    s = night_one()
    s.murder("Steve")
    mark = len(s.fx)
    s.do(Advance(HOST))
    s.to(Phase.HOST_VISIT)
    asks = [e for e in s.fx[mark:] if isinstance(e, Prompt) and e.message.key == "prompt.sheriff"]
    assert [set(e.to) for e in asks] == [{"Zuri"}]
    assert asks[0].message.text == "Would you like to accuse a player? Who would you like to accuse?"
    assert not any(
        "accuse" in e.message.text for e in s.fx[mark:] if isinstance(e, (Prompt, Whisper)) and "Zuri" not in e.to
    )
    s.do(UsePower("Zuri", "Sunny"))
    s.to(Phase.ROUND_TABLE)
    assert "sheriff.accuses" in s.keys("Kai", mark)


# ---------------------------------------------------------------------------------------------- §6 The Joker


def joker_night(**kw: Any) -> tuple[Play, str]:
    """Night one's host visit with the Joker offered: the murder of Steve chosen, the powers passed; returns the
    series and the contestant offered the Joker."""
    s = night_one(joker_night=1, **kw)
    s.murder("Steve")
    s.do(Advance(HOST))
    s.to(Phase.HOST_VISIT)
    holder = s.g.night.joker
    assert holder is not None
    return s, holder


@pytest.mark.rule("T6.1")
def test_accepting_the_joker_makes_the_faithful_power_false_while_it_is_held() -> None:
    """T6.1: "If a Faithful is offered The Joker power, they must make a decision before using their ability - if
    they accept, their Faithful power will become a false power until they lose The Joker power." The holder is
    asked first, may not use the power before answering, is told the power is now false, and is not asked for it
    again, that night or the next."""
    s, holder = joker_night(seed=7)  # the draw offers it to Kai, The Detective
    assert holder == "Kai" and holder in s.g.night.pending
    offer = [e for e in s.fx if isinstance(e, Prompt) and e.message.key == "joker.offer"]
    assert [set(e.to) for e in offer] == [{"Kai"}]
    with pytest.raises(IllegalAction) as err:
        s.do(UsePower("Kai", "Alex"))
    assert err.value.reason == "illegal.joker.first"
    s.do(AnswerJoker("Kai", True))
    assert "joker.accepted" in s.keys("Kai") and "Kai" not in s.g.night.pending
    s.to(Phase.BREAKFAST)
    assert not any(k.startswith("result.detective") for k in s.keys("Kai"))
    s.banish("Ari")
    s.murder("Alex")
    mark = len(s.fx)
    s.to(Phase.HOST_VISIT)  # night two: the Traitor powers pass, the offer's clock ends; the host visits
    assert s.g.phase is Phase.HOST_VISIT and "Kai" not in s.prompted(mark) and "Zuri" in s.prompted(mark)
    assert s.g.players["Kai"].power is Power.DETECTIVE and s.g.active_power("Kai") is None


@pytest.mark.rule("T6.3")
def test_the_joker_returns_to_the_faithful_power_at_the_final_round_table() -> None:
    """T6.3: "Upon arriving at the round table, The Joker will return to being their Faithful power". Six
    contestants; Vic is banished on day one, and the Joker is accepted on night one. Day two's round table has
    five: the final one. The holder is told, privately, and holds their Faithful power again."""
    deal = (HANDS[0], *HANDS[2:6], HANDS[8])  # Sunny, Alex, Kai, Zuri, Rhea, Vic
    s = Play(deal, joker_night=1)
    s.banish("Vic")
    s.to(Phase.HOST_VISIT)
    holder = s.g.night.joker
    assert holder is not None
    s.do(AnswerJoker(holder, True))
    assert s.g.active_power(holder) is None
    mark = len(s.fx)
    s.to(Phase.ROUND_TABLE)
    assert len(s.g.living()) == 5
    returned = [e for e in s.fx[mark:] if isinstance(e, Whisper) and e.message.key == "joker.returned"]
    assert [set(e.to) for e in returned] == [{holder}]
    assert s.g.active_power(holder) is s.g.players[holder].power is not None
    assert not any(isinstance(e, Announce) and e.message.key.startswith("joker") for e in s.fx[mark:])


# ---------------------------------------------------------------------------------------------- §7 The night


@pytest.mark.rule("T7.5", "T10.8")
def test_the_night_sends_the_faithful_home_and_the_traitors_to_the_oath_then_the_turret() -> None:
    """T7.5: "The night cycle typically begins with The Faithful being sent to their individual homes, and The
    Traitors being sent to the Traitors' Oath if they have not yet taken it, or the Traitors' Turret once every
    Traitor has taken the Traitors' Oath." T10.8: "Some areas are exclusive to The Traitors." Night zero: all go
    home, then each Traitor in turn to the Oath spot; night one: home, then the Traitors to the Turret. No Faithful
    is ever sent to either."""
    s = Play()
    s.do(Advance(HOST))  # day zero ends
    night0 = s.moves()
    assert night0[-2:] == [(Place.HOME, tuple(s.g.players)), (Place.OATH_SPOT, ("Sunny",))]
    mark = len(s.fx)
    s.to(Phase.BREAKFAST)
    oath = [m for m in s.moves(mark) if m[0] in (Place.OATH_SPOT, Place.TURRET)]
    assert oath == [(Place.OATH_SPOT, ("Efe",)), (Place.TURRET, TRAITORS)]
    assert "turret.traitors" in s.keys("Sunny") and "turret.traitors" not in s.keys("Alex")
    mark = len(s.fx)
    s.banish("Vic")
    night1 = s.moves(mark)
    home = night1.index((Place.HOME, tuple(s.g.living())))
    assert night1[home + 1] == (Place.TURRET, TRAITORS) and (Place.OATH_SPOT, ("Sunny",)) not in night1
    secret = {
        p for e in s.fx if isinstance(e, MoveTo) and e.place in (Place.OATH_SPOT, Place.TURRET) for p in e.players
    }
    assert secret == set(TRAITORS)


@pytest.mark.rule("T7.10")
def test_the_host_visits_each_faithful_with_something_to_do_and_only_them() -> None:
    """T7.10: "the host will individually visit each Faithful to use their ability" … "each player will only be
    visited if they actually need to be". Night one: after the Turret, the Faithful with a power to use are asked,
    each on their own; Steve and Ari, with none, and the Traitors are not."""
    s = night_one()
    s.murder("Steve")
    mark = len(s.fx)
    s.to(Phase.HOST_VISIT)  # the Traitor powers pass, the offer's clock ends; the host visits
    assert s.g.phase is Phase.HOST_VISIT
    asked = s.prompted(mark)
    assert set(asked) == {"Alex", "Kai", "Zuri"}  # The Survivor has nothing to choose
    assert all(len(keys) == 1 for keys in asked.values())
    assert all(len(e.to) == 1 for e in s.fx[mark:] if isinstance(e, Prompt))
    assert set(s.g.night.pending) == {"Alex", "Kai", "Zuri"}


@pytest.mark.rule("T7.11")
def test_a_faithful_murdered_tonight_is_visited_but_their_ability_does_not_succeed() -> None:
    """T7.11: "If eligible, a Faithful will be visited even if The Traitors attempted to murder them, though if they
    are murdered, their ability will not continue to succeed." Kai, The Detective, is the night's murder: he is
    still asked and may choose, but learns nothing: he is only told that his choice is noted and that he was
    murdered."""
    s = night_one()
    s.murder("Kai")
    s.to(Phase.HOST_VISIT)  # the Traitor powers pass, the offer's clock ends; the host visits
    assert "Kai" in s.g.night.pending and "prompt.detective" in s.prompted()["Kai"]
    mark = len(s.fx)
    s.do(UsePower("Kai", "Sunny"))
    s.do(UsePower("Alex", "Alex"))
    s.do(SkipPower("Zuri"))
    s.to(Phase.BREAKFAST)  # the visit's clock ends (phases house rule 9)
    assert not s.g.players["Kai"].alive
    assert [k for k in s.keys("Kai", mark) if not k.startswith(("phase.", "breakfast.", "clock."))] == [
        "power.noted",
        "diary.murdered",
    ]
    assert not any(k.startswith("result.") for k in s.keys("Kai"))


# ---------------------------------------------------------------------------------------------- §8 Twists


@pytest.mark.rule("T8.4", "T8.3")
def test_on_a_confession_night_the_traitors_go_to_the_confession_and_decide_after_it() -> None:
    """T8.4: "If the Confession twist is active, The Traitors will be sent to the Confession twist instead of the
    Traitors' Turret. They will make their necessary decisions after the twist concludes." T8.3: "The Traitors will
    later find out through the Confession twist" who found a murder shield. Night one after a Confession day: the
    Traitors are sent to the confession room, never to the Turret; they read Alex's confession and learn who found
    the shield there; a decision before the reply is refused; they are asked for the night's event only once the
    reply is sent, and decide it where they are. No Faithful hears any of it. Where they decide (the confession
    room) is a [house] choice: docs/house-rules.md §8 Confession twist."""
    s = Play(twists={1: (Twist.CONFESSION,)}, confession_shields=1)
    s.to(Phase.DISCUSSION)
    for n in s.g.living():  # every chest is opened: the one shield is found
        s.do(OpenChest(n))
    s.do(WriteConfession("Alex", "I am Faithful."))
    (finder,) = s.g.twist_state.shield_finders
    mark = len(s.fx)
    s.banish("Vic")
    night = s.moves(mark)
    assert (Place.CONFESSION_ROOM, TRAITORS) in night and not any(p is Place.TURRET for p, _ in night)
    for t in TRAITORS:
        assert "confession.shields" in s.keys(t, mark) and "confession.read" in s.keys(t, mark)
        assert f"Murder shields were found by: {finder}." in [
            e.message.text for e in s.fx[mark:] if isinstance(e, Whisper) and t in e.to
        ]
        assert not any(k.startswith("turret.choose") for k in s.prompted(mark).get(t, []))
    assert s.g.legal_actions("Sunny") == []
    with pytest.raises(IllegalAction, match="Answer the confessions first"):
        s.g.handle(ChooseEvent("Sunny", NightEvent.MURDER, "Kai"), now=s.now + 1)
    asked = len(s.fx)
    s.do(WriteResponse("Sunny", "We hear you."))
    s.do(Advance(HOST))  # the Confession's clock ends (phases house rule 9)
    for t in TRAITORS:
        assert "turret.after_confession" in s.keys(t, asked)
        assert any(k.startswith("turret.choose") for k in s.prompted(asked).get(t, []))
    with pytest.raises(IllegalAction):
        s.g.handle(WriteResponse("Efe", "Too late."), now=s.now + 1)
    s.murder("Kai")
    assert s.g.night is not None and s.g.night.record.target == "Kai"
    assert not any(p in (Place.TURRET, Place.CONFESSION_ROOM) for p, _ in s.moves(asked))
    for name in ("Alex", "Kai", "Zuri", "Rhea", "Steve", "Ari"):
        assert not any(
            k.startswith(("confession.read", "confession.shields", "turret."))
            for k in s.keys(name, mark)
            if k not in ("turret.home",)
        ), name


# ---------------------------------------------------------------------------------------------- §10 Items and places


@pytest.mark.rule("T10.1")
def test_every_contestant_receives_a_notes_book_at_the_start() -> None:
    """T10.1: "The Notes book, which all players are given at the beginning of a series to make note of any
    information they deem important". Each contestant gets one, of their own, before day zero begins."""
    s = Play()
    books = [e for e in s.fx if isinstance(e, GiveItem) and e.item is Item.NOTES_BOOK]
    assert sorted(n for e in books for n in e.to) == sorted(s.g.players)
    assert all(len(e.to) == 1 for e in books)
    day_zero = next(i for i, e in enumerate(s.fx) if isinstance(e, Announce) and e.message.key == "phase.day_zero")
    assert all(s.fx.index(e) < day_zero for e in books)


def diary_books(s: Play, since: int = 0) -> list[tuple[str, ...]]:
    return [tuple(sorted(e.to)) for e in s.fx[since:] if isinstance(e, GiveItem) and e.item is Item.DIARY_BOOK]


@pytest.mark.rule("T10.4", "T7.6")
def test_diary_room_books_go_to_the_murdered_the_seduced_and_the_alerted_survivor() -> None:
    """T10.4: "the diary room books, which can be received by a Faithful player if they are being murdered,
    seduced, or alerted if they are The Survivor". The murdered and the alerted Survivor are sent to the diary room
    and receive a book there; the seduced receives one at home, where the Traitors come to them (T7.6); each is
    told why; nobody else receives one."""
    s = night_one()
    mark = len(s.fx)
    s.murder("Steve")
    s.to(Phase.BREAKFAST)
    assert diary_books(s, mark) == [("Steve",)] and "diary.murdered" in s.keys("Steve", mark)
    assert (Place.DIARY_ROOM, ("Steve",)) in s.moves(mark)
    s.banish("Ari")
    mark = len(s.fx)
    s.murder("Rhea")
    s.to(Phase.BREAKFAST)
    assert diary_books(s, mark) == [("Rhea",)] and "survivor.alerted" in s.keys("Rhea", mark)
    assert (Place.DIARY_ROOM, ("Rhea",)) in s.moves(mark) and s.g.players["Rhea"].alive
    s = night_one()
    mark = len(s.fx)
    for t in TRAITORS:
        s.do(ChooseEvent(t, NightEvent.SEDUCE, "Alex"))
    s.to(Phase.OFFER)
    assert diary_books(s, mark) == [("Alex",)] and "offer.seduce" in s.keys("Alex", mark)
    assert (Place.HOME_VISIT, s.g.night.traitors) in s.moves(mark) and (Place.DIARY_ROOM, ("Alex",)) not in s.moves(
        mark
    )
    s.do(AnswerOffer("Alex", False))
    s.to(Phase.BREAKFAST)
    assert diary_books(s, mark) == [("Alex",)]


@pytest.mark.rule("T10.7", "T9.2")
def test_the_round_table_each_day_the_diary_room_only_at_night_and_the_finale_area() -> None:
    """T10.7: the round table is "where players will meet to banish a player each day"; the diary room is
    "inaccessible unless summoned during the night"; the finale area is "where the four finalists will meet".
    T9.2: the final banishment leaves four finalists "who will enter the finale immediately after"."""
    deal = (HANDS[0], *HANDS[2:6], HANDS[8])  # Sunny, Alex, Kai, Zuri, Rhea, Vic
    s = Play(deal)
    days: list[int] = []
    diary_phases: set[Phase] = set()
    while s.g.phase is not Phase.TORCHES:
        mark = len(s.fx)
        phase = s.g.phase
        if phase is Phase.VOTE:
            s.banish("Vic" if s.g.players["Vic"].alive else "Rhea")
        elif phase is Phase.OATH and s.g.night.oath_taking:
            s.do(SwearOath(s.g.night.oath_queue[0]))
        else:
            s.do(Advance(HOST))
        for place, players in s.moves(mark):
            if place is Place.ROUND_TABLE:
                assert players == tuple(s.g.living()) or s.g.phase is Phase.TORCHES
                days.append(s.g.day)
            if place is Place.DIARY_ROOM:
                diary_phases.add(phase)
    assert days == [1, 2]
    assert diary_phases <= {Phase.TURRET, Phase.TRAITOR_POWERS, Phase.OFFER, Phase.HOST_VISIT}
    assert s.moves()[-1] == (Place.FINALE_AREA, tuple(s.g.living())) and len(s.g.living()) == 4
    assert "phase.finale" in s.keys("Alex")
