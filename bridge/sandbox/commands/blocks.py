"""``fill``, ``setblock`` and ``forceload`` on the sandbox's block model (``bridge.sandbox.blocks``), and the
``execute if|unless block`` condition.

Vanilla facts kept (en_us texts): "Successfully filled N block(s)" / "No blocks were filled"; "Too many blocks in
the specified area (maximum 32768, specified N)" (the game rule ``max_block_modifications``); "Changed the block at X, Y, Z" / "Could not set the block";
"That position is out of this world!" outside the build height (-64..319); "That position is not loaded" in a
chunk that is not loaded (``bridge.sandbox.chunks``: forced, or near an online player). ``forceload add|remove``
marks chunks ("Marked chunk [x, z] in minecraft:overworld to be force loaded", "Marked N chunks in … from [x1,
z1] to [x2, z2] …"; "No chunks were marked for force loading" / "No chunks were removed from force loading" when
nothing changed).
"""

from __future__ import annotations

import math
from typing import Any

from mecha import ast as mast

from bridge.minecraft.castle.geometry import FILL_LIMIT, Pos, box
from bridge.sandbox import nbt
from bridge.sandbox.blocks import BUILD_BOTTOM, BUILD_TOP, state_text
from bridge.sandbox.commands.args import coord, rl
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["block_condition", "block_data", "block_pos", "fill", "forceload", "setblock"]

_FILL_MODES = frozenset({"replace", "keep", "hollow", "outline", "destroy"})


def block_pos(world: WorldState, v: mast.AstVector3) -> Pos:
    """A loaded block position argument (relative coordinates from the console's position, the world spawn), as
    vanilla's ``BlockPosArgument.getLoadedBlockPos``: the chunk is checked first, then the height.

    Raises:
        CommandFailure: in a chunk that is not loaded, or outside the build height.
    """
    sx, sy, sz = world.spawn
    pos = (math.floor(coord(v.x, sx)), math.floor(coord(v.y, sy)), math.floor(coord(v.z, sz)))
    if not world.loaded(pos[0], pos[2]):
        raise CommandFailure("That position is not loaded")
    if not BUILD_BOTTOM <= pos[1] <= BUILD_TOP:
        raise CommandFailure("That position is out of this world!")
    return pos


def block_state(node: mast.AstBlock) -> tuple[str, dict[str, str]]:
    """A block argument as its id and states (its block entity data: ``block_data``).

    Raises:
        Unsupported: a block tag (``#minecraft:…``).
    """
    if node.identifier.is_tag:
        raise Unsupported("block tags")
    states = {str(s.key.value): str(getattr(s.value, "value", s.value)) for s in node.block_states}
    return rl(node.identifier), states


def block_data(node: mast.AstBlock) -> dict[str, Any] | None:
    """A block argument's block entity data (``{…}`` after the states) as plain Python, or ``None``."""
    tags = getattr(node, "data_tags", None)
    return nbt.to_python(tags.evaluate()) if tags is not None else None


def fill(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``fill <from> <to> <block> [replace [<filter>] | keep | hollow | outline | destroy]``."""
    a, b = block_pos(world, args[0]), block_pos(world, args[1])
    where = box(*a, *b)
    limit = int(world.gamerules.get("max_block_modifications", FILL_LIMIT))
    if where.volume > limit:
        raise CommandFailure(f"Too many blocks in the specified area (maximum {limit}, specified {where.volume})")
    bid, states = block_state(args[2])
    mode = parts[4] if len(parts) > 4 else "replace"
    if mode not in _FILL_MODES:
        raise Unsupported(f"fill … {mode}")
    only = None
    if len(args) > 3:
        only, only_states = block_state(args[3])
        if only_states:
            raise Unsupported("fill … replace with a filter's block states")
    count = world.blocks.fill(where, state_text(bid, states.items()), mode, only)
    if not count:
        raise CommandFailure("No blocks were filled")
    world.result = count
    return f"Successfully filled {count} block(s)"


def setblock(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``setblock <pos> <block> [replace | keep | destroy]``; a head's block entity data (``{profile:…}``) is kept
    with it (``bridge.sandbox.blocks.BLOCK_ENTITIES``)."""
    pos = block_pos(world, args[0])
    bid, states = block_state(args[1])
    mode = parts[3] if len(parts) > 3 else "replace"
    if mode == "keep" and world.blocks.get(pos) != "minecraft:air":
        raise CommandFailure("Could not set the block")
    if not world.blocks.place(pos, state_text(bid, states.items()), block_data(args[1])):
        raise CommandFailure("Could not set the block")
    return f"Changed the block at {pos[0]}, {pos[1]}, {pos[2]}"


def forceload(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``forceload add|remove <from> [<to>]`` (at most 256 chunks per command): marks or unmarks the chunks
    (``world.chunks.forced``); vanilla's replies, and its failure when no chunk changed."""
    if parts[1] not in ("add", "remove") or len(args) not in (1, 2):
        raise Unsupported("forceload " + " ".join(parts[1:]))
    corners = [(math.floor(coord(v.x, 0.0)) >> 4, math.floor(coord(v.y, 0.0)) >> 4) for v in args]
    (x1, z1), (x2, z2) = min(corners), max(corners)
    x1, x2, z1, z2 = min(x1, x2), max(x1, x2), min(z1, z2), max(z1, z2)
    count = (x2 - x1 + 1) * (z2 - z1 + 1)
    if count > 256:
        raise CommandFailure(f"Too many chunks in the specified area (maximum 256, specified {count})")
    area = {(x, z) for x in range(x1, x2 + 1) for z in range(z1, z2 + 1)}
    forced = world.chunks.forced
    changed = area - forced if parts[1] == "add" else area & forced
    if not changed:
        raise CommandFailure(
            "No chunks were marked for force loading"
            if parts[1] == "add"
            else "No chunks were removed from force loading"
        )
    if parts[1] == "add":
        forced |= changed
    else:
        forced -= changed
    world.result = len(changed)
    if len(changed) == 1:
        [(cx, cz)] = changed
        return (
            f"Marked chunk [{cx}, {cz}] in minecraft:overworld to be force loaded"
            if parts[1] == "add"
            else f"Unmarked chunk [{cx}, {cz}] in minecraft:overworld for force loading"
        )
    where = f"{len(changed)} chunks in minecraft:overworld from [{x1}, {z1}] to [{x2}, {z2}]"
    return f"Marked {where} to be force loaded" if parts[1] == "add" else f"Unmarked {where} for force loading"


def block_condition(world: WorldState, args: list[Any]) -> bool:
    """``execute if block <pos> <block>``: whether the block there is that block with those states."""
    pos = block_pos(world, args[0])
    bid, states = block_state(args[1])
    return world.blocks.matches(pos, bid, states)
