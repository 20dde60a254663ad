"""A rules lawyer's cases for The Traitors: edge cases read from the rulebook
(``docs/rules/source/traitors-rulebook.txt``) and the rules page (``docs/rules/traitors.md``), each played
through the engine, checking what each contestant was told.

Each case pins the rule as the texts say it; where the rulebook leaves a choice open, the case names the
``[house]`` line of ``docs/house-rules.md`` that decides it.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import (
    Advance,
    AnswerOffer,
    CastVote,
    ChooseEvent,
    NominateDoubleVote,
    SkipPower,
    StartSeries,
    SwearOath,
    UsePower,
)
from engine.effects import Announce, GiveItem, MoveTo, Prompt, Whisper
from engine.errors import ConfigError, IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Power, Twist
from engine.record import RoundTableRecord
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.murder import ChooseSwordBearer, StrikeWithSword

HOST = "Host"
T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL

EVERY_POWER = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Makena", T, Power.SILENCER),
    ("Alex", F, Power.ANALYST),
    ("Rex", F, Power.RESEARCHER),
    ("Zuri", F, Power.SHERIFF),
    ("Steve", F, Power.CLEANSER),
    ("Kai", F, Power.DETECTIVE),
    ("Hana", F, Power.HISTORIAN),
    ("Bob", F, Power.MIMIC),
    ("Ari", F, Power.SOBER),
    ("Noor", F, Power.SPY),
    ("Rhea", F, Power.SURVIVOR),
    ("Lena", F, Power.JUDGE),
    ("Omar", F, Power.GUARDIAN),
    ("Vic", F, None),
)
"""Three Traitors and every dealt Faithful power; Vic (no power) is banished on day one."""

TWO_TRAITORS = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Alex", F, Power.ANALYST),
    ("Zuri", F, Power.SHERIFF),
    ("Kai", F, Power.DETECTIVE),
    ("Rhea", F, Power.SURVIVOR),
    ("Lena", F, Power.JUDGE),
    ("Omar", F, Power.GUARDIAN),
    ("Steve", F, Power.CLEANSER),
    ("Vic", F, None),
)

ONE_TRAITOR = (
    ("Sunny", T, Power.BARTENDER),
    ("Alex", F, Power.ANALYST),
    ("Zuri", F, Power.SHERIFF),
    ("Kai", F, Power.DETECTIVE),
    ("Rhea", F, Power.SURVIVOR),
    ("Lena", F, Power.JUDGE),
    ("Omar", F, Power.GUARDIAN),
    ("Steve", F, Power.CLEANSER),
    ("Vic", F, None),
    ("Bob", F, None),
)


class Series:
    """One scripted series of an explicit deal; every input one second after the last."""

    def __init__(
        self,
        hands: tuple[tuple[str, Allegiance, Power | None], ...] = EVERY_POWER,
        drunk: str | None = None,
        seed: int = 3,
        drunk_setting: str = "none",
        **kw: Any,
    ) -> None:
        deal = tuple(DealEntry(n, a, p, None, n == drunk) for n, a, p in hands)
        kw.setdefault("joker_night", None)
        kw["drunk"] = drunk_setting
        self.names = tuple(h[0] for h in hands)
        self.g = Game(Settings(contestants=self.names, hosts=(HOST,), deal=deal, **kw), seed=seed)
        self.now = 0.0
        self.fx: list[Any] = []
        self.do(StartSeries())

    def do(self, action: Any) -> list[Any]:
        self.now += 1
        fx = self.g.handle(action, now=self.now)
        self.fx += fx
        return fx

    def advance(self) -> None:
        self.do(Advance(HOST))

    def to(self, phase: Phase) -> None:
        """Move on (the host; every Oath sworn) until ``phase``."""
        for _ in range(60):
            if self.g.phase is phase:
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            else:
                self.advance()
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")

    def vote(self, target: str, exceptions: dict[str, str] | None = None) -> None:
        """Every paper for ``target`` (``target`` names someone else), but the ``exceptions``."""
        b = self.g.ballot
        for v in list(b.voters):
            t = (exceptions or {}).get(v, target)
            if t == v:
                t = next(c for c in b.candidates if c not in (v, target))
            self.do(CastVote(v, t))
        if self.g.phase is Phase.OATH and not self.g.night.oath_taking:
            self.do(Advance(HOST))  # an Oath clock with nobody at the Oath (phases house rule 9)

    def powers(self, traitor: dict[str, str] | None = None, visit: dict[str, tuple[str, ...]] | None = None) -> None:
        """The Traitor powers and the host's visit (everyone not named passes), until breakfast; a night stage
        whose choices are all made ends at the host's move on (phases house rule 9)."""
        if self.g.phase is Phase.TURRET:
            self.advance()
        if self.g.phase is Phase.TRAITOR_POWERS:
            for n in list(self.g.night.pending):
                t = (traitor or {}).get(n)
                self.do(UsePower(n, t) if t else SkipPower(n))
        if self.g.phase is Phase.TRAITOR_POWERS:
            self.advance()
        if self.g.phase is Phase.OFFER and self.g.night.offer is None:
            self.advance()
        if self.g.phase is Phase.HOST_VISIT:
            for n in list(self.g.night.pending):
                ts = (visit or {}).get(n)
                if ts:
                    self.do(UsePower(n, ts[0], ts[1] if len(ts) > 1 else None))
                elif n in self.g.night.pending:
                    self.do(SkipPower(n))
        if self.g.phase is Phase.HOST_VISIT:
            self.advance()

    def night(
        self,
        murder: str = "Hana",
        traitor: dict[str, str] | None = None,
        visit: dict[str, tuple[str, ...]] | None = None,
        event: NightEvent = NightEvent.MURDER,
    ) -> None:
        """From the Turret: every Traitor picks ``event`` on ``murder``; then ``powers``."""
        assert self.g.phase is Phase.TURRET, self.g.phase
        for t in self.g.night.traitors:
            self.do(ChooseEvent(t, event, murder))
        self.powers(traitor, visit)

    def ultimatum(self, target: str, accept: bool, visit: dict[str, tuple[str, ...]] | None = None) -> None:
        assert self.g.phase is Phase.TURRET, self.g.phase
        (traitor,) = self.g.night.traitors
        self.do(ChooseEvent(traitor, NightEvent.ULTIMATUM, target))
        self.powers()  # to the offer
        self.do(AnswerOffer(target, accept))
        self.powers(None, visit)

    def told(self, name: str, since: int = 0) -> list[str]:
        """Texts whispered or prompted to ``name`` alone or among others."""
        return [e.message.text for e in self.fx[since:] if isinstance(e, (Whisper, Prompt)) and name in e.to]

    def keys(self, name: str | None = None, since: int = 0) -> list[str]:
        """Message keys told to ``name`` (``None``: the public announcements)."""
        if name is None:
            return [e.message.key for e in self.fx[since:] if isinstance(e, Announce)]
        return [e.message.key for e in self.fx[since:] if isinstance(e, (Whisper, Prompt)) and name in e.to]

    def said(self, since: int = 0) -> list[str]:
        return [e.message.text for e in self.fx[since:] if isinstance(e, Announce)]

    def tables(self) -> list[RoundTableRecord]:
        return [e for e in self.g.record.events if isinstance(e, RoundTableRecord)]

    def alive(self, name: str) -> bool:
        return self.g.players[name].alive


def night_one(
    hands: tuple[tuple[str, Allegiance, Power | None], ...] = EVERY_POWER, banish: str = "Vic", **kw: Any
) -> Series:
    """Day one's round table banishes ``banish``; the series stands in night one's Turret."""
    s = Series(hands, **kw)
    s.to(Phase.VOTE)
    s.vote(banish)
    assert s.g.phase is Phase.TURRET, s.g.phase
    return s


# ---------------------------------------------------------------------------------------------- §1 Setup


@pytest.mark.rule("T1.1")
def test_nine_contestants_with_three_traitors_as_in_the_rulebooks_example() -> None:
    """T1.1: *"Three players will be selected to begin as a Traitor - everybody else will begin as a Faithful."*
    and the rulebook's example of a beginning: *"Here's an example of how powers could be distributed at the
    beginning of a series"*: nine players, three Traitors (Sunny, Efe, Makena). A random deal of nine with three
    Traitors is therefore a series the rulebook allows. The upper limit is a [house] choice (docs/house-rules.md
    §1 Traitors): at most a third of the contestants, so four among nine are refused before anything is dealt.
    Everyone hears the count; each Traitor alone is told they were chosen, each Faithful alone their power."""
    names = ("Sunny", "Efe", "Makena", "Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")
    g = Game(Settings(contestants=names, traitors=3, hosts=(HOST,)), seed=1)
    fx = g.handle(StartSeries(), now=0)
    traitors = {n for n, p in g.players.items() if p.allegiance is T}
    assert len(traitors) == 3
    assert any(isinstance(e, Announce) and "9 contestants, 3 Traitors" in e.message.text for e in fx)
    for name in names:
        keys = [e.message.key for e in fx if isinstance(e, Whisper) and name in e.to]
        assert keys == (["deal.traitor"] if name in traitors else ["deal.faithful"]), (name, keys)
    with pytest.raises(ConfigError, match=r"4 Traitors with 9 contestants; need at least 1 and at most a third"):
        Settings(contestants=names, traitors=4, hosts=(HOST,)).validate()


@pytest.mark.rule("T1.3", "T1.4")
@pytest.mark.parametrize("seed", range(0, 40, 7))
def test_every_power_unique_and_each_false_power_held_by_nobody(seed: int) -> None:
    """T1.3: *"Each player will be assigned a unique power"*. T1.4: *"Each Traitor will also be assigned a false
    Faithful power not already belonging to a player."* Random deals of twelve: no power is held twice, no false
    power is anyone's power, no two Traitors share a false power, and a false power is a Faithful power."""
    names = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
    g = Game(Settings(contestants=names, traitors=3, hosts=(HOST,), drunk="always"), seed=seed)
    fx = g.handle(StartSeries(), now=0)
    held = [p.power for p in g.players.values() if p.power is not None]
    false = [p.false_power for p in g.players.values() if p.allegiance is T]
    assert len(set(held)) == len(held) and None not in false
    assert len(set(false)) == len(false) and not set(false) & set(held)
    assert all(fp in Power and fp not in (Power.BARTENDER, Power.FALSIFIER, Power.SILENCER) for fp in false)
    assert any(isinstance(e, Announce) and "3 Traitors" in e.message.text for e in fx)


@pytest.mark.rule("T1.6", "T2.3")
def test_the_drunk_announcement_never_denies_a_dealt_drunk() -> None:
    """T1.6: *"it will typically be clarified before a series takes place whether a drunk Faithful will be, or
    could be in play"*. A series dealt with a drunk Faithful (an explicit deal, as a scenario writes it) must not
    tell everyone that nobody is drunk: a public message never states something false. What it says instead is a
    [house] choice (docs/house-rules.md §1 Drunk announcement): the deal wins over the setting, so everyone hears
    that one Faithful is drunk; Alex, the drunk, is told only his power (T2.3). A deal without a drunk under
    ``drunk = "always"`` says nobody is drunk."""
    s = Series(drunk="Alex")
    assert s.g.players["Alex"].drunk
    assert s.keys(None).count("series.drunk.always") == 1 and "series.drunk.none" not in s.keys(None)
    assert "In this series one Faithful is drunk." in s.said()
    assert s.told("Alex") == ["You are Faithful. Your power: The Analyst."]
    sober = Series(drunk=None, drunk_setting="always")
    assert not any(p.drunk for p in sober.g.players.values())
    assert [k for k in sober.keys(None) if k.startswith("series.drunk")] == ["series.drunk.none"]
    maybe = Series(drunk="Alex", drunk_setting="possible")
    assert [k for k in maybe.keys(None) if k.startswith("series.drunk")] == ["series.drunk.possible"]


@pytest.mark.rule("T1.2")
def test_only_the_host_moves_the_series_on() -> None:
    """T1.2: *"The host is responsible for progressing the series and guiding players through each stage of the
    game"*. A contestant's Advance is refused and the series stays where it is."""
    s = Series()
    phase = s.g.phase
    with pytest.raises(IllegalAction):
        s.g.handle(Advance("Alex"), now=s.now + 1)
    assert s.g.phase is phase


# ---------------------------------------------------------------------------------------------- §2 Drunk


@pytest.mark.rule("T2.2", "T2.3")
def test_the_drunk_is_never_told_but_the_record_says_drunk() -> None:
    """T2.2: *"a drunk Faithful's power will appear with drunk in the name in any recorded game logs, such as The
    Drunk Cleanser"*. T2.3: *"players will never be told whether they are drunk during a series, instead believing
    they are simply The Cleanser"*. The drunk Cleanser is dealt "The Cleanser", prompted as The Cleanser, and
    nothing they are told or see says "drunk"; the record names "The Drunk Cleanser"."""
    s = Series(drunk="Steve")
    s.to(Phase.VOTE)
    s.vote("Vic")
    s.night(murder="Hana", visit={"Steve": ("Kai",)})
    told = s.told("Steve")
    assert "You are Faithful. Your power: The Cleanser." in told
    assert any(t.startswith("The Cleanser") for t in told)
    assert not any("drunk" in t.lower() for t in told if "In this series" not in t)
    view = s.g.view_for("Steve")
    assert view.power == "The Cleanser"
    assert not any("drunk" in m.lower() for m in view.messages if "In this series" not in m)
    steve = next(c for c in s.g.record.to_dict()["contestants"] if c["name"] == "Steve")
    assert steve["power"] == "The Drunk Cleanser"


@pytest.mark.rule("T2.1", "T2.3")
def test_a_drunk_mimic_acts_as_the_power_it_was_told() -> None:
    """T2.1: *"any information they learn will be false, and any ability they attempt to use will fail"*. T2.3:
    the drunk never learns it. The drunk Mimic copies the Detective but is told a false power; from the next night
    on they act as the power they were told (never the Detective), so nothing betrays the lie."""
    s = night_one(drunk="Bob")
    mark = len(s.fx)
    s.night(murder="Hana", visit={"Bob": ("Kai",)})
    (copied,) = [t for t in s.told("Bob", mark) if t.startswith("You copied")]
    assert "The Detective" not in copied
    told_power = copied.split("You copied ")[1].split(" from ")[0]
    s.to(Phase.VOTE)
    s.vote("Omar")
    mark = len(s.fx)
    s.night(murder="Rex")
    prompts = [e.message.text for e in s.fx[mark:] if isinstance(e, Prompt) and "Bob" in e.to]
    assert not any(p.startswith("The Detective") for p in prompts)
    assert all(p.startswith(told_power) for p in prompts)


# ---------------------------------------------------------------------------------------------- §3 The day


@pytest.mark.rule("T3.2", "T3.3")
def test_breakfast_the_survivors_arrive_in_random_order_then_the_host_tells_the_murder() -> None:
    """T3.2: *"players who survive the night will arrive at breakfast in a random order"*. T3.3: *"After all
    players have arrived, the host will walk in to share any updates with the group, such as who was murdered"*.
    The murdered contestant does not arrive; every survivor does; the murder is announced after the last arrival."""
    s = night_one()
    mark = len(s.fx)
    s.night(murder="Alex")
    keys = s.keys(None, mark)
    arrivals = [t.split(" arrives")[0] for t in s.said(mark) if t.endswith("arrives at breakfast.")]
    living = [n for n in s.names if s.alive(n)]
    assert sorted(arrivals) == sorted(living) and "Alex" not in arrivals
    assert arrivals != living  # not seat order (seeded draw)
    assert keys.index("breakfast.murdered") > max(i for i, k in enumerate(keys) if k == "breakfast.arrives")
    assert "Alex was murdered in the night." in s.said(mark)


@pytest.mark.rule("T3.7")
def test_day_zero_has_no_banishment() -> None:
    """T3.7: *"A banishment will not take place on day zero."* Day zero ends and night zero follows: no vote
    paper is handed out and nobody leaves."""
    s = Series()
    s.advance()
    assert s.g.phase is Phase.OATH
    assert not any(isinstance(e, GiveItem) and e.item is Item.VOTE_PAPER for e in s.fx)
    assert all(p.alive for p in s.g.players.values()) and not s.tables()


@pytest.mark.rule("T3.6", "T4.10")
def test_someone_is_banished_even_when_the_judge_protects_everyones_choice() -> None:
    """T3.6: *"At every round table, a player must be banished - there is no option to skip."* T4.10: the Judge's
    protection. Everyone but Omar votes for Omar, whom the Judge protects: nobody else has a vote, yet the round
    table still banishes someone (and never Omar)."""
    s = night_one()
    s.night(murder="Hana", visit={"Lena": ("Omar",)})
    s.to(Phase.VOTE)
    for v in list(s.g.ballot.voters):
        if v != "Omar":
            s.do(CastVote(v, "Omar"))
    s.to(Phase.TURRET)
    (table,) = [t for t in s.tables() if t.day == 2]
    assert table.banished is not None and table.banished != "Omar" and s.alive("Omar")
    assert "judge.protects" in s.keys(None)


# ---------------------------------------------------------------------------------------------- §4 The vote


@pytest.mark.rule("T4.1", "T4.3", "T8.1")
def test_the_double_vote_paper_counts_two_and_papers_are_revealed_in_seat_order() -> None:
    """T4.1: *"a double vote paper if they were nominated by The Traitors to receive a double vote during the
    Double Vote twist, which as the name would suggest, counts for two votes"*. T4.3: *"which the player will later
    place in their spot at the round table to reveal their vote to the group"*. Kai, named by the Traitors, holds
    the double vote paper (nobody else does); the papers are revealed in seat order; Kai's counts two."""
    s = night_one(twists={2: (Twist.DOUBLE_VOTE,)})
    for t in s.g.night.traitors:
        s.do(NominateDoubleVote(t, "Kai"))
    s.night(murder="Hana")
    assert "diary.double_vote" in s.keys("Kai")
    s.to(Phase.VOTE)
    doubles = [n for e in s.fx if isinstance(e, GiveItem) and e.item is Item.DOUBLE_VOTE_PAPER for n in e.to]
    assert doubles == ["Kai"]
    mark = len(s.fx)
    voters = list(s.g.ballot.voters)
    plan = {v: ("Alex" if i % 2 else "Rex") for i, v in enumerate(voters)}
    plan.update({"Alex": "Rex", "Rex": "Alex", "Kai": "Rex"})
    for v in reversed(voters):  # cast in reverse seat order: the reveal is still in seat order
        s.do(CastVote(v, plan[v]))
    reveals = [t.split(":")[0] for t in s.said(mark) if ": " in t and not t.startswith("Vote count")]
    assert reveals[: len(voters)] == [n for n in s.names if n in voters]
    alex = sum(1 for v in voters if plan[v] == "Alex")
    rex = sum(2 if v == "Kai" else 1 for v in voters if plan[v] == "Rex")
    assert s.tables()[-1].rounds[0].count == f"{max(alex, rex)}-{min(alex, rex)}"


@pytest.mark.rule("T4.4", "T4.6")
def test_a_second_tie_of_only_some_of_the_tied_is_a_deadlock_of_those_only() -> None:
    """T4.4: *"If the vote results in a tie, a second vote will be held between the tied players"*. T4.6: *"If
    there is a second tie, the tied players will enter deadlock. From there, the banished player will be left up to
    chance."* A 5-5-5 tie between Alex, Kai and Vic; the second vote goes 6-6-1: only Alex and Kai, tied again,
    draw in the deadlock; one of them is banished and reveals; Vic stays."""
    s = Series()
    s.to(Phase.VOTE)
    pool = ["Alex"] * 5 + ["Kai"] * 5 + ["Vic"] * 5 + ["Rex"]
    for v in list(s.g.ballot.voters):
        i = next(i for i, t in enumerate(pool) if t != v)
        s.do(CastVote(v, pool.pop(i)))
    assert s.g.ballot.kind == "second" and set(s.g.ballot.candidates) == {"Alex", "Kai", "Vic"}
    assert not {"Alex", "Kai", "Vic"} & set(s.g.ballot.voters)
    mark = len(s.fx)
    for v, t in zip(list(s.g.ballot.voters), ["Alex"] * 6 + ["Kai"] * 6 + ["Vic"], strict=True):
        s.do(CastVote(v, t))
    table = s.tables()[0]
    assert table.deadlock == ["Alex", "Kai"] and table.banished in ("Alex", "Kai")
    assert s.alive("Vic") and table.revealed == "faithful"
    assert (
        "deadlock.start" in s.keys(None, mark) and "Vic" not in s.said(mark)[s.keys(None, mark).index("deadlock.start")]
    )


@pytest.mark.rule("T4.9")
def test_the_silence_is_announced_at_the_opening_without_naming_the_silencer() -> None:
    """T4.9: *"Many events can take place during the round table, such as The Silencer's silence"*. Kai is
    silenced: the round table's opening announces it, Kai gets no paper but may still be voted for, and no public
    message names Makena (the Silencer)."""
    s = night_one()
    s.night(murder="Hana", traitor={"Makena": "Kai"})
    mark = len(s.fx)
    s.to(Phase.VOTE)
    keys = s.keys(None, mark)
    assert keys.index("phase.round_table") < keys.index("round_table.silenced") < keys.index("vote.open")
    assert "Kai" not in s.g.ballot.voters and "Kai" in s.g.ballot.candidates
    assert not any(isinstance(e, GiveItem) and "Kai" in e.to and e.item is Item.VOTE_PAPER for e in s.fx[mark:])
    assert not any("Makena" in t or "Silencer" in t for t in s.said(mark))


@pytest.mark.rule("T4.11", "T2.1")
def test_a_drunk_sheriffs_failed_accusation_of_a_traitor_never_calls_them_faithful() -> None:
    """T4.11: *"The Sheriff's accusation"* is announced at the round table, before the vote. T2.1: a drunk
    Faithful's *"ability they attempt to use will fail"*. The drunk Sheriff accuses Sunny, a real Traitor: the
    accusation is announced and fails, the vote goes on, and no public message names the Sheriff or says Sunny
    is Faithful."""
    s = night_one(drunk="Zuri")
    s.night(murder="Hana", visit={"Zuri": ("Sunny",)})
    mark = len(s.fx)
    s.to(Phase.VOTE)
    keys = s.keys(None, mark)
    assert keys.index("sheriff.accuses") < keys.index("sheriff.failed") < keys.index("vote.open")
    said = " ".join(s.said(mark))
    assert "Zuri" not in said and "Faithful" not in said and s.alive("Sunny")


@pytest.mark.rule("T4.10", "T4.11")
def test_the_judges_protection_holds_against_the_sheriffs_accusation() -> None:
    """T4.10: *"The Judge's protection"* (page: "if the protected contestant would be banished, the host announces
    the protection and the contestant with the next most votes is banished instead"). T4.11: *"The Sheriff's
    accusation"*. Both land on Sunny (a Traitor) at the same round table: the accusation would banish Sunny, so the
    protection is announced, Sunny stays and the vote goes on. That the protection then also holds in the vote is
    a [house] choice (docs/house-rules.md §4 Judge and Sheriff): everyone votes Sunny, and the contestant with the
    next most votes (Alex) goes instead. No public message names the Sheriff or the Judge, or calls Sunny a Traitor."""
    s = night_one()
    s.night(murder="Hana", visit={"Zuri": ("Sunny",), "Lena": ("Sunny",)})
    mark = len(s.fx)
    s.to(Phase.VOTE)
    assert s.alive("Sunny")
    keys = s.keys(None, mark)
    assert keys.index("sheriff.accuses") < keys.index("judge.protects.accused") < keys.index("vote.open")
    assert "sheriff.success" not in keys and "sheriff.failed" not in keys
    assert "The Judge protects Sunny: the accusation does not banish them. The vote goes on." in s.said(mark)
    assert "Sunny" in s.g.ballot.voters and "Sunny" in s.g.ballot.candidates
    s.vote("Sunny", {"Sunny": "Alex", "Kai": "Alex"})
    table = s.tables()[-1]
    assert table.accusation == "protected" and table.protected == "Sunny" and table.protection_used
    assert s.alive("Sunny") and table.banished == "Alex" and not s.alive("Alex")
    said = [text for text, key in zip(s.said(mark), s.keys(None, mark), strict=True) if not key.startswith("vote.")]
    assert not any("Zuri" in text or "Lena" in text or "Traitor" in text for text in said), said
    assert "judge.protects" in s.keys(None, mark)
    for name in ("Zuri", "Lena"):  # neither learns anything privately about the other or about Sunny
        assert not any("Sunny" in text for text in s.told(name, mark) if "vote" not in text.lower())


# ---------------------------------------------------------------------------------------------- §5 Powers


@pytest.mark.rule("T5.4", "T4.11")
def test_an_alerted_survivor_lives_when_the_sheriffs_accusation_banishes_a_traitor() -> None:
    """T5.4: *"If The Survivor has been alerted, failing to banish a Traitor will result in their murder."* The
    Traitors attack Rhea, who is alerted in the diary room; the next round table banishes Sunny (a Traitor) by the
    Sheriff's accusation, without a vote: Rhea lives."""
    s = night_one()
    s.night(murder="Rhea", visit={"Zuri": ("Sunny",)})
    assert s.alive("Rhea") and "survivor.alerted" in s.keys("Rhea")
    assert "breakfast.no_murder" in s.keys(None)
    s.to(Phase.TURRET)
    assert not s.alive("Sunny") and s.alive("Rhea")
    assert "survivor.murdered" not in s.keys(None)


@pytest.mark.rule("T5.4")
def test_an_alerted_survivor_dies_when_a_falsified_faithful_is_banished() -> None:
    """T5.4: *"failing to banish a Traitor will result in their murder"*. Kai, a Faithful the Falsifier made
    register as a Traitor, is banished by the Sheriff's accusation: no Traitor was banished, so the alerted Rhea
    is murdered after the round table, told in the diary room, and everyone is told."""
    s = night_one()
    s.night(murder="Rhea", traitor={"Efe": "Kai"}, visit={"Zuri": ("Kai",)})
    mark = len(s.fx)
    s.to(Phase.TURRET)
    assert not s.alive("Kai") and not s.alive("Rhea")
    assert "diary.murdered" in s.keys("Rhea", mark) and "survivor.murdered" in s.keys(None, mark)


@pytest.mark.rule("T5.3", "T5.4", "T8.2")
def test_the_sacred_sword_on_the_survivor_alerts_them() -> None:
    """T5.3: *"If The Traitors attempt to murder The Survivor, unless they are drunk, they will be alerted, but not
    yet murdered, as per the rules of the power."* The Murder twist's sword is the Traitors' attempt to murder: Efe
    strikes Rhea, the sober Survivor. Rhea is alerted where she stands (diary-room book, told privately; the diary
    room is a night place, T10.7), nothing is announced, and the strike is spent; Efe alone is told she survived.
    T5.4: the day's round table banishes Omar, a Faithful, so Rhea is murdered right after it."""
    s = night_one(twists={2: (Twist.MURDER,)})
    for t in s.g.night.traitors:
        s.do(ChooseEvent(t, NightEvent.MURDER, "Hana"))
        s.do(ChooseSwordBearer(t, "Efe"))
    s.powers()
    s.to(Phase.DISCUSSION)
    mark = len(s.fx)
    fx = s.do(StrikeWithSword("Efe", "Rhea"))
    assert s.alive("Rhea")
    assert [e.message.key for e in fx if isinstance(e, Whisper) and "Rhea" in e.to] == ["survivor.alerted"]
    assert any(isinstance(e, GiveItem) and e.item is Item.DIARY_BOOK and e.to == {"Rhea"} for e in fx)
    assert not any(isinstance(e, MoveTo) for e in fx) and not s.said(mark)
    assert s.told("Efe", mark) == ["Rhea survives the Sacred Sword."]
    for name in s.names:
        if name not in ("Rhea", "Efe"):
            assert s.told(name, mark) == [], name
    with pytest.raises(IllegalAction):
        s.g.handle(StrikeWithSword("Efe", "Kai"), now=s.now + 1)
    s.to(Phase.VOTE)
    mark = len(s.fx)
    s.vote("Omar")
    assert not s.alive("Omar") and not s.alive("Rhea")
    assert "survivor.murdered" in s.keys(None, mark) and "diary.murdered" in s.keys("Rhea", mark)
