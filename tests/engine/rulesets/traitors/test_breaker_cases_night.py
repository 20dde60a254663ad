"""A rules lawyer's cases for The Traitors, continued: the Joker (§6), the night (§7), the finale (§9) and the
castle's places (§10), read from the rulebook (``docs/rules/source/traitors-rulebook.txt``) and the rules page
(``docs/rules/traitors.md``), each played through the engine, checking what each contestant was told. The casts
and the scripted series are those of ``test_breaker_cases``; as there, an open choice names its ``[house]`` line.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import AnswerJoker, AnswerOffer, AskHappy, ChooseEvent, ChooseTorch, SkipPower, SwearOath
from engine.effects import Announce, GiveItem, MoveTo, Prompt, Whisper
from engine.errors import IllegalAction
from engine.ids import Item, NightEvent, Place, Torch, Twist
from engine.outcome import Winner
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.twists.murder import ChooseSwordBearer, StrikeWithSword
from tests.engine.rulesets.traitors.test_breaker_cases import (
    EVERY_POWER,
    HOST,
    ONE_TRAITOR,
    TWO_TRAITORS,
    Series,
    night_one,
)

# ---------------------------------------------------------------------------------------------- §6 The Joker


def _joker_rhea() -> Series:
    """Night one offers the Joker to Rhea (the Survivor), who accepts; day two banishes Omar."""
    s = night_one(joker_night=1, seed=25)
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
    s.to(Phase.TRAITOR_POWERS)  # each night stage runs its whole clock (phases house rule 9)
    for n in list(s.g.night.pending):
        s.do(SkipPower(n))
    s.to(Phase.HOST_VISIT)
    assert s.g.night.joker == "Rhea"
    with pytest.raises(IllegalAction):
        s.g.handle(SkipPower("Hana"), now=s.now + 1)  # the murdered is not asked for the Joker
    s.do(AnswerJoker("Rhea", True))
    s.powers()
    s.to(Phase.VOTE)
    s.vote("Omar")
    return s


@pytest.mark.rule("T6.1", "T5.3")
def test_a_joker_survivors_power_is_false_so_an_attack_murders_them() -> None:
    """T6.1: *"if they accept, their Faithful power will become a false power until they lose The Joker power"*.
    T5.3: the Survivor is alerted *"as per the rules of the power"*. Rhea, the Survivor, holds the Joker: her power
    is false, so the Traitors' attack murders her (no alert)."""
    s = _joker_rhea()
    mark = len(s.fx)
    s.night(murder="Rhea")
    assert not s.alive("Rhea")
    assert "survivor.alerted" not in s.keys("Rhea", mark) and "diary.murdered" in s.keys("Rhea", mark)


@pytest.mark.rule("T6.3", "T6.2", "T9.2")
def test_the_joker_at_the_final_round_table_is_faithful_again_and_its_banishment_ends_nothing() -> None:
    """T6.3: *"Upon arriving at the round table, The Joker will return to being their Faithful power"*. T6.2:
    *"If The Joker is banished, the series will end immediately."* Zuri holds the Joker at the round table of five:
    she is told she is back to her power; banished there, she leaves without a reveal and the finale begins."""
    s = night_one(ONE_TRAITOR, joker_night=1)
    s.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Bob"))
    s.to(Phase.TRAITOR_POWERS)  # each night stage runs its whole clock (phases house rule 9)
    s.do(SkipPower("Sunny"))
    s.to(Phase.OFFER)
    s.do(AnswerOffer("Bob", False))
    s.to(Phase.HOST_VISIT)
    assert s.g.night.joker == "Zuri"
    s.do(AnswerJoker("Zuri", True))
    assert "Zuri" not in s.g.night.pending  # her Sheriff power is false now
    s.powers()
    s.to(Phase.VOTE)
    s.vote("Steve")
    s.ultimatum("Alex", False)
    s.to(Phase.VOTE)
    s.vote("Kai")
    mark = len(s.fx)
    s.to(Phase.VOTE)
    assert len(s.g.ballot.voters) == 5
    assert "joker.returned" in s.keys("Zuri", mark)
    s.vote("Zuri")
    assert not s.g.is_over and s.g.phase is Phase.TORCHES
    assert "joker.banished" not in s.keys(None, mark) and s.tables()[-1].revealed is None


# ---------------------------------------------------------------------------------------------- §7 The night


@pytest.mark.rule("T7.7", "T7.8", "T7.9")
@pytest.mark.parametrize(
    ("hands", "banish", "allowed"),
    [
        (EVERY_POWER, "Vic", {NightEvent.MURDER}),
        (TWO_TRAITORS, "Vic", {NightEvent.MURDER, NightEvent.SEDUCE}),
        (ONE_TRAITOR, "Vic", {NightEvent.ULTIMATUM}),
    ],
)
def test_the_nights_events_follow_the_number_of_traitors(hands: Any, banish: str, allowed: set[NightEvent]) -> None:
    """T7.7: *"This will most commonly be an attempt to murder a Faithful"*. T7.8: *"if there are two Traitors,
    they gain the option to attempt to seduce a player"*. T7.9: *"if there is only one Traitor, they must instead
    choose a player to give an ultimatum"*. Three Traitors may only murder; two may murder or seduce; one must give
    an ultimatum (no murder, no seduction). A Traitor is never a target."""
    s = night_one(hands, banish=banish)
    traitor = s.g.night.traitors[0]
    for event in {NightEvent.MURDER, NightEvent.SEDUCE, NightEvent.ULTIMATUM} - allowed:
        with pytest.raises(IllegalAction):
            s.g.handle(ChooseEvent(traitor, event, "Alex"), now=s.now + 1)
    for other in s.g.night.traitors[1:]:
        with pytest.raises(IllegalAction):
            s.g.handle(ChooseEvent(traitor, NightEvent.MURDER, other), now=s.now + 1)
    for event in allowed:
        probe = night_one(hands, banish=banish)
        probe.do(ChooseEvent(traitor, event, "Alex"))


@pytest.mark.rule("T7.9", "T10.4")
def test_an_ultimatum_declined_by_the_survivor_murders_her_even_if_guarded() -> None:
    """T7.9: *"give an ultimatum, either recruiting them as a Traitor, or murdering them, even if they are
    protected"*. T10.4: *"the diary room books, which can be received by a Faithful player if they are being
    murdered, seduced"*. Rhea (the Survivor), guarded by Omar, declines the last Traitor's ultimatum: she gets the
    diary book with the ultimatum, then is murdered (never alerted)."""
    s = night_one(ONE_TRAITOR)
    mark = len(s.fx)
    s.ultimatum("Rhea", False, visit={"Omar": ("Rhea",)})
    assert "offer.ultimatum" in s.keys("Rhea", mark)
    assert any(isinstance(e, GiveItem) and e.item is Item.DIARY_BOOK and "Rhea" in e.to for e in s.fx[mark:])
    assert not s.alive("Rhea")
    assert "survivor.alerted" not in s.keys("Rhea", mark) and "diary.murdered" in s.keys("Rhea", mark)
    assert "Rhea was murdered in the night." in s.said(mark)


@pytest.mark.rule("T7.11")
def test_a_murdered_cleansers_cleanse_and_a_murdered_analysts_answer_do_not_happen() -> None:
    """T7.11: *"a Faithful will be visited even if The Traitors attempted to murder them, though if they are
    murdered, their ability will not continue to succeed"*. Steve (the Cleanser) is murdered after cleansing Kai:
    the Silencer's silence lands on Kai. Another night, Alex (the Analyst) is murdered: visited, but told nothing."""
    s = night_one()
    s.night(murder="Steve", traitor={"Makena": "Kai"}, visit={"Steve": ("Kai",)})
    assert "prompt.cleanser" in s.keys("Steve")
    s.to(Phase.VOTE)
    assert "Kai" not in s.g.ballot.voters
    s = night_one()
    mark = len(s.fx)
    s.night(murder="Alex", visit={"Alex": ("Sunny", "Kai")})
    keys = s.keys("Alex", mark)
    assert "prompt.analyst" in keys and not any(k.startswith("result.analyst") for k in keys)


@pytest.mark.rule("T7.11", "T2.1")
def test_a_murdered_sobers_test_leaves_the_drunk_drunk() -> None:
    """T7.11: a murdered Faithful's *"ability will not continue to succeed"*. Ari (the Sober) tests the drunk Alex
    and is murdered: Ari learns nothing, and Alex's answer that night is still false (Analyst: Sunny, a Traitor,
    and Kai told "the same allegiance")."""
    s = night_one(drunk="Alex")
    mark = len(s.fx)
    s.night(murder="Ari", visit={"Ari": ("Alex",), "Alex": ("Sunny", "Kai")})
    assert not any(k.startswith("result.sober") for k in s.keys("Ari", mark))
    assert "Sunny and Kai have the same allegiance." in s.told("Alex", mark)


@pytest.mark.rule("T7.2", "T7.5")
def test_the_oath_one_at_a_time_and_the_traitors_named_only_when_all_have_sworn() -> None:
    """T7.5: *"The Traitors being sent to the Traitors' Oath if they have not yet taken it, or the Traitors' Turret
    once every Traitor has taken the Traitors' Oath"*. T7.2: *"One Traitor at a time will take the Traitors' Oath
    ... before The Traitors learn the identities of their fellow Traitors"*. Night zero: everyone goes home; each
    Traitor in turn alone at the Oath spot; no Traitor is told another's name until all three have sworn and are
    sent to the Turret together."""
    s = Series()
    mark = len(s.fx)
    s.advance()
    for traitor in ("Sunny", "Efe", "Makena"):
        assert s.g.phase is Phase.OATH and s.g.night.oath_queue[0] == traitor
        for other in ("Sunny", "Efe", "Makena"):
            text = " ".join(s.told(other, mark))
            assert not any(n in text for n in ("Sunny", "Efe", "Makena") if n != other)
        for _ in range(3):
            s.do(SwearOath(traitor))
        s.advance()  # the Oath's clock ends (phases house rule 9)
    moves = [e for e in s.fx[mark:] if isinstance(e, MoveTo)]
    oath = [m.players for m in moves if m.place is Place.OATH_SPOT]
    assert oath == [("Sunny",), ("Efe",), ("Makena",)]
    turret = [m for m in moves if m.place is Place.TURRET]
    assert [m.players for m in turret] == [("Sunny", "Efe", "Makena")]
    assert moves.index(turret[0]) > max(moves.index(m) for m in moves if m.place is Place.OATH_SPOT)
    assert "The Traitors: Sunny, Efe, Makena." in s.told("Efe")


@pytest.mark.rule("T7.2", "T7.6", "T7.8", "T10.8")
def test_a_seduced_recruit_swears_the_next_night_and_only_traitors_go_to_the_oath_or_turret() -> None:
    """T7.2: the Oath happens *"when a Traitor is recruited"*, before entering the Turret for the first time. T7.8:
    seduction. T10.8: *"Some areas are exclusive to The Traitors."* Kai accepts the seduction: he is told he is a
    Traitor, is not visited for his Detective power, swears the Oath alone on the next night and only then is told
    the Traitors' list; before it he knows only the two who came to his home with the offer (T7.6: the Traitors
    meet him); nobody but a Traitor is ever sent to the Oath spot or the Turret."""
    s = night_one(TWO_TRAITORS)
    mark = len(s.fx)
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.SEDUCE, "Kai"))
    s.powers()
    assert "offer.seduce" in s.keys("Kai", mark)
    s.do(AnswerOffer("Kai", True))
    assert "recruit.welcome" in s.keys("Kai", mark)
    s.powers()
    assert "prompt.detective" not in s.keys("Kai", mark)
    assert [t for t in s.told("Kai", mark) if "Sunny" in t or "Efe" in t] == [
        "The Traitors come to your home in cloak and lantern: Sunny, Efe."
    ]
    s.to(Phase.VOTE)
    s.vote("Omar")
    assert s.g.phase is Phase.OATH and list(s.g.night.oath_queue) == ["Kai"]
    s.to(Phase.TURRET)
    assert "The Traitors: Sunny, Efe, Kai." in s.told("Kai")
    traitors = {"Sunny", "Efe", "Kai"}
    for e in s.fx:
        if isinstance(e, MoveTo) and e.place in (Place.OATH_SPOT, Place.TURRET):
            assert set(e.players) <= traitors, e


@pytest.mark.rule("T7.10", "T1.4")
def test_the_host_visits_only_faithful_who_need_it() -> None:
    """T7.10: *"the host will individually visit each Faithful to use their ability"* … *"each player will only be
    visited if they actually need to be"*. T1.4: a Traitor's false power cannot be used. At night one's visit no
    Traitor, nor  the passive Spy, Historian or Survivor is prompted; after the Sheriff
    has accused once, the Sheriff is not visited again."""
    s = night_one()
    mark = len(s.fx)
    s.night(murder="Hana", visit={"Zuri": ("Alex",)})
    visited = {
        n
        for e in s.fx[mark:]
        if isinstance(e, Prompt)
        and e.message.key.startswith("prompt.")
        and not e.message.key.startswith(("prompt.bartender", "prompt.falsifier", "prompt.silencer"))
        for n in e.to
    }
    assert not visited & {"Sunny", "Efe", "Makena", "Noor", "Hana", "Rhea"}
    assert "Zuri" in visited
    s.to(Phase.VOTE)
    s.vote("Omar")
    mark = len(s.fx)
    s.night(murder="Rex")
    assert "prompt.sheriff" not in s.keys("Zuri", mark)


@pytest.mark.rule("T7.14")
def test_the_murdered_learn_it_in_the_diary_room_after_the_visits() -> None:
    """T7.14: *"After The Faithful have been visited, if a murder took place, the targeted Faithful will be sent to
    the diary room to have that revealed to them."* Kai is murdered: every visit's answer comes first; then Kai is
    moved to the diary room, given the diary book and told; everyone else learns it only at breakfast."""
    s = night_one()
    mark = len(s.fx)
    s.night(murder="Kai", visit={"Alex": ("Sunny", "Rex")})
    fx = s.fx[mark:]
    told_kai = next(i for i, e in enumerate(fx) if isinstance(e, Whisper) and e.message.key == "diary.murdered")
    moved = next(i for i, e in enumerate(fx) if isinstance(e, MoveTo) and e.place is Place.DIARY_ROOM)
    answer = next(i for i, e in enumerate(fx) if isinstance(e, Whisper) and e.message.key.startswith("result.analyst"))
    assert answer < moved < told_kai
    assert fx[told_kai].to == frozenset({"Kai"})
    breakfast = next(i for i, e in enumerate(fx) if isinstance(e, Announce) and e.message.key == "phase.breakfast")
    assert not any(isinstance(e, Announce) and "Kai" in e.message.text for e in fx[:breakfast])


# ---------------------------------------------------------------------------------------------- §9 The finale


@pytest.mark.rule("T9.5", "T9.6")
def test_the_finale_down_to_two_without_reveals_and_the_last_traitor_wins() -> None:
    """T9.5: *"if just one player votes to banish again, another banishment will take place"*. T9.6: *"If any
    Traitors make it to the end of the finale, they win."* Efe, the last Traitor, reaches the finale; two torch
    votes of banish again banish Zuri and Rhea without a reveal; two remain: the Traitors win, Efe alone."""
    s = night_one(TWO_TRAITORS, banish="Sunny")
    s.ultimatum("Alex", False)
    s.to(Phase.VOTE)
    s.vote("Kai")
    s.ultimatum("Lena", False)
    s.to(Phase.VOTE)
    s.vote("Omar")
    s.to(Phase.VOTE)
    s.vote("Steve")
    assert s.g.phase is Phase.TORCHES
    mark = len(s.fx)
    for out in ("Zuri", "Rhea"):
        for f in s.g.living():
            s.do(ChooseTorch(f, Torch.BANISH_AGAIN if f != "Efe" else Torch.END_GAME))
        s.do(AskHappy(HOST))  # T9.3: the host asks before locking
        s.advance()
        s.vote(out)
    assert not any(k == "banish.reveal" for k in s.keys(None, mark))
    assert s.g.outcome.winner is Winner.TRAITORS and s.g.outcome.winners == ("Efe",)


@pytest.mark.rule("T9.2", "T5.4", "T9.1")
def test_an_alerted_survivors_murder_after_a_table_of_six_leaves_the_four_finalists() -> None:
    """T9.2: *"a final banishment will take place, resulting in four finalists, who will enter the finale
    immediately after"*; T5.4: *"If The Survivor has been alerted, failing to banish a Traitor will result in their
    murder."* Six sit at the round table after Rhea (the Survivor) was alerted; Steve (Faithful) is banished and
    Rhea is murdered: four are left. No round table of five can follow without sparing Rhea against T5.4, so the
    four enter the finale at once ([house] docs/house-rules.md §9 Survivor before the finale). The table of six
    was an ordinary one: Steve reveals, as six sat (T9.1: the reveals stop when five remain); Rhea is told in the diary
    room; each finalist, and only a finalist, is asked for a torch."""
    s = night_one(TWO_TRAITORS)
    s.to(Phase.VOTE)
    s.vote("Kai")
    s.night(murder="Alex")
    s.to(Phase.VOTE)
    s.vote("Omar")
    s.night(murder="Rhea")
    assert s.alive("Rhea") and len(s.g.living()) == 6
    s.to(Phase.VOTE)
    mark = len(s.fx)
    s.vote("Steve")
    assert s.g.phase is Phase.TORCHES and s.g.living() == ["Sunny", "Efe", "Zuri", "Lena"]
    last = s.tables()[-1]
    assert len(last.present) == 6 and last.banished == "Steve" and last.survivor_murdered == "Rhea"
    keys = s.keys(None, mark)
    assert keys.index("banish.reveal") < keys.index("survivor.murdered") < keys.index("phase.finale")
    assert "Steve was Faithful." in s.said(mark) and "diary.murdered" in s.keys("Rhea", mark)
    for name in s.names:
        asked = "finale.torch.prompt" in s.keys(name, mark)
        assert asked is (name in ("Sunny", "Efe", "Zuri", "Lena")), name


# ---------------------------------------------------------------------------------------------- §10 Places


@pytest.mark.rule("T10.7", "T8.2", "T10.4")
def test_the_swords_victim_is_not_summoned_to_the_diary_room_by_day() -> None:
    """T10.7: *"While inaccessible unless summoned during the night, the diary room is located in the upstairs of
    the castle."* T8.2: the sword's victim is murdered *"in plain sight"* during the discussion. Nobody is sent to
    the diary room by day: Kai is told where he stands and receives the diary-room book he is owed as a murdered
    Faithful (T10.4); everyone is told of the murder; the bearer learns nothing more."""
    s = night_one(twists={2: (Twist.MURDER,)})
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
        s.do(ChooseSwordBearer(t, "Efe"))
    s.powers()
    s.to(Phase.DISCUSSION)
    mark = len(s.fx)
    fx = s.do(StrikeWithSword("Efe", "Kai"))
    assert not s.alive("Kai") and "sword.murdered" in [e.message.key for e in fx if isinstance(e, Announce)]
    assert not any(isinstance(e, MoveTo) and e.place is Place.DIARY_ROOM for e in fx)
    assert s.said(mark) == ["Kai has been murdered with the Sacred Sword."]
    assert s.told("Kai", mark) == ["You have been murdered with the Sacred Sword."]
    assert any(isinstance(e, GiveItem) and e.item is Item.DIARY_BOOK and e.to == {"Kai"} for e in fx)
    assert s.told("Efe", mark) == []
