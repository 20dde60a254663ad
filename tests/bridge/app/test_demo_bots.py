"""The demo's bots answer only in a settled world (``bridge.sandbox.quiet.settled``): a press waiting for the data
pack's tick, or an input the service has not acked, holds every other answer back, so the inputs reach the queue
in an order the seed decides, however the bots' passes fall between the ticks and the service's sends."""

from __future__ import annotations

import json

from bridge.app.demo_bots import Bot, _step
from bridge.sandbox import Sandbox, quiet
from bridge.sandbox.world import World


def _world(*names: str) -> World:
    world = Sandbox("pw").world  # never started: it ticks only when the test says so
    for name in names:
        world.join(name)
    world.tick()  # the data pack enables every trigger of every player
    return world


def _link(world: World, name: str, value: int) -> None:
    """Show ``name`` a chat line whose link presses ``traitors.vote`` with ``value`` (the chat fallback)."""
    line = {"text": "vote", "click_event": {"action": "run_command", "command": f"/trigger traitors.vote set {value}"}}
    before = len(world.players[name].chat)
    world.execute(f"tellraw {name} {json.dumps(line)}")
    assert len(world.players[name].chat) == before + 1


def test_a_bot_answers_only_once_every_earlier_press_was_queued_and_acked() -> None:
    world = _world("Alex", "Kai", "Host")
    alex, kai = Bot("Alex", 1, closes_dialogs=True), Bot("Kai", 1, closes_dialogs=True)
    bots = [alex, kai]
    _link(world, "Kai", 1)
    world.press_trigger("Host", "traitors.vote", 9)  # a press the tick has not queued yet
    for _ in range(10):  # a bot's delay is at most 3 passes
        _step(world, bots)
    assert kai.clicked == 0 and kai.pending  # read, but held back
    world.execute("scoreboard players set Host traitors.vote 0")  # taken away, as if never pressed
    world.execute("scoreboard players enable Host traitors.vote")
    for _ in range(10):
        _step(world, bots)
    assert kai.clicked == 1  # his pass ran a tick: his press is queued, not acked yet
    [entry] = world.storage_python("traitors:io")["queue"]
    assert entry["value"] == 1 and not quiet.triggers_pending(world) and not quiet.settled(world)
    _link(world, "Alex", 2)
    for _ in range(10):
        _step(world, bots)
    assert alex.clicked == 0 and alex.pending  # held back until the service has taken Kai's input
    world.execute(f"data remove storage traitors:io queue[{{seq:{entry['seq']}}}]")  # the service's ack
    assert quiet.settled(world)
    for _ in range(10):
        _step(world, bots)
    assert alex.clicked == 1 and not alex.pending
    [then] = world.storage_python("traitors:io")["queue"]
    assert then["value"] == 2 and then["seq"] == entry["seq"] + 1


def test_a_bot_holds_its_answer_until_the_tick_has_enabled_a_newcomers_triggers() -> None:
    """A player who joined since the last tick cannot press yet ("You cannot trigger this objective yet"): a
    prompt shown in that window is answered after the data pack's tick has enabled the triggers, so it is heard."""
    world = _world("Alex")
    world.join("Kai")
    kai = Bot("Kai", 1, closes_dialogs=True)
    _link(world, "Kai", 4)
    assert quiet.triggers_pending(world) and not quiet.settled(world)
    for _ in range(10):
        _step(world, [kai])
    assert kai.clicked == 0 and kai.pending
    world.tick()
    assert quiet.settled(world)
    for _ in range(10):
        _step(world, [kai])
    assert kai.clicked == 1
    assert not any("cannot trigger" in str(m.component) for m in world.players["Kai"].chat)
    [entry] = world.storage_python("traitors:io")["queue"]
    assert entry["input"] == "vote" and entry["value"] == 4


def test_the_presses_of_one_pass_are_queued_by_one_tick_in_the_player_lists_order() -> None:
    world = _world("Alex", "Kai", "Zuri")
    bots = [Bot(name, 3, closes_dialogs=True) for name in ("Zuri", "Kai", "Alex")]  # not the player list's order
    for value, name in enumerate(("Alex", "Kai", "Zuri"), start=1):
        _link(world, name, value)
    for bot in bots:  # each reads its link; make every answer due at the next pass
        bot.read(list(world.players[bot.name].chat), [])
        bot.pending = [(0, commands, source) for _, commands, source in bot.pending]
    _step(world, bots)  # the pass's presses, queued by the tick it runs
    assert [b.clicked for b in bots] == [1, 1, 1]
    assert [e["value"] for e in world.storage_python("traitors:io")["queue"]] == [1, 2, 3]
