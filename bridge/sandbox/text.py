"""Text components in the sandbox: plain-string rendering and click-event lookup.

Components arrive as SNBT (1.21.5+, ``docs/minecraft.md#commands-and-text``) or JSON; the sandbox keeps them as plain
Python values (``str`` / ``dict`` / ``list``) after ``nbt.to_python``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any

__all__ = ["click_events", "english_table", "plain_text", "translate"]

_FORMAT = re.compile(r"%(?:(\d+)\$)?([A-Za-z%]|$)")
"""A format specifier of a language string, as vanilla's ``TranslatableContents`` reads them."""


@functools.lru_cache(maxsize=1)
def english_table() -> Mapping[str, str]:
    """The resource pack's ``en_us`` language file (empty when it cannot be read: fallbacks are shown then)."""
    try:
        from bridge.minecraft.lang import load

        return load("en_us")
    except (OSError, ValueError):
        return {}


def translate(fmt: str, args: list[str]) -> str:
    """A language string filled like vanilla's ``TranslatableContents``: ``%s`` takes the next argument,
    ``%N$s`` the Nth, ``%%`` is ``%``. A specifier that names a missing argument or is not ``s`` makes the whole
    string show as it is (vanilla catches its ``TranslatableFormatException`` the same way)."""
    out: list[str] = []
    pos = implicit = 0
    for m in _FORMAT.finditer(fmt):
        out.append(fmt[pos : m.start()])
        pos = m.end()
        number, kind = m.group(1), m.group(2)
        if kind == "%" and number is None:
            out.append("%")
            continue
        if kind != "s":
            return fmt
        index = int(number) - 1 if number is not None else implicit
        if number is None:
            implicit += 1
        if not 0 <= index < len(args):
            return fmt
        out.append(args[index])
    out.append(fmt[pos:])
    return "".join(out)


def plain_text(component: Any, table: Mapping[str, str] | None = None) -> str:
    """The component's text without formatting, like vanilla's ``Component.getString()`` on a client whose
    language is ``table`` (default: the resource pack's ``en_us``).

    Handles ``text``; ``translate`` (the language string for the key, else ``fallback``, else the key itself,
    filled with the ``with`` arguments, each rendered the same way, so nested translate components are
    translated too); ``selector``/``score`` (shown as their pattern/name); ``keybind``; and ``extra``. A list is a
    component followed by siblings.
    """
    lang = english_table() if table is None else table
    if component is None:
        return ""
    if isinstance(component, str):
        return component
    if isinstance(component, (int, float)):
        return str(component)
    if isinstance(component, list):
        return "".join(plain_text(c, lang) for c in component)
    if isinstance(component, dict):
        if "text" in component:
            head = str(component["text"])
        elif "translate" in component:
            key = str(component["translate"])
            fmt = lang.get(key, str(component.get("fallback", key)))
            head = translate(fmt, [plain_text(a, lang) for a in component.get("with", [])])
        elif "selector" in component:
            head = str(component["selector"])
        elif "score" in component and isinstance(component["score"], dict):
            head = str(component["score"].get("name", ""))
        elif "keybind" in component:
            head = str(component["keybind"])
        else:
            head = ""
        return head + "".join(plain_text(c, lang) for c in component.get("extra", []))
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
