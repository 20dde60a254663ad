"""The Sober (Faithful power; rulebook §5 "The Sober", §1 [house]).

Rule: never drunk or intoxicated. Twice per series, when the host visits, name another living contestant;
learn "drunk" or "sober" right now (drunk or intoxicated counts as drunk); that contestant is then sober until
the next night (intoxication lifted, drunkenness suspended). The Sober's answer sees tonight's Bartender (the
Bartender resolves first in the night order). A Mimic's copy taken from a Traitor behaves as drunk: inverted
answer, nobody sobered. Murdered tonight: no answer, nobody sobered.

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
)


def resolve(game: Context, use: Use) -> None:
    """Answer drunk/sober, then sober the target until the next night."""
    if game.murdered_tonight(use.actor):
        return
    t = use.targets[0]
    drunk = game.impaired(t)
    if game.impaired(use.actor):
        drunk = not drunk
    else:
        game.powers.sobered.add(t)
    game.tell(use, "result.sober.drunk" if drunk else "result.sober.sober", player=t)


POWER = Power(PowerName.SOBER, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, 2, another_living, resolve, other_living)
