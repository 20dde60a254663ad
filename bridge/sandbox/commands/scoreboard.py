"""``scoreboard objectives …``, ``scoreboard players …`` and ``trigger`` at the console (vanilla en_us replies;
trigger locks as vanilla's TriggerCommand keeps them, ``docs/minecraft.md#player-input``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bridge.sandbox.commands.args import component, holders, single_holder, src, who
from bridge.sandbox.model import Objective
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["objective", "scoreboard", "trigger"]

_Sub = Callable[[WorldState, list[str], list[Any], str], str]


def objective(world: WorldState, node: Any) -> Objective:
    """The objective an argument names. Raises ``CommandFailure`` ("Unknown scoreboard objective …")."""
    name = str(node.value)
    obj = world.objectives.get(name)
    if obj is None:
        raise CommandFailure(f"Unknown scoreboard objective '{name}'")
    return obj


# -- objectives -----------------------------------------------------------------------------------


def _objectives_add(world: WorldState, _parts: list[str], args: list[Any], text: str) -> str:
    name = str(args[0].value)
    if name in world.objectives:
        raise CommandFailure("An objective already exists by that name")
    criterion = src(args[1], text)
    display = component(args[2]) if len(args) > 2 else name
    obj = world.objectives[name] = Objective(name, criterion, display)
    return f"Created new objective {obj.bracketed}"


def _objectives_remove(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    obj = objective(world, args[0])
    del world.objectives[obj.name]
    for scores in world.scores.values():
        scores.pop(obj.name, None)
    world.unlocked = {u for u in world.unlocked if u[1] != obj.name}
    return f"Removed objective {obj.bracketed}"


def _objectives_list(world: WorldState, _parts: list[str], _args: list[Any], _text: str) -> str:
    if not world.objectives:
        return "There are no objectives"
    shown = ", ".join(o.bracketed for o in world.objectives.values())
    return f"There are {len(world.objectives)} objective(s): {shown}"


_OBJECTIVES: dict[str, _Sub] = {"add": _objectives_add, "remove": _objectives_remove, "list": _objectives_list}

# -- players --------------------------------------------------------------------------------------


def _players_list(world: WorldState, _parts: list[str], _args: list[Any], _text: str) -> str:
    tracked = sorted(h for h, s in world.scores.items() if s)
    if not tracked:
        return "There are no tracked entities"
    return f"There are {len(tracked)} tracked entity/entities: " + ", ".join(tracked)


def _players_reset(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    names = holders(world, args[0])
    if len(args) > 1:
        obj = objective(world, args[1])
        for h in names:
            world.scores.get(h, {}).pop(obj.name, None)
            world.unlocked.discard((h, obj.name))
        return f"Reset {obj.bracketed} for {who(names, 'entities')}"
    for h in names:
        world.scores.pop(h, None)
        world.unlocked = {u for u in world.unlocked if u[0] != h}
    return f"Reset all scores for {who(names, 'entities')}"


def _players_get(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    names = holders(world, args[0])
    obj = objective(world, args[1])
    h = single_holder(names)
    if obj.name not in world.scores.get(h, {}):
        raise CommandFailure(f"Can't get value of {obj.name} for {h}; none is set")
    world.result = world.scores[h][obj.name]
    return f"{h} has {world.scores[h][obj.name]} {obj.bracketed}"


def _players_enable(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    names = holders(world, args[0])
    obj = objective(world, args[1])
    if obj.criterion != "trigger":
        raise CommandFailure("Can only enable trigger-objectives")
    changed = 0
    for h in names:
        world.scores.setdefault(h, {}).setdefault(obj.name, 0)
        if (h, obj.name) not in world.unlocked:
            world.unlocked.add((h, obj.name))
            changed += 1
    if not changed:
        raise CommandFailure("Nothing changed. That trigger is already enabled")
    return f"Enabled trigger {obj.bracketed} for {who(names, 'entities')}"


def _players_change(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``set``, ``add`` and ``remove``: the result is the sum of the new scores."""
    action = parts[2]
    names = holders(world, args[0])
    obj = objective(world, args[1])
    amount = int(args[2].value)
    for h in names:
        scores = world.scores.setdefault(h, {})
        if action == "set":
            scores[obj.name] = amount
        elif action == "add":
            scores[obj.name] = scores.get(obj.name, 0) + amount
        else:
            scores[obj.name] = scores.get(obj.name, 0) - amount
    world.result = sum(world.scores[h][obj.name] for h in names)
    many = f"{len(names)} entities"
    if action == "set":
        return f"Set {obj.bracketed} for {names[0] if len(names) == 1 else many} to {amount}"
    now = world.scores[names[0]][obj.name]
    one = f"{names[0]} (now {now})"
    if action == "add":
        return f"Added {amount} to {obj.bracketed} for {one if len(names) == 1 else many}"
    return f"Removed {amount} from {obj.bracketed} for {one if len(names) == 1 else many}"


def _players_unmodelled(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``operation``, ``display``, …: the holders and objective are still read first (their failures win)."""
    holders(world, args[0])
    objective(world, args[1])
    raise Unsupported(f"scoreboard players {parts[2]}")


_PLAYERS: dict[str, _Sub] = {
    "list": _players_list,
    "reset": _players_reset,
    "get": _players_get,
    "enable": _players_enable,
    "set": _players_change,
    "add": _players_change,
    "remove": _players_change,
}


def scoreboard(world: WorldState, parts: list[str], args: list[Any], text: str) -> str:
    """``scoreboard objectives add|remove|list`` and ``scoreboard players list|reset|get|enable|set|add|remove``.

    ``players get`` and ``set``/``add``/``remove`` set the command's result (the score, the sum of the scores).
    """
    group, action = parts[1], parts[2]
    if group not in ("objectives", "players"):
        raise Unsupported(f"scoreboard {group}")
    if group == "players":
        return _PLAYERS.get(action, _players_unmodelled)(world, parts, args, text)
    handler = _OBJECTIVES.get(action)
    if handler is None:
        raise Unsupported(f"scoreboard objectives {action}")
    return handler(world, parts, args, text)


def trigger(_world: WorldState, _parts: list[str], _args: list[Any], _text: str) -> str:
    """``trigger`` at the console fails as in vanilla (players press triggers through ``World.press_trigger``)."""
    raise CommandFailure("A player is required to run this command here")
