"""bridge/minecraft/display.py: ``tellraw`` splits to fit the 1446-byte RCON limit and keeps every character;
titles and items do not split."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.minecraft.core import MAX_COMMAND_BYTES, McCommand, utf8_size
from bridge.minecraft.display import tellraw, title
from bridge.minecraft.items import give, item_stack
from bridge.minecraft.text import RunCommand, joined, text_component, translated
from engine.ids import Item
from tests.bridge.minecraft.conftest import TRICKY

ComponentOf = Callable[[str], Any]
Walk = Callable[[Any], tuple[str, set[str]]]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.characters(), TRICKY), min_size=300, max_size=1500).map("".join))
def test_long_tellraw_splits_and_keeps_every_character(component_of: ComponentOf, walk: Walk, text: str) -> None:
    component = joined(text_component("[Castle] ", color="gold"), text_component(text, color="white"))
    commands = tellraw("Alice", component)
    assert all(utf8_size(c.text) <= MAX_COMMAND_BYTES for c in commands)
    assert all(c.text.startswith("tellraw Alice ") for c in commands)
    assert "".join(walk(component_of(c.text))[0] for c in commands) == "[Castle] " + text


def test_long_message_splits_into_several_tellraws(component_of: ComponentOf, walk: Walk) -> None:
    text = "The castle is quiet tonight. " * 120
    commands = tellraw("@a", joined(text_component("[Castle] ", color="gold"), text))
    assert len(commands) == 3
    sizes = [utf8_size(c.text) for c in commands]
    assert max(sizes) <= 1446 and sizes[0] > 1300
    assert "".join(walk(component_of(c.text))[0] for c in commands) == "[Castle] " + text
    # cut at whitespace
    assert walk(component_of(commands[0].text))[0].endswith(" ")


def test_long_translated_message_becomes_plain_text_chunks(component_of: ComponentOf, walk: Walk) -> None:
    big = translated("traitors.long", "é" * 2000)
    commands = tellraw("@a", big)
    assert len(commands) >= 3
    assert "".join(walk(component_of(c.text))[0] for c in commands) == "é" * 2000


def test_exactly_at_the_limit() -> None:
    prefix = 'tellraw @a {text:"'
    fill = "x" * (1446 - len(prefix) - 2)
    (cmd,) = tellraw("@a", text_component(fill))
    assert utf8_size(cmd.text) == 1446
    assert len(tellraw("@a", text_component(fill + "x"))) == 2


def test_unsplittable_commands_raise() -> None:
    with pytest.raises(ValueError, match="1446"):
        give("Alice", item_stack(Item.CAST_VOTE_PAPER, label="x" * 1500))
    with pytest.raises(ValueError, match="1446"):
        title("@a", title=text_component("y" * 1500))
    with pytest.raises(ValueError, match="1446"):
        tellraw("@a", text_component("z" * 1500, click=RunCommand("/trigger traitors.vote set 1"), hover="h" * 1500))
    with pytest.raises(ValueError, match="1446"):
        McCommand("say " + "x" * 1443)
