"""The server's Minecraft release, learnt at start (``bridge/loop/version.py``)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bridge.config.castle import default_castle
from bridge.io.msmp import MsmpClient
from bridge.io.rcon import RconClient
from bridge.loop.runner import run_series
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore
from bridge.loop.version import KNOWN, NEWER, UNKNOWN, UnsupportedVersion, detect_version, judge, parse_version_reply
from bridge.minecraft.versions import NEWEST, OLDEST, SUPPORTED, names, version_named
from bridge.sandbox import Sandbox
from bridge.sandbox.versioned import version_reply
from engine.rulesets import new_game
from engine.rulesets.traitors.settings import Settings

PASSWORD = "version-pw"
SECRET = "V3rs10nSecretV3rs10nSecretV3rs10nSecret1"


def test_every_supported_protocol_maps_to_its_release() -> None:
    for v in SUPPORTED:
        found = judge(v.protocol, v.name, "msmp")
        assert (found.forms, found.support) == (v, KNOWN)


def test_an_older_release_is_refused_in_one_line() -> None:
    with pytest.raises(UnsupportedVersion) as info:
        judge(769, "1.21.4", "rcon")
    text = str(info.value)
    assert "\n" not in text and "1.21.4 (protocol 769), older than 1.21.11" in text
    assert ", ".join(names()) in text


@pytest.mark.parametrize(("protocol", "kind"), [(778, "newer"), (0x40000000 + 360, "a snapshot, newer")])
def test_a_newer_release_or_a_snapshot_runs_with_the_newest_forms(protocol: int, kind: str) -> None:
    found = judge(protocol, "26.4", "msmp")
    assert found.forms is NEWEST and found.support == NEWER
    assert f"is {kind} than {NEWEST.name}" in found.summary and "the data pack still loads" in found.summary


def test_nothing_learnt_means_the_oldest_forms() -> None:
    found = judge(None)
    assert found.forms is OLDEST and found.support == UNKNOWN and "unknown" in found.summary


def test_the_rcon_version_reply_is_read_with_or_without_newlines() -> None:
    for name in names():
        v = version_named(name)
        assert parse_version_reply(version_reply(v)) == (v.protocol, f"{name} (Castle sandbox, not Minecraft)")
    lines = "Server version info:\nid = 26.3\nname = 26.3\ndata = 5023\nseries = main\nprotocol = 777 (0x309)\n"
    assert parse_version_reply(lines) == (777, "26.3")
    assert parse_version_reply("Unknown or incomplete command, see below for error") == (None, "")


@pytest.mark.parametrize("name", names())
def test_detect_prefers_msmp_and_falls_back_to_rcon(name: str) -> None:
    async def main() -> None:
        v = version_named(name)
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=False, msmp_secret=SECRET, msmp_tls=False, version=v)
        await sb.start()
        try:
            async with RconClient("127.0.0.1", sb.port or 0, PASSWORD) as rcon:
                async with MsmpClient(f"ws://127.0.0.1:{sb.msmp_port}", SECRET, timeout=2) as msmp:
                    over_msmp = await detect_version(rcon, msmp)
                over_rcon = await detect_version(rcon, None)
            assert (over_msmp.forms, over_msmp.source) == (v, "msmp")
            assert (over_rcon.forms, over_rcon.source, over_rcon.protocol) == (v, "rcon", v.protocol)
            assert [r.text for r in sb.world.command_log] == ["version"]  # MSMP answered first: no RCON call
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_server_without_the_version_command_is_unknown_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=False)
        sb.world.commands = {k: h for k, h in sb.world.commands.items() if k != "version"}
        await sb.start()
        try:
            async with RconClient("127.0.0.1", sb.port or 0, PASSWORD) as rcon:
                with caplog.at_level(logging.WARNING, logger="bridge.loop.version"):
                    found = await detect_version(rcon)
            assert found.support == UNKNOWN and found.forms is OLDEST
        finally:
            await sb.stop()

    asyncio.run(main())
    assert any("version is unknown" in r.getMessage() for r in caplog.records)


def test_the_service_keeps_the_release_it_learnt() -> None:
    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=False, version=version_named("26.2"))
        await sb.start()
        try:
            names6 = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")
            game = new_game(Settings(contestants=names6, traitors=1), 1)
            async with RconClient("127.0.0.1", sb.port or 0, PASSWORD) as rcon:
                service = SeriesService(game, rcon, default_castle())
                assert service.mc_version is OLDEST  # until learnt
                await service.learn_version()
            assert service.mc_version is version_named("26.2") and service.server_version.source == "rcon"
        finally:
            await sb.stop()

    asyncio.run(main())


def test_the_operator_guide_lists_the_versions_table() -> None:
    guide = (Path(__file__).parents[3] / "docs" / "operator.md").read_text(encoding="utf-8")
    rows = [line for line in guide.splitlines() if line.startswith("| ") and line.count("|") == 8]
    shown = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[1:]]
    assert shown == [
        [
            v.name,
            v.released,
            str(v.protocol),
            f"{v.data_pack[0]}.{v.data_pack[1]}",
            f"{v.resource_pack[0]}.{v.resource_pack[1]}",
            v.msmp,
            str(v.java),
        ]
        for v in SUPPORTED
    ]


def test_run_series_refuses_an_older_server_before_anything_is_sent(tmp_path: Path) -> None:
    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=False)
        sb.world.commands = {
            **sb.world.commands,
            "version": lambda *_a: (
                "Server version info:id = 1.21.10name = 1.21.10data = 4556series = mainprotocol = 773 (0x305)"
            ),
        }
        await sb.start()
        try:
            names6 = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")
            with SeriesStore(tmp_path / "series.db") as store:
                series = store.create(Settings(contestants=names6, traitors=1), 1).id
                async with RconClient("127.0.0.1", sb.port or 0, PASSWORD) as rcon:
                    with pytest.raises(UnsupportedVersion, match="1.21.10 .protocol 773., older than 1.21.11"):
                        await run_series(store, series, rcon, default_castle(), stop_signals=False)
            assert [r.text for r in sb.world.command_log] == ["version"]
        finally:
            await sb.stop()

    asyncio.run(main())
