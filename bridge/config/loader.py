"""The one config loader: any of the operator's files (castle, series, serve config, scenario), its kind told
by its keys, checked by the loader of that kind; and ``traitors check-config`` on top of it.

A file's kind comes from its top-level keys (``bridge/config/kinds.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from bridge.config.castle import CastleConfig
from bridge.config.castle_file import castle_from
from bridge.config.files import read_secret_lines
from bridge.config.kinds import kind_of
from bridge.config.model import read_toml
from bridge.config.scenario import Scenario, parse_scenario_data
from bridge.config.series import SeriesFile, series_from_data
from bridge.config.serve import ServeConfig, check_seats, serve_config_from_data
from engine.errors import ConfigError

ConfigValue = CastleConfig | SeriesFile | Scenario | ServeConfig
"""What a config file holds, by kind."""


def _castle(data: Mapping[str, Any], path: Path) -> CastleConfig:
    return castle_from(data, str(path))


def _series(data: Mapping[str, Any], path: Path) -> SeriesFile:
    return series_from_data(data, str(path))


def _scenario(data: Mapping[str, Any], path: Path) -> Scenario:
    return parse_scenario_data(data, str(path))


_LOADERS: dict[str, Callable[[Mapping[str, Any], Path], ConfigValue]] = {
    "castle": _castle,
    "serve": serve_config_from_data,
    "scenario": _scenario,
    "series": _series,
}


def load_config(path: str | Path) -> ConfigValue:
    """Read any config file and check it as the kind its keys say.

    Raises:
        ConfigError: the file cannot be read, is not TOML, or has problems; every line names the file and the
            key path.
    """
    data = read_toml(path)
    return _LOADERS[kind_of(data)](data, Path(path))


def describe(value: ConfigValue) -> str:
    """What ``check-config`` says of a valid file: ``castle: 16 seats, 16 homes``, ``series: traitors, 12
    contestants, 3 Traitors``, ``serve: 12 contestants, store series.db``, ``scenario: 9 contestants, 40 inputs``."""
    if isinstance(value, CastleConfig):
        return f"castle: {len(value.seats)} seats, {len(value.homes)} homes"
    if isinstance(value, ServeConfig):
        return f"serve: {len(value.settings.contestants)} contestants, store {value.store}"
    if isinstance(value, Scenario):
        return f"scenario: {len(value.settings.contestants)} contestants, {len(value.inputs)} inputs"
    count = getattr(value.settings, "traitors", None)  # only The Traitors' settings deal Traitors
    traitors = f", {count} Traitors" if isinstance(count, int) else ""
    return f"series: {value.ruleset}, {value.contestant_count} contestants{traitors}"


def check_files(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """``traitors check-config``: check every file (a serve config's ``secrets_file`` too, as ``serve`` reads it:
    readable, closed to group and others, ``KEY=value`` lines); then every castle against every series file's cast.

    Returns:
        ``(ok_lines, problems)``: ``"<file>: OK (<describe>)"`` per valid file; every problem line names the
        file and the key path.
    """
    ok: list[str] = []
    problems: list[str] = []
    castles: list[tuple[str, CastleConfig]] = []
    series: list[SeriesFile] = []
    for p in paths:
        try:
            value = load_config(p)
            if isinstance(value, ServeConfig) and value.secrets_file is not None:
                read_secret_lines(value.secrets_file)  # as serve reads it: unreadable, open to others or malformed
        except ConfigError as exc:
            problems += str(exc).splitlines()
            continue
        ok.append(f"{p}: OK ({describe(value)})")
        if isinstance(value, CastleConfig):
            castles.append((p, value))
        elif isinstance(value, SeriesFile):
            series.append(value)
    for cname, castle in castles:
        for s in series:
            problems += check_seats(castle, cname, s.settings, s.path)
    return ok, problems


__all__ = ["ConfigValue", "check_files", "describe", "load_config"]
