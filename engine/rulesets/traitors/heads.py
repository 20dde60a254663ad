"""The player heads of the breakfast room (rulebook §10 "Misc. Items": "the player heads used in the breakfast
room"; §3 "players who survive the night will arrive at breakfast in a random order").

House rules of this file ([house] rulebook §10):

1. As each contestant arrives at breakfast (in the day's seeded order), their player head is set at their place at
   the breakfast table, right after their arrival is announced: ``PlaceItem(PLAYER_HEAD, BREAKFAST_TABLE, seat,
   contestant)``, public (everyone in the room sees it). A contestant murdered in the night does not arrive, so
   their place stays empty; so does a banished contestant's.
2. A head is taken away when its contestant leaves the series (banished, murdered with the Sacred Sword, the
   alerted Survivor murdered after the round table), and every head when the next night begins or the series
   ends.

Every function takes the series (``engine.rulesets.traitors.context.Table``); ``Table.heads`` keeps whose heads
are out (contestant → seat).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.effects import ClearPlace, PlaceItem, announce
from engine.ids import Item, Place
from engine.rulesets.traitors.context import Table


def arrive(game: Table, arrivals: Sequence[str]) -> None:
    """House rule 1: each of ``arrivals``, in order, is announced arriving and has their head set at their place."""
    for name in arrivals:
        seat = game.players[name].seat
        game.heads[name] = seat
        game.emit(
            announce("breakfast.arrives", player=name), PlaceItem(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, seat, name)
        )


def leave(game: Table, name: str) -> None:
    """House rule 2: ``name`` left the series; their head, if it is out, is taken away."""
    seat = game.heads.pop(name, None)
    if seat is not None:
        game.emit(ClearPlace(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, (seat,)))


def clear(game: Table) -> None:
    """House rule 2: the night begins or the series ends; every head still out is taken away."""
    if game.heads:
        game.emit(ClearPlace(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, tuple(sorted(game.heads.values()))))
        game.heads.clear()


__all__ = ["arrive", "clear", "leave"]
