"""What players are shown: ``tellraw``, ``say`` and ``title`` (vanilla en_us replies)."""

from __future__ import annotations

from typing import Any

from bridge.sandbox.commands.args import component, src, targets, ticks, who
from bridge.sandbox.model import ChatMessage, Player, ScreenText
from bridge.sandbox.state import Unsupported, WorldState
from bridge.sandbox.text import plain_text

__all__ = ["say", "tellraw", "title"]

_SHOWN = {"title": "title", "subtitle": "subtitle", "actionbar": "actionbar title"}
"""Screen text kind → the word vanilla's "Showing new … for …" uses."""


def tellraw(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    """``tellraw <targets> <component>``: a chat line for each target; no feedback."""
    shown = targets(world, args[0])
    message = component(args[1])
    for p in shown:
        p.chat.append(ChatMessage(message, plain_text(message)))
    return ""


def say(world: WorldState, _parts: list[str], args: list[Any], text: str) -> str:
    """``say <message>`` at the console: ``[Rcon] <message>`` in every online player's chat; no feedback."""
    message = "[Rcon] " + src(args[0], text)
    for p in world.players.values():
        p.chat.append(ChatMessage(message, message, source="say"))
    return ""


def _show(shown: list[Player], action: str, args: list[Any]) -> str:
    value = component(args[1])
    for p in shown:
        setattr(p, action, value)
        p.screen.append(ScreenText(action, value, plain_text(value)))
    return f"Showing new {_SHOWN[action]} for {who([p.name for p in shown])}"


def _times(shown: list[Player], _action: str, args: list[Any]) -> str:
    fade_in, stay, fade_out = (ticks(a) for a in args[1:4])
    for p in shown:
        p.title_times = (fade_in, stay, fade_out)
    return f"Changed title display times for {who([p.name for p in shown])}"


def _clear(shown: list[Player], _action: str, _args: list[Any]) -> str:
    for p in shown:
        p.title = p.subtitle = None
    return f"Cleared titles for {who([p.name for p in shown])}"


def _reset(shown: list[Player], _action: str, _args: list[Any]) -> str:
    for p in shown:
        p.title = p.subtitle = None
        p.title_times = (10, 70, 20)
    return f"Reset title options for {who([p.name for p in shown])}"


_TITLE = {"title": _show, "subtitle": _show, "actionbar": _show, "times": _times, "clear": _clear, "reset": _reset}


def title(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``title <targets> title|subtitle|actionbar <component>``, ``times <in> <stay> <out>``, ``clear``,
    ``reset`` (times in ticks; vanilla's defaults 10, 70, 20)."""
    shown = targets(world, args[0])
    action = parts[2]
    handler = _TITLE.get(action)
    if handler is None:
        raise Unsupported(f"title {action}")
    return handler(shown, action, args)
