"""``bossbar add|list|remove|get|set`` (custom bossbars; vanilla en_us replies, "Nothing changed" failures)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bridge.sandbox.commands.args import component, rl, targets
from bridge.sandbox.model import Bossbar
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["bar", "bossbar"]

_Part = Callable[[WorldState, Bossbar, list[str], list[Any]], str]


def bar(world: WorldState, node: Any) -> Bossbar:
    """The bossbar an id argument names. Raises ``CommandFailure`` ("No bossbar exists with the ID …")."""
    bar_id = rl(node)
    found = world.bossbars.get(bar_id)
    if found is None:
        raise CommandFailure(f"No bossbar exists with the ID '{bar_id}'")
    return found


def _add(world: WorldState, args: list[Any]) -> str:
    bar_id = rl(args[0])
    if bar_id in world.bossbars:
        raise CommandFailure(f"A bossbar already exists with the ID '{bar_id}'")
    new = world.bossbars[bar_id] = Bossbar(bar_id, component(args[1]))
    return f"Created custom bossbar {new.bracketed}"


def _list(world: WorldState) -> str:
    if not world.bossbars:
        return "There are no custom bossbars active"
    shown = ", ".join(b.bracketed for b in world.bossbars.values())
    return f"There are {len(world.bossbars)} custom bossbar(s) active: {shown}"


# -- get ------------------------------------------------------------------------------------------


def _get_players(world: WorldState, b: Bossbar) -> str:
    online = sorted(n for n in b.players if n in world.players)
    if not online:
        return f"Custom bossbar {b.bracketed} currently has no players online"
    return f"Custom bossbar {b.bracketed} currently has {len(online)} player(s) online: {', '.join(online)}"


def _get_value(_world: WorldState, b: Bossbar) -> str:
    return f"Custom bossbar {b.bracketed} has a value of {b.value}"


def _get_max(_world: WorldState, b: Bossbar) -> str:
    return f"Custom bossbar {b.bracketed} has a maximum of {b.max}"


def _get_visible(_world: WorldState, b: Bossbar) -> str:
    return f"Custom bossbar {b.bracketed} is currently {'shown' if b.visible else 'hidden'}"


_GET: dict[str, Callable[[WorldState, Bossbar], str]] = {
    "value": _get_value,
    "max": _get_max,
    "visible": _get_visible,
    "players": _get_players,
}

# -- set ------------------------------------------------------------------------------------------


def _unchanged(what: str) -> CommandFailure:
    return CommandFailure(f"Nothing changed. That's already the {what} of this bossbar")


def _set_number(_world: WorldState, b: Bossbar, parts: list[str], args: list[Any]) -> str:
    """``value`` or ``max`` (``parts[3]``)."""
    what, value = parts[3], int(args[1].value)
    if value == (b.value if what == "value" else b.max):
        raise _unchanged(what)
    if what == "value":
        b.value = value
    else:
        b.max = value
    return f"Custom bossbar {b.bracketed} has changed {'value' if what == 'value' else 'maximum'} to {value}"


def _set_look(_world: WorldState, b: Bossbar, parts: list[str], _args: list[Any]) -> str:
    """``color`` or ``style`` (``parts[3]``), to the literal in ``parts[4]``."""
    what, value = parts[3], parts[4]
    if value == (b.color if what == "color" else b.style):
        raise _unchanged(what)
    if what == "color":
        b.color = value
    else:
        b.style = value
    return f"Custom bossbar {b.bracketed} has changed {what}"


def _set_name(_world: WorldState, b: Bossbar, _parts: list[str], args: list[Any]) -> str:
    b.name = component(args[1])
    return f"Custom bossbar {b.bracketed} has been renamed"


def _set_visible(_world: WorldState, b: Bossbar, _parts: list[str], args: list[Any]) -> str:
    visible = bool(args[1].value)
    shown = "visible" if visible else "hidden"
    if visible == b.visible:
        raise CommandFailure(f"Nothing changed. The bossbar is already {shown}")
    b.visible = visible
    return f"Custom bossbar {b.bracketed} is now {shown}"


def _set_players(world: WorldState, b: Bossbar, _parts: list[str], args: list[Any]) -> str:
    names = {p.name for p in targets(world, args[1], required=False)} if len(args) > 1 else set()
    if names == b.players:
        raise CommandFailure("Nothing changed. Those players are already on the bossbar with nobody to add or remove")
    b.players = names
    if not names:
        return f"Custom bossbar {b.bracketed} no longer has any players"
    return f"Custom bossbar {b.bracketed} now has {len(names)} player(s): {', '.join(sorted(names))}"


_SET: dict[str, _Part] = {
    "value": _set_number,
    "max": _set_number,
    "color": _set_look,
    "style": _set_look,
    "name": _set_name,
    "visible": _set_visible,
    "players": _set_players,
}


def bossbar(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``bossbar add <id> <name>``, ``list``, ``remove <id>``, ``get <id> value|max|visible|players``,
    ``set <id> value|max|color|style|name|visible|players …``."""
    action = parts[1]
    if action == "add":
        return _add(world, args)
    if action == "list":
        return _list(world)
    b = bar(world, args[0])
    if action == "remove":
        del world.bossbars[b.id]
        return f"Removed custom bossbar {b.bracketed}"
    if action == "get":
        get = _GET.get(parts[3])
        if get is None:
            raise Unsupported(f"bossbar get {parts[3]}")
        return get(world, b)
    if action != "set":
        raise Unsupported(f"bossbar {action}")
    change = _SET.get(parts[3])
    if change is None:
        raise Unsupported(f"bossbar set {parts[3]}")
    return change(world, b, parts, args)
