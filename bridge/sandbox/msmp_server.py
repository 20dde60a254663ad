"""An MSMP (Server Management Protocol) server for the sandbox, served from the saved schema of the release it
stands in for: 2.0.0 (1.21.11, 26.1), 3.0.0 (26.2) or 3.1.0 (26.3) (``docs/minecraft.md#msmp``).

It is not Minecraft. It shares the sandbox ``World``: the player list is the world's online players (with
offline-mode UUIDs), joins and leaves become ``players/joined`` / ``players/left`` notifications, and game rules
are the world's game rules. The allowlist, operators, bans and server settings live in ``state``.

House rules of this file (each one follows ``docs/minecraft.md#msmp``):

1. Only ``Authorization: Bearer <secret>`` authenticates (compared in constant time). Anything else is
   answered with HTTP 401 and a JSON body before the websocket upgrade.
2. Requests are JSON-RPC 2.0. Params come as a list (positional, in the schema's declared order) or as an
   object keyed by the declared names. Unknown method → ``-32601``; bad params → ``-32602``. Every method of the
   schema is modelled (``bridge.sandbox.msmp``: one module per family behind one dispatch table).
3. ``rpc.discover`` returns the saved schema document itself; every result the sandbox sends is checked
   against the schema's declared result (a mismatch is a sandbox bug and fails loudly).
4. A ``null`` object field reads as absent, as vanilla's JSON reader takes it.
5. Notifications carry their params in the positional form by default (``notification_form``).
6. Start-up as the release does: on 2.0.0 the socket opens once the game has started. From 3.0.0 it answers
   ``rpc.discover`` while the game is still starting (``boot``: ``startup_delay`` seconds, and on 3.1.0 an optional
   world upgrade with its ``world/upgrade_*`` notifications); any other call then gets ``-32600`` ("can't be
   handled in the current server state"), until ``server/started`` is sent.

Misbehaviour on purpose, for client tests: ``freeze()`` stops reading from every open connection (a half-open
connection: pings go unanswered), ``drop_connections()`` closes them all, ``gamerule_updates_allowed=False``
refuses ``gamerules/update``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import importlib.resources
import json
import logging
import ssl
from collections.abc import Mapping
from functools import cache
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from bridge.errors import ClientMessageError
from bridge.io.msmp import NOTIFICATION, check_schema, redacting_logger
from bridge.minecraft.versions import OLDEST, McVersion
from bridge.sandbox.model import Player
from bridge.sandbox.msmp import METHODS, Context, RpcError, new_state
from bridge.sandbox.msmp.base import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR
from bridge.sandbox.world import World

__all__ = ["MsmpServer", "schema_document"]

log = logging.getLogger(__name__)

SCHEMA_FILE = "msmp-schema-2.0.0.json"
"""The saved MSMP 2.0.0 schema (``schema.json`` of github.com/Xaeroxe/mc-rpc, commit 265fb67, fetched with
``rpc.discover`` from a live 1.21.11 server; ``docs/minecraft.md#msmp``)."""

SCHEMA_FILES = {
    "2.0.0": SCHEMA_FILE,
    "3.0.0": "msmp-schema-3.0.0-reconstructed.json",
    "3.1.0": "msmp-schema-3.1.0-reconstructed.json",
}
"""MSMP version → the schema file the sandbox serves for it. The 3.x documents were not fetched from a server:
they are the 2.0.0 document with the differences read in decompiled 26.2 and 26.3 sources (their
``x-reconstructed`` member says which; ``docs/minecraft.md#msmp``)."""

UPGRADE_STEPS = 4
"""``world/upgrade_progress`` notifications a simulated world upgrade sends (25 %, 50 %, 75 %, 100 %)."""


@cache
def schema_document(version: str = "2.0.0") -> dict[str, Any]:
    """The OpenRPC document the sandbox serves for MSMP ``version`` (read once from package data).

    Raises:
        KeyError: no schema is saved for ``version``.
    """
    text = importlib.resources.files("bridge.sandbox").joinpath(SCHEMA_FILES[version]).read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


class MsmpServer:
    """Serves MSMP for one sandbox world on loopback.

    Args:
        world: the sandbox world (its players, game rules and chat).
        secret: the management secret (``management-server-secret``); never logged.
        ssl_context: serve ``wss://`` with this TLS context (``bridge.sandbox.tls``); ``None``: plain ``ws://``.
        version: the release it stands in for (``bridge.minecraft.versions``): its MSMP version picks the schema
            and the start-up order (house rule 6); ``server/status`` reports its protocol.
    """

    def __init__(
        self, world: World, secret: str, ssl_context: ssl.SSLContext | None = None, version: McVersion = OLDEST
    ) -> None:
        self.world = world
        self.version = version
        self.schema = schema_document(version.msmp)
        """The OpenRPC document ``rpc.discover`` returns."""
        self.started = False
        """Whether the game has started (house rule 6): calls other than ``rpc.discover`` get ``-32600`` before."""
        self._secret = secret
        self._ssl = ssl_context
        self._server: Server | None = None
        self._conns: set[ServerConnection] = set()
        self._frozen: set[ServerConnection] = set()
        self.notification_form = "array"
        """``"array"`` (positional params) or ``"object"`` (by-name params) for notifications."""
        self.gamerule_updates_allowed = True
        self.rejected = 0
        """Upgrade requests refused with 401."""
        self.requests: list[dict[str, Any]] = []
        """Every JSON-RPC request received (method and params), in order."""
        self._stopping: asyncio.Task[None] | None = None
        self.state = new_state()
        """The allowlist, operators, bans and server settings (``bridge.sandbox.msmp.base.Management``)."""
        self._methods = {m["name"]: m for m in self.schema["methods"]}
        self._wire_log = redacting_logger("bridge.sandbox.msmp.wire", lambda: [self._secret])
        world.presence_listeners.append(self._presence)

    def __repr__(self) -> str:
        return f"<MsmpServer port={self.port}>"

    @property
    def port(self) -> int | None:
        """The bound port, or None when not serving."""
        if self._server is None:
            return None
        for sock in self._server.sockets:
            return int(sock.getsockname()[1])
        return None

    @property
    def tls(self) -> bool:
        """True when serving ``wss://``."""
        return self._ssl is not None

    @property
    def connections(self) -> int:
        """Open websocket connections."""
        return len(self._conns)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host:port`` (0 picks a free port) with the game not yet started; returns the port.

        Then call :meth:`mark_started` (2.0.0: at once) or :meth:`boot` (3.x: after a start-up; house rule 6).
        """
        self.state.stop_requested, self._stopping = False, None  # a restart after server/stop serves again
        self.started = False
        self._server = await serve(
            self._handle,
            host,
            port,
            process_request=self._authenticate,
            ping_interval=None,
            logger=self._wire_log,
            ssl=self._ssl,
        )
        bound = self.port
        assert bound is not None
        return bound

    def mark_started(self) -> None:
        """The game has started: calls are answered from now on, and connected clients get ``server/started``."""
        self.started = True
        self.notify("server/started", {})

    async def boot(self, delay: float, *, upgrade_world: bool = False) -> None:
        """A 3.x start-up (house rule 6): ``delay`` seconds in which only ``rpc.discover`` is answered, then
        :meth:`mark_started`. With ``upgrade_world`` (MSMP 3.1.0 only) the delay is a world upgrade:
        ``world/upgrade_started``, ``UPGRADE_STEPS`` ``world/upgrade_progress`` (0.0-1.0), ``world/upgrade_finished``.

        Raises:
            ValueError: ``upgrade_world`` on a release whose MSMP has no ``world/upgrade_*`` notifications.
        """
        if upgrade_world:
            if NOTIFICATION + "world/upgrade_started" not in self._methods:
                raise ValueError(f"Minecraft {self.version.name} (MSMP {self.version.msmp}) reports no world upgrade")
            step_time = delay / (UPGRADE_STEPS + 1)  # the first step: a client that connected at once is there
            await asyncio.sleep(step_time)
            self.notify("world/upgrade_started", {})
            for step in range(1, UPGRADE_STEPS + 1):
                await asyncio.sleep(step_time)
                self.notify("world/upgrade_progress", {"progress": step / UPGRADE_STEPS})
            self.notify("world/upgrade_finished", {})
        else:
            await asyncio.sleep(delay)
        self.mark_started()

    async def stop(self) -> None:
        """Send ``server/stopping``, close every connection and stop listening."""
        self.started = False
        self.notify("server/stopping", {})
        for conn in list(self._frozen):  # a frozen connection cannot take part in a close handshake
            conn.transport.abort()
        self._frozen.clear()
        if self._server is not None:
            self._server.close(close_connections=True)
            with contextlib.suppress(Exception):  # closing anyway
                await self._server.wait_closed()
        self._server = None
        self._conns.clear()

    def freeze(self) -> None:
        """Stop reading from every open connection: the client's pings go unanswered (a half-open connection)."""
        for conn in self._conns:
            conn.transport.pause_reading()
            self._frozen.add(conn)

    def drop_connections(self) -> None:
        """Abort every open connection at the TCP level (no close frame)."""
        for conn in list(self._conns):
            conn.transport.abort()

    def notify(self, event: str, params: Mapping[str, Any]) -> None:
        """Send a notification to every connected client.

        Args:
            event: the name after ``minecraft:notification/``, e.g. ``"players/joined"``.
            params: by-name params; sent positionally (schema order) when ``notification_form == "array"``.
        """
        method = NOTIFICATION + event
        declared = self._methods.get(method, {})
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params:
            if self.notification_form == "array":
                message["params"] = [params[p["name"]] for p in declared.get("params", []) if p["name"] in params]
            else:
                message["params"] = dict(params)
        live = [c for c in self._conns if c not in self._frozen]
        broadcast(live, json.dumps(message))

    # -- connection handling -----------------------------------------------------------------------

    def _authenticate(self, _connection: ServerConnection, request: Request) -> Response | None:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {self._secret}"
        if self._secret and hmac.compare_digest(given.encode(), expected.encode()):
            return None
        self.rejected += 1
        body = json.dumps({"error": "Unauthorized", "message": "Invalid or missing API key"}).encode()
        headers = Headers(
            [("Content-Type", "application/json"), ("Content-Length", str(len(body))), ("Connection", "close")]
        )
        return Response(401, "Unauthorized", headers, body)

    async def _handle(self, conn: ServerConnection) -> None:
        self._conns.add(conn)
        try:
            async for raw in conn:
                reply = self._answer(raw)
                if reply is not None:
                    await conn.send(json.dumps(reply))
                if self.state.stop_requested and self._stopping is None:  # server/stop: answer, then stop
                    self._stopping = asyncio.get_running_loop().create_task(self.stop())
        except ConnectionClosed:
            pass
        finally:
            self._conns.discard(conn)
            self._frozen.discard(conn)

    def _answer(self, raw: str | bytes) -> dict[str, Any] | None:
        try:
            message = json.loads(raw)
        except ValueError:
            return {"jsonrpc": "2.0", "id": None, "error": {"code": PARSE_ERROR, "message": "Parse error"}}
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            return {"jsonrpc": "2.0", "id": None, "error": {"code": INVALID_REQUEST, "message": "Invalid Request"}}
        rid = message.get("id")
        method = message["method"]
        self.requests.append({"method": method, "params": message.get("params")})
        try:
            result = self._call(method, message.get("params"))
        except RpcError as exc:
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": exc.code, "message": exc.message}}
        if rid is None:
            return None
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    def _call(self, method: str, params: Any) -> Any:
        if method == "rpc.discover":
            return self.schema
        if not self.started:
            raise RpcError(INVALID_REQUEST, "Invalid Request: can't be handled in the current server state")
        declared = self._methods.get(method)
        if declared is None or method.startswith(NOTIFICATION):
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
        args = self._params(declared, params)
        handler = METHODS.get(method.removeprefix("minecraft:"))
        if handler is None:
            raise RpcError(INTERNAL_ERROR, f"the sandbox does not model {method}")
        self.world.writes += 1  # a request may change what a tick reads (``World.advance``)
        result = handler(self._context(), **args)
        schema = declared.get("result", {}).get("schema")
        if schema is not None:
            try:
                check_schema(result, schema, self.schema, f"{method} result")
            except ClientMessageError as exc:  # a sandbox bug: say so loudly
                self.world.errors.append(f"MSMP result does not fit the schema: {exc}")
                raise RpcError(INTERNAL_ERROR, str(exc)) from None
        return result

    def _params(self, declared: Mapping[str, Any], params: Any) -> dict[str, Any]:
        """Both param forms → by-name arguments, checked against the declared param schemas."""
        specs = declared.get("params", [])
        names = [p["name"] for p in specs]
        params = _without_nulls(params)
        if params is None:
            given: dict[str, Any] = {}
        elif isinstance(params, list):
            if len(params) > len(names):
                raise RpcError(INVALID_PARAMS, f"Invalid params: expected at most {len(names)}")
            given = dict(zip(names, params, strict=False))  # fewer params than names: the rest default
        elif isinstance(params, dict):
            unknown = set(params) - set(names)
            if unknown:
                raise RpcError(INVALID_PARAMS, f"Invalid params: unknown {sorted(unknown)}")
            given = dict(params)
        else:
            raise RpcError(INVALID_PARAMS, "Invalid params: must be an array or an object")
        for spec in specs:
            name = spec["name"]
            if name not in given:
                if spec.get("required"):
                    raise RpcError(INVALID_PARAMS, f"Invalid params: missing {name!r}")
                continue
            try:
                check_schema(given[name], spec["schema"], self.schema, name)
            except ClientMessageError as exc:
                raise RpcError(INVALID_PARAMS, f"Invalid params: {exc}") from None
        return given

    def _context(self) -> Context:
        return Context(self.world, self.state, self.notify, self.gamerule_updates_allowed, self.status_version)

    @property
    def status_version(self) -> dict[str, Any]:
        """``server/status`` ``version``: the stood-in release's protocol, and a name that says it is the sandbox."""
        return {"name": f"{self.version.name} (Castle sandbox, not Minecraft)", "protocol": self.version.protocol}

    def _presence(self, event: str, player: Player) -> None:
        self.state.profiles[player.uuid] = player.name
        self.notify(f"players/{event}", {"player": {"id": player.uuid, "name": player.name}})


def _without_nulls(value: Any) -> Any:
    """``value`` with every ``null`` object field dropped: vanilla's JSON reader takes a null field as absent
    (clients such as ``mc-server-management`` send ``"expires": null``)."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value
