"""The balance lab's core (engine/sim.py): whole series by bots, counts, Wilson intervals, twist pairs."""

from __future__ import annotations

import dataclasses

import pytest

from engine.ids import Twist
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings
from engine.sim import Tally, play_series, series_seeds, simulate, summary, twists_of, wilson, without_twist

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
SETTINGS = Settings(contestants=NAMES, traitors=3, drunk="possible", twists={1: (Twist.DOUBLE_VOTE,)})


class TestWilson:
    def test_known_values(self):
        # 5 of 10 and 0 of 10 at 95 %: the textbook values 0.2366-0.7634 and 0-0.2775.
        lo, hi = wilson(5, 10)
        assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
        lo, hi = wilson(0, 10)
        assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
        lo, hi = wilson(10, 10)
        assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0

    def test_large_sample_close_to_normal_interval(self):
        lo, hi = wilson(5000, 10000)
        assert lo == pytest.approx(0.5 - 1.96 * 0.005, abs=2e-4) and hi == pytest.approx(0.5 + 1.96 * 0.005, abs=2e-4)

    def test_no_trials_and_bad_counts(self):
        assert wilson(0, 0) == (0.0, 1.0)
        with pytest.raises(ValueError):
            wilson(3, 2)


class TestPlaySeries:
    def test_a_series_ends_with_a_winner_and_the_deal(self):
        game, result = play_series(SETTINGS, 11)
        assert game.is_over and result.winner == game.outcome.winner.value
        assert set(result.roles) == set(NAMES) and sum(s == "traitor" for s in result.sides.values()) == 3
        assert set(result.winners) <= result.winning_side
        assert result.days == game.day >= 1 and result.inputs == len(game.log)

    def test_same_seed_same_series(self):
        a, ra = play_series(SETTINGS, 5)
        b, rb = play_series(SETTINGS, 5)
        assert a.log == b.log and ra == rb

    def test_the_log_replays(self):
        game, _ = play_series(SETTINGS, 3)
        again = type(game).replay(SETTINGS, 3, game.log)
        assert again.record.to_dict() == game.record.to_dict()

    @pytest.mark.parametrize("ruleset", ["black_knights", "mafia_yakuza"])
    def test_club_rulesets_run(self, ruleset):
        settings = ClubSettings(ruleset, NAMES[:11])
        for seed in range(3):
            game, result = play_series(settings, seed)
            assert game.is_over and result.winner

    @pytest.mark.parametrize("kind", ["random", "simple", "smart"])
    def test_every_bot_kind_finishes(self, kind):
        _, result = play_series(SETTINGS, 2, kind)
        assert result.winner in ("faithful", "traitors", "joker")


class TestTwists:
    def test_twists_of_and_without(self):
        assert twists_of(SETTINGS) == ("double_vote", "joker")
        assert twists_of(without_twist(SETTINGS, "double_vote")) == ("joker",)
        assert twists_of(without_twist(SETTINGS, "joker")) == ("double_vote",)
        assert twists_of(ClubSettings("black_knights", NAMES[:8])) == ()

    def test_paired_runs_are_counted(self):
        tally = simulate(SETTINGS, series_seeds(1, 6), twist_impact=True)
        assert tally.twist_runs == {"double_vote": 6, "joker": 6}
        for t in ("double_vote", "joker"):
            assert 0 <= tally.twist_changed[t] <= 6 and sum(tally.twist_without[t].values()) == 6

    def test_a_removed_twist_that_never_acts_changes_nothing(self):
        # The Joker offered on a night the series never reaches: removing it changes no series.
        late = dataclasses.replace(SETTINGS, joker_night=40, twists={})
        tally = simulate(late, series_seeds(2, 5), twist_impact=True)
        assert tally.twist_runs == {"joker": 5} and tally.twist_changed == {"joker": 0}


class TestTally:
    def test_merge_equals_one_run(self):
        seeds = series_seeds(4, 8)
        whole = simulate(SETTINGS, seeds)
        parts = Tally()
        for chunk in (seeds[:3], seeds[3:]):
            parts.merge(simulate(SETTINGS, chunk))
        assert summary(parts, ruleset="traitors", contestants=12, seed=4, bots="smart") == summary(
            whole, ruleset="traitors", contestants=12, seed=4, bots="smart"
        )

    def test_summary_counts(self):
        tally = simulate(SETTINGS, series_seeds(3, 10))
        data = summary(tally, ruleset="traitors", contestants=12, seed=3, bots="smart")
        assert data["series"] == 10 and sum(w["wins"] for w in data["win_rates"].values()) == 10
        for w in data["win_rates"].values():
            lo, hi = w["ci95"]
            assert lo <= w["rate"] <= hi
        # Every Traitor power is dealt in every series of 12 with 3 Traitors.
        assert all(
            data["on_winning_side"][p]["dealt"] == 10 for p in ("The Bartender", "The Falsifier", "The Silencer")
        )

    def test_series_seeds(self):
        assert series_seeds(1, 5) == series_seeds(1, 5)
        assert series_seeds(1, 3) == series_seeds(1, 5)[:3]
        assert not set(series_seeds(1, 50)) & set(series_seeds(2, 50))


def test_simulate_runs_the_collector_less_often_and_restores_it():
    import gc

    from engine.sim import GC_THRESHOLD

    before = gc.get_threshold()
    during = []
    simulate(SETTINGS, series_seeds(2, 2), bots="random", progress=lambda _: during.append(gc.get_threshold()))
    assert during and all(t[0] == max(before[0], GC_THRESHOLD) and t[1:] == before[1:] for t in during)
    assert gc.get_threshold() == before


def test_simulate_leaves_automatic_collection_off_when_it_was_off():
    import gc

    before = gc.get_threshold()
    try:
        gc.set_threshold(0)
        during = []
        simulate(SETTINGS, series_seeds(3, 1), bots="random", progress=lambda _: during.append(gc.get_threshold()[0]))
        assert during == [0] and gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)
