"""MSMP client: JSON-RPC 2.0 over a websocket to the vanilla Server Management Protocol (``docs/minecraft.md#msmp``;
schemas 2.0.0, 3.0.0 and 3.1.0).

House rules of this file:

1. Authentication is ``Authorization: Bearer <secret>`` on the upgrade request (``docs/minecraft.md#msmp``: no Origin
   check on that path); a wrong secret is HTTP 401 before the upgrade and raises ``MsmpAuthError`` (never retried).
   The secret is never logged (the websocket library logs request headers at DEBUG, so its logger redacts
   them), never in an exception text and never in ``repr``.
2. Calls take their params as a list (the positional form) or a dict (the by-name form); vanilla 2.0.0
   accepts both. Notifications are normalised to the by-name form, whichever form the server used.
3. Handlers are registered on the client, not on a connection: a reconnect never binds them twice. They run
   one at a time, in arrival order, on a dispatcher task, so a handler may itself ``call()`` the server.
4. After a connection is lost the client reconnects with capped exponential backoff (0.1 s, 0.2 s, … up to
   ``max_backoff``), reads ``rpc.discover`` again and re-queries ``minecraft:players``; a player who joined or
   left meanwhile is reported as a ``players/joined`` / ``players/left`` event (``synthetic: True``), then
   ``castle:reconnected``. The player list is always the server's, never a guess.
5. A half-open connection (the peer silent, TCP still up) is found by websocket pings: no pong within
   ``ping_timeout`` seconds closes it, and rule 4 applies.
6. Results are checked against the result schema the server itself declared in ``rpc.discover``; a result
   that does not fit raises ``ClientMessageError``.
7. Every message received must be a JSON-RPC 2.0 object (``"jsonrpc": "2.0"``, JSON-RPC 2.0 specification §4,
   §5). One that is not is a protocol error: it is logged (never its content, which may name players) and
   dropped; when it answers a pending call, that call raises ``ClientMessageError`` at once instead of waiting
   for its timeout. The connection and the other calls carry on.
8. MSMP 2.0.0 (1.21.11, 26.1), 3.0.0 (26.2) and 3.1.0 (26.3) are spoken. From 3.0.0 the socket answers
   ``rpc.discover`` before the game has started and other calls may get ``-32600`` until then, so after discovery
   the client waits for ``server/started`` (or ``server/status`` ``started: true``), polling with capped backoff
   and taking ``-32600`` as "not ready yet", before it reads the player list; ``call`` waits the same way while a
   3.x server is starting. The ``world/upgrade_*`` notifications of 3.1.0 are logged at info level (the
   operator sees the upgrade's progress in ``serve``'s log) and kept in ``upgrade``; a notification nobody
   listens for is logged at debug level and dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import logging
import ssl as ssl_module
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from bridge.errors import ClientMessageError, MsmpAuthError, MsmpError, MsmpTimeout, MsmpUnavailable
from bridge.io.reasons import reason
from engine.errors import ConfigError

__all__ = [
    "JOINED",
    "LEFT",
    "NOT_READY",
    "SPOKEN",
    "RECONNECTED",
    "STARTED",
    "STOPPING",
    "McPlayer",
    "MsmpClient",
    "check_schema",
    "redacting_logger",
    "tls_context",
]

log = logging.getLogger(__name__)

NOTIFICATION = "minecraft:notification/"
JOINED = "players/joined"
LEFT = "players/left"
STARTED = "server/started"
STOPPING = "server/stopping"
RECONNECTED = "castle:reconnected"
"""Event sent to handlers after a reconnect, once the player list has been re-synced."""
UPGRADE = "world/upgrade_"
"""The prefix of the world-upgrade notifications (MSMP 3.1.0: ``_started``, ``_progress``, ``_finished``,
``_failed``)."""
SPOKEN = ("2.0.0", "3.0.0", "3.1.0")
"""The MSMP versions this client is written for (``rpc.discover`` ``info.version``; ``docs/minecraft.md#msmp``)."""
NOT_READY = -32600
"""The JSON-RPC error code (``INVALID_REQUEST``) a 3.x server answers a call with before the game has started."""

_BACKOFF_START = 0.1  # seconds
_BEFORE_START = frozenset({"rpc.discover", "minecraft:server/status"})
"""The methods a 3.x server answers (or refuses with ``-32600``) before its game has started."""
JSONRPC = "2.0"
"""The ``jsonrpc`` member every request, response and notification carries (JSON-RPC 2.0 specification)."""

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


@dataclass(frozen=True, slots=True)
class McPlayer:
    """A player as MSMP names them (schema ``player``): ``id`` (UUID string) and ``name``."""

    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        """The schema ``player`` object."""
        return {"id": self.id, "name": self.name}


class _Redact(logging.Filter):
    def __init__(self, secrets: Callable[[], list[str]]) -> None:
        super().__init__()
        self._secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        hidden = [s for s in self._secrets() if s and s in text]
        if hidden or "authorization:" in text.lower() or "sec-websocket-protocol:" in text.lower():
            for s in hidden:
                text = text.replace(s, "<redacted>")
            if "authorization:" in text.lower():
                text = text.split(":", 1)[0] + ": <redacted>"
            record.msg, record.args = text, None
        return True


def redacting_logger(name: str, secrets: Callable[[], list[str]]) -> logging.Logger:
    """A logger that rewrites any record mentioning an ``Authorization`` header or one of ``secrets()``.

    Give it to the websocket library (``logger=``), which logs every request header at DEBUG level.

    Args:
        name: the logger name.
        secrets: returns the strings to hide (called per record).
    """
    logger = logging.getLogger(name)
    logger.addFilter(_Redact(secrets))
    return logger


_ALL_SECRETS: list[str] = []
_WIRE_LOG = redacting_logger("bridge.io.msmp.wire", lambda: list(_ALL_SECRETS))


def check_schema(value: Any, schema: Mapping[str, Any], doc: Mapping[str, Any], path: str = "result") -> None:
    """Check ``value`` against a JSON-schema subset as MSMP's OpenRPC document uses it.

    Supported: ``$ref`` (``#/components/schemas/…``), ``type`` (one or a list), ``properties``, ``required``,
    ``items``, ``enum``. Unknown properties are allowed (a newer server may add some).

    Args:
        value: decoded JSON.
        schema: the schema object.
        doc: the whole OpenRPC document (for ``$ref``).
        path: where ``value`` sits, for the error text.

    Raises:
        ClientMessageError: the value does not fit; the message names the path.
    """
    ref = schema.get("$ref")
    if isinstance(ref, str):
        target: Any = doc
        for part in ref.removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        check_schema(value, target, doc, path)
        return
    types = schema.get("type")
    if types is not None:
        allowed = types if isinstance(types, list) else [types]
        if not any(_is_type(value, t) for t in allowed):
            raise ClientMessageError(f"MSMP {path}: expected {'/'.join(allowed)}, got {type(value).__name__}")
    if "enum" in schema and value not in schema["enum"]:
        raise ClientMessageError(f"MSMP {path}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                check_schema(value[key], sub, doc, f"{path}.{key}")
        required = schema.get("required")
        if isinstance(required, list):
            for key in required:
                if key not in value:
                    raise ClientMessageError(f"MSMP {path}: missing {key!r}")
    if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for i, item in enumerate(value):
            check_schema(item, schema["items"], doc, f"{path}[{i}]")


_PY_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "boolean": bool,
    "object": dict,
    "array": list,
    "null": type(None),
}


def _is_type(value: Any, t: str) -> bool:
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    py = _PY_TYPES.get(t)
    return py is None or isinstance(value, py)


def _player(obj: Any) -> McPlayer | None:
    if isinstance(obj, dict) and isinstance(obj.get("name"), str):
        return McPlayer(str(obj.get("id", "")), obj["name"])
    return None


def tls_context(ca_file: Path | None = None) -> ssl_module.SSLContext:
    """The TLS client context for ``wss://``: the system's trust store, plus ``ca_file`` (PEM) when given.

    The host name is checked against the certificate, as for any TLS client.

    Raises:
        ConfigError: ``ca_file`` is missing or holds no certificate.
    """
    context = ssl_module.create_default_context()
    if ca_file is not None:
        try:
            context.load_verify_locations(cafile=str(ca_file))
        except (OSError, ssl_module.SSLError) as exc:
            raise ConfigError(f"MSMP CA file {ca_file}: {exc}") from None
    return context


class MsmpClient:
    """A JSON-RPC 2.0 client for the vanilla management server (MSMP 2.0.0, 3.0.0, 3.1.0; ``docs/minecraft.md#msmp``).

    Example::

        client = MsmpClient("ws://127.0.0.1:25585", secret)
        client.on("players/joined", lambda p: print(p["player"]["name"]))
        await client.start()
        players = await client.call("minecraft:players")
        await client.call("minecraft:gamerules/update", {"gamerule": {"key": "minecraft:send_command_feedback", "value": False}})
        await client.close()

    Args:
        url: ``ws://host:port`` or ``wss://host:port`` (``management-server-tls-enabled``).
        secret: ``management-server-secret`` (40 characters); never logged or shown.
        timeout: seconds for opening the connection, and for each call's response.
        max_backoff: cap in seconds of the wait between reconnect attempts.
        ping_interval: seconds between websocket pings; ``ping_timeout``: seconds to wait for the pong
            before the connection counts as dead (half-open detection).
        ssl_context: TLS settings for ``wss://`` (default: :func:`tls_context` of ``ca_file``).
        ca_file: a PEM file of the certificate(s) to trust for ``wss://`` besides the system's trust store: the
            server's own certificate when it is self-signed, or the CA that signed it (serve config
            ``[msmp] ca_file``; ``docs/operator.md``).
        startup_timeout: seconds to wait for a 3.x server's game to start after its socket answered (a world
            upgrade at start can take minutes; house rule 8).

    Raises:
        ValueError: ``url`` is not ``ws://`` or ``wss://``.
        ConfigError: ``ca_file`` cannot be read as certificates.
    """

    def __init__(
        self,
        url: str,
        secret: str,
        *,
        timeout: float = 5.0,
        max_backoff: float = 10.0,
        ping_interval: float = 10.0,
        ping_timeout: float = 10.0,
        ssl_context: ssl_module.SSLContext | None = None,
        ca_file: Path | None = None,
        startup_timeout: float = 600.0,
    ) -> None:
        if not url.startswith(("ws://", "wss://")):
            raise ValueError(f"MSMP url must start with ws:// or wss://: {url!r}")
        if ssl_context is None and url.startswith("wss://"):
            ssl_context = tls_context(ca_file)
        self.url = url
        self.timeout = timeout
        self.max_backoff = max_backoff
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.startup_timeout = startup_timeout
        self._ssl = ssl_context
        self._secret = secret
        _ALL_SECRETS.append(secret)
        self._handlers: dict[str, list[Handler]] = {}
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._events: asyncio.Queue[tuple[str, dict[str, Any]]] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self.discovered: dict[str, Any] = {}
        """The OpenRPC document from ``rpc.discover`` (re-read at every connection)."""
        self.players: dict[str, McPlayer] = {}
        """Online players by name, as the server last told us."""
        self.connections = 0
        """Successful connections so far (2 after the first reconnect)."""
        self._started = asyncio.Event()
        self.upgrade: dict[str, Any] = {}
        """The last world upgrade the server reported (MSMP 3.1.0): ``state`` (``"started"``, ``"progress"``,
        ``"finished"`` or ``"failed"``), and ``progress`` (0.0-1.0) or ``reason`` when given; empty before any."""

    def __repr__(self) -> str:
        return f"<MsmpClient {self.url} {'connected' if self.is_connected else 'disconnected'}>"

    @property
    def is_connected(self) -> bool:
        """True while the websocket is open."""
        return self._ws is not None and self._reader is not None and not self._reader.done()

    @property
    def version(self) -> str | None:
        """``info.version`` from ``rpc.discover`` (e.g. ``"2.0.0"``), or None before the first connection."""
        info = self.discovered.get("info")
        return str(info.get("version")) if isinstance(info, dict) and "version" in info else None

    @property
    def major(self) -> int:
        """The major part of :attr:`version` (2 or 3), or 0 before the first connection or when unreadable."""
        head = (self.version or "").split(".", 1)[0]
        return int(head) if head.isdigit() else 0

    @property
    def started(self) -> bool:
        """True once the server's game has started (always, after connecting, on MSMP 2.x; house rule 8)."""
        return self._started.is_set()

    @property
    def tls(self) -> bool:
        """True for ``wss://`` (TLS)."""
        return self.url.startswith("wss://")

    # -- handlers ----------------------------------------------------------------------------------

    def on(self, event: str, handler: Handler) -> None:
        """Call ``handler(params)`` for every notification ``event`` (house rule 3).

        Args:
            event: a notification name with or without ``minecraft:notification/`` (e.g. ``"players/joined"``),
                or ``"castle:reconnected"``.
            handler: a function or coroutine function taking the by-name params dict (e.g.
                ``{"player": {"id": …, "name": …}}``; synthetic events add ``"synthetic": True``).
        """
        self._handlers.setdefault(event.removeprefix(NOTIFICATION), []).append(handler)

    # -- lifecycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect (retrying with backoff within ``timeout``), read ``rpc.discover`` and the player list, and
        keep the connection up from then on (house rule 4).

        On MSMP 3.x it returns once the server's game has started (house rule 8).

        Raises:
            MsmpAuthError: the secret was refused (HTTP 401).
            MsmpUnavailable: no connection within ``timeout`` seconds, or a 3.x server whose game did not start
                within ``startup_timeout`` seconds.
        """
        self._closing = False
        self._events = asyncio.Queue()
        self._tasks.append(asyncio.create_task(self._dispatch(), name="msmp-dispatch"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        failures = 0
        while True:
            try:
                await self._open(first=True)
                break
            except MsmpAuthError:
                await self.close()
                raise
            except MsmpUnavailable:
                failures += 1
                wait = min(self.max_backoff, _BACKOFF_START * 2 ** (failures - 1))
                if loop.time() + wait > deadline:
                    await self.close()
                    raise
                await asyncio.sleep(wait)
        self._tasks.append(asyncio.create_task(self._supervise(), name="msmp-supervise"))

    async def close(self) -> None:
        """Close the connection and stop reconnecting; pending calls fail with ``MsmpUnavailable``."""
        self._closing = True
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2.0)
        tasks, self._tasks = self._tasks, []
        if self._reader is not None:
            tasks.append(self._reader)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._fail_pending(MsmpUnavailable("MSMP client closed"))

    async def __aenter__(self) -> MsmpClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- calls -------------------------------------------------------------------------------------

    async def call(self, method: str, params: list[Any] | Mapping[str, Any] | None = None) -> Any:
        """Call one JSON-RPC method and return its result.

        Args:
            method: e.g. ``"minecraft:players"``, ``"rpc.discover"``.
            params: a list (positional form), a mapping (by-name form) or None (no params).

        Returns:
            The decoded ``result``, checked against the server's declared result schema (house rule 6).

        Raises:
            MsmpError: the server answered with a JSON-RPC error (``code``, ``message``).
            MsmpTimeout: no response within ``timeout`` seconds.
            MsmpUnavailable: not connected, the connection closed before the response, or a 3.x server still
                starting after ``startup_timeout`` seconds (house rule 8).
            ClientMessageError: the response is not JSON-RPC 2.0 (house rule 7), or the result does not fit the
                declared schema.
        """
        if method not in _BEFORE_START and not self._started.is_set() and self.major >= 3 and self.is_connected:
            await self._wait_started(method)
        ws = self._ws
        if ws is None or not self.is_connected:
            raise MsmpUnavailable(f"MSMP at {self.url} is not connected")
        rid = next(self._ids)
        request: dict[str, Any] = {"jsonrpc": JSONRPC, "id": rid, "method": method}
        if params is not None:
            request["params"] = list(params) if isinstance(params, (list, tuple)) else dict(params)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            await ws.send(json.dumps(request))
            async with asyncio.timeout(self.timeout):
                reply = await fut
        except TimeoutError:
            raise MsmpTimeout(f"no MSMP response to {method} within {self.timeout} s") from None
        except ConnectionClosed:
            raise MsmpUnavailable(f"MSMP connection to {self.url} closed during {method}") from None
        finally:
            self._pending.pop(rid, None)
        if reply.get("jsonrpc") != JSONRPC:
            log.warning('MSMP answered %s without "jsonrpc": "2.0"; the call fails', method)
            raise ClientMessageError(f'MSMP {method}: the response is not JSON-RPC 2.0 (no "jsonrpc": "2.0")')
        if "error" in reply:
            err = reply["error"] if isinstance(reply["error"], dict) else {}
            raise MsmpError(method, int(err.get("code", 0)), str(err.get("message", "")))
        result = reply.get("result")
        declared = self._method(method)
        schema = declared.get("result", {}).get("schema") if declared else None
        if isinstance(schema, dict):
            check_schema(result, schema, self.discovered, f"{method} result")
        return result

    # -- internals ---------------------------------------------------------------------------------

    def _method(self, name: str) -> dict[str, Any] | None:
        for m in self.discovered.get("methods", []):
            if isinstance(m, dict) and m.get("name") == name:
                return m
        return None

    async def _open(self, *, first: bool) -> None:
        """Open one connection, read rpc.discover and the player list; report changes unless ``first``."""
        try:
            ws = await connect(
                self.url,
                additional_headers={"Authorization": f"Bearer {self._secret}"},
                open_timeout=self.timeout,
                ping_interval=self.ping_interval,
                ping_timeout=self.ping_timeout,
                close_timeout=1.0,
                max_size=16 * 1024 * 1024,
                logger=_WIRE_LOG,
                ssl=self._ssl if self.url.startswith("wss://") else None,
            )
        except InvalidStatus as exc:
            if exc.response.status_code == 401:
                raise MsmpAuthError(f"MSMP at {self.url} refused the secret (HTTP 401)") from None
            raise MsmpUnavailable(f"MSMP at {self.url} answered HTTP {exc.response.status_code}") from None
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as exc:
            raise MsmpUnavailable(f"cannot connect to MSMP at {self.url}: {reason(exc)}") from None
        self._ws = ws
        self._started.clear()  # a new connection may be to a server that is starting again
        self._reader = asyncio.create_task(self._read(ws), name="msmp-read")
        try:
            discovered = await self.call("rpc.discover")
            if not isinstance(discovered, dict):
                raise ClientMessageError("MSMP rpc.discover did not return an object")
            self.discovered = discovered
            if self.version not in SPOKEN:
                log.warning("MSMP version %s; this client is written for %s", self.version, ", ".join(SPOKEN))
            if self.major >= 3:
                await self._await_start()
            else:
                self._started.set()
            listed = await self.call("minecraft:players")
        except BaseException:
            await ws.close()
            self._ws = None
            raise
        now = {p.name: p for p in (_player(x) for x in listed or []) if p is not None}
        before, self.players = self.players, dict(now)
        self.connections += 1
        log.info("MSMP connected to %s (version %s, %d players online)", self.url, self.version, len(now))
        if not first:
            for name in sorted(before.keys() - now.keys()):
                self._emit(LEFT, {"player": before[name].to_json(), "synthetic": True})
            for name in sorted(now.keys() - before.keys()):
                self._emit(JOINED, {"player": now[name].to_json(), "synthetic": True})
            self._emit(RECONNECTED, {"players": [p.to_json() for p in now.values()]})

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                try:
                    message = json.loads(raw)
                except ValueError:
                    log.warning("MSMP sent a frame that is not JSON (%d characters)", len(raw))
                    continue
                if not isinstance(message, dict):
                    log.warning("MSMP sent a JSON %s, not a JSON-RPC object; ignored", type(message).__name__)
                    continue
                versioned = message.get("jsonrpc") == JSONRPC
                if "method" in message and "id" not in message:
                    if versioned:
                        self._notification(str(message["method"]), message.get("params"))
                    else:
                        log.warning('MSMP sent a notification without "jsonrpc": "2.0"; ignored')
                elif "id" in message:
                    fut = self._pending.get(message["id"]) if isinstance(message["id"], int) else None
                    if fut is not None and not fut.done():
                        fut.set_result(message)  # call() checks it (house rule 7)
                    elif not versioned:
                        log.warning('MSMP sent a response without "jsonrpc": "2.0" to no pending call; ignored')
                else:
                    log.warning("MSMP sent an object that is neither a response nor a notification; ignored")
        except ConnectionClosed:
            pass
        finally:
            self._fail_pending(MsmpUnavailable(f"MSMP connection to {self.url} lost"))

    def _notification(self, method: str, params: Any) -> None:
        event = method.removeprefix(NOTIFICATION)
        declared = self._method(method) or {}
        names = [str(p.get("name")) for p in declared.get("params", []) if isinstance(p, dict)]
        if isinstance(params, list):
            by_name: dict[str, Any] = dict(zip(names or [f"arg{i}" for i in range(len(params))], params, strict=False))
        elif isinstance(params, dict):
            by_name = dict(params)
        else:
            by_name = {}
        self._follow_start(event, by_name)
        player = _player(by_name.get("player"))
        if event == JOINED and player is not None:
            self.players[player.name] = player
        elif event == LEFT and player is not None:
            self.players.pop(player.name, None)
        self._emit(event, by_name)

    def _follow_start(self, event: str, params: Mapping[str, Any]) -> None:
        """Keep ``started`` and ``upgrade`` up to date from a notification, and log what the operator should see."""
        status = params.get("status")
        if event == STARTED or (event == "server/status" and isinstance(status, dict) and status.get("started")):
            self._started.set()
        elif event == STOPPING:
            self._started.clear()
        elif event.startswith(UPGRADE):
            self._upgrade(event.removeprefix(UPGRADE), params)
        elif event not in self._handlers and event not in (JOINED, LEFT):
            log.debug("MSMP notification %s ignored (nothing listens for it)", event)

    def _upgrade(self, state: str, params: Mapping[str, Any]) -> None:
        """One ``world/upgrade_*`` notification (MSMP 3.1.0): kept in ``upgrade`` and logged."""
        progress, reason = params.get("progress"), params.get("reason")
        self.upgrade = {"state": state}
        if isinstance(progress, (int, float)) and not isinstance(progress, bool):
            self.upgrade["progress"] = float(progress)
            log.info("world upgrade: %.0f %% done", 100 * float(progress), extra={"event": "world_upgrade"})
        elif state == "failed":
            self.upgrade["reason"] = str(reason)
            log.error("world upgrade failed: %s", reason, extra={"event": "world_upgrade"})
        else:
            log.info("world upgrade %s", state, extra={"event": "world_upgrade"})

    async def _await_start(self) -> None:
        """After ``rpc.discover`` on a 3.x server: poll ``server/status`` with capped backoff until its game has
        started (``-32600`` means not yet), waking early on ``server/started`` (house rule 8)."""
        loop = asyncio.get_running_loop()
        deadline, wait = loop.time() + self.startup_timeout, _BACKOFF_START
        while not self._started.is_set():
            try:
                status = await self.call("minecraft:server/status")
            except MsmpError as exc:
                if exc.code != NOT_READY:
                    raise
            else:
                if isinstance(status, dict) and status.get("started") is True:
                    self._started.set()
                    return
            left = deadline - loop.time()
            if left <= 0:
                raise MsmpUnavailable(f"the server at {self.url} has not started within {self.startup_timeout:g} s")
            if wait == _BACKOFF_START:
                log.info("MSMP %s: the server is starting; waiting for server/started", self.version)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._started.wait(), min(wait, left))
            wait = min(2.0, wait * 2)

    async def _wait_started(self, method: str) -> None:
        """A call made while a connected 3.x server is starting waits for ``server/started`` (house rule 8); a
        connection lost meanwhile fails it at once, as a call made while disconnected does."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.startup_timeout
        while not self._started.is_set():
            left = deadline - loop.time()
            if not self.is_connected or left <= 0:
                why = (
                    "is not connected"
                    if not self.is_connected
                    else f"has not started within {self.startup_timeout:g} s"
                )
                raise MsmpUnavailable(f"MSMP {method}: the server at {self.url} {why}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._started.wait(), min(0.5, left))

    def _emit(self, event: str, params: dict[str, Any]) -> None:
        if self._events is not None:
            self._events.put_nowait((event, params))

    async def _dispatch(self) -> None:
        assert self._events is not None
        while True:
            event, params = await self._events.get()
            for handler in list(self._handlers.get(event, [])):
                try:
                    result = handler(params)
                    if inspect.isawaitable(result):
                        await result
                except Exception:  # a broken handler must not stop the others
                    log.exception("MSMP handler for %s failed", event)

    def _fail_pending(self, exc: BaseException) -> None:
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(exc)

    async def _supervise(self) -> None:
        """Wait for the connection to end, then reconnect with capped exponential backoff (house rule 4)."""
        while not self._closing:
            reader = self._reader
            if reader is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.shield(reader)
            if self._closing:
                return
            log.info("MSMP connection to %s lost; reconnecting", self.url)
            self._ws = None
            failures = 0
            while not self._closing:
                try:
                    await self._open(first=False)
                    break
                except MsmpAuthError:
                    log.error("MSMP at %s now refuses the secret; not retrying", self.url)
                    return
                except (MsmpUnavailable, MsmpError, ClientMessageError) as exc:
                    failures += 1
                    wait = min(self.max_backoff, _BACKOFF_START * 2 ** (failures - 1))
                    log.info("MSMP reconnect to %s failed (%s); retry in %.1f s", self.url, reason(exc), wait)
                    await asyncio.sleep(wait)
