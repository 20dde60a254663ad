"""The Bartender (Traitor power; rulebook §5 "The Bartender", mechanics [house]).

Rule: in the Turret, after the night's event is chosen, intoxicate one living non-Traitor until the next night;
not the same one two nights running. The Sober is immune. No feedback. An intoxicated contestant behaves
exactly like a drunk one while it lasts (rulebook §2): their information tonight is false and their abilities
fail. A contestant cleansed tonight (The Cleanser) is not intoxicated.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import (
    TURRET,
    Power,
    Use,
    last_night_target,
    living,
    not_last_night,
    one_target,
)


def validate(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """A living non-Traitor (the Bartender knows the Traitors), not last night's."""
    t = one_target(targets)
    living(game, t)
    if game.players[t].allegiance is Allegiance.TRAITOR:
        raise IllegalAction("illegal.power.target", target=t)
    not_last_night(game, actor, PowerName.BARTENDER, t)


def options(game: Context, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """The living non-Traitors but last night's (``validate``)."""
    last = last_night_target(game, actor, PowerName.BARTENDER)
    players = game.players
    return [(t, None) for t in alive if players[t].allegiance is not Allegiance.TRAITOR and t != last]


def resolve(game: Context, use: Use) -> None:
    """Intoxicate the target unless cleansed, sobered or The Sober (silently)."""
    t = use.targets[0]
    if t in game.powers.cleansed or t in game.powers.sobered or game.active_power(t) is PowerName.SOBER:
        return
    game.powers.intoxicated.add(t)


POWER = Power(PowerName.BARTENDER, __doc__ or "", TURRET, Allegiance.TRAITOR, 1, None, validate, resolve, options)
