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
from engine.ids import Allegiance, Item
from engine.outcome import Outcome
from engine.record import RoundTableRecord, SeriesRecord
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.state import PlayerState, PowerState
from engine.views import OutEntry, PlayerView, PublicView


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
    def items(self) -> Mapping[str, list[tuple[Item, str | None]]]:
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
        phase=game.phase.value if game.phase else "not_started",
        seats=tuple([(p.name, p.seat) for p in players]),
        in_castle=tuple([p.name for p in players if not p.publicly_out]),
        out=tuple([OutEntry(p.name, p.out or "", p.out_day or 0, revealed.get(p.name)) for p in gone]),
        winner=outcome.winner.value if outcome else None,
        winners=tuple(outcome.winners) if outcome else (),
    )


def view_for(game: Viewed, name: str) -> PlayerView:
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


__all__ = ["Viewed", "public_view", "view_for"]
