"""Helpers for the builder tests: read a built component back with mecha, as the server would."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import strategies as st
from mecha import Mecha
from mecha.ast import AstNbt

from bridge.minecraft.syntax import check_command

_MECHA = Mecha(version="1.21")

ALLOWED_KEYS = {
    "text",
    "translate",
    "fallback",
    "with",
    "color",
    "bold",
    "italic",
    "extra",
    "click_event",
    "hover_event",
    "action",
    "command",
    "value",
}
"""Every key a component we build may contain (click_event/hover_event bodies included)."""


TRICKY = st.sampled_from(
    [
        '"',
        "'",
        "\\",
        "\n",
        "\r",
        "\t",
        "§",
        "§k",
        "§r",
        "%",
        "%s",
        "%1$s",
        "{",
        "}",
        "[",
        "]",
        ":",
        ",",
        "\x00",
        "\x7f",
        "\x85",
        "\u2028",
        "😀",
        "é",
        "clickEvent",
        "click_event",
        "hover_event",
        '",click_event:{action:"run_command",command:"/op Eve"},text:"',
        '"}], "clickEvent": {"action": "run_command"}',
        "\\u00a7",
        "\\n",
        '\\"',
        "${jndi:x}",
        "@a",
        "@e[type=player]",
    ]
)
"""Strings that break naive text escaping (quotes, escapes, section signs, format specifiers, component and
selector injections, line and paragraph separators), mixed into the builders' property tests."""


def _component_of(command: str) -> Any:
    """The evaluated SNBT component argument of a ``tellraw``/``title … title`` command."""
    check_command(command)
    head = 3 if command.startswith("title ") else 2
    snbt_text = command.split(" ", head)[head]
    return _MECHA.parse(snbt_text, type=AstNbt).evaluate()


def _walk(node: Any, keys: set[str] | None = None) -> tuple[str, set[str]]:
    """(the text a reader sees, every compound key) of an evaluated component."""
    keys = set() if keys is None else keys
    if isinstance(node, str):
        return str(node), keys
    if isinstance(node, list):
        return "".join(_walk(n, keys)[0] for n in node), keys
    keys.update(node.keys())
    if "text" in node:
        own = str(node["text"])
    else:
        own = str(node.get("fallback", node.get("translate"))).replace("%%", "%")
        for arg in node.get("with", []):
            _walk(arg, keys)
    if "hover_event" in node:
        keys.update(node["hover_event"].keys())
        _walk(node["hover_event"]["value"], keys)
    if "click_event" in node:
        keys.update(node["click_event"].keys())
    return own + "".join(_walk(e, keys)[0] for e in node.get("extra", [])), keys


@pytest.fixture(scope="session")
def component_of() -> Callable[[str], Any]:
    """The evaluated SNBT component argument of a ``tellraw``/``title … title`` command (checked by mecha)."""
    return _component_of


@pytest.fixture(scope="session")
def walk() -> Callable[[Any], tuple[str, set[str]]]:
    """(the text a reader sees, every compound key) of an evaluated component."""
    return _walk


@pytest.fixture(scope="session")
def allowed_keys() -> set[str]:
    """Every key a component we build may contain (click_event/hover_event bodies included)."""
    return ALLOWED_KEYS
