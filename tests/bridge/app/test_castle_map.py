"""``traitors castle-map``: the plan of a built castle (rooms, seats, homes) or of any castle file's places."""

from __future__ import annotations

import builtins
import dataclasses
import importlib.resources
from pathlib import Path

import pytest
from PIL import Image

from bridge.app.castle_map import INSTALL_HINT, blocks_of, draw_castle
from bridge.app.cli import main
from bridge.config.castle import default_castle
from bridge.minecraft.castle.blueprint import plan_castle

SHIPPED = importlib.resources.files("world_config").joinpath("castle.toml").read_text(encoding="utf-8")


def test_the_shipped_castle_is_drawn_with_both_floors(tmp_path: Path, capsys) -> None:
    out = tmp_path / "castle.png"
    shipped = Path(str(importlib.resources.files("world_config").joinpath("castle.toml")))
    assert main(["castle-map", str(shipped), "--out", str(out), "--scale", "4"]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {out}")
    img = Image.open(out)
    plan = plan_castle((64, 64, -64), 16)
    width = max(a.x2 for a in plan.areas) - min(a.x1 for a in plan.areas) + 1
    assert img.width == 2 * width * 4 + 16  # two panels and the gap between them
    colours = {c for _, c in img.convert("RGB").getcolors(1 << 16) or []}
    assert (0xA8, 0x30, 0x2C) in colours  # the seats' red wool shows through the numbered discs' edges
    assert (0x6E, 0x6E, 0x6E) in colours  # the stone-brick walls


def test_a_seat_is_drawn_where_the_castle_file_puts_it() -> None:
    castle = default_castle()
    img = draw_castle(castle, scale=4).convert("RGB")
    plan = plan_castle((64, 64, -64), 16)
    x0, z0 = min(a.x1 for a in plan.areas), min(a.z1 for a in plan.areas)
    seat = castle.seats[0]
    px, pz = int((seat.x - x0) * 4), int((seat.z - z0) * 4 + 24)
    near = {img.getpixel((px + dx, pz + dy)) for dx in (-3, 3) for dy in (-1, 0, 1)}
    assert (0xF4, 0xE0, 0x4D) in near  # the seat's yellow disc


def test_a_castle_file_without_a_blueprint_shows_its_places_only() -> None:
    castle = dataclasses.replace(default_castle(), built=None)
    img = draw_castle(castle, scale=4)
    assert img.width < draw_castle(default_castle(), scale=4).width  # one panel


def test_the_block_model_of_the_plan_matches_a_sandbox_build() -> None:
    from bridge.minecraft.castle.survey import forceload_commands
    from bridge.sandbox.world import World

    plan = plan_castle((0, 64, 0), 2)
    world = World()
    for cmd in forceload_commands(plan.areas):  # as traitors build-castle does: the chunks must be loaded
        world.execute(cmd)
    for cmd in plan.commands():
        world.execute(cmd)
    assert dict(blocks_of(plan).items()) == dict(world.blocks.items())


def test_missing_pillow_says_how_to_install_it(monkeypatch, capsys, tmp_path: Path) -> None:
    real = builtins.__import__

    def no_pil(name, *args, **kwargs):
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError("No module named 'PIL'")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pil)
    shipped = Path(str(importlib.resources.files("world_config").joinpath("castle.toml")))
    assert main(["castle-map", str(shipped), "--out", str(tmp_path / "x.png")]) == 1
    assert capsys.readouterr().err == f"traitors: {INSTALL_HINT}\n"


@pytest.mark.parametrize("argv, words", [(["--scale", "1"], "--scale"), ([], "blueprint")])
def test_bad_input_is_one_line_with_exit_2(argv, words, tmp_path: Path, capsys) -> None:
    castle = tmp_path / "castle.toml"
    castle.write_text(SHIPPED.replace('blueprint = "castle-1"', 'blueprint = "castle-9"'), encoding="utf-8")
    assert main(["castle-map", str(castle), "--out", str(tmp_path / "x.png"), *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            importlib.resources.files("world_config").joinpath("series", "traitors-12.toml").read_text("utf-8"),
            "a series file, not a castle file: `traitors simulate --settings",
        ),
        ('series = "series/traitors-12.toml"\n', "a serve config, not a castle file: `traitors serve --config"),
    ],
)
def test_another_kind_of_file_is_one_line_saying_which_command_takes_it(
    text: str, words: str, tmp_path: Path, capsys
) -> None:
    """A series file or serve config given as the castle is named for what it is, not by every castle key it
    lacks; no picture is written."""
    given = tmp_path / "given.toml"
    given.write_text(text, encoding="utf-8")
    assert main(["castle-map", str(given), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [err.rstrip("\n")] and words in err
    assert not (tmp_path / "x.png").exists()
