"""The Joker (rulebook §6): offered, never dealt.

Rule: once per series (setting ``joker_night``, default night 2) the host offers the Joker to one random living
Faithful during the host's visit; they decide first, before using their power (``AnswerJoker``). Accepting
turns their Faithful power into a false power until they lose the Joker. If the Joker is banished the series
ends at once: the Joker wins alone (``joker_outcome = "joker_wins"``) or the Traitors win (``"traitors_win"``).
At the final round table the Joker returns to their Faithful power. A drunk (or intoxicated) contestant's Joker
does not end the series [house]. No choice at night: the Joker is not used, only held.

``POWER`` is this rule as data (``engine.rulesets.traitors.powers.base.Power``).
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.powers.base import PASSIVE, Power, Use


def validate(_game: Context, _actor: str, _targets: tuple[str, ...]) -> None:
    """The Joker is never used."""
    raise IllegalAction("illegal.power.none")


def resolve(game: Context, use: Use) -> None:
    """Nothing to resolve: the Joker acts at the round table (``round_table.banish``)."""


POWER = Power(PowerName.JOKER, __doc__ or "", PASSIVE, Allegiance.FAITHFUL, 0, None, validate, resolve)
