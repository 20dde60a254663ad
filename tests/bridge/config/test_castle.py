"""bridge/config/castle.py's writer: what it writes reads back equal, atomically, and check-config accepts it."""

from __future__ import annotations

import dataclasses
import importlib.resources
from pathlib import Path

import pytest

from bridge.config.castle import castle_toml, default_castle, write_castle
from bridge.config.castle_file import load_castle, parse_castle
from bridge.config.loader import check_files
from bridge.config.model import ConfigFileError
from bridge.minecraft.castle.blueprint import plan_castle


@pytest.mark.parametrize("seats", [1, 7, 16])
def test_written_castle_reads_back_equal_and_check_config_accepts_it(seats: int, tmp_path: Path) -> None:
    castle = plan_castle((-30, 0, 12), seats).castle
    path = write_castle(tmp_path / "castle.toml", castle, "line one\nline two")
    assert load_castle(path) == castle
    assert "# line one\n# line two\n" in path.read_text(encoding="utf-8")
    ok, problems = check_files([str(path)])
    assert problems == [] and ok == [f"{path}: OK (castle: {seats} seats, {seats} homes)"]
    assert [p.name for p in tmp_path.iterdir()] == ["castle.toml"]  # no temporary file left


def test_the_shipped_castle_is_the_generated_one() -> None:
    assert default_castle() == plan_castle((64, 64, -64), 16).castle


def test_the_shipped_castle_read_as_it_stands_is_the_validated_one() -> None:
    text = importlib.resources.files("world_config").joinpath("castle.toml").read_text(encoding="utf-8")
    shipped = default_castle()
    assert parse_castle(text, "castle.toml") == shipped
    assert castle_toml(shipped).split("\n[built]\n")[1] == text.split("\n[built]\n")[1]  # floats stay floats


def test_a_hand_built_castle_has_no_built_table_and_a_bad_one_is_named() -> None:
    hand = dataclasses.replace(default_castle(), built=None)
    text = castle_toml(hand)
    assert "[built]" not in text and parse_castle(text, "c.toml") == hand
    shipped = castle_toml(default_castle())
    with pytest.raises(ConfigFileError) as info:
        parse_castle(shipped.replace("seats = 16\nblueprint", "seats = 40\nblueprint"), "c.toml")
    assert info.value.problems == ["built.seats: input should be less than or equal to 16"]
    with pytest.raises(ConfigFileError) as info:
        parse_castle(shipped.replace("seats = 16\nblueprint", "seats = 12\nblueprint"), "c.toml")
    assert info.value.problems == [
        "built: says 12 seats, but the file lists 16 [[seats]]; rebuild it with "
        "traitors build-castle, or remove the [built] table"
    ]
    far = shipped.replace("foyer = { x = 88.5,", "foyer = { x = 30000000.5,")
    with pytest.raises(ConfigFileError) as info:
        parse_castle(far, "c.toml")
    assert info.value.problems == ["places.foyer.x: input should be less than or equal to 29999984"]
