"""Where players are and what state the world is in: ``tp``, ``gamemode``, ``gamerule``, and the blocks
Castle sets down during a series (``setblock``, the player heads of the breakfast table; ``fill … replace`` to take
them away again; ``docs/minecraft.md#commands-and-text``).
"""

from __future__ import annotations

import math
import re

from bridge.minecraft.core import McCommand, checked_command, player_name, resource_id, targets
from bridge.minecraft.snbt import snbt

_GAMERULE_RE = re.compile(r"[a-z][a-z0-9_]*")

GAMEMODES: frozenset[str] = frozenset({"survival", "creative", "adventure", "spectator"})


def _coord(v: float) -> str:
    """A coordinate/angle with a decimal point: ``64`` → ``64.0`` (an integer would be block-centred by tp)."""
    f = float(v)
    if not math.isfinite(f):
        raise ValueError(f"coordinate must be finite: {v!r}")
    s = f"{f:.4f}".rstrip("0")
    if s.endswith("."):
        s += "0"
    return "0.0" if s in ("-0.0", "0.0") else s


def teleport(name: str, x: float, y: float, z: float, yaw: float = 0.0, pitch: float = 0.0) -> McCommand:
    """``tp <name> x y z yaw pitch`` (absolute world coordinates in blocks; yaw/pitch in degrees,
    ``docs/minecraft.md#commands-and-text``).

    Coordinates are always written with a decimal point so vanilla does not centre them on the block.

    Raises:
        ValueError: a bad name, non-finite numbers or a pitch outside -90..90.
    """
    n = player_name(name)
    if not -90.0 <= float(pitch) <= 90.0:
        raise ValueError(f"pitch must be within -90..90 degrees: {pitch!r}")
    return checked_command(f"tp {n} {_coord(x)} {_coord(y)} {_coord(z)} {_coord(yaw)} {_coord(pitch)}")


def gamemode(mode: str, to: str) -> McCommand:
    """``gamemode <mode> <to>``; ``mode`` is survival, creative, adventure or spectator.

    Raises:
        ValueError: unknown mode or bad target.
    """
    if mode not in GAMEMODES:
        raise ValueError(f"unknown game mode: {mode!r}")
    return checked_command(f"gamemode {mode} {targets(to)}")


def gamerule(name: str, value: bool | int) -> McCommand:
    """``gamerule <name> <value>`` with 1.21.11 snake_case names (``docs/minecraft.md#commands-and-text``), e.g.
    ``send_command_feedback``.

    Raises:
        ValueError: a name not in snake_case.
    """
    if not _GAMERULE_RE.fullmatch(name):
        raise ValueError(f"game rule names are snake_case since 1.21.11: {name!r}")
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = str(value)
    else:
        raise ValueError(f"game rule value must be a bool or an int: {value!r}")
    return checked_command(f"gamerule {name} {text}")


PLAYER_HEAD = "minecraft:player_head"
"""The block of a player head standing on a block (on a wall it would be ``player_wall_head``)."""


def head_rotation(yaw: float) -> int:
    """The ``rotation`` block state (0..15) of a head whose face looks the way ``yaw`` does: 16 steps of 22.5°,
    0 south, 4 west, 8 north, 12 east, the same turn as a player's yaw (minecraft.wiki, "Head", block states).

    Raises:
        ValueError: a yaw that is not finite.
    """
    if not math.isfinite(yaw):
        raise ValueError(f"yaw must be finite: {yaw!r}")
    return round(yaw / 22.5) % 16


def head_block(name: str, yaw: float) -> str:
    """A player head of player ``name`` as a block argument: ``minecraft:player_head[rotation=N]{profile:{name:
    "<name>"}}`` (the head block entity's ``profile`` names its player; the server looks the skin up by name,
    minecraft.wiki, "Head", block data; the same form from 1.21.11 to 26.3).

    Raises:
        ValueError: a bad player name or yaw.
    """
    return f"{PLAYER_HEAD}[rotation={head_rotation(yaw)}]{snbt({'profile': {'name': player_name(name)}})}"


def _block_xyz(x: float, y: float, z: float) -> str:
    for v in (x, y, z):
        if not math.isfinite(v):
            raise ValueError(f"coordinate must be finite: {v!r}")
    return f"{math.floor(x)} {math.floor(y)} {math.floor(z)}"


def setblock(x: float, y: float, z: float, block: str) -> McCommand:
    """``setblock X Y Z <block>`` at the block holding ``(x, y, z)`` (coordinates in blocks, floored); vanilla
    answers "Changed the block at X, Y, Z", or "Could not set the block" when the block is that already.

    Raises:
        ValueError: non-finite coordinates, or a command over the RCON limit.
    """
    return checked_command(f"setblock {_block_xyz(x, y, z)} {block}")


def clear_block(x: float, y: float, z: float, only: str) -> McCommand:
    """``fill X Y Z X Y Z minecraft:air replace <only>``: the block holding ``(x, y, z)`` becomes air if it is
    ``only`` (any block states), and anything else there is left alone; vanilla answers "Successfully filled 1
    block(s)", or "No blocks were filled".

    Raises:
        ValueError: non-finite coordinates or a bad block id.
    """
    resource_id(only, "block")
    at = _block_xyz(x, y, z)
    return checked_command(f"fill {at} {at} minecraft:air replace {only}")
