"""The SNBT reader for server replies (``bridge/minecraft/snbt.py``)."""

from __future__ import annotations

import contextlib

import nbtlib
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.minecraft import snbt
from bridge.minecraft.items import give_once, item_stack
from bridge.sandbox.nbt import to_python
from bridge.sandbox.world import World
from engine.ids import Item


def test_the_input_queue_as_vanilla_prints_it() -> None:
    text = '[{seq: 7, uuid: [I; 1, -2, 3, 4], input: "vote", value: 3}, {seq: 8, input: "torch", value: 2}]'
    assert snbt.parse(text) == [
        {"seq": 7, "uuid": [1, -2, 3, 4], "input": "vote", "value": 3},
        {"seq": 8, "input": "torch", "value": 2},
    ]
    assert snbt.parse("[]") == [] and snbt.parse(" {} ") == {}


def test_numbers_arrays_and_words() -> None:
    value = snbt.parse(
        "{a: 1b, b: -2s, c: 3L, d: 1.5f, e: 2.0d, f: 3f, g: -1.0E5d, h: .5, i: [B; 1b, 0b], "
        "j: [L; 5L], k: true, l: false, m: word, n: 1.2.3}"
    )
    assert value == {
        "a": 1,
        "b": -2,
        "c": 3,
        "d": 1.5,
        "e": 2.0,
        "f": 3.0,
        "g": -100000.0,
        "h": 0.5,
        "i": [1, 0],
        "j": [5],
        "k": 1,
        "l": 0,
        "m": "word",
        "n": "1.2.3",
    }
    assert type(value["a"]) is int and type(value["f"]) is float


def test_strings_quotes_and_escapes() -> None:
    assert snbt.parse(r"""{"minecraft:custom_data": {x: 'it\'s', y: "say \"hi\""}}""") == {
        "minecraft:custom_data": {"x": "it's", "y": 'say "hi"'}
    }
    assert snbt.parse(r'"a\nb\tc\\d\se\u00a7\x41\U0001F600\N{SNOWMAN}"') == "a\nb\tc\\d e\u00a7A\U0001f600\u2603"
    # "\\s" is an escaped backslash then "s"; "\s" alone is a space (escapes are read left to right).
    assert snbt.parse(r'["\\s", "\\\s", "\\\\s", "é€§"]') == ["\\s", "\\ ", "\\\\s", "é€§"]
    assert snbt.parse("[[B; 127b, -128b], [L; 9223372036854775807L]]") == [[127, -128], [2**63 - 1]]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[",
        "{a 1}",
        "[1,]",
        "{a: 1}}",
        '"abc',
        r'"\q"',
        r'"\u12"',
        r'"\N{NO SUCH NAME}"',
        r'"\N{x',
        "{a: 1.5b}",
        "[I; a]",
        "{,}",
        "[,]",
        "[" * 5000,
        "[I; 1e999]",
        "[L; 1e400d]",
        "[I; 1.5]",
        "[B; 300]",
        "[I; -2147483649]",
        "128b",
        "40000s",
        "3000000000",
        "1" * 5000,
        r'"\a"',
        r'"\0"',
        r'"\U00110000"',
        '"abc\\',
    ],
)
def test_what_is_not_snbt_is_an_snbt_error(text: str) -> None:
    with pytest.raises(snbt.SnbtError):
        snbt.parse(text)


def _values(text: st.SearchStrategy[str]) -> st.SearchStrategy[object]:
    return st.recursive(
        st.one_of(st.integers(-(2**31), 2**31 - 1), text),
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
        max_leaves=12,
    )


SNBT_VALUES = _values(st.text(max_size=12))


@given(SNBT_VALUES)
def test_reads_back_what_the_command_builder_writes(value: object) -> None:
    assert snbt.parse(snbt.snbt(value)) == value  # type: ignore[arg-type]


def test_reads_the_sandbox_replies_as_nbtlib_does() -> None:
    world = World()
    world.join("Alex")
    for n, item in enumerate((Item.VOTE_PAPER, Item.CONFESSION_BOOK), start=1):
        world.execute(give_once("Alex", item_stack(item, give_id=f"ab12/Alex/{n}"), f"ab12/Alex/{n}").text)
    entry = '{seq: 3, uuid: [I; 1, 2, -3, 4], input: "vote", value: 2}'
    world.execute(f"data modify storage traitors:io queue set value [{entry}]")
    for command, prefix in (
        ("data get entity Alex Inventory", "Alex has the following entity data: "),
        ("data get storage traitors:io queue", "Storage traitors:io has the following contents: "),
    ):
        reply = world.execute(command)
        assert reply.startswith(prefix)
        assert snbt.parse(reply[len(prefix) :]) == to_python(nbtlib.parse_nbt(reply[len(prefix) :]))
    assert world.errors == []


@given(st.text(alphabet="{}[]\"'\\,:;IBL 0123456789.eEbslfd-+aNu", max_size=40))
def test_any_text_parses_or_raises_snbt_error(text: str) -> None:
    with contextlib.suppress(snbt.SnbtError):
        snbt.parse(text)
