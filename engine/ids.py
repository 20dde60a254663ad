"""Names used everywhere: contestants, allegiances, powers, places, items, torches.

All enums carry the rulebook's words (``docs/rules/traitors.md``). Values are stable strings: they appear in
scenario files, the JSON game log and the bridge's item ``custom_data``.
"""

from __future__ import annotations

import enum
from typing import NewType

PlayerId = NewType("PlayerId", str)
"""A contestant's (or the host's) Minecraft name, e.g. ``"Alex"``. Validated by the bridge at the edge."""


class Enum(enum.Enum):
    """Base of the engine's enums. Nothing may depend on the iteration order of a set of members: it changes with
    the string hash seed from one process to the next."""


class Allegiance(Enum):
    """Which side a contestant is on (rulebook §1)."""

    FAITHFUL = "faithful"
    TRAITOR = "traitor"

    @property
    def title(self) -> str:
        """The rulebook's word: ``"Faithful"`` or ``"Traitor"``."""
        return "Faithful" if self is Allegiance.FAITHFUL else "Traitor"


class Power(Enum):
    """Every power of rulebook §5 and §6. ``title`` is the name as written in game logs ("The Sober")."""

    # Traitor powers
    BARTENDER = "bartender"
    FALSIFIER = "falsifier"
    SILENCER = "silencer"
    # Faithful powers (dealt)
    ANALYST = "analyst"
    RESEARCHER = "researcher"
    SHERIFF = "sheriff"
    CLEANSER = "cleanser"
    DETECTIVE = "detective"
    HISTORIAN = "historian"
    MIMIC = "mimic"
    SOBER = "sober"
    SPY = "spy"
    SURVIVOR = "survivor"
    JUDGE = "judge"
    GUARDIAN = "guardian"
    # offered, never dealt
    JOKER = "joker"

    @property
    def title(self) -> str:
        """``"The Analyst"`` etc."""
        return "The " + self.value.capitalize()

    def drunk_title(self) -> str:
        """The game-log name of this power held drunk: ``"The Drunk Cleanser"`` (rulebook §2)."""
        return "The Drunk " + self.value.capitalize()

    @property
    def is_traitor_power(self) -> bool:
        """True for The Bartender, The Falsifier and The Silencer."""
        return self in TRAITOR_POWERS


TRAITOR_POWERS: tuple[Power, ...] = (Power.BARTENDER, Power.FALSIFIER, Power.SILENCER)
"""Rulebook §1: the Traitor powers, in the order of the example deal."""

FAITHFUL_POWERS: tuple[Power, ...] = (
    Power.ANALYST,
    Power.RESEARCHER,
    Power.SHERIFF,
    Power.CLEANSER,
    Power.DETECTIVE,
    Power.HISTORIAN,
    Power.MIMIC,
    Power.SOBER,
    Power.SPY,
    Power.SURVIVOR,
    Power.JUDGE,
    Power.GUARDIAN,
)
"""Rulebook §1: the dealt Faithful powers (The Guardian is [house]); The Joker is never dealt."""


class Place(Enum):
    """The castle's places (rulebook §10). Coordinates live in ``world_config/castle.toml``, never here.

    ``ROUND_TABLE``, ``HOME`` and ``BREAKFAST_TABLE`` are per contestant: the effect carries the seat number.
    ``HOME_VISIT`` is a contestant's home entered as a visitor (the Traitors who bring an offer, rulebook §7.2): the
    effect carries that home's seat, and the visitors stand in front of its resident.
    ``GATE`` is outside the castle, where banished contestants leave to ([house]).
    """

    ROUND_TABLE = "round_table"
    BREAKFAST_ROOM = "breakfast_room"
    FOYER = "foyer"
    LIBRARY = "library"
    BAR = "bar"
    KITCHEN = "kitchen"
    BILLIARDS_ROOM = "billiards_room"
    DIARY_ROOM = "diary_room"
    FINALE_AREA = "finale_area"
    OATH_SPOT = "oath_spot"
    TURRET = "turret"
    CONFESSION_ROOM = "confession_room"
    HOME = "home"
    HOME_VISIT = "home_visit"
    GATE = "gate"
    BREAKFAST_TABLE = "breakfast_table"
    """Each contestant's place at the breakfast table, where their player head is set as they arrive (§10);
    nobody is sent there."""


class Item(Enum):
    """The castle's items (rulebook §10). The bridge gives them with components and ``custom_data``."""

    NOTES_BOOK = "notes_book"
    VOTE_PAPER = "vote_paper"
    DOUBLE_VOTE_PAPER = "double_vote_paper"
    CAST_VOTE_PAPER = "cast_vote_paper"
    """A vote paper after casting: renamed to the chosen contestant (rulebook §4)."""
    BANISH_TORCH = "banish_torch"
    """A finalist's vote given to the host (§9): turns red (``redstone_torch``) when placed: banish again."""
    END_TORCH = "end_torch"
    """A finalist's vote given to the host (§9): turns green (``copper_torch``) when placed: end game."""
    SACRED_SWORD = "sacred_sword"
    MURDER_SHIELD = "murder_shield"
    DEADLOCK_SHIELD = "deadlock_shield"
    TRAITORS_CLOAK = "traitors_cloak"
    LANTERN = "lantern"
    RESPONSE_BOOK = "response_book"
    SEER_BOOK = "seer_book"
    DIARY_BOOK = "diary_book"
    CONFESSION_BOOK = "confession_book"
    """A writable book for the Confession twist: the contestant writes a confession to the Traitors (§8)."""
    RESPONSE_DRAFT = "response_draft"
    """The writable book the Traitors write their anonymous reply in, held only in the Turret (§8)."""
    FAITHFUL_FANCY = "faithful_fancy"
    """A drink from the bar (§10); no effect; anyone may take it."""
    TRAITORS_TIPPLE = "traitors_tipple"
    """A drink from the bar (§10); no effect; anyone may take it."""
    PLAYER_HEAD = "player_head"
    """A contestant's head, set at their place at the breakfast table as they arrive (§10); never held."""


class Torch(Enum):
    """A finalist's torch vote (rulebook §9)."""

    BANISH_AGAIN = "banish_again"
    END_GAME = "end_game"

    @property
    def title(self) -> str:
        """``"Banish Again"`` or ``"End Game"``, as in the rulebook's finale table."""
        return "Banish Again" if self is Torch.BANISH_AGAIN else "End Game"


TORCHES: tuple[Torch, ...] = tuple(Torch)
"""Both torches in order (iterating the enum class itself runs ``enum``'s Python-level ``__iter__``)."""


class NightEvent(Enum):
    """What the Traitors choose in the Turret (rulebook §7.2)."""

    MURDER = "murder"
    SEDUCE = "seduce"
    ULTIMATUM = "ultimatum"


class Twist(Enum):
    """Twists of rulebook §8 (``engine.rulesets.traitors.twists``: one module per twist)."""

    DOUBLE_VOTE = "double_vote"
    MURDER = "murder"
    CONFESSION = "confession"
    GUESS = "guess"
    SEER = "seer"
    TRIAL = "trial"


class Drink(Enum):
    """The bar's drinks (rulebook §10): no effect; either may be taken by anyone, once per series."""

    FAITHFUL_FANCY = "faithful_fancy"
    TRAITORS_TIPPLE = "traitors_tipple"

    @property
    def title(self) -> str:
        """``"Faithful Fancy"`` or ``"Traitors' Tipple"``."""
        return "Faithful Fancy" if self is Drink.FAITHFUL_FANCY else "Traitors' Tipple"

    @property
    def item(self) -> Item:
        """The glass the contestant is handed."""
        return Item(self.value)
