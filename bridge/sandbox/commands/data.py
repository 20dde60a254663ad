"""``data get|merge|remove|modify`` on command storage, and ``data get entity`` and ``data get block`` (vanilla
en_us replies).

A storage in ``WorldState.computed_storage`` is recomputed each time ``data get`` reads it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import nbtlib

from bridge.sandbox import nbt
from bridge.sandbox.commands.args import rl, src, targets
from bridge.sandbox.commands.blocks import block_pos
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["data", "data_source"]

_Modify = Callable[[Any, nbt.NbtPath, list[Any], Any], int]


def data_source(world: WorldState, parts: list[str], args: list[Any], text: str) -> Any:
    """The value of ``storage <id> [path]`` / ``entity <target> [path]`` (``parts[0]`` names which; one
    match only), copied.

    Raises:
        CommandFailure: no such entity, several entities, no element matches. Unsupported: another source,
            or a path matching several elements.
    """
    if parts[0] == "storage":
        root: Any = world.storage.get(rl(args[0]), nbtlib.Compound())
    elif parts[0] == "entity":
        found = targets(world, args[0])
        if len(found) != 1:
            raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
        root = found[0].nbt()
    else:
        raise Unsupported(f"data modify … from {parts[0]}")
    if len(args) < 2:
        return copy.deepcopy(root)
    values = nbt.get(root, nbt.path_from_ast(args[1], src(args[1], text)))
    if not values:
        raise CommandFailure(f"Found no elements matching {src(args[1], text)}")
    if len(values) > 1:
        raise Unsupported("data modify … from a path matching several elements")
    return copy.deepcopy(values[0])


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, str)


def _get_storage(world: WorldState, sid: str, args: list[Any], text: str) -> str:
    """``data get storage <id> [<path> [<scale>]]``: the result is the number (scaled, floored), or the length
    of a list, compound or string."""
    root = world.storage.get(sid)
    if root is None:
        root = nbtlib.Compound()
    if len(args) == 1:
        return f"Storage {sid} has the following contents: {nbt.serialize(root)}"
    path = nbt.path_from_ast(args[1], src(args[1], text))
    values = nbt.get(root, path)
    if not values:
        raise CommandFailure(f"Found no elements matching {path.text}")
    if len(values) > 1:
        raise CommandFailure("This argument accepts a single NBT value")
    value = values[0]
    if len(args) > 2:
        if not _numeric(value):
            raise CommandFailure(f"Can't get {path.text}; only numeric tags are allowed")
        scale = float(args[2].value)
        world.result = math.floor(float(value) * scale)
        return f"{path.text} in storage {sid} after scale factor of {scale:.2f} is {world.result}"
    if _numeric(value):
        world.result = math.floor(float(value))
    elif isinstance(value, (list, dict, str)):
        world.result = len(value)
    return f"Storage {sid} has the following contents: {nbt.serialize(value)}"


def _merge(_world: WorldState, root: Any, _parts: list[str], args: list[Any], _text: str) -> int:
    return nbt.merge(root, nbt.NbtPath((), ""), args[1].evaluate())


def _remove(_world: WorldState, root: Any, _parts: list[str], args: list[Any], text: str) -> int:
    path = nbt.path_from_ast(args[1], src(args[1], text))
    if not nbt.get(root, path):
        raise CommandFailure(f"Found no elements matching {path.text}")
    return nbt.remove(root, path)


def _set(root: Any, path: nbt.NbtPath, _args: list[Any], value: Any) -> int:
    return nbt.set_value(root, path, value)


def _append(root: Any, path: nbt.NbtPath, _args: list[Any], value: Any) -> int:
    return nbt.insert(root, path, -1, value)


def _prepend(root: Any, path: nbt.NbtPath, _args: list[Any], value: Any) -> int:
    return nbt.insert(root, path, 0, value)


def _insert(root: Any, path: nbt.NbtPath, args: list[Any], value: Any) -> int:
    return nbt.insert(root, path, int(args[2].value), value)


def _merge_at(root: Any, path: nbt.NbtPath, _args: list[Any], value: Any) -> int:
    return nbt.merge(root, path, value)


_MODIFY: dict[str, _Modify] = {
    "set": _set,
    "append": _append,
    "prepend": _prepend,
    "insert": _insert,
    "merge": _merge_at,
}


def _modify(world: WorldState, root: Any, parts: list[str], args: list[Any], text: str) -> int:
    """``data modify storage <id> <path> set|append|prepend|insert <i>|merge value <v> | from …``."""
    path = nbt.path_from_ast(args[1], src(args[1], text))
    op = parts[5]
    if parts[-2:] == ["value", "value"]:
        value = args[-1].evaluate()
    elif "from" in parts:
        value = data_source(world, parts[parts.index("from") + 1 :], args[3 if op == "insert" else 2 :], text)
    else:
        raise Unsupported(f"data modify {op} {parts[6]}")
    change = _MODIFY.get(op)
    if change is None:
        raise Unsupported(f"data modify {op}")
    try:
        return change(root, path, args, value)
    except (ValueError, TypeError) as exc:
        raise CommandFailure(f"Invalid NBT operation: {exc}") from None


_CHANGES: dict[str, Callable[[WorldState, Any, list[str], list[Any], str], int]] = {
    "merge": _merge,
    "remove": _remove,
    "modify": _modify,
}


def _get_block(world: WorldState, args: list[Any], text: str) -> str:
    """``data get block <pos> [<path>]``: "X, Y, Z has the following block data: {…}" (a head's; see
    ``bridge.sandbox.blocks``), or "The target block is not a block entity"."""
    pos = block_pos(world, args[0])
    found = world.blocks.entity(pos)
    if found is None:
        raise CommandFailure("The target block is not a block entity")
    value: Any = nbt.from_python(found)
    if len(args) > 1:
        values = nbt.get(value, nbt.path_from_ast(args[1], src(args[1], text)))
        if not values:
            raise CommandFailure(f"Found no elements matching {src(args[1], text)}")
        value = values[0]
    x, y, z = pos
    return f"{x}, {y}, {z} has the following block data: {nbt.serialize(value)}"


def data(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
    """``data get entity|block … [path]``, ``data get storage …`` and ``data merge|remove|modify storage …``.

    Raises:
        CommandFailure: vanilla failures, e.g. "Nothing changed. The specified properties already have these
            values". Unsupported: changing blocks and entities.
    """
    action = parts[1]
    if action == "get" and parts[2] == "block":
        return _get_block(world, args, text)
    if action == "get" and parts[2] == "entity":
        value = data_source(world, ["entity"], args, text)
        name = targets(world, args[0])[0].name
        return f"{name} has the following entity data: {nbt.serialize(value)}"
    if parts[2] != "storage":
        raise Unsupported(f"data {action} {parts[2]}")
    sid = rl(args[0])
    if action == "get":
        if sid in world.computed_storage:
            if world.ticking:  # its contents move without a command: a tick that read it may differ next time
                world.writes += 1
            world.storage[sid] = nbt.from_python(world.computed_storage[sid]())
        return _get_storage(world, sid, args, text)
    root = world.storage.get(sid)
    if root is None:
        root = world.storage[sid] = nbtlib.Compound()
    change = _CHANGES.get(action)
    if change is None:
        raise Unsupported(f"data {action}")
    if not change(world, root, parts, args, text):
        raise CommandFailure("Nothing changed. The specified properties already have these values")
    return f"Modified storage {sid}"
