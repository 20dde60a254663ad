"""An MSMP (Server Management Protocol) server for the sandbox, served from the saved 2.0.0 schema
(``docs/minecraft.md#msmp``).

It is not Minecraft. It shares the sandbox ``World``: the player list is the world's online players (with
offline-mode UUIDs), joins and leaves become ``players/joined`` / ``players/left`` notifications, and game rules
are the world's game rules.

House rules of this file (each one follows ``docs/minecraft.md#msmp``):

1. Only ``Authorization: Bearer <secret>`` authenticates (compared in constant time). Anything else is
   answered with HTTP 401 and a JSON body before the websocket upgrade.
2. Requests are JSON-RPC 2.0. Params come as a list (positional, in the schema's declared order) or as an
   object keyed by the declared names. Unknown method → ``-32601``; bad params → ``-32602``; a method the
   schema has but the sandbox does not model → ``-32603`` naming it.
3. ``rpc.discover`` returns the saved schema document itself; every result the sandbox sends is checked
   against the schema's declared result (a mismatch is a sandbox bug and fails loudly).
4. Notifications carry their params in the positional form by default (``notification_form``).

Misbehaviour on purpose, for client tests: ``freeze()`` stops reading from every open connection (a half-open
connection: pings go unanswered), ``drop_connections()`` closes them all, ``gamerule_updates_allowed=False``
refuses ``gamerules/update``.
"""

from __future__ import annotations

import contextlib
import hmac
import importlib.resources
import json
import logging
import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from bridge.errors import ClientMessageError
from bridge.io.msmp import NOTIFICATION, check_schema, redacting_logger
from bridge.sandbox.model import GAMERULE_DEFAULTS, ChatMessage, Player
from bridge.sandbox.world import World

__all__ = ["MsmpServer", "schema_document"]

log = logging.getLogger(__name__)

SCHEMA_FILE = "msmp-schema-2.0.0.json"
"""The saved MSMP 2.0.0 schema (``schema.json`` of github.com/Xaeroxe/mc-rpc, commit 265fb67, fetched with
``rpc.discover`` from a live 1.21.11 server; ``docs/minecraft.md#msmp``)."""

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
INVALID_REQUEST = -32600
PARSE_ERROR = -32700

_RULE_KEY = re.compile(r"[a-z][a-z0-9_]*")


@cache
def schema_document() -> dict[str, Any]:
    """The MSMP 2.0.0 OpenRPC document the sandbox serves (read once from package data)."""
    text = importlib.resources.files("bridge.sandbox").joinpath(SCHEMA_FILE).read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


class _RpcError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class MsmpServer:
    """Serves MSMP for one sandbox world on loopback.

    Args:
        world: the sandbox world (its players, game rules and chat).
        secret: the management secret (``management-server-secret``); never logged.
    """

    def __init__(self, world: World, secret: str) -> None:
        self.world = world
        self._secret = secret
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
        self._methods = {m["name"]: m for m in schema_document()["methods"]}
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
    def connections(self) -> int:
        """Open websocket connections."""
        return len(self._conns)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``host:port`` (0 picks a free port), tell connected clients ``server/started``; returns the port."""
        self._server = await serve(
            self._handle,
            host,
            port,
            process_request=self._authenticate,
            ping_interval=None,
            logger=self._wire_log,
        )
        bound = self.port
        assert bound is not None
        return bound

    async def stop(self) -> None:
        """Send ``server/stopping``, close every connection and stop listening."""
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

    def _authenticate(self, connection: ServerConnection, request: Request) -> Response | None:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {self._secret}"
        if self._secret and hmac.compare_digest(given.encode(), expected.encode()):
            return None
        self.rejected += 1
        body = json.dumps({"error": "Unauthorized", "message": "Invalid or missing API key"}).encode()
        headers = Headers([("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                           ("Connection", "close")])  # fmt: skip
        return Response(401, "Unauthorized", headers, body)

    async def _handle(self, conn: ServerConnection) -> None:
        self._conns.add(conn)
        try:
            async for raw in conn:
                reply = self._answer(raw)
                if reply is not None:
                    await conn.send(json.dumps(reply))
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
        except _RpcError as exc:
            return {"jsonrpc": "2.0", "id": rid, "error": {"code": exc.code, "message": exc.message}}
        if rid is None:
            return None
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    def _call(self, method: str, params: Any) -> Any:
        if method == "rpc.discover":
            return schema_document()
        declared = self._methods.get(method)
        if declared is None or method.startswith(NOTIFICATION):
            raise _RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
        args = self._params(declared, params)
        handler = getattr(self, "_m_" + method.removeprefix("minecraft:").replace("/", "_"), None)
        if handler is None:
            raise _RpcError(INTERNAL_ERROR, f"the sandbox does not model {method}")
        result = handler(**args)
        schema = declared.get("result", {}).get("schema")
        if schema is not None:
            try:
                check_schema(result, schema, schema_document(), f"{method} result")
            except ClientMessageError as exc:  # a sandbox bug: say so loudly
                self.world.errors.append(f"MSMP result does not fit the schema: {exc}")
                raise _RpcError(INTERNAL_ERROR, str(exc)) from None
        return result

    def _params(self, declared: Mapping[str, Any], params: Any) -> dict[str, Any]:
        """Both param forms → by-name arguments, checked against the declared param schemas."""
        specs = declared.get("params", [])
        names = [p["name"] for p in specs]
        if params is None:
            given: dict[str, Any] = {}
        elif isinstance(params, list):
            if len(params) > len(names):
                raise _RpcError(INVALID_PARAMS, f"Invalid params: expected at most {len(names)}")
            given = dict(zip(names, params, strict=False))  # fewer params than names: the rest default
        elif isinstance(params, dict):
            unknown = set(params) - set(names)
            if unknown:
                raise _RpcError(INVALID_PARAMS, f"Invalid params: unknown {sorted(unknown)}")
            given = dict(params)
        else:
            raise _RpcError(INVALID_PARAMS, "Invalid params: must be an array or an object")
        for spec in specs:
            name = spec["name"]
            if name not in given:
                if spec.get("required"):
                    raise _RpcError(INVALID_PARAMS, f"Invalid params: missing {name!r}")
                continue
            try:
                check_schema(given[name], spec["schema"], schema_document(), name)
            except ClientMessageError as exc:
                raise _RpcError(INVALID_PARAMS, f"Invalid params: {exc}") from None
        return given

    def _presence(self, event: str, player: Player) -> None:
        self.notify(f"players/{event}", {"player": {"id": player.uuid, "name": player.name}})

    # -- methods (named after the schema: minecraft:players/kick → _m_players_kick) ------------------

    def _player_list(self) -> list[dict[str, str]]:
        return [{"id": p.uuid, "name": p.name} for p in self.world.players.values()]

    def _m_players(self) -> list[dict[str, str]]:
        return self._player_list()

    def _m_players_kick(self, kick: list[dict[str, Any]] | None = None) -> list[dict[str, str]]:
        kicked = []
        for entry in kick or []:
            name = (entry.get("player") or {}).get("name")
            if name in self.world.players:
                player = self.world.players[name]
                self.world.leave(name)
                kicked.append({"id": player.uuid, "name": player.name})
        return kicked

    def _m_server_status(self) -> dict[str, Any]:
        return {
            "started": True,
            "players": self._player_list(),
            "version": {"name": "Castle sandbox (not Minecraft)", "protocol": 774},
        }

    def _m_server_system_message(self, message: dict[str, Any] | None = None) -> bool:
        body = (message or {}).get("message") or {}
        text = str(body.get("literal", body.get("translatable", "")))
        receivers = [(p or {}).get("name") for p in (message or {}).get("receivingPlayers", [])]
        for p in self.world.players.values():
            if not receivers or p.name in receivers:
                p.chat.append(ChatMessage({"text": text}, text, source="system"))
        return True

    def _typed(self, key: str) -> dict[str, Any]:
        raw = self.world.gamerules.get(key, GAMERULE_DEFAULTS.get(key, "false"))
        if raw in ("true", "false"):
            return {"key": key, "type": "boolean", "value": raw == "true"}
        return {"key": key, "type": "integer", "value": int(raw)}

    def _m_gamerules(self) -> list[dict[str, Any]]:
        keys = sorted({*GAMERULE_DEFAULTS, *self.world.gamerules})
        return [self._typed(k) for k in keys]

    def _m_gamerules_update(self, gamerule: dict[str, Any] | None = None) -> dict[str, Any]:
        if not self.gamerule_updates_allowed:
            raise _RpcError(INTERNAL_ERROR, "Game rule updates are not allowed on this server")
        rule = gamerule or {}
        key, value = rule.get("key"), rule.get("value")
        if not isinstance(key, str) or not _RULE_KEY.fullmatch(key) or value is None:
            raise _RpcError(INVALID_PARAMS, "Invalid params: gamerule needs a snake_case key and a value")
        self.world.gamerules[key] = ("true" if value else "false") if isinstance(value, bool) else str(int(value))
        typed = self._typed(key)
        self.notify("gamerules/updated", {"gamerule": typed})
        return typed
