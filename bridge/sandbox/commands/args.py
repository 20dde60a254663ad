"""Reading command arguments as the sandbox world sees them: selectors, score holders, coordinates, text.

Vanilla facts: an empty target selection fails with "No player was found"; ``@s`` at the console selects nobody
(``docs/minecraft.md#rcon``); a player name is matched without regard to case; integer x/z block positions are
centred.
"""

from __future__ import annotations

import math
import random
from typing import Any

from mecha import ast as mast

from bridge.sandbox import nbt
from bridge.sandbox.model import Player
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = [
    "component",
    "coord",
    "holders",
    "plain",
    "rl",
    "select",
    "single_holder",
    "src",
    "targets",
    "ticks",
    "vec3",
    "who",
]

_LIMIT_ONE = frozenset({"p", "r", "n"})
_DEFAULT_SORT = {"p": "nearest", "n": "nearest", "r": "random"}
_TIME_UNITS = {"tick": 1, "t": 1, "s": 20, "second": 20, "d": 24000, "day": 24000}


def rl(node: Any) -> str:
    """A resource location node as ``namespace:path`` (default namespace ``minecraft``)."""
    return f"{node.namespace or 'minecraft'}:{node.path}"


def src(node: Any, text: str) -> str:
    """The source text of an argument node within the command ``text``."""
    return text[node.location.pos : node.end_location.pos]


def plain(node: Any) -> str:
    """A resource location as ``namespace:path``; another node as its value's text."""
    if isinstance(node, mast.AstResourceLocation):
        return rl(node)
    return str(getattr(node, "value", node))


def component(node: Any) -> Any:
    """A text component argument as plain Python (SNBT or JSON parsed)."""
    return nbt.to_python(node.evaluate())


def who(names: list[str], plural: str = "players") -> str:
    """Vanilla's "one name, or a count" in replies: ``"Alice"`` or ``"3 players"``."""
    return names[0] if len(names) == 1 else f"{len(names)} {plural}"


def ticks(node: Any) -> int:
    """A time argument in ticks (``20`` / ``1s`` / ``1d``: 1, 20 and 24000 ticks per unit)."""
    factor = _TIME_UNITS.get(str(getattr(node, "unit", "tick")), 1)
    return int(node.value * factor)


def targets(world: WorldState, node: Any, *, required: bool = True) -> list[Player]:
    """Players a target argument selects.

    Raises:
        CommandFailure: none selected and ``required`` ("No player was found").
        Unsupported: a target kind the sandbox does not model.
    """
    if isinstance(node, mast.AstPlayerName):
        p = world.online(str(node.value))
        found = [p] if p is not None else []
    elif isinstance(node, mast.AstSelector):
        found = select(world, node)
    else:
        raise Unsupported(f"target {type(node).__name__}")
    if required and not found:
        raise CommandFailure("No player was found")
    return found


def _keeps(p: Player, key: str, value: Any) -> bool:
    """Whether player ``p`` passes the (not inverted) filter argument ``key=value``."""
    if key == "tag":
        tag = str(getattr(value, "value", "") or "")
        return tag in p.tags if tag else not p.tags
    if key == "name":
        return p.name == str(value.value)
    return p.gamemode == str(value.value)


def select(world: WorldState, sel: mast.AstSelector) -> list[Player]:
    """Players an entity selector (``@a``, ``@p``, ``@r``, ``@e``, ``@n``, ``@s``) selects, filtered by
    ``tag``, ``name``, ``gamemode`` and ``type=player``, sorted, then limited.

    Raises:
        Unsupported: another selector variable or argument.
    """
    var = sel.variable
    if var not in ("a", "p", "r", "e", "n", "s"):
        raise Unsupported(f"selector @{var}")
    if var == "s":  # the console has no entity (docs/minecraft.md#rcon); a player source is @s
        entity = world.source.entity
        found = [entity] if entity is not None and entity.name in world.players else []
    else:
        found = list(world.players.values())
    limit: int | None = 1 if var in _LIMIT_ONE else None
    sort = _DEFAULT_SORT.get(var, "arbitrary")
    for arg in sel.arguments:
        key = str(arg.key.value)
        value: Any = arg.value
        if key in ("tag", "name", "gamemode"):
            found = [p for p in found if _keeps(p, key, value) != arg.inverted]
        elif key == "limit":
            limit = int(value.value)
        elif key == "sort":
            sort = str(value.value)
        elif key == "type" and plain(value).removeprefix("minecraft:") == "player" and not arg.inverted:
            pass
        else:
            raise Unsupported(f"selector argument {key}")
    if sort == "nearest":
        found.sort(key=lambda p: math.dist(p.pos, world.spawn))
    elif sort == "furthest":
        found.sort(key=lambda p: -math.dist(p.pos, world.spawn))
    elif sort == "random":
        random.shuffle(found)
    if limit is not None:
        found = found[:limit]
    return found


def holders(world: WorldState, node: Any) -> list[str]:
    """Score holders: online players from a selector, any name from a plain name, ``*`` = all holders."""
    if isinstance(node, mast.AstWildcard):
        return sorted(world.scores)
    if isinstance(node, mast.AstPlayerName):
        p = world.online(str(node.value))
        return [p.name if p is not None else str(node.value)]
    return [p.name for p in targets(world, node)]


def single_holder(names: list[str]) -> str:
    """The one holder of ``names``.

    Raises:
        CommandFailure: more than one (vanilla's "Only one entity is allowed …").
    """
    if len(names) != 1:
        raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
    return names[0]


def coord(c: mast.AstCoordinate, base: float, centre: bool = False) -> float:
    """One coordinate: absolute, or relative (``~``) to ``base``; ``centre`` centres an integer x/z.

    Raises:
        Unsupported: local (``^``) coordinates.
    """
    if c.type == "local":
        raise Unsupported("local (^) coordinates")
    value = float(c.value)
    if c.type == "relative":
        return base + value
    if centre and isinstance(c.value, int):
        return value + 0.5  # vanilla centres integer x/z of block positions
    return value


def vec3(world: WorldState, v: mast.AstVector3) -> tuple[float, float, float]:
    """A position argument in blocks; relative coordinates are taken from the world spawn (the console's)."""
    sx, sy, sz = world.spawn
    return (coord(v.x, sx, True), coord(v.y, sy), coord(v.z, sz, True))
