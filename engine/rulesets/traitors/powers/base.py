"""The template every power module follows, and the helpers they share (``docs/design.md``; lykos ``src/roles``).

A power module exposes one ``POWER`` value (``Power``): its name, the rule in plain words with the rulebook
line, *when* it acts (``stage``), *who* holds it (``team``), how many contestants it names (``targets``), how
often it may be used (``uses``), ``validate`` (raises ``IllegalAction``; never looks at a secret, so a refusal
never leaks one) and ``resolve`` (called once per use, in ``engine.rulesets.traitors.powers.NIGHT_ORDER``). Power modules hold no
module-level mutable state: per-series data lives in ``PowerState`` on the game (``engine.rulesets.traitors.state``). Powers see the
series only through ``engine.rulesets.traitors.context.Context``.

Words used here:

* **impaired**: drunk (dealt, rulebook §2) or intoxicated (The Bartender), and not sobered by The Sober; a
  Mimic's copy of a Traitor's false power behaves the same. An impaired contestant's information is false and
  their abilities fail silently ([house] §2).
* **registers as**: the allegiance information powers and the Sheriff see: the truth, flipped for a
  contestant falsified tonight (rulebook §5). Twists always see the truth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import IllegalAction
from engine.ids import Allegiance
from engine.ids import Power as PowerName
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.state import PowerState, Use

TURRET = "turret"
"""Used by a sworn Traitor in the Turret after the night's event is chosen (rulebook §5, §7.2)."""
VISIT = "visit"
"""Used when the host visits (rulebook §7.4)."""
PASSIVE = "passive"
"""Never chosen: acts by itself (The Survivor's alert)."""


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
    validate: Callable[[Context, str, tuple[str, ...]], None]
    resolve: Callable[[Context, Use], None]
    options: Callable[[Context, str, list[str]], list[tuple[str, str | None]]] | None = None


def living_other(game: Context, actor: str, target: str) -> None:
    """Raise unless ``target`` is another living contestant."""
    if target not in game.players:
        raise IllegalAction("illegal.unknown_player", player=target)
    if target == actor:
        raise IllegalAction("illegal.power.self")
    if not game.players[target].alive:
        raise IllegalAction("illegal.power.target", target=target)


def living(game: Context, target: str) -> None:
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


def last_night_target(game: Context, actor: str, power: PowerName) -> str | None:
    """The contestant ``actor`` named with ``power`` last night (the one ``not_last_night`` refuses); else ``None``."""
    last = game.powers.last_target.get((actor, power))
    return last[1] if last is not None and last[0] == game.day - 1 else None


def last_use_target(game: Context, actor: str, power: PowerName) -> str | None:
    """The contestant ``actor`` named at their last use of ``power`` (the one ``not_last_use`` refuses); else
    ``None``."""
    last = game.powers.last_target.get((actor, power))
    return last[1] if last is not None else None


def not_last_night(game: Context, actor: str, power: PowerName, target: str) -> None:
    """ "Not the same one two nights running" (The Bartender, The Silencer)."""
    if target == last_night_target(game, actor, power):
        raise IllegalAction("illegal.power.repeat", target=target)


def not_last_use(game: Context, actor: str, power: PowerName, target: str) -> None:
    """ "Not the same twice running" (The Judge, The Guardian)."""
    if target == last_use_target(game, actor, power):
        raise IllegalAction("illegal.power.repeat", target=target)


def anyone(alive: list[str]) -> list[tuple[str, str | None]]:
    """``options`` of a power that may name any living contestant (``alive``), oneself included."""
    return [(t, None) for t in alive]


def others(actor: str, alive: list[str], *excluded: str | None) -> list[tuple[str, str | None]]:
    """``options`` of a power that names another living contestant (``living_other``), none of ``excluded``."""
    return [(t, None) for t in alive if t != actor and t not in excluded]


def another_living(game: Context, actor: str, targets: tuple[str, ...]) -> None:
    """``validate`` of a power that names one other living contestant."""
    living_other(game, actor, one_target(targets))


def other_living(_game: Context, actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """``options`` of a power that names one other living contestant (``another_living``)."""
    return others(actor, alive)


def any_living(game: Context, _actor: str, targets: tuple[str, ...]) -> None:
    """``validate`` of a power that names one living contestant, oneself included."""
    living(game, one_target(targets))


def any_living_options(_game: Context, _actor: str, alive: list[str]) -> list[tuple[str, str | None]]:
    """``options`` of a power that names one living contestant, oneself included (``any_living``)."""
    return anyone(alive)


def wrong_choice(game: Context, options: list[str], truth: str) -> str:
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
