"""The sandbox's ``version`` and ``reload`` commands, and players' ``Pos``/``Rotation`` (``bridge/sandbox/versioned.py``,
``bridge/sandbox/positions.py``)."""

from __future__ import annotations

from bridge.minecraft.syntax import check_command
from bridge.minecraft.versions import names, version_named
from bridge.sandbox import Sandbox


def test_version_answers_for_the_release_the_sandbox_stands_in_for() -> None:
    for name in names():
        v = version_named(name)
        reply = Sandbox("pw", tick_rate=0, datapack=False, version=v).world.execute("version")
        assert reply.startswith("Server version info:") and "Castle sandbox, not Minecraft" in reply
        assert f"protocol = {v.protocol} ({hex(v.protocol)})" in reply
        assert f"pack_data = {v.data_pack[0]}.{v.data_pack[1]}" in reply
    check_command("version")
    check_command("reload")


def test_reload_runs_the_load_functions_again() -> None:
    world = Sandbox("pw", tick_rate=0).world
    world.objectives.pop("traitors.vote")
    assert world.execute("reload") == "Reloading!"
    assert "traitors.vote" in world.objectives  # traitors:load made it again


def test_pos_and_rotation_are_read_as_vanilla_writes_them() -> None:
    world = Sandbox("pw", tick_rate=0, datapack=False).world
    world.join("Alice")
    world.execute("tp Alice 10.25 70.0 -3.5 45.0 10.0")
    assert world.execute("data get entity Alice Pos") == "Alice has the following entity data: [10.25d, 70.0d, -3.5d]"
    assert world.execute("data get entity Alice Rotation") == "Alice has the following entity data: [45.0f, 10.0f]"
    assert world.execute("data get entity Bob Pos") == "No entity was found"
    assert world.execute("data get entity Alice UUID").startswith("Alice has the following entity data: [I; ")
