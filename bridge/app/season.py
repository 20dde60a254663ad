"""A season on one server: ``traitors serve`` without a fixed cast runs the lobby, then the series the host
starts from it, then the lobby again, until stopped; every finished series goes into the records database
(``docs/seasons.md``; ``docs/host.md``, "The lobby").

House rules of this file:

1. One store holds the season: the lobby's sign-ups, every series, and the records outbox
   (``bridge/loop/season_store.py``). A store whose newest series still runs resumes it before any lobby opens.
2. The cast is the lobby's, in seat order (the draw's); the series file gives the size and the setup; the series
   is dealt from a fresh random seed, as every real series. The lobby's other sign-ups are the series' stand-bys,
   whom "Replace a contestant" calls in (``bridge/loop/console.py`` house rule 4).
3. The records: when a series ends it is written to the records database; a database that cannot be reached or
   is damaged is one warning line, and the series waits in the store's outbox, retried with backoff (1 s
   doubling to 5 minutes) while the service runs, and at its next start (``Records``).
4. After a series is recorded, the balance lab's prediction for its setup is made once (in a worker process, so
   the castle is never slowed) and cached in the records database for the stats pages.
5. SIGTERM and SIGINT stop the lobby (the sign-ups stay) or the series (it resumes, ``bridge/app/serve.py``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import secrets
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from bridge.app.records import CASTLE, MINECRAFT, SEASON, flush
from bridge.config.serve import ServeConfig
from bridge.io.rcon import RconClient
from bridge.loop.clock import QuietGate
from bridge.loop.faults import Fault
from bridge.loop.lobby_run import LobbyRunner, Season, standbys_of
from bridge.loop.runner import run_series
from bridge.loop.season_store import SeasonStore
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore
from bridge.records.db import RecordsDb, RecordsUnavailable
from bridge.records.stats import lab_key
from engine.effects import Effect
from engine.rulesets import ruleset_of

if TYPE_CHECKING:
    from bridge.io.msmp import MsmpClient

__all__ = ["Records", "run_season"]

log = logging.getLogger("castle.serve")

RETRY_FIRST, RETRY_MOST = 1.0, 300.0
"""Seconds before the records outbox is tried again after a failure, doubling up to the most (house rule 3)."""


class Records:
    """The records outbox of one store, kept flushing in the background (house rules 3 and 4).

    Args:
        store: the series store.
        db: the records database.
        config: the serve config (``[records]``: castle, season, the lab's run).
    """

    def __init__(self, store: SeriesStore, db: RecordsDb, config: ServeConfig) -> None:
        self.store, self.db, self.config = store, db, config
        self._kick = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._lab: concurrent.futures.ProcessPoolExecutor | None = None
        self.failures = 0

    def start(self) -> None:
        """Begin flushing (now, and after each ``kick``)."""
        self._kick.set()
        self._task = asyncio.create_task(self._keep_flushing())

    def kick(self) -> None:
        """A series ended: flush now."""
        self._kick.set()

    async def flush_once(self) -> bool:
        """Try once; True when nothing is left waiting."""
        records = self.config.records
        try:
            done = await flush(self.store, self.db, castle=records.castle, season=records.season)
        except RecordsUnavailable as exc:
            self.failures += 1
            log.warning(
                "%s; the series wait in %s and are written when it is back",
                exc,
                self.store.path,
                extra={"event": "records_unavailable"},
            )
            return False
        for series_id in done:
            await self._predict(series_id)
        return True

    async def _keep_flushing(self) -> None:
        wait = RETRY_FIRST
        while True:
            await self._kick.wait()
            self._kick.clear()
            while not await self.flush_once():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._kick.wait(), wait)
                self._kick.clear()
                wait = min(RETRY_MOST, wait * 2)
            wait = RETRY_FIRST

    async def _predict(self, series_id: int) -> None:
        """House rule 4: the lab's prediction for the series' setup, unless cached."""
        from bridge.app.stats import predict
        from bridge.config.settings_json import settings_to_json
        from bridge.records.entry import setup_key, setup_of

        records = self.config.records
        settings = self.store.load(series_id).settings
        setup = setup_of(settings_to_json(settings), ruleset_of(settings).name)
        key, lab = setup_key(setup), lab_key(records.lab_series, records.lab_seed)
        try:
            if await asyncio.to_thread(self.db.prediction, key, lab) is not None:
                return
            if self._lab is None:
                self._lab = concurrent.futures.ProcessPoolExecutor(max_workers=1)
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(self._lab, predict, setup, records.lab_series, records.lab_seed)
            await asyncio.to_thread(self.db.put_prediction, key, lab, ruleset_of(settings).name, result)
            log.info("balance lab prediction cached for setup %s", key, extra={"event": "lab", "setup": key})
        except RecordsUnavailable as exc:
            log.warning("%s; the lab prediction waits for traitors stats", exc)
        except Exception:  # the lab must never stop the season
            log.exception("the balance lab failed on setup %s", key)

    async def close(self) -> None:
        """Stop flushing; wait for a prediction under way."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._lab is not None:
            self._lab.shutdown(wait=True, cancel_futures=True)


async def run_season(
    config: ServeConfig,
    store: SeriesStore,
    rcon: RconClient,
    records: Records,
    *,
    msmp: MsmpClient | None = None,
    on_ready: Callable[[SeriesService], None] | None = None,
    observer: Callable[[Effect], None] | None = None,
    quiet: QuietGate | None = None,
    fault: Fault | None = None,
    season: Season | None = None,
    out: TextIO | None = None,
    series_limit: int | None = None,
) -> SeriesService | None:
    """Lobby → series → lobby … until a stop signal (house rules 1-5).

    Args:
        config: the serve config (its series file gives size and setup; ``hosts``; ``[lobby]``; ``[records]``).
        store: the open, locked store.
        rcon: the RCON client.
        records: the records outbox (started).
        msmp, on_ready, observer, quiet, fault: as ``bridge.loop.runner.run_series`` takes them.
        season: what the web pages see (the open lobby).
        out: where the ``lobby series=N`` line goes when a lobby opens (stdout), or ``None``.
        series_limit: stop after this many series have ended in this run (tests), or ``None``.

    Returns:
        The last series' service, or ``None`` when none ran.
    """
    season = season if season is not None else Season()
    service: SeriesService | None = None
    ended = 0
    season_store = SeasonStore(store)
    while series_limit is None or ended < series_limit:
        latest = store.latest()
        if latest is not None and not store.is_over(latest):
            series_id = latest
        else:
            cast = await _lobby(config, store, rcon, season, out)
            if cast is None:
                return service
            settings = config.series.settings_for(cast, config.settings.hosts)
            series_id = store.create(settings, secrets.randbelow(2**62), ruleset=ruleset_of(settings).name).id
            season_store.note(series_id, CASTLE, config.records.castle)
            season_store.note(series_id, SEASON, config.records.season)
        season.series = series_id
        log.info("series %d starting", series_id, extra={"event": "series", "series": series_id})

        def ready(service: SeriesService, series_id: int = series_id) -> None:
            version = service.server_version
            season_store.note(series_id, MINECRAFT, version.reported or version.forms.name)
            if on_ready is not None:
                on_ready(service)

        standbys = standbys_of(
            store, series_id, config.castle, seats=config.series.contestant_count, hosts=config.settings.hosts
        )
        service = await run_series(
            store,
            series_id,
            rcon,
            config.castle,
            msmp=msmp,
            poll_interval=config.poll_interval,
            on_ready=ready,
            observer=observer,
            quiet=quiet,
            fault=fault,
            standbys=standbys,
        )
        season.series = None
        if service.game.outcome is None:  # stopped: the series resumes at the next start
            return service
        ended += 1
        log.info(
            "series %d over: %s",
            series_id,
            service.game.outcome.winner.title,
            extra={"event": "over", "series": series_id},
        )
        records.kick()
    return service


async def _lobby(
    config: ServeConfig, store: SeriesStore, rcon: RconClient, season: Season, out: TextIO | None
) -> list[str] | None:
    """Run the lobby of the next series until the host starts it (the cast) or a stop signal (``None``)."""
    lobby = LobbyRunner(
        store,
        rcon,
        config.castle,
        seats=config.series.contestant_count,
        hosts=config.settings.hosts,
        board=config.board,
        poll_interval=config.poll_interval,
    )
    lobby.listeners = season.listeners
    season.lobby = lobby
    loop = asyncio.get_running_loop()
    installed = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, lobby.request_stop)
            installed.append(sig)
        except (NotImplementedError, RuntimeError):  # not the main thread
            pass
    if out is not None:  # once a stop signal would be heard: who reads this line may send one at once
        print(f"lobby series={lobby.round} signups={len(lobby.lobby.signups)}", file=out, flush=True)
    try:
        return await lobby.run()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
        season.lobby = None
