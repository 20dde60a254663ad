"""Whether the sandbox demo is quiet: the state in which its phase clock may fire (``bridge/loop/clock.py`` house rule 3).

Quiet means: every bot has read everything its player was shown and has no answer left to give; no trigger
waits for the data pack's next tick (a press not queued yet, or a trigger not enabled yet); and the input queue
(storage ``traitors:io``, ``queue``) is empty, so the service has taken, applied and acked every input. In that
state nothing in the castle happens until the service sends something, so a deadline fired then cannot overtake
a bot: however slow the machine, every bot answers every prompt of a phase before that phase's clock runs out,
and the seed alone decides the series.

``install`` makes the world answer ``data get storage traitors:sandbox quiet`` with ``1b`` or ``0b``, computed
when asked, on the sandbox's thread (the one thread that touches the world and, through ``demo_bots.step_bots``, the
bots), so the answer is one consistent moment. ``bridge.loop.clock.rcon_quiet_gate`` asks it over RCON.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from bridge.minecraft.storage import QUIET_STORAGE
from bridge.sandbox.world import World

__all__ = ["IdleBot", "install", "is_quiet", "settled", "triggers_pending"]

IO_STORAGE = "traitors:io"
"""The data pack's storage; its ``queue`` list holds the inputs the service has not acked yet."""


class IdleBot(Protocol):
    """A bot as ``bridge.app.demo_bots.Bot``: its name and whether it is idle."""

    name: str

    def idle(self, player: Any) -> bool:
        """Whether the bot has read all that ``player`` (its world player) was shown and has nothing to answer."""
        ...


def triggers_pending(world: World) -> bool:
    """Whether the data pack's next tick has trigger work left for an online player: a press it has not queued
    yet (a non-zero score), or a trigger it has not enabled yet (for a player who joined, or whose scores were
    reset, since the last tick). Until then a press may be lost ("You cannot trigger this objective yet"), so a
    bot that answered a prompt shown in that window would never be heard. The data pack enables every trigger of
    every player each tick (``traitors:input/player``)."""
    triggers = [name for name, obj in world.objectives.items() if obj.criterion == "trigger"]
    for name in world.players:
        scores = world.scores.get(name, {})
        for obj in triggers:
            if scores.get(obj, 0) != 0 or (name, obj) not in world.unlocked:
                return True
    return False


def is_quiet(world: World, bots: Iterable[IdleBot]) -> bool:
    """Whether the demo is quiet (see the module docstring). Call on the sandbox's thread.

    Args:
        world: the sandbox world.
        bots: the bot contestants; one whose player is offline counts as idle.
    """
    for bot in bots:
        player = world.players.get(bot.name)
        if player is not None and not bot.idle(player):
            return False
    return settled(world)


def settled(world: World) -> bool:
    """Whether every trigger press so far has reached the service: none waits for the data pack's tick and the
    input queue is empty (the service acks an entry only after sending its effects). Call on the sandbox's thread.

    The demo's bots answer only in a settled world (``bridge.app.demo_bots.step_bots``): the presses of one pass are
    then queued by one tick, in the player list's order, and applied before the next pass presses anything, so
    the order of the inputs depends on the seed alone, not on how the passes fall between the ticks.
    """
    if triggers_pending(world):
        return False
    io = world.storage.get(IO_STORAGE)
    return io is None or not io.get("queue")


def install(world: World, bots: Iterable[IdleBot]) -> None:
    """Make ``world`` answer ``data get storage traitors:sandbox quiet`` with ``is_quiet(world, bots)`` (``1b``/``0b``).

    Call on the sandbox's thread (``SandboxThread.call(install, sandbox.world, bots)``).
    """
    watched = list(bots)
    world.computed_storage[QUIET_STORAGE] = lambda: {"quiet": is_quiet(world, watched)}
