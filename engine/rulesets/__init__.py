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
from engine.messages import CATALOG
from engine.rulesets.club import black_knights, mafia_yakuza
from engine.rulesets.club.settings import ClubSettings
from engine.rulesets.traitors import spec as traitors_spec
from engine.rulesets.traitors.settings import Settings

AnySettings = Settings | ClubSettings
"""The settings of any registered ruleset (``Ruleset.settings``)."""

RULESETS: dict[str, Ruleset] = {}
"""Every ruleset by name, each declared by its own package (``engine.core.ruleset.Ruleset``) and added by
``register``."""


def register(ruleset: Ruleset) -> None:
    """Add ``ruleset`` to ``RULESETS`` (after the others: the order of ``--ruleset``'s choices and of the lab's
    tables) and its own messages (``Ruleset.messages``) to the message catalogue.

    Raises:
        ValueError: a ruleset of that name is registered, or one of its message keys is in the catalogue.
    """
    if ruleset.name in RULESETS:
        raise ValueError(f"ruleset {ruleset.name!r} is already registered")
    taken = sorted(set(ruleset.messages) & set(CATALOG))
    if taken:
        raise ValueError(f"ruleset {ruleset.name!r}: message keys already in the catalogue: {', '.join(taken)}")
    CATALOG.update(ruleset.messages)
    RULESETS[ruleset.name] = ruleset


def unregister(name: str) -> None:
    """Take the ruleset ``name`` added by ``register`` out of ``RULESETS``, with its messages; nothing for a name
    not registered."""
    ruleset = RULESETS.pop(name, None)
    for key in ruleset.messages if ruleset is not None else ():
        CATALOG.pop(key, None)


for _ruleset in (traitors_spec.RULESET, black_knights.RULESET, mafia_yakuza.RULESET):
    register(_ruleset)

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


def twist_tables() -> list[Any]:
    """The twist registries of the registered rulesets that have twists (``Ruleset.twist_table``), in registry
    order: what the host's console and the trigger table read of the twists, whichever ruleset declares them."""
    return [r.twist_table for r in RULESETS.values() if r.twist_table is not None]


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


__all__ = [
    "DEFAULT_RULESET",
    "AnySettings",
    "RULESETS",
    "Ruleset",
    "family",
    "new_game",
    "register",
    "replay",
    "ruleset_of",
    "twist_tables",
    "unregister",
]
