"""Every free-text path of the bridge, fed arbitrary text (issue 6, "Text"; ``docs/minecraft.md#commands-and-text``).

For each path: every resulting command parses with mecha, the sandbox shows the text literally (the component
data is exactly the input), and the only click/hover events are the ones the builder put there on purpose;
only the 1.21.5+ keys ``click_event``/``hover_event`` ever appear. A new free-text path (confessions, …) gets a
row in ``PATHS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge.config.castle import default_castle
from bridge.minecraft.core import MAX_COMMAND_BYTES, McCommand, utf8_size
from bridge.minecraft.display import tellraw
from bridge.minecraft.items import give as give_command
from bridge.minecraft.items import item_stack
from bridge.minecraft.render import RenderContext, render
from bridge.minecraft.syntax import check_command
from bridge.minecraft.text import text_component
from bridge.sandbox.world import World
from engine.actions import CastVote
from engine.effects import Announce, Choice, Prompt, ShowTitle, Whisper, msg
from engine.ids import Item
from tests.bridge.minecraft.conftest import ALLOWED_KEYS, TRICKY

TEXT = st.lists(st.one_of(st.characters(), TRICKY), max_size=40).map("".join)
CTX = RenderContext(default_castle(), {"Alice": 1, "Bob": 2})


def node_text(node: Any, keys: set[str], clicks: list[Any], hovers: list[Any]) -> str:
    """The text a reader sees in an evaluated component (fallbacks with ``%%`` → ``%``); collects keys/events."""
    if isinstance(node, str):
        return node
    if isinstance(node, list):
        return "".join(node_text(n, keys, clicks, hovers) for n in node)
    keys.update(node.keys())
    if "click_event" in node:
        keys.update(node["click_event"].keys())
        clicks.append(dict(node["click_event"]))
    if "hover_event" in node:
        keys.update(node["hover_event"].keys())
        hovers.append(node_text(node["hover_event"]["value"], keys, [], []))
    if "text" in node:
        own = str(node["text"])
    else:
        own = str(node.get("fallback", node.get("translate"))).replace("%%", "%")
        for arg in node.get("with", []):
            node_text(arg, keys, clicks, hovers)
    return own + "".join(node_text(e, keys, clicks, hovers) for e in node.get("extra", []))


@dataclass
class Shown:
    text: str
    keys: set[str]
    clicks: list[Any]
    hovers: list[str]


def run_in_sandbox(commands: list[McCommand], read: Callable[[World], list[Any]]) -> Shown:
    """Parse every command with mecha, run them in a fresh sandbox world, read back the components shown."""
    world = World()
    world.join("Alice")
    for cmd in commands:
        check_command(cmd.text)
        reply = world.execute(cmd.text)
        assert world.errors == [], (cmd.text, reply)
        assert not reply.startswith(("Unknown or incomplete", "Incorrect argument")), reply
    shown = Shown("", set(), [], [])
    for component in read(world):
        shown.text += node_text(component, shown.keys, shown.clicks, shown.hovers)
    assert shown.keys <= ALLOWED_KEYS
    return shown


def chat(world: World) -> list[Any]:
    return [m.component for m in world.player("Alice").chat]


def title_parts(world: World) -> list[Any]:
    return [s.component for s in world.player("Alice").screen if s.kind == "title"]


def item_component(key: str) -> Callable[[World], list[Any]]:
    def read(world: World) -> list[Any]:
        (stack,) = world.player("Alice").inventory
        return [stack.components[key]]

    return read


def book_pages(world: World) -> list[Any]:
    (stack,) = world.player("Alice").inventory
    return list(stack.components["minecraft:written_book_content"]["pages"])


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(TEXT)
def test_plain_chat_text(text: str) -> None:
    shown = run_in_sandbox(tellraw("Alice", text_component(text)), chat)
    assert shown.text == text and shown.clicks == [] and shown.hovers == []


@SETTINGS
@given(TEXT)
def test_names_and_values_inside_announcements(text: str) -> None:
    """A message parameter (a contestant name, a power, …) inside an engine message."""
    message = msg("breakfast.arrives", player=text)
    shown = run_in_sandbox(render(Announce(message), CTX), chat)
    assert shown.text == "[Castle] " + message.text and shown.clicks == [] and shown.hovers == []


@SETTINGS
@given(TEXT)
def test_private_message_parameter(text: str) -> None:
    message = msg("vote.cast", target=text)
    shown = run_in_sandbox(render(Whisper(frozenset({"Alice"}), message), CTX), chat)
    assert shown.text == "[Castle, to you] " + message.text and shown.clicks == []


@SETTINGS
@given(TEXT, TEXT)
def test_prompt_labels_keep_only_their_own_click(question: str, label: str) -> None:
    prompt = Prompt(frozenset({"Alice"}), msg("vote.cast", target=question), (Choice(label, CastVote("Alice", "Bob")),))
    shown = run_in_sandbox(render(prompt, CTX), chat)
    assert shown.text == f"[Castle, to you] {prompt.message.text} [{label}]"
    # A label too long for one command is split over several tellraws; every piece keeps the one click and
    # hover of its choice, and nothing else is clickable.
    assert shown.clicks and all(
        c == {"action": "run_command", "command": "/trigger traitors.vote set 2"} for c in shown.clicks
    )
    assert shown.hovers == [f"Choose {label}"] * len(shown.clicks)


@SETTINGS
@given(TEXT)
def test_titles(text: str) -> None:
    effect = ShowTitle(msg("title.series_over", winner=text), None, frozenset({"Alice"}))
    shown = run_in_sandbox(render(effect, CTX), title_parts)
    assert shown.text == text and shown.clicks == []


@SETTINGS
@given(TEXT.filter(bool))
def test_name_written_on_a_vote_paper(text: str) -> None:
    stack = item_stack(Item.CAST_VOTE_PAPER, label=text)
    shown = run_in_sandbox([give_command("Alice", stack)], item_component("minecraft:custom_name"))
    assert shown.text == text and shown.clicks == []


@SETTINGS
@given(st.lists(TEXT, min_size=1, max_size=4))
def test_written_book_pages(pages: list[str]) -> None:
    stack = item_stack(Item.DIARY_BOOK, pages=pages)
    world_pages: list[str] = []

    def read(world: World) -> list[Any]:
        got = book_pages(world)
        world_pages.extend(node_text(p, set(), [], []) for p in got)
        return got

    try:
        give = give_command("Alice", stack)
    except ValueError as exc:
        # Pages too long for one RCON command are refused with a clear error, never sent cut (docs/minecraft.md#rcon);
        # the engine keeps its book texts far below this (docs/twists.md).
        assert "1446" in str(exc)
        return
    shown = run_in_sandbox([give], read)
    assert world_pages == pages and shown.clicks == [] and shown.hovers == []


def test_pages_only_for_written_books() -> None:
    with pytest.raises(ValueError, match="not a written book"):
        item_stack(Item.VOTE_PAPER, pages=["x"])


@settings(max_examples=15, deadline=None)
@given(st.lists(st.one_of(st.characters(), TRICKY), min_size=400, max_size=900).map("".join))
def test_long_text_is_split_into_commands_under_the_limit_and_shown_whole(text: str) -> None:
    commands = tellraw("Alice", text_component(text))
    assert all(utf8_size(c.text) <= MAX_COMMAND_BYTES for c in commands)
    shown = run_in_sandbox(commands, chat)
    assert shown.text == text and shown.clicks == []
