"""The sandbox's MSMP server per release: schema and start-up order (``bridge/sandbox/msmp_server.py`` house rule
6), over a raw websocket so nothing of the client hides what the server does."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from bridge.minecraft.versions import names, version_named
from bridge.sandbox import Sandbox
from bridge.sandbox.msmp_server import SCHEMA_FILES, UPGRADE_STEPS, schema_document

SECRET = "Msmp5erverSecretMsmp5erverSecretMsmp5erv"


async def _call(ws: ClientConnection, rid: int, method: str) -> dict[str, Any]:
    await ws.send(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method}))
    while True:
        message = json.loads(await ws.recv())
        if message.get("id") == rid:
            return dict(message)


def test_each_schema_names_its_version_and_the_3x_ones_say_they_are_reconstructed() -> None:
    for version, _ in SCHEMA_FILES.items():
        doc = schema_document(version)
        assert doc["info"]["version"] == version and doc["info"]["title"] == "Minecraft Server JSON-RPC"
        assert ("x-reconstructed" in doc) == version.startswith("3.")
        upgrades = [m["name"] for m in doc["methods"] if "world/upgrade_" in m["name"]]
        assert len(upgrades) == (4 if version == "3.1.0" else 0)
        methods_2 = {m["name"] for m in schema_document("2.0.0")["methods"]}
        assert methods_2 <= {m["name"] for m in doc["methods"]}  # no method removed


@pytest.mark.parametrize("name", names())
def test_discover_and_status_report_the_release(name: str) -> None:
    async def main() -> None:
        v = version_named(name)
        sb = Sandbox("pw", tick_rate=0, datapack=False, msmp_secret=SECRET, msmp_tls=False, version=v)
        await sb.start()
        try:
            async with connect(
                f"ws://127.0.0.1:{sb.msmp_port}", additional_headers={"Authorization": f"Bearer {SECRET}"}
            ) as ws:
                assert (await _call(ws, 1, "rpc.discover"))["result"]["info"]["version"] == v.msmp
                status = (await _call(ws, 2, "minecraft:server/status"))["result"]
                assert status["started"] is True and status["version"]["protocol"] == v.protocol
                assert status["version"]["name"] == f"{name} (Castle sandbox, not Minecraft)"
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_starting_3x_server_answers_only_discovery_then_says_started() -> None:
    async def main() -> None:
        sb = Sandbox(
            "pw",
            tick_rate=0,
            datapack=False,
            msmp_secret=SECRET,
            msmp_tls=False,
            version=version_named("26.3"),
            startup_delay=2.0,  # the first notification comes after 0.4 s: time to connect on a busy machine
            upgrade_world=True,
        )
        await sb.start()
        try:
            async with connect(
                f"ws://127.0.0.1:{sb.msmp_port}", additional_headers={"Authorization": f"Bearer {SECRET}"}
            ) as ws:
                assert (await _call(ws, 1, "rpc.discover"))["result"]["info"]["version"] == "3.1.0"
                for rid, method in ((2, "minecraft:players"), (3, "minecraft:server/status")):
                    error = (await _call(ws, rid, method))["error"]
                    assert error["code"] == -32600 and "current server state" in error["message"]
                seen = []
                while not seen or seen[-1]["method"] != "minecraft:notification/server/started":
                    seen.append(json.loads(await asyncio.wait_for(ws.recv(), 2)))
                events = [m["method"].removeprefix("minecraft:notification/") for m in seen]
                assert events == [
                    "world/upgrade_started",
                    *["world/upgrade_progress"] * UPGRADE_STEPS,
                    "world/upgrade_finished",
                    "server/started",
                ]
                assert [m["params"] for m in seen[1 : 1 + UPGRADE_STEPS]] == [[0.25], [0.5], [0.75], [1.0]]
                assert "result" in await _call(ws, 4, "minecraft:players")
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_world_upgrade_needs_msmp_3_1() -> None:
    with pytest.raises(ValueError, match="26.2 .MSMP 3.0.0. reports no world upgrade"):
        Sandbox("pw", datapack=False, version=version_named("26.2"), upgrade_world=True)
    with pytest.raises(ValueError, match="startup_delay"):
        Sandbox("pw", datapack=False, startup_delay=-1)
