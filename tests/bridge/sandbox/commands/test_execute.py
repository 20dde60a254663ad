"""``execute`` in the sandbox: conditions, ``as`` over several players, ``store`` on failure, ``on attacker``."""

from __future__ import annotations

from typing import Any


def test_conditions_end_with_test_failed_or_run_the_rest(world_with: Any) -> None:
    world = world_with("Alice", "Bob")
    world.execute("scoreboard objectives add d dummy")
    world.execute("scoreboard players set Alice d 3")
    assert world.execute("execute if entity @a[tag=x]") == "Test failed"
    assert world.execute("execute if entity @a") == "Test passed"
    assert world.execute("execute if score Alice d matches 2..4 run tag Alice add mid") == "Added tag 'mid' to Alice"
    assert world.execute("execute unless score Alice d matches 3 run tag Alice add x") == ""
    assert world.execute("execute if data storage t:none a") == "Test failed"
    assert world.command_log[-1].outcome == "failed"


def test_as_runs_once_per_player_and_sums_results(world_with: Any) -> None:
    world = world_with("Alice", "Bob", "Cara")
    world.execute("tag Bob add x")
    assert world.execute("execute as @a run tag @s add all") == (
        "Added tag 'all' to AliceAdded tag 'all' to BobAdded tag 'all' to Cara"
    )
    world.execute("execute store result storage t:n count int 1 run execute as @a[tag=!x] run tag @s add y")
    assert world.storage_python("t:n") == {"count": 2}


def test_store_keeps_zero_when_the_command_fails(world_with: Any) -> None:
    world = world_with("Alice")
    world.execute("scoreboard objectives add ok dummy")
    assert world.execute("execute store success score Alice ok run clear Alice minecraft:stone") == ""
    assert world.scores["Alice"]["ok"] == 0
    world.execute("give Alice minecraft:stone 3")
    assert world.execute("execute store success score Alice ok run clear Alice minecraft:stone 0") == (
        "Found 3 matching item(s) on player Alice"
    )
    assert world.scores["Alice"]["ok"] == 1
    world.execute("execute store result storage t:s half float 0.5 run scoreboard players get Alice ok")
    assert world.storage_python("t:s") == {"half": 0.5}


def test_on_attacker_and_items_conditions(world_with: Any) -> None:
    world = world_with("Alice", "Bob")
    world.execute('give Alice minecraft:paper[custom_data={traitors:{item:"vote_paper"}}]')
    assert (
        world.execute('execute if items entity Alice container.* *[custom_data~{traitors:{item:"vote_paper"}}]')
        == "Test passed"
    )
    assert world.execute("execute if items entity Alice armor.* *") == "Test failed"
    assert world.execute("execute if items entity @a[tag=nobody] container.* *") == "No entity was found"
    world.execute("scoreboard objectives add hits dummy")
    hit_back = "execute as Bob on attacker run scoreboard players add @s hits 1"
    assert world.execute(hit_back) == ""  # nobody hurt Bob: the branch fails silently
    world.hit("Alice", "Bob")
    assert world.execute(hit_back) == "Added 1 to [hits] for Alice (now 1)"
    assert world.scores == {"Alice": {"hits": 1}}
    assert world.execute("execute as Alice on attacker run say x") == ""
    assert world.errors == []
