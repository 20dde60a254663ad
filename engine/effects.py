"""Outputs of the engine: what happens, in game words, never Minecraft syntax.

Hidden information has one door: every effect names its recipients. ``to=None`` means public (everyone in
the castle); otherwise ``to`` is the exact set of contestants allowed to receive it, resolved inside the
engine, so the bridge never needs to know roles to deliver a message (``docs/design.md#hidden-information``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from engine.actions import Action
from engine.ids import Allegiance, Item, Place
from engine.messages import render, value_text
from engine.outcome import Outcome


@dataclass(frozen=True, slots=True)
class Message:
    """A player-facing message: a catalogue key plus its parameters.

    Args:
        key: a key of ``engine.messages.CATALOG`` (also the client translation key, prefixed ``traitors.``).
        params: ``(name, value)`` pairs filling the key's ``{name}`` placeholders. A value is plain text (a name,
            a number), a ``Message`` (a term: a power's name, a torch… that each client translates, see
            ``engine.messages_terms``) or a tuple of such values (a list).
    """

    key: str
    params: tuple[tuple[str, Value], ...] = ()
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    """The text once rendered (not part of the value: equality, hashing and ``repr`` ignore it)."""

    @property
    def text(self) -> str:
        """The English text (rendered on first use, then kept: a message is read once per recipient's inbox)."""
        text = self._text
        if text is None:
            text = _render(self.key, self.params)
            object.__setattr__(self, "_text", text)  # a frozen value's cache, as functools.cached_property would
        return text

    @property
    def english_params(self) -> tuple[tuple[str, str], ...]:
        """``params`` with every value as its English text (a term rendered, a list joined): what a bot reads."""
        if all([type(v) is str for _k, v in self.params]):  # noqa: C419 - a list is faster for two or three
            return self.params  # type: ignore[return-value]  # the usual case: names and numbers only
        return tuple([(k, value_text(v)) for k, v in self.params])


Value: TypeAlias = "str | Message | tuple[str | Message, ...]"
"""A message parameter's value (``Message.params``)."""


@functools.lru_cache(maxsize=8192)
def _render(key: str, params: tuple[tuple[str, Value], ...]) -> str:
    """``engine.messages.render``, remembered: a series says the same few hundred texts over and over (the
    message to every recipient, every view's inbox), and rendering them was the engine's largest cost
    (``docs/performance.md``). Pure: the catalogue never changes while the process runs."""
    return render(key, dict(params))


@functools.lru_cache(maxsize=1 << 14, typed=True)
def msg(key: str, **params: object) -> Message:
    """Shorthand: ``msg("vote.cast", target="Alex")``. Values (``str`` or ``int``: hashable) are turned into
    strings; a ``Message`` (a term) stays a message, a tuple a tuple of strings and messages.

    Remembered (a bounded cache keyed by the arguments and their types): a ``Message`` is an immutable value, and
    a series says the same few hundred messages over and over (``docs/performance.md``).
    """
    return Message(key, tuple([(k, _value(v)) for k, v in params.items()]))


def _value(v: object) -> Value:
    if isinstance(v, Message):
        return v
    if isinstance(v, tuple):
        return tuple([x if isinstance(x, Message) else str(x) for x in v])
    return str(v)


@dataclass(frozen=True, slots=True)
class Effect:
    """Base of every effect. ``to`` is ``None`` for public effects, else the recipients."""

    @property
    def recipients(self) -> frozenset[str] | None:
        """Who may receive this effect; ``None`` = everyone."""
        return getattr(self, "to", None)


@dataclass(frozen=True, slots=True)
class Announce(Effect):
    """The host says something to everyone (public chat)."""

    message: Message


@functools.lru_cache(maxsize=1 << 14, typed=True)
def announce(key: str, **params: object) -> Announce:
    """``Announce(msg(key, **params))``, remembered like ``msg``: an announcement is an immutable value, and a
    series makes the same ones over and over (the reveal of each paper, the count)."""
    return Announce(msg(key, **params))


@dataclass(frozen=True, slots=True)
class Whisper(Effect):
    """Something only ``to`` may read (private chat; rulebook: "tells each player only what they may know")."""

    to: frozenset[str]
    message: Message


@functools.lru_cache(maxsize=1 << 14, typed=True)
def whisper(recipient: str, key: str, **params: object) -> Whisper:
    """``Whisper(frozenset({recipient}), msg(key, **params))``, remembered like ``announce`` (a contestant is told
    the same things night after night: "your vote is cast", "your choice is noted"). The key is made of strings
    and numbers, hashed in C (a ``Message`` would be hashed by its dataclass's Python ``__hash__``)."""
    return Whisper(frozenset((recipient,)), msg(key, **params))


@dataclass(frozen=True, slots=True)
class Choice:
    """One clickable option of a ``Prompt``: a label and the exact input it sends."""

    label: str
    action: Action


@functools.lru_cache(maxsize=1 << 16)
def choice(label: str, kind: Callable[..., Action], *fields: Any) -> Choice:
    """``Choice(label, kind(*fields))``, made once and then reused: choices are values, and the same ones (a vote
    for Alex, "Murder Sam") are offered ballot after ballot, night after night and, in the balance lab, series
    after series (``docs/performance.md``).

    Args:
        label: the option's text.
        kind: the input's class (``engine.actions``).
        fields: the input's fields, in order (names, enum members, ``None``: hashable values).
    """
    return Choice(label, kind(*fields))


@dataclass(frozen=True, slots=True)
class Prompt(Effect):
    """Ask one contestant to choose: the bridge shows ``choices`` as clickable options (dialog or chat)."""

    to: frozenset[str]
    message: Message
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class ShowTitle(Effect):
    """A big title on screen; ``to=None`` for everyone."""

    title: Message
    subtitle: Message | None = None
    to: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class MoveTo(Effect):
    """Teleport contestants to a place. ``seats`` gives, per contestant, the seat number (1-based) used for
    per-seat places (``ROUND_TABLE``, ``HOME``); it is public information (the seating is public)."""

    players: tuple[str, ...]
    place: Place
    seats: tuple[int, ...] = ()


Label: TypeAlias = "str | Message | None"
"""What an item carries besides its kind (``GiveItem.label``): a name (the contestant written on a cast vote
paper, the finalist a finale torch stands for), the text of a letter's pages (the Traitors' reply), or a
``Message``: a letter's page that each reader's client shows in their own language (the seer book)."""


def label_text(label: Label) -> str:
    """An item's label as English text (``""`` for none): a name as it is, a ``Message`` rendered."""
    if label is None:
        return ""
    return label.text if isinstance(label, Message) else label


@dataclass(frozen=True, slots=True)
class GiveItem(Effect):
    """Put one item in a contestant's inventory. ``label`` is what the item carries besides its kind (``Label``:
    the contestant written on a cast vote paper, a letter's page); only the holder is told (``to``)."""

    to: frozenset[str]
    item: Item
    label: Label = None


@functools.lru_cache(maxsize=1 << 14)
def give(holder: str, item: Item, label: Label = None) -> GiveItem:
    """``GiveItem(frozenset({holder}), item, label)``, remembered like ``msg``: the same few hand-outs (a vote
    paper to each voter, the torches to each finalist) are made round table after round table."""
    return GiveItem(frozenset((holder,)), item, label)


@dataclass(frozen=True, slots=True)
class TakeItem(Effect):
    """Remove every item of this kind from ``players`` (``None`` = from everyone)."""

    item: Item
    players: tuple[str, ...] | None = None


@functools.lru_cache(maxsize=1 << 14)
def take(item: Item, players: tuple[str, ...] | None = None) -> TakeItem:
    """``TakeItem(item, players)``, remembered like ``give``."""
    return TakeItem(item, players)


@dataclass(frozen=True, slots=True)
class PlaceItem(Effect):
    """Set a castle item down at one contestant's spot of a per-seat place, where everyone in the room sees it
    (public): a contestant's player head at their place at the breakfast table (rulebook §10).

    Args:
        item: what is set down (``Item.PLAYER_HEAD``).
        place: the per-seat place (``Place.BREAKFAST_TABLE``).
        seat: the contestant's seat number (1-based; the seating is public).
        label: whose it is (the head's contestant, named as the player who plays the seat).
    """

    item: Item
    place: Place
    seat: int
    label: str | None = None


@dataclass(frozen=True, slots=True)
class ClearPlace(Effect):
    """Take away what ``PlaceItem`` set down at these seats' spots of ``place`` (public); a spot that holds
    nothing stays as it is."""

    item: Item
    place: Place
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ClockStarted(Effect):
    """A phase clock starts: show ``label`` counting down ``seconds`` (public). ``phase_seq`` identifies the
    phase; the service schedules ``TimerExpired(phase_seq)`` at ``deadline`` (same unit as ``now``)."""

    phase_seq: int
    label: Message
    seconds: float
    deadline: float


@dataclass(frozen=True, slots=True)
class ClockChanged(Effect):
    """The host paused, resumed or extended the running phase clock (public).

    ``phase_seq`` is the clock's new sequence number (a timer armed for the old one is stale and ignored);
    ``deadline`` is ``None`` while paused, else when ``TimerExpired(phase_seq)`` is due; ``remaining`` is the
    seconds left (frozen while paused).
    """

    phase_seq: int
    deadline: float | None
    remaining: float


@dataclass(frozen=True, slots=True)
class Revealed(Effect):
    """A banished contestant reveals their allegiance (public; rulebook §4)."""

    player: str
    allegiance: Allegiance


@dataclass(frozen=True, slots=True)
class Eliminated(Effect):
    """A contestant is out of the series. ``to`` is who may know it now: ``None`` for a banishment (public);
    for a murder, only the victim until breakfast announces it."""

    player: str
    how: str
    """``"banished"`` or ``"murdered"``."""
    to: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class SeriesOver(Effect):
    """The series has ended (public)."""

    outcome: Outcome


PUBLIC: None = None
"""Spelled-out recipients for public effects."""

__all__ = [
    "Announce",
    "announce",
    "Choice",
    "choice",
    "ClearPlace",
    "ClockStarted",
    "Effect",
    "Eliminated",
    "GiveItem",
    "Label",
    "Message",
    "MoveTo",
    "PlaceItem",
    "Prompt",
    "Revealed",
    "SeriesOver",
    "ShowTitle",
    "TakeItem",
    "Whisper",
    "give",
    "label_text",
    "msg",
    "take",
    "whisper",
]
