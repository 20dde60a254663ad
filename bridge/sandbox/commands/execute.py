"""``execute`` chains: ``as``, ``on attacker``, ``if``/``unless`` (entity, score, items, data, block, loaded),
``store``, ``run``.

Vanilla facts kept: the reply is the feedback of the commands the chain ran, run together; a condition that ends
the chain says "Test passed" or "Test failed", one before ``run`` ends the command silently; ``as`` over several
entities runs the rest once per entity and sums the results.

The data pack's tick runs these chains hundreds of times per tick, so the running source is swapped with a
plain ``try``/``finally`` (a generator context manager costs about ten times as much here).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import nbtlib
from mecha import ast as mast

from bridge.sandbox import nbt
from bridge.sandbox.commands.args import coord, holders, rl, single_holder, src, targets
from bridge.sandbox.commands.blocks import block_condition
from bridge.sandbox.commands.items import predicate, slot_stacks
from bridge.sandbox.commands.scoreboard import objective
from bridge.sandbox.model import Source
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["execute"]

_Step = Callable[[WorldState, list[str], list[Any], str, Source], int]

_NUMERIC = {
    "byte": nbtlib.Byte,
    "short": nbtlib.Short,
    "int": nbtlib.Int,
    "long": nbtlib.Long,
    "float": nbtlib.Float,
    "double": nbtlib.Double,
}


def execute(world: WorldState, _parts: list[str], args: list[Any], text: str) -> str:
    """``execute …``: the reply is what the commands it ran said (vanilla sends their feedback to the
    source, e.g. ``execute unless items … run give`` answers "Gave 1 [...] to Kai"), run together."""
    outer, world.outputs = world.outputs, []
    try:
        world.result = chain(world, args[0], text, world.source)
        return "".join(world.outputs)
    finally:
        world.outputs = outer


def chain(world: WorldState, node: Any, text: str, source: Source) -> int:
    """Run one ``execute`` sub-command chain as ``source``; returns the result (summed over branches).

    Raises:
        CommandFailure: a condition failed, or every branch failed (vanilla: "Test failed" / no output).
        Unsupported: a sub-command the sandbox does not model.
    """
    parts = node.identifier.split(":")
    step = _STEPS.get(parts[1])
    if step is None or (parts[1] == "on" and parts[2] != "attacker"):
        raise Unsupported(f"execute {parts[1]}")
    return step(world, parts, list(node.arguments), text, source)


def _run(world: WorldState, _parts: list[str], args: list[Any], text: str, source: Source) -> int:
    return world.run_node(args[0], text, source)


def _as(world: WorldState, _parts: list[str], args: list[Any], text: str, source: Source) -> int:
    prev, world.source = world.source, source  # the sub-command's selectors see the chain's source as @s
    try:
        entities = targets(world, args[0], required=False)
    finally:
        world.source = prev
    total, ok = 0, 0
    for entity in entities:
        try:
            total += chain(world, args[1], text, Source(entity))
            ok += 1
        except CommandFailure:
            continue
    if not ok:
        raise CommandFailure("")
    return total


def _if(world: WorldState, parts: list[str], args: list[Any], text: str, source: Source) -> int:
    """``if``/``unless``; with a ``subcommand`` after it the chain goes on, else it ends with result 1."""
    chained = parts[-1] == "subcommand"
    cond = args[:-1] if chained else args
    prev, world.source = world.source, source
    try:
        passed = _condition(world, parts[2:-1] if chained else parts[2:], cond, text)
    finally:
        world.source = prev
    if parts[1] == "unless":
        passed = not passed
    if not passed:
        raise CommandFailure("" if chained else "Test failed")
    if not chained:
        if world.outputs is not None:
            world.outputs.append("Test passed")
        return 1
    return chain(world, args[-1], text, source)


def _on(world: WorldState, _parts: list[str], args: list[Any], text: str, source: Source) -> int:
    """``on attacker``: the last entity that hurt the source (vanilla: within the last 5 seconds); none: the
    branch fails."""
    hurt = source.entity
    attacker = world.players.get(hurt.attacker) if hurt is not None and hurt.attacker else None
    if attacker is None:
        raise CommandFailure("")
    return chain(world, args[0], text, Source(attacker))


def _score_matches(world: WorldState, args: list[Any]) -> bool:
    holder = single_holder(holders(world, args[0]))
    score = world.scores.get(holder, {}).get(objective(world, args[1]).name)
    rng = args[2]
    if score is None:
        return False
    lo = getattr(rng, "min", None) if not isinstance(rng, mast.AstNumber) else rng.value
    hi = getattr(rng, "max", None) if not isinstance(rng, mast.AstNumber) else rng.value
    return (lo is None or score >= lo) and (hi is None or score <= hi)


def _items_entity(world: WorldState, args: list[Any]) -> bool:
    """``if items entity <targets> <slots> <predicate>`` (docs/minecraft.md#commands-and-text): true when a
    matching stack is there."""
    found = targets(world, args[0], required=False)
    if not found:
        raise CommandFailure("No entity was found")
    pred = predicate(args[2])
    return any(pred(st) for p in found for st in slot_stacks(p, str(args[1].value)))


def _condition(world: WorldState, parts: list[str], args: list[Any], text: str) -> bool:
    what = parts[0]
    if what == "entity":
        return bool(targets(world, args[0], required=False))
    if what == "score" and parts[3:4] == ["matches"]:
        return _score_matches(world, args)
    if what == "items" and parts[1] == "entity":
        return _items_entity(world, args)
    if what == "block":
        return block_condition(world, args)
    if what == "loaded":  # the chunk of the position (bridge.sandbox.chunks)
        x, z = coord(args[0].x, world.spawn[0]), coord(args[0].z, world.spawn[2])
        return world.loaded(x, z)
    if what == "data" and parts[1] == "storage":
        root = world.storage.get(rl(args[0]))
        if root is None:
            return False
        return bool(nbt.get(root, nbt.path_from_ast(args[1], src(args[1], text))))
    raise Unsupported("execute if " + " ".join(p for p in parts if p))


def _store(world: WorldState, parts: list[str], args: list[Any], text: str, source: Source) -> int:
    """``store result|success storage <id> <path> <type> <scale>`` / ``… score <holders> <objective>``: the
    value is stored even when the rest of the chain fails (as 0), and the failure still ends the branch."""
    mode, where = parts[2], parts[3]
    try:
        value, failed = chain(world, args[-1], text, source), False
    except CommandFailure:
        value, failed = 0, True
    stored = value if mode == "result" else (0 if failed else 1)
    world.writes += 1  # stored even when the chain failed
    if where == "storage":
        _store_storage(world, parts, args, text, stored)
    elif where == "score":
        prev, world.source = world.source, source
        try:
            names = holders(world, args[0])
        finally:
            world.source = prev
        obj = objective(world, args[1])
        for h in names:
            world.scores.setdefault(h, {})[obj.name] = stored
    else:
        raise Unsupported(f"execute store {mode} {where}")
    if failed:
        raise CommandFailure("")
    return value


def _store_storage(world: WorldState, parts: list[str], args: list[Any], text: str, stored: int) -> None:
    sid = rl(args[0])
    path = nbt.path_from_ast(args[1], src(args[1], text))
    kind = parts[6]
    scale = float(args[2].value)
    make = _NUMERIC.get(kind)
    if make is None:
        raise Unsupported(f"execute store … {kind}")
    number = stored * scale
    tag = make(number if kind in ("float", "double") else int(math.floor(number)))
    root = world.storage.setdefault(sid, nbtlib.Compound())
    nbt.set_value(root, path, tag)


_STEPS: dict[str, _Step] = {
    "run": _run,
    "as": _as,
    "if": _if,
    "unless": _if,
    "store": _store,
    "on": _on,
}
