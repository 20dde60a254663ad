"""``summon`` and ``kill`` of entities other than players: the sandbox keeps each summoned entity (its type,
position, tags and data) so a test can read what the castle shows in the world (the lobby's sign-up board, a
``text_display``: ``docs/host.md``, "The lobby").

Vanilla facts kept (en_us texts): "Summoned new <name>" (``commands.summon.success``); "Killed <name>" or "Killed
<n> entities" (``commands.kill.success.single|multiple``); "No entity was found" when a selector finds none. Only
``@e`` selectors filtered by ``type`` and ``tag`` are modelled for ``kill`` (players are never killed here). An
entity in a chunk that is not loaded (``bridge.sandbox.chunks``) is out of a selector's reach, as in vanilla:
``summon`` there succeeds (vanilla checks no chunk), but ``kill`` does not find it until its chunk loads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mecha import ast as mast

from bridge.sandbox import nbt
from bridge.sandbox.commands.args import coord, plain, rl
from bridge.sandbox.model import default_name
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["Entity", "kill", "summon"]


@dataclass(slots=True)
class Entity:
    """A summoned entity: ``type`` (``minecraft:text_display``), ``pos`` (x, y, z in blocks), its ``Tags`` and
    the rest of its data as plain Python (``text`` of a text display: the component)."""

    type: str
    pos: tuple[float, float, float]
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def tags(self) -> set[str]:
        return {str(t) for t in self.data.get("Tags", [])}


def summon(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    """``summon <entity> [<pos>] [<nbt>]``."""
    kind = rl(args[0])
    if kind == "minecraft:player":
        raise CommandFailure("Unable to summon entity")
    sx, sy, sz = world.spawn
    pos = (coord(args[1].x, sx), coord(args[1].y, sy), coord(args[1].z, sz)) if len(args) > 1 else world.spawn
    data = nbt.to_python(args[2].evaluate()) if len(args) > 2 else {}
    world.entities.append(Entity(kind, pos, dict(data)))
    return f"Summoned new {default_name(kind)}"


def kill(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    """``kill <targets>`` for ``@e[type=…,tag=…]``."""
    sel = args[0] if args else None
    if not isinstance(sel, mast.AstSelector) or sel.variable != "e":
        raise Unsupported("kill of anything but @e[type=…,tag=…]")
    found = [e for e in world.entities if world.loaded(e.pos[0], e.pos[2])]
    for arg in sel.arguments:
        key, value = str(arg.key.value), plain(arg.value)
        if key == "type":
            kind = value if ":" in value else f"minecraft:{value}"
            found = [e for e in found if (e.type == kind) != arg.inverted]
        elif key == "tag":
            found = [e for e in found if (value in e.tags if value else not e.tags) != arg.inverted]
        else:
            raise Unsupported(f"kill selector argument {key}")
    if not found:
        raise CommandFailure("No entity was found")
    world.entities = [e for e in world.entities if all(e is not f for f in found)]
    return f"Killed {default_name(found[0].type)}" if len(found) == 1 else f"Killed {len(found)} entities"
