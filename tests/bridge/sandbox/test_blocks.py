"""bridge/sandbox/blocks.py: the sparse block model, standability, air paths and block light."""

from __future__ import annotations

from bridge.minecraft.castle.geometry import box
from bridge.sandbox.blocks import Blocks, state_text


def test_standable_needs_solid_under_and_air_at_feet_and_head():
    b = Blocks()
    b.fill(box(0, 0, 0, 4, 0, 4), "minecraft:stone")
    assert b.standable(2.5, 1, 2.5) and not b.standable(2.5, 2, 2.5) and not b.standable(9.5, 1, 9.5)
    b.place((2, 2, 2), "minecraft:glass")
    assert not b.standable(2.5, 1, 2.5)
    b.place((1, 0, 1), "minecraft:water")
    assert not b.standable(1.5, 1, 1.5)
    b.place((3, 0, 3), "minecraft:air")
    assert not b.standable(3.5, 1, 3.5) and len(b) == 25


def test_air_reach_stops_at_blocks_and_at_the_limit():
    b = Blocks()
    b.fill(box(0, 0, 0, 4, 4, 4), "minecraft:stone")
    b.fill(box(1, 1, 1, 3, 3, 3), "minecraft:air")
    assert len(b.air_reach((2, 2, 2), 100)) == 27
    b.place((4, 2, 2), "minecraft:oak_door[half=lower]")
    assert len(b.air_reach((2, 2, 2), 100)) == 27
    b.place((4, 2, 2), "minecraft:air")
    assert len(b.air_reach((2, 2, 2), 100)) > 100


def test_block_light_falls_one_per_block_and_walls_stop_it():
    b = Blocks()
    b.place((0, 0, 0), "minecraft:glowstone")
    light = b.block_light(box(-20, 0, 0, 20, 0, 0))
    assert light[(1, 0, 0)] == 14 and light[(5, 0, 0)] == 10 and (15, 0, 0) not in light
    b.place((-1, 0, 0), "minecraft:stone")
    light = b.block_light(box(-3, 0, 0, -2, 0, 0))
    assert light[(-2, 0, 0)] == 15 - 4  # round the stone: up, west, west, down


def test_state_text_sorts_states_and_adds_the_namespace():
    assert (
        state_text("oak_door", [("half", "lower"), ("facing", "east")]) == "minecraft:oak_door[facing=east,half=lower]"
    )
