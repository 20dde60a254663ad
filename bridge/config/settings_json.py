"""The series settings as plain JSON data, the form the series store keeps them in (``docs/recovery.md``).

The keys are the settings keys of a scenario file (``docs/scenarios.md``), every field written (defaults
included), so ``settings_from_json(settings_to_json(s)) == s`` for the settings of every ruleset. The store's
format depends on these keys: change them only with a store migration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bridge.config.model import validate
from bridge.config.settings import AnySettings, ScenarioError, SettingsModel, engine_settings
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import DealEntry, Settings


def settings_to_json(settings: AnySettings) -> dict[str, Any]:
    """The series settings as plain JSON data, in the scenario file's keys.

    Args:
        settings: any ruleset's settings (need not be valid).

    Returns:
        For ``traitors``: ``{"ruleset": "traitors", "contestants": [...], "traitors": 3, "hosts": [...],
        "drunk": "none", "powers": true, "power_pool": [...], "first_night_murder": false, "joker_night": 2,
        "joker_outcome": "joker_wins", "no_reveal_from": 5, "finalists": 4, "confession_shields": 2,
        "trial_contestants": 3, "no_votes": "revote", "end_when_no_traitors": false, "night_fixed_length": true,
        "twists": {"1": ["double_vote"]},
        "durations": {"vote": 120.0}, "deal": null | [{"name", "allegiance", "power", "false_power",
        "drunk"}, ...]}``; for a club ruleset: ``ruleset``, ``contestants``, ``hosts``, ``deal`` (null or
        ``[{"name", "role"}]``), ``deal_table``, ``day_execution``, ``morning_news``, ``mad_knight_solo_win``,
        ``max_days``, ``durations``.
    """
    if isinstance(settings, ClubSettings):
        return _club_json(settings)
    return _traitors_json(settings)


def _club_json(settings: ClubSettings) -> dict[str, Any]:
    return {
        "ruleset": settings.ruleset,
        "contestants": list(settings.contestants),
        "hosts": list(settings.hosts),
        "deal": None if settings.deal is None else [{"name": n, "role": r} for n, r in settings.deal],
        "deal_table": {str(k): list(v) for k, v in sorted(settings.deal_table.items())},
        "day_execution": settings.day_execution,
        "morning_news": settings.morning_news,
        "mad_knight_solo_win": settings.mad_knight_solo_win,
        "max_days": settings.max_days,
        "durations": {k: float(v) for k, v in settings.durations.items()},
    }


def _deal_entry_json(e: DealEntry) -> dict[str, Any]:
    return {
        "name": e.name,
        "allegiance": e.allegiance.value,
        "power": e.power.value if e.power is not None else None,
        "false_power": e.false_power.value if e.false_power is not None else None,
        "drunk": e.drunk,
    }


def _traitors_json(settings: Settings) -> dict[str, Any]:
    return {
        "ruleset": "traitors",
        "contestants": list(settings.contestants),
        # with an explicit deal the deal says who the Traitors are; the count is then not a setting
        "traitors": settings.traitors if settings.deal is None else None,
        "hosts": list(settings.hosts),
        "drunk": settings.drunk,
        "powers": settings.powers,
        "power_pool": [p.value for p in settings.power_pool],
        "first_night_murder": settings.first_night_murder,
        "joker_night": settings.joker_night if settings.joker_night is not None else 0,  # 0: never offered
        "joker_outcome": settings.joker_outcome,
        "no_reveal_from": settings.no_reveal_from,
        "finalists": settings.finalists,
        "confession_shields": settings.confession_shields,
        "trial_contestants": settings.trial_contestants,
        "no_votes": settings.no_votes,
        "end_when_no_traitors": settings.end_when_no_traitors,
        "night_fixed_length": settings.night_fixed_length,
        "twists": {str(day): [t.value for t in ts] for day, ts in sorted(settings.twists.items())},
        "durations": {k: float(v) for k, v in settings.durations.items()},
        "deal": None if settings.deal is None else [_deal_entry_json(e) for e in settings.deal],
    }


def settings_from_json(data: Mapping[str, Any], where: str = "settings") -> AnySettings:
    """The inverse of ``settings_to_json``: validate the data with the settings model and build the settings.

    Args:
        data: JSON data as written by ``settings_to_json`` (settings keys; ``seed`` and ``input`` not allowed).
        where: names the source in error messages (a file, or ``series.db: series 1``).

    Returns:
        The settings (not ``validate()``d; the game does that).

    Raises:
        ScenarioError: a key is unknown, missing or of the wrong type; the message names ``where`` and the key.
    """
    if "seed" in data or "input" in data:
        raise ScenarioError(where, ["settings hold no seed or inputs"])
    body = {k: v for k, v in data.items() if v is not None}
    if "deal_table" in body and not body["deal_table"]:
        body.pop("deal_table")
    m = validate(SettingsModel, body, where, ScenarioError)
    settings, problems = engine_settings(m)
    if problems or settings is None:
        raise ScenarioError(where, problems)
    return settings


__all__ = ["settings_from_json", "settings_to_json"]
