"""The Judge (Faithful power; rulebook §5 "The Judge", §4 "The Judge's protection").

Rule: when the host visits, name one living contestant (not the same twice running; oneself at most once per
series) to protect at the next round table: if they would be banished, the host announces the protection (not
the Judge) and the contestant with the next most votes is banished (a tie there follows the tie rules). It
holds against the Sheriff's accusation too, and then still in the vote ([house] §4 Judge and Sheriff). Drunk
or intoxicated: no protection (silently). Murdered tonight: no protection.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import VISIT, Power, Use, last_use_target, living, not_last_use, one_target


def validate(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """A living contestant, not the last one protected; oneself at most once."""
    t = one_target(targets)
    living(game, t)
    not_last_use(game, actor, PowerName.JUDGE, t)
    if t == actor and actor in game.powers.judge_self:
        raise IllegalAction("illegal.power.self_once")


def options(game: Context, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """The living contestants but the last one protected, oneself only the first time (``validate``)."""
    last = last_use_target(game, actor, PowerName.JUDGE)
    selfless = actor in game.powers.judge_self
    return [(t, None) for t in alive if t != last and not (selfless and t == actor)]


def resolve(game: Context, use: Use) -> None:
    """Protect the target at the next round table."""
    t = use.targets[0]
    if t == use.actor:
        game.powers.judge_self.add(use.actor)
    if game.murdered_tonight(use.actor) or game.impaired(use.actor):
        return
    game.powers.protected = t


POWER = Power(PowerName.JUDGE, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, None, validate, resolve, options)
