"""The sandbox's blocks: a sparse model of what ``fill`` and ``setblock`` placed, enough to answer ``execute if
block`` and ``data get block``, to tell whether a spot is standable, and to work out block light.

Every position not set is air (the sandbox's world is an empty void until the castle is built). A block is kept
as its state text, ``minecraft:<id>`` plus its block states sorted (``minecraft:oak_door[facing=east,half=lower]``).
The block entity data of a head (``BLOCK_ENTITIES``: what Castle sets with ``setblock … {profile:…}``) is kept
beside it, as vanilla keeps a block entity: given with the block, read back with ``data get block``, gone when
the block is replaced. Other blocks' data is not modelled.

Minecraft facts kept: the world's build height is -64..319; ``fill`` counts only the blocks it changed and fails
with "No blocks were filled" when that is none; a standable spot has a solid block under the feet and air at the
feet and the head; block light falls by one per block through transparent blocks from the emitting block's level.
"""

from __future__ import annotations

import copy
import math
import threading
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from bridge.minecraft.castle.geometry import Box, Op, Pos

__all__ = ["AIR", "BLOCK_ENTITIES", "BUILD_BOTTOM", "BUILD_TOP", "Blocks", "block_id", "state_text"]

AIR = "minecraft:air"
BUILD_BOTTOM = -64
BUILD_TOP = 319
_AIRS = frozenset({AIR, "minecraft:cave_air", "minecraft:void_air"})

BLOCK_ENTITIES: Mapping[str, str] = {
    "minecraft:player_head": "minecraft:skull",
    "minecraft:player_wall_head": "minecraft:skull",
}
"""Block id → the id of its block entity, for the blocks whose block entity data the sandbox keeps (vanilla's
``BlockEntityType.SKULL`` serves every head and skull; the player heads are what Castle sets)."""

LIGHT: Mapping[str, int] = {
    "minecraft:glowstone": 15,
    "minecraft:sea_lantern": 15,
    "minecraft:lantern": 15,
    "minecraft:campfire": 15,
    "minecraft:shroomlight": 15,
    "minecraft:jack_o_lantern": 15,
    "minecraft:torch": 14,
    "minecraft:wall_torch": 14,
    "minecraft:copper_torch": 14,
    "minecraft:copper_wall_torch": 14,
}
"""Blocks that emit light, with their level (the game's ``luminance`` of each block)."""

_NOT_SOLID = frozenset(
    {
        "minecraft:ladder",
        "minecraft:water",
        "minecraft:lava",
        "minecraft:campfire",
        "minecraft:structure_void",
        "minecraft:light",
        "minecraft:vine",
        "minecraft:fire",
    }
)
_NOT_SOLID_ENDINGS = ("_door", "torch", "_sign", "_banner", "_button", "_pressure_plate", "_sapling", "_carpet")
_TRANSPARENT = frozenset({"minecraft:glass", "minecraft:ladder", "minecraft:campfire", "minecraft:structure_void"})
_TRANSPARENT_ENDINGS = ("_door", "torch", "_stairs", "_slab", "_carpet", "_pane", "_fence", "lantern")


def block_id(state: str) -> str:
    """The block id of a state text: ``minecraft:oak_door[half=lower]`` → ``minecraft:oak_door``."""
    return state.split("[", 1)[0]


def state_text(block: str, states: Iterable[tuple[str, str]] = ()) -> str:
    """A block state as the model keeps it: ``minecraft:`` namespace, states sorted by name."""
    name = block if ":" in block else f"minecraft:{block}"
    pairs = sorted(states)
    return name + (f"[{','.join(f'{k}={v}' for k, v in pairs)}]" if pairs else "")


def _states(state: str) -> dict[str, str]:
    if "[" not in state:
        return {}
    inner = state.split("[", 1)[1].rstrip("]")
    return dict(pair.split("=", 1) for pair in inner.split(",") if pair)


def is_air(state: str) -> bool:
    """Whether a state is one of the airs (``air``, ``cave_air``, ``void_air``)."""
    return block_id(state) in _AIRS


def is_solid(state: str) -> bool:
    """Whether a player can stand on a block of this state (not air, no liquid, door, ladder, torch …)."""
    bid = block_id(state)
    return bid not in _AIRS and bid not in _NOT_SOLID and not bid.endswith(_NOT_SOLID_ENDINGS)


def _transparent(state: str) -> bool:
    bid = block_id(state)
    return bid in _AIRS or bid in _TRANSPARENT or bid.endswith(_TRANSPARENT_ENDINGS)


_BUILT_KEPT = 4
_BUILT: dict[tuple[Op, ...], tuple[dict[Pos, str], dict[Pos, dict[str, Any]]]] = {}
"""Build steps applied to an empty model → the blocks and block entities they gave (never handed out: copied)."""
_BUILT_LOCK = threading.Lock()  # sandboxes in several threads may build at once


class Blocks:
    """The blocks of the sandbox's world, sparse: only what is not air is kept. Not thread-safe."""

    def __init__(self) -> None:
        self._at: dict[Pos, str] = {}
        self._entities: dict[Pos, dict[str, Any]] = {}

    def __len__(self) -> int:
        """How many positions hold a block other than air."""
        return len(self._at)

    def items(self) -> Iterator[tuple[Pos, str]]:
        """Every non-air position and its state, in no particular order."""
        return iter(list(self._at.items()))

    def get(self, pos: Pos) -> str:
        """The state at ``pos`` (air where nothing was placed)."""
        return self._at.get(pos, AIR)

    def place(self, pos: Pos, state: str, data: Mapping[str, Any] | None = None) -> bool:
        """Place ``state`` at ``pos``; returns whether the block changed (as vanilla's ``setBlock``). The block
        entity of a block in ``BLOCK_ENTITIES`` is made afresh (``data``, plain Python, loaded into it); a block
        left unchanged keeps its block entity, and ``data`` is not applied (vanilla's ``setblock`` with the same
        state fails with "Could not set the block")."""
        old = self._at.get(pos, AIR)
        if old == state:
            return False
        self._entities.pop(pos, None)
        if is_air(state):
            self._at.pop(pos, None)
            return not is_air(old)
        self._at[pos] = state
        kind = BLOCK_ENTITIES.get(block_id(state))
        if kind is not None:
            x, y, z = pos
            self._entities[pos] = {**copy.deepcopy(dict(data or {})), "id": kind, "x": x, "y": y, "z": z}
        return True

    def entity(self, pos: Pos) -> dict[str, Any] | None:
        """The block entity data at ``pos`` (a copy, with vanilla's ``id``, ``x``, ``y``, ``z``), or ``None``
        where there is none the sandbox keeps."""
        data = self._entities.get(pos)
        return copy.deepcopy(data) if data is not None else None

    def matches(self, pos: Pos, block: str, states: Mapping[str, str]) -> bool:
        """``execute if block``: whether ``pos`` holds ``block`` (an id) with at least the given ``states``."""
        here = self.get(pos)
        if block_id(here) != block and not (block in _AIRS and is_air(here)):
            return False
        have = _states(here)
        return all(have.get(k) == v for k, v in states.items())

    def fill(self, where: Box, state: str, mode: str = "replace", only: str | None = None) -> int:
        """``fill``: set the box's blocks; returns how many changed.

        Args:
            where: the box (at most 32768 blocks; the command checks).
            state: the block state to place.
            mode: ``replace`` (or ``destroy``: the sandbox drops no items), ``keep`` (only where there is air),
                ``hollow`` (the outer layer, air inside), ``outline`` (the outer layer, the inside kept).
            only: with ``replace``, change only blocks of this id.
        """
        count = 0
        for pos in where.cells():
            edge = pos[0] in (where.x1, where.x2) or pos[1] in (where.y1, where.y2) or pos[2] in (where.z1, where.z2)
            here = self.get(pos)
            if mode == "keep" and not is_air(here):
                continue
            if only is not None and block_id(here) != only and not (only in _AIRS and is_air(here)):
                continue
            if mode == "outline" and not edge:
                continue
            count += self.place(pos, state if edge or mode != "hollow" else AIR)
        return count

    def apply(self, ops: Iterable[Op]) -> Blocks:
        """Set the blocks of build steps directly, as their ``fill``/``setblock`` commands would (no command runs,
        none is logged); returns this model.

        On an empty model the result depends on the steps alone, so the last few such results are kept and copied
        (each model gets its own copy): a copy of the demo castle costs a hundredth of building it again."""
        steps = tuple(ops)
        if self._at or self._entities:
            self._fill_all(steps)
            return self
        with _BUILT_LOCK:
            built = _BUILT.get(steps)
        if built is None:
            self._fill_all(steps)
            with _BUILT_LOCK:
                while len(_BUILT) >= _BUILT_KEPT:
                    del _BUILT[next(iter(_BUILT))]
                _BUILT[steps] = dict(self._at), copy.deepcopy(self._entities)
        else:
            self._at, self._entities = dict(built[0]), copy.deepcopy(built[1])
        return self

    def _fill_all(self, steps: tuple[Op, ...]) -> None:
        for op in steps:
            self.fill(op.box, op.block)

    def standable(self, x: float, y: float, z: float) -> bool:
        """Whether a player whose feet are at ``(x, y, z)`` stands: a solid block under the feet, air at the feet
        and at the head."""
        bx, by, bz = math.floor(x), math.floor(y), math.floor(z)
        return (
            is_solid(self.get((bx, by - 1, bz)))
            and is_air(self.get((bx, by, bz)))
            and is_air(self.get((bx, by + 1, bz)))
        )

    def air_reach(self, start: Pos, limit: int) -> set[Pos]:
        """The air positions reachable from ``start`` through air, face to face (doors, glass and every other
        block stop it), at most ``limit`` of them (a closed room holds fewer)."""
        seen = {start} if is_air(self.get(start)) else set()
        todo = deque(seen)
        while todo and len(seen) <= limit:
            x, y, z = todo.popleft()
            for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)):
                if n not in seen and is_air(self.get(n)):
                    seen.add(n)
                    todo.append(n)
        return seen

    def block_light(self, where: Box) -> dict[Pos, int]:
        """Block light in ``where`` (0..15) from every emitter within 15 blocks of it, spread through air and
        transparent blocks, one level less per block; positions with no light are left out."""
        reach = where.x1 - 15, where.y1 - 15, where.z1 - 15, where.x2 + 15, where.y2 + 15, where.z2 + 15
        zone = Box(*reach)
        level: dict[Pos, int] = {}
        todo: deque[Pos] = deque()
        for pos, state in self._at.items():
            emits = LIGHT.get(block_id(state), 0)
            if emits and pos in zone:
                level[pos] = emits
                todo.append(pos)
        while todo:
            pos = todo.popleft()
            x, y, z = pos
            lower = level[pos] - 1
            if lower <= 0:
                continue
            for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1), (x, y, z - 1)):
                if n in zone and level.get(n, 0) < lower and _transparent(self.get(n)):
                    level[n] = lower
                    todo.append(n)
        return {p: v for p, v in level.items() if p in where}
