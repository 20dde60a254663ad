"""One press of a trigger as the bridge decodes it, and one row of the trigger table (``bridge.minecraft.triggers``
holds the table; ``bridge.minecraft.input_codec`` builds the rows of plug-in inputs).

A press is ``/trigger traitors.<input> set N``: the data pack queues ``{seq, uuid, input, value}`` and the bridge
turns it into an engine ``Action`` or a bridge-level input (``bridge.minecraft.inputs``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bridge.minecraft.inputs import BridgeInput, InputError
from engine.actions import Action

Seats = Mapping[str, int]
"""Contestant name → seat number (1-based)."""

PREFIX = "traitors."
"""Every trigger objective's prefix (the data pack's namespace)."""

PAIR = 100
"""A value carrying a seat and a second number is ``PAIR`` × seat + the number (``traitors.power2``: the
Analyst's two seats; ``traitors.guess``: a seat and a guessed power)."""


@dataclass(frozen=True, slots=True)
class Press:
    """One queued press being decoded.

    Attributes:
        player: who pressed (a valid player name).
        input: the input name (the objective without ``traitors.``, or an event name).
        value: the trigger value.
        seats: contestant name → seat.
        attacker: the ``attacker`` field of a ``sword_struck`` entry (``None`` when absent).
    """

    player: str
    input: str
    value: int
    seats: Seats
    attacker: Any = None

    def bad(self) -> InputError:
        """The error for a value that means nothing for this input."""
        return InputError("invalid.action.value", field=self.input, value=str(self.value))

    def flag(self, *allowed: int) -> int:
        """The value, when it is one of ``allowed``.

        Raises:
            InputError: any other value.
        """
        if self.value not in allowed:
            raise self.bad()
        return self.value

    def target(self, seat: int | None = None) -> str:
        """The contestant in ``seat`` (default: the value).

        Raises:
            InputError: nobody sits there.
        """
        wanted = self.value if seat is None else seat
        for contestant, taken in self.seats.items():
            if taken == wanted:
                return contestant
        raise self.bad()

    def number(self, value: int, count: int) -> int:
        """``value`` as a 0-based index into a list of ``count`` (values are 1-based).

        Raises:
            InputError: ``value`` is outside 1..count.
        """
        if not 1 <= value <= count:
            raise self.bad()
        return value - 1


Decoder = Callable[[Press], Action | BridgeInput]
"""Turns one press of a trigger into its input (raising ``InputError`` for a value that means nothing)."""


@dataclass(frozen=True, slots=True)
class Trigger:
    """One trigger objective of the data pack.

    Attributes:
        objective: the objective name, ``traitors.<input>``.
        title: its English display name (vanilla shows it in the trigger feedback to the one player who pressed;
            translated by the resource pack as ``traitors.trigger.<input>``).
        decode: turns a press of this trigger into an engine action or a bridge-level input.
    """

    objective: str
    title: str
    decode: Decoder

    @property
    def input(self) -> str:
        """The input name the data pack queues: the objective without ``traitors.``."""
        return self.objective.removeprefix(PREFIX)

    @property
    def key(self) -> str:
        """The translation key of the title (``traitors.trigger.<input>``)."""
        return "traitors.trigger." + self.input


def seat_of(name: str, seats: Seats) -> int:
    """The seat of contestant ``name``.

    Raises:
        InputError: ``name`` has no seat (``illegal.unknown_player``).
    """
    seat = seats.get(name)
    if seat is None:
        raise InputError("illegal.unknown_player", player=name)
    return seat


__all__ = ["PAIR", "PREFIX", "Decoder", "Press", "Seats", "Trigger", "seat_of"]
