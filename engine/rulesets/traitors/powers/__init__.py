"""The powers of rulebook §5 and §6: one module per power, an explicit registry and the night order.

``POWERS`` maps each ``engine.ids.Power`` to its ``Power`` spec (``docs/design.md``; python-chess ``VARIANTS``).
``NIGHT_ORDER`` is the one table that fixes both the order in which the host visits (rulebook §7.4: "in the
night order") and the order in which the night's uses resolve, with two steps that are not powers:
``MURDER`` (the Turret's murder is settled: murder shield, then The Guardian, then The Survivor's alert;
rulebook §7.5) and ``GUESS`` (the Guess twist's guesses land, unless cleansed).

Why this order (documented in ``docs/powers.md``): The Guardian must act before the murder is settled, and a
murdered Faithful's ability does not succeed, so the murder is settled first and everything after it knows who
was murdered. The Cleanser comes next so that tonight's intoxication, falsification, silence and guesses can be
kept off its target. The Traitor powers land before the information powers, so that information sees them;
The Sober sees tonight's Bartender and then lifts it. The round-table powers (Sheriff, Judge) come last.
"""

from __future__ import annotations

from engine.ids import Power as PowerName
from engine.rulesets.traitors.powers import (
    analyst,
    bartender,
    cleanser,
    detective,
    falsifier,
    guardian,
    historian,
    joker,
    judge,
    mimic,
    researcher,
    sheriff,
    silencer,
    sober,
    spy,
    survivor,
)
from engine.rulesets.traitors.powers.base import PASSIVE, TURRET, VISIT, Power, PowerState, Use

POWERS: dict[PowerName, Power] = {
    m.POWER.name: m.POWER
    for m in (
        bartender,
        falsifier,
        silencer,
        analyst,
        researcher,
        sheriff,
        cleanser,
        detective,
        historian,
        mimic,
        sober,
        spy,
        survivor,
        judge,
        guardian,
        joker,
    )
}
"""Every power of ``engine.ids.Power`` by name (a test checks the registry is complete)."""

MURDER = "murder"
GUESS = "guess"

NIGHT_ORDER: tuple[PowerName | str, ...] = (
    PowerName.GUARDIAN,
    MURDER,
    PowerName.CLEANSER,
    GUESS,
    PowerName.BARTENDER,
    PowerName.FALSIFIER,
    PowerName.SILENCER,
    PowerName.SOBER,
    PowerName.MIMIC,
    PowerName.ANALYST,
    PowerName.RESEARCHER,
    PowerName.DETECTIVE,
    PowerName.SPY,
    PowerName.HISTORIAN,
    PowerName.SHERIFF,
    PowerName.JUDGE,
)
"""The night order: host visits and resolution (see the module docstring)."""

VISIT_ORDER: tuple[PowerName, ...] = tuple(
    p for p in NIGHT_ORDER if isinstance(p, PowerName) and POWERS[p].stage == VISIT
)
"""The order in which the host visits the Faithful (rulebook §7.4)."""

INFORMATION: frozenset[PowerName] = frozenset(
    {
        PowerName.ANALYST,
        PowerName.RESEARCHER,
        PowerName.DETECTIVE,
        PowerName.SPY,
        PowerName.HISTORIAN,
        PowerName.SOBER,
        PowerName.MIMIC,
    }
)
"""Powers whose use gives the user an answer (false when impaired, rulebook §2)."""

REGISTERS: frozenset[PowerName] = frozenset({PowerName.ANALYST, PowerName.SHERIFF})
"""Powers that see what a contestant registers as (The Falsifier changes it); twists see the truth."""

CLEANSABLE: frozenset[PowerName] = frozenset({PowerName.BARTENDER, PowerName.FALSIFIER, PowerName.SILENCER})
"""Traitor powers that do not land on a contestant cleansed tonight (and the guess, rulebook §5)."""

__all__ = [
    "CLEANSABLE",
    "GUESS",
    "INFORMATION",
    "MURDER",
    "NIGHT_ORDER",
    "PASSIVE",
    "POWERS",
    "Power",
    "PowerState",
    "REGISTERS",
    "TURRET",
    "Use",
    "VISIT",
    "VISIT_ORDER",
]
