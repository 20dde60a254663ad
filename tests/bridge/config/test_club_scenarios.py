"""Scenario files and series files of the club rulesets: ``traitors play`` with ``ruleset = …``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.app.cli import main
from bridge.app.export import format_record
from bridge.config.play import play_scenario
from bridge.config.scenario import ScenarioError, load_scenario, parse_scenario
from bridge.config.series import load_series
from engine.rulesets import new_game
from engine.rulesets.club.game import ClubSettings

ROOT = Path(__file__).resolve().parents[3]
CLUB = ROOT / "tests" / "scenarios" / "club"


def test_black_knights_scenario_heir_and_courtesan() -> None:
    game = play_scenario(load_scenario(CLUB / "bk_heir.toml"))
    assert game.players["Steve"].out == "left"  # the day's vote
    night = game.record.to_dict()["events"][-2]
    assert night["type"] == "club_night" and night["deaths"] == {"Ari": "shot"}
    assert game.players["Noor"].role == "lord"
    text = format_record(game.record, "text")
    assert text.startswith("# Black Knights: series record") and "Ari (shot)" in text


def test_mafia_yakuza_scenario_poison_on_night_1() -> None:
    game = play_scenario(load_scenario(CLUB / "my_poison.toml"))
    nights = [e for e in game.record.to_dict()["events"] if e["type"] == "club_night"]
    assert [n["deaths"] for n in nights] == [{}, {}, {"Rhea": "poison"}]
    assert "Rhea" not in game.present()


def test_play_command_prints_the_club_log(capsys) -> None:
    assert main(["play", str(CLUB / "my_poison.toml"), "--format", "json"]) == 0
    assert '"ruleset": "mafia_yakuza"' in capsys.readouterr().out


@pytest.mark.parametrize("name", ["black_knights", "mafia_yakuza"])
def test_shipped_series_files_load(name: str) -> None:
    path = ROOT / "world_config" / "series" / f"{name}.toml"
    settings = load_series(path).settings_for()
    assert isinstance(settings, ClubSettings) and settings.ruleset == name
    game = new_game(settings, 1)
    assert game.rules.name == name


def test_bad_club_settings_name_the_field() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario('ruleset = "black_knights"\ncontestants = ["Alex"]\ndrunk = "none"\n', "x.toml")
    assert "x.toml: drunk: not a setting of the black_knights ruleset" in str(info.value)
    with pytest.raises(ScenarioError) as info:
        parse_scenario('ruleset = "mafia_yakuza"\n[[deal]]\nname = "Alex"\nrole = "wizard"\n', "y.toml")
    assert "unknown role 'wizard'" in str(info.value)
    with pytest.raises(ScenarioError) as info:
        parse_scenario('ruleset = "mafia_yakuza"\ncontestants = ["Alex", "Kai"]\n[deal]\n2 = ["don"]\n', "z.toml")
    assert "deal.2: lists 1 roles for 2 contestants" in str(info.value)


def test_morning_news_is_a_club_setting_of_scenario_and_series_files() -> None:
    from bridge.config.series import parse_series
    from bridge.config.settings_json import settings_from_json, settings_to_json

    names = '["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena"]'
    scenario = parse_scenario(f'ruleset = "mafia_yakuza"\ncontestants = {names}\nmorning_news = "unnamed"\n', "m.toml")
    assert scenario.settings.morning_news == "unnamed"
    assert settings_from_json(settings_to_json(scenario.settings)) == scenario.settings
    series = parse_series('ruleset = "mafia_yakuza"\ncontestant_count = 10\nmorning_news = "dead_only"\n', "s.toml")
    assert series.settings.morning_news == "dead_only"
    default = parse_scenario(f'ruleset = "mafia_yakuza"\ncontestants = {names}\n', "d.toml")
    assert default.settings.morning_news == "named"
    with pytest.raises(ScenarioError) as info:
        parse_scenario(f'ruleset = "mafia_yakuza"\ncontestants = {names}\nmorning_news = "loud"\n', "x.toml")
    assert "x.toml: morning_news: " in str(info.value)
    with pytest.raises(ScenarioError) as info:
        parse_scenario('contestants = ["Alex", "Kai", "Zuri"]\ntraitors = 1\nmorning_news = "named"\n', "t.toml")
    assert "t.toml: morning_news: not a setting of the traitors ruleset" in str(info.value)


@pytest.mark.rule("BK12")
def test_mad_knight_solo_win_is_a_black_knights_setting_off_by_default() -> None:
    """Black Knights BK12: the Mad Knight's own win is a setting of series and scenario files, off by default,
    kept by the series store; a ruleset without a Mad Knight refuses it, naming the file and the field."""
    from bridge.config.series import parse_series
    from bridge.config.settings_json import settings_from_json, settings_to_json

    names = '["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe"]'
    on = parse_scenario(f'ruleset = "black_knights"\ncontestants = {names}\nmad_knight_solo_win = true\n', "b.toml")
    assert on.settings.mad_knight_solo_win is True
    assert settings_from_json(settings_to_json(on.settings)) == on.settings
    default = parse_series('ruleset = "black_knights"\ncontestant_count = 8\n', "s.toml")
    assert default.settings.mad_knight_solo_win is False
    with pytest.raises(ScenarioError) as info:
        parse_scenario(f'ruleset = "mafia_yakuza"\ncontestants = {names}\nmad_knight_solo_win = true\n', "m.toml")
    assert "m.toml: mad_knight_solo_win: mafia_yakuza has no Mad Knight" in str(info.value)
    with pytest.raises(ScenarioError) as info:
        parse_scenario('contestants = ["Alex", "Kai", "Zuri"]\ntraitors = 1\nmad_knight_solo_win = false\n', "t.toml")
    assert "t.toml: mad_knight_solo_win: not a setting of the traitors ruleset" in str(info.value)
