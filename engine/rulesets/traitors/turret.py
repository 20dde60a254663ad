"""Who may act in the Turret now (rulebook §7.2; the Confession, rule T8.4): the check that the night's own
inputs (``engine.rulesets.traitors.night``) and the twists' Turret inputs share.
"""

from __future__ import annotations

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase


def check_turret(game: Context, actor: str, confession: bool = False) -> None:
    """Raise unless ``actor`` is a sworn Traitor in tonight's open Turret, and the input fits the stage.

    Args:
        game: the series.
        actor: a living contestant.
        confession: the input is the response while the Traitors are at the Confession; else a decision after it
            (rule T8.4).

    Raises:
        IllegalAction: ``illegal.not_traitor``, ``illegal.turret.closed``, ``illegal.turret.unsworn``,
            ``illegal.turret.confessing`` or ``illegal.confession.closed``. Changes nothing.
    """
    p = game.players[actor]
    if p.allegiance is not Allegiance.TRAITOR:
        raise IllegalAction("illegal.not_traitor")
    if game.phase is not Phase.TURRET or not game.night:
        raise IllegalAction("illegal.turret.closed")
    if actor not in game.night.traitors:
        raise IllegalAction("illegal.turret.unsworn")
    if game.night.confessing and not confession:
        raise IllegalAction("illegal.turret.confessing")
    if confession and not game.night.confessing:
        raise IllegalAction("illegal.confession.closed")


__all__ = ["check_turret"]
