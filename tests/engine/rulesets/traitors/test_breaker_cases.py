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
    AnswerJoker,
    AnswerOffer,
    AskHappy,
    CastVote,
    ChooseEvent,
    ChooseSwordBearer,
    ChooseTorch,
    NominateDoubleVote,
    SkipPower,
    StartSeries,
    StrikeWithSword,
    SwearOath,
    UsePower,
)
from engine.effects import Announce, GiveItem, MoveTo, Prompt, Whisper
from engine.errors import ConfigError, IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Place, Power, Torch, Twist
from engine.outcome import Winner
from engine.record import RoundTableRecord
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings

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

    def __init__(self, hands: tuple[tuple[str, Allegiance, Power | None], ...] = EVERY_POWER,
                 drunk: str | None = None, seed: int = 3, drunk_setting: str = "none", **kw: Any) -> None:
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

    def powers(self, traitor: dict[str, str] | None = None,
               visit: dict[str, tuple[str, ...]] | None = None) -> None:
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

    def night(self, murder: str = "Hana", traitor: dict[str, str] | None = None,
              visit: dict[str, tuple[str, ...]] | None = None, event: NightEvent = NightEvent.MURDER) -> None:
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


def night_one(hands: tuple[tuple[str, Allegiance, Power | None], ...] = EVERY_POWER, banish: str = "Vic",
              **kw: Any) -> Series:
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
    assert "deadlock.start" in s.keys(None, mark) and "Vic" not in s.said(mark)[s.keys(None, mark).index("deadlock.start")]


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
@pytest.mark.parametrize(("hands", "banish", "allowed"), [
    (EVERY_POWER, "Vic", {NightEvent.MURDER}),
    (TWO_TRAITORS, "Vic", {NightEvent.MURDER, NightEvent.SEDUCE}),
    (ONE_TRAITOR, "Vic", {NightEvent.ULTIMATUM}),
])  # fmt: skip
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
        "The Traitors come to your home in cloak and lantern: Sunny, Efe."]
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
    visited = {n for e in s.fx[mark:] if isinstance(e, Prompt) and e.message.key.startswith("prompt.")
               and not e.message.key.startswith(("prompt.bartender", "prompt.falsifier", "prompt.silencer"))
               for n in e.to}
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
