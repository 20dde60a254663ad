"""The series settings as a file writes them: one pydantic model shared by series and scenario files, and its
conversion into the engine's settings by the ruleset's own settings keys (``Ruleset.form``,
``engine.core.settings_form``). The engine's settings stay the only truth; this is their file form
(``docs/scenarios.md``, "Top-level keys"): the model holds every key of every registered ruleset
(``tests/bridge/config/test_settings_form.py`` checks it against the registry) and reads the forgiving names,
then hands the values written over to the ruleset in their JSON form.

* Names are forgiving where people write them: ``"bartender"``, ``"The Bartender"`` and ``"the bartender"`` are
  ``Power.BARTENDER``; ``"Double Vote"`` is ``Twist.DOUBLE_VOTE``; an unknown name says which one was meant.
* A club ruleset's ``deal`` may be a table (contestant count → role codes); the file's ``deal`` key is read
  into ``deal_table`` then (``settings_body``) and problems are reported under ``deal`` again.
* A key of another ruleset is a problem naming the key (``drunk: not a setting of the black_knights ruleset``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, Field, PlainSerializer, PlainValidator, ValidationError

from bridge.config.errors import ScenarioError
from bridge.config.model import ConfigModel, did_you_mean, problems
from engine.errors import ConfigError
from engine.ids import Allegiance, Power, Twist
from engine.rulesets import DEFAULT_RULESET, RULESETS, AnySettings, ruleset_of

# ---------------------------------------------------------------------------------------------- engine values


def _words(value: str) -> str:
    return " ".join(value.strip().lower().replace("_", " ").replace("-", " ").split())


def _parse_power(value: object) -> Power:
    """``"bartender"``, ``"The Bartender"`` or ``"the bartender"`` → ``Power.BARTENDER``."""
    if isinstance(value, Power):
        return value
    if not isinstance(value, str):
        raise ValueError('a power is a name such as "The Bartender"')
    key = _words(value).removeprefix("the ").strip()
    try:
        return Power(key)
    except ValueError:
        known = ", ".join(p.title for p in Power)
        raise ValueError(
            f"unknown power {value!r}{did_you_mean(key, [p.value for p in Power], Power)} (known: {known})"
        ) from None


def _parse_allegiance(value: object) -> Allegiance:
    if isinstance(value, Allegiance):
        return value
    if isinstance(value, str):
        try:
            return Allegiance(_words(value))
        except ValueError:
            pass
    raise ValueError(f"{value!r} is not an allegiance (faithful or traitor)")


def _parse_twist(value: object) -> Twist:
    if isinstance(value, Twist):
        return value
    if isinstance(value, str):
        try:
            return Twist(_words(value).replace(" ", "_"))
        except ValueError:
            pass
    hint = did_you_mean(_words(value).replace(" ", "_"), [t.value for t in Twist]) if isinstance(value, str) else ""
    raise ValueError(f"unknown twist {value!r}{hint} (known: {', '.join(t.value for t in Twist)})")


def _known_ruleset(value: str) -> str:
    if value not in RULESETS:
        raise ValueError(
            f"unknown ruleset {value!r}{did_you_mean(value, list(RULESETS))} (known: {', '.join(RULESETS)})"
        )
    return value


RulesetName = Annotated[str, AfterValidator(_known_ruleset)]
"""A name of the engine's ruleset registry (``engine.rulesets.RULESETS``)."""


def _code(value: Power | Allegiance | Twist) -> str:
    """An enum field as its code in JSON (``Power.BARTENDER`` → ``"bartender"``), the form ``Action.to_dict()``
    writes. Said explicitly: a plain validator leaves pydantic's JSON serializer without the enum's schema, and it
    warns on every dump."""
    return str(value.value)


_AS_CODE = PlainSerializer(_code, return_type=str, when_used="json")
PowerName = Annotated[Power, PlainValidator(_parse_power), _AS_CODE]
AllegianceName = Annotated[Allegiance, PlainValidator(_parse_allegiance), _AS_CODE]
TwistName = Annotated[Twist, PlainValidator(_parse_twist), _AS_CODE]


# ---------------------------------------------------------------------------------------------- the model


class DealModel(ConfigModel):
    """One ``[[deal]]`` table: a contestant's hand (rulebook §1 example deal; ``role`` for the club rulesets)."""

    name: str
    allegiance: AllegianceName | None = None
    role: str | None = None
    power: PowerName | None = None
    false_power: PowerName | None = None
    drunk: bool = False


def _file_fields(typed: Mapping[str, Any]) -> dict[str, Any]:
    """The file model's fields: ``ruleset`` first, then every settings key of every registered ruleset
    (``Ruleset.form``) in the registry's order, each with its annotation in ``typed`` (the keys a file writes in
    forgiving names or as lists and tables) or else one made from the key's plain type (``Key.shape``: a whole
    number, true or false, one of the choices), not written by default.

    Raises:
        TypeError: a registered key is neither in ``typed`` nor of a plain type (give it a field here).
    """
    out: dict[str, Any] = {"ruleset": typed["ruleset"]}
    for ruleset in RULESETS.values():
        for key, spec in ruleset.form.keys.items():
            if key in out:
                continue
            if key in typed:
                out[key] = typed[key]
            elif spec.shape is not None:
                out[key] = Annotated[spec.shape | None, Field(default=None)]
            else:
                raise TypeError(f"settings key {key!r} of the {ruleset.name} ruleset needs a field in SettingsModel")
    return out


class SettingsModel(ConfigModel):
    """The settings keys of series and scenario files (``docs/scenarios.md``); ``None``: the engine's default.

    The keys declared here are read in the file's forgiving names or as lists and tables; every other registered
    key (a whole number, true or false, one of a few choices) takes its field from the ruleset's own row
    (``_file_fields``)."""

    ruleset: RulesetName = DEFAULT_RULESET
    contestants: list[str] | None = None
    hosts: list[str] = Field(default_factory=list)
    power_pool: list[PowerName] | None = None
    twists: dict[str, list[TwistName]] = Field(default_factory=dict)
    durations: dict[str, float] = Field(default_factory=dict)
    deal: list[DealModel] | None = None
    """The explicit deal, one ``[[deal]]`` per contestant."""
    deal_table: dict[str, list[str]] | None = None
    """Club rulesets: the series setting ``deal`` written as a table, contestant count → role codes
    (``[deal]`` / ``8 = ["lord", …]``); the file's ``deal`` key is read here when it is a table."""
    __annotations__ = _file_fields(__annotations__)


def settings_body(data: Mapping[str, Any]) -> dict[str, Any]:
    """A file's top-level mapping with a ``deal`` table (a club ruleset's count → roles) moved to ``deal_table``."""
    if isinstance(data.get("deal"), Mapping):
        return {**{k: v for k, v in data.items() if k != "deal"}, "deal_table": data["deal"]}
    return dict(data)


def settings_problems(exc: ValidationError) -> list[str]:
    """``problems(exc)`` with ``deal_table`` named ``deal``, as the file writes it."""
    return [("deal" + p[len("deal_table") :]) if p.startswith("deal_table") else p for p in problems(exc)]


# ---------------------------------------------------------------------------------------------- engine settings


def _written(m: SettingsModel) -> dict[str, Any]:
    """The settings keys ``m`` holds other than their defaults, in the JSON form of the ruleset's settings keys
    (``Ruleset.form``); a ``deal`` table (``deal_table``) is the file's ``deal`` again."""
    fields = SettingsModel.model_fields
    data = m.model_dump(mode="json", include=set(fields) - {"ruleset"})
    out = {k: v for k, v in data.items() if v is not None and v != fields[k].get_default(call_default_factory=True)}
    if "deal_table" in out:
        out["deal"] = out.pop("deal_table")
    return out


def engine_settings(m: SettingsModel) -> tuple[AnySettings | None, list[str]]:
    """Convert validated settings keys into engine settings (engine defaults for keys not written), by the
    ruleset's settings keys (``engine.core.settings_form.SettingsForm``).

    Returns:
        ``(settings, [])``, or ``(None, problems)``: keys of another ruleset, a deal that does not fit the
        ruleset, no contestants, twist or deal keys that are not numbers (each ``"<key path>: <problem>"``).
        The settings are not ``validate()``d yet (``validate_settings``).
    """
    settings, found = RULESETS[m.ruleset].form.load(m.ruleset, _written(m))
    return settings, found


def validate_settings(settings: AnySettings) -> None:
    """The check of the settings' ruleset (``SettingsForm.check``; a club ruleset checks them against its rules).

    Raises:
        ConfigError: the engine refuses the settings (the message names the field).
    """
    ruleset_of(settings).form.check(settings)


def checked_settings(m: SettingsModel, name: str) -> AnySettings:
    """``engine_settings`` then ``validate_settings``.

    Raises:
        ScenarioError: any problem, each line naming the file ``name``.
    """
    settings, more = engine_settings(m)
    if more or settings is None:
        raise ScenarioError(name, more)
    try:
        validate_settings(settings)
    except ConfigError as exc:
        raise ScenarioError(name, [str(exc)]) from None
    return settings


__all__ = [
    "AnySettings",
    "DealModel",
    "PowerName",
    "ScenarioError",
    "SettingsModel",
    "TwistName",
    "checked_settings",
    "engine_settings",
    "settings_body",
    "settings_problems",
    "validate_settings",
]
