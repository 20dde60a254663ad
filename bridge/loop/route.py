"""Routing: who sent a queue entry, and what its decoded input becomes (an engine input, or a reply).

House rules of this file (``bridge/loop/service.py`` house rules 3, 8, 10 and 11):

1. Entries carry the player's UUID; ``players`` maps it to a name. An unknown UUID makes the router refresh the
   directory once (MSMP ``minecraft:players`` when given, else RCON ``list uuids``); an entry whose UUID is
   still unknown is dropped with a log line.
2. A spectator (a player who is neither a contestant nor a host) who presses a contestant's trigger is told
   privately that only contestants can do that ("Only the host can do that." for the host's triggers), and
   nothing reaches the engine.
3. The Sacred Sword: a ``sword_struck`` entry names the victim (its UUID) and the attacker (``attacker``); it
   becomes ``StrikeWithSword(attacker, victim)``. Without ``attacker`` it is paired with the latest ``sword_hit``
   entry (the attacker's) if that came at most ``SWORD_PAIRING`` entries before; else dropped.
4. Books: a ``SendBook`` entry makes the router read the sender's inventory and apply the input whose trigger
   reads that book (``WriteConfession`` / ``WriteResponse``: ``bridge.minecraft.triggers.book_input``) with the
   text of the castle book given to them (a book picked up from someone else does not count); no such book or an
   unreadable reply gets a private "hold your book" message.
5. The lobby's presses (``traitors.signup``, ``traitors.withdraw``, ``traitors.lobby``) mean nothing while a series
   runs: whoever pressed is told privately that sign-ups are closed until it is over, and nothing changes.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from bridge.errors import BridgeError
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.console import HostConsole, private
from bridge.loop.recovery import Handouts
from bridge.loop.resync import read_inventory
from bridge.minecraft.inputs import BridgeInput, HostCommand, LobbyPress, OpenConsole, SendBook, SwordHit
from bridge.minecraft.items import book_text
from bridge.minecraft.press import PREFIX
from bridge.minecraft.triggers import HOST, TWIST, book_input
from engine.actions import Action, action_from_dict
from engine.core.ruleset import RulesetGame
from engine.effects import Effect, Message, msg

__all__ = ["SWORD_PAIRING", "PlayerList", "Router", "spectator_reply"]

log = logging.getLogger(__name__)

STRIKE = "strike_with_sword"
"""The kind of the Sacred Sword's strike (``StrikeWithSword``, an input of the Murder twist; house rule 3)."""

SWORD_PAIRING = 4
"""How many queue entries apart a ``sword_hit`` and an attacker-less ``sword_struck`` may be to pair."""

PlayerList = Callable[[], Awaitable[Iterable[Mapping[str, Any]]]]
"""A coroutine function returning the server's player list ``[{"id", "name"}]`` (MSMP ``minecraft:players``)."""


def spectator_reply(entry: Mapping[str, Any]) -> Message:
    """House rule 2: what a player outside the series is told when pressing a trigger: only the host may use the
    host's triggers (console buttons, twists), only contestants the others."""
    host_trigger = f"{PREFIX}{entry.get('input')}" in (HOST, TWIST)
    return Message("illegal.not_host" if host_trigger else "illegal.spectator")


class Router:
    """Turns decoded queue entries into engine inputs or replies (house rules 1-4).

    Args:
        game: the series.
        rcon: the RCON client (``list uuids``, inventory reads).
        seats: contestant → seat number.
        players: the UUID → name directory.
        handouts: the series' hand-outs (which castle book is whose).
        refresh_players: the player list from MSMP, or ``None``: RCON ``list uuids``.
    """

    def __init__(
        self,
        game: RulesetGame,
        rcon: RconClient,
        seats: Mapping[str, int],
        players: PlayerDirectory,
        handouts: Handouts,
        refresh_players: PlayerList | None,
    ) -> None:
        self.game = game
        self.rcon = rcon
        self.seats = seats
        self.players = players
        self.handouts = handouts
        self.refresh_players = refresh_players
        self.console = HostConsole(game, seats)
        self._last_sword_hit: tuple[str, int] | None = None
        """(attacker, queue seq) of the latest ``sword_hit`` entry (house rule 3)."""

    def in_series(self, player: str) -> bool:
        """Whether ``player`` plays a seat now, or is a replaced contestant, or a host."""
        return player in self.seats or player in self.game.hosts or self.game.contestant_of(player) is not None

    async def player_of(self, entry: Mapping[str, Any]) -> str | None:
        """The name of the player who sent a queue entry (its ``uuid``; a web host control, which has none, names its
        host as ``player``)."""
        raw = entry.get("uuid")
        if raw is None:
            player = entry.get("player")
            return str(player) if isinstance(player, str) else None
        return await self.name_for(raw)

    async def name_for(self, uuid: Any) -> str | None:
        """The name of the player with ``uuid`` (a string or an int array), refreshing once (house rule 1)."""
        key = uuid if isinstance(uuid, (str, list)) else []
        name = self.players.name_for(key)
        if name is None:
            await self.refresh()
            name = self.players.name_for(key)
        return name

    async def refresh(self) -> None:
        """Re-read the server's player list into ``players`` (MSMP when configured, else RCON ``list uuids``)."""
        if not await self._read_players(self.players):
            log.warning("could not refresh the player list")

    async def _read_players(self, into: PlayerDirectory) -> bool:
        """Read the server's player list into ``into``; False when the server could not be asked."""
        try:
            if self.refresh_players is not None:
                into.update(await self.refresh_players())
            else:
                into.update_from_list_reply(await self.rcon.command("list uuids"))
        except BridgeError:
            return False
        return True

    def refused(self, player: str, entry: Mapping[str, Any], message: Message) -> list[Effect]:
        """The reply to an entry that does not decode: its message for someone in the series, else house rule 2's."""
        return private(player, message if self.in_series(player) else spectator_reply(entry))

    async def route(self, player: str, item: Action | BridgeInput, entry: Mapping[str, Any]) -> Action | list[Effect]:
        """What a decoded entry becomes: the engine input to apply, or the effects to send without the engine.

        Args:
            player: who sent the entry (``player_of``).
            item: ``decode``'s result for ``entry``.
            entry: the queue entry (its ``seq`` pairs sword hits, its ``input`` words a spectator's reply).

        Raises:
            RconUnavailable: the server went away while reading an inventory or the player list.
        """
        if isinstance(item, (Action, SendBook)) and not self.in_series(player):
            return private(player, spectator_reply(entry))
        if isinstance(item, Action):
            return item
        seq = entry.get("seq")
        return await self._ROUTES[type(item)](self, item, seq if isinstance(seq, int) else 0)

    async def _host_command(self, command: HostCommand, _seq: int) -> Action | list[Effect]:
        online = await self.online() if self.console.wants_online(command) else set()
        return self.console.command(command, online)

    async def online(self) -> set[str]:
        """Who is on the server now (MSMP's player list when configured, else RCON ``list uuids``); nobody when
        the server cannot be asked (a stand-by is then not called in: the seat waits, ``bridge/loop/console.py``
        house rule 4)."""
        now = PlayerDirectory()
        if not await self._read_players(now):
            log.warning("could not read who is on the server")
        return now.names()

    async def _open_console(self, opened: OpenConsole, _seq: int) -> Action | list[Effect]:
        return self.console.open(opened.player, self.in_series(opened.player))

    async def _sword_hit(self, hit: SwordHit, seq: int) -> Action | list[Effect]:
        """House rule 3: pair attacker and victim, then ``StrikeWithSword`` (the engine checks the rest)."""
        if not hit.struck:
            self._last_sword_hit = (hit.player, seq)
            return []
        attacker: str | None = None
        if hit.attacker is not None:
            attacker = await self.name_for(hit.attacker)
        elif self._last_sword_hit is not None and seq - self._last_sword_hit[1] <= SWORD_PAIRING:
            attacker = self._last_sword_hit[0]
        self._last_sword_hit = None
        if attacker is None or attacker == hit.player:
            log.info("Sacred Sword hit on %s dropped: no attacker to pair it with", hit.player)
            return []
        return action_from_dict({"action": STRIKE, "attacker": attacker, "victim": hit.player})

    async def _send_book(self, send: SendBook, _seq: int) -> Action | list[Effect]:
        """House rule 4: read the castle book the contestant holds (one given to them or to the seat they play,
        not one picked up from someone else) and apply its text."""
        found = book_input(send.kind)
        if found is None:
            return private(send.player, msg("host.book.missing"))
        cls, item = found
        seat = self.game.contestant_of(send.player) or send.player
        held = {*self.handouts.held.get(send.player, []), *self.handouts.held.get(seat, [])}
        own = {gid for given, _, gid in held if given is item}
        text: str | None = None
        try:
            text = book_text(await read_inventory(self.rcon, send.player), item, own)
        except BridgeError:
            log.warning("could not read %s's inventory", send.player)
        if text is None:
            return private(send.player, msg("host.book.missing"))
        return action_from_dict({"action": cls.kind, cls.actor_key: send.player, "text": text})

    async def _lobby_closed(self, press: LobbyPress, _seq: int) -> Action | list[Effect]:
        """House rule 5."""
        return private(press.player, msg("lobby.closed"))

    _ROUTES: dict[type, Callable[[Router, Any, int], Awaitable[Action | list[Effect]]]] = {
        HostCommand: _host_command,
        OpenConsole: _open_console,
        SwordHit: _sword_hit,
        SendBook: _send_book,
        LobbyPress: _lobby_closed,
    }
    """Decoded input type → its routing (the engine inputs need none)."""
