"""``traitors serve --config FILE``: the service for a real series against a real server (``docs/operator.md``).

The serve config (``bridge/config/serve.py``) names the castle, the series file, the store and the server. Secrets
never come from the config: the RCON password and MSMP secret are read from ``CASTLE_RCON_PASSWORD`` /
``CASTLE_MSMP_SECRET`` or from ``secrets_file``, which must not be readable by group or others
(``bridge.app.doctor.load_secrets``); they are never logged.

House rules of this file:

1. One store file holds the series; ``serve`` resumes its newest series, or deals a new one (fresh random seed,
   stored) into a new store. A file that is no store, holds no series or is damaged is refused
   (``bridge/loop/store.py`` house rule 6). A finished series is never restarted by accident: ``--new-series``
   starts the next one in the same store.
2. The stored settings win over the files: a series already running keeps the settings it was dealt with, even
   if the series file changed since (a warning names the file).
3. SIGTERM and SIGINT stop the service cleanly: the input being applied finishes, the phase clock stops, the store
   is closed; the next ``serve`` resumes exactly there (the deadline that passed meanwhile fires at once).
4. ``serve-demo`` (against ``traitors sandbox``) runs through ``run_series`` (``bridge/loop/runner.py``) too: one
   resume path.
5. With web pages, a series that ends keeps them up until the spectator page has been sent its end (the
   final announcements and the record, through ``spectator_delay``), then ``[web] linger`` seconds more, so a
   spectator sees the end; a stop signal ends the wait at once. A stopped series (not over) takes them down at
   once.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import json
import logging
import secrets
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from starlette.routing import BaseRoute

from bridge.app.demo_output import phase_line
from bridge.app.doctor import load_secrets
from bridge.app.export import format_record
from bridge.app.records import records_db, records_password
from bridge.app.season import Records, run_season
from bridge.app.stored import open_store, refuse_new_while_running, store_is_there
from bridge.config.serve import ServeConfig
from bridge.config.settings import AnySettings
from bridge.config.settings_json import settings_to_json
from bridge.io.msmp import MsmpClient
from bridge.io.rcon import RconClient
from bridge.loop.faults import Fault
from bridge.loop.lobby_run import Season
from bridge.loop.runner import on_stop_signals, run_series
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore, StoreError
from bridge.records.db import RecordsDb
from bridge.records.stats import lab_key
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from bridge.web.server import WebServer, announce_pages, check_bind, host_keys, serving
from engine.effects import ClockStarted, Effect
from engine.errors import ConfigError

log = logging.getLogger("castle.serve")


# ---------------------------------------------------------------------------------------------- logging


class JsonLines(logging.Formatter):
    """One JSON object a line: ``{"time", "level", "logger", "message", …extra fields}``.

    Extra fields come from ``log.info("…", extra={"series": 1})``; secrets are never passed to the logger.
    """

    _STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in self._STANDARD and not key.startswith("_"):
                out[key] = value if isinstance(value, (str, int, float, bool, type(None))) else str(value)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def setup_logging(fmt: str = "json", level: str = "info", stream: TextIO | None = None) -> None:
    """Send every log record (the service, its phase clock, RCON, MSMP) to ``stream`` (stderr) as JSON lines or text.

    Args:
        fmt: ``"json"`` or ``"text"``.
        level: ``"debug"`` … ``"error"``.
        stream: where to write (default ``sys.stderr``).
    """
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(
        JsonLines() if fmt == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("websockets").setLevel(max(logging.WARNING, root.level))


# ---------------------------------------------------------------------------------------------- running


def series_to_run(store: SeriesStore, settings: AnySettings, *, new: bool = False, source: str = "") -> int | None:
    """The stored series to resume, or ``None`` when a new one is to be dealt (house rules 1 and 2).

    Args:
        store: the locked store.
        settings: the settings from the files (a running series keeps its own; a warning says they differ).
        new: start a new series even if the store has one (only allowed when that one is over).
        source: the series file, named in the warning when the stored settings differ.

    Raises:
        StoreError: the newest series is over and ``new`` is not set, or ``new`` while a series still runs.
    """
    latest = store.latest()
    over = latest is not None and store.is_over(latest)
    if latest is None or (new and over):
        return None
    if new:
        refuse_new_while_running(store)
    if over:
        raise StoreError(
            f"{store.path}: series {latest} is over; export it (traitors export {store.path}) and run "
            "serve --new-series to start the next one"
        )
    if settings_to_json(store.load(latest).settings) != settings_to_json(settings):
        log.warning(
            "the stored series %d keeps the settings it was dealt with; %s now differs",
            latest,
            source or "the series file",
            extra={"event": "settings_differ", "series": latest},
        )
    return latest


def deal_series(store: SeriesStore, settings: AnySettings) -> int:
    """Store a new series with a fresh random seed (house rule 1); its id."""
    return store.create(settings, secrets.randbelow(2**62)).id


class _Progress:
    """What ``serve`` says while it runs: the ``ready`` line (stdout and the log) and a log line per phase."""

    def __init__(self, series_id: int, out: TextIO, pages: WebServer | None = None) -> None:
        self.series_id = series_id
        self.out = out
        self.pages = pages
        self.service: SeriesService | None = None

    def ready(self, service: SeriesService) -> None:
        if self.pages is not None:
            self.pages.hub.attach(service)
        stored = service.stored
        self.series_id = stored.id if stored is not None else self.series_id
        game = service.game
        phase = game.phase.value if game.phase is not None else "none"
        log.info("ready", extra={"event": "ready", "series": self.series_id, "inputs": len(game.log), "phase": phase})
        print(f"ready series={self.series_id} inputs={len(game.log)} phase={phase}", file=self.out, flush=True)
        self.service = service

    def phase(self, effect: Effect) -> None:
        if isinstance(effect, ClockStarted):
            day = self.service.game.day if self.service is not None else None
            log.info(
                phase_line(effect.label.text, effect.seconds, day),
                extra={"event": "phase", "series": self.series_id, "day": day, "seconds": effect.seconds},
            )


def _secrets(config: ServeConfig, env: Mapping[str, str]) -> tuple[str, str | None]:
    """The RCON password and the MSMP secret (``None`` without ``[msmp]``).

    Raises:
        ConfigError: no RCON password, a bad secrets file, or ``msmp.url`` without an MSMP secret.
    """
    password, msmp_secret = load_secrets(env, config.secrets_file)
    if password is None:
        raise ConfigError(
            f"{config.path}: no RCON password: set CASTLE_RCON_PASSWORD in the environment"
            + (f" or in {config.secrets_file}" if config.secrets_file else " or use secrets_file")
        )
    if config.msmp_url is None:
        return password, None
    if msmp_secret is None:
        raise ConfigError(f"{config.path}: msmp.url is set but there is no MSMP secret: set CASTLE_MSMP_SECRET")
    return password, msmp_secret


def web_hub(delay: float) -> WebHub:
    """The pages' hub, whose spectator page ends with the game log as ``traitors export`` prints it."""
    return WebHub(delay=delay, record_text=lambda record: format_record(record, "text"))


async def serve(
    config: ServeConfig,
    env: Mapping[str, str],
    *,
    new: bool = False,
    out: TextIO | None = None,
    insecure_bind: bool = False,
) -> int:
    """``traitors serve``: run the configured series until it ends or a stop signal arrives.

    An existing store is checked and locked first; a new store is made, and a new series dealt, only once the
    server has answered (``store_is_there``).

    Args:
        config: the loaded serve config.
        env: the environment (secrets).
        new: ``--new-series``.
        out: where to print the ``ready …`` line, the pages' addresses and the final record (default stdout).
        insecure_bind: ``--insecure-bind``: serve the pages on a non-loopback ``[web]`` address without TLS.

    Returns:
        0 when the series is over or was stopped cleanly.

    Raises:
        ConfigError: no RCON password, a bad secrets file, or a store problem (exit code 2).
        BridgeError: the server cannot be reached at start (exit code 1).
    """
    out = out or sys.stdout
    password, msmp_secret = _secrets(config, env)
    keys = host_keys(env, config.secrets_file, config.settings.hosts) if config.web is not None else HostKeys({})
    if config.web is not None:
        check_bind(config.web, insecure_bind, str(config.path))
    db = records_db(config.records, records_password(env, config.secrets_file))
    store = open_store(config.store, fresh=new or config.lobby) if store_is_there(config.store) else None
    msmp: MsmpClient | None = None
    records: Records | None = None
    season = Season()
    try:
        resume = None
        if store is not None and not config.lobby:
            resume = series_to_run(store, config.settings, new=new, source=config.series.path)
        async with (
            RconClient(config.rcon_host, config.rcon_port, password, timeout=10.0) as rcon,
            serving(
                config.web,
                keys,
                hub=web_hub(config.web.spectator_delay) if config.web else None,
                insecure_bind=insecure_bind,
                announce=announce_pages(out),
                extra_routes=web_routes(config, db, season, keys),
            ) as pages,
        ):
            if config.msmp_url is not None and msmp_secret is not None:
                msmp = MsmpClient(config.msmp_url, msmp_secret, timeout=10.0, ca_file=config.msmp_ca_file)
                await msmp.start()
                log.info("MSMP connected (version %s)", msmp.version, extra={"event": "msmp"})
            if store is None:
                store = open_store(config.store, fresh=new or config.lobby)
            records = Records(store, db, config)
            records.start()
            started = time.monotonic()
            if config.lobby:
                progress = _Progress(0, out, pages)
                last = await run_season(
                    config,
                    store,
                    rcon,
                    records,
                    msmp=msmp,
                    on_ready=progress.ready,
                    observer=progress.phase,
                    fault=Fault.from_env(env),
                    season=season,
                    out=out,
                )
                if last is not None and last.game.outcome is None:
                    _report_end(last, season.series or 0, started, out)
                return 0
            series_id = resume if resume is not None else deal_series(store, config.settings)
            log.info(
                "series %d %s",
                series_id,
                "resuming" if resume is not None else "created",
                extra={"event": "series", "series": series_id, "store": str(config.store)},
            )
            progress = _Progress(series_id, out, pages)
            service = await run_series(
                store,
                series_id,
                rcon,
                config.castle,
                msmp=msmp,
                poll_interval=config.poll_interval,
                on_ready=progress.ready,
                observer=progress.phase,
                fault=Fault.from_env(env),
            )
            if service.game.outcome is not None:
                await records.flush_once()
            _report_end(service, series_id, started, out)
            if pages is not None and config.web is not None and service.game.outcome is not None:
                await linger(pages.hub, config.web.linger, out)
        return 0
    finally:
        if records is not None:
            await records.close()
        if msmp is not None:
            await msmp.close()
        if store is not None:
            store.close()


async def linger(hub: WebHub, seconds: float, out: TextIO) -> None:
    """Keep the pages up after the series (house rule 5): until the spectator page has been sent the end through
    its delay, then ``seconds`` more; SIGTERM or SIGINT ends the wait at once."""
    stop = asyncio.Event()
    print(
        f"the series is over; the pages stay up {hub.spectator.line.delay + seconds:.0f} s more for the "
        "spectators (Ctrl-C ends it)",
        file=out,
        flush=True,
    )
    with on_stop_signals(lambda _sig: stop.set()):
        await hub.drain(stop)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)


def web_routes(config: ServeConfig, db: RecordsDb, season: Season, keys: HostKeys) -> list[BaseRoute]:
    """The pages served beside the grimoire: the stats pages (``[records] pages``) and, in a season, the host's
    lobby page."""
    from bridge.web.lobby_pages import lobby_routes
    from bridge.web.stats_pages import stats_routes

    routes = list(stats_routes(db, lab_key(config.records.lab_series, config.records.lab_seed)))
    if config.lobby:
        routes += lobby_routes(season, keys)
    return routes


def _report_end(service: SeriesService, series_id: int, started: float, out: TextIO) -> None:
    """Log how the run ended; a finished series' record goes to ``out``."""
    game = service.game
    if game.outcome is not None:
        log.info("series over: %s", game.outcome.winner.title, extra={"event": "over", "series": series_id})
        print(format_record(game.record, "text"), file=out)
    else:
        log.info(
            "stopped after %.1f s; resume with the same command",
            time.monotonic() - started,
            extra={"event": "stopped", "series": series_id, "inputs": len(game.log)},
        )


SERVE_TEMPLATE = """# traitors serve --config serve.toml   (docs/operator.md)
# Relative paths are relative to this file. Secrets never go here: set CASTLE_RCON_PASSWORD and
# CASTLE_MSMP_SECRET in the environment, or write them (KEY=value) into secrets_file and chmod 600 it.
castle = "castle.toml"
series = "series/traitors-12.toml"
store = "series.db"
# The contestants' Minecraft names in seat order (as many as the series file's contestant_count).
contestants = ["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea"]
# The hosts' Minecraft names (overrides the series file's hosts).
hosts = ["Host"]
# secrets_file = "castle.secrets"

[rcon]
host = "127.0.0.1"
port = 25575

[msmp]
# wss:// (TLS) is vanilla's default (management-server-tls-enabled=true); use ws:// only with TLS turned off
# and the server on this machine.
url = "wss://127.0.0.1:25585"
# The certificate to trust, when the server's keystore holds a self-signed one (or the CA that signed it).
# ca_file = "msmp-ca.pem"

[log]
format = "json"     # json | text
level = "info"      # debug | info | warning | error

[web]
# The host's web grimoire and the spectator page (docs/host.md). Each host has a token: CASTLE_WEB_TOKEN_<NAME>
# (CASTLE_WEB_TOKEN for the first host) in secrets_file or the environment, or one made at start and printed
# once, with a one-time login link per host.
bind = "127.0.0.1"  # another address needs tls_cert and tls_key (or serve --insecure-bind)
port = 8765
# tls_cert = "web.pem"
# tls_key = "web-key.pem"
# server_names = ["castle.example"]  # names the pages answer to besides loopback and bind (DNS rebinding)
spectator_delay = 0  # seconds the spectator page lags behind (a streamer's delay)
max_spectators = 200  # spectator pages at once
client_queue = 1000  # messages a page may fall behind before it is dropped
linger = 120         # seconds the pages stay up after the series, once the spectator page has shown the end

[records]
# Every finished series is recorded here; the stats pages (/stats) read it (docs/seasons.md).
url = "records.db"  # a SQLite file beside this one, or "postgresql://castle@db.example.org:5432/castle"
# castle = "north"        # this castle's name in the records (default: this machine's name)
# season = "2026-spring"  # the season label of the series played from now on
# Leave out `contestants` above to run a season: players sign up in the castle's lobby and the host draws the
# cast of each series (docs/host.md, "The lobby").
"""


def init_config(folder: str | Path) -> list[tuple[Path, bool]]:
    """``traitors init-config DIR``: write the sample castle, the shipped series files and a serve config.

    Existing files are kept (never overwritten).

    Returns:
        Every sample file, castle and serve config first, then the series files by name, each with whether it
        was written (``False``: a file of that name was there and is kept).

    Raises:
        ConfigError: ``folder`` is a file.
        OSError: the folder or a file cannot be written (no permission, a missing parent the user cannot create).
    """
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise ConfigError(f"{root}: not a folder; init-config writes its files into a folder (give a new path)")
    (root / "series").mkdir(parents=True, exist_ok=True)
    wanted: dict[Path, str] = {
        root / "castle.toml": importlib.resources.files("world_config").joinpath("castle.toml").read_text("utf-8"),
        root / "serve.toml": SERVE_TEMPLATE,
    }
    for item in importlib.resources.files("world_config.series").iterdir():
        if item.name.endswith(".toml"):
            wanted[root / "series" / item.name] = item.read_text(encoding="utf-8")
    done = []
    for path, text in wanted.items():
        kept = path.exists()
        if not kept:
            path.write_text(text, encoding="utf-8")
        done.append((path, not kept))
    return done


__all__ = [
    "JsonLines",
    "deal_series",
    "init_config",
    "serve",
    "series_to_run",
    "setup_logging",
]
