"""The trigger row of a plug-in input, made from its ``InputTrigger`` and its fields (``engine.input_trigger``).

A twist's input names its trigger (``traitors.<name>``, its title, its numbered choices or its book); this module
reads the input class's fields after the sender and builds both directions of the row: the decoder (a press →
the input) and the encoder (the input → ``(objective, value)``). The value's meaning follows the field shape
(the table in ``engine.input_trigger``): no field → 1; a contestant → their seat; an enum → its place in the
choices; a contestant and an enum or ``None`` → ``PAIR`` × seat + place (0: ``None``); a book's text → 1, decoded
as ``SendBook(player, <name>)`` so the service reads the held book (``book_input`` gives the input to build).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass
from typing import Any

from bridge.minecraft.inputs import BridgeInput, SendBook
from bridge.minecraft.press import PAIR, PREFIX, Press, Seats, Trigger, seat_of
from engine.actions import Action
from engine.ids import Item
from engine.input_trigger import InputTrigger


def _classes(hint: Any) -> tuple[Any, ...]:
    """The classes a field's type hint allows (``X | None`` → ``(X, NoneType)``)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return typing.get_args(hint)
    return (hint,)


@dataclass(frozen=True, slots=True)
class InputCodec:
    """Both directions of one plug-in input's trigger.

    Attributes:
        cls: the input's class.
        trigger: its ``InputTrigger``.
        shape: ``"one"``, ``"seat"``, ``"choice"``, ``"seat_choice"`` or ``"book"`` (the module docstring).
        fields: the names of the fields after the sender, in order.
        choices: the numbered members of the enum field (1-based), ``()`` without one.
    """

    cls: type[Action]
    trigger: InputTrigger
    shape: str
    fields: tuple[str, ...]
    choices: tuple[enum.Enum, ...]

    @property
    def objective(self) -> str:
        """``traitors.<name>``."""
        return PREFIX + self.trigger.name

    def row(self) -> Trigger:
        """The trigger table's row (objective, title, decoder)."""
        return Trigger(self.objective, self.trigger.title, self.decode)

    def decode(self, p: Press) -> Action | BridgeInput:
        """A press of this trigger → the input (``SendBook`` for a book).

        Raises:
            InputError: a value that means nothing here, or a seat with nobody in it.
        """
        if self.shape == "one":
            p.flag(1)
            return self.cls(actor=p.player)  # type: ignore[call-arg]
        if self.shape == "book":
            p.flag(1)
            return SendBook(p.player, self.trigger.name)
        values: list[Any]
        if self.shape == "seat":
            values = [p.target()]
        elif self.shape == "choice":
            values = [self.choices[p.number(p.value, len(self.choices))]]
        else:
            number = p.value % PAIR
            if number > len(self.choices):
                raise p.bad()
            values = [p.target(p.value // PAIR), self.choices[number - 1] if number else None]
        return self.cls(actor=p.player, **dict(zip(self.fields, values, strict=True)))  # type: ignore[call-arg]

    def encode(self, action: Action, seats: Seats) -> tuple[str, int]:
        """The input → ``(objective, value)``.

        Raises:
            InputError: a contestant without a seat.
        """
        if self.shape in ("one", "book"):
            return self.objective, 1
        values = [getattr(action, name) for name in self.fields]
        if self.shape == "seat":
            return self.objective, seat_of(values[0], seats)
        if self.shape == "choice":
            return self.objective, self.choices.index(values[0]) + 1
        number = 0 if values[1] is None else self.choices.index(values[1]) + 1
        return self.objective, PAIR * seat_of(values[0], seats) + number


def input_codec(cls: type[Action], trigger: InputTrigger) -> InputCodec:
    """The codec of ``cls`` sent by ``trigger``, from the fields after its sender.

    Raises:
        TypeError: fields no trigger value can carry (the module docstring lists the shapes that can).
    """
    hints = typing.get_type_hints(cls)
    fields = tuple(f.name for f in dataclasses.fields(cls) if f.name != "actor")
    kinds = [tuple(c for c in _classes(hints[name]) if c is not type(None)) for name in fields]
    enums = [k[0] for k in kinds if len(k) == 1 and isinstance(k[0], type) and issubclass(k[0], enum.Enum)]
    choices: tuple[enum.Enum, ...] = trigger.choices or (tuple(enums[0]) if enums else ())
    if not fields:
        shape = "one"
    elif kinds == [(str,)] and trigger.book is not None:
        shape = "book"
    elif kinds == [(str,)]:
        shape = "seat"
    elif len(fields) == 1 and enums:
        shape = "choice"
    elif len(fields) == 2 and kinds[0] == (str,) and enums and type(None) in _classes(hints[fields[1]]):
        shape = "seat_choice"
    else:
        raise TypeError(f"{cls.__name__}: no trigger value carries the fields {', '.join(fields)}")
    return InputCodec(cls, trigger, shape, fields, choices)


def book_of(codec: InputCodec) -> Item | None:
    """The castle book a book input's text is read from (``None`` for any other input)."""
    return codec.trigger.book if codec.shape == "book" else None


__all__ = ["InputCodec", "book_of", "input_codec"]
