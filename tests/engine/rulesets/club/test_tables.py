"""The club game's tables (``engine.rulesets.club.game``): the phase graph has a row for every phase and stage,
its steps are functions of the night and day modules (no step is a method of a class in the game's chain), and
the input rows are the shared ``engine.core.inputs.InputRule``, refusing a contestant's input outside its phases
with the row's own message key."""

from __future__ import annotations

import pytest

from engine.actions import AskRepeat, CastVote, HoldBack, StartSeries
from engine.core.inputs import CONTESTANT, InputRule
from engine.errors import IllegalAction
from engine.rulesets.club import day, game, night
from engine.rulesets.club.black_knights import BlackKnightsGame
from engine.rulesets.club.settings import ClubPhase, ClubSettings, ClubStage
from engine.rulesets.traitors import rules as traitors_rules

NAMES = ("Alex", "Kai", "Lena", "Ari", "Sunny", "Zuri", "Omar", "Efe")


def test_every_phase_but_the_end_and_every_stage_is_a_node_of_the_phase_graph():
    assert set(game.PHASES.steps) == (set(ClubPhase) - {ClubPhase.OVER}) | set(ClubStage)


def test_the_steps_are_functions_of_the_night_and_day_modules_not_methods_in_the_class_chain():
    assert {f.__module__ for f in game.PHASES.steps.values()} == {night.__name__, day.__name__}
    chain = {cls.__module__ for cls in BlackKnightsGame.__mro__}
    assert night.__name__ not in chain and day.__name__ not in chain


def test_both_rule_packages_share_one_input_row_shape():
    rows = [*game.INPUTS.values(), *traitors_rules.INPUTS.values()]
    assert all(type(r) is InputRule for r in rows)
    contestant_rows = [r for r in game.INPUTS.values() if r.by == CONTESTANT]
    assert contestant_rows and all(r.closed and r.lister for r in contestant_rows)


@pytest.mark.parametrize(
    ("action", "key"),
    [
        (CastVote("Kai", "Lena"), "illegal.vote.not_open"),
        (HoldBack("Kai"), "illegal.club.not_your_turn"),
        (AskRepeat("Kai", True), "illegal.club.no_repeat"),
    ],
)
def test_a_contestant_s_input_outside_its_phases_is_refused_with_its_row_s_key_and_changes_nothing(action, key):
    series = BlackKnightsGame(ClubSettings(ruleset="black_knights", contestants=NAMES, hosts=("Host",)), seed=4)
    series.handle(StartSeries(), now=0.0)
    assert series.phase is ClubPhase.NIGHT
    before = (len(series.log), series.phase_seq, series.view_for("Kai"))
    with pytest.raises(IllegalAction) as refused:
        series.handle(action, now=1.0)
    assert refused.value.reason == key
    assert (len(series.log), series.phase_seq, series.view_for("Kai")) == before
