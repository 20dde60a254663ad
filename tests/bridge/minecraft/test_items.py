"""bridge/minecraft/items.py: the item table, gives and clears, response books that fit, castle books read back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.minecraft.core import MAX_COMMAND_BYTES, utf8_size
from bridge.minecraft.items import ITEMS, book_pages, book_text, held_give_ids, item_stack
from bridge.minecraft.items import clear as clear_command
from bridge.minecraft.items import give as give_command
from bridge.minecraft.syntax import check_command
from engine.ids import Item


@pytest.mark.parametrize("item", list(Item))
def test_every_item_gives_and_clears(item: Item) -> None:
    spec = ITEMS[item]
    give = give_command("Alice", item_stack(item, label="Bob"))
    check_command(give.text)
    assert f'custom_data={{traitors:{{item:"{item.value}"}}}}' in give.text
    assert give.text.startswith(f"give Alice {spec.item_id}[")
    clear = clear_command("@a", item)
    check_command(clear.text)
    assert clear.text == f'clear @a *[custom_data~{{traitors:{{item:"{item.value}"}}}}]'


def test_item_table_is_complete_and_neutral() -> None:
    assert set(ITEMS) == set(Item)
    assert ITEMS[Item.BANISH_TORCH].item_id == "minecraft:redstone_torch"
    assert ITEMS[Item.END_TORCH].item_id == "minecraft:copper_torch"
    assert ITEMS[Item.SACRED_SWORD].item_id == "minecraft:iron_sword"
    # Items named by the rulebook with a side's word: every living contestant receives the Traitors' Response
    # book, and either drink may be taken by anyone, so holding one tells nothing (rulebook §8, §10).
    named_by_rule = {Item.RESPONSE_BOOK, Item.FAITHFUL_FANCY, Item.TRAITORS_TIPPLE}
    for item, spec in ITEMS.items():
        shown = " ".join((spec.name, *spec.lore)).lower()
        for secret in ("traitor", "faithful"):
            assert secret not in shown or item in named_by_rule, spec
        if spec.max_stack_size is not None:
            assert spec.item_id not in ("minecraft:iron_sword", "minecraft:shield", "minecraft:leather_chestplate")


def test_cast_vote_paper_needs_label() -> None:
    with pytest.raises(ValueError, match="label"):
        item_stack(Item.CAST_VOTE_PAPER)


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=400) | st.text(alphabet='"\\\n€😀ж', min_size=300, max_size=400))
def test_every_accepted_reply_fits_the_response_book(text: str) -> None:
    """A reply the engine accepts (engine.rulesets.traitors.twists.check_text) always becomes one ``give`` that parses and fits
    the 1446-byte RCON limit, with the text on its pages."""
    from engine.errors import IllegalAction
    from engine.rulesets.traitors.twists import check_text

    try:
        accepted = check_text(text)
    except IllegalAction:
        return
    command = give_command("Sunny_Traitor12", item_stack(Item.RESPONSE_BOOK, label=accepted))
    check_command(command.text)
    assert utf8_size(command.text) <= MAX_COMMAND_BYTES
    assert "".join(book_pages(accepted)).replace(" ", "") == accepted.replace(" ", "")


def test_book_text_reads_pages_in_both_forms() -> None:
    book = {
        "components": {
            "minecraft:custom_data": {"traitors": {"item": "confession_book"}},
            "minecraft:writable_book_content": {"pages": [{"raw": "one"}, "two"]},
        }
    }
    other = {
        "components": {
            "minecraft:custom_data": {"traitors": {"item": "notes_book"}},
            "minecraft:writable_book_content": {"pages": ["secret notes"]},
        }
    }
    assert book_text([other, book], Item.CONFESSION_BOOK) == "one\ntwo"
    assert book_text([other], Item.CONFESSION_BOOK) is None
    assert book_text("garbage", Item.CONFESSION_BOOK) is None
    # Only a book given to the player counts when their hand-out ids are given: not one picked up from another.
    mine = {
        "components": {
            "minecraft:custom_data": {"traitors": {"item": "confession_book", "give": "t/Kai/3"}},
            "minecraft:writable_book_content": {"pages": ["mine"]},
        }
    }
    theirs = {
        "components": {
            "minecraft:custom_data": {"traitors": {"item": "confession_book", "give": "t/Alex/2"}},
            "minecraft:writable_book_content": {"pages": ["theirs"]},
        }
    }
    assert book_text([theirs, mine], Item.CONFESSION_BOOK, {"t/Kai/3"}) == "mine"
    assert book_text([theirs], Item.CONFESSION_BOOK, {"t/Kai/3"}) is None


def test_held_give_ids_reads_the_hand_out_ids_of_an_inventory() -> None:
    paper = {
        "Slot": 0,
        "id": "minecraft:paper",
        "count": 1,
        "components": {"minecraft:custom_data": {"traitors": {"item": "vote_paper", "give": "t1/Kai/4"}}},
    }
    plain = {"Slot": 1, "id": "minecraft:dirt", "count": 5}
    odd = {"components": {"minecraft:custom_data": {"traitors": {"give": 7}}}}
    assert held_give_ids([paper, plain, odd, "junk"]) == {"t1/Kai/4"}
    assert held_give_ids(None) == set() and held_give_ids({"a": 1}) == set()
