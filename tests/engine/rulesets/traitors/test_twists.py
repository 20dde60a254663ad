"""Every twist of rulebook §8 (engine/twists): its ordinary course, a refused precondition and its interplay with
shields, The Guardian, The Cleanser and the night's murder; plus the bar's drinks (§10).

One deal for all: three Traitors (Sunny, Efe, Makena) and nine Faithful, some with powers. Vic is banished on
day one so that night one has an event.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridge.app.export import format_record
from engine.actions import (
    Advance,
    CancelTwist,
    CastVote,
    ChooseEvent,
    NominateDoubleVote,
    SkipPower,
    StartSeries,
    StartTwist,
    SwearOath,
    UsePower,
)
from engine.effects import Announce, Eliminated, GiveItem, Prompt, TakeItem, Whisper
from engine.errors import ConfigError, IllegalAction
from engine.ids import Allegiance, Drink, Item, NightEvent, Power, Twist
from engine.record import NightRecord, RoundTableRecord, TwistRecord
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.bar import TakeDrink
from engine.rulesets.traitors.twists.confession import OpenChest, WriteConfession, WriteResponse
from engine.rulesets.traitors.twists.guess import AskSeer, GuessPower, VoteNominee
from engine.rulesets.traitors.twists.murder import ChooseSwordBearer, StrikeWithSword
from engine.rulesets.traitors.twists.trial import PutOnTrial

HOST = "Host"
T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL
HANDS = (
    ("Sunny", T, Power.BARTENDER),
    ("Efe", T, Power.FALSIFIER),
    ("Makena", T, Power.SILENCER),
    ("Alex", F, Power.CLEANSER),
    ("Kai", F, Power.GUARDIAN),
    ("Zuri", F, Power.SURVIVOR),
    ("Steve", F, Power.ANALYST),
    ("Ari", F, Power.SOBER),
    ("Noor", F, Power.SPY),
    ("Lena", F, Power.JUDGE),
    ("Omar", F, None),
    ("Vic", F, None),
)
NAMES = tuple(h[0] for h in HANDS)
TRAITORS = ("Sunny", "Efe", "Makena")


class Series:
    """A scripted series; ``do`` applies an input one second after the last."""

    def __init__(
        self,
        twists: dict[int, tuple[Twist, ...]] | None = None,
        *,
        powers: bool = True,
        traitors: tuple[str, ...] = TRAITORS,
        **kw: Any,
    ) -> None:
        deal = tuple(
            DealEntry(n, T if n in traitors else F, (p if (n in traitors) == (a is T) else None) if powers else None)
            for n, a, p in HANDS
        )
        kw.setdefault("joker_night", None)
        settings = Settings(contestants=NAMES, hosts=(HOST,), deal=deal, twists=twists or {}, powers=powers, **kw)
        self.g = Game(settings, seed=11)
        self.now = 0.0
        self.fx: list[Any] = []
        self.do(StartSeries())

    def do(self, action: Any) -> list[Any]:
        self.now += 1
        fx = self.g.handle(action, now=self.now)
        self.fx += fx
        return fx

    def advance_to(self, phase: Phase) -> None:
        for _ in range(60):
            if self.g.phase is phase:
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")

    def vote(self, target: str) -> None:
        b = self.g.ballot
        for v in list(b.voters):
            t = target if v != target else next(c for c in b.candidates if c not in (v, target))
            self.do(CastVote(v, t))
        if self.g.phase is Phase.OATH and not self.g.night.oath_taking:
            self.do(Advance(HOST))  # an Oath clock with nobody at the Oath (phases house rule 9)

    def banish(self, name: str) -> None:
        self.advance_to(Phase.VOTE)
        self.vote(name)

    def murder(self, target: str) -> None:
        for t in self.g.night.traitors:
            self.do(ChooseEvent(t, NightEvent.MURDER, target))

    def end_stage(self, phase: Phase) -> None:
        """The host moves ``phase`` on if the series is in it: a night stage runs its whole clock even when every
        choice is made (phases house rule 9)."""
        if self.g.phase is phase:
            self.do(Advance(HOST))

    def to_breakfast(self) -> None:
        """Pass every power and close every phase until breakfast."""
        for _ in range(40):
            if self.g.phase in (Phase.BREAKFAST, Phase.OVER):
                return
            if self.g.phase in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) and self.g.night.pending:
                self.do(SkipPower(self.g.night.pending[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(self.g.phase)

    def keys(self, name: str | None = None, since: int = 0) -> list[str]:
        """Message keys ``name`` was whispered (``None``: public announcements)."""
        out = []
        for e in self.fx[since:]:
            public = name is None and isinstance(e, Announce)
            if public or (name is not None and isinstance(e, (Whisper, Prompt)) and name in e.to):
                out.append(e.message.key)
        return out

    def holds(self, name: str) -> list[Item]:
        return [i for i, _ in self.g.items.get(name, [])]

    def refused(self, action: Any, key: str) -> None:
        before = (self.g.log[:], self.g.phase, dict(self.g.items), self.g.rng.getstate())
        with pytest.raises(IllegalAction) as err:
            self.g.handle(action, now=self.now + 1)
        assert err.value.reason == key
        assert (self.g.log, self.g.phase, dict(self.g.items), self.g.rng.getstate()) == before


def night_one(twists: dict[int, tuple[Twist, ...]], **kw: Any) -> Series:
    s = Series(twists, **kw)
    s.banish("Vic")
    assert s.g.phase is Phase.TURRET, s.g.phase
    return s


def traitors_guess(s: Series, target: str, power: Power) -> None:
    """In the Turret, every Traitor guesses that ``target`` holds ``power``."""
    for t in TRAITORS:
        s.do(GuessPower(t, target))
        s.do(GuessPower(t, target, power))
    s.end_stage(Phase.TURRET)


def nominate(s: Series, nominee: str) -> None:
    """At host visiting, every Faithful votes ``nominee`` for tomorrow's Guess or Seer (the nominee: Ari)."""
    s.advance_to(Phase.NOMINATION)
    for v in list(s.g.twist_state.nominators):
        s.do(VoteNominee(v, nominee if v != nominee else "Ari"))
    s.end_stage(Phase.NOMINATION)


# ---------------------------------------------------------------------------------------------- Murder twist


class TestMurderTwist:
    def sword_day(self) -> Series:
        s = night_one({2: (Twist.MURDER,)})
        s.murder("Omar")
        for t in TRAITORS:
            s.do(ChooseSwordBearer(t, "Efe"))
        s.end_stage(Phase.TURRET)
        assert "turret.sword_bearer" in s.keys("Sunny")
        s.to_breakfast()
        s.advance_to(Phase.DISCUSSION)
        return s

    @pytest.mark.rule("T8.2")
    def test_the_bearer_gets_the_sword_and_a_hit_murders_a_faithful_in_plain_sight(self) -> None:
        s = self.sword_day()
        assert Item.SACRED_SWORD in s.holds("Efe")
        assert not any(Item.SACRED_SWORD in s.holds(n) for n in NAMES if n != "Efe")
        fx = s.do(StrikeWithSword("Efe", "Steve"))
        assert not s.g.players["Steve"].alive and s.g.players["Steve"].publicly_out
        assert any(isinstance(e, Eliminated) and e.player == "Steve" and e.to is None for e in fx)
        assert [e.message.key for e in fx if isinstance(e, Announce)] == ["sword.murdered"]
        assert "Efe" not in " ".join(e.message.text for e in fx if isinstance(e, Announce))
        s.refused(StrikeWithSword("Efe", "Ari"), "illegal.sword.used")
        # the sword vanishes when discussion ends
        s.advance_to(Phase.ROUND_TABLE)
        assert Item.SACRED_SWORD not in s.holds("Efe")

    def test_the_night_after_a_sword_murder_has_no_murder(self) -> None:
        s = self.sword_day()
        s.do(StrikeWithSword("Efe", "Steve"))
        mark = len(s.fx)
        s.banish("Noor")
        assert s.g.night.events == frozenset()
        assert "turret.no_event" in s.keys("Sunny", mark)
        assert s.g.phase is Phase.TRAITOR_POWERS  # no event, no nomination: the Turret has nothing to decide
        s.refused(ChooseEvent("Sunny", NightEvent.MURDER, "Ari"), "illegal.turret.closed")
        s.to_breakfast()
        assert "breakfast.no_murder" in s.keys(None)

    @pytest.mark.rule("T8.2")
    def test_a_hit_on_a_traitor_does_nothing(self) -> None:
        s = self.sword_day()
        mark = len(s.fx)
        s.do(StrikeWithSword("Efe", "Sunny"))
        assert s.g.players["Sunny"].alive
        assert s.keys("Efe", mark) == ["sword.nothing"]
        assert not s.keys(None, mark)
        # the sword still works on a Faithful afterwards
        s.do(StrikeWithSword("Efe", "Ari"))
        assert not s.g.players["Ari"].alive

    def test_an_unused_sword_vanishes_and_that_night_has_no_murder(self) -> None:
        s = self.sword_day()
        s.advance_to(Phase.ROUND_TABLE)
        assert "sword.vanished" in s.keys("Efe")
        assert Item.SACRED_SWORD not in s.holds("Efe")
        s.banish("Noor")
        assert s.g.night.events == frozenset()
        s.to_breakfast()
        assert "breakfast.no_murder" in s.keys(None)

    def test_shields_do_not_apply_by_day(self) -> None:
        s = Series({1: (Twist.CONFESSION,), 2: (Twist.MURDER,)}, confession_shields=12)
        s.advance_to(Phase.DISCUSSION)
        s.do(OpenChest("Steve"))
        assert Item.MURDER_SHIELD in s.holds("Steve")
        s.banish("Vic")
        s.do(Advance(HOST))  # the Confession ends unanswered; the decisions follow (rule T8.4)
        s.murder("Omar")
        for t in TRAITORS:
            s.do(ChooseSwordBearer(t, "Efe"))
        s.to_breakfast()
        s.advance_to(Phase.DISCUSSION)
        s.do(StrikeWithSword("Efe", "Ari"))
        assert not s.g.players["Ari"].alive

    @pytest.mark.rule("T8.2")
    def test_only_the_holder_during_discussion(self) -> None:
        s = self.sword_day()
        s.refused(StrikeWithSword("Sunny", "Steve"), "illegal.sword.none")
        s.refused(StrikeWithSword("Efe", "Efe"), "illegal.sword.target")
        s.refused(StrikeWithSword("Efe", "Vic"), "illegal.sword.target")

    def test_refused_precondition_too_few_contestants(self) -> None:
        s = Series(finalists=4)
        for victim in ("Vic", "Omar", "Lena"):
            s.banish(victim)
            if s.g.phase is Phase.TURRET:
                s.to_breakfast()
        # 9 left: a sword murder and a banishment would leave 7 > 4: allowed
        s.advance_to(Phase.DISCUSSION)
        s.do(StartTwist(HOST, Twist.MURDER))
        s.do(CancelTwist(HOST, Twist.MURDER))
        for victim in ("Noor", "Ari", "Steve"):
            s.banish(victim)
            if s.g.phase is Phase.TURRET:
                s.to_breakfast()
        assert len(s.g.living()) == 6
        s.refused(StartTwist(HOST, Twist.MURDER), "illegal.twist.too_few")


# ---------------------------------------------------------------------------------------------- Confession twist


class TestConfessionTwist:
    @pytest.mark.rule("T8.3", "T10.3")
    def test_chests_confessions_shields_and_the_response_book(self) -> None:
        s = Series({1: (Twist.CONFESSION,)}, confession_shields=2)
        s.advance_to(Phase.DISCUSSION)
        assert "confession.open" in s.keys(None)
        assert all(Item.CONFESSION_BOOK in s.holds(n) for n in NAMES)
        for n in NAMES:
            s.do(OpenChest(n))
        finders = [n for n in NAMES if Item.MURDER_SHIELD in s.holds(n)]
        assert len(finders) == 2
        s.refused(OpenChest("Alex"), "illegal.chest.opened")
        s.refused(WriteConfession("Alex", "   "), "illegal.text.empty")
        s.refused(WriteConfession("Alex", "x" * 401), "illegal.text.long")
        s.refused(WriteConfession("Alex", "\U0001f600" * 201), "illegal.text.long")  # over 800 UTF-8 bytes
        s.refused(WriteConfession("Alex", "a\u00a7lb"), "illegal.text.chars")
        s.do(WriteConfession("Alex", "I trust Kai."))
        s.do(WriteConfession("Kai", "I am Faithful, honestly."))
        s.advance_to(Phase.ROUND_TABLE)
        assert not any(Item.CONFESSION_BOOK in s.holds(n) for n in NAMES)
        s.refused(WriteConfession("Alex", "late"), "illegal.confession.closed")
        victim = next(n for n in finders if n not in TRAITORS and n != "Vic")
        s.banish("Vic")
        # the Traitors read the confessions and learn who found shields, in the Turret
        read = [e for e in s.fx if isinstance(e, Whisper) and e.message.key == "confession.read"]
        assert {e.to for e in read} == {frozenset(TRAITORS)}
        assert [dict(e.message.params)["player"] for e in read] == ["Alex", "Kai"]
        assert "confession.shields" in s.keys("Sunny")
        assert not any("confession.read" in s.keys(n) for n in NAMES if n not in TRAITORS)
        assert all(Item.RESPONSE_DRAFT in s.holds(t) for t in TRAITORS)
        s.refused(WriteResponse("Alex", "hi"), "illegal.not_traitor")
        s.refused(ChooseEvent("Sunny", NightEvent.MURDER, victim), "illegal.turret.confessing")
        s.do(WriteResponse("Sunny", "We hear you."))
        s.refused(WriteResponse("Efe", "More."), "illegal.turret.already")  # one reply, while the clock runs on
        s.end_stage(Phase.TURRET)  # the Confession is over: the decisions (rule T8.4)
        s.refused(WriteResponse("Efe", "More."), "illegal.confession.closed")
        s.murder(victim)
        s.to_breakfast()
        # the shield saved its holder; the unused one is taken back
        assert s.g.players[victim].alive
        assert "shield.used" in s.keys(victim)
        assert not any(Item.MURDER_SHIELD in s.holds(n) for n in NAMES)
        assert not any(Item.RESPONSE_DRAFT in s.holds(t) for t in TRAITORS)
        # everyone alive receives the Traitors' Response book with the reply
        books = [e for e in s.fx if isinstance(e, GiveItem) and e.item is Item.RESPONSE_BOOK]
        assert sorted(n for e in books for n in e.to) == sorted(s.g.living())
        assert all(e.label == "We hear you." for e in books)
        assert "confession.response" in s.keys(None)

    @pytest.mark.rule("T8.3")
    def test_a_shield_protects_the_following_night_only(self) -> None:
        s = Series({1: (Twist.CONFESSION,)}, confession_shields=12)
        s.advance_to(Phase.DISCUSSION)
        s.do(OpenChest("Steve"))
        s.banish("Vic")
        s.do(Advance(HOST))  # the Confession ends unanswered; the decisions follow (rule T8.4)
        s.murder("Omar")
        s.to_breakfast()
        assert not s.g.players["Omar"].alive
        s.banish("Noor")
        s.murder("Steve")
        s.to_breakfast()
        assert not s.g.players["Steve"].alive  # night 2: the shield from day 1 no longer protects

    def test_refused_precondition(self) -> None:
        with pytest.raises(ConfigError, match="confession_shields"):
            Game(Settings(contestants=NAMES, traitors=3, confession_shields=0), seed=1)
        s = Series()
        s.refused(StartTwist("Alex", Twist.CONFESSION), "illegal.not_host")


# ---------------------------------------------------------------------------------------------- Guess twist


class TestGuessTwist:
    @pytest.mark.rule("T3.4", "T7.12", "T7.13")
    def test_a_right_guess_strips_the_power_at_the_visit(self) -> None:
        s = night_one({2: (Twist.GUESS,)})
        s.murder("Omar")
        for t in TRAITORS:
            s.do(GuessPower(t, "Kai"))
            s.do(GuessPower(t, "Kai", Power.GUARDIAN))
        s.end_stage(Phase.TURRET)
        assert "turret.guess.decided" in s.keys("Sunny")
        s.advance_to(Phase.NOMINATION)
        voters = s.g.living_faithful()
        assert set(s.g.twist_state.nominators) == set(voters)
        for v in voters:
            s.do(VoteNominee(v, "Steve" if v != "Steve" else "Ari"))
        s.end_stage(Phase.NOMINATION)
        # the guessed Faithful learns it before using their power, and is not visited
        assert "guess.lost" in s.keys("Kai")
        assert s.g.players["Kai"].power is None
        assert "Kai" not in s.g.night.pending
        s.to_breakfast()
        s.advance_to(Phase.NOMINEE)
        assert "guess.nominee" in s.keys(None)
        s.do(GuessPower("Steve", "Ari"))
        s.do(GuessPower("Steve", "Ari", Power.SOBER))
        assert s.g.players["Ari"].power is None
        assert "result.guess.right" in s.keys("Steve") and "guess.lost" in s.keys("Ari")
        assert s.g.phase is Phase.ROUND_TABLE

    def test_a_wrong_guess_changes_nothing_and_still_counts_for_the_detective_and_spy(self) -> None:
        s = night_one({2: (Twist.GUESS,)})
        s.murder("Omar")
        for t in TRAITORS:
            s.do(GuessPower(t, "Kai"))
            s.do(GuessPower(t, "Kai", Power.SOBER))
        s.end_stage(Phase.TURRET)
        assert ("Kai", "guess") in s.g.traitor_actions()
        s.to_breakfast()
        assert s.g.players["Kai"].power is Power.GUARDIAN

    @pytest.mark.parametrize("cleanse_self", [True, False])
    def test_the_cleanser_exception(self, cleanse_self: bool) -> None:
        s = night_one({2: (Twist.GUESS,)})
        s.murder("Omar")
        traitors_guess(s, "Alex", Power.CLEANSER)
        nominate(s, "Steve")
        assert s.g.phase is Phase.HOST_VISIT
        # not told before using the power: still prompted, still holding it
        assert "guess.lost" not in s.keys("Alex")
        assert "Alex" in s.g.night.pending
        if cleanse_self:
            s.do(UsePower("Alex", "Alex"))
        s.to_breakfast()
        assert (s.g.players["Alex"].power is Power.CLEANSER) is cleanse_self
        assert ("guess.lost" in s.keys("Alex")) is not cleanse_self

    def test_refused_preconditions(self) -> None:
        s = Series(powers=False)
        s.refused(StartTwist(HOST, Twist.GUESS), "illegal.twist.no_powers")
        s2 = Series()
        # day 1's guess would be made on night 0, which has no powers
        s2.refused(StartTwist(HOST, Twist.GUESS), "illegal.twist.guess_night0")


# ---------------------------------------------------------------------------------------------- Seer twist


class TestSeerTwist:
    @pytest.mark.rule("T3.4", "T7.12")
    def test_the_nominee_gets_the_true_allegiance_privately(self) -> None:
        s = night_one({2: (Twist.SEER,)})
        s.murder("Omar")
        s.end_stage(Phase.TURRET)
        assert s.g.phase is Phase.TRAITOR_POWERS
        s.do(UsePower("Efe", "Sunny"))  # The Falsifier: Sunny registers as Faithful; twists see the truth
        s.advance_to(Phase.NOMINATION)
        for v in list(s.g.twist_state.nominators):
            s.do(VoteNominee(v, "Noor" if v != "Noor" else "Ari"))
        s.to_breakfast()
        s.advance_to(Phase.NOMINEE)
        assert "seer.nominee" in s.keys(None)
        s.refused(AskSeer("Ari", "Sunny"), "illegal.seer.closed")
        assert s.g.registers_as("Sunny") is Allegiance.FAITHFUL
        mark = len(s.fx)
        s.do(AskSeer("Noor", "Sunny"))
        private = [e for e in s.fx[mark:] if isinstance(e, Whisper) and e.message.key == "result.seer"]
        assert len(private) == 1 and private[0].to == frozenset({"Noor"})
        assert dict(private[0].message.english_params)["allegiance"] == "a Traitor"
        assert Item.SEER_BOOK in s.holds("Noor")
        assert s.g.phase is Phase.ROUND_TABLE
        assert "seer.visited" in s.keys(None, mark)

    def test_no_votes_no_nominee(self) -> None:
        s = night_one({2: (Twist.SEER,)})
        s.murder("Omar")
        s.advance_to(Phase.NOMINATION)
        s.do(Advance(HOST))
        assert "nomination.none" in s.keys(HOST)
        s.to_breakfast()
        s.advance_to(Phase.ROUND_TABLE)
        assert Phase.NOMINEE not in {s.g.phase}

    def test_conflicts_with_the_guess(self) -> None:
        s = Series({3: (Twist.GUESS,)})
        s.banish("Vic")
        s.murder("Omar")
        s.to_breakfast()
        s.advance_to(Phase.DISCUSSION)  # day 2: a Seer started now is for day 3, the Guess's day
        s.refused(StartTwist(HOST, Twist.SEER), "illegal.twist.conflict")


# ---------------------------------------------------------------------------------------------- Trial


class TestTrial:
    def trial_night(self, **kw: Any) -> Series:
        s = night_one({1: (Twist.TRIAL,)}, **kw)
        assert s.g.night.events == frozenset()
        assert "turret.trial" in s.keys("Sunny")
        return s

    def put_on_trial(self, s: Series, names: tuple[str, ...]) -> None:
        """The Traitors put ``names`` on trial, pass their powers and go home: the Trial begins (rulebook §7.3)."""
        for t in TRAITORS:
            for n in names:
                s.do(PutOnTrial(t, n))
        assert s.g.night.attack is None  # the cards are drawn only as the Traitors go home
        s.end_stage(Phase.TURRET)
        while s.g.night.pending:
            s.do(SkipPower(s.g.night.pending[0]))
        s.end_stage(Phase.TRAITOR_POWERS)

    @pytest.mark.rule("T8.6", "T3.3")
    def test_the_death_card_is_murdered(self) -> None:
        s = self.trial_night()
        s.refused(ChooseEvent("Sunny", NightEvent.MURDER, "Ari"), "illegal.turret.event")
        self.put_on_trial(s, ("Steve", "Ari", "Noor"))
        death = s.g.night.attack[0]
        assert death in ("Steve", "Ari", "Noor")
        for n in ("Steve", "Ari", "Noor"):
            cards = [k for k in s.keys(n) if k.startswith("trial.card.")]
            assert cards == ["trial.card.death" if n == death else "trial.card.life"]
        s.to_breakfast()
        assert not s.g.players[death].alive
        assert "trial.news" in s.keys(None) and "breakfast.murdered" in s.keys(None)

    def test_the_guardian_saves_the_death_card(self) -> None:
        s = self.trial_night()
        self.put_on_trial(s, ("Steve", "Ari", "Noor"))
        death = s.g.night.attack[0]
        s.advance_to(Phase.HOST_VISIT)
        s.do(UsePower("Kai", death))
        s.to_breakfast()
        assert s.g.players[death].alive
        assert "breakfast.no_murder" in s.keys(None)

    def test_a_murder_shield_saves_the_death_card(self) -> None:
        s = Series({1: (Twist.CONFESSION, Twist.TRIAL)}, confession_shields=12)
        s.advance_to(Phase.DISCUSSION)
        for n in ("Steve", "Ari", "Noor"):
            s.do(OpenChest(n))
        s.banish("Vic")
        s.do(WriteResponse("Sunny", "Noted."))
        s.end_stage(Phase.TURRET)
        self.put_on_trial(s, ("Steve", "Ari", "Noor"))
        death = s.g.night.attack[0]
        s.to_breakfast()
        assert s.g.players[death].alive
        assert "shield.used" in s.keys(death)

    def test_refused_with_one_traitor(self) -> None:
        s = Series(traitors=("Sunny",))
        s.refused(StartTwist(HOST, Twist.TRIAL), "illegal.twist.trial_one_traitor")

    def test_conflicts_with_the_murder_twist(self) -> None:
        s = Series({1: (Twist.MURDER,)})
        s.advance_to(Phase.DISCUSSION)
        s.refused(StartTwist(HOST, Twist.TRIAL), "illegal.twist.conflict")


# ---------------------------------------------------------------------------------------------- host controls, bar


class TestHostControls:
    def test_start_and_cancel_live(self) -> None:
        s = Series()
        s.advance_to(Phase.DISCUSSION)  # day 0 has no discussion: this is day 1
        fx = s.do(StartTwist(HOST, Twist.DOUBLE_VOTE))
        assert [e.message.key for e in fx if isinstance(e, Whisper)] == ["twist.started"]
        assert all(e.to == frozenset({HOST}) for e in fx if isinstance(e, Whisper))
        assert s.g.twist_on(2, Twist.DOUBLE_VOTE)
        s.refused(StartTwist(HOST, Twist.DOUBLE_VOTE), "illegal.twist.scheduled")
        s.do(CancelTwist(HOST, Twist.DOUBLE_VOTE))
        assert not s.g.twist_on(2, Twist.DOUBLE_VOTE)
        s.refused(CancelTwist(HOST, Twist.DOUBLE_VOTE), "illegal.twist.none")

    def test_a_begun_twist_cannot_be_cancelled(self) -> None:
        s = night_one({2: (Twist.DOUBLE_VOTE,)})
        assert (2, Twist.DOUBLE_VOTE) in s.g.twist_state.begun
        s.refused(CancelTwist(HOST, Twist.DOUBLE_VOTE), "illegal.twist.none")
        for t in TRAITORS:
            s.do(NominateDoubleVote(t, "Ari"))

    def test_a_twist_whose_precondition_fails_later_lapses_and_the_host_is_told(self) -> None:
        s = Series({2: (Twist.TRIAL,)}, traitors=("Sunny", "Efe"))
        s.banish("Efe")  # one Traitor left: the Trial on night 2 cannot happen
        s.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Omar")) if s.g.phase is Phase.TURRET else None
        s.to_breakfast()
        s.banish("Vic")
        assert "twist.lapsed" in s.keys(HOST)
        assert "illegal.twist.trial_one_traitor" in s.keys(HOST)


class TestBar:
    @pytest.mark.rule("T10.6")
    def test_one_drink_per_series_no_effect_and_collected(self) -> None:
        s = Series()
        s.advance_to(Phase.DISCUSSION)
        s.do(TakeDrink("Sunny", Drink.FAITHFUL_FANCY))
        s.do(TakeDrink("Alex", Drink.TRAITORS_TIPPLE))
        assert Item.FAITHFUL_FANCY in s.holds("Sunny") and Item.TRAITORS_TIPPLE in s.holds("Alex")
        s.refused(TakeDrink("Sunny", Drink.TRAITORS_TIPPLE), "illegal.drink.taken")
        s.advance_to(Phase.ROUND_TABLE)
        assert not any(i in (Item.FAITHFUL_FANCY, Item.TRAITORS_TIPPLE) for n in NAMES for i in s.holds(n))
        s.refused(TakeDrink("Kai", Drink.FAITHFUL_FANCY), "illegal.drink.closed")

    def test_glasses_collected_once_and_only_when_handed_out(self) -> None:
        s = Series()
        s.advance_to(Phase.DISCUSSION)
        s.do(TakeDrink("Sunny", Drink.FAITHFUL_FANCY))
        since = len(s.fx)
        s.advance_to(Phase.ROUND_TABLE)
        glasses = (Item.FAITHFUL_FANCY, Item.TRAITORS_TIPPLE)
        collected = [e.item for e in s.fx[since:] if isinstance(e, TakeItem) and e.item in glasses]
        assert collected == [Item.FAITHFUL_FANCY]  # the Tipple was never handed out: nothing to collect
        s.banish("Efe")
        s.to_breakfast()
        since = len(s.fx)
        s.advance_to(Phase.ROUND_TABLE)  # the next day's discussion ends with no glass out
        assert not any(isinstance(e, TakeItem) and e.item in glasses for e in s.fx[since:])


class TestTurretItems:
    def test_cloak_and_lantern_only_in_the_turret(self) -> None:
        s = night_one({})
        assert all(Item.TRAITORS_CLOAK in s.holds(t) and Item.LANTERN in s.holds(t) for t in TRAITORS)
        assert not any(Item.TRAITORS_CLOAK in s.holds(n) for n in NAMES if n not in TRAITORS)
        s.murder("Omar")
        s.to_breakfast()
        assert not any(Item.TRAITORS_CLOAK in s.holds(n) or Item.LANTERN in s.holds(n) for n in NAMES)
        assert any(isinstance(e, TakeItem) and e.item is Item.TRAITORS_CLOAK for e in s.fx)


# ---------------------------------------------------------------------------------------------- the twist's day


class TestTwistDays:
    """Every step of a twist is recorded under the twist's day (docs/game-log.md), whichever night or breakfast
    it happens at; the record's section says "<Twist> twist, day d"."""

    def days(self, s: Series, twist: Twist) -> list[int]:
        return [e.day for e in s.g.record.events if isinstance(e, TwistRecord) and e.twist == twist.value]

    def named_on_night_one(self, twist: Twist, pick: Any) -> Series:
        """``twist`` on day 2: night 1's Turret murders Omar and every Traitor sends ``pick(traitor)``; breakfast 2."""
        s = night_one({2: (twist,)})
        s.murder("Omar")
        for t in TRAITORS:
            s.do(pick(t))
        s.to_breakfast()
        return s

    def titles(self, s: Series, twist: Twist) -> list[str]:
        text = format_record(s.g.record, "text")
        name = twist.value.replace("_", " ").capitalize()
        return [line for line in text.splitlines() if line.startswith(f"## {name} twist")]

    def test_confession_on_day_one_reply_at_breakfast_two(self) -> None:
        s = Series({1: (Twist.CONFESSION,)}, confession_shields=12)
        s.advance_to(Phase.DISCUSSION)
        s.do(OpenChest("Steve"))
        s.do(WriteConfession("Alex", "I trust Kai."))
        s.banish("Vic")
        s.do(WriteResponse("Sunny", "We hear you."))
        s.end_stage(Phase.TURRET)  # the Confession's clock ends (phases house rule 9)
        s.murder("Omar")
        s.to_breakfast()
        assert s.g.day == 2 and "confession.response" in s.keys(None)
        assert self.days(s, Twist.CONFESSION) == [1, 1]  # the chests and confessions; the reply
        assert self.titles(s, Twist.CONFESSION) == ["## Confession twist, day 1"] * 2

    def test_guess_on_day_two_prepared_on_night_one(self) -> None:
        s = night_one({2: (Twist.GUESS,)})
        s.murder("Omar")
        traitors_guess(s, "Kai", Power.GUARDIAN)
        nominate(s, "Steve")
        s.to_breakfast()
        s.advance_to(Phase.NOMINEE)
        s.do(GuessPower("Steve", "Ari"))
        s.do(GuessPower("Steve", "Ari", Power.SOBER))
        kinds = [e.details.get("by", "nomination") for e in s.g.record.events if isinstance(e, TwistRecord)]
        assert kinds == ["traitors", "nomination", "Steve"]
        assert self.days(s, Twist.GUESS) == [2, 2, 2]
        assert self.titles(s, Twist.GUESS) == ["## Guess twist, day 2"] * 3

    def test_seer_on_day_two_nominated_on_night_one(self) -> None:
        s = night_one({2: (Twist.SEER,)})
        s.murder("Omar")
        nominate(s, "Noor")
        s.to_breakfast()
        s.advance_to(Phase.NOMINEE)
        s.do(AskSeer("Noor", "Sunny"))
        assert self.days(s, Twist.SEER) == [2, 2]  # the nomination; the seer book
        assert self.titles(s, Twist.SEER) == ["## Seer twist, day 2"] * 2

    @pytest.mark.parametrize("strike", [True, False])
    def test_murder_on_day_two(self, strike: bool) -> None:
        s = self.named_on_night_one(Twist.MURDER, lambda t: ChooseSwordBearer(t, "Efe"))
        s.advance_to(Phase.DISCUSSION)
        if strike:
            s.do(StrikeWithSword("Efe", "Steve"))
        s.advance_to(Phase.ROUND_TABLE)
        assert self.days(s, Twist.MURDER) == [2]
        assert self.titles(s, Twist.MURDER) == ["## Murder twist, day 2"]

    def test_trial_on_day_one_held_on_night_one(self) -> None:
        s = night_one({1: (Twist.TRIAL,)})
        for t in TRAITORS:
            for n in ("Steve", "Ari", "Noor"):
                s.do(PutOnTrial(t, n))
        s.to_breakfast()
        assert self.days(s, Twist.TRIAL) == [1]
        assert self.titles(s, Twist.TRIAL) == ["## Trial twist, day 1"]

    @pytest.mark.rule("T8.1")
    def test_double_vote_on_day_two_named_on_night_one(self) -> None:
        s = self.named_on_night_one(Twist.DOUBLE_VOTE, lambda t: NominateDoubleVote(t, "Ari"))
        s.advance_to(Phase.VOTE)
        nights = [e for e in s.g.record.events if isinstance(e, NightRecord) and e.double_vote]
        tables = [e for e in s.g.record.events if isinstance(e, RoundTableRecord) and e.double_vote]
        assert [(n.day, n.double_vote) for n in nights] == [(1, "Ari")]  # named on night 1 …
        assert [(t.day, t.double_vote) for t in tables] == [(2, "Ari")]  # … for day 2's round table
        text = format_record(s.g.record, "text")
        assert "Double vote: Ari" in text[text.index("## Round table, day 2") :]
