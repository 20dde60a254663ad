"""What a contestant can lose in the night's rules: their place in the series (a murder) or their power (the Guess
twist). The night (``engine.rulesets.traitors.night``), the round table's Survivor and the twists share these, so
they live in a module every one of them can import.

Every function takes the series as a ``engine.rulesets.traitors.context.Context``.
"""

from __future__ import annotations

from engine.effects import Eliminated, GiveItem
from engine.ids import Item, Place
from engine.rulesets.traitors.context import Context


def murder(game: Context, victim: str, by_day: bool = False) -> None:
    """The victim is out, sent to the diary room with a diary-room book and told (rules T7.14, T10.4).

    Args:
        game: the series.
        victim: a living contestant.
        by_day: the Sacred Sword (T8.2): the victim is given the book and told where they stand; the diary room is
            "inaccessible unless summoned during the night" (T10.7).
    """
    p = game.players[victim]
    p.alive = False
    p.out = "murdered"
    p.out_day = game.day
    game.last_removed = victim
    game.powers.jokers.discard(victim)
    if not by_day:
        game.move([victim], Place.DIARY_ROOM)
    game.emit(GiveItem(frozenset({victim}), Item.DIARY_BOOK, None))
    game.whisper([victim], "sword.victim" if by_day else "diary.murdered")
    game.emit(Eliminated(victim, "murdered", frozenset({victim})))


def lose_power(game: Context, name: str) -> None:
    """The Guess twist's right guess (rulebook §8): ``name`` (a contestant) loses their power for the series and
    is told."""
    p = game.players[name]
    p.power = None
    game.powers.copied.pop(name, None)
    game.whisper([name], "guess.lost")


__all__ = ["lose_power", "murder"]
