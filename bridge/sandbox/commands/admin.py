"""Server administration: ``list``, ``kick``, ``gamerule`` and ``datapack`` (vanilla en_us replies)."""

from __future__ import annotations

from typing import Any

from bridge.sandbox.commands.args import src, targets
from bridge.sandbox.model import GAMERULE_DEFAULTS
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["datapack", "gamerule", "kick", "list_players"]

MAX_PLAYERS = 20
"""``max-players`` of a default ``server.properties``."""


def list_players(world: WorldState, parts: list[str], _args: list[Any], _text: str) -> str:
    """``list`` and ``list uuids`` (en_us ``commands.list.nameAndId`` = "%s (%s)")."""
    head = f"There are {len(world.players)} of a max of {MAX_PLAYERS} players online: "
    if len(parts) > 1:
        return head + ", ".join(f"{p.name} ({p.uuid})" for p in world.players.values())
    return head + ", ".join(world.players)


def kick(world: WorldState, _parts: list[str], args: list[Any], text: str) -> str:
    """``kick <targets> [<reason>]``: the players leave (presence listeners hear it)."""
    kicked = targets(world, args[0])
    reason = src(args[1], text) if len(args) > 1 else "Kicked by an operator"
    for p in kicked:
        world.leave(p.name)
    return "".join(f"Kicked {p.name}: {reason}" for p in kicked)


def gamerule(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
    """``gamerule <rule> [<value>]``; an unset rule reads its default (``GAMERULE_DEFAULTS``, else false)."""
    rule = parts[1]
    if args:
        value = src(args[0], text)
        world.gamerules[rule] = value
        return f"Gamerule {rule} is now set to: {value}"
    return f"Gamerule {rule} is currently set to: {world.gamerules.get(rule, GAMERULE_DEFAULTS.get(rule, 'false'))}"


def _shown(pid: str) -> str:
    """A pack as vanilla lists it: ``[id (source)]``, ``(built-in)`` for vanilla, ``(world)`` for ``file/…``."""
    return f"[{pid} ({'built-in' if pid == 'vanilla' else 'world'})]"


def _datapack_list(world: WorldState, which: str) -> str:
    out = []
    if which in ("all", "enabled"):
        on = [p for p, en in world.datapacks.items() if en]
        out.append(
            f"There are {len(on)} data pack(s) enabled: " + ", ".join(_shown(p) for p in on)
            if on
            else "There are no data packs enabled"
        )
    if which in ("all", "available"):
        avail = [p for p, on in world.datapacks.items() if not on]
        out.append(
            f"There are {len(avail)} data pack(s) available: " + ", ".join(_shown(p) for p in avail)
            if avail
            else "There are no more data packs available"
        )
    return "".join(out)


def datapack(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
    """``datapack list [enabled|available]`` and ``datapack enable|disable <id>`` (the pack list only; nothing
    is reloaded)."""
    if parts[1] == "list":
        return _datapack_list(world, parts[2] if len(parts) > 2 else "all")
    if parts[1] in ("enable", "disable"):
        pid = src(args[0], text).strip('"')
        if pid not in world.datapacks:
            raise CommandFailure(f"Unknown data pack '{pid}'")
        want = parts[1] == "enable"
        if world.datapacks[pid] == want:
            state = "already enabled" if want else "not enabled"
            raise CommandFailure(f"Pack '{pid}' is {state}!")
        world.datapacks[pid] = want
        verb = "Enabling" if want else "Disabling"
        return f"{verb} data pack {_shown(pid)}...Reloading!"
    raise Unsupported(f"datapack {parts[1]}")
