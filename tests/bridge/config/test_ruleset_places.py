"""The config reads what a ruleset needs of the castle and what its series file says from the ruleset's registry
entry (``engine.core.ruleset.Ruleset.castle_places``) and its settings, not from its name."""

from __future__ import annotations

import dataclasses

import pytest

from bridge.app.demo_settings import demo_settings
from bridge.config.castle import default_castle
from bridge.config.loader import describe
from bridge.config.series import SeriesFile
from bridge.config.serve import check_seats
from engine.rulesets import RULESETS

NAMES = list(RULESETS)


@pytest.mark.parametrize("name", NAMES)
def test_a_castle_short_of_places_is_reported_for_the_places_the_ruleset_needs(name: str) -> None:
    """Rulebook §10: The Traitors' contestants each have a place at the breakfast table; a club series needs only
    seats and homes."""
    shipped = default_castle()
    cut = dataclasses.replace(
        shipped, **{"seats": shipped.seats[:8], "homes": shipped.homes[:8], "breakfast": shipped.breakfast[:7]}
    )
    settings = demo_settings(8, name)
    problems = check_seats(cut, "castle.toml", settings, "series.toml")
    short = [
        "castle.toml: breakfast: 7 breakfast places, but series.toml has 8 contestants: no place at the "
        "breakfast table for contestant 8"
    ]
    assert problems == (short if "breakfast" in RULESETS[name].castle_places else [])
    assert check_seats(shipped, "castle.toml", settings, "series.toml") == []


@pytest.mark.parametrize("name", NAMES)
def test_check_config_names_the_traitor_count_of_a_series_that_deals_traitors(name: str) -> None:
    settings = demo_settings(12, name)
    line = describe(SeriesFile("series.toml", name, settings, True))
    traitors = f", {settings.traitors} Traitors" if RULESETS[name].family == "traitors" else ""
    assert line == f"series: {name}, 12 contestants{traitors}"
