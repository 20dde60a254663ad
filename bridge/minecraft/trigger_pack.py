"""The data pack's trigger functions, written by ``traitors install-datapack`` (``bridge.minecraft.datapack``) from
the trigger table (``bridge.minecraft.triggers.table``): ``traitors:input/objectives`` creates every trigger
objective, ``traitors:input/player`` enables and captures every trigger each tick."""

from __future__ import annotations

from bridge.minecraft.scoreboard import objective_add_trigger
from bridge.minecraft.text import translated
from bridge.minecraft.triggers import table

OBJECTIVES_FUNCTION = "data/traitors/function/input/objectives.mcfunction"
"""``traitors:input/objectives``, called by ``traitors:load``: creates every trigger objective."""
PLAYER_FUNCTION = "data/traitors/function/input/player.mcfunction"
"""``traitors:input/player``, run as each online player every tick: enables and captures every trigger."""

_OBJECTIVES_HEADER = """\
# Written by `traitors install-datapack` from the bridge's trigger table (bridge/minecraft/triggers.py).
# Called by traitors:load: one trigger objective per input, its title translatable. Safe to run again: an
# existing objective is kept ("already exists" just fails).
"""

_PLAYER_HEADER = """\
# Written by `traitors install-datapack` from the bridge's trigger table (bridge/minecraft/triggers.py).
# Run as each online player every tick. For each trigger: enable it (creates a 0 score for a new player and
# unlocks it after a press), then queue a non-zero score as an input (traitors:input/capture resets it to 0).
# A press therefore reaches the queue exactly once, and the player can press again from the next tick.
"""


def objectives_function() -> str:
    """The text of ``traitors:input/objectives``: ``scoreboard objectives add traitors.<input> trigger
    {translate:"traitors.trigger.<input>",fallback:"<title>"}`` per trigger, in table order."""
    lines = [objective_add_trigger(t.objective, translated(t.key, t.title)).text for t in table()]
    return _OBJECTIVES_HEADER + "".join(line + "\n" for line in lines)


def player_function() -> str:
    """The text of ``traitors:input/player``: per trigger, ``scoreboard players enable @s <objective>`` and
    ``execute unless score @s <objective> matches 0 run function traitors:input/capture {input:"<input>"}``."""
    lines: list[str] = []
    for t in table():
        lines += [
            f"scoreboard players enable @s {t.objective}",
            f"execute unless score @s {t.objective} matches 0 run function traitors:input/capture "
            f'{{input:"{t.input}"}}',
        ]
    return _PLAYER_HEADER + "".join(line + "\n" for line in lines)


def pack_functions() -> dict[str, str]:
    """The data pack files made from the table: path inside the pack → text."""
    return {OBJECTIVES_FUNCTION: objectives_function(), PLAYER_FUNCTION: player_function()}


__all__ = ["OBJECTIVES_FUNCTION", "PLAYER_FUNCTION", "objectives_function", "pack_functions", "player_function"]
