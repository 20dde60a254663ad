"""What each contestant may know, as data every ruleset shares: the only door for hidden information
(``docs/design.md#hidden-information``; OpenSpiel observations). Each ruleset builds these views from its own
state (the Traitors: ``engine.rulesets.traitors.views``; the club rulesets: ``engine.rulesets.club.game``).

Views are built from allow-lists of fields, never by copying the state and deleting secrets. A contestant's
view holds the public part (seats, who is out and what was revealed, the phase) plus only their own hand as
they know it: a drunk contestant sees their plain power (rulebook §2); a Traitor learns their power and the
other Traitors only after the Oath (rulebook §7.1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class OutEntry:
    """A contestant publicly known to be out: ``how`` is ``banished``/``murdered``; ``revealed`` the
    allegiance they revealed on banishment, else ``None``."""

    name: str
    how: str
    day: int
    revealed: str | None


@dataclass(frozen=True, slots=True)
class PublicView:
    """What everyone in the castle knows."""

    day: int
    phase: str
    seats: tuple[tuple[str, int], ...]
    in_castle: tuple[str, ...]
    out: tuple[OutEntry, ...]
    winner: str | None
    winners: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one contestant knows: the public view plus their own hand, items and messages."""

    name: str
    public: PublicView
    in_series: bool
    allegiance: str | None
    """``faithful``/``traitor`` as the contestant knows it."""
    power: str | None
    false_power: str | None
    traitors: tuple[str, ...]
    """Fellow Traitors, known only to a sworn Traitor."""
    items: tuple[str, ...]
    messages: tuple[str, ...]
    can_act: tuple[str, ...]
    """The kinds of input the contestant may send now."""
    joker: bool = False
    """The contestant holds the Joker (rulebook §6; only they know)."""
    copied_power: str | None = None
    """The power a Mimic copied, as they were told it (rulebook §5 The Mimic)."""

    def to_text(self) -> str:
        """A stable multi-line rendering for golden playthrough files."""
        lines = [
            f"[{self.name}] day {self.public.day} {self.public.phase}" + ("" if self.in_series else " (out)"),
            f"  allegiance: {self.allegiance or '-'}  power: {self.power or '-'}  false power: {self.false_power or '-'}",
            f"  traitors known: {', '.join(self.traitors) or '-'}"
            + ("  joker: yes" if self.joker else "")
            + (f"  copied: {self.copied_power}" if self.copied_power else ""),
            f"  items: {', '.join(self.items) or '-'}",
            f"  can act: {', '.join(self.can_act) or '-'}",
        ]
        return "\n".join(lines)


ViewPart = Callable[[Any, str], Any]
"""How one field of a contestant's view is worked out: ``part(game, name)`` (a ruleset's ``VIEW_PARTS``)."""


class LazyView:
    """A contestant's view whose fields are worked out only when first read: what the balance lab hands a bot.

    It has every field of ``PlayerView`` under the same name, with the same value ``view_for`` would give at the
    moment the view was made: each is worked out from the game by the ruleset's table of parts (field → ``part(game,
    name)``), the same table ``view_for`` is built from, so the two cannot differ. A bot reads a handful of fields
    per choice, and the rest (every message text, the inventory, the public record) then cost nothing
    (``docs/performance.md``). Valid only until the game takes its next input: the simulator closes it once the bot
    has chosen, and reading a field not read before then raises ``RuntimeError``.

    Args:
        game: the series (read only through ``parts``).
        name: the contestant (known to the game).
        parts: field name → its part (every field of ``PlayerView``).
    """

    __slots__ = ("_game", "_got", "_name", "_parts")

    def __init__(self, game: Any, name: str, parts: Mapping[str, ViewPart]) -> None:
        self._game, self._name, self._parts = game, name, parts
        self._got: dict[str, Any] = {}

    def __getattr__(self, field: str) -> Any:
        """The field's value, worked out on first read.

        Raises:
            AttributeError: not a field of ``PlayerView``.
            RuntimeError: the view was closed before this field was read.
        """
        got = self._got
        if field in got:
            return got[field]
        part = self._parts.get(field)
        if part is None:
            raise AttributeError(field)
        if self._game is None:
            raise RuntimeError(f"view field {field!r} read after the game moved on")
        value = got[field] = part(self._game, self._name)
        return value

    def close(self) -> None:
        """The game moves on: fields not read so far can no longer be read."""
        self._game = None

    def full(self) -> PlayerView:
        """Every field, as a ``PlayerView`` (equal to ``view_for`` at the moment the view was made, if still open).

        Raises:
            RuntimeError: the view was closed before some field was read.
        """
        return PlayerView(**{f.name: getattr(self, f.name) for f in fields(PlayerView)})


__all__ = ["LazyView", "OutEntry", "PlayerView", "PublicView", "ViewPart"]
