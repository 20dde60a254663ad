"""The sandbox's MSMP methods, one module per family behind one dispatch table (``docs/minecraft.md#msmp``).

``METHODS`` maps a method name without its ``minecraft:`` namespace (``"allowlist/add"``) to
``handler(ctx, **params)``; ``bridge.sandbox.msmp_server`` checks params and results against the schema.
"""

from __future__ import annotations

from bridge.sandbox.msmp import gamerules, lists, players, settings
from bridge.sandbox.msmp.base import Context, Handler, Management, RpcError

__all__ = ["METHODS", "Context", "Handler", "Management", "RpcError", "new_state"]

METHODS: dict[str, Handler] = {**players.METHODS, **lists.METHODS, **settings.METHODS, **gamerules.METHODS}


def new_state() -> Management:
    """The management state of a fresh server (empty lists, default settings)."""
    return Management(settings=settings.defaults())
