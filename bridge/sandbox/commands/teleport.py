"""``tp`` / ``teleport``: players to a player, or to a position with an optional rotation or facing point.

A teleport to a position that is not standable on the sandbox's blocks (``bridge.sandbox.blocks``: a solid block
under the feet, air at the feet and head) is recorded in ``world.bad_landings``; vanilla teleports there anyway.
"""

from __future__ import annotations

import math
from typing import Any

from bridge.sandbox.commands.args import coord, targets, vec3, who
from bridge.sandbox.model import Player
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["tp"]

EYE_HEIGHT = 1.62
"""A standing player's eye height in blocks (``facing`` aims from the eyes)."""


def _to_player(world: WorldState, moved: list[Player], args: list[Any]) -> str:
    dest = targets(world, args[1])
    if len(dest) > 1:
        raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
    d = dest[0]
    for p in moved:
        p.pos, p.yaw, p.pitch = d.pos, d.yaw, d.pitch
    return f"Teleported {who([p.name for p in moved], 'entities')} to {d.name}"


def _face(moved: list[Player], point: tuple[float, float, float]) -> None:
    fx, fy, fz = point
    for p in moved:
        dx, dy, dz = fx - p.pos[0], fy - (p.pos[1] + EYE_HEIGHT), fz - p.pos[2]
        p.yaw = math.degrees(math.atan2(dz, dx)) - 90.0
        p.pitch = -math.degrees(math.atan2(dy, math.hypot(dx, dz)))


def tp(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``tp <targets> <destination>``, ``tp <targets> <location> [<rotation> | facing <location>]`` (vanilla
    replies "Teleported Alice to 0.500000, 64.000000, 0.500000"). The console cannot teleport itself."""
    shape = parts[1:]
    if shape[0] != "targets":
        raise CommandFailure(
            "An entity is required to run this command here" if shape[0] == "location" else "No entity was found"
        )
    moved = targets(world, args[0])
    if shape[1] == "destination":
        return _to_player(world, moved, args)
    pos = vec3(world, args[1])
    for p in moved:
        p.pos = pos
    if not world.blocks.standable(*pos):
        world.bad_landings.extend((p.name, pos) for p in moved)
    if shape[2:] == ["rotation"]:
        rot = args[2]
        for p in moved:
            p.yaw = coord(rot.x, p.yaw)
            p.pitch = coord(rot.y, p.pitch)
    elif shape[2:] == ["facing", "facingLocation"]:
        _face(moved, vec3(world, args[2]))
    elif shape[2:]:
        raise Unsupported("tp " + " ".join(shape[2:]))
    x, y, z = pos
    return f"Teleported {who([p.name for p in moved], 'entities')} to {x:f}, {y:f}, {z:f}"
