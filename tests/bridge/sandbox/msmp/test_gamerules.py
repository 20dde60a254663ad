"""Game rules over MSMP as a 1.21.11 server answers them: every rule of the registry, keyed by its namespaced id
(``bridge/sandbox/msmp/gamerules.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from bridge.errors import MsmpError
from bridge.io.msmp import MsmpClient
from bridge.sandbox import Sandbox
from bridge.sandbox.model import GAMERULES
from tests.bridge.sandbox.msmp.conftest import run, settle


def test_gamerules_lists_every_vanilla_rule_with_its_namespaced_key_type_and_default() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        rules = {r["key"]: r for r in await client.call("minecraft:gamerules")}
        assert len(rules) == 59 == len(GAMERULES)
        assert all(key.startswith("minecraft:") for key in rules)
        assert rules["minecraft:advance_time"] == {"key": "minecraft:advance_time", "type": "boolean", "value": True}
        assert rules["minecraft:random_tick_speed"] == {
            "key": "minecraft:random_tick_speed",
            "type": "integer",
            "value": 3,
        }
        assert rules["minecraft:send_command_feedback"]["value"] is True
        assert rules["minecraft:keep_inventory"]["value"] is False

    run(body)


def test_update_takes_the_namespaced_key_or_the_bare_name_and_answers_the_namespaced_key() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        got = await client.call("minecraft:gamerules/update", [{"key": "minecraft:advance_time", "value": False}])
        assert got == {"key": "minecraft:advance_time", "type": "boolean", "value": False}
        got = await client.call("minecraft:gamerules/update", [{"key": "random_tick_speed", "value": 0}])
        assert got == {"key": "minecraft:random_tick_speed", "type": "integer", "value": 0}
        assert sb.world.gamerules == {"advance_time": "false", "random_tick_speed": "0"}
        rules = {r["key"]: r["value"] for r in await client.call("minecraft:gamerules")}
        assert rules["minecraft:advance_time"] is False
        await settle()
        assert notes == [
            ("gamerules/updated", {"gamerule": {"key": "minecraft:advance_time", "type": "boolean", "value": False}}),
            ("gamerules/updated", {"gamerule": {"key": "minecraft:random_tick_speed", "type": "integer", "value": 0}}),
        ]

    run(body)


@pytest.mark.parametrize(
    "rule",
    [
        {"key": "minecraft:no_such_rule", "value": True},  # not in the registry
        {"key": "sendCommandFeedback", "value": False},  # the camelCase name of 1.21.10 and before
        {"key": "other:advance_time", "value": True},  # another namespace
        {"key": "minecraft:advance_time", "value": 1},  # a boolean rule takes a boolean
        {"key": "minecraft:random_tick_speed", "value": True},  # an integer rule takes an integer
        {"key": "minecraft:max_snow_accumulation_height", "value": 9},  # over its maximum (8)
    ],
)
def test_update_refuses_unknown_rules_and_wrong_values(rule: dict[str, Any]) -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        with pytest.raises(MsmpError) as info:
            await client.call("minecraft:gamerules/update", [rule])
        assert info.value.code == -32602
        assert sb.world.gamerules == {}

    run(body)
