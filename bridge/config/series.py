"""Series files (``world_config/series/*.toml``): the settings of one series, without a deal or inputs.

A series file is the settings model shared with scenario files (``bridge.config.settings.SettingsModel``,
``docs/scenarios.md``) with one more key: there is one settings parser, and the engine's settings stay the only
truth. Every shipped series file, of every ruleset, is read here.

* ``contestant_count`` is how many contestants the series is made for, when the file does not name them
  (``contestants = [...]``): the operator's serve config (``docs/operator.md``) gives the names then.
* ``seed``, ``input`` and an explicit ``[[deal]]`` are refused (a club ruleset's ``[deal]`` table is a setting): a real series is dealt from a fresh seed, and its inputs come from
  the castle.

``load_series(path)`` checks the file alone (with placeholder names when it names no contestants, so a power pool
too small for the deal is found before the series night); ``SeriesFile.settings_for(names)`` gives the engine
``Settings`` for the real cast. Every error names the file and the key path (``traitors-12.toml: durations.vote:
-5.0 must be a positive number of seconds, at most 86400 (a day)``).
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from bridge.config.files import read_config_text
from bridge.config.kinds import kind_of, kind_problem
from bridge.config.model import did_you_mean, parse_toml
from bridge.config.settings import (
    AnySettings,
    ScenarioError,
    SettingsModel,
    checked_settings,
    settings_body,
    settings_problems,
    validate_settings,
)
from engine.errors import ConfigError

PLACEHOLDER = "Contestant{:02d}"
"""Names used to check a file that names no contestants (``Contestant01`` …; valid Minecraft names)."""

_REFUSED = {
    "seed": "a series is dealt from a fresh seed at start; seeds belong in scenario files",
    "input": "a series file has no inputs (scenario files do: docs/scenarios.md)",
}
_EXPLICIT_DEAL = "a series is dealt at random; explicit deals ([[deal]]) belong in scenario files"


class SeriesModel(SettingsModel):
    """A series file: the settings keys plus ``contestant_count``."""

    contestant_count: int | None = Field(default=None, ge=1, le=16)


@dataclass(frozen=True, slots=True)
class SeriesFile:
    """A checked series file.

    Args:
        path: the file as given (used in messages).
        ruleset: the ruleset name.
        settings: the settings as checked (with placeholder names when the file names no contestants).
        named: whether the file names its contestants itself.
    """

    path: str
    ruleset: str
    settings: AnySettings
    named: bool

    @property
    def contestant_count(self) -> int:
        """How many contestants the series is for."""
        return len(self.settings.contestants)

    def settings_for(self, names: Sequence[str] | None = None, hosts: Sequence[str] | None = None) -> AnySettings:
        """The engine settings for the real cast.

        Args:
            names: contestants in seat order; ``None``: the file's own names (the file must name them).
            hosts: the hosts; ``None``: the file's ``hosts``.

        Raises:
            ConfigError: no names anywhere, a count that differs from the file's, or settings the engine refuses
                with these names (the message names the file).
        """
        if names is None:
            if not self.named:
                raise ConfigError(
                    f"{self.path}: contestants: the file names no contestants; give their names "
                    "(serve config `contestants`)"
                )
            names = self.settings.contestants
        names = tuple(names)
        if len(names) != self.contestant_count:
            raise ConfigError(
                f"{self.path}: contestant_count: the series is for {self.contestant_count} contestants, "
                f"but {len(names)} names were given"
            )
        settings = replace(
            self.settings, contestants=names, hosts=tuple(hosts) if hosts is not None else self.settings.hosts
        )
        try:
            validate_settings(settings)
        except ConfigError as exc:
            raise ConfigError(f"{self.path}: {exc}") from None
        return settings


def parse_series(text: str, name: str) -> SeriesFile:
    """Validate the TOML text of a series file.

    Args:
        text: the file's content.
        name: how to name the file in messages.

    Raises:
        ScenarioError: bad TOML, an unknown or refused key, a bad value, an unknown ruleset, or settings the
            engine refuses (``Settings.validate``); every problem names the file and the key path.
    """
    return series_from_data(parse_toml(text, name, ScenarioError), name)


def series_from_data(data: Mapping[str, Any], name: str) -> SeriesFile:
    """Check the parsed TOML of a series file (``parse_series`` without the parsing).

    Raises:
        ScenarioError: as for ``parse_series``.
    """
    other = kind_problem(data, name, "series") if kind_of(data) in ("castle", "serve") else None
    if other is not None:  # a castle file or serve config named as the series: one line, not its every key
        raise ScenarioError(name, [other])
    problems = [f"{key}: {why}" for key, why in _REFUSED.items() if key in data]
    body = settings_body({k: v for k, v in data.items() if k not in _REFUSED})
    if isinstance(body.get("deal"), list):
        problems.append(f"deal: {_EXPLICIT_DEAL}")
        body.pop("deal")
    try:
        model = SeriesModel.model_validate(body)
    except ValidationError as exc:
        raise ScenarioError(name, problems + _unknown_key_hints(settings_problems(exc))) from None
    problems += _cast_problems(model)
    if problems:
        raise ScenarioError(name, problems)
    named = model.contestants is not None
    if not named:
        names = [PLACEHOLDER.format(i) for i in range(1, (model.contestant_count or 0) + 1)]
        model = model.model_copy(update={"contestants": names})
    return SeriesFile(name, model.ruleset, checked_settings(model, name), named)


def _cast_problems(model: SeriesModel) -> list[str]:
    """A cast that is neither named nor counted, or counted and named differently."""
    problems = []
    named = model.contestants is not None
    if named and model.contestant_count is not None and model.contestant_count != len(model.contestants or []):
        problems.append(
            f"contestant_count: {model.contestant_count}, but contestants names {len(model.contestants or [])}"
        )
    if not named and model.contestant_count is None:
        problems.append("contestant_count: field required (or name the contestants: contestants = [...])")
    return problems


def _unknown_key_hints(problems: list[str]) -> list[str]:
    """Add "did you mean" to an unknown top-level key (``durations`` typed ``duration``)."""
    known = list(SeriesModel.model_fields)
    out = []
    for p in problems:
        key, _, text = p.partition(": ")
        if text == "unknown key" and "." not in key and "[" not in key:
            p += did_you_mean(key, known)
        out.append(p)
    return out


def load_series(path: str | Path) -> SeriesFile:
    """Read and check a series file (``world_config/series/*.toml``).

    Raises:
        ScenarioError: as ``parse_series``, or the file cannot be read.
    """
    name = str(path)
    text = read_config_text(path, ScenarioError)
    return parse_series(text, name)


def load_series_settings(path: str | Path) -> AnySettings:
    """Read a series file into engine settings: for the file's own contestants, or placeholder names when the
    file names none (``load_series``; ``SeriesFile.settings_for`` gives them for a real cast).

    Raises:
        ScenarioError: unreadable or invalid; every error names the file and the key.
    """
    series = load_series(path)
    return series.settings_for() if series.named else series.settings


def shipped_series() -> dict[str, SeriesFile]:
    """Every series file shipped in ``world_config/series``, by file name.

    Raises:
        ScenarioError: a shipped file is broken (a packaging bug; the tests load them all).
    """
    folder = importlib.resources.files("world_config.series")
    out: dict[str, SeriesFile] = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".toml"):
            out[item.name] = parse_series(item.read_text(encoding="utf-8"), item.name)
    return out


__all__ = [
    "SeriesFile",
    "SeriesModel",
    "load_series",
    "load_series_settings",
    "parse_series",
    "series_from_data",
    "shipped_series",
]
