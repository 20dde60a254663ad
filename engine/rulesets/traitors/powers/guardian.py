"""The Guardian ([house] Faithful power; rulebook §1, §5 "The Guardian", §7.5).

Rule: when the host visits, name one other living contestant (not the same twice running): they are protected
from murder tonight. An ultimatum ignores it; a murder shield is used first. The Guardian resolves before the
murder is settled, so tonight's Bartender cannot stop it (intoxication lands later in the night order). Drunk:
no protection (silently). Nobody is told that the protection was used.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import (
    VISIT,
    Power,
    Use,
    last_use_target,
    living_other,
    not_last_use,
    one_target,
    others,
)


def validate(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """Another living contestant, not the last one protected."""
    t = one_target(targets)
    living_other(game, actor, t)
    not_last_use(game, actor, PowerName.GUARDIAN, t)


def options(game: Context, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """The other living contestants but the last one protected (``validate``)."""
    return others(actor, alive, last_use_target(game, actor, PowerName.GUARDIAN))


def resolve(game: Context, use: Use) -> None:
    """Guard the target tonight."""
    if game.impaired(use.actor):
        return
    game.guarded.add(use.targets[0])


POWER = Power(PowerName.GUARDIAN, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, None, validate, resolve, options)
