"""The template every power module follows, and the helpers they share (``docs/design.md``; lykos ``src/roles``).

A power module exposes one ``POWER`` value (``Power``): its name, the rule in plain words with the rulebook
line, *when* it acts (``stage``), *who* holds it (``team``), how many contestants it names (``targets``), how
often it may be used (``uses``), ``validate`` (raises ``IllegalAction``; never looks at a secret, so a refusal
never leaks one) and ``resolve`` (called once per use, in ``engine.rulesets.traitors.powers.NIGHT_ORDER``). Power modules hold no
module-level mutable state: per-series data lives in ``PowerState`` on the game.

Words used here:

* **impaired**: drunk (dealt, rulebook §2) or intoxicated (The Bartender), and not sobered by The Sober; a
  Mimic's copy of a Traitor's false power behaves the same. An impaired contestant's information is false and
  their abilities fail silently ([house] §2).
* **registers as**: the allegiance information powers and the Sheriff see: the truth, flipped for a
  contestant falsified tonight (rulebook §5). Twists always see the truth.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.values import copied_by_value

if TYPE_CHECKING:
    from engine.rulesets.traitors.game import Game

TURRET = "turret"
"""Used by a sworn Traitor in the Turret after the night's event is chosen (rulebook §5, §7.2)."""
VISIT = "visit"
"""Used when the host visits (rulebook §7.4)."""
PASSIVE = "passive"
"""Never chosen: acts by itself (The Survivor's alert)."""


@dataclass(frozen=True, slots=True)
class Use:
    """One use of a power tonight: ``actor`` used ``power`` on ``targets`` (empty for automatic powers)."""

    actor: str
    power: PowerName
    targets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Power:
    """One power's rule as data plus its two functions.

    Args:
        name: the power (``engine.ids.Power``).
        rule: the rule in plain words, citing the rulebook line.
        stage: ``TURRET``, ``VISIT`` or ``PASSIVE``.
        team: the allegiance of its holders.
        targets: contestants named per use: 0 (automatic), 1 or 2 (The Analyst).
        uses: uses per series; ``None`` = once per night, every night.
        validate: ``(game, actor, targets) -> None``; raises ``IllegalAction`` (reason: a message key).
        resolve: ``(game, use) -> None``; applies the use through the game's helpers.
        options: ``(game, actor, alive) -> [(target, second or None), ...]``: exactly the targets among
            ``alive`` (the living contestants in seat order) that ``validate`` accepts now, in the order the
            prompt lists them (one target: seat order; two: each pair once, the earlier seat first). The
            prompt's choices and ``Game.legal_actions`` come from it: one pass over the table instead of a
            ``validate`` call per candidate. ``None`` (the powers that name nobody): every candidate goes
            through ``validate``. ``tests/engine/rulesets/traitors/test_powers.py`` checks the two agree.
    """

    name: PowerName
    rule: str
    stage: str
    team: Allegiance
    targets: int
    uses: int | None
    validate: Callable[[Game, str, tuple[str, ...]], None]
    resolve: Callable[[Game, Use], None]
    options: Callable[[Game, str, list[str]], list[tuple[str, str | None]]] | None = None


@dataclass(slots=True)
class PowerState:
    """Per-series state of the powers. Every field says when it is set and cleared."""

    intoxicated: set[str] = field(default_factory=set)
    """Set by The Bartender at tonight's resolution; cleared when the next night begins."""
    falsified: set[str] = field(default_factory=set)
    """Set by The Falsifier at tonight's resolution; cleared when the next night begins."""
    sobered: set[str] = field(default_factory=set)
    """Set by The Sober at tonight's resolution; cleared when the next night begins."""
    silenced: set[str] = field(default_factory=set)
    """Set by The Silencer; no vote paper at the next round table; cleared when the next night begins."""
    cleansed: set[str] = field(default_factory=set)
    """Set by The Cleanser at tonight's resolution; cleared at the end of the night."""
    shields: set[str] = field(default_factory=set)
    """Murder shield holders protected tonight (filled by the Confession twist); a used shield is removed and
    every shield is cleared at the end of the night (rulebook §8: the following night only)."""
    guessed: set[str] = field(default_factory=set)
    """Contestants rightly guessed by the Traitors tonight (filled by the Guess twist); cleared at night's end.
    A guessed contestant loses their power for the series, except a Cleanser who cleanses themself."""
    used: Counter[tuple[str, PowerName]] = field(default_factory=Counter)
    """(contestant, power) → uses so far this series (a use while impaired counts, [house] §2)."""
    last_target: dict[tuple[str, PowerName], tuple[int, str]] = field(default_factory=dict)
    """(contestant, power) → (night, target) of their last use (the "not the same … running" rules)."""
    judge_self: set[str] = field(default_factory=set)
    """Judges who have protected themselves (at most once, rulebook §5)."""
    protected: str | None = None
    """The Judge's protection for the next round table (set at night, cleared after that round table)."""
    accusation: str | None = None
    """The Sheriff's accused for the next round table (``None`` when none, or the Sheriff was impaired or
    murdered: announced then failing silently is modelled by ``accusation_fails``)."""
    accusation_fails: bool = False
    """True when the accusation is announced but fails whatever the accused registers as (impaired Sheriff)."""
    alerted: str | None = None
    """The Survivor alerted instead of murdered; murdered after the next round table unless it banishes a
    Traitor (rulebook §5). Cleared after that round table."""
    copied: dict[str, tuple[PowerName | None, int, bool]] = field(default_factory=dict)
    """Mimic → (copied power, night copied, behaves as drunk). Active from the next night on."""
    removed_seen: dict[str, str | None] = field(default_factory=dict)
    """Historian → the removed contestant they were last told about."""
    jokers: set[str] = field(default_factory=set)
    """Holders of the Joker (rulebook §6); a holder's Faithful power is a false power while they hold it."""
    joker_offered: bool = False
    """True once the Joker has been offered this series."""


def living_other(game: Game, actor: str, target: str) -> None:
    """Raise unless ``target`` is another living contestant."""
    if target not in game.players:
        raise IllegalAction("illegal.unknown_player", player=target)
    if target == actor:
        raise IllegalAction("illegal.power.self")
    if not game.players[target].alive:
        raise IllegalAction("illegal.power.target", target=target)


def living(game: Game, target: str) -> None:
    """Raise unless ``target`` is a living contestant (oneself allowed)."""
    if target not in game.players:
        raise IllegalAction("illegal.unknown_player", player=target)
    if not game.players[target].alive:
        raise IllegalAction("illegal.power.target", target=target)


def one_target(targets: tuple[str, ...]) -> str:
    """The single target of a one-target power."""
    if len(targets) != 1:
        raise IllegalAction("illegal.power.targets", count="1")
    return targets[0]


def last_night_target(game: Game, actor: str, power: PowerName) -> str | None:
    """The contestant ``actor`` named with ``power`` last night (the one ``not_last_night`` refuses); else ``None``."""
    last = game.powers.last_target.get((actor, power))
    return last[1] if last is not None and last[0] == game.day - 1 else None


def last_use_target(game: Game, actor: str, power: PowerName) -> str | None:
    """The contestant ``actor`` named at their last use of ``power`` (the one ``not_last_use`` refuses); else
    ``None``."""
    last = game.powers.last_target.get((actor, power))
    return last[1] if last is not None else None


def not_last_night(game: Game, actor: str, power: PowerName, target: str) -> None:
    """"Not the same one two nights running" (The Bartender, The Silencer)."""
    if target == last_night_target(game, actor, power):
        raise IllegalAction("illegal.power.repeat", target=target)


def not_last_use(game: Game, actor: str, power: PowerName, target: str) -> None:
    """"Not the same twice running" (The Judge, The Guardian)."""
    if target == last_use_target(game, actor, power):
        raise IllegalAction("illegal.power.repeat", target=target)


def anyone(alive: list[str]) -> list[tuple[str, str | None]]:
    """``options`` of a power that may name any living contestant (``alive``), oneself included."""
    return [(t, None) for t in alive]


def others(actor: str, alive: list[str], *excluded: str | None) -> list[tuple[str, str | None]]:
    """``options`` of a power that names another living contestant (``living_other``), none of ``excluded``."""
    return [(t, None) for t in alive if t != actor and t not in excluded]


def wrong_choice(game: Game, options: list[str], truth: str) -> str:
    """A false answer drawn from the wrong answers by the seeded generator ([house] §2)."""
    wrong = sorted(o for o in options if o != truth)
    return game.rng.choice(wrong) if wrong else truth


def power_title(power: PowerName | None) -> str:
    """A power's name as told to a contestant ("The Analyst"; "no power")."""
    return power.title if power is not None else "no power"


ALL_TITLES: tuple[str, ...] = tuple(p.title for p in PowerName) + ("no power",)
"""Every answer a power-name question can have."""

__all__ = [
    "ALL_TITLES",
    "PASSIVE",
    "Power",
    "PowerState",
    "TURRET",
    "Use",
    "VISIT",
    "anyone",
    "last_night_target",
    "last_use_target",
    "living",
    "living_other",
    "not_last_night",
    "not_last_use",
    "one_target",
    "others",
    "power_title",
    "wrong_choice",
]


copied_by_value(Use, Power)  # copies and pickles by value (engine.values)
