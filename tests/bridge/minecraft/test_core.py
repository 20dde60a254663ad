"""bridge/minecraft/core.py (and the checks every builder makes): player names, the one selector, bad values."""

from __future__ import annotations

import pytest

from bridge.minecraft import commands as mc
from bridge.minecraft.core import McCommand
from bridge.minecraft.text import RunCommand


@pytest.mark.parametrize("name", ["Alice", "abc", "A_b_9", "x" * 16, "___"])
def test_player_name_ok(name: str) -> None:
    assert mc.player_name(name) == name


@pytest.mark.parametrize("name", ["ab", "x" * 17, "Al ice", "@a", "Al\"ice", "Alicé", "", "a;b", "a\nb"])
def test_player_name_rejected(name: str) -> None:
    with pytest.raises(ValueError):
        mc.player_name(name)


@pytest.mark.parametrize("target", ["@e", "@p", "@s", "@r", "@a[tag=x]", "*"])
def test_only_at_a_selector(target: str) -> None:
    with pytest.raises(ValueError):
        mc.tellraw(target, mc.text_component("x"))


def test_bad_values_rejected() -> None:
    with pytest.raises(ValueError):
        mc.gamerule("sendCommandFeedback", False)
    with pytest.raises(ValueError):
        mc.gamemode("hardcore", "Alice")
    with pytest.raises(ValueError):
        mc.teleport("Alice", float("nan"), 0, 0)
    with pytest.raises(ValueError):
        mc.teleport("Alice", 0, 0, 0, 0, 91)
    with pytest.raises(ValueError):
        mc.text_component("x", color="rainbow")
    with pytest.raises(ValueError):
        mc.text_component("x", click=RunCommand("trigger traitors.vote"))
    with pytest.raises(ValueError):
        mc.queue_ack(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        mc.bossbar_set_max("traitors:clock", 0)
    with pytest.raises(ValueError):
        McCommand("/say hi")


def test_already_exists_replies() -> None:
    assert mc.is_already_exists("An objective already exists by that name")
    assert mc.is_already_exists("A bossbar already exists with the ID 'traitors:clock'")
    assert not mc.is_already_exists("Created new objective [Vote]")
