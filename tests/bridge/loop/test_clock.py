"""The phase clock (bridge/loop/clock.py): deadlines fire one after the other and are never lost, even when the server
is slow and the phases are short; the watchdog fires a deadline that passed without its timer; the quiet gate."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest

from bridge.app.demo import DEMO_DURATIONS, demo_settings
from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.clock import FastForward, PhaseClock, rcon_quiet_gate
from bridge.loop.service import SeriesService
from bridge.sandbox import Sandbox, quiet
from engine.rulesets.traitors.game import Game

PASSWORD = "clock-test-password"


def test_a_deadline_armed_during_a_slow_expiry_fires_after_it() -> None:
    """Each expiry takes longer than the next phase lasts: every deadline still fires, in order, one at a time."""

    async def main() -> list[int]:
        fired: list[int] = []
        running = 0
        done = asyncio.Event()

        async def expire(seq: int) -> None:
            nonlocal running
            running += 1
            assert running == 1, "two expiries at once"
            fired.append(seq)
            if seq < 20:
                clock.arm(seq + 1, time.time() + 0.005)  # the next phase's deadline, due before this returns
            await asyncio.sleep(0.03)
            running -= 1
            if seq == 20:
                done.set()

        clock = PhaseClock(expire)
        clock.start()
        clock.arm(1, time.time())
        await asyncio.wait_for(done.wait(), 10)
        await clock.stop()
        assert clock.rescued == 0
        return fired

    assert asyncio.run(main()) == list(range(1, 21))


def test_the_watchdog_fires_a_deadline_that_has_no_timer() -> None:
    async def main() -> None:
        fired: list[int] = []

        async def expire(seq: int) -> None:
            fired.append(seq)

        clock = PhaseClock(expire)
        clock.start()
        now = time.time()
        assert not clock.watch(3, now + 5)  # not due yet
        assert not clock.watch(3, now - 0.5)  # due, but within the grace
        assert not clock.watch(3, None)  # no clock running
        assert clock.watch(3, now - 2)  # due 2 s ago and never armed: the watchdog arms it
        await asyncio.sleep(0.05)
        assert fired == [3] and clock.rescued == 1
        assert not clock.watch(3, now - 2)  # fired just now: not again at once
        # the clock task ends unexpectedly: the watchdog starts it again and fires the deadline
        assert clock._task is not None
        clock._task.cancel()
        await asyncio.sleep(0.01)
        assert not clock.running
        assert clock.watch(4, now - 2)
        await asyncio.sleep(0.05)
        assert clock.running and fired == [3, 4]
        await clock.stop()

    asyncio.run(main())


def test_a_due_deadline_waits_for_the_quiet_gate() -> None:
    async def main() -> None:
        fired: list[int] = []
        quiet = False
        asked = 0

        async def expire(seq: int) -> None:
            fired.append(seq)

        async def gate() -> bool:
            nonlocal asked
            asked += 1
            if asked == 3:
                raise ConnectionError("the server is away")  # counts as "not quiet"
            return quiet

        clock = PhaseClock(expire, gate=gate)
        clock.start()
        deadline = time.time() - 5
        clock.arm(1, deadline)
        await asyncio.sleep(0.2)
        assert fired == [] and asked >= 3
        assert not clock.watch(1, deadline)  # waiting for quiet is not a lost timer
        quiet = True
        await asyncio.sleep(0.1)
        assert fired == [1]
        await clock.stop()

    asyncio.run(main())


def test_the_demo_gate_reads_the_sandbox_bots_over_rcon() -> None:
    """``rcon_quiet_gate`` asks the storage ``bridge/sandbox/quiet.py`` answers: a bot with an answer left is "not
    quiet", and a sandbox without bots is always quiet."""

    class Bot:
        def __init__(self, name: str) -> None:
            self.name = name
            self.busy = True

        def idle(self, player: object) -> bool:
            return not self.busy

    async def main() -> list[bool]:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        bot = Bot("Alex")
        sb.world.join(bot.name)
        sb.world.tick()  # the data pack enables the newcomer's triggers (until then the world is not settled)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                gate = rcon_quiet_gate(rcon)
                seen = [await gate()]  # no bots installed: no such storage
                quiet.install(sb.world, [bot])
                seen.append(await gate())
                bot.busy = False
                seen.append(await gate())
                return seen
        finally:
            await sb.stop()

    assert asyncio.run(main()) == [True, False, True]


@pytest.mark.slow(reason="four series at once on the wall clock: phases of 0.2 s against a server 5 ms late")
def test_slow_server_short_phases_many_series_never_stall() -> None:
    """Issue 21 point 1: every phase lasts 0.2 s and the server answers each command 5 ms late, so sending one
    phase's effects takes longer than the next phase lasts; every series must still run to its end (with
    APScheduler the next phase's job was skipped and the series stalled). Nobody plays: the phase clock alone
    ends these series, in 8 to 17 phases. The four series (each with its own server) run at once, sharing one
    event loop, which only makes each server answer later still."""
    durations = dict.fromkeys(DEMO_DURATIONS, 0.2)

    async def one(seed: int) -> SeriesService:
        settings = dataclasses.replace(demo_settings(6), durations=durations)
        async with Sandbox(PASSWORD) as sb:
            for name in settings.contestants:
                sb.world.join(name)
            sb.rcon.faults.reply_delay = 0.005
            async with RconClient("127.0.0.1", sb.port or 0, PASSWORD, timeout=5) as rcon:
                service = SeriesService(Game(settings, seed=seed), rcon, default_castle(), poll_interval=0.02)
                run = asyncio.create_task(service.run())
                seen, still = -1, 0.0
                while not run.done():  # a stall: a deadline long past and no input for 10 s (slow is not stalled)
                    await asyncio.wait([run], timeout=0.5)
                    game = service.game
                    seen, still = len(game.log), (still + 0.5 if len(game.log) == seen else 0.0)
                    deadline = game.deadline
                    if still >= 10 and deadline is not None and time.time() > deadline + 5:
                        run.cancel()
                        raise AssertionError(
                            f"seed {seed}: the series stalled at phase {game.phase}, {len(game.log)} inputs"
                        )
                await run
                return service

    async def every(seeds: tuple[int, ...]) -> list[SeriesService]:
        return await asyncio.gather(*(one(seed) for seed in seeds))

    seeds = (0, 1, 11, 2)
    overran = 0
    for seed, service in zip(seeds, asyncio.run(every(seeds)), strict=True):
        assert service.game.is_over, seed
        assert service.phase_clock.rescued == 0  # the clock itself never lost a deadline
        overran += service.phase_clock.overran
    assert overran > 0  # the server was slow enough: a deadline came while the expiry before it was running


def test_a_fast_forward_clock_skips_to_a_deadline_once_quiet_and_never_before() -> None:
    """House rule 4: with ``skip``, a deadline a minute away fires as soon as the gate says quiet, the clock moved
    ahead to it; while the gate says "not quiet" nothing fires; without ``skip`` the same clock waits."""

    async def main() -> None:
        fired: list[tuple[int, float]] = []
        quiet = False
        skipping = FastForward()

        async def expire(seq: int) -> None:
            fired.append((seq, skipping()))

        async def gate() -> bool:
            return quiet

        clock = PhaseClock(expire, now=skipping, gate=gate, skip=skipping.skip_to)
        waiting = PhaseClock(expire, now=time.time, gate=gate)
        clock.start()
        waiting.start()
        deadline = time.time() + 60
        clock.arm(1, deadline)
        waiting.arm(2, deadline)
        await asyncio.sleep(0.2)
        assert fired == [] and skipping.skipped == 0  # not quiet: the deadline waits
        quiet = True
        await asyncio.sleep(0.2)
        assert [seq for seq, _ in fired] == [1]  # quiet: fired at once, at the deadline's time
        assert fired[0][1] >= deadline and skipping.skipped > 59
        assert clock.rescued == 0 and waiting.armed == (2, deadline)  # without skip: still waiting
        clock.arm(3, skipping() - 1)  # a deadline already passed fires as it always did, skipping nothing
        await asyncio.sleep(0.1)
        assert [seq for seq, _ in fired] == [1, 3] and skipping.skipped < 61
        await clock.stop()
        await waiting.stop()

    asyncio.run(main())


def test_fast_forward_moves_ahead_only_and_needs_a_quiet_gate() -> None:
    now = [100.0]
    skipping = FastForward(lambda: now[0])
    skipping.skip_to(90.0)  # passed: nothing
    assert skipping() == 100.0
    skipping.skip_to(130.0)
    now[0] = 101.0
    assert skipping() == 131.0 and skipping.skipped == 30.0

    async def expire(seq: int) -> None:
        return None

    with pytest.raises(ValueError, match="quiet gate"):
        PhaseClock(expire, skip=skipping.skip_to)


def test_a_fast_forward_demo_plays_the_same_series_without_the_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """``traitors demo --fast-forward``: the same seed gives the same series as a demo on the wall clock (the quiet
    gate decides when a phase ends either way); only the waits for the phase clocks are skipped. Seed 1 (the
    demo's default) is a short series, two days, with every kind of input the longer ones give (oaths, powers, a
    double vote's nomination, votes, a finale's torches): a longer series would compare more of the same. The
    clocks that run out are three quarters of the demo's (the gate makes any length give the same series): the
    series on the wall clock takes about 7 s instead of 9 s, and well over 2 s of it are waits to skip, on a
    loaded machine too (the bots' answers take longer there, leaving less of each clock to skip)."""
    from bridge.app.demo import play_demo

    for phase, seconds in DEMO_DURATIONS.items():
        if phase not in ("vote", "revote"):  # those end when everyone has voted; their clock is a safety net
            monkeypatch.setitem(DEMO_DURATIONS, phase, seconds * 0.75)

    async def both() -> list[tuple[Game, SeriesService]]:
        played = await asyncio.gather(play_demo(6, seed=1, fast_forward=True), play_demo(6, seed=1))
        return [(game, service) for game, _, service in played]

    (fast, skipping), (slow, waiting) = asyncio.run(both())
    assert fast.outcome is not None and fast.outcome == slow.outcome
    assert fast.record.to_dict() == slow.record.to_dict()
    inputs = [[{k: v for k, v in e.items() if k != "now"} for e in game.log] for game in (fast, slow)]
    assert inputs[0] == inputs[1]  # every input, in the same order
    assert isinstance(skipping.clock, FastForward) and skipping.clock.skipped > 1.0  # the short phases were skipped
    assert not isinstance(waiting.clock, FastForward)
    assert skipping.phase_clock.rescued == 0 and waiting.phase_clock.rescued == 0
