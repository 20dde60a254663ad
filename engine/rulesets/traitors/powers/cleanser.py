"""The Cleanser: the power's rule is ``RULE``; ``POWER`` is its rule as data (``engine.rulesets.traitors.powers.base.Power``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.powers.base import VISIT, Power, Use, anyone, living, one_target

if TYPE_CHECKING:
    from engine.rulesets.traitors.game import Game


RULE = """The Cleanser (Faithful power; rulebook §5 "The Cleanser", §7.4).

Rule: when the host visits, name one living contestant (oneself allowed): tonight intoxication, falsification,
silence and being guessed do not land on them. [rule] A guessed Cleanser is not told before using the power:
cleansing themself is their unknowing chance to keep it. Drunk or intoxicated: nothing is cleansed (silently).
Murdered tonight: nothing is cleansed.
"""
"""The power's rule in plain words, citing the rulebook (``Power.rule``; a string, not the module's
docstring, which a compiled engine does not keep)."""


def validate(game: Game, actor: str, targets: tuple[str, ...]) -> None:
    """Any living contestant."""
    living(game, one_target(targets))


def options(game: Game, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """Every living contestant (``validate``)."""
    return anyone(alive)


def resolve(game: Game, use: Use) -> None:
    """Cleanse the target for the rest of tonight's resolution."""
    if game.murdered_tonight(use.actor) or game.impaired(use.actor):
        return
    game.powers.cleansed.add(use.targets[0])


POWER = Power(PowerName.CLEANSER, RULE, VISIT, Allegiance.FAITHFUL, 1, None, validate, resolve, options)
