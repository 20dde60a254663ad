"""The Survivor (Faithful power; rulebook §5 "The Survivor", §4 "The Survivor", §7.5).

Rule [rule]: once per series, a Survivor attacked by the Traitors' murder is alerted instead of murdered, unless
drunk (or intoxicated); they are told in the diary room. If the next round table fails to banish a Traitor,
the Survivor is murdered right after it. A murder shield is used before the Survivor's alert (and The Guardian
too, [house]); an ultimatum ignores all of them. Passive: the Survivor is not visited for a choice.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import PASSIVE, Power, Use


def validate(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """Never chosen."""
    raise IllegalAction("illegal.power.none")


def resolve(game: Context, use: Use) -> None:
    """The alert itself is part of the murder step (``visit.settle_murder``)."""


POWER = Power(PowerName.SURVIVOR, __doc__ or "", PASSIVE, Allegiance.FAITHFUL, 0, 1, validate, resolve)
