"""Server settings, save and stop over MSMP (``bridge/sandbox/msmp/settings.py``, ``players.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bridge.errors import MsmpError
from bridge.io.msmp import MsmpClient
from bridge.sandbox import Sandbox
from bridge.sandbox.msmp.settings import DEFAULTS
from bridge.sandbox.msmp_server import schema_document
from tests.bridge.sandbox.msmp.conftest import run, settle


def test_every_schema_method_is_modelled() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        for method in schema_document()["methods"]:
            name = method["name"]
            if name.startswith("minecraft:notification/") or method.get("params") or name == "minecraft:server/stop":
                continue
            await client.call(name)  # a -32603 "does not model" would raise

    run(body)


def test_each_setting_reads_its_default_and_set_answers_the_new_value() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        assert await client.call("minecraft:serversettings/difficulty") == "easy"
        assert await client.call("minecraft:serversettings/motd") == "A Minecraft Server"
        assert await client.call("minecraft:serversettings/max_players") == 20
        for name, (_param, default) in DEFAULTS.items():
            assert await client.call(f"minecraft:serversettings/{name}") == default
        assert await client.call("minecraft:serversettings/difficulty/set", {"difficulty": "hard"}) == "hard"
        assert await client.call("minecraft:serversettings/difficulty") == "hard"
        assert await client.call("minecraft:serversettings/view_distance/set", [12]) == 12
        with pytest.raises(MsmpError) as info:
            await client.call("minecraft:serversettings/game_mode/set", ["hardcore"])
        assert info.value.code == -32602

    run(body)


def test_save_says_saving_then_saved_and_stop_answers_then_stops() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        assert await client.call("minecraft:server/save", [True]) is True
        await settle()
        assert [n[0] for n in notes] == ["server/saving", "server/saved"]
        assert await client.call("minecraft:server/stop") is True
        assert sb.msmp is not None
        for _ in range(100):
            if sb.msmp.port is None:
                break
            await asyncio.sleep(0.01)
        assert sb.msmp.port is None and sb.msmp.state.stop_requested
        await sb.restart()  # the server comes back: the management socket serves again
        assert sb.msmp.port is not None and not sb.msmp.state.stop_requested

    run(body)
