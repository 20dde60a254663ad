"""``minecraft:serversettings/*``: each server setting read with ``<name>`` and written with ``<name>/set``,
which answers the value now in force (``docs/minecraft.md#msmp``). Defaults are ``server.properties``'s."""

from __future__ import annotations

from functools import partial
from typing import Any

from bridge.sandbox.msmp.base import Context, Handler

__all__ = ["DEFAULTS", "METHODS"]

DEFAULTS: dict[str, tuple[str, Any]] = {
    "autosave": ("enable", True),
    "difficulty": ("difficulty", "easy"),
    "enforce_allowlist": ("enforce", False),
    "use_allowlist": ("use", False),
    "max_players": ("max", 20),
    "pause_when_empty_seconds": ("seconds", 60),
    "player_idle_timeout": ("seconds", 0),
    "allow_flight": ("allow", False),
    "motd": ("message", "A Minecraft Server"),
    "spawn_protection_radius": ("radius", 16),
    "force_game_mode": ("force", False),
    "game_mode": ("mode", "survival"),
    "view_distance": ("distance", 10),
    "simulation_distance": ("distance", 10),
    "accept_transfers": ("accept", False),
    "status_heartbeat_interval": ("seconds", 0),
    "operator_user_permission_level": ("level", 4),
    "hide_online_players": ("hide", False),
    "status_replies": ("enable", True),
    "entity_broadcast_range": ("percentage_points", 100),
}
"""Setting → (the ``/set`` method's param name, the vanilla default: ``white-list``, ``enforce-whitelist``,
``max-players``, ``pause-when-empty-seconds``, ``motd``, ``spawn-protection``, ``gamemode``, ``view-distance``,
``op-permission-level``, ``enable-status``, ``entity-broadcast-range-percentage`` and the rest)."""


def defaults() -> dict[str, Any]:
    """A fresh settings table with every default."""
    return {name: value for name, (_, value) in DEFAULTS.items()}


def _get(name: str, ctx: Context) -> Any:
    return ctx.state.settings[name]


def _set(name: str, ctx: Context, **given: Any) -> Any:
    (value,) = given.values()  # the one declared param, checked against the schema already
    ctx.state.settings[name] = value
    return value


def _methods() -> dict[str, Handler]:
    out: dict[str, Handler] = {}
    for name in DEFAULTS:
        out[f"serversettings/{name}"] = partial(_get, name)
        out[f"serversettings/{name}/set"] = partial(_set, name)
    return out


METHODS = _methods()
