"""``traitors build-castle`` against the sandbox over RCON: it builds, writes a castle file check-config accepts,
refuses a non-empty area without --force, and --remove restores air where it built."""

from __future__ import annotations

import asyncio
import importlib.resources
from pathlib import Path

import pytest

from bridge.app.build_castle import CastleRefused, build, record_path
from bridge.app.cli import main
from bridge.config.castle_file import load_castle
from bridge.config.loader import check_files
from bridge.io.rcon import RconClient
from bridge.minecraft.castle.blueprint import plan_castle
from bridge.minecraft.castle.survey import BuildRecord, castle_spots
from bridge.sandbox.server import SandboxThread

PASSWORD = "castle-test-password"
SERIES = Path(str(importlib.resources.files("world_config").joinpath("series/traitors-12.toml")))


@pytest.fixture
def sandbox():
    s = SandboxThread(PASSWORD)
    port = s.start()
    try:
        yield s, port
    finally:
        s.stop()


def _serve_toml(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "serve.toml"
    path.write_text(f'series = "{SERIES}"\n[rcon]\nport = {port}\n', encoding="utf-8")
    return path


def _cli(tmp_path: Path, port: int, *extra: str) -> int:
    return main(
        [
            "build-castle",
            "--config",
            str(_serve_toml(tmp_path, port)),
            "--out",
            str(tmp_path / "castle.toml"),
            "--origin",
            "1000",
            "70",
            "-500",
            "--seats",
            "12",
            *extra,
        ]
    )


def test_build_writes_a_castle_file_of_standable_places_and_remove_restores_air(sandbox, tmp_path, monkeypatch, capsys):
    s, port = sandbox
    monkeypatch.setenv("CASTLE_RCON_PASSWORD", PASSWORD)
    s.call(lambda: s.world.blocks.place((900, 70, -500), "minecraft:stone"))  # outside the castle: kept
    assert _cli(tmp_path, port) == 0
    out = capsys.readouterr().out
    assert "built the castle: " in out and " commands in " in out
    castle = load_castle(tmp_path / "castle.toml")
    assert castle == plan_castle((1000, 70, -500), 12).castle
    ok, problems = check_files([str(tmp_path / "castle.toml")])
    assert problems == [] and ok
    blocks = s.world.blocks
    assert s.call(lambda: [n for n, loc in castle_spots(castle) if not blocks.standable(loc.x, loc.y, loc.z)]) == []
    record = BuildRecord.from_json(record_path(tmp_path / "castle.toml").read_text(encoding="utf-8"))
    assert record.origin == (1000, 70, -500) and record.seats == 12 and record.overwritten == 0
    assert s.call(lambda: len(blocks)) > 10000 and s.world.errors == []

    assert _cli(tmp_path, port, "--remove") == 0
    assert "removed the castle" in capsys.readouterr().out
    assert s.call(lambda: dict(blocks.items())) == {(900, 70, -500): "minecraft:stone"}
    assert not record_path(tmp_path / "castle.toml").exists()


def test_a_block_in_the_way_is_refused_without_force_and_built_over_with_it(sandbox, tmp_path, monkeypatch, capsys):
    s, port = sandbox
    monkeypatch.setenv("CASTLE_RCON_PASSWORD", PASSWORD)
    s.call(lambda: s.world.blocks.place((1010, 75, -480), "minecraft:oak_log"))
    assert _cli(tmp_path, port) == 1
    err = capsys.readouterr().err
    assert err.startswith("traitors: 1 blocks that are not air") and "--force" in err and len(err.splitlines()) == 1
    assert s.call(lambda: dict(s.world.blocks.items())) == {(1010, 75, -480): "minecraft:oak_log"}  # untouched
    assert not (tmp_path / "castle.toml").exists()
    assert _cli(tmp_path, port, "--force") == 0
    assert "1 blocks that were not air overwritten" in capsys.readouterr().out
    assert BuildRecord.from_json(record_path(tmp_path / "castle.toml").read_text()).overwritten == 1


def test_an_out_folder_that_does_not_exist_is_refused_before_anything_is_built(sandbox, tmp_path, monkeypatch, capsys):
    s, port = sandbox
    monkeypatch.setenv("CASTLE_RCON_PASSWORD", PASSWORD)
    out = tmp_path / "no such folder" / "castle.toml"
    assert (
        main(
            [
                "build-castle",
                "--config",
                str(_serve_toml(tmp_path, port)),
                "--out",
                str(out),
                "--origin",
                "1000",
                "70",
                "-500",
                "--seats",
                "12",
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.startswith(f"traitors: --out {out}: the folder ") and len(err.splitlines()) == 1
    assert not any(r.text.startswith(("fill", "setblock")) for r in s.call(lambda: list(s.world.command_log)))


def test_a_refused_command_stops_the_build_with_its_reply(sandbox):
    s, port = sandbox

    async def run() -> None:
        async with RconClient("127.0.0.1", port, PASSWORD) as rcon:

            async def send(cmd: str) -> str:
                return await rcon.command(cmd.replace("minecraft:glass", "minecraft:no_such_glass"))

            await build(send, plan_castle((0, 64, 0), 2))

    with pytest.raises(CastleRefused, match="no_such_glass"):
        asyncio.run(run())


def test_dry_run_sends_nothing_and_can_list_every_command(capsys):
    assert main(["build-castle", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("the castle: ") and "16 seats; nothing sent" in out
    assert main(["build-castle", "--dry-run", "--commands", "--seats", "4", "--origin", "0", "64", "0"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines == plan_castle((0, 64, 0), 4).commands()
    assert "4 seats" in captured.err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--seats", "17"], "seats must be 1..16"),
        (["--origin", "0", "310", "0"], "origin y 310"),
        (["--origin", "29999960", "64", "0"], "past the world border"),
        (["--remove", "--out", "nowhere/castle.toml"], "no build record"),
        ([], "--config"),
    ],
)
def test_bad_options_are_one_line_with_exit_2(argv, words, capsys):
    assert main(["build-castle", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1


def test_the_sandbox_process_world_starts_with_the_shipped_castle_standing():
    from bridge.app.build_castle import place_demo_castle
    from bridge.config.castle import default_castle
    from bridge.sandbox.blocks import Blocks

    blocks = Blocks()
    plan = place_demo_castle(blocks)
    assert plan.castle == default_castle()
    assert [n for n, loc in castle_spots(plan.castle) if not blocks.standable(loc.x, loc.y, loc.z)] == []
