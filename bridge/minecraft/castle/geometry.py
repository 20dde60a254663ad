"""Boxes of blocks and the ``fill``/``setblock`` commands that set them (sans-I/O).

Minecraft facts kept (docs/operator.md#the-castle): ``fill`` sets at most 32768 blocks per command (the default of
the game rule ``max_block_modifications``; vanilla ``commands.fill.toobig``), so a larger box is cut into pieces under the limit; a box of one block is a
``setblock``. Coordinates are absolute block positions (integers), ``x`` east, ``y`` up, ``z`` south.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

FILL_LIMIT = 32768
"""The most blocks one ``fill`` may set: vanilla's default of the game rule ``max_block_modifications``."""

Pos = tuple[int, int, int]
"""A block position ``(x, y, z)`` in blocks."""


@dataclass(frozen=True, slots=True, order=True)
class Box:
    """A cuboid of blocks from ``(x1, y1, z1)`` to ``(x2, y2, z2)``, both corners included (``x1 <= x2`` …;
    build one with :func:`box` to have the corners sorted)."""

    x1: int
    y1: int
    z1: int
    x2: int
    y2: int
    z2: int

    @property
    def volume(self) -> int:
        """How many blocks the box holds."""
        return (self.x2 - self.x1 + 1) * (self.y2 - self.y1 + 1) * (self.z2 - self.z1 + 1)

    def __contains__(self, pos: object) -> bool:
        if not isinstance(pos, tuple) or len(pos) != 3:
            return False
        x, y, z = pos
        return bool(self.x1 <= x <= self.x2 and self.y1 <= y <= self.y2 and self.z1 <= z <= self.z2)

    def inside(self, other: Box) -> bool:
        """Whether every block of this box is also in ``other``."""
        return (
            other.x1 <= self.x1
            and self.x2 <= other.x2
            and other.y1 <= self.y1
            and self.y2 <= other.y2
            and other.z1 <= self.z1
            and self.z2 <= other.z2
        )

    def shifted(self, dx: int, dy: int, dz: int) -> Box:
        """The same box moved by ``(dx, dy, dz)`` blocks."""
        return Box(self.x1 + dx, self.y1 + dy, self.z1 + dz, self.x2 + dx, self.y2 + dy, self.z2 + dz)

    def cells(self) -> Iterator[Pos]:
        """Every block position of the box (x fastest, then z, then y)."""
        for y in range(self.y1, self.y2 + 1):
            for z in range(self.z1, self.z2 + 1):
                for x in range(self.x1, self.x2 + 1):
                    yield (x, y, z)

    def split(self, limit: int = FILL_LIMIT) -> list[Box]:
        """The box cut into pieces of at most ``limit`` blocks each, halving the longest side until they fit.

        Raises:
            ValueError: ``limit`` is below 1.
        """
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        if self.volume <= limit:
            return [self]
        sides = (self.x2 - self.x1, self.y2 - self.y1, self.z2 - self.z1)
        axis = sides.index(max(sides))
        lo = (self.x1, self.y1, self.z1)[axis]
        mid = lo + sides[axis] // 2
        first, second = list(self.corners()), list(self.corners())
        first[3 + axis] = mid
        second[axis] = mid + 1
        return Box(*first).split(limit) + Box(*second).split(limit)

    def corners(self) -> tuple[int, int, int, int, int, int]:
        """``(x1, y1, z1, x2, y2, z2)``."""
        return (self.x1, self.y1, self.z1, self.x2, self.y2, self.z2)

    def text(self) -> str:
        """The two corners as command arguments: ``"x1 y1 z1 x2 y2 z2"``."""
        return " ".join(str(c) for c in self.corners())


def box(x1: int, y1: int, z1: int, x2: int, y2: int, z2: int) -> Box:
    """A :class:`Box` with its corners sorted, so either corner may come first."""
    return Box(min(x1, x2), min(y1, y2), min(z1, z2), max(x1, x2), max(y1, y2), max(z1, z2))


@dataclass(frozen=True, slots=True)
class Op:
    """One step of a build: set every block of ``box`` to ``block`` (a block state such as
    ``"minecraft:oak_door[facing=east,half=lower]"``)."""

    box: Box
    block: str

    def commands(self) -> list[str]:
        """The commands that do it: one ``setblock`` for a single block, else ``fill``s of at most
        :data:`FILL_LIMIT` blocks each."""
        if self.box.volume == 1:
            x, y, z = self.box.x1, self.box.y1, self.box.z1
            return [f"setblock {x} {y} {z} {self.block}"]
        return [f"fill {piece.text()} {self.block}" for piece in self.box.split()]
