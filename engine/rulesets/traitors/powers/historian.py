"""The Historian: the power's rule is ``RULE``; ``POWER`` is its rule as data (``engine.rulesets.traitors.powers.base.Power``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.powers.base import ALL_TITLES, VISIT, Power, Use, power_title, wrong_choice
from engine.messages_terms import power_term

if TYPE_CHECKING:
    from engine.rulesets.traitors.game import Game


RULE = """The Historian (Faithful power; rulebook §5 "The Historian", mechanics [house]).

Rule: automatic (no choice). When the host visits after a night or day with a murder or banishment, learn the
true power of the most recently removed contestant (a drunk power shown as the plain power; a Traitor's
Traitor power, never the false one; "no power" when they held none). Told once per removed contestant. Drunk or
intoxicated: a wrong power name ([house] §2). Murdered tonight: no answer.
"""
"""The power's rule in plain words, citing the rulebook (``Power.rule``; a string, not the module's
docstring, which a compiled engine does not keep)."""


def validate(game: Game, actor: str, targets: tuple[str, ...]) -> None:
    """The Historian names nobody."""
    if targets:
        raise IllegalAction("illegal.power.targets", count="0")


def resolve(game: Game, use: Use) -> None:
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


POWER = Power(PowerName.HISTORIAN, RULE, VISIT, Allegiance.FAITHFUL, 0, None, validate, resolve)
