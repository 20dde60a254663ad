"""Cost of the data pack in the sandbox, and the RCON commands a prompt dialog needs.

Prints: milliseconds per sandbox tick (the real tick function, interpreted) for 4, 16 and 40 online players, the
same with every player pressing a trigger each tick, and, for prompts of 5, 15 and 30 choices, how many RCON
commands the dialog takes and the largest one in bytes (limit 1446, docs/minecraft.md#rcon).

Run: ``python bench/datapack_tick.py``
"""

from __future__ import annotations

import time

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.config.castle import default_castle
from bridge.minecraft.render import RenderContext, prompt_dialog
from bridge.sandbox.datapack import project_pack
from bridge.sandbox.world import World
from engine.actions import CastVote
from engine.effects import Choice, Prompt, msg


def tick_ms(players: int, pressing: bool, ticks: int = 200) -> float:
    world = World()
    world.load_datapack(project_pack())
    names = [f"Player{i:02d}" for i in range(players)]
    for n in names:
        world.join(n)
    world.tick()
    start = time.perf_counter()
    for _ in range(ticks):
        if pressing:
            for n in names:
                world.press_trigger(n, "traitors.vote", 1)
        world.tick()
        if pressing:
            world.storage["traitors:io"]["queue"].clear()
    assert not world.errors, world.errors
    return (time.perf_counter() - start) / ticks * 1000


def main() -> None:
    for n in (4, 16, 40):
        print(f"tick, {n:2d} players idle:     {tick_ms(n, False):6.2f} ms")
        print(f"tick, {n:2d} players pressing: {tick_ms(n, True):6.2f} ms")
    for k in (5, 15, 30):
        names = [f"Contestant{i:02d}" for i in range(k + 1)]
        seats = {n: i for i, n in enumerate(names, start=1)}
        effect = Prompt(
            frozenset({names[0]}), msg("vote.prompt"), tuple(Choice(n, CastVote(names[0], n)) for n in names[1:])
        )
        cmds = prompt_dialog(names[0], effect, RenderContext(default_castle(), seats))
        print(
            f"prompt with {k:2d} choices: {len(cmds)} RCON commands, largest {max(len(c.text.encode()) for c in cmds)} bytes"
        )


if __name__ == "__main__":
    main()
