"""The built-in stand-in server for the demo and the tests: vanilla RCON framing on loopback in front of a
small world model. It is not Minecraft and never claims to be.

Modules: ``rcon_server`` (framing and fault switches), ``msmp_server`` (MSMP 2.0.0, 3.0.0 or 3.1.0 from the saved
schemas, per the release stood in for), ``versioned`` (the ``version`` and ``reload`` commands of that release),
``positions`` (players' ``Pos``/``Rotation``),
``world`` (``World``: what players do, ticks, the console), ``state`` (the world's state and the interpreter),
``commands`` (one module per command family behind one dispatch table), ``model`` (players, stacks, objectives,
bossbars), ``nbt``/``text`` (helpers), ``datapack`` (the data pack the world interprets), ``uuids`` (offline-mode
UUIDs), ``quiet`` (the demo's quiet gate), ``server`` (``Sandbox``, ``SandboxThread``).

The package imports its server and world only when one of them is asked for (``bridge.sandbox.Sandbox``): they
bring mecha and its command tree, and a program that only reads ``bridge.sandbox.blocks`` (the service's own
start-up, through the castle builder) need not pay for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bridge.sandbox.server import Sandbox, SandboxThread
    from bridge.sandbox.world import World

__all__ = ["Sandbox", "SandboxThread", "World"]

_HOMES = {"Sandbox": "bridge.sandbox.server", "SandboxThread": "bridge.sandbox.server", "World": "bridge.sandbox.world"}


def __getattr__(name: str) -> Any:
    """``Sandbox``, ``SandboxThread`` and ``World``, imported on first use.

    Raises:
        AttributeError: any other name.
    """
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bridge.sandbox' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
