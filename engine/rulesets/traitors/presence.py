"""Players leaving and returning (docs/house-rules.md): an absent contestant is skipped where the rules wait
for everyone (the vote, host visiting) and is prompted again on return.

Every function takes the series (``engine.rulesets.traitors.context.Table``).
"""

from __future__ import annotations

from engine.actions import (
    ContestantLeft,
    ContestantReturned,
)
from engine.errors import IllegalAction, InvalidCommand
from engine.rulesets.traitors import round_table
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.phases import Node, Phase
from engine.rulesets.traitors.state import PlayerState


def _contestant(game: Table, name: str) -> PlayerState:
    p = game.players.get(name)
    if p is None:
        raise InvalidCommand("illegal.unknown_player", player=name)
    return p


def check_left(game: Table, action: ContestantLeft) -> None:
    """A contestant's player left the server; refused when not a contestant or already away."""
    if not _contestant(game, action.contestant).present:
        raise IllegalAction("illegal.presence.away", player=action.contestant)


def check_returned(game: Table, action: ContestantReturned) -> None:
    """A contestant's player came back; refused when not a contestant or already here."""
    if _contestant(game, action.contestant).present:
        raise IllegalAction("illegal.presence.here", player=action.contestant)


def apply_left(game: Table, action: ContestantLeft) -> Node | None:
    """Absent: skipped where the rules wait for everyone; the vote may close now (docs/house-rules.md)."""
    name = action.contestant
    game.players[name].present = False
    game.whisper(game.hosts, "presence.left", player=name)
    b = game.ballot
    waited_for = game.phase is Phase.VOTE and b is not None and name in b.voters and name not in b.votes
    if waited_for and b is not None and round_table.everyone_present_voted(game, b):
        return round_table.close_vote(game)
    return None


def apply_returned(game: Table, action: ContestantReturned) -> None:
    """Back: welcomed, and prompted again for an open vote."""
    name = action.contestant
    game.players[name].present = True
    game.whisper(game.hosts, "presence.returned", player=name)
    game.whisper([name], "presence.welcome_back")
    b = game.ballot
    if game.phase is Phase.VOTE and b is not None and name in b.voters and name not in b.votes:
        round_table.prompt_vote(game, name)
