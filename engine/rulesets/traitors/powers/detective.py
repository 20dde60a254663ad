"""The Detective (Faithful power; rulebook §5 "The Detective", mechanics [house]).

Rule: when the host visits, name one other living contestant; learn how many Traitor actions targeted them
tonight: the Turret's event (murder, seduction or ultimatum), The Bartender, The Falsifier, The Silencer and the
Guess twist's guess. Every attempt counts, whether or not it landed. Drunk or intoxicated: a number from 0 to 5
other than the true one ([house] §2). Murdered tonight: no answer.

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
    another_living,
    other_living,
    wrong_choice,
)

MOST = 5
"""The most Traitor actions one contestant can draw in a night (event, three powers, guess)."""


def resolve(game: Context, use: Use) -> None:
    """Count tonight's Traitor actions on the target."""
    if game.murdered_tonight(use.actor):
        return
    t = use.targets[0]
    count = str(sum(1 for target, _ in game.traitor_actions() if target == t))
    if game.impaired(use.actor):
        count = wrong_choice(game, [str(n) for n in range(MOST + 1)], count)
    game.tell(use, "result.detective", player=t, count=count)


POWER = Power(
    PowerName.DETECTIVE, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, None, another_living, resolve, other_living
)
