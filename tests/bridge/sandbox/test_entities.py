"""``summon`` and ``kill`` in the sandbox: a summoned entity is kept with its data, ``kill`` of ``@e`` by type and
tag removes it with vanilla's replies, and nothing else is touched."""

from __future__ import annotations

from bridge.sandbox.world import World

BOARD = 'summon minecraft:text_display 88.5 67 -9.5 {Tags:["traitors.board"],text:{text:"Sign-ups"}}'


def test_summon_keeps_the_entity_and_kill_removes_it_by_type_and_tag() -> None:
    world = World()
    world.join("Alex")  # at the spawn: both entities' chunks are within the view distance
    assert world.execute(BOARD) == "Summoned new Text Display"
    assert world.execute('summon minecraft:text_display 0 70 0 {Tags:["other"]}') == "Summoned new Text Display"
    [board, other] = world.entities
    assert (
        board.pos == (88.5, 67.0, -9.5)
        and board.tags == {"traitors.board"}
        and board.data["text"] == {"text": "Sign-ups"}
    )
    assert world.execute("kill @e[type=minecraft:text_display,tag=traitors.board]") == "Killed Text Display"
    assert world.entities == [other]
    assert world.execute("kill @e[type=minecraft:text_display,tag=traitors.board]") == "No entity was found"
    world.execute(BOARD)
    world.execute(BOARD)
    assert world.execute("kill @e[type=minecraft:text_display]") == "Killed 3 entities"
    assert world.entities == [] and world.errors == []


def test_an_entity_in_a_chunk_that_is_not_loaded_is_out_of_kill_s_reach() -> None:
    world = World()  # nobody online: the board's chunk is not loaded
    assert world.execute(BOARD) == "Summoned new Text Display"  # vanilla's summon checks no chunk
    assert world.execute("kill @e[type=minecraft:text_display,tag=traitors.board]") == "No entity was found"
    world.execute(BOARD)
    assert len(world.entities) == 2  # the old board was not removed: two once the chunk loads
    assert world.execute("forceload add 88 -10") == "Marked chunk [5, -1] in minecraft:overworld to be force loaded"
    assert world.execute("kill @e[type=minecraft:text_display,tag=traitors.board]") == "Killed 2 entities"
    assert world.entities == [] and world.errors == []
