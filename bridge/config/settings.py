"""The series settings as a file writes them: one pydantic model shared by series files, scenario files and the
store's JSON form, and its conversion into the engine's settings (``Settings`` for ``traitors``, ``ClubSettings``
for the club rulesets). The engine's settings stay the only truth; this is their file form (``docs/scenarios.md``,
"Top-level keys").

* Names are forgiving where people write them: ``"bartender"``, ``"The Bartender"`` and ``"the bartender"`` are
  ``Power.BARTENDER``; ``"Double Vote"`` is ``Twist.DOUBLE_VOTE``; an unknown name says which one was meant.
* A club ruleset's ``deal`` may be a table (contestant count → role codes); the file's ``deal`` key is read
  into ``deal_table`` then (``settings_body``) and problems are reported under ``deal`` again.
* A key of the other ruleset is a problem naming the key (``drunk: not a setting of the black_knights ruleset``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, PlainSerializer, PlainValidator, ValidationError

from bridge.config.model import ConfigFileError, ConfigModel, did_you_mean, problems
from engine.errors import ConfigError
from engine.ids import Allegiance, Power, Twist
from engine.rulesets import RULESETS
from engine.rulesets.club.settings import ClubSettings
from engine.rulesets.traitors.settings import DealEntry, Settings

AnySettings = Settings | ClubSettings
"""The settings of any ruleset."""


class ScenarioError(ConfigFileError):
    """A scenario or series file cannot be read, is invalid, or the engine refused one of a scenario's inputs.

    Every line of the message starts with the file as given, then the key path or input index::

        day_one.toml: input[12].target: field required
        day_one.toml: input[14]: the engine refused cast_vote(voter=Kai, target=Kai): You cannot vote for
        yourself. [illegal.vote.self]

    Args:
        path: the file as given (or the name given to ``parse_scenario``).
        problems: one ``"<where>: <what is wrong>"`` per problem.
    """


# ---------------------------------------------------------------------------------------------- engine values


def _words(value: str) -> str:
    return " ".join(value.strip().lower().replace("_", " ").replace("-", " ").split())


def _parse_power(value: object) -> Power:
    """``"bartender"``, ``"The Bartender"`` or ``"the bartender"`` → ``Power.BARTENDER``."""
    if isinstance(value, Power):
        return value
    if not isinstance(value, str):
        raise ValueError("a power is a name such as \"The Bartender\"")
    key = _words(value).removeprefix("the ").strip()
    try:
        return Power(key)
    except ValueError:
        known = ", ".join(p.title for p in Power)
        raise ValueError(f"unknown power {value!r}{did_you_mean(key, [p.value for p in Power], Power)} "
                         f"(known: {known})") from None


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
        raise ValueError(f"unknown ruleset {value!r}{did_you_mean(value, list(RULESETS))} (known: {', '.join(RULESETS)})")
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


class SettingsModel(ConfigModel):
    """The settings keys of series and scenario files (``docs/scenarios.md``); ``None``: the engine's default."""

    ruleset: RulesetName = "traitors"
    contestants: list[str] | None = None
    traitors: int | None = None
    hosts: list[str] = Field(default_factory=list)
    drunk: Literal["none", "possible", "always"] | None = None
    powers: bool | None = None
    power_pool: list[PowerName] | None = None
    first_night_murder: bool | None = None
    joker_night: int | None = None
    joker_outcome: Literal["joker_wins", "traitors_win"] | None = None
    confession_shields: int | None = None
    trial_contestants: int | None = None
    no_votes: Literal["revote", "deadlock"] | None = None
    end_when_no_traitors: bool | None = None
    night_fixed_length: bool | None = None
    no_reveal_from: int | None = None
    finalists: int | None = None
    twists: dict[str, list[TwistName]] = Field(default_factory=dict)
    durations: dict[str, float] = Field(default_factory=dict)
    deal: list[DealModel] | None = None
    """The explicit deal, one ``[[deal]]`` per contestant."""
    deal_table: dict[str, list[str]] | None = None
    """Club rulesets: the series setting ``deal`` written as a table, contestant count → role codes
    (``[deal]`` / ``8 = ["lord", …]``); the file's ``deal`` key is read here when it is a table."""
    day_execution: bool | None = None
    morning_news: Literal["named", "unnamed", "dead_only"] | None = None
    mad_knight_solo_win: bool | None = None
    max_days: int | None = None


def settings_body(data: Mapping[str, Any]) -> dict[str, Any]:
    """A file's top-level mapping with a ``deal`` table (a club ruleset's count → roles) moved to ``deal_table``."""
    if isinstance(data.get("deal"), Mapping):
        return {**{k: v for k, v in data.items() if k != "deal"}, "deal_table": data["deal"]}
    return dict(data)


def settings_problems(exc: ValidationError) -> list[str]:
    """``problems(exc)`` with ``deal_table`` named ``deal``, as the file writes it."""
    return [("deal" + p[len("deal_table"):]) if p.startswith("deal_table") else p for p in problems(exc)]


# ---------------------------------------------------------------------------------------------- engine settings

_CLUB_ONLY = ("day_execution", "morning_news", "mad_knight_solo_win", "max_days")

_TRAITORS_ONLY = (
    "traitors", "drunk", "powers", "power_pool", "first_night_murder", "joker_night", "joker_outcome",
    "no_reveal_from", "finalists", "confession_shields", "trial_contestants", "no_votes", "end_when_no_traitors",
    "night_fixed_length",
)  # fmt: skip

_TRAITORS_PLAIN = (
    "traitors", "drunk", "powers", "first_night_murder", "no_reveal_from", "finalists", "joker_night",
    "joker_outcome", "confession_shields", "trial_contestants", "no_votes", "end_when_no_traitors", "night_fixed_length",
)  # fmt: skip
"""Keys passed to ``Settings`` as written (when written)."""


def engine_settings(m: SettingsModel) -> tuple[AnySettings | None, list[str]]:
    """Convert validated settings keys into engine settings (engine defaults for keys not written).

    Returns:
        ``(settings, [])``, or ``(None, problems)``: keys of the other ruleset, a deal that does not fit the
        ruleset, no contestants, twist or deal keys that are not numbers (each ``"<key path>: <problem>"``).
        The settings are not ``validate()``d yet (``validate_settings``).
    """
    if m.ruleset != "traitors":
        return _club_settings(m)
    return _traitors_settings(m)


def _traitors_settings(m: SettingsModel) -> tuple[Settings | None, list[str]]:
    problems = [f"{key}: not a setting of the traitors ruleset" for key in _CLUB_ONLY if getattr(m, key) is not None]
    if m.deal_table is not None:
        problems.append("deal: the traitors ruleset takes an explicit deal, one [[deal]] table per contestant")
        return None, problems
    for i, d in enumerate(m.deal or []):
        if d.allegiance is None:
            problems.append(f"deal[{i}].allegiance: field required")
        if d.role is not None:
            problems.append(f"deal[{i}].role: the traitors ruleset deals allegiances and powers, not roles")
    if problems:
        return None, problems
    deal = None
    if m.deal is not None:
        deal = tuple(DealEntry(d.name, d.allegiance, d.power, d.false_power, d.drunk) for d in m.deal)  # type: ignore[arg-type]
    contestants = m.contestants
    if contestants is None:
        if deal is None:
            problems.append("contestants: field required (or give an explicit [[deal]])")
        else:
            contestants = [d.name for d in deal]
    if deal is not None and m.traitors is not None:
        dealt = sum(d.allegiance is Allegiance.TRAITOR for d in deal)
        if dealt != m.traitors:
            problems.append(f"traitors: {m.traitors}, but the deal has {dealt} Traitors")
    twists = _numbered(m.twists, "twists", "day number", 'twists = { 1 = ["double_vote"] }', problems)
    if problems or contestants is None:
        return None, problems
    kwargs: dict[str, Any] = {key: getattr(m, key) for key in _TRAITORS_PLAIN if getattr(m, key) is not None}
    if m.power_pool is not None:
        kwargs["power_pool"] = tuple(m.power_pool)
    return Settings(contestants=tuple(contestants), hosts=tuple(m.hosts), durations=dict(m.durations), deal=deal,
                    twists=twists, **kwargs), []  # fmt: skip


def _numbered(table: Mapping[str, Sequence[Any]], key: str, what: str, example: str,
              problems: list[str]) -> dict[int, tuple[Any, ...]]:  # fmt: skip
    """A TOML table whose keys are numbers (days, contestant counts), with int keys; a key that is not a number
    adds ``"<key>.<k>: a key is a <what>, e.g. <example>"`` to ``problems``."""
    out: dict[int, tuple[Any, ...]] = {}
    for k, values in table.items():
        if not k.isdigit():
            problems.append(f"{key}.{k}: a key is a {what}, e.g. {example}")
            continue
        out[int(k)] = tuple(values)
    return out


def _club_settings(m: SettingsModel) -> tuple[ClubSettings | None, list[str]]:
    """A club ruleset's settings: contestants, hosts, ``deal`` (explicit ``[[deal]]`` with ``role``, or the
    count → roles table), ``day_execution``, ``morning_news``, ``mad_knight_solo_win``, ``max_days``,
    ``durations``."""
    problems = [f"{k}: not a setting of the {m.ruleset} ruleset" for k in _TRAITORS_ONLY if getattr(m, k) is not None]
    if m.twists:
        problems.append(f"twists: not a setting of the {m.ruleset} ruleset")
    explicit: tuple[tuple[str, str], ...] | None = None
    if m.deal is not None:
        pairs = []
        for i, d in enumerate(m.deal):
            if d.role is None:
                problems.append(f"deal[{i}].role: field required")
            for key in ("allegiance", "power", "false_power"):
                if getattr(d, key) is not None:
                    problems.append(f"deal[{i}].{key}: not part of a {m.ruleset} deal (give a role)")
            pairs.append((d.name, d.role or ""))
        explicit = tuple(pairs)
    table = _numbered(m.deal_table or {}, "deal", "contestant count", "deal = { 8 = [...] }", problems)
    contestants = m.contestants
    if contestants is None:
        if explicit is None:
            problems.append("contestants: field required (or give an explicit [[deal]])")
        else:
            contestants = [n for n, _ in explicit]
    if problems or contestants is None:
        return None, problems
    kwargs: dict[str, Any] = {k: getattr(m, k) for k in _CLUB_ONLY if getattr(m, k) is not None}
    return ClubSettings(ruleset=m.ruleset, contestants=tuple(contestants), hosts=tuple(m.hosts), deal=explicit,
                        deal_table=table, durations=dict(m.durations), **kwargs), []  # fmt: skip


def validate_settings(settings: AnySettings) -> None:
    """``validate`` for any ruleset's settings (a club ruleset checks them against its rules).

    Raises:
        ConfigError: the engine refuses the settings (the message names the field).
    """
    if isinstance(settings, ClubSettings):
        settings.validate(RULESETS[settings.ruleset].rules)
    else:
        settings.validate()


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
