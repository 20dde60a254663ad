"""The Falsifier (Traitor power; rulebook §5 "The Falsifier", mechanics [house]).

Rule: in the Turret, after the night's event is chosen, one living contestant (a Traitor too, oneself too)
registers as the other allegiance until the next night: The Analyst and The Sheriff see the flipped
allegiance (rulebook §5 "registers as"); twists always see the truth. No feedback. A contestant cleansed
tonight is not falsified.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import (
    TURRET,
    Power,
    Use,
    any_living,
    any_living_options,
)


def resolve(game: Context, use: Use) -> None:
    """Falsify the target unless cleansed."""
    t = use.targets[0]
    if t not in game.powers.cleansed:
        game.powers.falsified.add(t)


POWER = Power(
    PowerName.FALSIFIER, __doc__ or "", TURRET, Allegiance.TRAITOR, 1, None, any_living, resolve, any_living_options
)
