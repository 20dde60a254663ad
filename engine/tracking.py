"""What the castle shows each contestant, kept from the effects a game returns (every ruleset shares it).

A game keeps its own copy of what it sent (``inbox``), what each contestant holds (``items``) and where each
was last sent (``places``), built only from effects it already returned. Views read ``inbox`` and ``items``;
after a crash the bridge restores the castle from ``world_state`` (``docs/recovery.md``). Because it is built
from returned effects alone, it never holds anything a contestant was not already shown or given.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from engine.effects import (
    Announce,
    ClearPlace,
    Effect,
    GiveItem,
    Label,
    Message,
    MoveTo,
    PlaceItem,
    Prompt,
    TakeItem,
    Whisper,
)
from engine.ids import Item, Place


@dataclass(frozen=True, slots=True)
class WorldState:
    """The castle as the engine last left it (``CastleTracker.world_state``); the bridge re-syncs to it.

    Args:
        places: contestant → (place, seat for ``ROUND_TABLE``/``HOME`` or ``None``), from the last ``MoveTo``.
        items: contestant → the castle items they should hold, as ``(item, label)``, in the order given.
        phase_seq: the current phase's sequence number (0 before the series starts).
        deadline: when the current phase clock runs out (same unit as ``now``), or ``None``.
        placed: ``(place, seat)`` → the ``(item, label)`` set down there (``PlaceItem``) and not taken away since.
    """

    places: dict[str, tuple[Place, int | None]]
    items: dict[str, list[tuple[Item, Label]]]
    phase_seq: int
    deadline: float | None
    placed: dict[tuple[Place, int], tuple[Item, str | None]] = field(default_factory=dict)


class Inbox(Mapping[str, list[str]]):
    """Every message text each contestant (and host) was sent, in order: ``inbox[name]`` → the texts.

    A read-only mapping for its readers (views, tests). Kept as one journal of ``(recipients, Message)``: a public
    message is stored once, not once per recipient, and nothing is rendered while a series is played. A
    recipient's texts are rendered when their inbox is first read, and kept: a later read renders only what came
    since (``docs/performance.md``). Keys are the recipients of at least one message, in the order of their
    first message (within one message: the order given for a public one, sorted for a private one).
    """

    __slots__ = ("_journal", "_names", "_group", "_group_set", "_texts", "_read")

    def __init__(self) -> None:
        self._journal: list[tuple[frozenset[str], Message]] = []
        self._names: dict[str, None] = {}
        """Every recipient so far (an ordered set)."""
        self._group: tuple[str, ...] = ()
        self._group_set: frozenset[str] = frozenset()
        """The last public audience as given (``add_public``) and as a set."""
        self._texts: dict[str, list[str]] = {}
        self._read: dict[str, int] = {}
        """Recipient → journal entries already rendered into ``_texts``."""

    def add_public(self, message: Message, everyone: tuple[str, ...]) -> None:
        """``message`` was said to ``everyone`` (names in their order; an audience equal to the last one is not
        stored again)."""
        if everyone != self._group:
            self._group, self._group_set = everyone, frozenset(everyone)
            for n in everyone:
                self._names.setdefault(n)
        self._journal.append((self._group_set, message))

    def add(self, message: Message, to: frozenset[str]) -> None:
        """``message`` was sent privately to ``to``."""
        self._journal.append((to, message))
        names = self._names
        for n in sorted(to) if len(to) > 1 else to:
            names.setdefault(n)

    def __getitem__(self, name: str) -> list[str]:
        """``name``'s texts, oldest first (the inbox's own list: do not change it).

        Raises:
            KeyError: ``name`` was never sent a message.
        """
        if name not in self._names:
            raise KeyError(name)
        journal, start = self._journal, self._read.get(name, 0)
        texts = self._texts.setdefault(name, [])
        if start < len(journal):
            texts += [m.text for to, m in islice(journal, start, None) if name in to]
            self._read[name] = len(journal)
        return texts

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        return f"Inbox({dict(self)!r})"


class CastleTracker:
    """Mixin for a game class: ``inbox``, ``items``, ``places`` and ``placed`` kept from its effects.

    The game calls ``_init_tracker()`` in its constructor, ``_track(effects)`` with the effects of every input it
    applies, and has ``players`` (names in seat order, fixed once the series has started), ``hosts``,
    ``phase_seq`` and ``deadline``.

    Tracking is deferred: ``_track`` only notes the input's effect list, and the three copies catch up with every
    list noted when one of them is next read (a view, ``world_state``, an undo; a series played by bots that read
    no views is never tracked). What a reader sees is exactly what tracking each list as it came would have given:
    the effects are applied in order, and nothing a catch-up reads (the contestants, the hosts) changes after the
    series starts (``docs/performance.md``).
    """

    players: Mapping[str, Any]
    hosts: frozenset[str]
    phase_seq: int
    deadline: float | None
    _inbox: Inbox
    _items: dict[str, list[tuple[Item, Label]]]
    _places: dict[str, tuple[Place, int | None]]
    _placed: dict[tuple[Place, int], tuple[Item, str | None]]
    _untracked: list[tuple[Effect, ...]]

    def _init_tracker(self) -> None:
        """Empty copies: nothing sent, held, moved or set down yet."""
        self._inbox = Inbox()
        self._items = {}
        self._places = {}
        self._placed = {}
        self._untracked = []

    @property
    def inbox(self) -> Inbox:
        """Every message text each contestant (and host) was sent, in order."""
        if self._untracked:
            self._catch_up()
        return self._inbox

    @inbox.setter
    def inbox(self, value: Inbox) -> None:
        if self._untracked:
            self._catch_up()
        self._inbox = value

    @property
    def items(self) -> dict[str, list[tuple[Item, Label]]]:
        """What the engine has put in each contestant's inventory, as ``(item, label)`` in the order given (kept
        from ``GiveItem``/``TakeItem`` effects)."""
        if self._untracked:
            self._catch_up()
        return self._items

    @items.setter
    def items(self, value: dict[str, list[tuple[Item, Label]]]) -> None:
        if self._untracked:
            self._catch_up()
        self._items = value

    @property
    def places(self) -> dict[str, tuple[Place, int | None]]:
        """Where each contestant was last sent, with the seat for per-seat places (kept from ``MoveTo``
        effects)."""
        if self._untracked:
            self._catch_up()
        return self._places

    @places.setter
    def places(self, value: dict[str, tuple[Place, int | None]]) -> None:
        if self._untracked:
            self._catch_up()
        self._places = value

    @property
    def placed(self) -> dict[tuple[Place, int], tuple[Item, str | None]]:
        """What is set down at each seat's spot of a per-seat place, as ``(item, label)`` (kept from
        ``PlaceItem``/``ClearPlace`` effects: a contestant's head at the breakfast table)."""
        if self._untracked:
            self._catch_up()
        return self._placed

    @placed.setter
    def placed(self, value: dict[tuple[Place, int], tuple[Item, str | None]]) -> None:
        if self._untracked:
            self._catch_up()
        self._placed = value

    def _everyone(self) -> tuple[str, ...]:
        return (*self.players, *sorted(self.hosts))

    def _track(self, effects: list[Effect]) -> None:
        """Note the effects of one applied input for the copies (a copy of the list: its caller may change it)."""
        self._untracked.append(tuple(effects))

    def _catch_up(self) -> None:  # noqa: C901 - one case per kind of effect the castle keeps
        """Apply every noted effect list to the copies, oldest first (a message is kept once in the ``Inbox``
        journal, unrendered); effects the castle does not keep (clocks, titles, reveals) change nothing."""
        pending, self._untracked = self._untracked, []
        everyone = self._everyone()
        inbox, items, places, placed = self._inbox, self._items, self._places, self._placed
        for effects in pending:
            for e in effects:
                match e:
                    case Announce():
                        inbox.add_public(e.message, everyone)
                    case Whisper() | Prompt():
                        inbox.add(e.message, e.to)
                    case GiveItem():
                        for n in e.to if len(e.to) == 1 else sorted(e.to):
                            items.setdefault(n, []).append((e.item, e.label))
                    case TakeItem():
                        for n in e.players if e.players is not None else list(items):
                            held = items.get(n)
                            if held is None:
                                items[n] = []
                            elif any(i is e.item for i, _ in held):
                                items[n] = [(i, lab) for i, lab in held if i is not e.item]
                    case MoveTo():
                        for k, n in enumerate(e.players):
                            places[n] = (e.place, e.seats[k] if k < len(e.seats) else None)
                    case PlaceItem():
                        placed[(e.place, e.seat)] = (e.item, e.label)
                    case ClearPlace():  # only what it names (a spot holding something else keeps it)
                        for seat in e.seats:
                            held_there = placed.get((e.place, seat))
                            if held_there is not None and held_there[0] is e.item:
                                del placed[(e.place, seat)]

    def world_state(self) -> WorldState:
        """What the castle should look like now: the state to restore after a crash (``docs/recovery.md``).

        Returns:
            Each contestant's last place (with seat) and items, the running phase clock, and what is set down
            at the per-seat places.
        """
        return WorldState(
            places=dict(self.places),
            items={n: list(held) for n, held in self.items.items()},
            phase_seq=self.phase_seq,
            deadline=self.deadline,
            placed=dict(self.placed),
        )


__all__ = ["CastleTracker", "Inbox", "WorldState"]
