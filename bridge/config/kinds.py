"""What kind of operator file a TOML file is, told by its top-level keys, and the one-line refusal of a file of
another kind than a command takes (``check-config`` tells the kinds apart the same way).

``places`` or ``seats`` → castle; a key only a serve config has (``series``, ``rcon``, ``store``,
``secrets_file``, …: ``SERVE_KEYS``) → serve config, so one whose ``series`` is misspelt is still checked as one;
``input``, ``seed`` (a series file refuses one) or an explicit deal (``[[deal]]``, one table per contestant) →
scenario; anything else → series file, of whatever ruleset (a club ruleset's ``[deal]`` table of contestant count
→ roles is a series setting).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bridge.config.model import read_toml
from engine.errors import ConfigError

SERVE_KEYS = frozenset(
    {"castle", "lobby", "log", "msmp", "poll_interval", "rcon", "records", "secrets_file", "series", "store", "web"}
)
"""The serve config's top-level keys that no series file or scenario has (theirs: ``bridge/config/settings.py``)."""


def kind_of(data: Mapping[str, Any]) -> str:
    """``"castle"``, ``"serve"``, ``"scenario"`` or ``"series"`` (see the module docstring)."""
    if "places" in data or "seats" in data:
        return "castle"
    if SERVE_KEYS.intersection(data):
        return "serve"
    if "input" in data or "seed" in data or isinstance(data.get("deal"), list):
        return "scenario"
    return "series"


_KINDS = {"castle": "a castle file", "serve": "a serve config", "scenario": "a scenario", "series": "a series file"}
_USES = {
    "castle": "a serve config names it (castle = ...); `traitors castle-map {}` draws it",
    "serve": "`traitors serve --config {}` runs its series",
    "scenario": "`traitors play {}` plays it",
    "series": "`traitors simulate --settings {} --series 100` plays it with bots; a serve config names it for serve",
}


def kind_problem(data: Mapping[str, Any], name: str, wanted: str) -> str | None:
    """``"a series file, not a castle file: …"`` (which command takes the file) when ``data``, the parsed TOML of
    the file ``name``, is of another kind than ``wanted``; ``None`` when it is of that kind."""
    kind = kind_of(data)
    return None if kind == wanted else f"{_KINDS[kind]}, not {_KINDS[wanted]}: {_USES[kind].format(name)}"


def check_kind(data: Mapping[str, Any], name: str, wanted: str) -> None:
    """``require_kind`` for a file already read: ``data`` its parsed TOML, ``name`` the file as given.

    Raises:
        ConfigError: the file is of another kind than ``wanted``.
    """
    problem = kind_problem(data, name, wanted)
    if problem is not None:
        raise ConfigError(f"{name}: {problem}")


def require_kind(path: str | Path, wanted: str) -> None:
    """Refuse a file of another kind than the command takes (``kind_of``, as ``check-config`` tells them apart),
    in one line saying what the file is and which command takes it, before its keys are checked as ``wanted``'s
    would be (a page of "unknown key" lines says nothing of the mix-up).

    Args:
        path: the file the command was given.
        wanted: the kind it takes: ``"castle"``, ``"serve"``, ``"scenario"`` or ``"series"``.

    Raises:
        ConfigError: the file cannot be read, is not TOML, or is of another kind.
    """
    check_kind(read_toml(path), str(path), wanted)


__all__ = ["SERVE_KEYS", "check_kind", "kind_of", "kind_problem", "require_kind"]
