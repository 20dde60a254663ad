"""The Historian (Faithful power; rulebook §5 "The Historian", mechanics [house]).

Rule: automatic (no choice). When the host visits after a night or day with a murder or banishment, learn the
true power of the most recently removed contestant (a drunk power shown as the plain power; a Traitor's
Traitor power, never the false one; "no power" when they held none). Told once per removed contestant. Drunk or
intoxicated: a wrong power name ([house] §2). Murdered tonight: no answer.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import ALL_TITLES, VISIT, Power, Use, power_title, wrong_choice
from engine.terms import power_term


def validate(_game: Context, _actor: str, targets: tuple[str, ...]) -> None:
    """The Historian names nobody."""
    if targets:
        raise IllegalAction("illegal.power.targets", count="0")


def resolve(game: Context, use: Use) -> None:
    """Tell the true power of the most recently removed contestant, once per removal."""
    removed = game.last_removed
    if removed is None or game.powers.removed_seen.get(use.actor) == removed:
        return
    game.powers.removed_seen[use.actor] = removed
    if game.murdered_tonight(use.actor):
        return
    truth = power_title(game.held_power(removed))
    if game.impaired(use.actor):
        truth = wrong_choice(game, list(ALL_TITLES), truth)
    game.tell(use, "result.historian", player=removed, power=power_term(truth))


POWER = Power(PowerName.HISTORIAN, __doc__ or "", VISIT, Allegiance.FAITHFUL, 0, None, validate, resolve)
