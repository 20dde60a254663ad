"""``World.advance``: a tick after a tick that changed nothing, with nothing changed since, is only counted, and
the world every command, press and connection sees is the one running every tick leaves."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from bridge.sandbox import Sandbox, World


def _world(*players: str) -> World:
    world = Sandbox("pw-for-tests", tick_rate=0, datapack=True).world
    for name in players:
        world.join(name)
    return world


def _count_ticks(world: World) -> list[int]:
    """Replace the world's ``tick`` with one that notes the tick number each time it runs."""
    ran: list[int] = []
    tick = world.tick

    def counted() -> None:
        ran.append(world.ticks + 1)
        tick()

    world.tick = counted  # type: ignore[method-assign]
    return ran


def _state(world: World) -> tuple[object, ...]:
    return (
        world.snapshot(),
        world.storage_python("traitors:io"),
        world.scores,
        sorted(world.unlocked),
        world.errors,
        world.ticks,
    )


def test_an_idle_tick_is_counted_without_running_until_something_changes() -> None:
    world = _world("Alice", "Bob")
    ran = _count_ticks(world)
    for _ in range(5):
        world.advance()
    # the first tick enables the triggers; the second changes nothing; the rest are only counted
    assert ran == [1, 2] and world.ticks == 5
    world.press_trigger("Alice", "traitors.vote", 2)
    world.advance()
    assert ran == [1, 2, 6]
    assert world.storage_python("traitors:io")["queue"][0]["value"] == 2  # taken at the very next tick
    world.advance()  # tick 6 changed the world (queued, re-enabled): tick 7 runs, and changes nothing
    world.advance()
    world.advance()
    assert ran == [1, 2, 6, 7] and world.ticks == 9


def test_a_failed_or_read_only_command_leaves_the_world_idle_and_a_change_wakes_it() -> None:
    world = _world("Alice")
    ran = _count_ticks(world)
    world.advance()
    world.advance()
    assert world.execute("data get storage traitors:io queue")
    assert world.execute("scoreboard players enable Alice traitors.vote").startswith("Nothing changed")
    assert world.execute("scoreboard players get Nobody traitors.vote")
    world.advance()
    assert ran == [1, 2]
    world.execute("tellraw Alice {text:'hi'}")
    world.advance()
    assert ran == [1, 2, 4]
    world.join("Bob")  # a connection: Bob's triggers are enabled at the next tick
    world.advance()
    assert ran == [1, 2, 4, 5] and ("Bob", "traitors.vote") in world.unlocked


def test_python_tick_functions_run_every_tick() -> None:
    world = _world("Alice")
    seen: list[int] = []
    world.tick_functions.append(lambda w: seen.append(w.ticks))
    for _ in range(4):
        world.advance()
    assert seen == [1, 2, 3, 4]


def test_advancing_leaves_what_ticking_every_tick_leaves() -> None:
    steps: list[Callable[[World], object]] = [
        lambda w: w.press_trigger("Alice", "traitors.vote", 3),
        lambda w: w.execute("scoreboard players enable Bob traitors.murder"),
        lambda w: w.press_trigger("Bob", "traitors.murder", 1),
        lambda w: w.execute("data remove storage traitors:io queue[{seq:1}]"),
        lambda w: w.join("Cleo"),
        lambda w: w.press_trigger("Cleo", "traitors.vote", 1),
        lambda w: w.leave("Bob"),
        lambda w: w.execute("tag Alice add traitors.host"),
        lambda w: w.press_trigger("Alice", "traitors.host", 1),
    ]
    every, lazy = _world("Alice", "Bob"), _world("Alice", "Bob")
    for step in steps:
        for world, tick in ((every, every.tick), (lazy, lazy.advance)):
            for _ in range(3):
                tick()
            with contextlib.suppress(KeyError):  # a step on a player who has left fails alike on both
                step(world)
    for _ in range(3):
        every.tick()
        lazy.advance()
    assert _state(lazy) == _state(every)
    assert len(every.storage_python("traitors:io")["queue"]) == 3 and every.errors == []
