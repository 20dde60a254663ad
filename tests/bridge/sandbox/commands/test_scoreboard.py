"""``scoreboard`` and ``trigger`` in the sandbox: vanilla's replies, results and trigger locks."""

from __future__ import annotations

from typing import Any


def test_set_add_remove_name_one_holder_or_count_several(world_with: Any) -> None:
    world = world_with("Alice", "Bob")
    world.execute("scoreboard objectives add d dummy")
    assert world.execute("scoreboard players set Alice d 3") == "Set [d] for Alice to 3"
    assert world.execute("scoreboard players add Alice d 2") == "Added 2 to [d] for Alice (now 5)"
    assert world.execute("scoreboard players remove Alice d 1") == "Removed 1 from [d] for Alice (now 4)"
    assert world.execute("scoreboard players add @a d 2") == "Added 2 to [d] for 2 entities"
    assert world.scores == {"Alice": {"d": 6}, "Bob": {"d": 2}}
    reply = world.execute("execute store result storage t:x n int 1 run scoreboard players add @a d 1")
    assert reply == "Added 1 to [d] for 2 entities"
    assert world.storage_python("t:x") == {"n": 10}  # the result of set/add/remove: the sum of the new scores


def test_get_needs_one_holder_and_a_score(world_with: Any) -> None:
    world = world_with("Alice", "Bob")
    world.execute('scoreboard objectives add d dummy "Dee"')
    assert world.execute("scoreboard players get Alice d") == "Can't get value of d for Alice; none is set"
    world.execute("scoreboard players set Alice d 7")
    assert world.execute("scoreboard players get Alice d") == "Alice has 7 [Dee]"
    assert world.execute("scoreboard players get Alice nope") == "Unknown scoreboard objective 'nope'"


def test_enable_unlocks_a_trigger_once_and_a_press_locks_it_again(world_with: Any) -> None:
    world = world_with("Alice", "Bob")
    world.execute("scoreboard objectives add v trigger")
    world.execute("scoreboard objectives add d dummy")
    assert world.execute("scoreboard players enable @a v") == "Enabled trigger [v] for 2 entities"
    assert world.execute("scoreboard players enable Alice v") == "Nothing changed. That trigger is already enabled"
    assert world.execute("scoreboard players enable Alice d") == "Can only enable trigger-objectives"
    assert world.press_trigger("Alice", "v", 4) == "Triggered [v] (set value to 4)"
    assert world.press_trigger("Alice", "v", 4) == "You cannot trigger this objective yet"
    assert world.execute("scoreboard players enable Alice v") == "Enabled trigger [v] for Alice"
    assert world.execute("trigger v") == "A player is required to run this command here"


def test_reset_and_remove_drop_scores_and_locks(world_with: Any) -> None:
    world = world_with("Alice")
    world.execute("scoreboard objectives add v trigger")
    world.execute("scoreboard players enable Alice v")
    assert world.execute("scoreboard players list") == "There are 1 tracked entity/entities: Alice"
    assert world.execute("scoreboard players reset Alice v") == "Reset [v] for Alice"
    assert world.unlocked == set()
    world.execute("scoreboard players enable Alice v")
    assert world.execute("scoreboard objectives remove v") == "Removed objective [v]"
    assert (world.objectives, world.scores, world.unlocked) == ({}, {"Alice": {}}, set())
    assert world.execute("scoreboard objectives list") == "There are no objectives"


def test_unmodelled_players_actions_read_their_arguments_first(world_with: Any) -> None:
    world = world_with("Alice")
    world.execute("scoreboard objectives add d dummy")
    assert world.execute("scoreboard players operation Alice nope += Alice d") == "Unknown scoreboard objective 'nope'"
    assert world.errors == []
    assert world.execute("scoreboard players operation Alice d += Alice d") == (
        "Sandbox: unsupported command: scoreboard players operation"
    )
    assert len(world.errors) == 1
