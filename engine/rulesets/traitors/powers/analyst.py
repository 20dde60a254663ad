"""The Analyst (Faithful power; rulebook §5 "The Analyst", mechanics [house]).

Rule: when the host visits, name two other living contestants; learn "same allegiance" or "different
allegiance", by what they register as (The Falsifier flips one). Drunk or intoxicated: the answer is inverted
([house] §2). Murdered tonight: no answer.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import VISIT, Power, Use, living_other


def validate(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """Two different other living contestants."""
    if len(targets) != 2:
        raise IllegalAction("illegal.power.targets", count="2")
    a, b = targets
    living_other(game, actor, a)
    living_other(game, actor, b)
    if a == b:
        raise IllegalAction("illegal.power.same_twice")


def options(_game: Context, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """Every pair of two different other living contestants, each pair once (``validate``)."""
    rest = [t for t in alive if t != actor]
    return [(a, b) for i, a in enumerate(rest) for b in rest[i + 1 :]]


def resolve(game: Context, use: Use) -> None:
    """Compare registered allegiances; invert when impaired."""
    if game.murdered_tonight(use.actor):
        return
    a, b = use.targets
    same = game.registers_as(a) is game.registers_as(b)
    if game.impaired(use.actor):
        same = not same
    game.tell(use, "result.analyst.same" if same else "result.analyst.different", first=a, second=b)


POWER = Power(PowerName.ANALYST, __doc__ or "", VISIT, Allegiance.FAITHFUL, 2, None, validate, resolve, options)
