"""Unknown item, block and entity ids are refused as vanilla 1.21.11 refuses them."""

from __future__ import annotations

import pytest

from bridge.sandbox import World
from bridge.sandbox.registries import REGISTRIES


@pytest.mark.parametrize(
    ("command", "reply"),
    [  # the context starts at the id, as vanilla resets the cursor there before it throws
        (
            "give Alice minecraft:notanitem",
            "Unknown item 'minecraft:notanitem'...ive Alice minecraft:notanitem<--[HERE]",
        ),
        ("give Alice notanitem 2", "Unknown item 'minecraft:notanitem'...ive Alice notanitem 2<--[HERE]"),
        ("clear Alice minecraft:nope", "Unknown item 'minecraft:nope'...ear Alice minecraft:nope<--[HERE]"),
        (
            "execute if block 0 0 0 minecraft:notablock run say hi",
            "Unknown block type 'minecraft:notablock'...ock 0 0 0 minecraft:notablock run say hi<--[HERE]",
        ),
        (
            "kill @e[type=minecraft:notamob]",
            "Invalid or unknown entity type 'minecraft:notamob'...l @e[type=minecraft:notamob]<--[HERE]",
        ),
    ],
)
def test_unknown_ids_are_refused_with_vanillas_text(command: str, reply: str) -> None:
    world = World()
    world.join("Alice")
    assert world.execute(command) == reply
    assert world.command_log[-1].outcome == "syntax"
    assert world.players["Alice"].inventory == []


def test_known_ids_still_work() -> None:
    world = World()
    world.join("Alice")
    assert world.execute("give Alice minecraft:paper") == "Gave 1 [Paper] to Alice"
    assert world.execute("give Alice stone 2") == "Gave 2 [Stone] to Alice"


def test_the_registries_are_the_versions_and_say_where_they_come_from() -> None:
    assert REGISTRIES.version == "1.21.11"
    assert "minecraft-data" in REGISTRIES.source
    assert {"paper", "stone", "player"} <= REGISTRIES.item | REGISTRIES.block | REGISTRIES.entity_type
    assert "armadillo" in REGISTRIES.entity_type and "trial_spawner" in REGISTRIES.block
