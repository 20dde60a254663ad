"""The server's lists over MSMP: ``allowlist``, ``operators``, ``bans`` and ``ip_bans``, each with ``set``,
``add``, ``remove`` and ``clear`` (``docs/minecraft.md#msmp``).

As vanilla: every method answers the whole list as it is afterwards; each entry added or removed is told to
clients as ``<list>/added`` / ``<list>/removed``; players that cannot be resolved are skipped; a banned player
who is online is disconnected, and so is a player taken off an enforced allowlist.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from bridge.sandbox.msmp.base import (
    INVALID_PARAMS,
    Context,
    Handler,
    Management,
    RpcError,
    player_json,
    resolve,
    resolve_all,
)

__all__ = ["BAN_REASON", "BAN_SOURCE", "METHODS", "SANDBOX_IP"]

BAN_REASON = "Banned by an operator."
"""The reason vanilla writes when a ban gives none."""
BAN_SOURCE = "Management server"
"""The source vanilla writes when a ban given over MSMP names none."""
SANDBOX_IP = "127.0.0.1"
"""Where every sandbox player connects from (the bots run beside the server)."""
_EXPIRES = "%Y-%m-%d %H:%M:%S %z"
"""The ban-list date form (``yyyy-MM-dd HH:mm:ss Z``)."""


# -- what an entry is, per list ---------------------------------------------------------------------


def _allow_entries(ctx: Context, given: list[Any]) -> list[tuple[str, Any]]:
    return [(uuid, player_json(uuid, name)) for uuid, name in resolve_all(ctx, given)]


def _uuids(ctx: Context, given: list[Any]) -> list[str]:
    return [uuid for uuid, _ in resolve_all(ctx, given)]


def _op_entries(ctx: Context, given: list[Any]) -> list[tuple[str, Any]]:
    out = []
    for entry in given:
        found = resolve(ctx, entry.get("player"))
        if found is None:
            continue
        level = entry.get("permissionLevel", ctx.state.settings["operator_user_permission_level"])
        if not 0 <= level <= 4:
            raise RpcError(INVALID_PARAMS, f"Invalid params: permissionLevel {level} is not 0-4")
        out.append(
            (
                found[0],
                {
                    "player": player_json(*found),
                    "permissionLevel": level,
                    "bypassesPlayerLimit": bool(entry.get("bypassesPlayerLimit", False)),
                },
            )
        )
    return out


def _ban_fields(entry: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"reason": entry.get("reason", BAN_REASON), "source": entry.get("source", BAN_SOURCE)}
    expires = entry.get("expires")
    if expires is not None:
        try:
            datetime.strptime(expires, _EXPIRES)
        except ValueError:
            raise RpcError(
                INVALID_PARAMS, f"Invalid params: expires {expires!r} is not yyyy-MM-dd HH:mm:ss Z"
            ) from None
        out["expires"] = expires
    return out


def _ban_entries(ctx: Context, given: list[Any]) -> list[tuple[str, Any]]:
    out = []
    for entry in given:
        found = resolve(ctx, entry.get("player"))
        if found is not None:
            out.append((found[0], {"player": player_json(*found), **_ban_fields(entry)}))
    return out


def _address(ctx: Context, entry: dict[str, Any]) -> str | None:
    """The entry's ``ip`` (refused when not an address), else the address its online ``player`` uses."""
    ip = entry.get("ip")
    if ip is not None:
        try:
            return str(ipaddress.ip_address(ip))
        except ValueError:
            raise RpcError(INVALID_PARAMS, f"Invalid params: {ip!r} is not an IP address") from None
    found = resolve(ctx, entry.get("player"))
    return SANDBOX_IP if found is not None and found[1] in ctx.world.players else None


def _ip_entries(ctx: Context, given: list[Any]) -> list[tuple[str, Any]]:
    out = []
    for entry in given:
        ip = _address(ctx, entry)
        if ip is not None:
            out.append((ip, {"ip": ip, **_ban_fields(entry)}))
    return out


def _ips(_ctx: Context, given: list[Any]) -> list[str]:
    return [str(ip) for ip in given]


# -- who is disconnected ---------------------------------------------------------------------------


def _kick_unlisted(ctx: Context, _keys: list[str]) -> None:
    """Players off an enforced allowlist are disconnected."""
    settings = ctx.state.settings
    if settings.get("use_allowlist") and settings.get("enforce_allowlist"):
        for player in [p for p in ctx.world.players.values() if p.uuid not in ctx.state.allowlist]:
            ctx.world.leave(player.name)


def _kick_banned(ctx: Context, keys: list[str]) -> None:
    for player in [p for p in ctx.world.players.values() if p.uuid in keys]:
        ctx.world.leave(player.name)


def _kick_ip_banned(ctx: Context, keys: list[str]) -> None:
    if SANDBOX_IP in keys:
        for name in list(ctx.world.players):
            ctx.world.leave(name)


def _nobody(ctx: Context, keys: list[str]) -> None:
    """Nobody is disconnected."""


# -- the four lists --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _List:
    """One of the server's lists: where it is kept, how a request names entries, and who then leaves.

    ``entries(ctx, given)`` → (key, entry) pairs to add; ``keys(ctx, given)`` → keys to remove;
    ``removed_note(entry)`` is the ``<name>/removed`` param; ``after_add`` / ``after_remove`` disconnect
    whoever may no longer be online.
    """

    name: str
    store: Callable[[Management], dict[str, Any]]
    entries: Callable[[Context, list[Any]], list[tuple[str, Any]]]
    keys: Callable[[Context, list[Any]], list[str]]
    removed_note: Callable[[str, Any], Any]
    after_add: Callable[[Context, list[str]], None] = _nobody
    after_remove: Callable[[Context, list[str]], None] = _nobody

    def get(self, ctx: Context) -> list[Any]:
        """The whole list, in the order added."""
        return [dict(entry) for entry in self.store(ctx.state).values()]

    def _add(self, ctx: Context, pairs: list[tuple[str, Any]]) -> None:
        store = self.store(ctx.state)
        for key, entry in pairs:
            if store.get(key) != entry:
                store[key] = entry
                ctx.notify(f"{self.name}/added", {"player": entry})
        self.after_add(ctx, [key for key, _ in pairs])

    def _remove(self, ctx: Context, keys: list[str]) -> None:
        store = self.store(ctx.state)
        for key in keys:
            entry = store.pop(key, None)
            if entry is not None:
                ctx.notify(f"{self.name}/removed", {"player": self.removed_note(key, entry)})
        self.after_remove(ctx, keys)

    def add(self, ctx: Context, given: list[Any]) -> list[Any]:
        """Add the resolvable entries; answers the whole list."""
        self._add(ctx, self.entries(ctx, given))
        return self.get(ctx)

    def remove(self, ctx: Context, given: list[Any]) -> list[Any]:
        """Remove the named entries; answers the whole list."""
        self._remove(ctx, self.keys(ctx, given))
        return self.get(ctx)

    def set(self, ctx: Context, given: list[Any]) -> list[Any]:
        """Make the list exactly these entries; answers it."""
        pairs = self.entries(ctx, given)
        wanted = {key for key, _ in pairs}
        self._remove(ctx, [key for key in self.store(ctx.state) if key not in wanted])
        self._add(ctx, pairs)
        return self.get(ctx)

    def clear(self, ctx: Context) -> list[Any]:
        """Empty the list."""
        self._remove(ctx, list(self.store(ctx.state)))
        return self.get(ctx)


def _allowlist_of(state: Management) -> dict[str, Any]:
    return state.allowlist


def _operators_of(state: Management) -> dict[str, Any]:
    return state.operators


def _bans_of(state: Management) -> dict[str, Any]:
    return state.bans


def _ip_bans_of(state: Management) -> dict[str, Any]:
    return state.ip_bans


def _whole(_key: str, entry: Any) -> Any:
    return entry


def _its_player(_key: str, entry: Any) -> Any:
    return entry["player"]


def _its_key(key: str, _entry: Any) -> Any:
    return key


LISTS = (
    _List("allowlist", _allowlist_of, _allow_entries, _uuids, _whole, after_remove=_kick_unlisted),
    _List("operators", _operators_of, _op_entries, _uuids, _whole),
    _List("bans", _bans_of, _ban_entries, _uuids, _its_player, after_add=_kick_banned),
    _List("ip_bans", _ip_bans_of, _ip_entries, _ips, _its_key, after_add=_kick_ip_banned),
)
"""The allowlist (``whitelist.json``), operators (``ops.json``), bans and IP bans."""


def _call(family: _List, operation: Callable[..., Any], ctx: Context, **given: Any) -> Any:
    """A list method: the one declared param (whatever the schema calls it) goes to ``operation``."""
    return operation(family, ctx, *given.values())


METHODS: dict[str, Handler] = {
    f"{family.name}{suffix}": partial(_call, family, operation)
    for family in LISTS
    for suffix, operation in (
        ("", _List.get),
        ("/set", _List.set),
        ("/add", _List.add),
        ("/remove", _List.remove),
        ("/clear", _List.clear),
    )
}
