"""The item, block and entity type registries of the version the sandbox plays, and vanilla's refusal of an id
that is in none of them.

The ids come from ``registries-1.21.11.json`` beside this module (its ``provenance`` names the source, the game
version and when it was taken). Vanilla checks an id while it parses the command, so a refusal is a parse
failure: the message, then the command up to the id's start with ``<--[HERE]``, all run together over RCON
(``bridge/sandbox/world.py``, house rule 1). The en_us messages: ``argument.item.id.invalid`` "Unknown item
'%s'", ``argument.block.id.invalid`` "Unknown block type '%s'", ``argument.entity.options.type.invalid``
"Invalid or unknown entity type '%s'". Tags (``#minecraft:logs``) are not checked.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mecha import ast as mast

__all__ = ["REGISTRIES", "Registries", "unknown_id"]


@dataclass(frozen=True)
class Registries:
    """Ids without the ``minecraft:`` namespace, and where they come from."""

    version: str
    source: str
    item: frozenset[str]
    block: frozenset[str]
    entity_type: frozenset[str]


def _load() -> Registries:
    data = json.loads(resources.files("bridge.sandbox").joinpath("registries-1.21.11.json").read_text("utf-8"))
    prov = data["provenance"]
    return Registries(
        prov["version"],
        prov["source"],
        frozenset(data["item"]),
        frozenset(data["block"]),
        frozenset(data["entity_type"]),
    )


REGISTRIES = _load()


def _vanilla_id(node: Any) -> str | None:
    """``minecraft:x`` for a plain resource location (``x`` alone means ``minecraft:x``); None for a tag."""
    if not isinstance(node, mast.AstResourceLocation) or node.is_tag:
        return None
    return f"{node.namespace or 'minecraft'}:{node.path}"


def _check(node: Any, known: frozenset[str], message: str) -> tuple[int, str] | None:
    rid = _vanilla_id(node)
    if rid is None or (rid.startswith("minecraft:") and rid.removeprefix("minecraft:") in known):
        return None
    return node.location.pos, message % rid


def _entity_type(node: mast.AstSelectorArgument) -> tuple[int, str] | None:
    if node.key.value != "type":
        return None
    return _check(node.value, REGISTRIES.entity_type, "Invalid or unknown entity type '%s'")


def unknown_id(command: mast.AstCommand) -> tuple[int, str] | None:
    """The first item, block or entity id in ``command`` that the registries do not have: (its offset in the
    command text, vanilla's message), or None when every id is known."""
    for node in command.walk():
        found = None
        if isinstance(node, mast.AstItemStack | mast.AstItemPredicate):
            found = _check(node.identifier, REGISTRIES.item, "Unknown item '%s'")
        elif isinstance(node, mast.AstBlock):
            found = _check(node.identifier, REGISTRIES.block, "Unknown block type '%s'")
        elif isinstance(node, mast.AstSelectorArgument):
            found = _entity_type(node)
        if found is not None:
            return found
    return None
