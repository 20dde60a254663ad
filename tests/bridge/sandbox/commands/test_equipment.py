"""Worn items in the sandbox, as vanilla has them: ``item replace entity`` into an armour slot or the off hand,
``items entity`` and ``clear`` reaching those slots, the ``equipment`` data, and the walking speed the worn items'
``attribute_modifiers`` (and the Slowness effect) give (docs/minecraft.md#commands-and-text)."""

from __future__ import annotations

from typing import Any

import pytest

from bridge.sandbox.model import BASE_MOVEMENT_SPEED

CLOAK = (
    'minecraft:leather_chestplate[item_name={text:"Hooded Cloak"},custom_data={traitors:{item:"traitors_cloak"}},'
    'attribute_modifiers=[{type:"minecraft:movement_speed",id:"traitors:cloak",amount:-0.3d,'
    'operation:"add_multiplied_total",slot:"chest"}]]'
)
CLOAK_PREDICATE = '*[custom_data~{traitors:{item:"traitors_cloak"}}]'


def test_item_replace_wears_the_item_and_slows_only_in_its_slot(world_with: Any) -> None:
    world = world_with("Alice", "Bob")
    assert world.execute(f"item replace entity Alice armor.chest with {CLOAK} 1") == (
        "Replaced a slot on Alice with [Hooded Cloak]"
    )
    alice = world.players["Alice"]
    assert alice.inventory == [] and alice.count_items("traitors_cloak") == 1
    assert alice.movement_speed() == pytest.approx(0.07)
    assert alice.nbt()["equipment"]["chest"]["id"] == "minecraft:leather_chestplate"
    # the modifier counts only in the slot it names: in the off hand the cloak slows nobody
    assert world.execute(f"item replace entity Bob weapon.offhand with {CLOAK}").startswith("Replaced a slot on Bob")
    assert world.players["Bob"].movement_speed() == BASE_MOVEMENT_SPEED
    assert world.execute("item replace entity @a armor.feet with minecraft:iron_boots") == (
        "Replaced a slot on 2 entities with [Iron Boots]"
    )
    assert world.errors == []


def test_items_entity_and_clear_reach_the_worn_slots(world_with: Any) -> None:
    world = world_with("Alice")
    world.execute(f"item replace entity Alice armor.chest with {CLOAK} 1")
    world.execute("give Alice minecraft:paper 2")
    assert world.execute(f"execute if items entity Alice armor.chest {CLOAK_PREDICATE}").startswith("Test passed")
    assert world.execute(f"execute if items entity Alice armor.* {CLOAK_PREDICATE}").startswith("Test passed")
    assert world.execute(f"execute if items entity Alice container.* {CLOAK_PREDICATE}").startswith("Test failed")
    assert world.execute("execute if items entity Alice weapon.offhand *").startswith("Test failed")
    assert world.execute(f"clear Alice {CLOAK_PREDICATE} 0") == "Found 1 matching item(s) on player Alice"
    assert world.execute(f"clear Alice {CLOAK_PREDICATE}") == "Removed 1 item(s) from player Alice"
    alice = world.players["Alice"]
    assert alice.equipment == {} and [s.item for s in alice.inventory] == ["minecraft:paper"]
    assert alice.movement_speed() == BASE_MOVEMENT_SPEED and "equipment" not in alice.nbt()


def test_slowness_and_worn_modifiers_multiply(world_with: Any) -> None:
    world = world_with("Alice")
    world.execute("effect give Alice minecraft:slowness infinite 0 true")
    assert world.players["Alice"].movement_speed() == pytest.approx(BASE_MOVEMENT_SPEED * 0.85)
    world.execute(f"item replace entity Alice armor.chest with {CLOAK} 1")
    assert world.players["Alice"].movement_speed() == pytest.approx(BASE_MOVEMENT_SPEED * 0.85 * 0.7)


def test_forms_the_sandbox_does_not_model_are_sandbox_errors(world_with: Any) -> None:
    world = world_with("Alice")
    assert world.execute("item replace entity Alice hotbar.0 with minecraft:paper").startswith("Sandbox: unsupported")
    assert world.errors
