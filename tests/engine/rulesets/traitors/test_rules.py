"""The Traitors' rule tables (``engine.rulesets.traitors.rules``) and the shape they keep the package in: every
input and phase has its entry, the listed inputs are exactly ones the checks accept, and no rule module reaches
back into the game module."""

from __future__ import annotations

import ast
import pathlib
import random

import pytest

from engine.actions import (
    HOST_TWIST_ACTIONS,
    Advance,
    CastVote,
    NominateCandidate,
    StartSeries,
    TimerExpired,
)
from engine.errors import InvalidCommand
from engine.rulesets.traitors import rules, twists
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase, Stage
from engine.rulesets.traitors.settings import Settings

PACKAGE = pathlib.Path(rules.__file__).parent
NAMES = ("Alex", "Kai", "Lena", "Ari", "Sunny", "Zuri", "Omar", "Efe", "Noor", "Steve")


def test_every_phase_but_the_end_and_every_stage_is_a_node_of_the_phase_graph():
    assert set(rules.PHASES.steps) == (set(Phase) - {Phase.OVER}) | set(Stage)
    assert all(callable(f) for f in rules.PHASES.steps.values())


def test_the_game_offers_no_step_of_play_but_the_graph_s_driver():
    """Steps lead on by returning a node of ``rules.PHASES``; the game has no method per step."""
    steps = {f.__name__ for f in rules.PHASES.steps.values()}
    assert not steps & set(vars(Game)), steps & set(vars(Game))
    assert callable(Game.go)


def test_every_traitors_input_has_one_rule():
    core = {Advance, CastVote}
    assert core | set(twists.INPUTS) | set(HOST_TWIST_ACTIONS) <= set(rules.INPUTS)
    assert StartSeries not in rules.INPUTS and TimerExpired not in rules.INPUTS  # engine.core.step takes these
    for rule in rules.INPUTS.values():
        assert rule.by in (rules.CONTESTANT, rules.HOST, rules.SERVER) and rule.phases <= set(Phase)
        assert rule.lister is None or rule.by == rules.CONTESTANT


def test_an_input_of_another_ruleset_is_refused_by_kind():
    game = Game(Settings(contestants=NAMES, hosts=("Host",), traitors=3), seed=1)
    game.handle(StartSeries(), now=0.0)
    with pytest.raises(InvalidCommand) as refused:
        game.handle(NominateCandidate("Alex", "Kai"), now=1.0)
    assert refused.value.reason == "invalid.action.kind"


@pytest.mark.parametrize("seed", [3, 11])
def test_every_listed_input_passes_its_check_and_changes_nothing(seed):
    """Through a whole series: each input ``legal_actions`` lists passes its ``INPUTS`` check, and checking them
    all changes nothing a replay would see (the log, the clock, the views)."""
    game = Game(Settings(contestants=NAMES, hosts=("Host",), traitors=3), seed=seed)
    game.handle(StartSeries(), now=0.0)
    pick = random.Random(seed)
    now = 0.0
    while not game.is_over and now < 5000:
        now += 1.0
        contestants = [n for n in game.contestants() if game.players[n].alive]
        listed = [a for n in contestants for a in game.legal_actions(n)]
        before = (len(game.log), game.phase_seq, [game.view_for(n) for n in contestants])
        for action in listed:
            rules.INPUTS[type(action)].check(game, action)
        assert (len(game.log), game.phase_seq, [game.view_for(n) for n in contestants]) == before
        game.handle(pick.choice(listed) if listed and pick.random() < 0.9 else Advance("Host"), now=now)
    assert game.is_over


def test_no_rule_module_imports_the_game_module_or_hides_an_import():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("game.py", "spec.py") and path.parent == PACKAGE:
            continue  # the game itself, and the registry entry that names it
        tree = ast.parse(path.read_text())
        top = set(tree.body)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert node in top, f"{path}: a function-local or conditional import"
                module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
                assert module != "engine.rulesets.traitors.game", path
                assert not (
                    isinstance(node, ast.ImportFrom)
                    and module == "typing"
                    and any(a.name == "TYPE_CHECKING" for a in node.names)
                ), path
