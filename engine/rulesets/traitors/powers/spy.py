"""The Spy (Faithful power; rulebook §5 "The Spy", mechanics [house]).

Rule: automatic (no choice). When the host visits, learn one contestant targeted by a Traitor action tonight
and which action, never who did it; drawn by the seeded generator among tonight's Traitor actions; "nothing"
when there were none. Drunk or intoxicated: a (contestant, action) pair that did not happen ([house] §2).
Murdered tonight: no answer.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import VISIT, Power, Use
from engine.terms import power_term

ACTIONS: tuple[str, ...] = ("murder", "seduce", "ultimatum", "The Bartender", "The Falsifier", "The Silencer", "guess")
"""What the Spy can name: the Turret's events, the Traitor powers and the Guess twist's guess."""


def validate(_game: Context, _actor: str, targets: tuple[str, ...]) -> None:
    """The Spy names nobody."""
    if targets:
        raise IllegalAction("illegal.power.targets", count="0")


def resolve(game: Context, use: Use) -> None:
    """Tell one of tonight's Traitor actions (or a false one when impaired)."""
    if game.murdered_tonight(use.actor):
        return
    actions = sorted(set(game.traitor_actions()))
    if game.impaired(use.actor):
        living = sorted(p.name for p in game.players.values() if p.alive and p.name != use.actor)
        wrong = [(n, a) for n in living for a in ACTIONS[:1] + ACTIONS[3:6] if (n, a) not in actions]
        if wrong:
            n, a = game.rng.choice(wrong)
            game.tell(use, "result.spy", player=n, action=power_term(a))
            return
        actions = []
    if not actions:
        game.tell(use, "result.spy.nothing")
        return
    n, a = game.rng.choice(actions)
    game.tell(use, "result.spy", player=n, action=power_term(a))


POWER = Power(PowerName.SPY, __doc__ or "", VISIT, Allegiance.FAITHFUL, 0, None, validate, resolve)
