"""The Survivor: the power's rule is ``RULE``; ``POWER`` is its rule as data (``engine.rulesets.traitors.powers.base.Power``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.powers.base import PASSIVE, Power, Use

if TYPE_CHECKING:
    from engine.rulesets.traitors.game import Game


RULE = """The Survivor (Faithful power; rulebook §5 "The Survivor", §4 "The Survivor", §7.5).

Rule [rule]: once per series, a Survivor attacked by the Traitors' murder is alerted instead of murdered, unless
drunk (or intoxicated); they are told in the diary room. If the next round table fails to banish a Traitor,
the Survivor is murdered right after it. A murder shield is used before the Survivor's alert (and The Guardian
too, [house]); an ultimatum ignores all of them. Passive: the Survivor is not visited for a choice.
"""
"""The power's rule in plain words, citing the rulebook (``Power.rule``; a string, not the module's
docstring, which a compiled engine does not keep)."""


def validate(game: Game, actor: str, targets: tuple[str, ...]) -> None:
    """Never chosen."""
    raise IllegalAction("illegal.power.none")


def resolve(game: Game, use: Use) -> None:
    """The alert itself is part of the murder step (``Game._settle_murder``)."""


POWER = Power(PowerName.SURVIVOR, RULE, PASSIVE, Allegiance.FAITHFUL, 0, 1, validate, resolve)
