"""Scenario files: a scripted series as TOML (``docs/scenarios.md``), to be played through the engine alone.

A scenario is the series settings (contestants in seat order, an optional explicit deal, twists, …;
``bridge.config.settings``), a seed and a list of inputs (``bridge.config.inputs``). ``load_scenario`` reads and
validates a file and converts it at once into engine types (``Settings``, ``DealEntry``, ``Action``);
``bridge.config.play.play_scenario`` plays it.

Design notes:

* **Time** is an input (``docs/design.md#the-engine``): the series starts at 0 s; an input without ``at`` comes 1 s
  after the previous one, except ``timer``, which comes at the phase's deadline.
* **An explicit deal is only checked for consistency** (``Settings._validate_deal``), never against the
  random deal's limits: the rulebook's own example deal (§1) has 3 Traitors among 9 contestants.
* **Errors never escape as tracebacks.** Every problem is a ``ScenarioError`` (a ``ConfigError``) whose
  message names the file and the key path (``day_one.toml: input[12].target: field required``), or the file,
  the input index and the engine's refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from bridge.config.files import read_config_text
from bridge.config.inputs import ScenarioInput, parse_inputs
from bridge.config.model import parse_toml
from bridge.config.settings import (
    AnySettings,
    ScenarioError,
    SettingsModel,
    engine_settings,
    settings_body,
    settings_problems,
    validate_settings,
)
from engine.errors import ConfigError


class ScenarioModel(SettingsModel):
    """The top level of a scenario file: the settings keys, ``seed`` and ``input`` (validated one by one)."""

    seed: int = 0
    input: list[dict[str, Any]] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded scenario: engine settings, seed and inputs, ready for ``play_scenario``.

    Args:
        path: the file as given (used in every error message).
        settings: the series settings (already validated).
        seed: the seed of the series' random generator.
        inputs: the engine inputs in order, shorthands expanded.
    """

    path: str
    settings: AnySettings
    seed: int
    inputs: tuple[ScenarioInput, ...]


def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and convert a scenario file (``docs/scenarios.md``).

    Args:
        path: a TOML scenario file.

    Returns:
        The scenario, with engine ``Settings`` already validated.

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or has invalid or missing keys (every problem is
            listed, each naming the file and the key path), or the settings fail ``Settings.validate``.
    """
    return parse_scenario(read_config_text(path, ScenarioError), str(path))


def parse_scenario(text: str, name: str) -> Scenario:
    """Validate and convert the TOML text of a scenario.

    Args:
        text: the file's content.
        name: how to name the file in error messages.

    Raises:
        ScenarioError: as for ``load_scenario``.
    """
    return parse_scenario_data(parse_toml(text, name, ScenarioError), name)


def parse_scenario_data(data: Mapping[str, Any], name: str) -> Scenario:
    """Validate and convert a parsed scenario mapping.

    Raises:
        ScenarioError: as for ``load_scenario``.
    """
    data = settings_body(data)
    try:
        model = ScenarioModel.model_validate(data)
    except ValidationError as exc:
        problems = settings_problems(exc)
        # Report bad inputs too, so one run shows every problem of the file.
        raw_inputs = data.get("input")
        if isinstance(raw_inputs, list) and not any(p.startswith("input") for p in problems):
            problems += parse_inputs(raw_inputs, data.get("hosts"))[1]
        raise ScenarioError(name, problems) from None
    inputs, problems = parse_inputs(model.input, model.hosts)
    settings, more = engine_settings(model)
    if problems or more or settings is None:
        raise ScenarioError(name, problems + more)
    try:
        validate_settings(settings)
    except ConfigError as exc:
        raise ScenarioError(name, [str(exc)]) from None
    return Scenario(path=name, settings=settings, seed=model.seed, inputs=tuple(inputs))


__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioInput",
    "ScenarioModel",
    "load_scenario",
    "parse_scenario",
    "parse_scenario_data",
]
