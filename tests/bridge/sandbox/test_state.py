"""The sandbox's interpreter: the dispatch table decides which commands are modelled."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bridge.minecraft import syntax
from bridge.minecraft.syntax import thread_mecha
from bridge.sandbox.commands import COMMANDS
from bridge.sandbox.datapack import Datapack
from bridge.sandbox.state import Unsupported, WorldState
from bridge.sandbox.world import World


def test_a_command_missing_from_the_table_is_a_sandbox_error() -> None:
    world = World()
    assert world.execute("weather clear") == "Sandbox: unsupported command: weather"
    assert world.errors == ["Sandbox: unsupported command: weather [weather clear]"]
    assert world.execute("kill @a") == "Sandbox: unsupported command: kill of anything but @e[type=…,tag=…]"
    assert COMMANDS["teleport"] is COMMANDS["tp"]


def test_the_state_runs_only_what_its_table_holds() -> None:
    text = "give @a minecraft:paper"
    node = thread_mecha().parse(text, multiline=False).commands[0]
    with pytest.raises(Unsupported, match="give"):
        WorldState({}).run(node, text)
    world = WorldState(COMMANDS)
    world.join("Alice")
    assert world.run(node, text) == "Gave 1 [Paper] to Alice"


def test_a_macro_line_is_parsed_once_and_a_bad_one_is_a_pack_error(tmp_path: Path) -> None:
    """A macro line parses after its arguments are put in (vanilla's macro instantiation): one that parses runs,
    parsed once however often it runs; one that does not parse does not run, and the pack error names the file,
    the line and mecha's reason."""
    (tmp_path / "pack.mcmeta").write_text('{"pack": {"description": "", "min_format": 94, "max_format": 94}}')
    fn = tmp_path / "data" / "t" / "function"
    fn.mkdir(parents=True)
    (fn / "m.mcfunction").write_text("$scoreboard players set #a n $(v)\n")
    world = World()
    world.load_datapack(Datapack.load(tmp_path))
    world.execute("scoreboard objectives add n dummy")
    parsed = []
    mc = thread_mecha()

    class Counting:
        def parse(self, text: str, **options: Any) -> Any:
            parsed.append(text)
            return mc.parse(text, **options)

    syntax.parse_tree.cache_clear()  # the process's parses so far: this test counts its own
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(syntax, "thread_mecha", Counting)
        replies = {world.execute("function t:m {v:7}") for _ in range(3)}
        assert len(replies) == 1 and not replies.pop().startswith("Function t:m")
        assert world.scores["#a"]["n"] == 7 and parsed == ["function t:m {v:7}", "scoreboard players set #a n 7"]
        world.execute('function t:m {v:"x y"}')
        assert parsed[2:] == ['function t:m {v:"x y"}', "scoreboard players set #a n x y"]
    assert world.scores["#a"]["n"] == 7  # the line did not run
    assert len(world.errors) == 1 and world.errors[0].endswith(
        "m.mcfunction:1: macro line does not parse: Expected number but got literal 'x'.: scoreboard players set #a n x y"
    )
