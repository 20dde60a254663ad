"""``data get entity <player> Pos`` and ``… Rotation`` on the sandbox: where a player stands and faces, as vanilla
answers it (``Alice has the following entity data: [0.5d, 64.0d, 0.5d]``; ``[0.0f, 0.0f]``).

``traitors rehearse`` reads them to put a player back where they stood after its teleport check. The sandbox's
entity data (``bridge.sandbox.model.Player.nbt``) holds ``UUID``, ``Tags`` and ``Inventory`` only; this wraps the
``data`` command so the two paths are answered from the player's ``pos``/``yaw``/``pitch`` and every other
``data`` command goes on to the wrapped handler.
"""

from __future__ import annotations

import re
from typing import Any

from bridge.sandbox.state import CommandFailure, Handler, WorldState

__all__ = ["with_positions"]

_GET = re.compile(r"data get entity ([A-Za-z0-9_]{1,16}) (Pos|Rotation)")


def _number(v: float, suffix: str) -> str:
    return f"{float(v)!r}{suffix}"


def with_positions(data: Handler) -> Handler:
    """The ``data`` handler ``data`` with ``data get entity <player> Pos|Rotation`` answered first."""

    def handler(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
        m = _GET.fullmatch(text.strip().removeprefix("/"))
        if m is None:
            return data(world, parts, args, text)
        player = world.players.get(m.group(1))
        if player is None:
            raise CommandFailure("No entity was found")
        if m.group(2) == "Pos":
            shown = ", ".join(_number(v, "d") for v in player.pos)
        else:
            shown = f"{_number(player.yaw, 'f')}, {_number(player.pitch, 'f')}"
        return f"{player.name} has the following entity data: [{shown}]"

    return handler
