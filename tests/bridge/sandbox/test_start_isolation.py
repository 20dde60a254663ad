"""Sandboxes started in one process share what never changes (parsed function lines, the built demo castle) and
nothing a world changes: each has its own blocks, block entities, scores and storage."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.app.build_castle import place_demo_castle
from bridge.minecraft.datapack import write_pack
from bridge.minecraft.versions import OLDEST, version_named
from bridge.sandbox import Sandbox
from bridge.sandbox.datapack import Datapack, DatapackError

HEAD = 'minecraft:player_head{profile:{name:"Alex"}}'


def _castle_sandbox() -> Sandbox:
    sandbox = Sandbox("pw", tick_rate=0)
    place_demo_castle(sandbox.world.blocks)
    return sandbox


def test_a_world_change_stays_in_its_own_sandbox() -> None:
    before, first = _castle_sandbox(), _castle_sandbox()  # the second castle may be a copy of the first
    wall, floor = sorted(first.world.blocks.items())[:2]
    (wx, wy, wz), (fx, fy, fz) = wall[0], floor[0]
    assert dict(first.world.blocks.items()) == dict(before.world.blocks.items())  # the same castle in both
    for command in (
        f"forceload add {wx} {wz} {fx} {fz}",
        f"setblock {wx} {wy} {wz} minecraft:gold_block",
        f"setblock {fx} {fy} {fz} {HEAD}",
        "scoreboard objectives add probe dummy",
        "scoreboard players set #probe probe 7",
        "data modify storage traitors:probe value set value 3",
    ):
        first.world.execute(command)
    assert first.world.errors == [], first.world.errors
    assert first.world.blocks.get(wall[0]) == "minecraft:gold_block"
    assert first.world.blocks.entity(floor[0]) is not None
    assert first.world.storage_python("traitors:probe") == {"value": 3}
    for other in (before, _castle_sandbox()):  # one made before the changes and one after
        assert other.world.blocks.get(wall[0]) == wall[1] and other.world.blocks.get(floor[0]) == floor[1]
        assert other.world.blocks.entity(floor[0]) is None
        assert "probe" not in other.world.objectives and "#probe" not in other.world.scores
        assert other.world.storage_python("traitors:probe") == {}


def test_a_castle_in_a_model_that_is_not_empty_is_built_there() -> None:
    sandbox = Sandbox("pw", tick_rate=0, datapack=False)
    fresh = _castle_sandbox()
    outside = (10_000, 70, 10_000)
    sandbox.world.blocks.place(outside, "minecraft:stone")
    place_demo_castle(sandbox.world.blocks)
    assert sandbox.world.blocks.get(outside) == "minecraft:stone"
    assert len(sandbox.world.blocks) == len(fresh.world.blocks) + 1


def _probe_pack(root: Path, base: str, newest: str | None = None) -> Path:
    pack = write_pack(root)
    for folder, text in (("", base), ("ov_26_3/", newest)):
        if text is not None:
            function = pack / f"{folder}data/traitors/function/probe.mcfunction"
            function.parent.mkdir(parents=True, exist_ok=True)
            function.write_text(text, encoding="utf-8")
    return pack


def test_each_release_runs_its_own_text_of_a_function(tmp_path: Path) -> None:
    root = _probe_pack(
        tmp_path / "pack", "scoreboard players set #probe probe 1\n", "scoreboard players set #probe probe 2\n"
    )
    for name, expected in (("1.21.11", 1), ("26.3", 2)):
        sandbox = Sandbox("pw", tick_rate=0, datapack=root, version=version_named(name))
        sandbox.world.execute("scoreboard objectives add probe dummy")
        sandbox.world.execute("function traitors:probe")
        assert sandbox.world.scores["#probe"]["probe"] == expected, name


def test_the_same_text_is_parsed_once_and_a_bad_line_fails_every_time(tmp_path: Path) -> None:
    one, two = (Datapack.load(_probe_pack(tmp_path / n, "say hi\n"), OLDEST) for n in ("a", "b"))
    assert one.functions["traitors:probe"].lines[0] is two.functions["traitors:probe"].lines[0]
    assert one.functions["traitors:probe"].lines is not two.functions["traitors:probe"].lines
    for name in ("c", "d"):
        bad = _probe_pack(tmp_path / name, "say hi\nscoreboard players frob\n")
        with pytest.raises(DatapackError, match=rf"{name}/data/traitors/function/probe\.mcfunction:2"):
            Datapack.load(bad, OLDEST)
