"""Input latency through the sandbox at 20 ticks per second (target: p99 ≤ 60 ms over 1,000 inputs).

A 12-contestant series is played by the engine to its finale (torch clock: one hour), then the service runs it
against the sandbox (``bridge/sandbox``, ticking at 20 Hz with the real data pack) over loopback RCON. A finalist
presses ``/trigger traitors.torch set N`` (each press changes their vote, a legal input: rulebook §10 "a finale
vote can be changed until the vote is locked"), at random moments, 1,000 times. Latency = from the press (taken on
the sandbox thread) to the first command the service sends because of it (the private "Your vote: …" message),
as the sandbox received it (``CommandRecord.received``). The path: the data pack's tick moves the press into the
input queue (up to one tick, 50 ms), the service's next poll reads it (up to one poll interval), the engine
applies it, the effect is rendered and sent.

Usage: python bench/latency.py [--inputs 1000] [--poll 0.05 0.01 ...]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import random
import secrets
import statistics
import threading
import time

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import DEMO_DURATIONS, demo_settings
from bridge.config.castle import default_castle
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.service import POLL_INTERVAL, SeriesService
from bridge.sandbox.server import SandboxThread
from engine.actions import StartSeries, TimerExpired
from engine.core.ruleset import RulesetGame
from engine.rulesets import new_game

SKIP = ("data get storage traitors:io", "data remove storage traitors:io")
"""The service's own queue polls and acks: not caused by the press."""


def at_torches(game: RulesetGame) -> bool:
    """Whether ``game`` waits for the finale's torches (The Traitors' phase ``torches``)."""
    return game.phase is not None and game.phase.value == "torches"


def finale_game(seed: int = 3) -> RulesetGame:
    """A 12-contestant series played to the finale torches, with an hour on the torch clock."""
    settings = dataclasses.replace(demo_settings(12), durations={**DEMO_DURATIONS, "torches": 3600.0})
    for s in range(seed, seed + 200):
        game = new_game(settings, s)
        rng = random.Random(s)
        now = time.time() - 3000.0
        game.handle(StartSeries(), now=now)
        while not game.is_over and not at_torches(game):
            now += 1.0
            legal = [a for n in game.contestants() for a in game.legal_actions(n)]
            game.handle(rng.choice(legal) if legal else TimerExpired(game.phase_seq), now=now)
        if at_torches(game):
            return game
    raise RuntimeError("no seed reached the finale")


def measure(inputs: int, poll: float, seed: int = 3) -> tuple[list[float], list[float]]:
    """Latencies in milliseconds of ``inputs`` presses, with the service polling every ``poll`` seconds: (to the
    first resulting command, to the poll that found the press in the queue)."""
    game = finale_game(seed)
    finalists = list(game.torches)
    password = secrets.token_urlsafe(12)
    sandbox = SandboxThread(password, tick_rate=20.0)
    port = sandbox.start()
    for name in game.settings.contestants:
        sandbox.join(name)
    latencies: list[float] = []
    found: list[float] = []
    ready = threading.Event()
    done = threading.Event()

    def press(name: str, value: int) -> tuple[float, int]:
        world = sandbox.world
        at = len(world.command_log)
        t = time.perf_counter()
        world.press_trigger(name, "traitors.torch", value)
        return t, at

    def first_after(at: int) -> tuple[float, float] | None:
        """(when the poll that found the press arrived, when the first resulting command arrived)."""
        seen = None
        for r in sandbox.world.command_log[at:]:
            if seen is None and r.text.startswith(SKIP[0]) and "seq" in r.reply:
                seen = r.received
            if not r.text.startswith(SKIP):
                return (seen if seen is not None else r.received), r.received
        return None

    def driver() -> None:
        ready.wait(30)
        rng = random.Random(seed)
        held = dict.fromkeys(finalists, 0)
        for _ in range(inputs):
            name = rng.choice(finalists)
            held[name] = 1 if held[name] == 2 else 2  # always a change: a legal input
            t, at = sandbox.call(press, name, held[name])
            while True:
                got = sandbox.call(first_after, at)
                if got is not None:
                    latencies.append((got[1] - t) * 1000)
                    found.append((got[0] - t) * 1000)
                    break
                time.sleep(0.0005)
            time.sleep(rng.uniform(0.0, 0.05))  # the next press at a random moment of the tick
        done.set()

    async def serve() -> None:
        async with RconClient("127.0.0.1", port, password, timeout=10.0) as rcon:
            service = SeriesService(
                game, rcon, default_castle(), poll_interval=poll, players=PlayerDirectory(sandbox.players())
            )
            task = asyncio.create_task(service.run(on_ready=ready.set))
            while not done.is_set():
                await asyncio.sleep(0.05)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    thread = threading.Thread(target=driver, daemon=True)
    thread.start()
    try:
        asyncio.run(serve())
    finally:
        sandbox.stop()
    thread.join(5)
    return latencies, found


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument(
        "--poll",
        type=float,
        nargs="*",
        default=[POLL_INTERVAL],
        help="service poll intervals to measure, seconds (default: the service's)",
    )
    args = parser.parse_args()
    for poll in args.poll:
        lat, found = measure(args.inputs, poll)
        print(
            f"poll {poll * 1000:4.0f} ms, {len(lat)} inputs at 20 ticks/s: p50 {statistics.median(lat):5.1f} ms, "
            f"p99 {pct(lat, 0.99):5.1f} ms, max {max(lat):5.1f} ms (target p99 <= 60 ms); "
            f"press to the poll that read it: p50 {statistics.median(found):5.1f} ms, p99 {pct(found, 0.99):5.1f} ms"
        )


if __name__ == "__main__":
    main()
