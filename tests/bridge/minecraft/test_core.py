"""bridge/minecraft/core.py (and the checks every builder makes): player names, the one selector, bad values."""

from __future__ import annotations

import pytest

from bridge.minecraft.core import McCommand, player_name
from bridge.minecraft.display import tellraw
from bridge.minecraft.scoreboard import bossbar_set_max, is_already_exists
from bridge.minecraft.storage import queue_ack
from bridge.minecraft.text import RunCommand, text_component
from bridge.minecraft.world import gamemode, gamerule, teleport


@pytest.mark.parametrize("name", ["Alice", "abc", "A_b_9", "x" * 16, "___"])
def test_player_name_ok(name: str) -> None:
    assert player_name(name) == name


@pytest.mark.parametrize("name", ["ab", "x" * 17, "Al ice", "@a", 'Al"ice', "Alicé", "", "a;b", "a\nb"])
def test_player_name_rejected(name: str) -> None:
    with pytest.raises(ValueError):
        player_name(name)


@pytest.mark.parametrize("target", ["@e", "@p", "@s", "@r", "@a[tag=x]", "*"])
def test_only_at_a_selector(target: str) -> None:
    with pytest.raises(ValueError):
        tellraw(target, text_component("x"))


def test_bad_values_rejected() -> None:
    with pytest.raises(ValueError):
        gamerule("sendCommandFeedback", False)
    with pytest.raises(ValueError):
        gamemode("hardcore", "Alice")
    with pytest.raises(ValueError):
        teleport("Alice", float("nan"), 0, 0)
    with pytest.raises(ValueError):
        teleport("Alice", 0, 0, 0, 0, 91)
    with pytest.raises(ValueError):
        text_component("x", color="rainbow")
    with pytest.raises(ValueError):
        text_component("x", click=RunCommand("trigger traitors.vote"))
    with pytest.raises(ValueError):
        queue_ack(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        bossbar_set_max("traitors:clock", 0)
    with pytest.raises(ValueError):
        McCommand("/say hi")


def test_already_exists_replies() -> None:
    assert is_already_exists("An objective already exists by that name")
    assert is_already_exists("A bossbar already exists with the ID 'traitors:clock'")
    assert not is_already_exists("Created new objective [Vote]")
