"""``data`` on command storage in the sandbox: get with results and scales, every modify operation, failures."""

from __future__ import annotations

from bridge.sandbox.world import World


def test_get_sets_the_result_from_numbers_lengths_and_scales() -> None:
    world = World()
    world.execute('data merge storage t:x {n:2.7d,b:[1,2,3],c:"abcd"}')
    assert world.execute("data get storage t:x n") == "Storage t:x has the following contents: 2.7d"
    cases = {"n": 2, "b": 3, "c": 4, "n 10": 27}
    for path, result in cases.items():
        world.execute(f"execute store result storage t:y r int 1 run data get storage t:x {path}")
        assert world.storage_python("t:y") == {"r": result}, path
    assert world.execute("data get storage t:x n 10") == "n in storage t:x after scale factor of 10.00 is 27"
    assert world.execute("data get storage t:x c 2") == "Can't get c; only numeric tags are allowed"
    assert world.execute("data get storage t:x b[]") == "This argument accepts a single NBT value"
    assert world.execute("data get storage t:x z") == "Found no elements matching z"


def test_modify_operations_in_order() -> None:
    world = World()
    world.join("Alice")
    world.execute("tag Alice add seen")
    steps = [
        "data modify storage t:x l set value [1]",
        "data modify storage t:x l append value 3",
        "data modify storage t:x l prepend value 0",
        "data modify storage t:x l insert 2 value 2",
        "data modify storage t:x c set value {a:1}",
        "data modify storage t:x c merge value {b:2}",
        "data modify storage t:x d set from storage t:x c",
        "data modify storage t:x tags set from entity Alice Tags",
    ]
    for step in steps:
        assert world.execute(step) == "Modified storage t:x", step
    assert world.storage_python("t:x") == {
        "l": [0, 1, 2, 3],
        "c": {"a": 1, "b": 2},
        "d": {"a": 1, "b": 2},
        "tags": ["seen"],
    }
    assert world.execute("data modify storage t:x c merge value {b:2}") == (
        "Nothing changed. The specified properties already have these values"
    )
    assert world.execute("data modify storage t:x e set from storage t:x nope") == "Found no elements matching nope"
    assert world.execute("data remove storage t:x d") == "Modified storage t:x"
    assert world.execute("data remove storage t:x d") == "Found no elements matching d"
    assert world.errors == []


def test_computed_storage_is_read_fresh_and_entity_data_is_shown() -> None:
    world = World()
    world.join("Alice")
    calls = []
    world.computed_storage["t:live"] = lambda: {"calls": len(calls.append(1) or calls)}
    assert world.execute("data get storage t:live calls") == "Storage t:live has the following contents: 1"
    assert world.execute("data get storage t:live calls") == "Storage t:live has the following contents: 2"
    assert world.execute("data get entity Alice Tags") == "Alice has the following entity data: []"
    assert world.execute("data get block 0 0 0") == "The target block is not a block entity"  # air: no block entity
    assert world.execute("data modify block 0 0 0 x set value 1").startswith("Sandbox: unsupported command")
