"""The phase clock: one asyncio task that fires each phase's deadline, after the one before it, never dropping one.

House rules of this file:

1. One clock per service, holding at most one deadline: the running phase's ``(phase_seq, deadline)``. ``arm``
   replaces it (the engine numbers every phase clock, so an older one is stale anyway) and ``disarm`` clears it
   (a paused clock, the end of the series).
2. One task fires the deadlines, one at a time, by awaiting the service's ``expire(phase_seq)``. A deadline armed
   while ``expire`` is still running (the next phase's, when the server is slow and the phases short) is seen as
   soon as ``expire`` returns and fired then, late but never dropped.
3. A deadline fires once ``now()`` (the engine's clock, seconds) has reached it and, when the clock has a quiet
   gate, once the gate says the system is quiet. The sandbox demo's gate asks whether every bot has answered what
   it was shown (``bridge/sandbox/quiet.py``), so the demo's clock cannot overtake its bots and a seed alone
   decides the series; ``traitors serve`` has no gate and keeps the wall clock.
4. With ``skip`` (the sandbox demo's ``FastForward`` clock), a deadline not yet due fires as soon as the gate says
   the system is quiet: the clock is moved ahead to it first. Quiet means nothing happens until the service sends
   something, so the wait would change nothing but the wall time; the series is the one the wall clock gives.
   ``traitors demo`` waits out its phases unless asked not to; the tests skip.
5. The watchdog (``watch``), called from the service's loop with the engine's own deadline, fires a deadline that
   passed more than ``WATCHDOG_GRACE`` seconds ago without its timer (not armed, not being fired, not fired in
   that time): it arms it again with a warning, and starts the task again if it ended. A second ``TimerExpired``
   for one phase is harmless: the engine ignores a stale or repeated one.

Why not APScheduler (which the service used before): a ``date`` job with the one job id and the default
``max_instances=1`` is *skipped* ("maximum number of running instances reached") when its run time comes while
the previous run of that id is still running, and a skipped ``date`` job has no next run time, so it is removed:
the series stalled. ``coalesce`` and ``misfire_grace_time`` only decide what happens to run times missed while the
scheduler was busy or down, not to a run refused because of ``max_instances``. Raising ``max_instances`` or giving
each phase its own job id would run two expiries at once, in any order. The clock needs none of APScheduler's
job stores, triggers or executors: a sequential loop over one deadline with asyncio's own timer (``asyncio.timeout``
on an event) is the standard library, and the quiet gate fits into it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bridge.minecraft.storage import QUIET_STORAGE

log = logging.getLogger(__name__)

__all__ = ["FastForward", "PhaseClock", "QUIET_STORAGE", "QuietGate", "WATCHDOG_GRACE", "count_down", "rcon_quiet_gate"]

WATCHDOG_GRACE = 1.0
"""Seconds past a deadline after which the watchdog fires it when the clock has not (house rule 5)."""
MAX_SLEEP = 1.0
"""The longest the clock sleeps before looking at ``now()`` again (a wall clock that jumps, a test clock)."""
GATE_INTERVAL = 0.02
"""Seconds between two questions to the quiet gate while a due deadline waits for quiet."""

QuietGate = Callable[[], Awaitable[bool]]
"""Returns True when the system is quiet (house rule 3); an exception counts as "not quiet"."""


class FastForward:
    """A clock that can be moved ahead: ``base()`` plus the seconds skipped so far (house rule 4).

    Call it for the time, in seconds of ``base``; ``skip_to(deadline)`` moves it ahead, never back, so the times it
    gives never decrease when ``base``'s do not.

    Args:
        base: the clock it runs on (``time.time``).
    """

    def __init__(self, base: Callable[[], float] = time.time) -> None:
        self._base = base
        self.skipped = 0.0
        """Seconds skipped so far."""

    def __call__(self) -> float:
        return self._base() + self.skipped

    def skip_to(self, when: float) -> None:
        """Move the clock ahead to ``when`` (seconds); a time already passed changes nothing."""
        self.skipped += max(0.0, when - self())


class PhaseClock:
    """Fires ``expire(phase_seq)`` at each armed deadline, one after the other (house rules 1-4).

    Args:
        expire: coroutine function called with the phase sequence number of a deadline that has come; it must
            not raise (an exception is logged and the clock goes on).
        now: the clock deadlines are read against, in seconds (the service's clock; ``time.time``).
        gate: the quiet gate, or ``None`` (fire on ``now`` alone).
        skip: called with a deadline not yet due once the gate says quiet, to move ``now`` ahead to it (house
            rule 4; ``FastForward.skip_to``); ``None``: wait for ``now`` to get there.

    Raises:
        ValueError: ``skip`` without ``gate``.

    Use it from one event loop: ``start`` creates the task there.
    """

    def __init__(
        self,
        expire: Callable[[int], Awaitable[None]],
        *,
        now: Callable[[], float] = time.time,
        gate: QuietGate | None = None,
        skip: Callable[[float], None] | None = None,
    ) -> None:
        if skip is not None and gate is None:
            raise ValueError("a phase clock skips ahead only when a quiet gate says so")
        self._expire = expire
        self.now = now
        self.gate = gate
        self.skip = skip
        self._armed: tuple[int, float] | None = None
        self._firing: int | None = None
        self._fired_at: tuple[int, float, float] | None = None
        """(phase_seq, deadline, now) of the last deadline fired."""
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.fired = 0
        """How many deadlines were fired."""
        self.rescued = 0
        """How many times the watchdog had to step in (house rule 5)."""
        self.overran = 0
        """How many deadlines came while the expiry before them was still running (each fired right after it)."""

    @property
    def armed(self) -> tuple[int, float] | None:
        """The deadline waiting to fire, ``(phase_seq, deadline)``, or ``None``."""
        return self._armed

    @property
    def running(self) -> bool:
        """Whether the clock task is alive."""
        return self._task is not None and not self._task.done()

    def arm(self, phase_seq: int, deadline: float) -> None:
        """Fire ``expire(phase_seq)`` at ``deadline`` (seconds of ``now``) instead of any deadline armed before."""
        self._armed = (phase_seq, deadline)
        self._changed.set()

    def disarm(self) -> None:
        """Forget the armed deadline (one already being fired finishes)."""
        self._armed = None
        self._changed.set()

    def start(self) -> None:
        """Start the clock task (again, if it ended). Call from the running event loop."""
        if not self.running:
            self._closing = False
            self._task = asyncio.get_running_loop().create_task(self._run(), name="phase-clock")

    async def stop(self) -> None:
        """End the clock task after the expiry it is running, if any (it finishes sending its effects)."""
        self._closing = True
        self._changed.set()
        task, self._task = self._task, None
        if task is None or task is asyncio.current_task():
            return
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def hold(self) -> None:
        """Fire no deadline from now on (a stop was asked); an expiry already running finishes. Safe to call from a
        signal handler; ``stop`` then ends the task."""
        self._closing = True
        self._changed.set()

    def close(self) -> None:
        """End the clock task at once, whatever it is doing (a crash, in tests)."""
        self._closing = True
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def watch(self, phase_seq: int, deadline: float | None, grace: float = WATCHDOG_GRACE) -> bool:
        """The watchdog (house rule 5): fire the engine's deadline if it passed ``grace`` seconds ago without its timer.

        Args:
            phase_seq: the engine's phase clock sequence number (``Game.phase_seq``).
            deadline: the engine's deadline (``Game.deadline``; ``None`` when no clock runs), seconds of ``now``.
            grace: seconds past the deadline before the watchdog steps in.

        Returns:
            True when it had to arm the deadline again (a warning is logged).
        """
        if deadline is None or self._closing or self._task is None:
            return False
        if self._task.done():
            log.warning("the phase clock task ended; starting it again")
            self._task = None
            self.start()
        now = self.now()
        if now < deadline + grace or self._armed == (phase_seq, deadline) or self._firing == phase_seq:
            return False
        if (
            self._fired_at is not None
            and self._fired_at[:2] == (phase_seq, deadline)
            and now - self._fired_at[2] < grace
        ):
            return False
        log.warning(
            "phase clock %d: its deadline passed %.1f s ago without its timer; firing it now", phase_seq, now - deadline
        )
        self.rescued += 1
        self.arm(phase_seq, deadline)
        return True

    async def _run(self) -> None:
        while not self._closing:
            self._changed.clear()  # before reading: an arm() from here on wakes the wait below
            armed = self._armed
            if armed is None:
                await self._changed.wait()
                continue
            phase_seq, deadline = armed
            left = deadline - self.now()
            if left > 0 and self.skip is None:
                await self._sleep(min(left, MAX_SLEEP))
                continue
            if self.gate is not None and not await self._quiet():
                await self._sleep(min(left, GATE_INTERVAL) if left > 0 else GATE_INTERVAL)
                continue
            if self._armed != armed:  # re-armed or disarmed while the gate was asked
                continue
            if self._closing:  # held while the gate was asked
                break
            if self.skip is not None:
                self.skip(deadline)
            self._armed = None
            self._firing = phase_seq
            try:
                await self._expire(phase_seq)
            except Exception:  # the clock must outlive a bug in one expiry
                log.exception("phase clock %d: the expiry failed", phase_seq)
            finally:
                self._firing = None
                self._fired_at = (phase_seq, deadline, self.now())
                self.fired += 1
            if self._armed is not None and self._armed[1] <= self._fired_at[2]:
                self.overran += 1

    async def _sleep(self, seconds: float) -> None:
        try:  # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation that meets its timeout
            async with asyncio.timeout(seconds):
                await self._changed.wait()
        except TimeoutError:
            pass

    async def _quiet(self) -> bool:
        assert self.gate is not None
        try:
            return await self.gate()
        except Exception as exc:  # e.g. the server is away: wait for it, as the bots do
            log.debug("quiet gate failed: %r", exc)
            return False


def rcon_quiet_gate(rcon: Any) -> QuietGate:
    """The sandbox demo's quiet gate over RCON: ``data get storage traitors:sandbox quiet`` answers ``1b`` when every
    bot has answered what it was shown, no trigger press waits for the data pack's tick and the input queue is
    empty (``bridge/sandbox/quiet.py``).

    Args:
        rcon: an RCON client (``bridge.io.rcon.RconClient``) connected to ``traitors sandbox`` or the demo's sandbox.

    Returns:
        The gate. A sandbox without bots has no such storage ("Found no elements…"): then it is always quiet.

    Raises:
        (the gate) RconUnavailable and the other RCON errors; the clock takes an error as "not quiet".
    """
    query = f"data get storage {QUIET_STORAGE} quiet"
    prefix = f"Storage {QUIET_STORAGE} has the following contents: "

    async def gate() -> bool:
        reply = await rcon.command(query)
        return not reply.startswith(prefix) or reply[len(prefix) :].strip() in ("1b", "true")

    return gate


async def count_down(
    deadline: Callable[[], float | None], now: Callable[[], float], show: Callable[[int], Awaitable[None]]
) -> None:
    """Show the whole seconds left until ``deadline()`` once a second (the clock bossbar), until cancelled.

    Args:
        deadline: the running phase's deadline (seconds of ``now``), or ``None`` when no clock runs.
        now: the clock, in seconds.
        show: coroutine function called with the seconds left (rounded up, never below 0) when they changed;
            it must not raise.
    """
    last: int | None = None
    while True:
        await asyncio.sleep(1.0)
        due = deadline()
        if due is None:
            continue
        remaining = max(0, int(due - now() + 0.999))
        if remaining != last:
            last = remaining
            await show(remaining)
