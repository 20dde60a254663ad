"""The sandbox world over real loopback RCON: commands change the world, triggers feed the storage queue."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest

from bridge.io.players import ints_from_uuid
from bridge.io.rcon import RconClient
from bridge.sandbox import Sandbox, SandboxThread, World
from bridge.sandbox.rcon_server import split_reply
from bridge.sandbox.uuids import offline_uuid

PASSWORD = "pw-for-tests"
VOTE_PAPER = (
    'give Alice minecraft:paper[minecraft:item_name={text:"Vote Paper",color:"gold"},'
    'minecraft:lore=[{text:"Write a name at the Round Table",color:"gray",italic:false}],'
    'minecraft:custom_data={traitors:{item:"vote_paper"}},minecraft:enchantment_glint_override=true,'
    "minecraft:max_stack_size=1] 1"
)
SWORD = (
    'give Alice minecraft:iron_sword[custom_name={text:"Sacred Sword",color:"gold",italic:false},'
    'custom_data={traitors:{item:"sacred_sword"}},enchantment_glint_override=true,unbreakable={}] 1'
)

Body = Callable[[Sandbox, RconClient], Awaitable[None]]


def run_with(body: Body, players: tuple[str, ...] = ("Alice", "Bob"), *, datapack: bool = False) -> None:
    """Start a sandbox (manual ticks; the data pack only when asked), join ``players``, connect a client, run
    ``body``."""

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=datapack)
        port = await sb.start()
        for name in players:
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                await body(sb, rcon)
        finally:
            await sb.stop()

    asyncio.run(main())


# -- items ---------------------------------------------------------------------------------------------------


def test_give_and_clear_with_components() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        alice = sb.world.player("Alice")
        assert await rcon.command(VOTE_PAPER) == "Gave 1 [Vote Paper] to Alice"
        assert await rcon.command(SWORD) == "Gave 1 [Sacred Sword] to Alice"
        assert await rcon.command("give @a minecraft:bread 3") == "Gave 3 [Bread] to 2 players"
        paper = alice.inventory[0]
        assert paper.item == "minecraft:paper" and paper.count == 1
        assert paper.custom_data == {"traitors": {"item": "vote_paper"}}
        assert paper.components["minecraft:lore"] == [
            {"text": "Write a name at the Round Table", "color": "gray", "italic": 0}
        ]
        assert alice.count_items("sacred_sword") == 1
        # count only (0), then remove by partial custom_data match
        assert await rcon.command("clear @a *[custom_data~{traitors:{}}] 0") == "Found 2 matching item(s) on 2 players"
        assert alice.count_items() == 5
        reply = await rcon.command('clear Alice minecraft:paper[minecraft:custom_data~{traitors:{item:"vote_paper"}}]')
        assert reply == "Removed 1 item(s) from player Alice"
        assert alice.count_items("vote_paper") == 0 and alice.count_items("sacred_sword") == 1
        assert await rcon.command("clear Bob minecraft:paper") == "No items were found on player Bob"
        assert await rcon.command("clear Bob minecraft:bread 2") == "Removed 2 item(s) from player Bob"
        assert sb.world.player("Bob").count_items(item="minecraft:bread") == 1
        assert await rcon.command("give Nobody minecraft:paper") == "No player was found"

    run_with(body)


# -- chat, titles, teleports ------------------------------------------------------------------------------------


def test_tellraw_keeps_click_events_and_a_player_can_click_them() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        await rcon.command('scoreboard objectives add traitors.vote trigger {text:"Vote"}')
        await rcon.command("scoreboard players enable Alice traitors.vote")
        cmd = (
            'tellraw Alice [{text:"[Round Table] ",color:"gold",bold:true},'
            '{text:"Click to vote for Bob",color:"yellow",bold:false,'
            'click_event:{action:"run_command",command:"/trigger traitors.vote set 2"},'
            'hover_event:{action:"show_text",value:{text:"Banish Bob"}}}]'
        )
        assert await rcon.command(cmd) == ""
        alice, bob = sb.world.player("Alice"), sb.world.player("Bob")
        assert bob.chat == []
        message = alice.chat[-1]
        assert message.text == "[Round Table] Click to vote for Bob"
        (event,) = message.click_events()
        assert event == {"action": "run_command", "command": "/trigger traitors.vote set 2"}
        assert sb.world.click("Alice", event) == "Triggered [Vote] (set value to 2)"
        assert sb.world.scores["Alice"]["traitors.vote"] == 2
        assert alice.chat[-1].text == "Triggered [Vote] (set value to 2)"
        assert await rcon.command('tellraw @a {"text":"json works too"}') == ""
        assert bob.chat[-1].text == "json works too"

    run_with(body)


def test_titles() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        assert await rcon.command("title @a times 10 70 20") == "Changed title display times for 2 players"
        assert (
            await rcon.command('title Alice title {text:"Alice",color:"dark_red",bold:true}')
            == "Showing new title for Alice"
        )
        assert await rcon.command('title Alice subtitle {text:"you are a Traitor"}') == "Showing new subtitle for Alice"
        assert (
            await rcon.command('title @a actionbar {text:"Round Table in 30 s"}')
            == "Showing new actionbar title for 2 players"
        )
        alice, bob = sb.world.player("Alice"), sb.world.player("Bob")
        assert alice.title == {"text": "Alice", "color": "dark_red", "bold": 1}
        assert [s.kind for s in alice.screen] == ["title", "subtitle", "actionbar"]
        assert bob.title is None and bob.actionbar == {"text": "Round Table in 30 s"}
        assert await rcon.command("title Alice clear") == "Cleared titles for Alice"
        assert alice.title is None and alice.subtitle is None

    run_with(body)


def test_teleports() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        reply = await rcon.command("tp @a 100.5 65 -20.5 180 0")
        assert reply == "Teleported 2 entities to 100.500000, 65.000000, -20.500000"
        bob = sb.world.player("Bob")
        assert bob.pos == (100.5, 65.0, -20.5) and (bob.yaw, bob.pitch) == (180.0, 0.0)
        assert (
            await rcon.command("teleport Alice 0 64 0 facing 10 64 0")
            == "Teleported Alice to 0.500000, 64.000000, 0.500000"
        )
        alice = sb.world.player("Alice")
        assert alice.pos == (0.5, 64.0, 0.5)
        assert alice.yaw == pytest.approx(-90.0)  # facing +x
        assert await rcon.command("tp Alice Bob") == "Teleported Alice to Bob"
        assert alice.pos == bob.pos

    run_with(body)


# -- bossbar, scoreboard, storage --------------------------------------------------------------------------------


def test_bossbar_round_trip() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        assert (
            await rcon.command('bossbar add traitors:timer {text:"Round Table",color:"gold"}')
            == "Created custom bossbar [Round Table]"
        )
        assert (
            await rcon.command("bossbar set traitors:timer max 300")
            == "Custom bossbar [Round Table] has changed maximum to 300"
        )
        assert (
            await rcon.command("bossbar set traitors:timer value 120")
            == "Custom bossbar [Round Table] has changed value to 120"
        )
        assert (
            await rcon.command("bossbar set traitors:timer color red")
            == "Custom bossbar [Round Table] has changed color"
        )
        assert (
            await rcon.command("bossbar set traitors:timer style notched_10")
            == "Custom bossbar [Round Table] has changed style"
        )
        assert (
            await rcon.command("bossbar set traitors:timer players @a")
            == "Custom bossbar [Round Table] now has 2 player(s): Alice, Bob"
        )
        assert (
            await rcon.command("bossbar get traitors:timer value") == "Custom bossbar [Round Table] has a value of 120"
        )
        bar = sb.world.bossbars["traitors:timer"]
        assert (bar.value, bar.max, bar.color, bar.style, bar.players) == (
            120,
            300,
            "red",
            "notched_10",
            {"Alice", "Bob"},
        )
        assert (
            await rcon.command("bossbar set traitors:timer visible false")
            == "Custom bossbar [Round Table] is now hidden"
        )
        assert await rcon.command("bossbar remove traitors:timer") == "Removed custom bossbar [Round Table]"
        assert await rcon.command("bossbar get traitors:timer max") == "No bossbar exists with the ID 'traitors:timer'"

    run_with(body)


def test_scoreboard_round_trip() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        assert (
            await rcon.command('scoreboard objectives add traitors.vote trigger {text:"Vote"}')
            == "Created new objective [Vote]"
        )
        assert await rcon.command("scoreboard objectives add points dummy") == "Created new objective [points]"
        assert (
            await rcon.command("scoreboard objectives add points dummy") == "An objective already exists by that name"
        )
        assert await rcon.command("scoreboard players set Alice points 5") == "Set [points] for Alice to 5"
        assert await rcon.command("scoreboard players add Alice points 2") == "Added 2 to [points] for Alice (now 7)"
        assert await rcon.command("scoreboard players get Alice points") == "Alice has 7 [points]"
        assert (
            await rcon.command("scoreboard players get Bob points") == "Can't get value of points for Bob; none is set"
        )
        assert await rcon.command("scoreboard players enable @a points") == "Can only enable trigger-objectives"
        assert (
            await rcon.command("scoreboard players enable @a traitors.vote") == "Enabled trigger [Vote] for 2 entities"
        )
        assert await rcon.command("scoreboard objectives list") == "There are 2 objective(s): [Vote], [points]"
        assert await rcon.command("scoreboard players reset Alice points") == "Reset [points] for Alice"
        assert "points" not in sb.world.scores["Alice"]
        assert await rcon.command("scoreboard players get Alice nosuch") == "Unknown scoreboard objective 'nosuch'"

    run_with(body)


def test_storage_round_trip() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        assert (
            await rcon.command("data get storage traitors:io") == "Storage traitors:io has the following contents: {}"
        )
        assert (
            await rcon.command(
                'data modify storage traitors:io queue append value {seq:1,player:"Alice",input:"vote",value:2}'
            )
            == "Modified storage traitors:io"
        )
        assert (
            await rcon.command(
                'data modify storage traitors:io queue append value {seq:2,player:"Bob",input:"vote",value:1}'
            )
            == "Modified storage traitors:io"
        )
        assert (
            await rcon.command('data modify storage traitors:io phase set value "night"')
            == "Modified storage traitors:io"
        )
        assert (
            await rcon.command('data modify storage traitors:io phase set value "night"')
            == "Nothing changed. The specified properties already have these values"
        )
        reply = await rcon.command("data get storage traitors:io queue")
        assert reply == (
            'Storage traitors:io has the following contents: [{seq: 1, player: "Alice", input: "vote", value: 2}, '
            '{seq: 2, player: "Bob", input: "vote", value: 1}]'
        )
        assert (
            await rcon.command("data get storage traitors:io queue[1].player")
            == 'Storage traitors:io has the following contents: "Bob"'
        )
        assert await rcon.command("data remove storage traitors:io queue[0]") == "Modified storage traitors:io"
        assert sb.world.storage_python("traitors:io") == {
            "queue": [{"seq": 2, "player": "Bob", "input": "vote", "value": 1}],
            "phase": "night",
        }
        assert await rcon.command("data get storage traitors:io nothing") == "Found no elements matching nothing"

    run_with(body)


# -- triggers and the input queue -----------------------------------------------------------------------------------


def test_trigger_press_rules() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        world = sb.world
        assert world.press_trigger("Alice", "traitors.vote", 1) == "Unknown scoreboard objective 'traitors.vote'"
        await rcon.command('scoreboard objectives add traitors.vote trigger {text:"Vote"}')
        await rcon.command("scoreboard objectives add points dummy")
        # not enabled yet: refused, nothing changes
        assert world.press_trigger("Alice", "traitors.vote", 3) == "You cannot trigger this objective yet"
        assert "traitors.vote" not in world.scores.get("Alice", {})
        assert world.press_trigger("Alice", "points", 3) == "You can only trigger objectives that are 'trigger' type"
        # enabled: score set, trigger locked again
        await rcon.command("scoreboard players enable Alice traitors.vote")
        assert world.press_trigger("Alice", "traitors.vote", 3) == "Triggered [Vote] (set value to 3)"
        assert world.scores["Alice"]["traitors.vote"] == 3
        assert ("Alice", "traitors.vote") not in world.unlocked
        assert world.press_trigger("Alice", "traitors.vote", 4) == "You cannot trigger this objective yet"
        assert world.scores["Alice"]["traitors.vote"] == 3
        # the feedback went to Alice only
        assert [m.text for m in world.player("Alice").chat][-1] == "You cannot trigger this objective yet"
        assert world.player("Bob").chat == []
        # the console cannot /trigger
        assert await rcon.command("trigger traitors.vote set 1") == "A player is required to run this command here"

    run_with(body)


def test_tick_moves_triggers_into_the_queue_and_ack_removes_exactly_one() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        world = sb.world
        alice, bob = (ints_from_uuid(offline_uuid(n)) for n in ("Alice", "Bob"))
        # the data pack's load function made the objectives; its tick enables them for everyone online
        assert world.press_trigger("Alice", "traitors.vote", 2) == "You cannot trigger this objective yet"
        world.tick()
        world.press_trigger("Alice", "traitors.vote", 2)
        world.press_trigger("Bob", "traitors.murder", 1)
        world.tick()
        assert world.scores["Alice"]["traitors.vote"] == 0 and world.scores["Bob"]["traitors.murder"] == 0
        assert ("Alice", "traitors.vote") in world.unlocked  # re-enabled by the tick
        world.tick()  # nothing new: no duplicate entries
        world.press_trigger("Alice", "traitors.vote", 1)
        world.tick()
        queue = world.storage_python("traitors:io")["queue"]
        assert queue == [
            {"seq": 1, "uuid": list(alice), "input": "vote", "value": 2},
            {"seq": 2, "uuid": list(bob), "input": "murder", "value": 1},
            {"seq": 3, "uuid": list(alice), "input": "vote", "value": 1},
        ]
        reply = await rcon.command("data get storage traitors:io queue")
        assert reply.startswith("Storage traitors:io has the following contents: [{")
        assert await rcon.command("data remove storage traitors:io queue[{seq:2}]") == "Modified storage traitors:io"
        assert [e["seq"] for e in world.storage_python("traitors:io")["queue"]] == [1, 3]
        assert (
            await rcon.command("data remove storage traitors:io queue[{seq:2}]")
            == "Found no elements matching queue[{seq:2}]"
        )
        assert world.scores["#next"]["traitors.seq"] == 3
        assert world.errors == []

    run_with(body, datapack=True)


# -- parsing, selectors, odds and ends ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        ("foo bar", "Unknown or incomplete command, see below for errorfoo bar<--[HERE]"),
        ("give Alice", "Unknown or incomplete command, see below for errorgive Alice<--[HERE]"),
        ("give Alice minecraft:paper 0", "Incorrect argument for command...aft:paper 0<--[HERE]"),
    ],
)
def test_parse_failures_get_vanilla_like_replies(command: str, reply: str) -> None:
    world = World()
    world.join("Alice")
    assert world.execute(command) == reply
    assert world.command_log[-1].outcome == "syntax"
    assert world.errors == []


def test_unsupported_commands_are_recorded_as_errors() -> None:
    world = World()
    world.join("Alice")
    reply = world.execute("execute positioned 0 0 0 run say hi")
    assert reply.startswith("Sandbox: unsupported command")
    assert world.errors and world.command_log[-1].outcome == "unsupported"


def test_selectors_tags_and_console_selectors() -> None:
    async def body(sb: Sandbox, rcon: RconClient) -> None:
        assert await rcon.command("tag Alice add alive") == "Added tag 'alive' to Alice"
        assert await rcon.command("tag Carol add alive") == "Added tag 'alive' to Carol"
        assert (
            await rcon.command("gamemode adventure @a[tag=alive]")
            == "Set Alice's game mode to Adventure ModeSet Carol's game mode to Adventure Mode"
        )
        assert sb.world.player("Bob").gamemode == "survival"
        assert (
            await rcon.command("effect give @a[tag=!alive] minecraft:blindness 5 0 true")
            == "Applied effect Blindness to Bob"
        )
        assert await rcon.command('tellraw @a[name=Bob] "hi"') == ""
        assert await rcon.command('tellraw @s "hi"') == "No player was found"  # the console has no entity
        assert await rcon.command("list") == "There are 3 of a max of 20 players online: Alice, Bob, Carol"
        assert (
            await rcon.command("gamerule send_command_feedback false")
            == "Gamerule send_command_feedback is now set to: false"
        )
        assert sb.world.gamerules["send_command_feedback"] == "false"
        assert await rcon.command("function traitors:nope") == "Unknown function traitors:nope"
        assert await rcon.command("/say hello §aworld") == ""
        assert sb.world.player("Carol").chat[-1].text == "[Rcon] hello §aworld"
        log = sb.world.command_log
        assert log[0].text == "tag Alice add alive" and log[0].reply == "Added tag 'alive' to Alice"

    run_with(body, players=("Alice", "Bob", "Carol"))


def test_player_names_and_rejoin() -> None:
    world = World()
    for bad in ("Al", "a" * 17, "Al ice", "Ålice"):
        with pytest.raises(ValueError):
            world.join(bad)
    world.join("Alice")
    with pytest.raises(ValueError):
        world.join("Alice")
    world.execute("give Alice minecraft:paper")
    world.leave("Alice")
    assert world.execute("give Alice minecraft:paper") == "No player was found"
    assert world.join("Alice").count_items() == 1


def test_split_reply_like_vanilla() -> None:
    assert split_reply("") == [b""]
    chunks = split_reply("x" * 10_000)
    assert [len(c) for c in chunks] == [4096, 4096, 1808]
    assert b"".join(split_reply("é" * 5000)).decode() == "é" * 5000
    assert len(split_reply("é" * 5000)[0]) == 8192  # a 4096-character chunk can be 8,192 bytes


# -- the background-thread sandbox for the demo ----------------------------------------------------------------------------


def _enable_and_queue(world: World) -> None:
    """A Python tick function (for a world without the data pack): queue a pressed vote, re-enable it."""
    for name, scores in world.scores.items():
        if scores.get("traitors.vote"):
            world.execute(
                f'data modify storage traitors:io queue append value {{seq:1,player:"{name}",input:"vote",value:{scores["traitors.vote"]}}}'
            )
            scores["traitors.vote"] = 0
            world.unlocked.add((name, "traitors.vote"))


def test_sandbox_thread_ticks_by_itself() -> None:
    sandbox = SandboxThread(PASSWORD, tick_rate=20.0, datapack=False)
    sandbox.sandbox.world.tick_functions.append(_enable_and_queue)
    port = sandbox.start()
    try:
        sandbox.join("Alice")

        async def client() -> str:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                await rcon.command('scoreboard objectives add traitors.vote trigger {text:"Vote"}')
                await rcon.command("scoreboard players enable Alice traitors.vote")
                await rcon.command(
                    'tellraw Alice {text:"Vote",click_event:{action:"run_command",command:"/trigger traitors.vote set 5"}}'
                )
                (message,) = sandbox.chat("Alice")
                assert sandbox.click("Alice", message.click_events()[0]) == "Triggered [Vote] (set value to 5)"
                deadline = time.monotonic() + 2
                while time.monotonic() < deadline:
                    reply = await rcon.command("data get storage traitors:io queue")
                    if reply.startswith("Storage"):
                        return reply
                    await asyncio.sleep(0.02)
                return reply

        reply = asyncio.run(client())
        assert (
            reply
            == 'Storage traitors:io has the following contents: [{seq: 1, player: "Alice", input: "vote", value: 5}]'
        )
        assert sandbox.press_trigger("Alice", "traitors.vote", 1).startswith("Triggered")  # re-enabled by the tick
        log = sandbox.command_log()
        assert log[0] == (
            'scoreboard objectives add traitors.vote trigger {text:"Vote"}',
            "Created new objective [Vote]",
            "ok",
        )
        snap = sandbox.snapshot()
        assert snap["players"]["Alice"]["chat"][0] == "Vote" and snap["errors"] == []
    finally:
        sandbox.stop()
