"""Text components in the sandbox: plain-string rendering and click-event lookup.

Components arrive as SNBT (1.21.5+, ``docs/minecraft.md#commands-and-text``) or JSON; the sandbox keeps them as plain
Python values (``str`` / ``dict`` / ``list``) after ``nbt.to_python``.
"""

from __future__ import annotations

from typing import Any, Iterator

__all__ = ["click_events", "plain_text"]


def plain_text(component: Any) -> str:
    """The component's text without formatting, like vanilla's ``Component.getString()``.

    Handles ``text``, ``translate`` (key shown, ``with`` ignored except ``fallback``), ``selector``/``score``
    (shown as their pattern/name), ``keybind`` and ``extra``; a list is a component followed by siblings.
    """
    if component is None:
        return ""
    if isinstance(component, str):
        return component
    if isinstance(component, (int, float)):
        return str(component)
    if isinstance(component, list):
        return "".join(plain_text(c) for c in component)
    if isinstance(component, dict):
        if "text" in component:
            head = str(component["text"])
        elif "translate" in component:
            head = str(component.get("fallback", component["translate"]))
        elif "selector" in component:
            head = str(component["selector"])
        elif "score" in component and isinstance(component["score"], dict):
            head = str(component["score"].get("name", ""))
        elif "keybind" in component:
            head = str(component["keybind"])
        else:
            head = ""
        return head + "".join(plain_text(c) for c in component.get("extra", []))
    return str(component)


def click_events(component: Any) -> Iterator[dict[str, Any]]:
    """Every ``click_event`` dict in the component tree, in reading order (``clickEvent`` too, for old JSON)."""
    if isinstance(component, list):
        for c in component:
            yield from click_events(c)
    elif isinstance(component, dict):
        event = component.get("click_event", component.get("clickEvent"))
        if isinstance(event, dict):
            yield event
        for c in component.get("extra", []):
            yield from click_events(c)
