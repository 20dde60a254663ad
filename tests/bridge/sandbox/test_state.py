"""The sandbox's interpreter: the dispatch table decides which commands are modelled."""

from __future__ import annotations

import pytest

from bridge.sandbox.commands import COMMANDS
from bridge.sandbox.state import Unsupported, WorldState, mecha_parser
from bridge.sandbox.world import World


def test_a_command_missing_from_the_table_is_a_sandbox_error() -> None:
    world = World()
    assert world.execute("weather clear") == "Sandbox: unsupported command: weather"
    assert world.errors == ["Sandbox: unsupported command: weather [weather clear]"]
    assert world.execute("kill @a") == "Sandbox: unsupported command: kill of anything but @e[type=…,tag=…]"
    assert COMMANDS["teleport"] is COMMANDS["tp"]


def test_the_state_runs_only_what_its_table_holds() -> None:
    text = "give @a minecraft:paper"
    node = mecha_parser().parse(text, multiline=False).commands[0]
    with pytest.raises(Unsupported, match="give"):
        WorldState({}).run(node, text)
    world = WorldState(COMMANDS)
    world.join("Alice")
    assert world.run(node, text) == "Gave 1 [Paper] to Alice"
