"""``function`` (with macro arguments from SNBT or storage, or a function tag) and ``return``."""

from __future__ import annotations

from typing import Any

import nbtlib

from bridge.sandbox import nbt
from bridge.sandbox.commands.args import rl, src
from bridge.sandbox.state import CommandFailure, Return, Unsupported, WorldState

__all__ = ["function", "return_"]


def _macro_args(world: WorldState, parts: list[str], args: list[Any], text: str) -> nbtlib.Compound | None:
    """The macro arguments: ``function <id> <compound>``, ``function <id> with storage <id> [<path>]``."""
    if parts[2:3] == ["arguments"]:
        return args[1].evaluate()
    if parts[2:3] != ["with"]:
        return None
    if parts[3] != "storage":
        raise Unsupported(f"function … with {parts[3]}")
    root = world.storage.get(rl(args[1]), nbtlib.Compound())
    if len(args) <= 2:
        return root
    found = nbt.get(root, nbt.path_from_ast(args[2], src(args[2], text)))
    if len(found) != 1 or not isinstance(found[0], dict):
        raise CommandFailure("Expected compound tag as macro function argument")
    return found[0]


def function(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
    """``function <id>|#<tag> [<arguments> | with storage …]``; a ``return`` value becomes the result
    (vanilla replies "Executed function 'x'", "Function 'x' returned 3")."""
    node = args[0]
    fargs = _macro_args(world, parts, args, text)
    fid = rl(node)
    if getattr(node, "is_tag", False):
        fids = world.datapack.tag(fid) if world.datapack is not None else []
        if not fids:
            raise CommandFailure(f"Unknown function tag '#{fid}'")
    else:
        fids = [fid]
    value: int | None = None
    for f in fids:
        value = world.run_function(f, world.source, fargs)
    if value is not None:
        world.result = value
        return f"Function '{fid}' returned {value}"
    return f"Executed {len(fids)} function(s) from '{fid}'" if len(fids) > 1 else f"Executed function '{fid}'"


def return_(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
    """``return fail``, ``return value <n>``, ``return run <command>`` (its result, or fail): ends the function.

    Raises:
        Return: always.
    """
    if parts[1] == "fail":
        raise Return(None)
    if parts[1] == "value":
        raise Return(int(args[0].value))
    try:
        value = world.run_node(args[0], text, world.source)
    except CommandFailure:
        raise Return(None) from None
    raise Return(value)
