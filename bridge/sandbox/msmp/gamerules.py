"""``minecraft:gamerules`` and ``gamerules/update`` as a 1.21.11 / 26.x server answers them
(``docs/minecraft.md#msmp``).

From 1.21.11 (MSMP 2.0.0) game rules are a registry: ``gamerules`` lists every rule keyed by its namespaced
id (``minecraft:advance_time``), and ``gamerules/update`` takes that id (a bare name reads as ``minecraft:``,
as any identifier does). A key not in the registry, a value of the wrong type or outside the rule's bounds is
refused with ``-32602``. The sandbox keeps the values in ``world.gamerules`` by bare name, as ``gamerule``
prints them, so RCON and MSMP see the same rules.
"""

from __future__ import annotations

from typing import Any

from bridge.sandbox.model import GAMERULE_DEFAULTS, GAMERULES, GameRule
from bridge.sandbox.msmp.base import INTERNAL_ERROR, INVALID_PARAMS, Context, Handler, RpcError

__all__ = ["METHODS", "rule_name"]

NAMESPACE = "minecraft:"


def rule_name(key: str) -> str | None:
    """The registry name of an MSMP key (``"minecraft:pvp"`` or ``"pvp"`` → ``"pvp"``), or ``None``."""
    name = key.removeprefix(NAMESPACE)
    return name if ":" not in name and name in GAMERULES else None


def typed(ctx: Context, name: str) -> dict[str, Any]:
    """The schema's ``typed_game_rule`` for the rule called ``name``."""
    raw = ctx.world.gamerules.get(name, GAMERULE_DEFAULTS[name])
    if isinstance(GAMERULES[name].default, bool):
        return {"key": NAMESPACE + name, "type": "boolean", "value": raw == "true"}
    return {"key": NAMESPACE + name, "type": "integer", "value": int(raw)}


def gamerules(ctx: Context) -> list[dict[str, Any]]:
    """Every game rule of the registry with its type and value, in registry-name order."""
    return [typed(ctx, name) for name in sorted(GAMERULES)]


def _checked(name: str, rule: GameRule, value: Any) -> str:
    """``value`` as ``gamerule`` prints it, or :class:`RpcError` when the rule cannot take it."""
    if isinstance(rule.default, bool):
        if not isinstance(value, bool):
            raise RpcError(INVALID_PARAMS, f"Invalid params: {NAMESPACE}{name} takes a boolean")
        return "true" if value else "false"
    if isinstance(value, bool) or not isinstance(value, int):
        raise RpcError(INVALID_PARAMS, f"Invalid params: {NAMESPACE}{name} takes an integer")
    if (rule.minimum is not None and value < rule.minimum) or (rule.maximum is not None and value > rule.maximum):
        raise RpcError(
            INVALID_PARAMS,
            f"Invalid params: {NAMESPACE}{name} takes {rule.minimum} to "
            f"{rule.maximum if rule.maximum is not None else 'any'}, not {value}",
        )
    return str(value)


def update(ctx: Context, gamerule: dict[str, Any]) -> dict[str, Any]:
    """Set one rule; answers it typed and tells clients ``gamerules/updated``."""
    if not ctx.gamerule_updates_allowed:
        raise RpcError(INTERNAL_ERROR, "Game rule updates are not allowed on this server")
    key = gamerule.get("key")
    name = rule_name(key) if isinstance(key, str) else None
    if name is None:
        raise RpcError(INVALID_PARAMS, f"Invalid params: no game rule {key!r}")
    ctx.world.gamerules[name] = _checked(name, GAMERULES[name], gamerule.get("value"))
    result = typed(ctx, name)
    ctx.notify("gamerules/updated", {"gamerule": result})
    return result


METHODS: dict[str, Handler] = {"gamerules": gamerules, "gamerules/update": update}
