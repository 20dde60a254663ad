"""The ruleset registry (``docs/design.md``; python-chess ``VARIANTS``): every ruleset by name, one interface.

Every game class here has the same interface, ``engine.core.ruleset.RulesetGame``, so the bridge (service, demo,
scenarios, export) works with any ruleset: ``Game(settings, seed)``, ``handle(action, now=…)``,
``legal_actions(player)``, ``view_for(player)``, ``Game.replay(settings, seed, log)``, ``record``, ``outcome``,
``is_over``, ``seats()``, ``contestants()``, ``settings``, ``phase``, ``phase_seq``, ``deadline``, ``hosts``,
``items``, ``places``, ``started``, ``log``. ``docs/rulesets.md`` explains how to add a ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.core.ruleset import RulesetGame
from engine.errors import ConfigError
from engine.rulesets.club.black_knights import BlackKnightsGame
from engine.rulesets.club.mafia_yakuza import MafiaYakuzaGame
from engine.rulesets.club.settings import ClubSettings
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import Settings


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One registered ruleset.

    Args:
        name: the registry key (``"traitors"``, ``"black_knights"``, ``"mafia_yakuza"``).
        title: the display name.
        game: the game class (the common interface, ``engine.core.ruleset.RulesetGame``).
        settings: the settings class its games take (``Settings``, ``ClubSettings``).
        rulebook: the ruleset's rules page under ``docs/rules/``.
    """

    name: str
    title: str
    game: type[RulesetGame]
    settings: type[Any]
    rulebook: str


RULESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        Ruleset("traitors", "The Traitors", Game, Settings, "traitors.md"),
        Ruleset("black_knights", "Black Knights", BlackKnightsGame, ClubSettings, "black-knights.md"),
        Ruleset("mafia_yakuza", "Mafia & Yakuza", MafiaYakuzaGame, ClubSettings, "mafia-yakuza.md"),
    )
}
"""Every ruleset by name."""


def ruleset_of(settings: object) -> Ruleset:
    """The ruleset a settings value belongs to (``Settings`` → traitors; ``ClubSettings.ruleset``).

    Raises:
        ConfigError: an unknown ruleset name.
    """
    name = getattr(settings, "ruleset", "traitors")
    if name not in RULESETS:
        raise ConfigError(f"ruleset: unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
    return RULESETS[name]


def new_game(settings: object, seed: int) -> RulesetGame:
    """A new (not yet started) game of the settings' ruleset.

    Raises:
        ConfigError: bad settings or an unknown ruleset.
    """
    return ruleset_of(settings).game(settings, seed)


def replay(settings: object, seed: int, log: Iterable[dict[str, Any]]) -> RulesetGame:
    """Rebuild a game of any ruleset from its input log (``RulesetGame.log``: ``{"now": seconds, "action": kind,
    ...}`` entries).

    Raises:
        ConfigError: bad settings or an unknown ruleset.
        InvalidCommand, IllegalAction: an entry is not an input the series took.
    """
    return ruleset_of(settings).game.replay(settings, seed, log)


__all__ = ["RULESETS", "Ruleset", "new_game", "replay", "ruleset_of"]
