"""fill, setblock, forceload and execute if|unless block in the sandbox, with vanilla's replies."""

from __future__ import annotations

from bridge.sandbox.world import World


def test_fill_counts_changed_blocks_and_modes():
    w = World()
    w.join("Alice")  # her chunks are loaded
    assert w.execute("fill 0 64 0 2 66 2 minecraft:stone") == "Successfully filled 27 block(s)"
    assert w.execute("fill 0 64 0 2 66 2 minecraft:stone") == "No blocks were filled"
    assert w.execute("fill 0 64 0 2 66 2 minecraft:stone hollow") == "Successfully filled 1 block(s)"
    assert w.execute("fill 0 64 0 3 66 2 minecraft:dirt keep") == "Successfully filled 10 block(s)"
    assert w.execute("fill 0 64 0 3 66 2 minecraft:glass replace minecraft:dirt") == "Successfully filled 10 block(s)"
    assert w.blocks.get((1, 65, 1)) == "minecraft:glass" and w.blocks.get((0, 64, 0)) == "minecraft:stone"
    assert w.execute("fill 0 0 0 40 40 40 minecraft:stone") == (
        "Too many blocks in the specified area (maximum 32768, specified 68921)"
    )
    w.execute("gamerule max_block_modifications 10")
    assert w.execute("fill 0 64 0 2 66 2 minecraft:sand").startswith(
        "Too many blocks in the specified area (maximum 10,"
    )
    assert w.execute("fill 0 400 0 1 401 1 minecraft:stone") == "That position is out of this world!"
    assert w.execute("fill 0 64 0 1 64 1 minecraft:no_such_block").startswith("Unknown block type")
    assert w.errors == []


def test_setblock_keeps_block_states_and_execute_if_block_reads_them():
    w = World()
    w.join("Alice")
    assert w.execute("setblock 5 70 5 minecraft:oak_door[half=lower,facing=east]") == "Changed the block at 5, 70, 5"
    assert w.execute("setblock 5 70 5 minecraft:oak_door[facing=east,half=lower]") == "Could not set the block"
    assert w.blocks.get((5, 70, 5)) == "minecraft:oak_door[facing=east,half=lower]"
    assert w.execute("execute if block 5 70 5 minecraft:oak_door") == "Test passed"
    assert w.execute("execute if block 5 70 5 minecraft:oak_door[facing=east]") == "Test passed"
    assert w.execute("execute if block 5 70 5 minecraft:oak_door[facing=west]") == "Test failed"
    assert w.execute("execute unless block 5 71 5 minecraft:air") == "Test failed"
    assert w.execute("execute if block 5 71 5 minecraft:air run setblock 5 71 5 minecraft:stone") == (
        "Changed the block at 5, 71, 5"
    )
    assert w.execute("execute if block 5 72 5 minecraft:stone run setblock 5 72 5 minecraft:stone") == ""
    assert w.blocks.get((5, 72, 5)) == "minecraft:air" and w.errors == []
    assert w.execute("setblock 5 70 5 minecraft:stone keep") == "Could not set the block"


def test_teleports_onto_spots_that_are_not_standable_are_recorded():
    w = World()
    w.join("Alice")
    w.execute("fill 0 63 0 4 63 4 minecraft:stone")
    w.execute("tp Alice 2.5 64 2.5")
    assert w.bad_landings == []
    w.execute("tp Alice 2.5 80 2.5")
    w.execute("setblock 3 64 3 minecraft:stone")
    w.execute("tp Alice 3 64 3")  # into a block
    assert w.bad_landings == [("Alice", (2.5, 80.0, 2.5)), ("Alice", (3.5, 64.0, 3.5))]


def test_forceload_answers_as_vanilla():
    w = World()
    assert w.execute("forceload add 0 0 31 31") == (
        "Marked 4 chunks in minecraft:overworld from [0, 0] to [1, 1] to be force loaded"
    )
    assert w.execute("forceload add 0 0 15 15") == "No chunks were marked for force loading"
    assert w.execute("forceload remove 0 0 31 31").startswith("Unmarked 4 chunks")
    assert w.execute("forceload remove 0 0") == "No chunks were removed from force loading"
    assert w.execute("forceload add 88 -8") == "Marked chunk [5, -1] in minecraft:overworld to be force loaded"
    assert w.execute("forceload remove 88 -8") == "Unmarked chunk [5, -1] in minecraft:overworld for force loading"
    assert w.execute("forceload add 0 0 1000 1000").startswith("Too many chunks in the specified area (maximum 256")
    assert w.chunks.forced == set()


def test_a_command_at_a_position_that_is_not_loaded_fails_as_in_vanilla():
    w = World()  # nobody online, nothing forced: every chunk is unloaded
    assert w.execute("setblock 5 70 5 minecraft:stone") == "That position is not loaded"
    assert w.execute("fill 0 64 0 2 66 2 minecraft:stone") == "That position is not loaded"
    assert w.execute("execute if block 5 70 5 minecraft:air") == "That position is not loaded"
    assert w.execute("execute if loaded 5 70 5") == "Test failed"
    assert w.blocks.get((5, 70, 5)) == "minecraft:air"
    w.execute("forceload add 5 5")
    assert w.execute("execute if loaded 5 70 5") == "Test passed"
    assert w.execute("setblock 5 70 5 minecraft:stone") == "Changed the block at 5, 70, 5"
    assert w.execute("setblock 21 70 5 minecraft:stone") == "That position is not loaded"  # the next chunk
    w.execute("forceload remove 5 5")
    w.join("Alice")  # at the spawn: the chunks within the view distance (10) around hers load
    w.execute("tp Alice 160 64 0")
    assert w.execute("setblock 330 70 0 minecraft:stone") == "Changed the block at 330, 70, 0"  # chunk 20
    assert w.execute("setblock 336 70 0 minecraft:stone") == "That position is not loaded"  # chunk 21
    assert w.errors == []
