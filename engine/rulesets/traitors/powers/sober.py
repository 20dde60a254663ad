"""The Sober: the power's rule is ``RULE``; ``POWER`` is its rule as data (``engine.rulesets.traitors.powers.base.Power``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.powers.base import VISIT, Power, Use, living_other, one_target, others

if TYPE_CHECKING:
    from engine.rulesets.traitors.game import Game


RULE = """The Sober (Faithful power; rulebook §5 "The Sober", §1 [house]).

Rule: never drunk or intoxicated. Twice per series, when the host visits, name another living contestant;
learn "drunk" or "sober" right now (drunk or intoxicated counts as drunk); that contestant is then sober until
the next night (intoxication lifted, drunkenness suspended). The Sober's answer sees tonight's Bartender (the
Bartender resolves first in the night order). A Mimic's copy taken from a Traitor behaves as drunk: inverted
answer, nobody sobered. Murdered tonight: no answer, nobody sobered.
"""
"""The power's rule in plain words, citing the rulebook (``Power.rule``; a string, not the module's
docstring, which a compiled engine does not keep)."""


def validate(game: Game, actor: str, targets: tuple[str, ...]) -> None:
    """Another living contestant."""
    living_other(game, actor, one_target(targets))


def options(game: Game, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """The other living contestants (``validate``)."""
    return others(actor, alive)


def resolve(game: Game, use: Use) -> None:
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


POWER = Power(PowerName.SOBER, RULE, VISIT, Allegiance.FAITHFUL, 1, 2, validate, resolve, options)
