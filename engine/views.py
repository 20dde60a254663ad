"""What each contestant may know, as data every ruleset shares: the only door for hidden information
(``docs/design.md#hidden-information``; OpenSpiel observations). Each ruleset builds these views from its own
state (the Traitors: ``engine.rulesets.traitors.views``; the club rulesets: ``engine.rulesets.club.game``).

Views are built from allow-lists of fields, never by copying the state and deleting secrets. A contestant's
view holds the public part (seats, who is out and what was revealed, the phase) plus only their own hand as
they know it: a drunk contestant sees their plain power (rulebook §2); a Traitor learns their power and the
other Traitors only after the Oath (rulebook §7.1).
"""

from __future__ import annotations

from dataclasses import dataclass


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
            f"[{self.name}] day {self.public.day} {self.public.phase}"
            + ("" if self.in_series else " (out)"),
            f"  allegiance: {self.allegiance or '-'}  power: {self.power or '-'}  false power: {self.false_power or '-'}",
            f"  traitors known: {', '.join(self.traitors) or '-'}"
            + ("  joker: yes" if self.joker else "")
            + (f"  copied: {self.copied_power}" if self.copied_power else ""),
            f"  items: {', '.join(self.items) or '-'}",
            f"  can act: {', '.join(self.can_act) or '-'}",
        ]
        return "\n".join(lines)


__all__ = ["OutEntry", "PlayerView", "PublicView"]
