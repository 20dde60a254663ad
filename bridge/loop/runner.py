"""Running one stored series until it ends or a stop signal arrives: the one resume path of ``traitors serve`` and
``traitors serve-demo`` (``bridge/app/serve.py`` house rules 3 and 4, ``docs/recovery.md``).

It lives apart from ``bridge/app/serve.py`` so that ``serve-demo`` does not import the serve config's models, the
doctor or MSMP: a resumed series is ready sooner (``bench/resume.py``, ``docs/performance.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from bridge.config.castle import CastleConfig
from bridge.io.rcon import RconClient
from bridge.loop.clock import QuietGate
from bridge.loop.faults import Fault
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore

if TYPE_CHECKING:
    from bridge.io.msmp import MsmpClient
    from engine.effects import Effect

log = logging.getLogger("castle.serve")


async def run_series(
    store: SeriesStore,
    series_id: int,
    rcon: RconClient,
    castle: CastleConfig,
    *,
    msmp: MsmpClient | None = None,
    poll_interval: float = 0.1,
    on_ready: Callable[[SeriesService], None] | None = None,
    stop_signals: bool = True,
    observer: Callable[[Effect], None] | None = None,
    quiet: QuietGate | None = None,
    fault: Fault | None = None,
    standbys: Sequence[str] = (),
) -> SeriesService:
    """Resume (or start) one stored series and run it until it ends or SIGTERM/SIGINT arrives (``bridge/app/serve.py`` house rule 3).

    Args:
        store: the open, locked store.
        series_id: the series to run.
        rcon: an RCON client (opened or not; it connects and reconnects itself).
        castle: the castle.
        msmp: a started MSMP client, to follow joins and leaves (``SeriesService.attach_msmp``); or ``None``.
        poll_interval: seconds between polls of the input queue.
        on_ready: called with the service once it is resumed and re-synced.
        stop_signals: stop cleanly on SIGTERM and SIGINT (only from the main thread).
        observer: called with every effect before it is sent (``SeriesService``'s ``observer``).
        quiet: the phase clock's quiet gate (``serve-demo``: ``bridge.loop.clock.rcon_quiet_gate``); ``None`` for a
            real server, whose phase clock keeps the wall clock.
        fault: the crash points to die at (``bridge.loop.faults.Fault.from_env``, the recovery tests'), or ``None``.
        standbys: the season's stand-bys in sign-up order: "Replace a contestant" calls in the first one on the
            server (``bridge/loop/console.py`` house rule 4); none outside a season.

    Returns:
        The service (``service.game`` is the series; ``game.outcome`` is ``None`` when stopped early).

    Raises:
        StoreError: the stored series cannot be loaded.
        RconUnavailable: the server is not reachable at start.
        UnsupportedVersion: the server runs a release older than the oldest supported one
            (``bridge/loop/version.py``).
    """
    service = SeriesService.resume(
        store, series_id, rcon, castle, poll_interval=poll_interval, observer=observer, quiet=quiet, fault=fault
    )
    service.router.console.standbys = tuple(standbys)
    if msmp is not None:
        service.attach_msmp(msmp)
    await service.learn_version(msmp)
    with on_stop_signals(lambda sig: _stop(service, sig), enabled=stop_signals):
        await service.run(on_ready=(lambda: on_ready(service)) if on_ready is not None else None)
    return service


def _stop(service: SeriesService, sig: int) -> None:
    log.info("stopping on %s; the series stays resumable", signal.Signals(sig).name, extra={"event": "stop"})
    service.request_stop(sig)


@contextlib.contextmanager
def on_stop_signals(handler: Callable[[int], None], *, enabled: bool = True) -> Iterator[None]:
    """Call ``handler(signal number)`` on SIGTERM and SIGINT for the block's duration (from the main thread only:
    elsewhere, or with ``enabled`` false, nothing is installed)."""
    loop = asyncio.get_running_loop()
    installed: list[int] = []
    for sig in (signal.SIGTERM, signal.SIGINT) if enabled else ():
        try:
            loop.add_signal_handler(sig, handler, int(sig))
            installed.append(sig)
        except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
            pass
    try:
        yield
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


__all__ = ["on_stop_signals", "run_series"]
