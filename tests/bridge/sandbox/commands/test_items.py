"""``give`` and ``clear`` in the sandbox: stacking, item predicates, count-only clears."""

from __future__ import annotations

from bridge.sandbox.world import World


def test_give_tops_up_equal_stacks_then_opens_new_ones() -> None:
    world = World()
    world.join("Alice")
    assert world.execute("give Alice minecraft:paper 70") == "Gave 70 [Paper] to Alice"
    assert world.execute("give Alice minecraft:paper 60") == "Gave 60 [Paper] to Alice"
    assert [s.count for s in world.players["Alice"].inventory] == [64, 64, 2]
    world.execute("give Alice minecraft:iron_sword 2")
    assert [s.count for s in world.players["Alice"].inventory][3:] == [1, 1]


def test_clear_with_predicates_and_limits() -> None:
    world = World()
    for name in ("Alice", "Bob"):
        world.join(name)
    world.execute('give @a minecraft:paper[custom_data={traitors:{item:"vote_paper"}}] 3')
    world.execute("give @a minecraft:paper 2")
    vote = '*[custom_data~{traitors:{item:"vote_paper"}}]'
    assert world.execute(f"clear Alice {vote} 0") == "Found 3 matching item(s) on player Alice"
    assert world.execute("clear Alice *[!minecraft:custom_data] 1") == "Removed 1 item(s) from player Alice"
    assert world.execute("clear @a *[count=3]") == "Removed 6 item(s) from 2 players"
    assert world.execute(f"clear @a {vote}") == "No items were found on 2 players"
    assert world.execute("clear Bob minecraft:paper[minecraft:custom_data]") == "No items were found on player Bob"
    assert world.execute("clear Bob") == "Removed 2 item(s) from player Bob"
    assert [(s.item, s.count) for s in world.players["Alice"].inventory] == [("minecraft:paper", 1)]
    assert world.execute("clear") == "A player is required to run this command here"
    assert world.errors == []
