"""What each contestant may know: the only door for hidden information (``docs/design.md#hidden-information``;
OpenSpiel observations).

Views are built from allow-lists of fields, never by copying the state and deleting secrets. A contestant's
view holds the public part (seats, who is out and what was revealed, the phase) plus only their own hand as
they know it: a drunk contestant sees their plain power (rulebook §2); a Traitor learns their power and the
other Traitors only after the Oath (rulebook §7.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.rulesets.traitors.game import Game
from engine.ids import Allegiance
from engine.record import RoundTableRecord
from engine.values import copied_by_value


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


def public_view(game: Game) -> PublicView:
    """The public view of ``game`` (``PublicView``)."""
    players = game.players.values()
    gone = [p for p in players if p.publicly_out]
    revealed: dict[str, str | None] = {}
    if gone:  # what each banished contestant revealed, from the round tables (the smart bots read a view per input)
        for e in game.record.events:
            if isinstance(e, RoundTableRecord) and e.banished:
                revealed[e.banished] = e.revealed
    outcome = game.outcome
    return PublicView(
        day=game.day,
        phase=game.phase.value if game.phase else "not_started",
        seats=tuple([(p.name, p.seat) for p in players]),
        in_castle=tuple([p.name for p in players if not p.publicly_out]),
        out=tuple([OutEntry(p.name, p.out or "", p.out_day or 0, revealed.get(p.name)) for p in gone]),
        winner=outcome.winner.value if outcome else None,
        winners=tuple(outcome.winners) if outcome else (),
    )


def view_for(game: Game, name: str) -> PlayerView:
    """What contestant ``name`` may know now.

    Raises:
        KeyError: ``name`` is not a contestant.
    """
    p = game.players[name]
    traitor = p.allegiance is Allegiance.TRAITOR
    power: str | None
    if traitor:
        power = p.power.title if (p.sworn and p.power) else None
        false_power = p.false_power.title if (p.sworn and p.false_power) else None
    else:
        power = p.power.title if p.power else None  # a drunk sees the plain power (rulebook §2)
        false_power = None
    fellows: tuple[str, ...] = ()
    if traitor and p.sworn and p.alive:
        fellows = tuple(
            q.name for q in game.players.values() if q.alive and q.allegiance is Allegiance.TRAITOR and q.name != name
        )
    copy = game.powers.copied.get(name)
    copied = (copy[0].title if copy[0] else "no power") if copy is not None else None
    items = tuple(item.value + (f"({label})" if label else "") for item, label in game.items.get(name, []))
    return PlayerView(
        name=name,
        public=public_view(game),
        in_series=p.alive,
        allegiance=p.allegiance.value,
        power=power,
        false_power=false_power,
        traitors=fellows,
        items=items,
        messages=tuple(game.inbox.get(name, [])),
        can_act=tuple(sorted({a.kind for a in game.legal_actions(name)})),
        joker=name in game.powers.jokers,
        copied_power=copied,
    )


copied_by_value(OutEntry, PublicView, PlayerView)  # copies and pickles by value (engine.values)
