"""``traitors serve --config FILE``: the service for a real series against a real server (``docs/operator.md``).

The serve config is a TOML file (``world_config/serve.example.toml``)::

    castle = "castle.toml"                  # optional: the shipped sample castle
    series = "series/traitors-12.toml"      # the series file (bridge/config/series.py)
    store = "series.db"                     # the series store (bridge/loop/store.py; docs/recovery.md)
    contestants = ["Alex", "Kai", ...]      # seat order; optional when the series file names them
    hosts = ["HostName"]                    # optional: overrides the series file's hosts
    secrets_file = "castle.secrets"         # optional: KEY=value lines, chmod 600
    [rcon]
    host = "127.0.0.1"
    port = 25575
    [msmp]                                  # optional: without it presence (joins/leaves) is not followed
    url = "ws://127.0.0.1:25585"
    [log]
    format = "json"                         # json (one JSON object a line) | text
    level = "info"                          # debug | info | warning | error

Relative paths are relative to the config file. Secrets never come from the config: the RCON password and MSMP
secret are read from ``CASTLE_RCON_PASSWORD`` / ``CASTLE_MSMP_SECRET`` or from ``secrets_file``, which must not be
readable by group or others (``bridge.app.doctor.load_secrets``); they are never logged.

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
"""

from __future__ import annotations

import json
import logging
import secrets
import sys
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bridge.config.castle import CastleConfig, ConfigFileError, default_castle, load_castle
from bridge.app.demo_output import phase_line
from bridge.app.doctor import load_secrets
from bridge.config.files import one_line_error, read_config_text
from bridge.io.msmp import MsmpClient
from bridge.io.rcon import RconClient
from bridge.config.scenario import _problems
from bridge.config.series import SeriesFile, load_series
from bridge.loop.faults import Fault
from bridge.loop.runner import run_series
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore, StoreError
from engine.effects import ClockStarted, Effect
from engine.errors import ConfigError
from engine.rulesets.traitors.settings import Settings

log = logging.getLogger("castle.serve")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class RconModel(_Model):
    host: str = "127.0.0.1"
    port: int = Field(default=25575, ge=1, le=65535)


class MsmpModel(_Model):
    url: str = Field(pattern=r"^wss?://[^/\s]+(:\d+)?/?$")


class LogModel(_Model):
    format: Literal["json", "text"] = "json"
    level: Literal["debug", "info", "warning", "error"] = "info"


class ServeModel(_Model):
    """The serve config file (see the module docstring)."""

    castle: str | None = None
    series: str
    store: str = "series.db"
    contestants: list[str] | None = None
    hosts: list[str] | None = None
    secrets_file: str | None = None
    poll_interval: float = Field(default=0.1, gt=0, le=5)
    rcon: RconModel = Field(default_factory=RconModel)
    msmp: MsmpModel | None = None
    log: LogModel = Field(default_factory=LogModel)


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """A checked serve config, with its castle and series files loaded.

    Args:
        path: the config file.
        castle: the castle.
        castle_path: the castle file, or ``None`` for the shipped sample castle.
        series: the series file.
        settings: the engine settings for this cast (contestants and hosts applied).
        store: the series store file.
        rcon_host, rcon_port: the server's RCON address.
        msmp_url: the MSMP address, or ``None``.
        secrets_file: the secrets file, or ``None`` (environment only).
        log_format, log_level: logging.
        poll_interval: seconds between polls of the input queue.
    """

    path: Path
    castle: CastleConfig
    castle_path: Path | None
    series: SeriesFile
    settings: Settings
    store: Path
    rcon_host: str
    rcon_port: int
    msmp_url: str | None
    secrets_file: Path | None
    log_format: str
    log_level: str
    poll_interval: float


def check_seats(castle: CastleConfig, castle_name: str, settings: Settings, series_name: str) -> list[str]:
    """Problems when the castle lacks a round-table seat or a home for a contestant (rulebook §10).

    Returns:
        ``["castle.toml: seats: 12 seats, but traitors-16.toml has 16 contestants: no seat for contestant 13"]``
        or ``[]``.
    """
    out = []
    n = len(settings.contestants)
    for key, spots in (("seats", castle.seats), ("homes", castle.homes)):
        if len(spots) < n:
            what = "seat" if key == "seats" else "home"
            out.append(f"{castle_name}: {key}: {len(spots)} {key}, but {series_name} has {n} contestants: "
                       f"no {what} for contestant {len(spots) + 1}")  # fmt: skip
    return out


def load_serve_config(path: str | Path) -> ServeConfig:
    """Read and check a serve config and the castle and series files it names.

    Raises:
        ConfigError: any problem in any of the files; every line names the file and the key path.
    """
    path = Path(path)
    name = str(path)
    text = read_config_text(path, one_line_error)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None
    if _secret_keys(data):
        raise ConfigError(f"{name}: secrets do not belong in the serve config; set CASTLE_RCON_PASSWORD and "
                          "CASTLE_MSMP_SECRET in the environment or in secrets_file (chmod 600)")  # fmt: skip
    try:
        m = ServeModel.model_validate(data)
    except ValidationError as exc:
        raise ConfigError("\n".join(f"{name}: {p}" for p in _problems(exc))) from None
    base = path.parent

    def rel(p: str) -> Path:
        q = Path(p).expanduser()
        return q if q.is_absolute() else base / q

    castle_path = rel(m.castle) if m.castle else None
    castle = load_castle(castle_path) if castle_path is not None else default_castle()
    series = load_series(rel(m.series))
    names = m.contestants
    try:
        settings = series.settings_for(names, m.hosts)
    except ConfigError as exc:
        raise ConfigError(f"{name}: contestants: {exc}" if names is not None else str(exc)) from None
    problems = check_seats(castle, str(castle_path or "castle.toml (shipped)"), settings, series.path)
    if problems:
        raise ConfigError("\n".join(problems))
    return ServeConfig(
        path=path,
        castle=castle,
        castle_path=castle_path,
        series=series,
        settings=settings,
        store=rel(m.store),
        rcon_host=m.rcon.host,
        rcon_port=m.rcon.port,
        msmp_url=m.msmp.url if m.msmp is not None else None,
        secrets_file=rel(m.secrets_file) if m.secrets_file else None,
        log_format=m.log.format,
        log_level=m.log.level,
        poll_interval=m.poll_interval,
    )


def _secret_keys(data: Any) -> list[str]:
    """Keys that look like a password or secret written into the config (refused: house rule of the module)."""
    found: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if any(w in str(k).lower() for w in ("password", "secret")) and k != "secrets_file":
                found.append(str(k))
            found += _secret_keys(v)
    return found


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
    handler.setFormatter(JsonLines() if fmt == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("websockets").setLevel(max(logging.WARNING, root.level))


# ---------------------------------------------------------------------------------------------- running


def open_series(store: SeriesStore, settings: Settings, *, new: bool = False, source: str = "") -> tuple[int, bool]:
    """The series to run from ``store``: its newest series, or a new one (house rules 1 and 2).

    Args:
        store: the locked store.
        settings: the settings for a new series.
        new: start a new series even if the store has one (only allowed when that one is over).
        source: the series file, named in the warning when the stored settings differ.

    Returns:
        ``(series_id, created)``.

    Raises:
        StoreError: the newest series is over and ``new`` is not set, or ``new`` while a series still runs.
    """
    from bridge.config.scenario import settings_to_json

    latest = store.latest()
    over = latest is not None and store.is_over(latest)
    if latest is None or (new and over):
        seed = secrets.randbelow(2**62)
        return store.create(settings, seed).id, True
    if new:
        raise StoreError(f"{store.path}: series {latest} is still running; finish it (or end it from the host "
                         "console) before starting a new one")  # fmt: skip
    if over:
        raise StoreError(f"{store.path}: series {latest} is over; export it (traitors export {store.path}) and run "
                         "serve --new-series to start the next one")  # fmt: skip
    stored = store.load(latest)
    if settings_to_json(stored.settings) != settings_to_json(settings):
        log.warning("the stored series %d keeps the settings it was dealt with; %s now differs", latest,
                    source or "the series file", extra={"event": "settings_differ", "series": latest})  # fmt: skip
    return latest, False


async def serve(config: ServeConfig, env: Mapping[str, str], *, new: bool = False,
                out: TextIO | None = None) -> int:  # fmt: skip
    """``traitors serve``: run the configured series until it ends or a stop signal arrives.

    Args:
        config: the loaded serve config.
        env: the environment (secrets).
        new: ``--new-series``.
        out: where to print the ``ready …`` line and the final record (default stdout).

    Returns:
        0 when the series is over or was stopped cleanly.

    Raises:
        ConfigError: no RCON password, a bad secrets file, or a store problem (exit code 2).
        BridgeError: the server cannot be reached at start (exit code 1).
    """
    from bridge.app.export import format_record

    out = out or sys.stdout
    password, msmp_secret = load_secrets(env, config.secrets_file)
    if password is None:
        raise ConfigError(f"{config.path}: no RCON password: set CASTLE_RCON_PASSWORD in the environment"
                          + (f" or in {config.secrets_file}" if config.secrets_file else " or use secrets_file"))
    if config.msmp_url is not None and msmp_secret is None:
        raise ConfigError(f"{config.path}: msmp.url is set but there is no MSMP secret: set CASTLE_MSMP_SECRET")
    store = SeriesStore(config.store, fresh=new)
    msmp: MsmpClient | None = None
    try:
        store.lock()
        series_id, created = open_series(store, config.settings, new=new, source=config.series.path)
        log.info("series %d %s", series_id, "created" if created else "resuming",
                 extra={"event": "series", "series": series_id, "store": str(config.store)})  # fmt: skip
        async with RconClient(config.rcon_host, config.rcon_port, password, timeout=10.0) as rcon:
            if config.msmp_url is not None and msmp_secret is not None:
                msmp = MsmpClient(config.msmp_url, msmp_secret, timeout=10.0)
                await msmp.start()
                log.info("MSMP connected (version %s)", msmp.version, extra={"event": "msmp"})

            running: list[SeriesService] = []

            def ready(service: SeriesService) -> None:
                game = service.game
                phase = game.phase.value if game.phase is not None else "none"
                log.info("ready", extra={"event": "ready", "series": series_id, "inputs": len(game.log),
                                         "phase": phase})  # fmt: skip
                print(f"ready series={series_id} inputs={len(game.log)} phase={phase}", file=out, flush=True)
                running.append(service)

            def log_phase(effect: Effect) -> None:
                if isinstance(effect, ClockStarted):
                    day = running[0].game.day if running else None
                    log.info(phase_line(effect.label.text, effect.seconds, day),
                             extra={"event": "phase", "series": series_id, "day": day, "seconds": effect.seconds})  # fmt: skip

            started = time.monotonic()
            service = await run_series(store, series_id, rcon, config.castle, msmp=msmp,
                                       poll_interval=config.poll_interval, on_ready=ready, observer=log_phase,
                                       fault=Fault.from_env(env))  # fmt: skip
        game = service.game
        if game.outcome is not None:
            log.info("series over: %s", game.outcome.winner.title, extra={"event": "over", "series": series_id})
            print(format_record(game.record, "text"), file=out)
        else:
            log.info("stopped after %.1f s; resume with the same command", time.monotonic() - started,
                     extra={"event": "stopped", "series": series_id, "inputs": len(game.log)})  # fmt: skip
        return 0
    finally:
        if msmp is not None:
            await msmp.close()
        store.close()


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
url = "ws://127.0.0.1:25585"

[log]
format = "json"     # json | text
level = "info"      # debug | info | warning | error
"""


def init_config(folder: str | Path) -> list[Path]:
    """``traitors init-config DIR``: write the sample castle, the shipped series files and a serve config.

    Existing files are kept (never overwritten).

    Returns:
        The files written.

    Raises:
        ConfigError: ``folder`` is a file.
        OSError: the folder or a file cannot be written (no permission, a missing parent the user cannot create).
    """
    import importlib.resources

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
    written = []
    for path, text in wanted.items():
        if not path.exists():
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def check_files(paths: Sequence[str]) -> tuple[list[str], list[str]]:
    """``traitors check-config``: check castle, series, serve and scenario files; cross-check seats.

    A file's kind comes from its keys: ``[places]`` → castle; ``series`` → serve config; ``input`` or ``[[deal]]``
    → scenario; anything else → series file.

    Returns:
        ``(ok_lines, problems)``: ``"<file>: OK (…)"`` per valid file; every problem line names the file and
        the key path.
    """
    from bridge.config.scenario import load_scenario

    ok: list[str] = []
    problems: list[str] = []
    castles: list[tuple[str, CastleConfig]] = []
    series: list[SeriesFile] = []
    for p in paths:
        try:
            kind = _kind(p)
            if kind == "castle":
                castle = load_castle(p)
                castles.append((p, castle))
                ok.append(f"{p}: OK (castle: {len(castle.seats)} seats, {len(castle.homes)} homes)")
            elif kind == "serve":
                cfg = load_serve_config(p)
                ok.append(f"{p}: OK (serve: {len(cfg.settings.contestants)} contestants, store {cfg.store})")
            elif kind == "scenario":
                sc = load_scenario(p)
                ok.append(f"{p}: OK (scenario: {len(sc.settings.contestants)} contestants, {len(sc.inputs)} inputs)")
            else:
                s = load_series(p)
                series.append(s)
                ok.append(f"{p}: OK (series: {s.ruleset}, {s.contestant_count} contestants, "
                          f"{s.settings.traitors} Traitors)")  # fmt: skip
        except ConfigFileError as exc:
            problems += str(exc).splitlines()
        except ConfigError as exc:
            problems += str(exc).splitlines()
    for cname, castle in castles:
        for s in series:
            problems += check_seats(castle, cname, s.settings, s.path)
    return ok, problems


def _kind(path: str) -> str:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "series"  # the loader names the problem
    if "places" in data or "seats" in data:
        return "castle"
    if "series" in data or "rcon" in data:
        return "serve"
    if "input" in data or "deal" in data:
        return "scenario"
    return "series"


__all__ = [
    "JsonLines",
    "ServeConfig",
    "check_files",
    "init_config",
    "check_seats",
    "load_serve_config",
    "open_series",
    "run_series",
    "serve",
    "setup_logging",
]
