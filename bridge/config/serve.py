"""The serve config (``traitors serve --config FILE``; ``docs/operator.md``), with the castle and series files
it names loaded and cross-checked.

The serve config is a TOML file (``init-config`` writes a sample)::

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
    url = "wss://127.0.0.1:25585"           # wss:// (TLS, vanilla's default); ws:// only with TLS turned off
    ca_file = "msmp-ca.pem"                 # optional: the certificate (or its CA) to trust for wss://
    [log]
    format = "json"                         # json (one JSON object a line) | text
    level = "info"                          # debug | info | warning | error
    [web]                                   # optional: the host's web grimoire and the spectator page
    bind = "127.0.0.1"                      # another address needs tls_cert + tls_key, or --insecure-bind
    port = 8765                             # 0: any free port (printed at start)
    tls_cert = "web.pem"                    # optional: serve https:// and wss:// with this certificate
    tls_key = "web-key.pem"                 #   and its private key
    spectator_delay = 0                     # seconds the spectator page lags behind (a streamer's delay)
    server_names = ["castle.example"]       # optional: names the pages answer to besides loopback and bind
    max_spectators = 200                    # spectator pages connected at once (more are turned away)
    client_queue = 1000                     # messages a page may fall behind before it is dropped
    linger = 120                            # seconds the pages stay up once the spectator page has shown the end
    [records]                               # optional: where finished series are recorded (docs/seasons.md)
    url = "records.db"                      # a SQLite file (default), or "postgresql://user@host:5432/castle"
    castle = "north"                        # this castle's name in the records (default: the machine's name)
    season = "2026-spring"                  # the season label of the series played now (default: none)
    lab_series = 1000                       # the balance lab's series per setup, for the stats pages
    [lobby]                                 # optional: the sign-up lobby (docs/host.md, "The lobby")
    board = [88.5, 67.5, -9.5]              # where the sign-up board stands (default: above the foyer)

Without ``contestants`` here or in the series file, ``serve`` runs a season: players sign up in the lobby and
the host draws the cast for each series (``docs/host.md``).

Relative paths are relative to the config file. Secrets never come from the config: a key that looks like a
password or secret is refused; the RCON password and MSMP secret come from the environment or ``secrets_file``.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import Field, field_validator

from bridge.config.castle import CastleConfig, default_castle
from bridge.config.castle_file import load_castle
from bridge.config.kinds import check_kind
from bridge.config.model import ConfigFileError, ConfigModel, read_toml, validate
from bridge.config.records_url import url_problem
from bridge.config.series import SeriesFile, load_series
from bridge.config.settings import AnySettings
from engine.errors import ConfigError
from engine.rulesets import ruleset_of

T = TypeVar("T")


class RconModel(ConfigModel):
    """``[rcon]``: the server's RCON address (``server.properties`` ``rcon.port``)."""

    host: str = "127.0.0.1"
    port: int = Field(default=25575, ge=1, le=65535)


class MsmpModel(ConfigModel):
    """``[msmp]``: the server's management protocol address, ``wss://`` (TLS) or ``ws://``, and the PEM file
    of the certificate to trust for ``wss://`` (the server's own when self-signed, or the CA that signed it;
    without it the system's trust store decides)."""

    url: str = Field(pattern=r"^wss?://[^/\s]+(:\d+)?/?$")
    ca_file: str | None = None


class LogModel(ConfigModel):
    """``[log]``: how the service logs (to stderr)."""

    format: Literal["json", "text"] = "json"
    level: Literal["debug", "info", "warning", "error"] = "info"


LINGER = 120.0
"""Seconds the web pages stay up after a series by default, once the spectator page has shown its end: time for a
spectator to open the page, or reload it, and read the record."""


class WebModel(ConfigModel):
    """``[web]``: where the host's grimoire and the spectator page are served (``docs/host.md``)."""

    bind: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    tls_cert: str | None = None
    tls_key: str | None = None
    spectator_delay: float = Field(default=0, ge=0, le=3600)
    server_names: list[str] = Field(default_factory=list, max_length=32)
    max_spectators: int = Field(default=200, ge=1, le=100_000)
    client_queue: int = Field(default=1000, ge=10, le=1_000_000)
    linger: float = Field(default=LINGER, ge=0, le=86400)

    @field_validator("server_names")
    @classmethod
    def _plain_names(cls, names: list[str]) -> list[str]:
        """A name is matched against the ``Host`` header without its port (``bridge/web/guard.py``): a port, a
        space or a wildcard could never match, so it is refused here rather than every page later."""
        for name in names:
            port = name.count(":") == 1 or "]:" in name  # one colon: a name and a port; an IPv6 address has more
            if not name.strip("[]") or port or any(c in name for c in " */?#@"):
                raise ValueError(f'{name!r}: a host name or address without a port or wildcard ("castle.example")')
        return names


@dataclass(frozen=True, slots=True)
class WebConfig:
    """A checked ``[web]`` section.

    Args:
        bind: the address to listen on (loopback unless TLS or ``--insecure-bind``: ``bridge/web/server.py``).
        port: the TCP port (0: any free one).
        tls_cert, tls_key: PEM files for https:// and wss://, or both ``None``.
        spectator_delay: seconds the spectator page is held back.
        server_names: the names (``Host`` header) the pages answer to besides the loopback names and ``bind``: the
            DNS name or address the hosts and spectators type (``bridge/web/guard.py``).
        max_spectators: spectator pages connected at once; more are turned away until one leaves.
        client_queue: messages a page may fall behind before it is dropped (``bridge/web/hub.py``).
        linger: seconds the pages stay up after the series, once the spectator page has been sent its end (the
            record) through the delay.
    """

    bind: str = "127.0.0.1"
    port: int = 8765
    tls_cert: Path | None = None
    tls_key: Path | None = None
    spectator_delay: float = 0.0
    server_names: tuple[str, ...] = ()
    max_spectators: int = 200
    client_queue: int = 1000
    linger: float = LINGER


class RecordsModel(ConfigModel):
    """``[records]``: the records database (``docs/seasons.md``); ``lab_series`` and ``lab_seed`` are the balance
    lab's run for each setup's prediction (``traitors simulate --series N --seed S``)."""

    url: str = "records.db"
    castle: str | None = Field(default=None, min_length=1, max_length=64)
    season: str = Field(default="", max_length=64)
    lab_series: int = Field(default=1000, ge=10, le=100_000)
    lab_seed: int = 1

    @field_validator("url")
    @classmethod
    def _usable_url(cls, url: str) -> str:
        """The address the service will open (``bridge/config/records_url.py``): a password in it, an unknown kind
        of database or no file is refused here, when the config is checked, rather than when the series ends."""
        problem = url_problem(url)
        if problem is not None:
            raise ValueError(problem)
        return url


class LobbyModel(ConfigModel):
    """``[lobby]``: where the sign-up board stands (``[x, y, z]`` in blocks; default above the foyer)."""

    board: list[float] | None = Field(default=None, min_length=3, max_length=3)


@dataclass(frozen=True, slots=True)
class RecordsConfig:
    """A checked ``[records]`` section.

    Args:
        url: the database's address (``bridge.config.records_url.parse_url``: a file, ``sqlite:///…`` or ``postgresql://…``).
        base: the folder a relative SQLite path is relative to (the serve config's).
        castle: this castle's name in the records.
        season: the season label of the series played now (``""``: none).
        lab_series, lab_seed: the balance lab's run per setup (the stats pages' prediction).
    """

    url: str = "records.db"
    base: Path = Path(".")
    castle: str = ""
    season: str = ""
    lab_series: int = 1000
    lab_seed: int = 1


class ServeModel(ConfigModel):
    """The serve config file (see the module docstring); ``poll_interval`` in seconds (0 < s <= 5)."""

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
    web: WebModel | None = None
    records: RecordsModel = Field(default_factory=RecordsModel)
    lobby: LobbyModel = Field(default_factory=LobbyModel)


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
        msmp_ca_file: the PEM file to trust for ``wss://``, or ``None`` (the system's trust store).
        secrets_file: the secrets file, or ``None`` (environment only).
        log_format, log_level: logging.
        poll_interval: seconds between polls of the input queue.
        web: the ``[web]`` section, or ``None`` (no web pages).
        records: the ``[records]`` section (the records database; SQLite beside the config by default).
        lobby: no contestants are named (here or in the series file): ``serve`` runs a season of series whose
            casts are drawn from the lobby's sign-ups; ``settings`` then has placeholder names.
        board: where the lobby's sign-up board stands (blocks).
    """

    path: Path
    castle: CastleConfig
    castle_path: Path | None
    series: SeriesFile
    settings: AnySettings
    store: Path
    rcon_host: str
    rcon_port: int
    msmp_url: str | None
    msmp_ca_file: Path | None
    secrets_file: Path | None
    log_format: str
    log_level: str
    poll_interval: float
    web: WebConfig | None = None
    records: RecordsConfig = RecordsConfig()
    lobby: bool = False
    board: tuple[float, float, float] | None = None


def check_seats(castle: CastleConfig, castle_name: str, settings: AnySettings, series_name: str) -> list[str]:
    """Problems when the castle lacks a round-table seat, a home or (The Traitors) a place at the breakfast table
    for a contestant (rulebook §10): the places of the ruleset's ``Ruleset.castle_places``.

    Returns:
        ``["castle.toml: seats: 12 seats, but traitors-16.toml has 16 contestants: no seat for contestant 13"]``
        or ``[]``.
    """
    out = []
    n = len(settings.contestants)
    places = [
        ("seats", castle.seats, "seats", "seat"),
        ("homes", castle.homes, "homes", "home"),
        ("breakfast", castle.breakfast, "breakfast places", "place at the breakfast table"),
    ]
    needed = ruleset_of(settings).castle_places
    for key, spots, plural, what in (p for p in places if p[0] in needed):
        if len(spots) < n:
            out.append(
                f"{castle_name}: {key}: {len(spots)} {plural}, but {series_name} has {n} contestants: "
                f"no {what} for contestant {len(spots) + 1}"
            )
    return out


def load_serve_config(path: str | Path) -> ServeConfig:
    """Read and check a serve config and the castle and series files it names.

    Raises:
        ConfigError: any problem in any of the files; every line names the file and the key path; or one line
            when the file is another kind of file (a castle or series file given as the serve config).
    """
    data = read_toml(path)
    check_kind(data, str(path), "serve")
    return serve_config_from_data(data, Path(path))


def serve_config_from_data(data: Mapping[str, Any], path: Path) -> ServeConfig:
    """Check the parsed TOML of the serve config at ``path`` (``load_serve_config`` without the reading).

    Raises:
        ConfigError: as for ``load_serve_config``.
    """
    name = str(path)
    if _secret_keys(data):
        raise ConfigError(
            f"{name}: secrets do not belong in the serve config; set CASTLE_RCON_PASSWORD and "
            "CASTLE_MSMP_SECRET in the environment or in secrets_file (chmod 600)"
        )
    m = validate(ServeModel, data, name)

    def rel(p: str) -> Path:
        q = Path(p).expanduser()
        return q if q.is_absolute() else path.parent / q

    castle_path = rel(m.castle) if m.castle else None
    problems: list[str] = []
    castle = _named_file(load_castle, castle_path, "castle", path, problems) if castle_path else default_castle()
    series = _named_file(load_series, rel(m.series), "series", path, problems)
    if m.web is not None and (m.web.tls_cert is None) != (m.web.tls_key is None):
        problems.append(f"{name}: web: tls_cert and tls_key go together (a certificate and its private key)")
    if castle is None or series is None or problems:
        raise ConfigError("\n".join(problems))
    lobby = m.contestants is None and not series.named
    try:
        settings = series.settings_for(series.settings.contestants if lobby else m.contestants, m.hosts)
    except ConfigError as exc:
        raise ConfigError(f"{name}: contestants: {exc}" if m.contestants is not None else str(exc)) from None
    problems = check_seats(castle, str(castle_path or "castle.toml (shipped)"), settings, series.path)
    if problems:
        raise ConfigError("\n".join(problems))
    web = None
    if m.web is not None:
        web = WebConfig(
            m.web.bind,
            m.web.port,
            rel(m.web.tls_cert) if m.web.tls_cert else None,
            rel(m.web.tls_key) if m.web.tls_key else None,
            m.web.spectator_delay,
            tuple(m.web.server_names),
            m.web.max_spectators,
            m.web.client_queue,
            m.web.linger,
        )
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
        msmp_ca_file=rel(m.msmp.ca_file) if m.msmp is not None and m.msmp.ca_file else None,
        secrets_file=rel(m.secrets_file) if m.secrets_file else None,
        log_format=m.log.format,
        log_level=m.log.level,
        poll_interval=m.poll_interval,
        web=web,
        records=RecordsConfig(
            m.records.url,
            path.parent,
            m.records.castle or socket.gethostname(),
            m.records.season,
            m.records.lab_series,
            m.records.lab_seed,
        ),
        lobby=lobby,
        board=(m.lobby.board[0], m.lobby.board[1], m.lobby.board[2]) if m.lobby.board else None,
    )


def _named_file(load: Callable[[Path], T], file: Path, key: str, config: Path, problems: list[str]) -> T | None:
    """``load(file)``, or ``None`` with its problems added to ``problems``, each line naming the file as resolved
    and the config key that named it: ``/srv/castle/castle.toml (castle, from /srv/castle/serve.toml): cannot
    read the file: No such file or directory``. A relative name alone does not say which folder was searched."""
    try:
        return load(file)
    except ConfigFileError as exc:
        where = f"{file.absolute()} ({key}, from {config.absolute()})"
        problems += [f"{where}: {p}" for p in exc.problems]
        return None


def _secret_keys(data: Any) -> list[str]:
    """Keys that look like a password or secret written into the config (refused: see the module docstring)."""
    found: list[str] = []
    if isinstance(data, dict):
        for k, v in data.items():
            if any(w in str(k).lower() for w in ("password", "secret")) and k != "secrets_file":
                found.append(str(k))
            found += _secret_keys(v)
    return found


__all__ = [
    "LobbyModel",
    "LogModel",
    "MsmpModel",
    "RconModel",
    "RecordsConfig",
    "RecordsModel",
    "ServeConfig",
    "ServeModel",
    "WebConfig",
    "WebModel",
    "check_seats",
    "load_serve_config",
    "serve_config_from_data",
]
