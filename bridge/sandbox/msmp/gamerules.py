"""``minecraft:gamerules`` and ``gamerules/update`` over the sandbox world's game rules
(``docs/minecraft.md#msmp``)."""

from __future__ import annotations

import re
from typing import Any

from bridge.sandbox.model import GAMERULE_DEFAULTS
from bridge.sandbox.msmp.base import INTERNAL_ERROR, INVALID_PARAMS, Context, Handler, RpcError

__all__ = ["METHODS"]

_RULE_KEY = re.compile(r"[a-z][a-z0-9_]*")


def typed(ctx: Context, key: str) -> dict[str, Any]:
    """The schema's ``typed_game_rule`` for ``key``."""
    raw = ctx.world.gamerules.get(key, GAMERULE_DEFAULTS.get(key, "false"))
    if raw in ("true", "false"):
        return {"key": key, "type": "boolean", "value": raw == "true"}
    return {"key": key, "type": "integer", "value": int(raw)}


def gamerules(ctx: Context) -> list[dict[str, Any]]:
    """Every game rule with its type and value."""
    keys = sorted({*GAMERULE_DEFAULTS, *ctx.world.gamerules})
    return [typed(ctx, k) for k in keys]


def update(ctx: Context, gamerule: dict[str, Any]) -> dict[str, Any]:
    """Set one rule; answers it typed and tells clients ``gamerules/updated``."""
    if not ctx.gamerule_updates_allowed:
        raise RpcError(INTERNAL_ERROR, "Game rule updates are not allowed on this server")
    key, value = gamerule.get("key"), gamerule.get("value")
    if not isinstance(key, str) or not _RULE_KEY.fullmatch(key) or value is None:
        raise RpcError(INVALID_PARAMS, "Invalid params: gamerule needs a snake_case key and a value")
    ctx.world.gamerules[key] = ("true" if value else "false") if isinstance(value, bool) else str(int(value))
    result = typed(ctx, key)
    ctx.notify("gamerules/updated", {"gamerule": result})
    return result


METHODS: dict[str, Handler] = {"gamerules": gamerules, "gamerules/update": update}
