"""The Survivor (Faithful power; rulebook §5 "The Survivor", §4 "The Survivor", §7.5).

Rule [rule]: once per series, a Survivor attacked by the Traitors' murder is alerted instead of murdered, unless
drunk (or intoxicated); they are told in the diary room (by night) or where they stand (struck by the Sacred Sword
by day, rule T5.3: the diary room is a night place, T10.7). If the next round table fails to banish a Traitor,
the Survivor is murdered right after it. A murder shield is used before the Survivor's alert (and The Guardian
too, [house]); an ultimatum ignores all of them. Passive: the Survivor is not visited for a choice.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.effects import GiveItem
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import PASSIVE, Power, Use


def validate(_game: Context, _actor: str, _targets: tuple[str, ...]) -> None:
    """Never chosen."""
    raise IllegalAction("illegal.power.none")


def resolve(game: Context, use: Use) -> None:
    """The alert itself is part of the murder step (``visit.settle_murder``) and of the Sacred Sword's strike."""


def alert_holds(game: Context, name: str) -> bool:
    """True when the Traitors' attempt to murder ``name`` alerts them instead (rule T5.3): ``name`` can use The
    Survivor now (not while holding the Joker), is neither drunk nor intoxicated, and has not been alerted before."""
    return (
        game.active_power(name) is PowerName.SURVIVOR
        and not game.impaired(name)
        and game.powers.used[(name, PowerName.SURVIVOR)] == 0
    )


def alert(game: Context, name: str) -> None:
    """Alert the Survivor ``name`` (rules T5.3, T5.4, T10.4): the once-per-series alert is used, they receive the
    Survivor's diary-room book and are told privately; the next round table's banishment decides their fate
    (``round_table.banish``). Where they are told (the diary room at night) is the caller's."""
    game.powers.used[(name, PowerName.SURVIVOR)] += 1
    game.powers.alerted = name
    game.emit(GiveItem(frozenset({name}), Item.DIARY_BOOK, "survivor"))
    game.whisper([name], "survivor.alerted")


POWER = Power(PowerName.SURVIVOR, __doc__ or "", PASSIVE, Allegiance.FAITHFUL, 0, 1, validate, resolve)
