"""Python stand-in for the datapack's tick function (DESIGN "data flow"; FACTS §5).

This module is deliberately separate from the world model: once the real datapack exists, the sandbox can
interpret the datapack's own ``tick`` function instead, and this file goes away.

What the real tick function will do, and what :func:`input_tick` does now, each tick (20 per second):
for every online player and every trigger objective named ``traitors.<input>`` whose score is not 0,

1. append ``{seq:<int>, player:"<name>", input:"<input>", value:<int>}`` to storage ``traitors:io``
   path ``queue`` (``seq`` increments; the next one is kept at ``traitors:io`` path ``next_seq``),
2. set the score back to 0,
3. re-enable the trigger for that player (``scoreboard players enable <player> traitors.<input>``).

The bridge polls ``data get storage traitors:io queue`` and acks with ``data remove storage traitors:io
queue[{seq:N}]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import nbtlib
from nbtlib import Compound, Int, List, String

if TYPE_CHECKING:
    from bridge.sandbox.world import World

__all__ = ["IO_STORAGE", "INPUT_PREFIX", "input_tick"]

IO_STORAGE = "traitors:io"
INPUT_PREFIX = "traitors."


def input_tick(world: World) -> None:
    """Move non-zero ``traitors.<input>`` trigger scores into the ``traitors:io`` queue (see module doc)."""
    triggers = [o for o in world.objectives.values() if o.criterion == "trigger" and o.name.startswith(INPUT_PREFIX)]
    if not triggers:
        return
    for player in world.players.values():
        scores = world.scores.get(player.name)
        if not scores:
            continue
        for obj in triggers:
            value = scores.get(obj.name, 0)
            if value == 0:
                continue
            root = world.storage.setdefault(IO_STORAGE, nbtlib.Compound())
            seq = int(root.get("next_seq", 1))
            entry = Compound({
                "seq": Int(seq),
                "player": String(player.name),
                "input": String(obj.name[len(INPUT_PREFIX):]),
                "value": Int(value),
            })
            queue = root.get("queue")
            items = list(queue) if isinstance(queue, list) else []
            root["queue"] = List[Compound](items + [entry])
            root["next_seq"] = Int(seq + 1)
            scores[obj.name] = 0
            world.unlocked.add((player.name, obj.name))
