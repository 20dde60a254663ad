"""``traitors rehearse`` against the sandbox of every supported release: the live conformance suite run on our own
stand-in (``docs/operator.md#rehearse``)."""

from __future__ import annotations

import asyncio
import io
import os
import secrets
from pathlib import Path

import pytest

from bridge.app.build_castle import place_demo_castle
from bridge.app.cli import main
from bridge.app.rehearse import CHECKS, FAIL, OK, SKIP, Rehearsal, format_table, rehearse
from bridge.app.serve import init_config
from bridge.config.castle import default_castle
from bridge.io.msmp import MsmpClient
from bridge.io.rcon import RconClient
from bridge.minecraft.castle.survey import castle_spots
from bridge.minecraft.versions import names, version_named
from bridge.sandbox import Sandbox
from bridge.sandbox.server import SandboxThread

PASSWORD = "rehearse-rcon-Pw"
SECRET = "R3h3arseSecretR3h3arseSecretR3h3arse1234"
PLAYER = "Alice"


async def _rehearse(sb: Sandbox, player: str | None = PLAYER, *, msmp: bool = True) -> list[tuple[str, str, str]]:
    assert sb.port is not None
    async with RconClient("127.0.0.1", sb.port, PASSWORD, timeout=5) as rcon:
        client = None
        if msmp and sb.msmp_url is not None:
            client = MsmpClient(sb.msmp_url, SECRET, timeout=5, ca_file=sb.msmp_cert_file)
            await client.start()
        try:
            rows = await rehearse(Rehearsal(rcon, client, default_castle(), player))
        finally:
            if client is not None:
                await client.close()
    print(format_table(rows))  # shown by pytest -s, and on failure
    return [(r.check, r.result, r.detail) for r in rows]


@pytest.mark.parametrize("name", names())
def test_every_check_passes_on_the_sandbox_of_each_release(name: str) -> None:
    async def main_() -> None:
        version = version_named(name)
        sb = Sandbox(PASSWORD, msmp_secret=SECRET, version=version, startup_delay=0.2)
        place_demo_castle(sb.world.blocks)
        await sb.start()
        sb.world.join(PLAYER)
        try:
            rows = await _rehearse(sb)
            assert [c for c, _, _ in rows] == [*CHECKS, "cleanup"]
            assert [(c, res) for c, res, _ in rows if res != OK] == []
            assert f"protocol {version.protocol}) over MSMP: supported as {name}" in rows[0][2]
            assert f"MSMP {version.msmp}" in rows[1][2]
            assert {c: d for c, _, d in rows}["places"] == f"{len(castle_spots(default_castle()))} places standable"
            alice = sb.world.players[PLAYER]
            assert (alice.pos, alice.yaw, alice.pitch) == ((0.5, 64.0, 0.5), 0.0, 0.0)  # put back
            assert alice.inventory == [] and alice.dialog is None and alice.title is None
            assert "castle.rehearse" not in sb.world.objectives and sb.world.bossbars == {}
            assert sb.world.errors == []
            seats = [r.text for r in sb.world.command_log if r.text.startswith(f"tp {PLAYER} ")]
            assert len(seats) == len(default_castle().seats) + 1  # every seat, and back
            assert all("castle.rehearse" not in scores for scores in sb.world.scores.values())
            assert sb.world.storage["traitors:rehearse"] == {}  # vanilla keeps an emptied storage too
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_without_a_player_the_player_checks_are_skipped_and_the_rest_pass() -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, version=version_named("26.2"))  # no MSMP: the version over RCON
        place_demo_castle(sb.world.blocks)
        await sb.start()
        try:
            rows = {c: (res, detail) for c, res, detail in await _rehearse(sb, None)}
            assert rows["version"][0] == OK and "over RCON: supported as 26.2" in rows["version"][1]
            assert rows["msmp"][0] == SKIP
            for check in ("dialog", "book", "title", "give/clear", "teleport"):
                assert rows[check] == (SKIP, "give --player NAME (an online player) to check it")
            assert rows["tellraw"][0] == OK and "No player was found" in rows["tellraw"][1]
            assert all(res != FAIL for res, _ in rows.values())
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_a_failing_check_is_reported_and_the_rest_still_run_and_clean_up() -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        await sb.start()
        sb.world.join(PLAYER)
        sb.world.datapacks["file/traitors"] = False
        sb.world.commands = {k: v for k, v in sb.world.commands.items() if k != "title"}  # a server without it
        try:
            rows = {c: (res, detail) for c, res, detail in await _rehearse(sb)}
            assert rows["datapack"][0] == FAIL and "file/traitors is not enabled" in rows["datapack"][1]
            assert rows["title"][0] == FAIL and "title refused" in rows["title"][1]
            assert rows["bossbar"][0] == OK and rows["teleport"][0] == OK
            assert rows["cleanup"][0] == OK
            assert sb.world.bossbars == {} and sb.world.players[PLAYER].inventory == []
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_places_not_standable_fail_by_name_and_forceload_is_released() -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)  # an empty world: no castle where the castle file says
        plan = place_demo_castle(sb.world.blocks)
        seat = default_castle().seats[2]
        sb.world.blocks.place((int(seat.x // 1), int(seat.y // 1) + 1, int(seat.z // 1)), "minecraft:stone")
        await sb.start()
        try:
            rows = {c: (res, detail) for c, res, detail in await _rehearse(sb, None)}
            assert rows["places"] == (FAIL, "seat 3: the head is not in air")
            assert rows["cleanup"][0] == OK
            assert plan.seats == len(default_castle().seats)
        finally:
            await sb.stop()
        empty = Sandbox(PASSWORD, tick_rate=0)
        await empty.start()
        try:
            rows = {c: (res, detail) for c, res, detail in await _rehearse(empty, None)}
            assert rows["places"][0] == FAIL and "seat 1: the block under the feet is air" in rows["places"][1]
        finally:
            await empty.stop()

    asyncio.run(main_())


def test_an_older_server_fails_the_version_check() -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=False)
        sb.world.commands = {
            **sb.world.commands,
            "version": lambda *_a: (
                "Server version info:id = 1.21.4name = 1.21.4data = 4189series = mainprotocol = 769 (0x301)"
            ),
        }
        await sb.start()
        try:
            rows = {c: (res, detail) for c, res, detail in await _rehearse(sb, None)}
            assert rows["version"][0] == FAIL and "older than 1.21.11" in rows["version"][1]
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_cli_rehearse_prints_the_table_and_exits_by_the_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    password = secrets.token_urlsafe(12)
    sandbox = SandboxThread(password, version=version_named("26.1"))
    place_demo_castle(sandbox.world.blocks)
    port = sandbox.start()
    try:
        sandbox.join(PLAYER)
        init_config(tmp_path)  # the shipped castle, series files and serve.toml (without MSMP here)
        serve = (tmp_path / "serve.toml").read_text().replace("port = 25575", f"port = {port}")
        (tmp_path / "serve.toml").write_text(serve.split("[msmp]")[0])
        monkeypatch.setattr(os, "environ", {"CASTLE_RCON_PASSWORD": password})
        assert main(["rehearse", "--config", str(tmp_path / "serve.toml"), "--player", PLAYER]) == 0
        out = capsys.readouterr().out
        assert out.splitlines()[0].split() == ["check", "result", "detail"]
        assert "supported as 26.1" in out and out.rstrip().endswith("Every check passed.")
        sandbox.call(lambda: sandbox.world.datapacks.update({"file/traitors": False}))
        assert main(["rehearse", "--config", str(tmp_path / "serve.toml")]) == 1
        out = capsys.readouterr().out
        assert "1 check(s) failed: report this table" in out
        assert main(["rehearse", "--config", str(tmp_path / "serve.toml"), "--player", "no such"]) == 2
        assert "--player" in capsys.readouterr().err
        sent = len(sandbox.command_log())
        assert main(["rehearse", "--config", str(tmp_path / "serve.toml"), "--player", "Nobody"]) == 2
        err = capsys.readouterr().err
        assert (
            err.startswith(f"traitors: --player Nobody: not online (online: {PLAYER})") and len(err.splitlines()) == 1
        )
        assert [text for text, _, _ in sandbox.command_log()[sent:]] == ["list uuids"]  # no check ran
    finally:
        sandbox.stop()


def test_table_format() -> None:
    from bridge.app.rehearse import Row

    text = format_table([Row("version", OK, "26.3"), Row("book", FAIL, "give refused")])
    assert text.splitlines() == [
        "check    result  detail",
        "version  ok      26.3",
        "book     FAIL    give refused",
        "1 check(s) failed: report this table with the server's version.",
    ]
    assert io.StringIO(text).readline().startswith("check")
