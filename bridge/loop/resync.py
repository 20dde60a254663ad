"""Putting the castle back in step with the engine: set-up, the outbox after a lost connection, re-sync.

House rules of this file (``bridge/loop/service.py`` house rule 7, ``docs/recovery.md``):

1. Set-up is one data pack call, ``function traitors:setup``; a server whose pack has no such function gets the
   set-up commands one by one.
2. When the RCON client has logged in again (a server restart, a dropped connection), or the sender went
   offline, the castle is set up again, the store's unsent outbox is sent in order (each command marked sent
   once answered), then the castle is re-synced from the engine's state.
3. Re-sync first reads the inventory of every player who should hold castle items (one short command each), so
   items seen there are not given again; every other item still goes through ``give_once``
   (``bridge/loop/recovery.py`` house rule 3).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from bridge.errors import RconCommandFailed
from bridge.io.rcon import RconClient, check_reply
from bridge.loop.recovery import Rebuilt, items_to_hold, resync_commands
from bridge.loop.sender import Sender
from bridge.loop.store import SeriesStore, StoredSeries
from bridge.minecraft import snbt
from bridge.minecraft.core import McCommand
from bridge.minecraft.items import held_give_ids, inventory_get
from bridge.minecraft.render import setup_call, setup_commands
from engine.core.ruleset import RulesetGame
from engine.effects import ClockStarted

__all__ = ["ENTITY_SUFFIX", "CastleSync", "read_inventory"]

log = logging.getLogger(__name__)

ENTITY_SUFFIX = " has the following entity data: "
"""Vanilla's reply to ``data get entity`` (en_us ``commands.data.entity.query``)."""


async def read_inventory(rcon: RconClient, player: str) -> Any:
    """A player's ``Inventory`` as plain Python (``data get entity <player> Inventory``, ``bridge.minecraft.snbt``).

    Returns:
        The list of stack compounds, or ``None`` when the player is not online or the reply is unreadable.

    Raises:
        RconUnavailable: the server cannot be reached.
    """
    reply = await rcon.command(inventory_get(player).text)
    if ENTITY_SUFFIX not in reply:
        return None
    try:
        return snbt.parse(reply.split(ENTITY_SUFFIX, 1)[1])
    except snbt.SnbtError:
        log.warning("unreadable inventory reply for %s", player)
        return None


class CastleSync:
    """Set-up, outbox and re-sync for one service (house rules 1-3). The caller holds the service lock.

    Args:
        game: the series.
        sender: the service's sender (its ``offline`` flag, its checked sends).
        now: the engine's clock, seconds (the bossbar's remaining seconds).
        store: the series store and the series in it, or ``None`` (no outbox).
        last_clock: the last ``ClockStarted`` sent (the bossbar's label and length), or ``None``.
    """

    def __init__(
        self,
        game: RulesetGame,
        sender: Sender,
        now: Callable[[], float],
        store: tuple[SeriesStore, StoredSeries] | None,
        last_clock: ClockStarted | None,
    ) -> None:
        self.game = game
        self.sender = sender
        self.rcon: RconClient = sender.rcon
        self.now = now
        self.store = store
        self.last_clock = last_clock
        """The last ``ClockStarted`` effect sent (kept by the service)."""
        self.logins: int | None = None
        """``rcon.logins`` when the castle was last known to be in sync (house rule 2)."""
        self.resyncs = 0
        """How many times the castle was re-synced after a reconnect."""

    async def setup(self) -> None:
        """Prepare the server for a series (house rule 1).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        call = setup_call().text
        try:
            check_reply(call, await self.rcon.command(call))
        except RconCommandFailed:
            log.info("the data pack has no %s; sending the set-up command by command", call.split()[-1])
            await self.sender.send_commands(setup_commands(self.sender.ctx))

    def reconnected(self) -> bool:
        """Whether the client logged in again (or the sender went offline) since the castle was last in sync."""
        return self.sender.offline or self.rcon.logins != self.logins

    async def recover(self) -> None:
        """Set up again if reconnected, send the outbox, re-sync everything, and note the castle in sync.

        Raises:
            RconUnavailable: the server is (still) unreachable; nothing is lost, call again later.
        """
        if self.reconnected():
            await self.setup()
        if self.store is not None:
            store, stored = self.store
            for p in store.pending(stored):
                await self.sender.send_checked(p.text)
                store.mark_sent(stored, p.pos, p.i)
        await self.sender.send_commands(await self.commands())
        self.sender.offline = False
        self.logins = self.rcon.logins

    async def commands(self, players: Iterable[str] | None = None) -> list[McCommand]:
        """The re-sync commands (``recovery.resync_commands``) after reading inventories (house rule 3).

        Args:
            players: only these contestants, no bossbar (a returning contestant); ``None``: everyone.

        Raises:
            RconUnavailable: the server went away while reading.
        """
        rebuilt = Rebuilt(self.game, self.sender.handouts, self.last_clock)
        holding = {
            name: held_give_ids(await read_inventory(self.rcon, name)) for name in items_to_hold(rebuilt, players)
        }
        return resync_commands(rebuilt, self.sender.ctx, self.now(), players=players, holding=holding)
