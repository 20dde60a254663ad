"""The series settings as plain JSON data, the form the series store keeps them in (``docs/recovery.md``).

The keys are the settings keys of a scenario file (``docs/scenarios.md``), every field written (defaults
included), so ``settings_from_json(settings_to_json(s)) == s`` for the settings of every ruleset. Each ruleset's
registry entry says its keys and how each is read and written (``Ruleset.form``, ``engine.core.settings_form``);
reading stored settings needs no pydantic, so a service resuming a series does not import it. The store's format
depends on these keys: change them only with a store migration.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bridge.config.errors import ScenarioError
from engine.rulesets import DEFAULT_RULESET, RULESETS, AnySettings, ruleset_of


def settings_to_json(settings: AnySettings) -> dict[str, Any]:
    """The series settings as plain JSON data, in the scenario file's keys (``SettingsForm.dump``).

    Args:
        settings: any registered ruleset's settings (need not be valid).

    Returns:
        ``{"ruleset": name, <every settings key of the ruleset>: <its JSON value>}``: for The Traitors
        ``contestants``, ``traitors`` (null beside an explicit deal), ``hosts``, ``drunk``, ``powers``,
        ``power_pool`` (codes), ``first_night_murder``, ``joker_night`` (0: never offered), ``joker_outcome``,
        ``no_reveal_from``, ``finalists``, ``confession_shields``, ``trial_contestants``, ``no_votes``,
        ``end_when_no_traitors``, ``night_fixed_length``, ``twists`` (``{"1": ["double_vote"]}``), ``durations``
        (seconds), ``deal`` (null or ``[{"name", "allegiance", "power", "false_power", "drunk"}]``); for a club
        ruleset ``contestants``, ``hosts``, ``deal`` (null or ``[{"name", "role"}]``), ``deal_table``,
        ``day_execution``, ``morning_news``, ``mad_knight_solo_win``, ``max_days``, ``durations``.

    Raises:
        ConfigError: the settings' ruleset is not registered.
    """
    spec = ruleset_of(settings)
    return spec.form.dump(spec.name, settings)


def settings_from_json(data: Mapping[str, Any], where: str = "settings") -> AnySettings:
    """The inverse of ``settings_to_json``: read the data by the ruleset's settings keys and build the settings.

    Args:
        data: JSON data as written by ``settings_to_json`` (settings keys; ``seed`` and ``input`` not allowed;
            a ``null`` value: the default).
        where: names the source in error messages (a file, or ``series.db: series 1``).

    Returns:
        The settings (not ``validate()``d; the game does that).

    Raises:
        ScenarioError: an unknown ruleset, a key the ruleset does not take, a value of the wrong kind; the
            message names ``where`` and the key.
    """
    if "seed" in data or "input" in data:
        raise ScenarioError(where, ["settings hold no seed or inputs"])
    name = data.get("ruleset", DEFAULT_RULESET)
    if not isinstance(name, str) or name not in RULESETS:
        raise ScenarioError(where, [f"ruleset: unknown ruleset {name!r} (known: {', '.join(RULESETS)})"])
    settings, problems = RULESETS[name].form.load(name, data)
    if problems or settings is None:
        raise ScenarioError(where, problems)
    return settings  # type: ignore[no-any-return]


__all__ = ["settings_from_json", "settings_to_json"]
