"""Names used everywhere: contestants, allegiances, powers, places, items, torches, twists.

All enums carry the rulebook's words (``docs/rules/traitors.md``). Values are stable strings: they appear in
scenario files, the JSON game log and the bridge's item ``custom_data``. A twist's key (``Twist``) is not listed
here: each twist's own module declares it (``Twist.declare``).
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Iterator
from typing import ClassVar, NewType

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


class _TwistKeys(type):
    """The class of ``Twist``: the class reads like an enum of the declared keys (``Twist.MURDER``, ``for t in
    Twist``, ``len(Twist)``)."""

    def __iter__(cls) -> Iterator[Twist]:
        """The declared keys, by number (the host's twist buttons' order), those without one last."""
        _load_twists()
        keys = Twist._declared.values()  # noqa: SLF001 - the metaclass reads its own class's keys
        return iter(sorted(keys, key=lambda t: (t.number is None, t.number or 0)))

    def __len__(cls) -> int:
        _load_twists()
        return len(Twist._declared)  # noqa: SLF001 - the metaclass reads its own class's keys

    def __getattr__(cls, name: str) -> Twist:
        """``Twist.MURDER``: a key declared since the class's attributes were last set (loads the rulesets first).

        Raises:
            AttributeError: no twist has that name.
        """
        if name.startswith("_") or not name.isupper():
            raise AttributeError(name)
        _load_twists()
        for key in Twist._declared.values():  # noqa: SLF001 - the metaclass reads its own class's keys
            if key.name == name:
                return key
        raise AttributeError(f"no twist is named {name}")


def _load_twists() -> None:
    """Import the ruleset registry (``engine.rulesets``) once: its rulesets' twist modules declare their keys.

    A key is declared by its twist's module (``Twist.declare``), so a lookup before any ruleset was imported
    (a settings file read first) would otherwise find none; the import is at call time because the registry
    imports this module.
    """
    if not _LOADED:
        _LOADED.append(True)
        importlib.import_module("engine.rulesets")


_LOADED: list[bool] = []


class Twist(metaclass=_TwistKeys):
    """A twist's key (rulebook §8): a stable string (``value``, e.g. ``"double_vote"``) in scenario files, the JSON
    game log, settings and the record, declared by the twist's own module (``Twist.declare``, used by its
    ``engine.rulesets.traitors.twists.spec.TwistSpec``). Keys are singletons compared by identity, like enum
    members: ``Twist("murder")`` is the declared key (``ValueError`` for an unknown one), ``Twist.MURDER`` reads it
    by name, and iterating the class gives every declared key.

    Attributes:
        value: the stable string.
        name: ``value`` in capitals (``"DOUBLE_VOTE"``).
        number: the twist's number on the host's ``traitors.twist`` trigger (start: the number, cancel: 100 + the
            number); a number handed out never changes meaning, so a new twist takes the next free one; ``None``:
            the host cannot start it by trigger.
    """

    __slots__ = ("name", "number", "value")
    value: str
    name: str
    number: int | None
    _declared: ClassVar[dict[str, Twist]] = {}

    def __new__(cls, value: object) -> Twist:
        """The declared key ``value``.

        Raises:
            ValueError: no twist has that key (or ``value`` is not a string).
        """
        key = cls._declared.get(value) if isinstance(value, str) else None
        if key is None and isinstance(value, str):
            _load_twists()
            key = cls._declared.get(value)
        if key is None:
            raise ValueError(f"{value!r} is not a valid Twist")
        return key

    @classmethod
    def declare(cls, value: str, number: int | None = None) -> Twist:
        """Declare a twist's key (its module does, once); declaring the same key and number again returns it.

        Args:
            value: the stable string (lower case letters and ``_``).
            number: its ``traitors.twist`` number (see the class), or ``None``.

        Raises:
            ValueError: a malformed key, or a key or number already declared otherwise.
        """
        known = cls._declared.get(value)
        if known is not None and known.number == number:
            return known
        if known is not None or not value.replace("_", "").isalpha() or not value.islower():
            raise ValueError(f"twist key {value!r} is malformed or already declared")
        if number is not None and any(t.number == number for t in cls._declared.values()):
            raise ValueError(f"twist number {number} is already declared")
        key = object.__new__(cls)
        for attr, v in (("value", value), ("name", value.upper()), ("number", number)):
            object.__setattr__(key, attr, v)
        cls._declared[value] = key
        type.__setattr__(cls, key.name, key)
        return key

    @classmethod
    def withdraw(cls, key: Twist) -> None:
        """Forget a declared key (a twist taken out of the registry again, as a test's own twist is)."""
        if cls._declared.get(key.value) is key:
            del cls._declared[key.value]
            type.__delattr__(cls, key.name)

    def __repr__(self) -> str:
        return f"<Twist.{self.name}: {self.value!r}>"

    def __str__(self) -> str:
        return f"Twist.{self.name}"

    def __reduce__(self) -> tuple[type[Twist], tuple[str]]:
        return Twist, (self.value,)

    def __copy__(self) -> Twist:
        return self

    def __deepcopy__(self, memo: object) -> Twist:
        return self


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
