"""The ruleset registry (``docs/design.md``; python-chess ``VARIANTS``): every ruleset by name, one interface.

Every game class here has the same interface, ``engine.core.ruleset.RulesetGame``, so the bridge (service, demo,
scenarios, export) works with any ruleset: ``Game(settings, seed)``, ``handle(action, now=…)``,
``legal_actions(player)``, ``view_for(player)``, ``Game.replay(settings, seed, log)``, ``record``, ``outcome``,
``is_over``, ``seats()``, ``contestants()``, ``settings``, ``phase``, ``phase_seq``, ``deadline``, ``hosts``,
``items``, ``places``, ``started``, ``log``. ``docs/rulesets.md`` explains how to add a ruleset.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.ruleset import Ruleset, RulesetGame
from engine.errors import ConfigError
from engine.rulesets.club import black_knights, mafia_yakuza
from engine.rulesets.traitors import spec as traitors_spec

RULESETS: dict[str, Ruleset] = {r.name: r for r in (traitors_spec.RULESET, black_knights.RULESET, mafia_yakuza.RULESET)}
"""Every ruleset by name, each declared by its own package (``engine.core.ruleset.Ruleset``)."""

DEFAULT_RULESET = traitors_spec.RULESET.name
"""The ruleset of a series that names none: the command line's default, a settings value without ``ruleset``."""


def ruleset_of(settings: object) -> Ruleset:
    """The ruleset a settings value belongs to (``Settings`` → traitors; ``ClubSettings.ruleset``).

    Raises:
        ConfigError: an unknown ruleset name.
    """
    name = getattr(settings, "ruleset", DEFAULT_RULESET)
    if name not in RULESETS:
        raise ConfigError(f"ruleset: unknown ruleset {name!r} (known: {', '.join(RULESETS)})")
    return RULESETS[name]


def family(game: RulesetGame) -> str:
    """The game family of ``game``'s ruleset (``Ruleset.family``: ``"traitors"`` or ``"club"``); ``""`` for a
    ruleset not in the registry."""
    spec = RULESETS.get(game.ruleset)
    return spec.family if spec is not None else ""


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


__all__ = ["DEFAULT_RULESET", "RULESETS", "Ruleset", "family", "new_game", "replay", "ruleset_of"]
