"""What every config file shares: the strict pydantic base model, the error that lists every problem of a file,
and one way to turn TOML text into a validated model (castle, series, scenario and serve configs).

Pydantic stays at this edge (``docs/design.md#the-bridge``): the loaders built on this return frozen models or
engine values, and every problem in a file is reported at once, each line naming the file and the key path::

    castle.toml: places.diary_room: field required
    day_one.toml: input[12].target: field required
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from bridge.config.files import read_config_text
from engine.errors import ConfigError


class ConfigModel(BaseModel):
    """The base of every config file model: unknown keys, loose types and non-finite numbers are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


M = TypeVar("M", bound=BaseModel)


class ConfigFileError(ConfigError):
    """A config file cannot be read or is invalid; the message has one ``"<file>: <problem>"`` line per problem.

    Args:
        path: the file as given (used in every line of the message).
        problems: one ``"<key path>: <what is wrong>"`` per problem.
    """

    def __init__(self, path: str, problems: Sequence[str]) -> None:
        self.path = path
        self.problems = list(problems)
        super().__init__("\n".join(f"{path}: {p}" for p in self.problems))


def key_path(loc: Sequence[int | str]) -> str:
    """A pydantic error location as the file writes it: ``("seats", 3, "yaw")`` → ``seats[3].yaw``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def problems(exc: ValidationError, prefix: Sequence[int | str] = ()) -> list[str]:
    """Every error of ``exc`` as ``"<key path>: <what is wrong>"`` (``prefix`` goes before each key path).

    A missing key reads ``field required``, an unknown one ``unknown key``, a value where a table belongs
    ``should be a table …``; a validator's ``ValueError`` is shown as its own text (``unknown power 'The Sobr'; …``),
    anything else as pydantic's message, lower-cased.
    """
    out: list[str] = []
    for err in exc.errors(include_url=False):
        kind = err["type"]
        if kind == "missing":
            text = "field required"
        elif kind == "extra_forbidden":
            text = "unknown key"
        elif kind == "value_error":
            text = str(err.get("ctx", {}).get("error", err["msg"]))
        elif kind in ("model_type", "dict_type"):
            # pydantic names its own class here ("instance of WebModel"), which means nothing in a TOML file.
            text = "should be a table (a [section] or { key = value, … })"
        else:
            text = err["msg"][:1].lower() + err["msg"][1:]
        out.append(f"{key_path([*prefix, *err['loc']])}: {text}")
    return out


FileError = Callable[[str, list[str]], ConfigError]
"""Makes the error to raise from a file's name and its problems (``ConfigFileError``, ``ScenarioError``, …)."""


def parse_toml(text: str, name: str, error: FileError = ConfigFileError) -> dict[str, Any]:
    """The TOML text of a config file as data.

    Raises:
        ConfigError: ``error(name, ["not valid TOML: …"])``.
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(name, [f"not valid TOML: {exc}"]) from None


def read_toml(path: str | Path, error: FileError = ConfigFileError) -> dict[str, Any]:
    """Read a UTF-8 TOML config file.

    Raises:
        ConfigError: ``error(str(path), [problem])``: the file cannot be read, is not UTF-8 or is not TOML.
    """
    return parse_toml(read_config_text(path, error), str(path), error)


def validate(model: type[M], data: object, name: str, error: FileError = ConfigFileError) -> M:
    """``model`` validated from ``data``.

    Raises:
        ConfigError: ``error(name, problems)``: every problem, each naming the key path.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise error(name, problems(exc)) from None


def did_you_mean(word: str, known: Sequence[str], titles: Callable[[str], Any] | None = None) -> str:
    """``'; did you mean "The Sober"?'`` for the closest known name (``difflib``), or ``""`` when none is close.

    Args:
        word: the unknown name as normalised by the caller.
        known: the known names (same normalisation).
        titles: an enum whose members are looked up by the known name and shown by their ``title``.
    """
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if not close:
        return ""
    shown = titles(close[0]).title if titles is not None else close[0]
    return f"; did you mean {shown!r}?"


__all__ = [
    "ConfigFileError",
    "ConfigModel",
    "FileError",
    "did_you_mean",
    "key_path",
    "parse_toml",
    "problems",
    "read_toml",
    "validate",
]
