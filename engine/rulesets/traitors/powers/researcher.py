"""The Researcher (Faithful power; rulebook §5 "The Researcher", mechanics [house]).

Rule: when the host visits, name one other living contestant; learn two power names in random order, one of
them theirs (a Traitor's Traitor power, never the false power; a Joker holder's is The Joker; "no power" when
they hold none). The other name is drawn from the wrong answers. Drunk or intoxicated: both names are wrong
answers ([house] §2). Murdered tonight: no answer.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import (
    ALL_TITLES,
    VISIT,
    Power,
    Use,
    another_living,
    other_living,
    power_title,
)
from engine.terms import power_term


def resolve(game: Context, use: Use) -> None:
    """Two names, one true (none true when impaired), shuffled by the seeded generator."""
    if game.murdered_tonight(use.actor):
        return
    t = use.targets[0]
    truth = power_title(game.held_power(t))
    wrong = sorted(x for x in ALL_TITLES if x != truth)
    if game.impaired(use.actor):
        names = game.rng.sample(wrong, 2)
    else:
        names = [truth, game.rng.choice(wrong)]
        game.rng.shuffle(names)
    game.tell(use, "result.researcher", player=t, first=power_term(names[0]), second=power_term(names[1]))


POWER = Power(
    PowerName.RESEARCHER, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, None, another_living, resolve, other_living
)
