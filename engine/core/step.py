"""The input step every ruleset's game shares: is the input legal now, then apply it, log it, and keep the
castle's copy of its effects (python-chess: "is it legal?" separate from "apply it").

House rules of this file:

1. ``StartSeries`` is taken once; after the end (or before the start) every other input is refused with
   ``illegal.phase``, except a ``TimerExpired``, which is dropped (a clock job may fire late).
2. A ``TimerExpired`` whose ``phase_seq`` is not the current phase's is stale or repeated: dropped, no effects.
3. Everything that can refuse an input runs before anything is changed: a refused input changes nothing.
4. An applied input is appended to the input log (``Game.replay`` consumes it) with its ``now``.
5. An input with a field not of its declared type (only inputs built directly in Python can have one; the
   bridge's ``action_from_dict`` checks) is refused with ``invalid.action.value``, naming the field: an enum, flag
   or number field is checked before the rules run; a name field when checking the input fails on its type (a list
   cannot be looked up). The rules decide every well-typed input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, NoReturn, Protocol, TypeVar, overload

from engine.actions import Action, StartSeries, TimerExpired, action_from_dict, checked_first, ill_typed_field
from engine.core.phasegraph import PhaseGraph
from engine.effects import Effect
from engine.errors import IllegalAction, InvalidCommand
from engine.tracking import CastleTracker


class InputLog(Sequence[dict[str, Any]]):
    """The input log: every accepted input in order, each as its JSON form ``{"now": seconds, "action": kind,
    <field>: <value>, ...}`` (``Action.to_dict`` plus the time; ``Game.replay`` consumes it).

    A read-only sequence for its readers (the store, replay, undo, tests; equal to a list of the same entries),
    not a ``list``: ``list(log)`` gives one (for JSON, say). The game appends ``(now, input)`` pairs; an entry's dict
    is made when the log is first read past it, and kept (a series played by bots is never read:
    ``docs/performance.md``).
    """

    __slots__ = ("_entries", "_unread")

    def __init__(self) -> None:
        self._entries: list[dict[str, Any]] = []
        self._unread: list[tuple[float, Action]] = []

    def add(self, now: float, action: Action) -> None:
        """``action`` was accepted at ``now`` (seconds)."""
        self._unread.append((now, action))

    def _read(self) -> list[dict[str, Any]]:
        if self._unread:
            self._entries += [{"now": now, **action.to_dict()} for now, action in self._unread]
            self._unread.clear()
        return self._entries

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        """An entry (the log's own dict: do not change it), or a list of entries for a slice.

        Raises:
            IndexError: no such entry.
        """
        return self._read()[index]

    def __len__(self) -> int:
        return len(self._entries) + len(self._unread)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._read())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, InputLog):
            return self._read() == other._read()
        if isinstance(other, list):
            return self._read() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"InputLog({self._read()!r})"

    def __copy__(self) -> InputLog:
        """An independent log with the same entries (``copy.copy``; a slot-wise copy would share the lists)."""
        out = InputLog()
        out._entries, out._unread = list(self._entries), list(self._unread)
        return out


class InputStep(CastleTracker):
    """Mixin for a game class: ``_take_input`` takes one input through the rules (house rules above).

    The game provides ``started``, ``is_over``, ``phase``, ``phase_seq``, ``log`` (an ``InputLog``), ``PHASES``
    (its ruleset's phase graph, ``engine.core.phasegraph``), and the methods ``_start`` (the deal) and
    ``_validate(action)`` (raises, or returns the function that applies the input); they emit effects into ``_fx``.
    """

    PHASES: ClassVar[PhaseGraph[Any, Any]]
    started: bool
    phase: Any
    phase_seq: int
    log: InputLog
    _fx: list[Effect]
    _now: float

    @property
    def is_over(self) -> bool:
        """True once the series has ended (each game class says when)."""
        raise NotImplementedError

    def _start(self) -> None:
        """Deal and open the first phase (each game class says how)."""
        raise NotImplementedError

    def _on_clock(self) -> None:
        """The phase clock ran out, or the host moved on: the current phase's step in ``PHASES`` runs."""
        self.PHASES.run(self, self.phase)

    def _validate(self, action: Action) -> Callable[[], None]:
        """Raise if ``action`` is illegal now; otherwise return the function that applies it (mutates nothing)."""
        raise NotImplementedError

    def __reduce__(self) -> NoReturn:
        """A game is not copied or pickled: it is rebuilt from its settings, seed and input log (``replay``), as
        the series store and undo do (a copy could share the input log and the tracker's lists).

        Raises:
            TypeError: always.
        """
        raise TypeError(f"a {type(self).__name__} is not copied or pickled: replay its input log instead")

    def _take_input(self, action: Action, now: float, logged: Action) -> list[Effect]:
        """Refuse or apply one input and return its effects.

        Args:
            action: the input as the rules see it.
            now: the current time in seconds (monotonic within a series).
            logged: the input as the input log keeps it (the Traitors game logs a stand-in's input as the player
                sent it, and applies it as the seat's contestant's).

        Returns:
            The effects, in order; ``[]`` for a dropped ``TimerExpired`` (house rules 1 and 2).

        Raises:
            InvalidCommand: the input names an unknown contestant, is not an input of this ruleset, or has a field
                of the wrong type (house rule 5).
            IllegalAction: the rules forbid it now; the state is unchanged (house rule 3).
        """
        first = checked_first(type(action))  # house rule 5: enums, flags and numbers before the rules
        bad = ill_typed_field(action, first) if first else None
        if bad is not None:
            raise InvalidCommand("invalid.action.value", field=bad[0], value=str(bad[1]))
        try:
            if isinstance(action, StartSeries):
                if self.started:
                    raise IllegalAction("illegal.phase")
                handler: Callable[[], None] = self._start
            elif self.is_over or not self.started:
                if isinstance(action, TimerExpired):
                    return []
                raise IllegalAction("illegal.phase")
            elif isinstance(action, TimerExpired):
                if action.phase_seq != self.phase_seq:
                    return []
                handler = self._on_clock
            else:
                handler = self._validate(action)
        except TypeError:
            # House rule 5: a name field of the wrong type (a name that cannot be hashed cannot be looked up).
            # A TypeError from a well-typed input is a bug, and is raised as it is.
            bad = ill_typed_field(action)
            if bad is None:
                raise
            raise InvalidCommand("invalid.action.value", field=bad[0], value=str(bad[1])) from None
        # Everything that can refuse the input has run; from here on the input is applied.
        self._fx = []
        self._now = now
        handler()
        self.log.add(now, logged)
        effects, self._fx = self._fx, []
        self._track(effects)
        return effects


class _Handles(Protocol):
    def handle(self, action: Action, *, now: float) -> list[Effect]: ...


G = TypeVar("G", bound=_Handles)


def fed_log(game: G, log: Iterable[dict[str, Any]]) -> G:
    """``game`` after taking every entry of an input log in order (each ruleset's ``replay``).

    Args:
        game: a new, not yet started game.
        log: entries as ``InputLog`` holds them: ``{"now": seconds, "action": kind, <field>: <value>, ...}``.

    Raises:
        InvalidCommand, IllegalAction: an entry is not an input this series took (the log does not fit the
            game's settings and seed).
    """
    for entry in log:
        data = dict(entry)
        now = float(data.pop("now"))
        game.handle(action_from_dict(data), now=now)
    return game


__all__ = ["InputLog", "InputStep", "fed_log"]
