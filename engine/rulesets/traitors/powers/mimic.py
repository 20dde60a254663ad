"""The Mimic (Faithful power; rulebook §5 "The Mimic", mechanics [house]).

Rule: once per series, when the host visits, name another living contestant and copy their power from the next
night on; told the name copied. A Traitor's copy is their false power and behaves as drunk (never works). A
Faithful's copy is their dealt Faithful power (a Joker holder's too). Drunk or intoxicated: the Mimic is told a
wrong power name and holds it as drunk. Murdered tonight: nothing is copied (the use is spent).

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.ids import FAITHFUL_POWERS, Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import (
    VISIT,
    Power,
    Use,
    another_living,
    other_living,
)
from engine.terms import power_term


def resolve(game: Context, use: Use) -> None:
    """Copy (or, impaired, pretend to copy) the target's power."""
    if game.murdered_tonight(use.actor):
        return
    t = game.players[use.targets[0]]
    as_drunk = False
    if game.impaired(use.actor):
        truth = t.false_power if t.allegiance is Allegiance.TRAITOR else t.power
        wrong = sorted((p for p in FAITHFUL_POWERS if p not in (truth, PowerName.MIMIC)), key=lambda p: p.value)
        copy: PowerName | None = game.rng.choice(wrong)
        as_drunk = True
    elif t.allegiance is Allegiance.TRAITOR:
        copy, as_drunk = t.false_power, True
    else:
        copy = t.power
    game.powers.copied[use.actor] = (copy, game.day, as_drunk)
    game.tell(use, "result.mimic", player=t.name, power=power_term(copy))


POWER = Power(PowerName.MIMIC, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, 1, another_living, resolve, other_living)
