"""The setups ``traitors balance`` compares: every combination of the knobs a ruleset's settings allow.

Each ruleset declares its knobs with its registry entry (``Ruleset.balance``, ``engine.core.knobs.BalanceKnobs``):
The Traitors' number of Traitors, drunk, Joker, Double Vote and first-night murder
(``engine/rulesets/traitors/spec.py``), Black Knights' number of Black Knights, Mad Knight and gallows, Mafia &
Yakuza's Mafioso, Yakuza and Maniac (each ruleset's module, ``balance_setups``). The starting point is the demo's
series for the cast (``bridge.app.demo_settings.demo_settings``); each setup changes only its knobs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bridge.app.demo_settings import demo_settings
from engine.core.knobs import BalanceKnobs, Knobs
from engine.errors import ConfigError
from engine.rulesets import RULESETS


def balanced(ruleset: str) -> BalanceKnobs:
    """The balance knobs of the registered ruleset ``ruleset`` (``Ruleset.balance``).

    Raises:
        ConfigError: ``ruleset`` is not registered or declares no knobs (the message names ``--ruleset``).
    """
    spec = RULESETS.get(ruleset)
    if spec is None or spec.balance is None:
        known = ", ".join(name for name, r in RULESETS.items() if r.balance is not None)
        raise ConfigError(f"--ruleset: {ruleset!r} (known: {known})")
    return spec.balance


def evil_wins(ruleset: str, wins: dict[str, int]) -> int:
    """The evil side's wins among ``wins`` (winning side → series): those of the ruleset's ``evil_sides`` (The
    Traitors': the Traitors', not the Joker's, who wins alone, rulebook §6), else every win but the good side's
    (``Ruleset.good_side``) and ``nobody``'s.

    Raises:
        KeyError: an unknown ruleset.
    """
    spec = RULESETS[ruleset]
    evil = spec.balance.evil_sides if spec.balance is not None else ()
    if evil:
        return sum(wins.get(side, 0) for side in evil)
    return sum(w for side, w in wins.items() if side not in (spec.good_side, "nobody"))


@dataclass(frozen=True, slots=True)
class Setup:
    """One setup: its knobs (name → value, as printed) and the series settings they give."""

    knobs: Knobs
    settings: Any

    @property
    def label(self) -> str:
        """``traitors=3 drunk=possible ...``."""
        return " ".join(f"{k}={v}" for k, v in self.knobs)


def setups_for(ruleset: str, contestants: int, fixed: Mapping[str, str] | None = None) -> list[Setup]:
    """Every valid setup of ``ruleset`` for ``contestants`` (a setup the rules refuse is left out, and of setups
    with the same settings only the first is kept: a knob whose role the deal for this cast lacks changes nothing),
    keeping only those whose knobs have the values ``fixed`` gives (``--fix drunk=none``).

    Raises:
        ConfigError: an unknown ruleset, a cast size the ruleset does not allow, or a ``fixed`` knob or value the
            ruleset does not have (the message names the option).
    """
    knobs = balanced(ruleset)
    every = [Setup(k, s) for k, s in knobs.setups(demo_settings(contestants, ruleset), contestants)]
    for knob, value in (fixed or {}).items():
        values = {v for s in every for k, v in s.knobs if k == knob}
        if value not in values:
            if not values:
                raise ConfigError(
                    f"--fix: {knob}={value}; {ruleset} has no knob {knob!r} (its knobs: "
                    f"{', '.join(k for k, _ in every[0].knobs)})"
                )
            raise ConfigError(f"--fix: {knob}={value}; values: {', '.join(sorted(values))}")
        every = [s for s in every if dict(s.knobs)[knob] == value]
    out: list[Setup] = []
    for setup in every:
        if any(setup.settings == kept.settings for kept in out):
            continue
        try:
            RULESETS[ruleset].game(setup.settings, 0)
        except ConfigError:
            continue
        out.append(setup)
    return out


__all__ = ["Setup", "balanced", "evil_wins", "setups_for"]
