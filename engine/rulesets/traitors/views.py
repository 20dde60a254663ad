"""What each contestant of a Traitors series may know: the Traitors' views (``engine.views`` holds the shared
view dataclasses).

Views are built from allow-lists of fields, never by copying the state and deleting secrets. A contestant's
view holds the public part (seats, who is out and what was revealed, the phase) plus only their own hand as
they know it: a drunk contestant sees their plain power (rulebook §2); a Traitor learns their power and the
other Traitors only after the Oath (rulebook §7.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from engine.actions import Action
from engine.effects import Label, label_text
from engine.ids import Allegiance, Item
from engine.outcome import Outcome
from engine.record import RoundTableRecord, SeriesRecord
from engine.rulesets.traitors.phases import Phase, public_phase
from engine.rulesets.traitors.state import PlayerState, PowerState
from engine.views import LazyView, OutEntry, PlayerView, PublicView, ViewPart


class Viewed(Protocol):
    """What the views read of a series (implemented by ``engine.rulesets.traitors.game.Game``)."""

    @property
    def players(self) -> dict[str, PlayerState]:
        """Contestant → their truth, in seat order."""

    @property
    def record(self) -> SeriesRecord:
        """The game record (what each banished contestant revealed)."""

    @property
    def outcome(self) -> Outcome | None:
        """The result, once the series is over."""

    @property
    def phase(self) -> Phase | None:
        """Where the series is."""

    @property
    def day(self) -> int:
        """The day."""

    @property
    def powers(self) -> PowerState:
        """The powers' state (the Joker, a Mimic's copy)."""

    @property
    def items(self) -> Mapping[str, list[tuple[Item, Label]]]:
        """What each contestant holds (``engine.tracking.CastleTracker``)."""

    @property
    def inbox(self) -> Mapping[str, list[str]]:
        """Every message text each contestant was sent (``engine.tracking.Inbox``)."""

    def legal_actions(self, player: str) -> list[Action]:
        """Every input ``player`` may send now."""


def public_view(game: Viewed) -> PublicView:
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
        phase=public_phase(game.phase),
        seats=tuple([(p.name, p.seat) for p in players]),
        in_castle=tuple([p.name for p in players if not p.publicly_out]),
        out=tuple([OutEntry(p.name, p.out or "", p.out_day or 0, revealed.get(p.name)) for p in gone]),
        winner=outcome.winner.value if outcome else None,
        winners=tuple(outcome.winners) if outcome else (),
    )


def _power(game: Viewed, name: str) -> str | None:
    p = game.players[name]
    if p.allegiance is Allegiance.TRAITOR:
        return p.power.title if (p.sworn and p.power) else None
    return p.power.title if p.power else None  # a drunk sees the plain power (rulebook §2)


def _false_power(game: Viewed, name: str) -> str | None:
    p = game.players[name]
    if p.allegiance is Allegiance.TRAITOR and p.sworn and p.false_power:
        return p.false_power.title
    return None


def _fellows(game: Viewed, name: str) -> tuple[str, ...]:
    p = game.players[name]
    if p.allegiance is Allegiance.TRAITOR and p.sworn and p.alive:  # rulebook §7.1: known after the Oath
        return tuple(
            q.name for q in game.players.values() if q.alive and q.allegiance is Allegiance.TRAITOR and q.name != name
        )
    return ()


def _copied(game: Viewed, name: str) -> str | None:
    copy = game.powers.copied.get(name)
    return (copy[0].title if copy[0] else "no power") if copy is not None else None


VIEW_PARTS: dict[str, ViewPart] = {
    "name": lambda _game, name: name,
    "public": lambda game, _name: public_view(game),
    "in_series": lambda game, name: game.players[name].alive,
    "allegiance": lambda game, name: game.players[name].allegiance.value,
    "power": _power,
    "false_power": _false_power,
    "traitors": _fellows,
    "items": lambda game, name: tuple(
        item.value + (f"({label_text(label)})" if label else "") for item, label in game.items.get(name, [])
    ),
    "messages": lambda game, name: tuple(game.inbox.get(name, [])),
    "can_act": lambda game, name: tuple(sorted({a.kind for a in game.legal_actions(name)})),
    "joker": lambda game, name: name in game.powers.jokers,
    "copied_power": _copied,
}
"""``PlayerView`` field → how it is worked out (``view_for`` and ``lazy_view`` both read this one table)."""


def view_for(game: Viewed, name: str) -> PlayerView:
    """What contestant ``name`` may know now.

    Raises:
        KeyError: ``name`` is not a contestant.
    """
    game.players[name]  # noqa: B018 - the KeyError for a stranger, before any part runs
    return PlayerView(**{f: part(game, name) for f, part in VIEW_PARTS.items()})


def lazy_view(game: Viewed, name: str) -> LazyView:
    """What contestant ``name`` may know now, each field worked out when first read (``engine.views.LazyView``:
    the same values as ``view_for``).

    Raises:
        KeyError: ``name`` is not a contestant.
    """
    game.players[name]  # noqa: B018 - the KeyError for a stranger, as view_for
    return LazyView(game, name, VIEW_PARTS)


__all__ = ["VIEW_PARTS", "Viewed", "lazy_view", "public_view", "view_for"]
