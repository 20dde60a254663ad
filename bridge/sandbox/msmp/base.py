"""What every MSMP method family of the sandbox shares: the error type, the management state (allowlist,
operators, bans, server settings) and the way a ``player`` object is resolved (``docs/minecraft.md#msmp``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bridge.sandbox.model import PLAYER_NAME, Player
from bridge.sandbox.uuids import offline_uuid
from bridge.sandbox.world import World

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "Context",
    "Handler",
    "Management",
    "RpcError",
    "SANDBOX_VERSION",
    "player_json",
    "resolve",
    "resolve_all",
]

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
INVALID_REQUEST = -32600
PARSE_ERROR = -32700


class RpcError(Exception):
    """A JSON-RPC error answer: ``code`` (one of the constants above) and ``message``."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Management:
    """The server state only MSMP reads and writes, with vanilla's defaults.

    Attributes:
        allowlist: UUID → name (``whitelist.json``), in the order added.
        operators: UUID → ``operator`` object (``ops.json``).
        bans: UUID → ``user_ban`` object (``banned-players.json``).
        ip_bans: IP → ``ip_ban`` object (``banned-ips.json``).
        settings: ``serversettings/<name>`` → value (``server.properties`` defaults).
        profiles: UUID → name of every profile the server has seen (``usercache.json``): players who joined
            and names looked up.
        saves: how many times ``server/save`` ran.
        stop_requested: ``server/stop`` was called.
    """

    allowlist: dict[str, str] = field(default_factory=dict)
    operators: dict[str, dict[str, Any]] = field(default_factory=dict)
    bans: dict[str, dict[str, Any]] = field(default_factory=dict)
    ip_bans: dict[str, dict[str, Any]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    profiles: dict[str, str] = field(default_factory=dict)
    saves: int = 0
    stop_requested: bool = False


SANDBOX_VERSION: dict[str, Any] = {"name": "Castle sandbox (not Minecraft)", "protocol": 774}
"""The default ``server/status`` ``version``: protocol 774 is 1.21.11; the name says what it is."""


@dataclass
class Context:
    """What a method handler gets: the world, the management state, ``notify(event, params)`` and the
    ``server/status`` ``version`` object (``{"name", "protocol"}``) of the release the sandbox stands in for."""

    world: World
    state: Management
    notify: Callable[[str, Mapping[str, Any]], None]
    gamerule_updates_allowed: bool = True
    version: Mapping[str, Any] = field(default_factory=lambda: dict(SANDBOX_VERSION))


Handler = Callable[..., Any]
"""A method: ``handler(ctx, **params_by_name) -> result`` (raises :class:`RpcError`)."""


def player_json(uuid: str, name: str) -> dict[str, str]:
    """The schema's ``player`` object."""
    return {"id": uuid, "name": name}


def _online_by_id(world: World, uuid: str) -> Player | None:
    return next((p for p in world.players.values() if p.uuid == uuid), None)


def resolve(ctx: Context, given: Any) -> tuple[str, str] | None:
    """A schema ``player`` object → ``(uuid, name)`` as an offline-mode server resolves a profile, or ``None``.

    By ``id``: an online player with that UUID, else a profile the server has seen (``Management.profiles``). By
    ``name``: the online player, else the name's offline-mode UUID (``bridge.sandbox.uuids``), remembered. A name that is not a valid
    player name resolves to nothing, like vanilla's failed profile lookup (the entry is skipped).
    """
    if not isinstance(given, Mapping):
        return None
    uuid, name = given.get("id"), given.get("name")
    if isinstance(uuid, str) and uuid:
        uuid = uuid.lower()
        online = _online_by_id(ctx.world, uuid)
        if online is not None:
            return online.uuid, online.name
        known = ctx.state.profiles.get(uuid)
        return (uuid, known) if known is not None else None
    if isinstance(name, str) and PLAYER_NAME.fullmatch(name):
        online = ctx.world.players.get(name)
        found = (online.uuid, online.name) if online is not None else (offline_uuid(name), name)
        ctx.state.profiles[found[0]] = found[1]
        return found
    return None


def resolve_all(ctx: Context, given: list[Any] | None) -> list[tuple[str, str]]:
    """Every resolvable player of a list, once each, in order (unresolvable ones are skipped)."""
    out: list[tuple[str, str]] = []
    for entry in given or []:
        found = resolve(ctx, entry)
        if found is not None and found not in out:
            out.append(found)
    return out
