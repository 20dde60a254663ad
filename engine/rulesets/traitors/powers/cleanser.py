"""The Cleanser (Faithful power; rulebook §5 "The Cleanser", §7.4).

Rule: when the host visits, name one living contestant (oneself allowed): tonight intoxication, falsification,
silence and being guessed do not land on them. [rule] A guessed Cleanser is not told before using the power:
cleansing themself is their unknowing chance to keep it; any other choice has no effect at all, nobody is cleansed
by it and the record does not show it (``visit.voided_by_guess``). Drunk or intoxicated: nothing is cleansed
(silently).
Murdered tonight: nothing is cleansed.

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
    any_living,
    any_living_options,
)


def resolve(game: Context, use: Use) -> None:
    """Cleanse the target for the rest of tonight's resolution."""
    if game.murdered_tonight(use.actor) or game.impaired(use.actor):
        return
    game.powers.cleansed.add(use.targets[0])


POWER = Power(
    PowerName.CLEANSER, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, None, any_living, resolve, any_living_options
)
