"""Serving the web pages (uvicorn) beside the service, in the same event loop.

House rules of this file (``docs/host.md``, "The web grimoire"; ``docs/operator.md``):

1. The pages are served on loopback (``127.0.0.1``) by default. Another address needs TLS (``[web]``
   ``tls_cert`` + ``tls_key``) or the explicit ``--insecure-bind``: the host tokens and every secret of the
   grimoire would otherwise cross the network in clear.
2. The hosts' tokens (``bridge/web/auth.py``) are never logged; uvicorn's access log (which prints query
   strings) is off. At start the command line prints, to the operator's terminal only, a one-time login link
   per host and each token made now.
3. The server never installs signal handlers: the service's (``bridge/loop/runner.py``) stop it all.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from typing import TextIO

import uvicorn
from starlette.routing import BaseRoute

from bridge.config.serve import WebConfig
from bridge.web.app import make_app
from bridge.web.auth import TOKEN_ENV, HostKeys, host_keys, token_env
from bridge.web.hub import WebHub
from engine.errors import ConfigError

__all__ = ["TOKEN_ENV", "WebServer", "announce_pages", "check_bind", "host_keys", "serving"]

log = logging.getLogger(__name__)

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
    raise ConfigError(
        f"{source + ': ' if source else ''}web: bind = {web.bind!r} is not loopback: set tls_cert and tls_key (https://), or pass "
        "--insecure-bind to serve the host token and the grimoire in clear"
    )


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
        hub: the series' hub (its ``queue_limit`` becomes ``web.client_queue``).
        web: where and how to serve (``[web]``).
        keys: the hosts' tokens (``bridge/web/auth.py``).
        release_interval: seconds between checks for delayed spectator messages that fell due.
        extra_routes: more pages of the same app (``make_app``).
    """

    def __init__(
        self,
        hub: WebHub,
        web: WebConfig,
        keys: HostKeys,
        *,
        release_interval: float = 0.2,
        extra_routes: Sequence[BaseRoute] = (),
    ) -> None:
        self.hub, self.web, self.keys = hub, web, keys
        hub.queue_limit = web.client_queue
        self.release_interval = release_interval
        app = make_app(hub, keys, web=web, extra_routes=extra_routes)
        config = uvicorn.Config(
            app,
            host=web.bind,
            port=web.port,
            log_level="warning",
            access_log=False,
            lifespan="off",
            ws="websockets-sansio",
            timeout_graceful_shutdown=SHUTDOWN_GRACE,
            ssl_certfile=str(web.tls_cert) if web.tls_cert else None,
            ssl_keyfile=str(web.tls_key) if web.tls_key else None,
        )
        self.server = _Server(config)
        self._tasks: list[asyncio.Task[None]] = []
        self.port = web.port

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT`` (``https://`` with TLS)."""
        host = self.web.bind if ":" not in self.web.bind else f"[{self.web.bind}]"
        return f"{'https' if self.web.tls_cert else 'http'}://{host}:{self.port}"

    def host_url(self, host: str | None = None) -> str:
        """A new one-time login link for ``host`` (default: the first), which dies when used (print it to the
        operator only)."""
        return f"{self.base}/host/login?once={self.keys.link(self.keys.hosts[0] if host is None else host)}"

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


def announce_pages(out: TextIO) -> Callable[[WebServer], None]:
    """Print where the pages are, to the operator's terminal (never to the log; house rule 2): a one-time login
    link per host, and each token made now (to log in again, on the login form)."""

    def show(pages: WebServer) -> None:
        keys = pages.keys
        for host in keys.hosts:
            who = f" ({host})" if host and len(keys.hosts) > 1 else ""
            print(f"grimoire: {pages.host_url(host)}{who}", file=out)
            if host in keys.made:
                print(
                    f"host token{who}: {keys.tokens[host]} (not saved: set {token_env(host) if host else TOKEN_ENV} "
                    "to keep it)",
                    file=out,
                )
        print(f"spectators: {pages.base}/spectate", file=out, flush=True)

    return show


@contextlib.asynccontextmanager
async def serving(
    web: WebConfig | None,
    keys: HostKeys,
    *,
    hub: WebHub | None = None,
    insecure_bind: bool = False,
    announce: Callable[[WebServer], None] | None = None,
    extra_routes: Sequence[BaseRoute] = (),
) -> AsyncIterator[WebServer | None]:
    """The pages served for the block's duration (``None``, and nothing served, without ``web``).

    Args:
        web: the ``[web]`` section, or ``None``.
        keys: the hosts' tokens.
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
    server = WebServer(hub or WebHub(delay=web.spectator_delay), web, keys, extra_routes=extra_routes)
    await server.start()
    try:
        if announce is not None:
            announce(server)
        yield server
    finally:
        await server.stop()
