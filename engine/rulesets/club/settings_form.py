"""A club ruleset's settings keys (``engine.core.settings_form``): the keys of a series file and of the store's
JSON, read into ``ClubSettings`` and written back.

``deal`` is an explicit deal (one entry per contestant with a ``role``) or, written as a table, the setting
``deal`` (contestant count → role codes, ``ClubSettings.deal_table``); the JSON form writes the table as
``deal_table``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.settings_form import (
    Key,
    Problems,
    SettingsForm,
    by_number,
    choice,
    durations,
    flag,
    names,
    numbered,
    plain,
    raw,
    seconds,
    whole,
)
from engine.rulesets.club.settings import MORNING_NEWS, ClubRules, ClubSettings

_TABLE = numbered("contestant count", "deal = { 8 = [...] }", names)
"""The setting ``deal`` written as a table: contestant count → role codes."""


def _deal(value: tuple[tuple[str, str], ...] | None) -> list[dict[str, str]] | None:
    return None if value is None else [{"name": n, "role": r} for n, r in value]


KEYS: dict[str, Key] = {
    "contestants": Key(names, list),
    "hosts": Key(names, list),
    "deal": Key(raw, _deal),
    "deal_table": Key(_TABLE, by_number),
    "day_execution": Key(flag, plain),
    "morning_news": Key(choice(*MORNING_NEWS), plain),
    "mad_knight_solo_win": Key(flag, plain),
    "max_days": Key(whole, plain),
    "durations": Key(seconds, durations),
}
"""Every settings key of a club ruleset, in the JSON form's order, with how it is read and written."""

_PASSED = ("day_execution", "morning_news", "mad_knight_solo_win", "max_days")
"""Keys passed to ``ClubSettings`` as read."""


def _explicit(name: str, value: Any, problems: Problems) -> tuple[tuple[str, str], ...] | None:
    """An explicit deal: ``(contestant, role code)`` per entry, each with a role and nothing of The Traitors'."""
    if not isinstance(value, Sequence) or not all(isinstance(d, Mapping) for d in value):
        problems.append(f"deal: {value!r} is not a list of [[deal]] tables or a table of counts")
        return None
    pairs = []
    for i, d in enumerate(value):
        if d.get("role") is None:
            problems.append(f"deal[{i}].role: field required")
        for key in ("allegiance", "power", "false_power"):
            if d.get(key) is not None:
                problems.append(f"deal[{i}].{key}: not part of a {name} deal (give a role)")
        pairs.append((str(d.get("name", "")), str(d.get("role") or "")))
    return tuple(pairs)


def build(name: str, values: dict[str, Any]) -> tuple[ClubSettings | None, Problems]:
    """``ClubSettings`` of ruleset ``name`` from the keys read (``SettingsForm.build``): contestants from an
    explicit deal when not given."""
    problems: Problems = []
    deal = values.get("deal")
    table: dict[int, tuple[str, ...]] = values.get("deal_table", {})
    explicit = None
    if isinstance(deal, Mapping):
        table = _TABLE(deal, "deal", problems)
    elif deal is not None:
        explicit = _explicit(name, deal, problems)
    contestants = values.get("contestants")
    if contestants is None:
        if explicit is None:
            problems.append("contestants: field required (or give an explicit [[deal]])")
        else:
            contestants = tuple(n for n, _ in explicit)
    if problems or contestants is None:
        return None, problems
    kwargs = {key: values[key] for key in _PASSED if key in values}
    return ClubSettings(
        ruleset=name,
        contestants=contestants,
        hosts=values.get("hosts", ()),
        deal=explicit,
        deal_table=table,
        durations=values.get("durations", {}),
        **kwargs,
    ), []


def sample(name: str, contestants: tuple[str, ...], hosts: tuple[str, ...]) -> ClubSettings:
    """A series of ruleset ``name`` with ``contestants`` and ``hosts``, every other setting its default."""
    return ClubSettings(name, contestants, hosts=hosts)


def club_form(rules: ClubRules) -> SettingsForm:
    """The settings form of the club ruleset played by ``rules`` (its check is ``ClubSettings.validate(rules)``)."""

    def check(settings: ClubSettings) -> None:
        settings.validate(rules)

    return SettingsForm(keys=KEYS, build=build, check=check, sample=sample)


__all__ = ["KEYS", "build", "club_form", "sample"]
