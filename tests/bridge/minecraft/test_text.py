"""bridge/minecraft/text.py: arbitrary text shows exactly, parses, and carries only our keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.minecraft.display import tellraw
from bridge.minecraft.text import RunCommand, message_component, text_component, translated
from engine.effects import msg
from tests.bridge.minecraft.conftest import TRICKY

ComponentOf = Callable[[str], Any]
Walk = Callable[[Any], tuple[str, set[str]]]

_TEXT = st.lists(st.one_of(st.characters(), TRICKY), max_size=60).map("".join)
_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_text_component_round_trips(component_of: ComponentOf, walk: Walk, allowed_keys: set[str], text: str) -> None:
    commands = tellraw("@a", text_component(text))
    assert len(commands) == 1
    shown, keys = walk(component_of(commands[0].text))
    assert shown == text
    assert keys <= allowed_keys
    # every § ends its own string part, so it can never style the text after it
    node = component_of(commands[0].text)
    for part in [node, *node.get("extra", [])]:
        assert "§" not in str(part["text"])[:-1]


@settings(max_examples=100, deadline=None)
@given(_TEXT, _TEXT)
def test_clickable_text_keeps_our_keys_only(
    component_of: ComponentOf, walk: Walk, allowed_keys: set[str], label: str, hover: str
) -> None:
    command = "/trigger traitors.vote set 3"
    component = text_component(label, color="aqua", click=RunCommand(command), hover=hover)
    (cmd,) = tellraw("Alice", component)
    node = component_of(cmd.text)
    shown, keys = walk(node)
    assert shown == label
    assert keys <= allowed_keys
    assert "clickEvent" not in keys and "hoverEvent" not in keys
    assert dict(node["click_event"]) == {"action": "run_command", "command": command}
    assert node["hover_event"]["action"] == "show_text"
    assert walk(node["hover_event"]["value"])[0] == hover


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.characters(blacklist_characters="§"), _SURROGATES), max_size=40).map("".join))
def test_translated_fallback_round_trips(component_of: ComponentOf, text: str) -> None:
    (cmd,) = tellraw("@a", translated("traitors.test", text, args=[text]))
    node = component_of(cmd.text)
    assert str(node["translate"]) == "traitors.test"
    assert str(node["fallback"]) == text.replace("%", "%%")
    assert str(node["with"][0]["text"]) == text


def test_message_with_section_sign_is_plain_text() -> None:
    component = message_component(msg("vote.cast", target="§kAlex"))
    assert component.translate is None
    assert component.plain_text() == "You wrote §kAlex on your vote paper."


def test_section_sign_parts(component_of: ComponentOf) -> None:
    node = component_of(tellraw("@a", text_component("§§x§"))[0].text)
    assert [str(node["text"])] + [str(e["text"]) for e in node["extra"]] == ["§", "§", "x§"]


def test_lone_surrogates_are_escaped(component_of: ComponentOf, walk: Walk) -> None:
    text = "a\ud800b"
    (cmd,) = tellraw("@a", text_component(text))
    assert "\\ud800" in cmd.text
    assert walk(component_of(cmd.text))[0] == text
