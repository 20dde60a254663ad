"""The Traitors' settings form (``engine.core.settings_form``): the keys of a series file and of the store's JSON
(``KEYS`` in ``engine.rulesets.traitors.settings``) made into ``Settings``.

A key is passed to ``Settings`` as read; ``deal`` is the explicit deal, one entry per contestant (``name``,
``allegiance``, ``power``, ``false_power``, ``drunk``), never a club ruleset's count → roles table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.settings_form import Problems, SettingsForm, code
from engine.ids import Allegiance, Power
from engine.rulesets.traitors.settings import KEYS, DealEntry, Settings

_PASSED = frozenset(KEYS) - {"contestants", "hosts", "deal"}
"""Keys passed to ``Settings`` as read."""


def _read_deal(value: Any, problems: Problems) -> tuple[DealEntry, ...] | None:
    """The explicit deal: a list of entries, each with an allegiance and no role."""
    if isinstance(value, Mapping):
        problems.append("deal: the traitors ruleset takes an explicit deal, one [[deal]] table per contestant")
        return None
    if not isinstance(value, Sequence) or not all(isinstance(d, Mapping) for d in value):
        problems.append(f"deal: {value!r} is not a list of [[deal]] tables")
        return None
    deal = []
    for i, d in enumerate(value):
        where = f"deal[{i}]"
        if d.get("allegiance") is None:
            problems.append(f"{where}.allegiance: field required")
        if d.get("role") is not None:
            problems.append(f"{where}.role: the traitors ruleset deals allegiances and powers, not roles")
        allegiance = (
            code(Allegiance, d.get("allegiance"), f"{where}.allegiance", problems) if d.get("allegiance") else None
        )
        power = code(Power, d["power"], f"{where}.power", problems) if d.get("power") is not None else None
        false = (
            code(Power, d["false_power"], f"{where}.false_power", problems)
            if d.get("false_power") is not None
            else None
        )
        deal.append(DealEntry(str(d.get("name", "")), allegiance, power, false, bool(d.get("drunk", False))))  # type: ignore[arg-type]
    return tuple(deal)


def build(_name: str, values: dict[str, Any]) -> tuple[Settings | None, Problems]:
    """``Settings`` from the keys read (``SettingsForm.build``): contestants from an explicit deal when not
    given, and a Traitor count that matches the deal."""
    problems: Problems = []
    deal = _read_deal(values["deal"], problems) if "deal" in values else None
    if problems:
        return None, problems
    contestants = values.get("contestants")
    if contestants is None:
        if deal is None:
            problems.append("contestants: field required (or give an explicit [[deal]])")
        else:
            contestants = tuple(d.name for d in deal)
    if deal is not None and "traitors" in values:
        dealt = sum(d.allegiance is Allegiance.TRAITOR for d in deal)
        if dealt != values["traitors"]:
            problems.append(f"traitors: {values['traitors']}, but the deal has {dealt} Traitors")
    if problems or contestants is None:
        return None, problems
    kwargs = {key: value for key, value in values.items() if key in _PASSED}
    return Settings(contestants=contestants, hosts=values.get("hosts", ()), deal=deal, **kwargs), []


def sample(_name: str, contestants: tuple[str, ...], hosts: tuple[str, ...]) -> Settings:
    """A series of ``contestants`` (``_name`` is The Traitors' own) with a Traitor per four contestants and powers
    up to 12 contestants (the default power pool deals unique powers to at most 12)."""
    n = len(contestants)
    return Settings(contestants=contestants, traitors=max(1, n // 4), hosts=hosts, powers=n <= 12)


FORM = SettingsForm(
    keys=KEYS,
    build=build,
    check=Settings.validate,
    sample=sample,
    # with an explicit deal the deal says who the Traitors are; the count is then not a setting
    fixes={"traitors": lambda s: s.traitors if s.deal is None else None},
)
"""The Traitors' settings form (``engine.core.ruleset.Ruleset.form``)."""

__all__ = ["FORM", "build", "sample"]
