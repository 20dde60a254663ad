"""A ruleset's settings in plain data (``engine.core.ruleset.Ruleset.form``): which keys a series file and the
series store's JSON take, how each is read into the engine's settings and written back, the check and a series'
default settings for a cast.

The keys are the settings keys of a scenario or series file (``docs/scenarios.md``); the JSON form writes every
key (defaults included), so ``form.load(name, form.dump(s))`` gives ``s`` back. No third-party library: the
bridge's file model (pydantic) takes the file's forgiving names and hands the values over in this JSON form
(codes for the engine's enums), and the store's JSON is read here directly, without it.

Every problem is a line ``"<key path>: <what is wrong>"``; a key another ruleset takes reads ``"<key>: not a
setting of the <ruleset> ruleset"``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Problems = list[str]
"""``"<key path>: <what is wrong>"`` lines, appended to as a value is read."""

Read = Callable[[Any, str, Problems], Any]
"""Reads one key's JSON value (``value, key path, problems``) into the engine's value; a problem is appended to
``problems`` (the value returned is then not used)."""

Write = Callable[[Any], Any]
"""Writes one field of the engine's settings as JSON data."""


@dataclass(frozen=True, slots=True)
class Key:
    """One settings key: how it is read from JSON data and written back (``plain``: as it is)."""

    read: Read
    write: Write

    @property
    def shape(self) -> Any:
        """The plain type of the key's value when its reader is ``whole`` (``int``), ``flag`` (``bool``) or a
        ``choice`` (a ``Literal`` of the choices), which a file model can check the value against and name in
        its message; ``None`` for a key read by a reader of its own (lists, tables, names)."""
        return getattr(self.read, "shape", None)


@dataclass(frozen=True, slots=True)
class SettingsForm:
    """What a consumer needs of a ruleset's settings, without naming the ruleset.

    Args:
        keys: every settings key of the ruleset besides ``ruleset``, in the order the JSON form writes them; each
            names a field of the settings class.
        build: ``(ruleset name, {key: value read})`` → ``(settings, [])`` or ``(None, problems)``: the keys
            written (already read by ``keys``) made into the settings, engine defaults for the rest; the checks
            that need several keys at once (no contestants without a deal, a deal that does not fit the ruleset).
        check: raises ``ConfigError`` naming the field when the engine refuses the settings (``validate``).
        sample: ``(ruleset name, contestant names, host names)`` → the settings of a series of that cast with the
            ruleset's usual choices (web rehearsals, screenshots).
        fixes: field → how the JSON form writes it from the whole settings, where it depends on other fields
            (The Traitors write no Traitor count beside an explicit deal).
    """

    keys: Mapping[str, Key]
    build: Callable[[str, dict[str, Any]], tuple[Any | None, Problems]]
    check: Callable[[Any], None]
    sample: Callable[[str, tuple[str, ...], tuple[str, ...]], Any]
    fixes: Mapping[str, Callable[[Any], Any]] | None = None

    def load(self, name: str, data: Mapping[str, Any]) -> tuple[Any | None, Problems]:
        """The settings of ruleset ``name`` from JSON data in the file's keys (a ``None`` value: not written).

        Returns:
            ``(settings, [])`` (not checked yet: ``check``) or ``(None, problems)``: a key the ruleset does not
            take, a value of the wrong kind, the problems of ``build``.
        """
        problems: Problems = []
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key == "ruleset" or value is None:
                continue
            spec = self.keys.get(key)
            if spec is None:
                problems.append(f"{key}: not a setting of the {name} ruleset")
                continue
            values[key] = spec.read(value, key, problems)
        if problems:
            return None, problems
        return self.build(name, values)

    def dump(self, name: str, settings: Any) -> dict[str, Any]:
        """The settings as JSON data: ``{"ruleset": name, <every key>: <its JSON value>}``."""
        fixes = self.fixes or {}
        out: dict[str, Any] = {"ruleset": name}
        for key, spec in self.keys.items():
            out[key] = fixes[key](settings) if key in fixes else spec.write(getattr(settings, key))
        return out


# ---------------------------------------------------------------------------------------------- readers


def plain(value: Any) -> Any:
    """A value written as it is."""
    return value


@dataclass(frozen=True, slots=True)
class _Kind:
    """A reader of one plain value: ``test`` says whether it is ``what``, ``shape`` is its type (``Key.shape``)."""

    test: Callable[[Any], bool]
    what: str
    shape: Any

    def __call__(self, value: Any, where: str, problems: Problems) -> Any:
        if not self.test(value):
            problems.append(f"{where}: {value!r} is not {self.what}")
        return value


whole: Read = _Kind(lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number", int)
"""A whole number (not ``true``/``false``)."""
flag: Read = _Kind(lambda v: isinstance(v, bool), "true or false", bool)
"""``true`` or ``false``."""


def raw(value: Any, _where: str, _problems: Problems) -> Any:
    """Any value, checked by ``build`` or by the settings' check."""
    return value


def choice(*values: str) -> Read:
    """One of ``values`` (strings)."""
    return _Kind(lambda v: v in values, f"one of {', '.join(values)}", Literal[values])


def names(value: Any, where: str, problems: Problems) -> tuple[str, ...]:
    """A list of names as a tuple."""
    if not isinstance(value, Sequence) or isinstance(value, str) or not all(isinstance(v, str) for v in value):
        problems.append(f"{where}: {value!r} is not a list of names")
        return ()
    return tuple(value)


def codes(enum: Callable[[Any], Any]) -> Read:
    """A list of an engine enum's codes (``["bartender", …]``) as a tuple of members."""

    def read(value: Any, where: str, problems: Problems) -> tuple[Any, ...]:
        if not isinstance(value, Sequence) or isinstance(value, str):
            problems.append(f"{where}: {value!r} is not a list")
            return ()
        return tuple(code(enum, v, f"{where}[{i}]", problems) for i, v in enumerate(value))

    return read


def code(enum: Callable[[Any], Any], value: Any, where: str, problems: Problems) -> Any:
    """One member of ``enum`` by its code, or ``None`` with a problem."""
    try:
        return enum(value)
    except (ValueError, TypeError):
        problems.append(f"{where}: unknown code {value!r}")
        return None


def seconds(value: Any, where: str, problems: Problems) -> dict[str, float]:
    """A table of phase clock → seconds (the check says which phases exist)."""
    if not isinstance(value, Mapping):
        problems.append(f"{where}: {value!r} is not a table of seconds")
        return {}
    out: dict[str, float] = {}
    for k, v in value.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            problems.append(f"{where}.{k}: {v!r} is not a number of seconds")
        else:
            out[str(k)] = float(v)
    return out


def numbered(what: str, example: str, item: Read) -> Read:
    """A table whose keys are numbers written as text (days, contestant counts), with int keys and each value
    read by ``item``; a key that is not a number reads ``"<key>.<k>: a key is a <what>, e.g. <example>"``."""

    def read(value: Any, where: str, problems: Problems) -> dict[int, Any]:
        if not isinstance(value, Mapping):
            problems.append(f"{where}: {value!r} is not a table")
            return {}
        out: dict[int, Any] = {}
        for k, values in value.items():
            if not str(k).isdigit():
                problems.append(f"{where}.{k}: a key is a {what}, e.g. {example}")
                continue
            out[int(k)] = item(values, f"{where}.{k}", problems)
        return out

    return read


# ---------------------------------------------------------------------------------------------- writers


def listed(value: Any) -> list[Any]:
    """A tuple as a JSON list (an enum member as its code)."""
    return [getattr(v, "value", v) for v in value]


def durations(value: Mapping[str, float]) -> dict[str, float]:
    """Phase clock → seconds, as floats."""
    return {k: float(v) for k, v in value.items()}


def by_number(value: Mapping[int, Sequence[Any]]) -> dict[str, list[Any]]:
    """A table keyed by numbers as JSON (text keys in number order; enum members as their codes)."""
    return {str(k): listed(v) for k, v in sorted(value.items())}


__all__ = [
    "Key",
    "Problems",
    "Read",
    "SettingsForm",
    "Write",
    "by_number",
    "choice",
    "code",
    "codes",
    "durations",
    "flag",
    "listed",
    "names",
    "numbered",
    "plain",
    "raw",
    "seconds",
    "whole",
]
