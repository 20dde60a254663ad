"""The Traitors ruleset, by rulebook section (docs/rules/traitors.md)."""

from __future__ import annotations

import random

import pytest

from engine.actions import (
    Advance,
    AnswerOffer,
    AskHappy,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    NominateDoubleVote,
    StartSeries,
    SwearOath,
    TimerExpired,
)
from engine.effects import GiveItem, Prompt, Revealed, SeriesOver, Whisper
from engine.errors import ConfigError, IllegalAction, InvalidCommand
from engine.ids import FAITHFUL_POWERS, TRAITOR_POWERS, Allegiance, Item, NightEvent, Power, Torch, Twist
from engine.outcome import Termination, Winner
from engine.record import RoundTableRecord, TorchRound
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import Settings

NAMES12 = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")


def swear_all(d):
    """Answer every Oath question of tonight's Oath queue."""
    while d.game.phase is Phase.OATH:
        if d.game.night.oath_taking:
            d.do(SwearOath(d.game.night.oath_queue[0]))
        else:
            d.advance()  # the Oath's clock runs out (phases house rule 9)


def to_first_vote(d):
    """From the start of a series to day one's first vote (no murder on night zero)."""
    d.until(Phase.OATH)
    swear_all(d)
    d.until(Phase.VOTE)


def vote_all(d, choices):
    for voter, target in choices.items():
        d.do(CastVote(voter, target))


class TestSection1Setup:
    @pytest.mark.rule("T1.1", "T1.3", "T1.4")
    def test_random_deal_twelve_three(self):
        g = Game(Settings(contestants=NAMES12, traitors=3), seed=11)
        g.handle(StartSeries(), now=0)
        traitors = [p for p in g.players.values() if p.allegiance is Allegiance.TRAITOR]
        faithful = [p for p in g.players.values() if p.allegiance is Allegiance.FAITHFUL]
        assert len(traitors) == 3 and len(faithful) == 9
        assert sorted(p.power.value for p in traitors) == sorted(p.value for p in TRAITOR_POWERS)
        held = [p.power for p in faithful]
        falses = [p.false_power for p in traitors]
        assert all(pw in FAITHFUL_POWERS for pw in held + falses)
        assert len(set(held + falses)) == 12, "9 real + 3 false powers are all distinct"

    def test_extra_traitors_hold_no_traitor_power(self):
        names = tuple(f"Player{i}" for i in range(13))
        g = Game(Settings(contestants=names, traitors=4, powers=False), seed=1)
        g.handle(StartSeries(), now=0)
        assert all(p.power is None for p in g.players.values())
        pool = Settings(contestants=names[:12], traitors=3).power_pool
        settings = Settings(contestants=names[:12], traitors=3, power_pool=pool)
        g = Game(settings, seed=2)
        g.handle(StartSeries(), now=0)
        assert sum(p.power in TRAITOR_POWERS for p in g.players.values()) == 3

    @pytest.mark.rule("T1.6", "T2.2", "T2.3")
    @pytest.mark.parametrize("seed", range(20))
    def test_drunk_always_is_one_faithful_never_the_sober(self, seed):
        g = Game(Settings(contestants=NAMES12, traitors=3, drunk="always"), seed=seed)
        g.handle(StartSeries(), now=0)
        drunk = [p for p in g.players.values() if p.drunk]
        assert len(drunk) == 1
        assert drunk[0].allegiance is Allegiance.FAITHFUL and drunk[0].power is not Power.SOBER
        rec = next(c for c in g.record.contestants if c.name == drunk[0].name)
        assert rec.power.startswith("The Drunk ")
        # the drunk is told the plain power (rulebook §2)
        told = [e for e in g.handle.__self__.inbox[drunk[0].name] if "Your power" in e]
        assert told == [f"You are Faithful. Your power: {drunk[0].power.title}."]

    @pytest.mark.rule("T1.6")
    def test_drunk_none_deals_nobody_drunk(self):
        g = Game(Settings(contestants=NAMES12, traitors=3), seed=3)
        g.handle(StartSeries(), now=0)
        assert not any(p.drunk for p in g.players.values())

    def test_same_seed_same_deal_other_seed_other_deal(self):
        def deal(seed):
            g = Game(Settings(contestants=NAMES12, traitors=3), seed=seed)
            g.handle(StartSeries(), now=0)
            return [(p.name, p.allegiance, p.power, p.false_power) for p in g.players.values()]

        assert deal(5) == deal(5)
        assert len({tuple(deal(s)) for s in range(10)}) > 5

    @pytest.mark.parametrize(
        ("kw", "field"),
        [
            ({"contestants": NAMES12[:5], "traitors": 1}, "contestants"),
            ({"contestants": NAMES12[:9], "traitors": 4}, "traitors"),
            ({"contestants": NAMES12, "traitors": 0}, "traitors"),
            ({"contestants": NAMES12, "traitors": 3, "drunk": "sometimes"}, "drunk"),
            ({"contestants": NAMES12, "traitors": 3, "durations": {"vote": -5}}, "durations.vote"),
            ({"contestants": NAMES12, "traitors": 3, "hosts": ("Alex",)}, "hosts"),
            ({"contestants": ("Alex", "Alex", *NAMES12[2:]), "traitors": 3}, "contestants"),
            ({"contestants": ("A lex", *NAMES12[1:]), "traitors": 3}, "contestants[0]"),
            ({"contestants": NAMES12, "traitors": 3, "twists": {1: (Twist.SEER, Twist.GUESS)}}, "twists.1"),
            ({"contestants": NAMES12, "traitors": 3, "twists": {1: (Twist.GUESS,)}}, "twists.1"),
            ({"contestants": NAMES12, "traitors": 3, "twists": {2: (Twist.MURDER, Twist.TRIAL)}}, "twists.2"),
            ({"contestants": NAMES12, "traitors": 3, "confession_shields": 0}, "confession_shields"),
            ({"contestants": NAMES12, "traitors": 3, "no_votes": "skip"}, "no_votes"),
            ({"contestants": NAMES12, "traitors": 3, "end_when_no_traitors": "yes"}, "end_when_no_traitors"),
            ({"contestants": NAMES12, "traitors": 3, "night_fixed_length": 1}, "night_fixed_length"),
        ],
    )
    def test_bad_settings_name_the_field(self, kw, field):
        with pytest.raises(ConfigError) as err:
            Game(Settings(**kw), seed=1)
        assert str(err.value).startswith(field)

    def test_pool_too_small_names_the_shortfall(self):
        names = tuple(f"Player{i}" for i in range(16))
        with pytest.raises(ConfigError, match=r"power_pool: 12 Faithful powers .*\(4 short\)"):
            Game(Settings(contestants=names, traitors=4), seed=1)
        Game(Settings(contestants=names, traitors=4, powers=False), seed=1)  # fine without powers


class TestSection3TheDay:
    @pytest.mark.rule("T3.7")
    def test_day_zero_has_no_round_table(self, series):
        d = series()
        assert d.game.phase is Phase.DAY_ZERO
        d.advance()
        assert d.game.phase is Phase.OATH  # straight to the night
        assert d.game.record.events[0].day == 0
        assert not any(isinstance(e, RoundTableRecord) for e in d.game.record.events)

    @pytest.mark.rule("T3.2")
    def test_breakfast_arrival_order_is_random_and_recorded(self, series):
        orders = set()
        for seed in range(6):
            d = series(seed=seed)
            d.until(Phase.OATH)
            swear_all(d)
            d.until(Phase.BREAKFAST)
            bf = d.game.record.events[-1]
            assert sorted(bf.arrivals) == sorted(NAMES12)
            orders.add(tuple(bf.arrivals))
        assert len(orders) > 1

    @pytest.mark.rule("T3.1", "T3.5")
    def test_phases_in_order(self, series):
        d = series()
        d.until(Phase.OATH)
        swear_all(d)
        seen = []
        for _ in range(4):
            d.advance() if d.game.phase is not Phase.TURRET else None
            seen.append(d.game.phase)
        assert seen == [Phase.DISCUSSION, Phase.ROUND_TABLE, Phase.VOTE, Phase.VOTE] or seen[:3] == [
            Phase.DISCUSSION,
            Phase.ROUND_TABLE,
            Phase.VOTE,
        ]

    def test_stale_and_repeated_timer_is_ignored(self, series):
        d = series()
        seq = d.game.phase_seq
        assert d.do(TimerExpired(seq)) != []
        before = d.snapshot()
        assert d.do(TimerExpired(seq)) == []
        assert d.do(TimerExpired(seq + 99)) == []
        assert d.snapshot() == before


class TestSection4RoundTable:
    @pytest.mark.rule("T4.3")
    def test_most_votes_banished_and_revealed(self, series):
        d = series()
        to_first_vote(d)
        vote_all(d, {n: "Sunny" for n in NAMES12 if n != "Sunny"} | {"Sunny": "Alex"})
        table = (
            d.game.record.events[-2]
            if not isinstance(d.game.record.events[-1], RoundTableRecord)
            else d.game.record.events[-1]
        )
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.banished == "Sunny" and table.revealed == "traitor"
        assert table.rounds[0].count == "11-1"
        assert any(isinstance(e, Revealed) and e.player == "Sunny" for e in d.effects)

    def test_vote_closes_when_all_cast_and_no_vote_recorded_on_timer(self, series):
        d = series()
        to_first_vote(d)
        vote_all(d, {"Alex": "Kai", "Kai": "Alex", "Zuri": "Kai"})
        d.advance()  # the vote closes; nine never voted
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.rounds[0].votes["Steve"] is None
        assert table.banished == "Kai" and table.rounds[0].count == "2-1"

    @pytest.mark.rule("T4.4")
    def test_tie_second_vote_tied_do_not_vote(self, series):
        """T4.4: "If the vote results in a tie, a second vote will be held between the tied players". The tied do not
        vote in it, as the rulebook's Day One table shows ("No vote")."""
        d = series()
        to_first_vote(d)
        first = dict.fromkeys(("Kai", "Zuri", "Steve", "Ari", "Noor"), "Alex")
        first |= dict.fromkeys(("Efe", "Makena", "Lena", "Omar"), "Sunny")
        first |= {"Alex": "Sunny", "Sunny": "Alex", "Rhea": "Sunny"}
        vote_all(d, first)
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.rounds[0].count == "6-6"
        b = d.game.ballot
        assert b.kind == "second" and set(b.candidates) == {"Alex", "Sunny"}
        assert "Alex" not in b.voters and "Sunny" not in b.voters
        with pytest.raises(IllegalAction) as e:
            d.do(CastVote("Alex", "Sunny"))
        assert e.value.reason == "illegal.vote.not_eligible"
        with pytest.raises(IllegalAction) as e:
            d.do(CastVote("Kai", "Zuri"))
        assert e.value.reason == "illegal.vote.target"
        vote_all(d, dict.fromkeys(b.voters, "Sunny"))
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.banished == "Sunny"
        assert table.rounds[1].votes["Alex"] is None and table.rounds[1].votes["Sunny"] is None

    def test_everyone_on_one_vote_revotes_once_then_normal_tie(self, series):
        names = NAMES12[:6]
        d = series(names=names, traitors=("Alex",))
        to_first_vote(d)
        ring = {names[i]: names[(i + 1) % 6] for i in range(6)}
        vote_all(d, ring)
        assert d.game.ballot.kind == "revote"
        assert set(d.game.ballot.voters) == set(names)
        vote_all(d, ring)  # again everyone on one vote: now a normal tie, every contestant tied
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert [r.kind for r in table.rounds] == ["first", "revote"]
        assert table.deadlock == list(names), "every living contestant tied → straight to deadlock"
        assert table.banished in names

    def table(self, d):
        return [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]

    def test_nobody_votes_everyone_votes_again(self, series):
        """[house] no_votes = "revote": nobody voted is everyone tied (on none): a fresh vote for everyone."""
        d = series()
        to_first_vote(d)
        d.advance()  # the vote closes with no paper cast
        b = d.game.ballot
        assert b.kind == "revote" and b.voters == NAMES12 and b.candidates == NAMES12
        assert "vote.revote.none" in [e.message.key for e in d.effects if hasattr(e, "message")]
        vote_all(d, {n: "Sunny" for n in NAMES12 if n != "Sunny"} | {"Sunny": "Alex"})
        table = self.table(d)
        assert [(r.kind, r.count) for r in table.rounds] == [("first", "0"), ("revote", "11-1")]
        assert table.banished == "Sunny" and table.deadlock is None

    @pytest.mark.rule("T3.6")
    def test_nobody_votes_twice_deadlock_among_everyone(self, series):
        d = series()
        to_first_vote(d)
        d.advance()
        d.advance()  # nobody votes in the revote either: a contestant must be banished (rulebook §4)
        table = self.table(d)
        assert [r.kind for r in table.rounds] == ["first", "revote"]
        assert table.deadlock == list(NAMES12) and table.banished in NAMES12

    def test_no_votes_deadlock_setting_draws_at_once(self, series):
        d = series(no_votes="deadlock")
        to_first_vote(d)
        d.advance()
        table = self.table(d)
        assert [r.kind for r in table.rounds] == ["first"] and table.deadlock == list(NAMES12)
        assert d.game.record.settings["no_votes"] == "deadlock"

    def test_everyone_on_one_then_nobody_votes_is_deadlock(self, series):
        """The extra vote happens at most once per round table, whichever tie asked for it."""
        names = NAMES12[:6]
        d = series(names=names, traitors=("Alex",))
        to_first_vote(d)
        vote_all(d, {names[i]: names[(i + 1) % 6] for i in range(6)})
        assert d.game.ballot.kind == "revote"
        d.advance()
        table = self.table(d)
        assert [r.kind for r in table.rounds] == ["first", "revote"] and table.deadlock == list(names)

    @pytest.mark.rule("T4.6")
    def test_second_vote_nobody_votes_deadlock_among_the_tied(self, series):
        d = series()
        to_first_vote(d)
        vote_all(d, {"Kai": "Alex", "Zuri": "Alex", "Alex": "Kai", "Steve": "Kai"})
        d.advance()
        assert d.game.ballot.kind == "second"
        d.advance()  # nobody votes between the tied: a second tie
        table = self.table(d)
        assert [(r.kind, r.count) for r in table.rounds] == [("first", "2-2"), ("second", "0")]
        assert table.deadlock == ["Alex", "Kai"]

    @pytest.mark.rule("T4.6")
    def test_second_tie_is_deadlock_with_shields(self, series):
        """T4.6: "If there is a second tie, the tied players will enter deadlock. From there, the banished player will be
        left up to chance." [house] The chance is a draw from as many chests as tied contestants, all but one
        holding a deadlock shield; only the contestant who drew a shield receives one."""
        d = series()
        to_first_vote(d)
        first = dict.fromkeys(NAMES12[:6], "Alex") | dict.fromkeys(NAMES12[6:], "Kai")
        first["Alex"] = "Kai"
        first["Kai"] = "Alex"
        first["Rhea"] = "Alex"
        vote_all(d, first)
        voters = d.game.ballot.voters
        vote_all(d, {v: ("Alex" if i < 5 else "Kai") for i, v in enumerate(voters)})
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.deadlock == ["Alex", "Kai"]
        saved = ({"Alex", "Kai"} - {table.banished}).pop()
        shields = [e for e in d.effects if isinstance(e, GiveItem) and e.item is Item.DEADLOCK_SHIELD]
        assert [set(e.to) for e in shields] == [{saved}]

    @pytest.mark.rule("T4.1", "T8.1")
    def test_double_vote_counts_two(self, series):
        d = series(twists={1: (Twist.DOUBLE_VOTE,)})
        d.until(Phase.OATH)
        swear_all(d)
        assert d.game.phase is Phase.TURRET
        for t in ("Sunny", "Efe", "Makena"):
            d.do(NominateDoubleVote(t, "Kai"))
        d.until(Phase.VOTE)
        papers = [e for e in d.effects if isinstance(e, GiveItem) and e.item is Item.DOUBLE_VOTE_PAPER]
        assert [set(e.to) for e in papers] == [{"Kai"}]
        vote_all(d, {"Kai": "Alex", "Zuri": "Sunny"})
        d.advance()
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.banished == "Alex" and table.rounds[0].count == "2-1"
        assert table.rounds[0].weights == {"Kai": 2}

    @pytest.mark.rule("T9.2")
    def test_no_reveal_from_five(self, series):
        names = NAMES12[:6]
        d = series(names=names, traitors=("Alex",))
        to_first_vote(d)
        vote_all(d, {n: "Kai" for n in names if n != "Kai"} | {"Kai": "Alex"})
        t1 = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert t1.revealed == "faithful"  # six at the table
        d.until(Phase.VOTE)  # the night with five has no event (phases.py rule 4)
        assert len(d.game.living()) == 5
        vote_all(d, {n: "Zuri" for n in d.game.living() if n != "Zuri"} | {"Zuri": "Alex"})
        t2 = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert t2.banished == "Zuri" and t2.revealed is None
        assert d.game.phase is Phase.TORCHES and sorted(d.game.torches) == sorted(["Alex", "Steve", "Ari", "Noor"])


class TestSection7Night:
    @pytest.mark.rule("T7.2")
    def test_oath_before_power_and_fellow_traitors(self, series):
        d = series(traitors=3, seed=4, powers=True)
        traitors = d.game.living_traitors()
        d.advance()
        first = d.game.night.oath_queue[0]
        assert first == traitors[0]
        assert not any("Your power" in m for m in d.game.inbox[first])
        with pytest.raises(IllegalAction):
            d.do(SwearOath(traitors[1]))
        for _ in range(3):
            d.do(SwearOath(first))
        assert d.game.players[first].sworn
        inbox = d.game.inbox[first]
        assert inbox[inbox.index("Then you are now, officially, a Traitor.") + 1].startswith(
            "You are a Traitor. Your power:"
        )
        swear_all(d)
        assert d.game.phase is Phase.TURRET or d.game.phase is Phase.BREAKFAST

    @pytest.mark.rule("T7.7", "T7.14")
    def test_three_traitors_murder_only(self, series):
        d = series(first_night_murder=True)
        d.until(Phase.OATH)
        swear_all(d)
        assert d.game.night.events == {NightEvent.MURDER}
        with pytest.raises(IllegalAction):
            d.do(ChooseEvent("Sunny", NightEvent.SEDUCE, "Alex"))
        for target in ("Efe", "Sunny", "Nobody"):  # a Traitor (another or oneself), no contestant
            with pytest.raises(IllegalAction) as refused:
                d.do(ChooseEvent("Sunny", NightEvent.MURDER, target))
            assert refused.value.reason == "illegal.turret.target"
        with pytest.raises(InvalidCommand) as junk:  # not a name at all (house rule 5 of engine.core.step)
            d.do(ChooseEvent("Sunny", NightEvent.MURDER, ["Alex"]))
        assert junk.value.reason == "invalid.action.value" and junk.value.params["field"] == "target"
        d.do(ChooseEvent("Sunny", NightEvent.MURDER, "Alex"))
        d.do(ChooseEvent("Efe", NightEvent.MURDER, "Alex"))
        d.do(ChooseEvent("Makena", NightEvent.MURDER, "Kai"))
        d.until(Phase.BREAKFAST)  # phases house rule 9: the night's stages run their clocks
        assert d.game.phase is Phase.BREAKFAST
        assert not d.game.players["Alex"].alive and d.game.players["Alex"].publicly_out
        assert any(isinstance(e, Whisper) and e.to == {"Alex"} and "murdered" in e.message.text for e in d.effects)
        d.until(Phase.TURRET)  # the next night: the murdered Alex is no target any more
        with pytest.raises(IllegalAction) as refused:
            d.do(ChooseEvent("Sunny", NightEvent.MURDER, "Alex"))
        assert refused.value.reason == "illegal.turret.target"
        d.do(ChooseEvent("Sunny", NightEvent.MURDER, "Kai"))

    @pytest.mark.rule("T3.3")
    def test_murder_is_secret_until_breakfast(self, series):
        d = series(first_night_murder=True)
        d.until(Phase.OATH)
        swear_all(d)
        for t in ("Sunny", "Efe"):
            d.do(ChooseEvent(t, NightEvent.MURDER, "Alex"))
        fx = d.do(ChooseEvent("Makena", NightEvent.MURDER, "Alex"))
        while d.game.phase is not Phase.BREAKFAST:  # phases house rule 9: the last stage's end ends the night
            fx = d.advance()
        from engine.effects import Eliminated

        private = [e for e in fx if isinstance(e, Eliminated) and e.to is not None]
        public = [e for e in fx if isinstance(e, Eliminated) and e.to is None]
        assert private and private[0].to == {"Alex"}
        assert public  # announced at the breakfast that follows in the same step

    def test_tie_of_picks_drawn_by_seed(self, series):
        outcomes = set()
        for seed in range(8):
            d = series(first_night_murder=True, seed=seed)
            d.until(Phase.OATH)
            swear_all(d)
            d.do(ChooseEvent("Sunny", NightEvent.MURDER, "Alex"))
            d.do(ChooseEvent("Efe", NightEvent.MURDER, "Kai"))
            d.do(ChooseEvent("Makena", NightEvent.MURDER, "Zuri"))
            d.advance()  # the Turret's clock runs out (phases house rule 9)
            outcomes.add(d.game.record.events[0].target)
        assert len(outcomes) > 1

    def _two_traitors(self, series, **kw):
        d = series(traitors=("Sunny", "Efe"), first_night_murder=True, **kw)
        d.until(Phase.OATH)
        swear_all(d)
        return d

    @pytest.mark.rule("T7.8", "T7.2")
    def test_two_traitors_seduce_accept_recruits(self, series):
        d = self._two_traitors(series)
        assert d.game.night.events == {NightEvent.MURDER, NightEvent.SEDUCE}
        d.do(ChooseEvent("Sunny", NightEvent.SEDUCE, "Alex"))
        d.do(ChooseEvent("Efe", NightEvent.SEDUCE, "Alex"))
        d.until(Phase.OFFER)  # phases house rule 9: the night's stages run their clocks
        with pytest.raises(IllegalAction):
            d.do(AnswerOffer("Kai", True))
        d.do(AnswerOffer("Alex", True))
        alex = d.game.players["Alex"]
        assert alex.allegiance is Allegiance.TRAITOR and not alex.sworn and alex.alive
        d.until(Phase.BREAKFAST)
        # the recruit takes the Oath the next night
        d.until(Phase.VOTE)
        vote_all(d, {n: "Kai" for n in d.game.living() if n != "Kai"} | {"Kai": "Zuri"})
        assert d.game.phase is Phase.OATH and d.game.night.oath_queue == ["Alex"]

    @pytest.mark.rule("T7.8")
    def test_two_traitors_seduce_decline_nothing_happens(self, series):
        """T7.8: "if there are two Traitors, they gain the option to attempt to seduce a player". [house] A declined
        seduction means nothing happens that night: nobody is murdered."""
        d = self._two_traitors(series)
        d.do(ChooseEvent("Sunny", NightEvent.SEDUCE, "Alex"))
        d.do(ChooseEvent("Efe", NightEvent.SEDUCE, "Alex"))
        d.until(Phase.OFFER)  # phases house rule 9: the night's stages run their clocks
        d.do(AnswerOffer("Alex", False))
        d.until(Phase.BREAKFAST)
        assert d.game.players["Alex"].allegiance is Allegiance.FAITHFUL
        assert all(p.alive for p in d.game.players.values())
        assert d.game.record.events[-1].murdered == []

    @pytest.mark.rule("T7.9")
    def test_one_traitor_must_give_ultimatum_decline_is_murder(self, series):
        """T7.9: "if there is only one Traitor, they must instead choose a player to give an ultimatum, either
        recruiting them as a Traitor, or murdering them". [house] No answer by the end of the clock is a decline."""
        d = series(traitors=("Sunny",), first_night_murder=True)
        d.until(Phase.OATH)
        swear_all(d)
        assert d.game.night.events == {NightEvent.ULTIMATUM}
        with pytest.raises(IllegalAction):
            d.do(ChooseEvent("Sunny", NightEvent.MURDER, "Alex"))
        d.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Alex"))
        d.until(Phase.OFFER)  # phases house rule 9: the night's stages run their clocks
        d.advance()  # no answer: the offer lapses, a decline
        d.until(Phase.BREAKFAST)
        assert not d.game.players["Alex"].alive

    @pytest.mark.rule("T7.9")
    def test_ultimatum_accept_recruits(self, series):
        d = series(traitors=("Sunny",), first_night_murder=True)
        d.until(Phase.OATH)
        swear_all(d)
        d.do(ChooseEvent("Sunny", NightEvent.ULTIMATUM, "Kai"))
        d.until(Phase.OFFER)  # phases house rule 9: the night's stages run their clocks
        d.do(AnswerOffer("Kai", True))
        assert d.game.players["Kai"].allegiance is Allegiance.TRAITOR

    def test_recruit_power_becomes_false_power_and_gets_free_traitor_power(self):
        names = NAMES12[:9]
        g = Game(Settings(contestants=names, traitors=2, hosts=("Host",), first_night_murder=True), seed=5)
        g.handle(StartSeries(), now=0)
        traitors = g.living_traitors()
        now = 1.0
        g.handle(Advance("Host"), now=now)
        while g.phase is Phase.OATH:
            g.handle(SwearOath(g.night.oath_queue[0]) if g.night.oath_taking else Advance("Host"), now=now)
        target = g.living_faithful()[0]
        old_power = g.players[target].power
        for t in traitors:
            g.handle(ChooseEvent(t, NightEvent.SEDUCE, target), now=now)
        while g.phase is not Phase.OFFER:  # rulebook §5: the Traitor powers come before the offer
            g.handle(Advance("Host"), now=now)
        g.handle(AnswerOffer(target, True), now=now)
        p = g.players[target]
        assert p.false_power is old_power and p.power is None


class TestSection9Finale:
    def _finale(self, series):
        names = ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor")
        d = series(names=names, traitors=("Sunny",))
        to_first_vote(d)
        vote_all(d, {n: "Efe" for n in names if n != "Efe"} | {"Efe": "Alex"})
        d.until(Phase.VOTE)
        vote_all(d, {n: "Noor" for n in d.game.living() if n != "Noor"} | {"Noor": "Alex"})
        assert d.game.phase is Phase.TORCHES
        return d

    @pytest.mark.rule("T9.6")
    def test_torch_changeable_until_locked_and_unanimous_end(self, series):
        d = self._finale(series)
        d.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
        d.do(ChooseTorch("Alex", Torch.END_GAME))
        for n in ("Kai", "Zuri", "Sunny"):
            d.do(ChooseTorch(n, Torch.END_GAME))
        assert d.game.phase is Phase.TORCHES  # never ends before the host locks
        d.do(AskHappy("Host"))  # rulebook §9: the host asks before locking
        fx = d.advance()
        over = [e for e in fx if isinstance(e, SeriesOver)]
        assert over and over[0].outcome.winner is Winner.TRAITORS
        assert over[0].outcome.winners == ("Sunny",)
        assert over[0].outcome.termination is Termination.FINALE_AGREED

    @pytest.mark.rule("T9.5")
    def test_one_banish_again_means_another_banishment_then_two_left(self, series):
        d = self._finale(series)
        for n, t in (
            ("Alex", Torch.BANISH_AGAIN),
            ("Kai", Torch.END_GAME),
            ("Zuri", Torch.END_GAME),
            ("Sunny", Torch.END_GAME),
        ):
            d.do(ChooseTorch(n, t))
        d.do(AskHappy("Host"))
        d.advance()
        assert d.game.phase is Phase.VOTE
        rounds = [e for e in d.game.record.events if isinstance(e, TorchRound)]
        assert rounds[-1].count == "3-1"
        vote_all(d, {"Alex": "Sunny", "Kai": "Sunny", "Zuri": "Sunny", "Sunny": "Alex"})
        table = [e for e in d.game.record.events if isinstance(e, RoundTableRecord)][-1]
        assert table.finale and table.banished == "Sunny" and table.revealed is None
        assert d.game.phase is Phase.TORCHES
        for n in ("Alex", "Kai"):
            d.do(ChooseTorch(n, Torch.BANISH_AGAIN))
        d.advance()  # moving on before the question asks it
        assert d.game.phase is Phase.TORCHES and d.game.torches_asked
        d.advance()
        vote_all(d, {"Alex": "Kai", "Kai": "Alex", "Zuri": "Kai"})
        assert d.game.outcome.termination is Termination.TWO_LEFT
        assert d.game.outcome.winner is Winner.FAITHFUL

    def test_no_torch_is_not_agreement(self, series):
        d = self._finale(series)
        for n in ("Alex", "Kai", "Zuri"):
            d.do(ChooseTorch(n, Torch.END_GAME))
        d.do(AskHappy("Host"))
        d.advance()
        assert d.game.phase is Phase.VOTE


class TestIllegalInputsChangeNothing:
    """h11 style: every illegal input raises and leaves the state equal."""

    def check(self, d, action, reason):
        before = d.snapshot()
        with pytest.raises((IllegalAction, InvalidCommand)) as err:
            d.do(action)
        assert err.value.reason == reason
        assert d.snapshot() == before

    @pytest.mark.rule("T4.2", "T1.2")
    def test_vote_errors(self, series):
        d = series()
        self.check(d, CastVote("Alex", "Kai"), "illegal.vote.not_open")
        to_first_vote(d)
        d.do(CastVote("Alex", "Kai"))
        self.check(d, CastVote("Alex", "Zuri"), "illegal.vote.twice")
        self.check(d, CastVote("Kai", "Kai"), "illegal.vote.self")
        self.check(d, CastVote("Kai", "Nobody"), "illegal.vote.target")
        self.check(d, CastVote("Ghost", "Kai"), "illegal.unknown_player")
        self.check(d, Advance("Alex"), "illegal.not_host")
        vote_all(d, {n: "Kai" for n in NAMES12 if n not in ("Alex", "Kai")} | {"Kai": "Alex"})
        self.check(d, CastVote("Zuri", "Alex"), "illegal.vote.not_open")  # after the vote closed
        # a banished contestant acts, or is voted for, at the next round table
        d.until(Phase.VOTE)
        self.check(d, CastVote("Kai", "Alex"), "illegal.out")
        self.check(d, CastVote("Alex", "Kai"), "illegal.vote.target")

    def test_traitor_action_from_a_faithful(self, series):
        d = series(first_night_murder=True, twists={1: (Twist.DOUBLE_VOTE,)})
        d.until(Phase.OATH)
        swear_all(d)
        self.check(d, ChooseEvent("Alex", NightEvent.MURDER, "Kai"), "illegal.not_traitor")
        self.check(d, NominateDoubleVote("Alex", "Kai"), "illegal.not_traitor")
        d.do(ChooseEvent("Sunny", NightEvent.MURDER, "Kai"))
        self.check(d, ChooseEvent("Sunny", NightEvent.MURDER, "Zuri"), "illegal.turret.already")
        self.check(d, ChooseTorch("Alex", Torch.END_GAME), "illegal.torch.closed")
        self.check(d, AnswerOffer("Alex", True), "illegal.offer.none")
        self.check(d, StartSeries(), "illegal.phase")


class TestReplay:
    @pytest.mark.rule("T3.6", "T9.6")
    @pytest.mark.parametrize("seed", range(25))
    def test_random_series_replays_exactly_and_ends(self, seed):
        r = random.Random(seed)
        n = r.randint(6, 16)
        names = tuple(f"Player{i}" for i in range(n))
        settings = Settings(
            contestants=names,
            traitors=max(1, min(n // 4, (n - 1) // 3)),
            powers=n <= 12,
            drunk=r.choice(["none", "possible", "always"]) if n <= 12 else "none",
            first_night_murder=r.random() < 0.5,
            twists={1: (Twist.DOUBLE_VOTE,)},
        )
        g = Game(settings, seed)
        now = 0.0
        g.handle(StartSeries(), now=now)
        for _ in range(3000):
            if g.is_over:
                break
            acts = [a for p in g.contestants() for a in g.legal_actions(p)]
            now += 1
            if acts and r.random() < 0.9:
                g.handle(r.choice(acts), now=now)
            else:
                g.handle(TimerExpired(g.phase_seq), now=now)
        assert g.is_over
        again = Game.replay(settings, seed, g.log)
        assert again.record.to_dict() == g.record.to_dict()
        assert again.inbox == g.inbox
        # invariants: one banishment per round table; the winner matches the rulebook
        for e in g.record.events:
            if isinstance(e, RoundTableRecord):
                assert e.banished is not None
        survivors = [p for p in g.players.values() if p.alive]
        expected = Winner.TRAITORS if any(p.allegiance is Allegiance.TRAITOR for p in survivors) else Winner.FAITHFUL
        if g.outcome.termination is Termination.JOKER_BANISHED:
            expected = Winner.JOKER  # rulebook §6: the banished Joker wins alone (joker_outcome default)
        assert g.outcome.winner is expected

    def test_prompts_only_to_one_contestant(self, series):
        d = series()
        to_first_vote(d)
        prompts = [e for e in d.effects if isinstance(e, Prompt)]
        assert prompts and all(len(p.to) == 1 for p in prompts)
