"""The built-in stand-in server for the demo and the tests: vanilla RCON framing on loopback in front of a
small world model. It is not Minecraft and never claims to be.

Modules: ``rcon_server`` (framing and fault switches), ``msmp_server`` (MSMP 2.0.0, 3.0.0 or 3.1.0 from the saved
schemas, per the release stood in for), ``versioned`` (the ``version`` and ``reload`` commands of that release),
``positions`` (players' ``Pos``/``Rotation``),
``world`` (``World``: what players do, ticks, the console), ``state`` (the world's state and the interpreter),
``commands`` (one module per command family behind one dispatch table), ``model`` (players, stacks, objectives,
bossbars), ``nbt``/``text`` (helpers), ``datapack`` (the data pack the world interprets), ``uuids`` (offline-mode
UUIDs), ``quiet`` (the demo's quiet gate), ``server`` (``Sandbox``, ``SandboxThread``).
"""

from bridge.sandbox.server import Sandbox, SandboxThread
from bridge.sandbox.world import World

__all__ = ["Sandbox", "SandboxThread", "World"]
