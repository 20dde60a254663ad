"""Which chunks of the sandbox's overworld are loaded, as vanilla decides it: the chunks ``forceload`` marked,
and the chunks within the view distance of an online player. A command that needs a loaded position answers as
vanilla does when its chunk is not loaded (``setblock``, ``fill``, ``execute if block``: "That position is not
loaded"); an entity in a chunk that is not loaded is out of every selector's reach (``kill @e[…]`` does not find
it), though ``summon`` there still succeeds.

A chunk is 16 × 16 blocks (``x >> 4``, ``z >> 4``). Vanilla loads a forced chunk over the next ticks; the
sandbox has no ticks of chunk loading, so a forced chunk is loaded at once (``execute if loaded`` tells a
caller on a real server when it is).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["VIEW_DISTANCE", "Chunks", "chunk_of"]

VIEW_DISTANCE = 10
"""Chunks around a player that are loaded: ``view-distance`` of ``server.properties`` (vanilla's default)."""


def chunk_of(x: float, z: float) -> tuple[int, int]:
    """The chunk (cx, cz) holding the block column at ``x``, ``z`` (blocks)."""
    return math.floor(x) >> 4, math.floor(z) >> 4


class Chunks:
    """The forced chunks and the view distance.

    Attributes:
        forced: the chunks ``forceload add`` marked, (cx, cz).
        view_distance: chunks (Chebyshev distance) loaded around each online player.
    """

    def __init__(self, view_distance: int = VIEW_DISTANCE) -> None:
        self.forced: set[tuple[int, int]] = set()
        self.view_distance = view_distance

    def loaded(self, x: float, z: float, players: Iterable[tuple[float, float, float]]) -> bool:
        """Whether the chunk holding ``x``, ``z`` (blocks) is loaded, with players at ``players`` (x, y, z)."""
        cx, cz = chunk_of(x, z)
        if (cx, cz) in self.forced:
            return True
        for px, _, pz in players:
            qx, qz = chunk_of(px, pz)
            if max(abs(qx - cx), abs(qz - cz)) <= self.view_distance:
                return True
        return False
