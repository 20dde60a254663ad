"""The Sheriff (Faithful power; rulebook §5 "The Sheriff", §4 "The Sheriff's accusation").

Rule [rule] T5.2: the host asks "Would you like to accuse a player?" then "Who would you like to accuse?", in
one prompt (``SkipPower`` is "no"). Once per series. At the next round table, before the vote, the accusation is
announced (the Sheriff is not named). If the accused registers as a Traitor they are banished at once (revealed
as usual) and there is no vote that day, unless the Judge protects them (T4.10: the protection is announced and
the vote goes on); otherwise the accusation fails and the vote goes on. A Sheriff murdered that night accuses nobody.
Drunk or intoxicated [house]: the accusation is announced and fails, whatever the accused registers as.

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
    """Record the accusation for the next round table (nothing if the Sheriff is murdered tonight)."""
    if game.murdered_tonight(use.actor):
        return
    game.powers.accusation = use.targets[0]
    game.powers.accusation_fails = game.impaired(use.actor)


POWER = Power(PowerName.SHERIFF, __doc__ or "", VISIT, Allegiance.FAITHFUL, 1, 1, another_living, resolve, other_living)
