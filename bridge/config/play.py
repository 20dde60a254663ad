"""Playing a loaded scenario (``bridge.config.scenario``) through the engine alone: no server, no clock.

``play_scenario`` feeds the inputs to the game of the scenario's ``ruleset`` (``engine.rulesets``; default
``traitors``) at the times the file gives and returns the game; the engine's refusal of an input is a
``ScenarioError`` naming the file and the input index.
"""

from __future__ import annotations

from typing import Any

from bridge.config.inputs import ScenarioInput
from bridge.config.scenario import Scenario
from bridge.config.settings import ScenarioError
from engine.actions import Action, StartSeries, TimerExpired
from engine.errors import IllegalAction, InvalidCommand
from engine.rulesets import new_game


def play_scenario(scenario: Scenario) -> Any:
    """Play a scenario's inputs through the engine.

    The series starts with ``StartSeries`` at 0 s (implied unless the first input is ``start_series``). Each
    input happens at its ``at``, or 1 s after the previous input; a ``timer`` without ``at`` happens at the
    current phase's deadline (or 1 s after the previous input, if that is later).

    Args:
        scenario: a loaded scenario.

    Returns:
        The game after the last input (the series may or may not be over).

    Raises:
        ScenarioError: an input the engine refuses (``IllegalAction`` / ``InvalidCommand``; the message names the
            file, the input index and the engine's message with its key), an ``at`` earlier than the previous
            input, or a ``timer`` after the series is over.
    """
    game = new_game(scenario.settings, scenario.seed)
    inputs = list(scenario.inputs)
    prev: float | None = None
    if not inputs or not isinstance(inputs[0].action, StartSeries):
        game.handle(StartSeries(), now=0.0)
        prev = 0.0
    for item in inputs:
        if item.action is None and game.is_over:
            raise ScenarioError(scenario.path, [f"{item.where}: timer: the series is over; no phase clock runs"])
        now = _time_of(item, prev, game)
        if prev is not None and now < prev:
            raise ScenarioError(
                scenario.path, [f"{item.where}.at: {now:g} is earlier than the previous input ({prev:g})"]
            )
        action = item.action if item.action is not None else TimerExpired(game.phase_seq)
        try:
            game.handle(action, now=now)
        except (IllegalAction, InvalidCommand) as exc:
            raise ScenarioError(
                scenario.path,
                [f"{item.where}: the engine refused {_describe(action)}: {exc} [{exc.reason}]"],
            ) from None
        prev = now
    return game


def _time_of(item: ScenarioInput, prev: float | None, game: Any) -> float:
    if item.at is not None:
        return item.at
    if prev is None:
        return 0.0
    if item.action is None and game.deadline is not None and game.deadline >= prev:
        return float(game.deadline)
    return prev + 1.0


def _describe(action: Action) -> str:
    fields = {k: v for k, v in action.to_dict().items() if k != "action"}
    return f"{action.kind}(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")"


__all__ = ["play_scenario"]
