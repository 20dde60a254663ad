"""Serving the web pages (uvicorn) beside the service, in the same event loop; and the host token.

House rules of this file (``docs/host.md``, "The web grimoire"; ``docs/operator.md``):

1. The pages are served on loopback (``127.0.0.1``) by default. Another address needs TLS (``[web]``
   ``tls_cert`` + ``tls_key``) or the explicit ``--insecure-bind``: the host token and every secret of the
   grimoire would otherwise cross the network in clear.
2. The host token is 128 bits from ``secrets`` (32 hex digits): ``CASTLE_WEB_TOKEN`` from the secrets file or
   the environment, else a new one made at start that the command line prints once to the operator's terminal.
   It is never logged; uvicorn's access log (which prints query strings) is off.
3. The server never installs signal handlers: the service's (``bridge/loop/runner.py``) stop it all.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import secrets
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TextIO

import uvicorn
from starlette.routing import BaseRoute

from bridge.config.files import read_secret_file
from bridge.config.serve import WebConfig
from bridge.web.app import make_app
from bridge.web.hub import WebHub
from engine.errors import ConfigError

__all__ = ["TOKEN_ENV", "WebServer", "announce_pages", "check_bind", "host_token", "serving"]

log = logging.getLogger(__name__)

TOKEN_ENV = "CASTLE_WEB_TOKEN"
"""The secrets-file line (or environment variable) holding the host token."""

TOKEN_BYTES = 16
"""128 bits."""

SHUTDOWN_GRACE = 1
"""Whole seconds the pages' connections get to close when the server stops; then they are cut (a stop signal ends the
service within a couple of seconds: ``bridge/loop/service.py`` house rule 15)."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(web: WebConfig, insecure_bind: bool = False, source: str = "") -> None:
    """House rule 1; ``source`` (the serve config's file) begins the message.

    Raises:
        ConfigError: a non-loopback ``bind`` without TLS and without ``insecure_bind``.
    """
    if is_loopback(web.bind) or web.tls_cert is not None or insecure_bind:
        return
    raise ConfigError(f"{source + ': ' if source else ''}web: bind = {web.bind!r} is not loopback: set tls_cert and tls_key (https://), or pass "
                      "--insecure-bind to serve the host token and the grimoire in clear")  # fmt: skip


def host_token(env: Mapping[str, str], secrets_file: Path | None) -> tuple[str, bool]:
    """The host token (house rule 2) and whether it was made now (the caller prints it once).

    Raises:
        ConfigError: the secrets file cannot be read or others may read it, or a given token is shorter than 128
            bits of hex (32 characters).
    """
    values: dict[str, str] = {}
    if secrets_file is not None:
        lines = read_secret_file(secrets_file).splitlines()
        values = dict(line.strip().split("=", 1) for line in lines if line.strip().startswith(TOKEN_ENV + "="))
    token = (values.get(TOKEN_ENV) or env.get(TOKEN_ENV) or "").strip()
    if not token:
        return secrets.token_hex(TOKEN_BYTES), True
    if len(token) < 2 * TOKEN_BYTES:
        where = secrets_file if TOKEN_ENV in values else "the environment"
        raise ConfigError(f"{where}: {TOKEN_ENV} is too short: use 32 hex digits or more (python3 -c "
                          "'import secrets; print(secrets.token_hex(16))')")  # fmt: skip
    return token, False


class _Server(uvicorn.Server):
    """uvicorn without its signal handlers (house rule 3)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield

    def install_signal_handlers(self) -> None:  # older uvicorn
        pass


class WebServer:
    """The pages of one hub, served by uvicorn as a task of the running event loop.

    Args:
        hub: the series' hub.
        web: where and how to serve (``[web]``).
        token: the host token (``host_token``).
        release_interval: seconds between checks for delayed spectator messages that fell due.
        extra_routes: more pages of the same app (``make_app``).
    """

    def __init__(self, hub: WebHub, web: WebConfig, token: str, *, release_interval: float = 0.2,
                 extra_routes: Sequence[BaseRoute] = ()) -> None:  # fmt: skip
        self.hub, self.web, self.token = hub, web, token
        self.release_interval = release_interval
        app = make_app(hub, token, secure=web.tls_cert is not None, extra_routes=extra_routes)
        config = uvicorn.Config(app, host=web.bind, port=web.port, log_level="warning", access_log=False,
                                lifespan="off", ws="websockets-sansio", timeout_graceful_shutdown=SHUTDOWN_GRACE,
                                ssl_certfile=str(web.tls_cert) if web.tls_cert else None,
                                ssl_keyfile=str(web.tls_key) if web.tls_key else None)  # fmt: skip
        self.server = _Server(config)
        self._tasks: list[asyncio.Task[None]] = []
        self.port = web.port

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT`` (``https://`` with TLS)."""
        host = self.web.bind if ":" not in self.web.bind else f"[{self.web.bind}]"
        return f"{'https' if self.web.tls_cert else 'http'}://{host}:{self.port}"

    def host_url(self) -> str:
        """The host page's address with the token (print it to the operator only)."""
        return f"{self.base}/host?token={self.token}"

    async def start(self) -> int:
        """Listen; the port (the one chosen when ``port`` is 0).

        Raises:
            OSError: the address is in use or cannot be bound (raised here: uvicorn itself would exit).
        """
        family = socket.AF_INET6 if ":" in self.web.bind else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.web.bind, self.web.port))
        except OSError:
            sock.close()
            raise
        self.port = int(sock.getsockname()[1])
        self._tasks.append(asyncio.create_task(self.server.serve(sockets=[sock])))
        while not self.server.started and not self._tasks[0].done():
            await asyncio.sleep(0.01)
        self._tasks.append(asyncio.create_task(self._release()))
        log.info("web pages on %s", self.base, extra={"event": "web", "port": self.port})
        return self.port

    async def _release(self) -> None:
        while True:
            await asyncio.sleep(self.release_interval)
            self.hub.release_spectators()

    async def stop(self) -> None:
        """Close every page's connection and stop listening."""
        self.server.should_exit = True
        for task in reversed(self._tasks):
            if task is not self._tasks[0]:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, SHUTDOWN_GRACE + 0.5)
        self._tasks.clear()


def announce_pages(out: TextIO, generated: bool) -> Callable[[WebServer], None]:
    """Print where the pages are, to the operator's terminal (never to the log): the host page with its token
    only when the token was made now (house rule 2)."""

    def show(pages: WebServer) -> None:
        host = pages.host_url() if generated else f"{pages.base}/host?token=<{TOKEN_ENV}>"
        print(f"grimoire: {host}\nspectators: {pages.base}/spectate", file=out, flush=True)

    return show


@contextlib.asynccontextmanager
async def serving(web: WebConfig | None, token: str, *, hub: WebHub | None = None, insecure_bind: bool = False,
                  announce: Callable[[WebServer], None] | None = None,
                  extra_routes: Sequence[BaseRoute] = ()) -> AsyncIterator[WebServer | None]:  # fmt: skip
    """The pages served for the block's duration (``None``, and nothing served, without ``web``).

    Args:
        web: the ``[web]`` section, or ``None``.
        token: the host token.
        hub: the hub (default: a new one with ``web``'s spectator delay).
        insecure_bind: allow a non-loopback address without TLS (house rule 1).
        announce: called once the pages are up (the command line prints the addresses).
        extra_routes: more pages of the same app (``make_app``).

    Raises:
        ConfigError: a non-loopback address without TLS or ``insecure_bind``.
        OSError: the address cannot be bound.
    """
    if web is None:
        yield None
        return
    check_bind(web, insecure_bind)
    server = WebServer(hub or WebHub(delay=web.spectator_delay), web, token, extra_routes=extra_routes)
    await server.start()
    try:
        if announce is not None:
            announce(server)
        yield server
    finally:
        await server.stop()
