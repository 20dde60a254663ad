"""bridge/minecraft/nbt_scan.py: the SNBT reader in Castle's mecha gives mecha's own trees (every node, every
location) or leaves the value to mecha, which then gives mecha's own error."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mecha import DiagnosticError, Mecha

from bridge.app.demo_settings import demo_settings
from bridge.config.castle import default_castle
from bridge.minecraft.batch import pack
from bridge.minecraft.nbt_scan import ScannedNbtParser
from bridge.minecraft.render import RenderContext, render
from bridge.minecraft.syntax import thread_mecha
from engine.actions import action_from_dict
from engine.rulesets import new_game
from engine.sim import play_series
from tools.spyglass.check import item_commands, lobby_commands, macro_lines, project_pack

MECHA = Mecha(version="1.21")
"""mecha as it comes: the reference."""


def difference(a: Any, b: Any, path: str = "tree") -> str | None:
    """Where two mecha trees differ, locations and nbtlib tag types included; None when they are the same."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} against {type(b).__name__}"
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            found = difference(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}")
            if found:
                return found
        return None
    if isinstance(a, tuple) and not hasattr(a, "_fields"):  # children; a location is a named tuple
        if len(a) != len(b):
            return f"{path}: {len(a)} against {len(b)} children"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    if a != b or getattr(a, "subtype", None) is not getattr(b, "subtype", None):
        return f"{path}: {a!r} against {b!r}"
    return None


def outcome(mc: Mecha, text: str, multiline: bool = False) -> tuple[str, Any]:
    """``("tree", tree)``, or ``("error", (message, location))`` for mecha's first diagnostic."""
    try:
        return "tree", mc.parse(text, multiline=multiline)
    except DiagnosticError as exc:
        first = exc.diagnostics.exceptions[0]
        return "error", (str(first), first.location, first.end_location)


def assert_same(text: str, multiline: bool = False) -> None:
    kind, got = outcome(thread_mecha(), text, multiline)
    want_kind, want = outcome(MECHA, text, multiline)
    assert kind == want_kind, (text, got, want)
    if kind == "tree":
        assert difference(got, want) is None, (text, difference(got, want))
    else:
        assert got == want, text


def series_commands(ruleset: str, seed: int) -> Iterator[str]:
    """Every command an engine series of ``ruleset`` renders, one by one and packed into batches as the service
    sends them."""
    game, _ = play_series(demo_settings(8, ruleset), seed, bots="random")
    replayed = new_game(game.settings, seed)
    ctx = RenderContext(default_castle(), {name: seat for seat, name in enumerate(game.contestants(), 1)})
    for entry in game.log:
        data = dict(entry)
        now = float(data.pop("now"))
        commands = [c for effect in replayed.handle(action_from_dict(data), now=now) for c in render(effect, ctx)]
        yield from (c.text for c in commands)
        yield from (c.text for c, n in pack(commands) if n > 1)


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    texts = [t for ruleset in ("traitors", "black_knights", "mafia_yakuza") for t in series_commands(ruleset, 3)]
    texts += lobby_commands() + item_commands()
    texts += macro_lines(texts, project_pack())
    return list(dict.fromkeys(texts))


def test_every_command_castle_sends_parses_to_mechas_own_tree(corpus: list[str]) -> None:
    parser = thread_mecha().spec.parsers["nbt"]
    assert isinstance(parser, ScannedNbtParser)
    read, left = 0, 0
    fallback = parser.fallback

    def counted(stream: Any) -> Any:
        nonlocal left
        left += 1
        return fallback(stream)

    parser.fallback = counted
    try:
        for text in corpus:
            before = left
            assert_same(text)
            read += text.count("{") > 0 and left == before
    finally:
        parser.fallback = fallback
    assert len(corpus) > 1000
    # The reader is used, not only its fallback: the batches, dialogs and text components are read by it.
    assert read > 0.9 * sum("{" in t for t in corpus), (read, left)


@pytest.mark.parametrize(
    "value",
    [
        '{a:1b,b:"x",c:[1,2,3],d:{}}',
        "{ a : 1 , b : [ ] , }",  # spaces anywhere, a trailing comma
        "[1,2,]",
        "{a:true,b:FALSE,c:tRuE}",  # the aliases, in any case
        "[B;1b,2b]",
        "[I;1,2]",
        "[L;1l,2L]",
        "[B;1b,2]",  # an element of the wrong type: mecha's error
        "[I;]",
        '{"quoted key":1,\'single\':"a\\"b",c:\'it\\\'s\',e:"\\n\\t\\u00e9\\s"}',  # escapes mecha knows
        '{a:"\\q"}',  # an escape it does not
        "{a:1.5,b:.5f,c:1e3,d:-2d,e:3s,f:9999999999,g:128b,h:1.2.3}",  # a number out of range is a string
        "{a:1",  # not closed
        "{a:1]",
        "{a 1}",
        "{:1}",
        "{a:}",
        "[{a:[{b:[{c:[]}]}]}]",
        "{a:1}}",  # one value, then more
        '{a:"x"} extra',
        "[1,,2]",
        "{,}",
        "{a:1,,b:2}",
        "[,]",
        "{a:[1,2] b:3}",
        "",
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        "data modify storage traitors:run q set value {}",
        "tellraw @a {}",
        "give @s minecraft:paper[minecraft:custom_data={}] 1",
        "execute if data storage a:b {} run say hi",
        "function traitors:run {}",
    ],
)
def test_a_value_parses_or_fails_as_mecha_says(command: str, value: str) -> None:
    assert_same(command.replace("{}", value))


_PIECES = st.sampled_from(
    ["{", "}", "[", "]", "[B;", "[I;", "[L;", ",", ":", " ", "a", "b1", "1b", "2", "-3.5d", "true", '"x y"', "'q'"]
    + ['"\\n"', '"\\z"', "1e5", "+", ".", "7L", "\t"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=24))
def test_any_text_parses_or_fails_as_mecha_says(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert_same(f"data modify storage a:b c set value {text}")
    assert_same(f"tellraw @a {text}")


def test_a_function_file_parses_as_mecha_says() -> None:
    lines = ["say one", "data modify storage a:b c set value {a:[1, 2], b:{}}", 'tellraw @a {text:"x"}']
    for newline in ("\n", "\r\n"):
        assert_same(newline.join(lines) + newline)
        assert_same(newline.join(lines) + newline, multiline=True)
        # A value over two lines: mecha reads it (continued with a backslash) or says why not.
        assert_same(newline.join(lines).replace("b:{}", "\\" + newline + "    b:{}"), multiline=True)
        assert_same(newline.join(lines).replace("b:{}", newline + "b:{}"))


def deep_outcome(mc: Mecha, text: str) -> str:
    """What parsing ``text`` ends in: ``"tree"``, mecha's first diagnostic, or ``"recursion"`` (Python's stack)."""
    try:
        mc.parse(text, multiline=False)
    except DiagnosticError as exc:
        return str(exc.diagnostics.exceptions[0])
    except RecursionError:
        return "recursion"
    return "tree"


@pytest.mark.parametrize("depth", [1, 63, 64, 65, 100, 140, 400])
@pytest.mark.parametrize(
    "value",
    [
        lambda n: "{a:" * n + "1" + "}" * n,
        lambda n: "{a:" * n + "1" + "}" * (n - 1),  # not closed
        lambda n: "{a:" * n + '"\\q"' + "}" * n,  # an escape mecha refuses, at the bottom
        lambda n: "[" * n + "]" * n,
        lambda n: "[" * n + "]" * (n - 1),
    ],
)
def test_deep_values_end_as_mecha_ends_them(value: Any, depth: int) -> None:
    """A value deeper than ``MAX_DEPTH`` is mecha's to read; one too deep for Python's stack fails in both (away from
    the edge, which moves with the caller's own depth)."""
    for command in ("data modify storage a:b c set value {}", "tellraw @a {}"):
        text = command.replace("{}", value(depth))
        assert deep_outcome(thread_mecha(), text) == deep_outcome(MECHA, text)
