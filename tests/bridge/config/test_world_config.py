"""world_config/castle.toml and bridge/config/castle.py: the shipped castle loads; broken files name file and key."""

from __future__ import annotations

import importlib.resources
import math
from pathlib import Path

import pytest

from bridge.config.castle import PER_SEAT_PLACES, CastleConfig, default_castle
from bridge.config.castle_file import load_castle, parse_castle
from bridge.config.model import ConfigFileError
from engine.errors import ConfigError
from engine.ids import Place

SHIPPED = importlib.resources.files("world_config").joinpath("castle.toml")


def shipped_text() -> str:
    return SHIPPED.read_text(encoding="utf-8")


def test_shipped_castle_loads() -> None:
    castle = default_castle()
    assert isinstance(castle, CastleConfig)
    assert len(castle.seats) == 16
    assert len(castle.homes) == 16
    for place in Place:
        if place in PER_SEAT_PLACES:
            for seat in range(1, 17):
                castle.location(place, seat)
        else:
            assert castle.location(place) == getattr(castle.places, place.value)


def test_load_castle_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "castle.toml"
    path.write_text(shipped_text(), encoding="utf-8")
    assert load_castle(path) == default_castle()


def test_round_table_is_a_circle_facing_its_centre() -> None:
    seats = default_castle().seats
    cx = sum(s.x for s in seats) / len(seats)
    cz = sum(s.z for s in seats) / len(seats)
    for s in seats:
        assert math.hypot(s.x - cx, s.z - cz) == pytest.approx(6.0, abs=0.05)
        # Minecraft yaw: facing direction is (-sin(yaw), cos(yaw)) in (x, z)
        fx, fz = -math.sin(math.radians(s.yaw)), math.cos(math.radians(s.yaw))
        dx, dz = cx - s.x, cz - s.z
        dist = math.hypot(dx, dz)
        assert fx * dx / dist + fz * dz / dist > 0.999
    assert len({(s.x, s.z) for s in seats}) == 16


def test_homes_are_distinct() -> None:
    homes = default_castle().homes
    assert len({(h.x, h.y, h.z) for h in homes}) == 16


def test_per_seat_place_needs_a_seat() -> None:
    castle = default_castle()
    with pytest.raises(ValueError):
        castle.location(Place.ROUND_TABLE)
    with pytest.raises(ValueError):
        castle.location(Place.HOME, 17)


def _broken(tmp_path: Path, text: str) -> ConfigFileError:
    path = tmp_path / "castle.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigFileError) as info:
        load_castle(path)
    error = info.value
    assert isinstance(error, ConfigError)
    for line in str(error).splitlines():
        assert line.startswith(f"{path}: ")
    return error


def _without_line(text: str, start: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(start)) + "\n"


def test_missing_place_names_file_and_key(tmp_path: Path) -> None:
    error = _broken(tmp_path, _without_line(shipped_text(), "diary_room ="))
    assert str(error) == f"{tmp_path / 'castle.toml'}: places.diary_room: field required"
    assert error.problems == ["places.diary_room: field required"]


def test_wrong_type_names_file_and_key(tmp_path: Path) -> None:
    text = shipped_text().replace("foyer = { x = 88.5", 'foyer = { x = "east"')
    error = _broken(tmp_path, text)
    assert error.problems == ["places.foyer.x: input should be a valid number"]


def test_several_problems_are_all_reported(tmp_path: Path) -> None:
    text = _without_line(shipped_text(), "turret =").replace("pitch = 10.0\n", "pitch = 100.0\n", 1)
    text = text.replace("kitchen = {", "kitchen = { colour = 1,")
    error = _broken(tmp_path, text)
    assert "places.turret: field required" in error.problems
    assert "places.kitchen.colour: unknown key" in error.problems
    assert any(p.startswith("seats[0].pitch: ") for p in error.problems)


def test_too_many_seats(tmp_path: Path) -> None:
    text = shipped_text() + "\n[[seats]]\nx = 0.0\ny = 64.0\nz = 0.0\n"
    error = _broken(tmp_path, text)
    assert any(p.startswith("seats: ") for p in error.problems)


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    error = _broken(tmp_path, "[places\n")
    assert "not valid TOML" in str(error)
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigFileError, match="nope.toml: cannot read"):
        load_castle(missing)


def test_parse_castle_uses_the_given_name() -> None:
    with pytest.raises(ConfigFileError) as info:
        parse_castle("", "castle.toml")
    assert "castle.toml: places: field required" in str(info.value)


SERIES = importlib.resources.files("world_config").joinpath("series")


def test_every_shipped_series_file_loads_through_the_scenario_settings() -> None:
    from bridge.config.series import load_series_settings
    from engine.actions import StartSeries
    from engine.ids import Twist
    from engine.rulesets import new_game

    files = sorted(p.name for p in SERIES.iterdir() if p.name.endswith(".toml"))
    assert "traitors.toml" in files
    for name in files:
        settings = load_series_settings(Path(str(SERIES.joinpath(name))))  # validated on load
        new_game(settings, seed=1).handle(StartSeries(), now=0.0)  # and deals
    sample = load_series_settings(Path(str(SERIES.joinpath("traitors.toml"))))
    assert {t for ts in sample.twists.values() for t in ts} == set(Twist)  # the sample shows every twist
    assert sample.confession_shields == 2 and sample.trial_contestants == 3


def test_a_bad_series_file_names_the_file_and_field(tmp_path: Path) -> None:
    from bridge.config.scenario import ScenarioError
    from bridge.config.series import load_series_settings

    bad = tmp_path / "bad.toml"
    bad.write_text(shipped_series().replace('3 = ["murder", "seer"]', '3 = ["murder", "trial"]'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad.toml: twists.3: murder and trial cannot share a day"):
        load_series_settings(bad)
    bad.write_text(shipped_series().replace("trial_contestants = 3", "trial_contestants = 9"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad.toml: trial_contestants"):
        load_series_settings(bad)
    bad.write_text(shipped_series() + '\n[[input]]\naction = "advance"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad.toml: input"):
        load_series_settings(bad)


def shipped_series() -> str:
    return SERIES.joinpath("traitors.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_sample_series_plays_to_its_end(seed: int) -> None:
    """The sample series, contestants choosing at random among their legal inputs (the host moves on now and
    then): every scheduled twist runs or lapses, and the series ends."""
    import random

    from bridge.config.series import load_series_settings
    from engine.actions import Advance, StartSeries
    from engine.rulesets.traitors.game import Game

    settings = load_series_settings(Path(str(SERIES.joinpath("traitors.toml"))))
    game, rng, now = Game(settings, seed), random.Random(seed), 0.0
    game.handle(StartSeries(), now=now)
    for _ in range(5000):
        if game.is_over:
            break
        options = [a for n in game.contestants() for a in game.legal_actions(n)]
        now += 1
        game.handle(rng.choice(options) if options and rng.random() > 0.05 else Advance("Host"), now=now)
    assert game.is_over
