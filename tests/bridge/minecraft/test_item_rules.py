"""Rule lines of ``docs/rules/traitors.md`` about how items look in the castle (``bridge/minecraft/items.py``)."""

from __future__ import annotations

import pytest

from bridge.minecraft.items import ITEMS, give, item_stack
from engine.ids import Item


@pytest.mark.rule("T10.5")
def test_the_deadlock_shield_and_the_murder_shield_look_the_same() -> None:
    """T10.5: "While visually the same, there are two different types of shield." Both are the vanilla shield, in
    the same colour and with the same glint; only their names and tooltips differ, and the castle tells them apart
    by their own ``custom_data``."""
    murder, deadlock = ITEMS[Item.MURDER_SHIELD], ITEMS[Item.DEADLOCK_SHIELD]
    assert murder.item_id == deadlock.item_id == "minecraft:shield"
    assert (murder.color, murder.glint, murder.extra) == (deadlock.color, deadlock.glint, deadlock.extra)
    given = {item: give("Alex", item_stack(item)).text for item in (Item.MURDER_SHIELD, Item.DEADLOCK_SHIELD)}
    assert given[Item.MURDER_SHIELD].startswith("give Alex minecraft:shield[")
    assert given[Item.DEADLOCK_SHIELD].startswith("give Alex minecraft:shield[")
    assert (
        'item:"murder_shield"' in given[Item.MURDER_SHIELD] and 'item:"deadlock_shield"' in given[Item.DEADLOCK_SHIELD]
    )
