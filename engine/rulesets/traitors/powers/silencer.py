"""The Silencer (Traitor power; rulebook §5 "The Silencer", §4 "The Silencer's silence").

Rule: in the Turret, after the night's event is chosen, one living contestant (not oneself; not the same two
nights running) is silenced at the next round table: the silence is announced when the round table opens and
the silenced contestant gets no vote paper. A contestant cleansed tonight is not silenced.

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
    last_night_target,
    living_other,
    not_last_night,
    one_target,
    others,
)


def validate(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """Another living contestant, not last night's."""
    t = one_target(targets)
    living_other(game, actor, t)
    not_last_night(game, actor, PowerName.SILENCER, t)


def options(game: Context, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """The other living contestants but last night's (``validate``)."""
    return others(actor, alive, last_night_target(game, actor, PowerName.SILENCER))


def resolve(game: Context, use: Use) -> None:
    """Silence the target for the next round table unless cleansed."""
    t = use.targets[0]
    if t not in game.powers.cleansed:
        game.powers.silenced.add(t)


POWER = Power(PowerName.SILENCER, __doc__ or "", TURRET, Allegiance.TRAITOR, 1, None, validate, resolve, options)
