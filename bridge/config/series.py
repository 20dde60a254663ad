"""Series files (``world_config/series/*.toml``): the settings of one series, without a deal or inputs.

A series file is the scenario settings model (``bridge.config.scenario.ScenarioModel``, ``docs/scenarios.md``) with two
more keys and three fewer: there is one settings parser, and the engine's ``Settings`` stays the only truth.

* ``ruleset`` (default ``"traitors"``) names the ruleset; only rulesets this program knows are accepted.
* ``contestant_count`` is how many contestants the series is made for, when the file does not name them
  (``contestants = [...]``): the operator's serve config (``docs/operator.md``) gives the names then.
* ``seed``, ``input`` and ``deal`` are refused: a real series is dealt from a fresh seed, and its inputs come from
  the castle.

``load_series(path)`` checks the file alone (with placeholder names when it names no contestants, so a power pool
too small for the deal is found before the series night); ``SeriesFile.settings_for(names)`` gives the engine
``Settings`` for the real cast. Every error names the file and the key path (``traitors-12.toml: durations.vote:
-5.0 must be a positive number of seconds``).
"""

from __future__ import annotations

import importlib.resources
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from bridge.config.files import read_config_text
from bridge.config.scenario import ScenarioError, ScenarioModel, _problems, _settings, did_you_mean
from engine.errors import ConfigError
from engine.rulesets import RULESETS as ENGINE_RULESETS
from engine.rulesets import ruleset_of
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings

RULESETS: tuple[str, ...] = tuple(ENGINE_RULESETS)
"""Rulesets a series file may name: the engine's ruleset registry."""

PLACEHOLDER = "Contestant{:02d}"
"""Names used to check a file that names no contestants (``Contestant01`` …; valid Minecraft names)."""

_REFUSED = {
    "seed": "a series is dealt from a fresh seed at start; seeds belong in scenario files",
    "input": "a series file has no inputs (scenario files do: docs/scenarios.md)",
}
_EXPLICIT_DEAL = "a series is dealt at random; explicit deals ([[deal]]) belong in scenario files"


def _validate(settings: Settings | ClubSettings) -> None:
    """``validate`` for any ruleset's settings (a club ruleset checks against its rules)."""
    if isinstance(settings, ClubSettings):
        settings.validate(ruleset_of(settings).game.RULES)
    else:
        settings.validate()


class SeriesModel(ScenarioModel):
    """A series file: the scenario settings keys plus ``ruleset`` and ``contestant_count``."""

    ruleset: str = "traitors"
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
    settings: Settings | ClubSettings
    named: bool

    @property
    def contestant_count(self) -> int:
        """How many contestants the series is for."""
        return len(self.settings.contestants)

    def settings_for(
        self, names: Sequence[str] | None = None, hosts: Sequence[str] | None = None
    ) -> Settings | ClubSettings:
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
                raise ConfigError(f"{self.path}: contestants: the file names no contestants; give their names "
                                  "(serve config `contestants`)")  # fmt: skip
            names = self.settings.contestants
        names = tuple(names)
        if len(names) != self.contestant_count:
            raise ConfigError(
                f"{self.path}: contestant_count: the series is for {self.contestant_count} contestants, "
                f"but {len(names)} names were given"
            )
        settings = replace(self.settings, contestants=names,
                           hosts=tuple(hosts) if hosts is not None else self.settings.hosts)  # fmt: skip
        try:
            _validate(settings)
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
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, [f"not valid TOML: {exc}"]) from None
    problems = [f"{key}: {why}" for key, why in _REFUSED.items() if key in data]
    body = {k: v for k, v in data.items() if k not in _REFUSED}
    if isinstance(body.get("deal"), list):
        problems.append(f"deal: {_EXPLICIT_DEAL}")
        body.pop("deal")
    elif "deal" in body:  # a club ruleset's deal table: contestant count -> roles
        body["deal_table"] = body.pop("deal")
    try:
        model = SeriesModel.model_validate(body)
    except ValidationError as exc:
        raise ScenarioError(name, problems + _unknown_key_hints(_problems(exc), body)) from None
    if model.ruleset not in RULESETS:
        problems.append(f"ruleset: unknown ruleset {model.ruleset!r}{did_you_mean(model.ruleset, RULESETS)} "
                        f"(known: {', '.join(RULESETS)})")  # fmt: skip
    named = model.contestants is not None
    if named and model.contestant_count is not None and model.contestant_count != len(model.contestants or []):
        problems.append(f"contestant_count: {model.contestant_count}, but contestants names "
                        f"{len(model.contestants or [])}")  # fmt: skip
    if not named:
        if model.contestant_count is None:
            problems.append("contestant_count: field required (or name the contestants: contestants = [...])")
        else:
            names = [PLACEHOLDER.format(i) for i in range(1, model.contestant_count + 1)]
            model = model.model_copy(update={"contestants": names})
    if problems:
        raise ScenarioError(name, problems)
    settings, more = _settings(model)
    if more or settings is None:
        raise ScenarioError(name, more)
    try:
        _validate(settings)
    except ConfigError as exc:
        raise ScenarioError(name, [str(exc)]) from None
    return SeriesFile(name, model.ruleset, settings, named)


def _unknown_key_hints(problems: list[str], body: dict[str, Any]) -> list[str]:
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


__all__ = ["RULESETS", "SeriesFile", "SeriesModel", "load_series", "parse_series", "shipped_series"]
