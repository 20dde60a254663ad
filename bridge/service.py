"""The service: the one loop that joins the engine, the server and the phase clock (DESIGN "data flow").

House rules of this file:

1. One ``Game`` per service; every input goes through ``apply`` under one lock, so the engine sees inputs one
   at a time ("the sans-I/O layer is designed to run sequentially").
2. Inputs come from the datapack's queue in storage ``traitors:io``: the service polls it over RCON, applies
   every entry with a sequence number above the last one applied, then acks it by removing exactly that
   entry. An entry seen again (ack lost, service restarted) is acked again, never applied twice.
   ``last_seq`` moves on in the same step as the engine applies the input (no await in between), and a
   restarted service is given the ``last_seq`` stored with the series log; so a crash between reading and
   acking loses nothing and repeats nothing.
6. Entries carry the player's UUID; ``players`` (``bridge.players.PlayerDirectory``) maps it to a name. An
   unknown UUID makes the service refresh the directory once (``refresh_players``: MSMP ``minecraft:players``
   when given, else RCON ``list uuids``); an entry whose UUID is still unknown is dropped with a log line.
7. Host controls: only ``Settings.hosts`` may use them; anyone else gets "Only the host can do that." and
   nothing changes. "Start/cancel a twist" show the host a list of twists (``traitors.twist``); the engine
   checks the twist's preconditions. A control the engine cannot do yet gets a private "not available yet".
8. The Sacred Sword: a ``sword_struck`` entry names the victim (its UUID) and the attacker (``attacker``); it
   becomes ``StrikeWithSword(attacker, victim)``. Without ``attacker`` it is paired with the latest
   ``sword_hit`` entry (the attacker's) if that came at most ``SWORD_PAIRING`` entries before; else dropped.
9. Books: a ``SendBook`` entry makes the service read the sender's inventory (``data get entity <name>
   Inventory``) and apply ``WriteConfession`` / ``WriteResponse`` with the castle book's text; no such book or an
   unreadable reply gets a private "hold your book" message.
3. A contestant's illegal input becomes a private message to that contestant and changes nothing; a bad queue
   entry likewise. A bug while applying one input is logged and the loop goes on.
4. Effects are rendered and sent in order over the one RCON connection. A command the server answers with an
   error text is logged (never with secrets) and the next command is sent.
5. The phase clock is an APScheduler job per phase carrying the phase sequence number; the engine ignores a
   stale or repeated ``TimerExpired``, so a late or duplicate job is harmless.
6. When the RCON client has logged in again (a server restart, a dropped connection), the world is re-synced
   from the engine's state before the next input is applied: set-up, the clock bossbar, every contestant's
   position and castle items (``resync``). A contestant who returns is re-synced the same way.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

import nbtlib
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bridge import commands as mc
from bridge.config import CastleConfig
from bridge.errors import BridgeError, RconCommandFailed
from bridge.inputs import HostCommand, HostControl, InputError, OpenConsole, SendBook, SwordHit, decode
from bridge.msmp import JOINED, LEFT, MsmpClient
from bridge.players import PlayerDirectory
from bridge.rcon import RconClient, check_reply
from bridge.render import RenderContext, clock_hidden, clock_update, render, setup_commands, show_console
from engine.actions import (
    Action,
    Advance,
    CancelTwist,
    ContestantLeft,
    ContestantReturned,
    StartSeries,
    StartTwist,
    StrikeWithSword,
    TimerExpired,
    WriteConfession,
    WriteResponse,
)
from engine.effects import Choice, ClockStarted, Effect, GiveItem, Message, MoveTo, Prompt, SeriesOver, Whisper, msg
from engine.ids import Item, Twist
from engine.twists import TITLES as TWIST_TITLES
from engine.errors import IllegalAction, InvalidCommand
from engine.game import Game
from engine.messages import CATALOG
from engine.outcome import Outcome

log = logging.getLogger(__name__)

QUEUE_PREFIX = "Storage traitors:io has the following contents: "
"""Vanilla's reply to ``data get storage`` (en_us ``commands.data.storage.query``; FACTS §5)."""
CLOCK_JOB = "phase-clock"
ENTITY_SUFFIX = " has the following entity data: "
"""Vanilla's reply to ``data get entity`` (en_us ``commands.data.entity.query``)."""
SWORD_PAIRING = 4
"""How many queue entries apart a ``sword_hit`` and an attacker-less ``sword_struck`` may be to pair."""


def parse_queue(reply: str) -> list[dict[str, Any]]:
    """The input entries in a ``data get storage traitors:io queue`` reply.

    Args:
        reply: the RCON reply text.

    Returns:
        Entries as plain dicts (``{"seq": int, "uuid": [int×4], "input": str, "value": int}``), in queue order;
        ``[]`` when the queue is empty or absent ("Found no elements matching queue"). An entry that is not
        a compound, or lacks an integer ``seq``, is dropped (it cannot be acked by sequence number).
    """
    if not reply.startswith(QUEUE_PREFIX):
        return []
    try:
        tag = nbtlib.parse_nbt(reply[len(QUEUE_PREFIX):])
    except Exception:  # noqa: BLE001 - an unreadable reply is logged and polled again
        log.warning("unreadable input queue reply (%d characters)", len(reply))
        return []
    out: list[dict[str, Any]] = []
    for item in tag if isinstance(tag, list) else []:
        if not isinstance(item, dict):
            continue
        entry = {str(k): _plain(v) for k, v in item.items()}
        if isinstance(entry.get("seq"), int):
            out.append(entry)
    return out


def _python(value: Any) -> Any:
    """An nbtlib tag as plain Python, recursively (compounds → dicts, lists → lists)."""
    if isinstance(value, dict):
        return {str(k): _python(v) for k, v in value.items()}
    if isinstance(value, list) and not isinstance(value, nbtlib.Array):
        return [_python(v) for v in value]
    return _plain(value)


def _plain(value: Any) -> Any:
    if isinstance(value, nbtlib.Array):
        return [int(v) for v in value]
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    return value


class SeriesService:
    """Runs one series against one server.

    Args:
        game: the series (not yet started, or rebuilt by ``Game.replay``).
        rcon: a connected-or-connectable RCON client.
        castle: the castle's coordinates.
        poll_interval: seconds between polls of the input queue.
        clock: wall-clock seconds (``time.time``); the engine's ``now`` and the scheduler both use it.
        observer: called with every effect before it is sent (the demo prints public announcements).
        players: UUID → name directory (fed from MSMP by the caller, or refreshed here; see house rule 6).
        refresh_players: coroutine returning the server's player list ``[{"id", "name"}]`` (MSMP
            ``minecraft:players``); ``None``: RCON ``list uuids``.
        last_seq: the highest queue sequence number already applied (stored with the series log).
    """

    def __init__(
        self,
        game: Game,
        rcon: RconClient,
        castle: CastleConfig,
        *,
        poll_interval: float = 0.05,
        clock: Callable[[], float] = time.time,
        observer: Callable[[Effect], None] | None = None,
        players: PlayerDirectory | None = None,
        refresh_players: Callable[[], Awaitable[Iterable[Mapping[str, Any]]]] | None = None,
        last_seq: int = 0,
    ) -> None:
        self.game = game
        self.rcon = rcon
        seats = {name: i for i, name in enumerate(game.settings.contestants, start=1)}
        self.ctx = RenderContext(castle, seats)
        self.poll_interval = poll_interval
        self.clock = clock
        self.observer = observer
        self.last_seq = last_seq
        """The highest queue sequence number applied; persist it with the series log (house rule 2)."""
        self.players = players if players is not None else PlayerDirectory()
        self.refresh_players = refresh_players
        self._dialogs_open: set[str] = set()
        """Players shown a prompt dialog since the last phase clock (closed when the next phase starts)."""
        self.lock = asyncio.Lock()
        self.scheduler: AsyncIOScheduler | None = None
        self.failed_commands: list[tuple[str, str]] = []
        """Commands the server answered with an error text: (command, reply)."""
        self._over = asyncio.Event()
        self._seen_connections: int | None = None
        """``rcon.connections`` when the world was last known to be in sync (house rule 6)."""
        self._last_clock: ClockStarted | None = None
        self.resyncs = 0
        """How many times the world was re-synced after a reconnect."""
        self._last_sword_hit: tuple[str, int] | None = None
        """(attacker, queue seq) of the latest ``sword_hit`` entry (house rule 8)."""

    async def run(self) -> Outcome | None:
        """Prepare the server, start the series if needed, and apply inputs until the series ends.

        Returns:
            The outcome.

        Raises:
            RconUnavailable: the server cannot be reached (after the client's own reconnect attempts).
        """
        await self.start()
        ticker = asyncio.create_task(self._clock_ticker())
        try:
            while not self._over.is_set():
                await self.poll_once()
                if self._over.is_set():
                    break
                try:
                    await asyncio.wait_for(self._over.wait(), self.poll_interval)
                except asyncio.TimeoutError:
                    pass
        finally:
            ticker.cancel()
            await self.stop()
        return self.game.outcome

    async def start(self) -> None:
        """Send the setup commands, start the scheduler, and start the series if it has not started."""
        await self.send_commands(setup_commands(self.ctx))
        self._seen_connections = self.rcon.connections
        self.scheduler = AsyncIOScheduler(timezone=timezone.utc)
        self.scheduler.start()
        if not self.game.started:
            await self.apply(StartSeries())
        elif self.game.is_over:
            self._over.set()
        elif self.game.deadline is not None:
            self._schedule(self.game.phase_seq, self.game.deadline)

    async def stop(self) -> None:
        """Stop the scheduler and hide the clock (the series stays resumable from its log).

        Waits for an input being applied (a clock job in flight included) to finish sending its effects.
        """
        async with self.lock:
            if self.scheduler is not None:
                self.scheduler.shutdown(wait=False)
                self.scheduler = None
        try:
            await self.send_commands([clock_hidden()])
        except BridgeError:
            pass

    async def poll_once(self) -> int:
        """Read the input queue once, apply new entries in sequence order and ack each.

        Returns:
            How many entries were applied.
        """
        reply = await self.rcon.command(mc.queue_get().text)
        await self.resync_if_reconnected()
        applied = 0
        for entry in sorted(parse_queue(reply), key=lambda e: int(e["seq"])):
            seq = int(entry["seq"])
            if seq > self.last_seq:
                await self.apply_entry(entry, seq=seq)
                applied += 1
            await self.rcon.command(mc.queue_ack(seq).text)
        return applied

    async def player_of(self, entry: Mapping[str, Any]) -> str | None:
        """The name of the player who sent a queue entry (its ``uuid``; a legacy ``player`` name is accepted)."""
        raw = entry.get("uuid")
        if raw is None:
            player = entry.get("player")
            return str(player) if isinstance(player, str) else None
        name = self.players.name_for(raw if isinstance(raw, (str, list)) else [])
        if name is None:
            await self.refresh()
            name = self.players.name_for(raw if isinstance(raw, (str, list)) else [])
        return name

    async def refresh(self) -> None:
        """Re-read the server's player list into ``players`` (MSMP when configured, else RCON ``list uuids``)."""
        try:
            if self.refresh_players is not None:
                self.players.update(await self.refresh_players())
            else:
                self.players.update_from_list_reply(await self.rcon.command("list uuids"))
        except BridgeError:
            log.warning("could not refresh the player list")

    def _mark(self, seq: int | None) -> None:
        if seq is not None and seq > self.last_seq:
            self.last_seq = seq

    async def apply_entry(self, entry: Mapping[str, Any], *, seq: int | None = None) -> None:
        """Turn one queue entry into an input and apply it; a bad entry gets a private message.

        Args:
            entry: a parsed queue entry (``parse_queue``).
            seq: its sequence number; ``last_seq`` moves to it when the entry is applied (or refused).
        """
        player = await self.player_of(entry)
        if player is None:
            self._mark(seq)
            log.info("dropped queue entry %s from an unknown player", entry.get("seq"))
            return
        try:
            item = decode({**entry, "player": player}, self.ctx.seats)
        except InputError as exc:
            self._mark(seq)
            if player in self.ctx.seats or player in self.game.hosts:
                await self.send([Whisper(frozenset({player}), exc.message)])
            else:
                log.info("dropped queue entry %s from a player outside the series", entry.get("seq"))
            return
        if isinstance(item, Action):
            await self.apply(item, seq=seq)
        elif isinstance(item, HostCommand):
            await self._host_command(item, seq)
        elif isinstance(item, OpenConsole):
            self._mark(seq)
            if item.player in self.game.hosts:
                await self.send_commands([show_console(item.player)])
            else:
                await self._tell(item.player, Message("illegal.not_host"))
        elif isinstance(item, SwordHit):
            await self._sword_hit(item, seq)
        elif isinstance(item, SendBook):
            await self._send_book(item, seq)

    async def _sword_hit(self, hit: SwordHit, seq: int | None) -> None:
        """House rule 8: pair attacker and victim, then ``StrikeWithSword`` (the engine checks the rest)."""
        if not hit.struck:
            self._mark(seq)
            self._last_sword_hit = (hit.player, seq or 0)
            return
        attacker: str | None = None
        if hit.attacker is not None:
            attacker = self.players.name_for(hit.attacker if isinstance(hit.attacker, (str, list)) else [])
            if attacker is None:
                await self.refresh()
                attacker = self.players.name_for(hit.attacker if isinstance(hit.attacker, (str, list)) else [])
        elif self._last_sword_hit is not None and (seq or 0) - self._last_sword_hit[1] <= SWORD_PAIRING:
            attacker = self._last_sword_hit[0]
        self._last_sword_hit = None
        if attacker is None or attacker == hit.player:
            self._mark(seq)
            log.info("Sacred Sword hit on %s dropped: no attacker to pair it with", hit.player)
            return
        await self.apply(StrikeWithSword(attacker, hit.player), seq=seq)

    async def _send_book(self, send: SendBook, seq: int | None) -> None:
        """House rule 9: read the castle book the contestant holds and apply its text."""
        item = Item.CONFESSION_BOOK if send.kind == "confess" else Item.RESPONSE_DRAFT
        text: str | None = None
        try:
            reply = await self.rcon.command(mc.inventory_get(send.player).text)
            if ENTITY_SUFFIX in reply:
                tag = nbtlib.parse_nbt(reply.split(ENTITY_SUFFIX, 1)[1])
                text = mc.book_text(_python(tag), item)
        except BridgeError:
            log.warning("could not read %s's inventory", send.player)
        except Exception:  # noqa: BLE001 - an unreadable reply is the player's "hold your book" message
            log.warning("unreadable inventory reply for %s", send.player)
        if text is None:
            self._mark(seq)
            await self._tell(send.player, msg("host.book.missing"))
            return
        action: Action = WriteConfession(send.player, text) if send.kind == "confess" else WriteResponse(send.player, text)
        await self.apply(action, seq=seq)

    async def _tell(self, player: str, message: Message) -> None:
        if player in self.ctx.seats or player in self.game.hosts:
            await self.send([Whisper(frozenset({player}), message)])
        else:
            log.info("no reply to %s: not in this series", player)

    async def _host_command(self, command: HostCommand, seq: int | None) -> None:
        """A console button other than "move on": host check, then a phase-bound "move on" or "not available"."""
        control = command.control
        if command.host not in self.game.hosts:
            self._mark(seq)
            await self._tell(command.host, Message("illegal.not_host"))
            return
        if control in (HostControl.START_TWIST, HostControl.CANCEL_TWIST):
            self._mark(seq)
            start = control is HostControl.START_TWIST
            choices = tuple(
                Choice(TWIST_TITLES[t], StartTwist(command.host, t) if start else CancelTwist(command.host, t))
                for t in Twist
            )
            key = "host.twist.start" if start else "host.twist.cancel"
            await self.send([Prompt(frozenset({command.host}), msg(key), choices)])
            return
        if control.phase is None:
            self._mark(seq)
            await self._tell(command.host, msg("host.unavailable", control=control.title))
            return
        if self.game.phase is not control.phase:
            self._mark(seq)
            await self._tell(command.host, Message("illegal.phase"))
            return
        await self.apply(Advance(command.host), seq=seq)

    async def apply(self, action: Action, *, seq: int | None = None) -> list[Effect]:
        """Apply one input to the engine under the service lock and send its effects.

        An illegal input is answered with a private message to its sender (rulebook: the state is unchanged).

        Args:
            action: the input.
            seq: the queue sequence number it came from; ``last_seq`` moves to it together with the engine.

        Returns:
            The effects sent.
        """
        async with self.lock:
            now = self.clock()
            try:
                effects = self.game.handle(action, now=now)
                self._mark(seq)
            except (IllegalAction, InvalidCommand) as exc:
                self._mark(seq)
                actor = action.actor
                if actor is None or not (actor in self.ctx.seats or actor in self.game.hosts):
                    return []
                effects = [Whisper(frozenset({actor}), Message(exc.reason, tuple(exc.params.items())))]
            except Exception:  # a bug must not stop the series: log it, keep the loop going
                self._mark(seq)
                log.exception("engine failed on %s", action.kind)
                return []
            await self.send(effects)
            return effects

    async def send(self, effects: Iterable[Effect]) -> None:
        """Render and send effects in order; schedule the phase clock; note the end of the series."""
        for effect in effects:
            if self.observer is not None:
                self.observer(effect)
            if isinstance(effect, ClockStarted) and self._dialogs_open:
                # A new phase: close the previous phase's unanswered prompt dialogs (the chat fallback stays).
                names, self._dialogs_open = sorted(self._dialogs_open), set()
                await self.send_commands([mc.dialog_clear(n) for n in names])
            elif isinstance(effect, Prompt):
                self._dialogs_open |= effect.to
            await self.send_commands(render(effect, self.ctx))
            if isinstance(effect, ClockStarted):
                self._last_clock = effect
                self._schedule(effect.phase_seq, effect.deadline)
            elif isinstance(effect, SeriesOver):
                self._unschedule()
                self._over.set()

    async def send_commands(self, commands: Iterable[mc.McCommand]) -> None:
        """Send commands one by one; an error reply is logged and kept in ``failed_commands``."""
        for cmd in commands:
            reply = await self.rcon.command(cmd.text)
            try:
                check_reply(cmd.text, reply)
            except RconCommandFailed as exc:
                if mc.is_already_exists(reply):
                    continue
                self.failed_commands.append((cmd.text, exc.reply))
                log.warning("server refused a command: %s", exc.reply[:200])

    # ------------------------------------------------------------------ re-sync and presence (house rule 6)

    async def resync_if_reconnected(self) -> bool:
        """Re-sync the world when the RCON client has logged in again since the last check.

        Returns:
            True when a re-sync was sent.
        """
        seen = self.rcon.connections
        if self._seen_connections is None:
            self._seen_connections = seen
            return False
        if seen == self._seen_connections:
            return False
        log.info("RCON reconnected: re-syncing the world from the series state")
        await self.resync()
        self._seen_connections = seen
        self.resyncs += 1
        return True

    async def resync(self, players: Iterable[str] | None = None) -> None:
        """Re-send the world from the engine's state: positions, castle items and the clock bossbar.

        Every castle item the contestant holds is cleared and the engine's list is given again, so nothing is
        held twice. Commands to players who are offline fail harmlessly (kept in ``failed_commands``); they
        are re-synced when they return (``on_player_joined``).

        Args:
            players: only these contestants (and no set-up commands); ``None`` = set-up plus every contestant.
        """
        async with self.lock:
            commands: list[mc.McCommand] = setup_commands(self.ctx) if players is None else []
            commands += self._clock_commands()
            names = self.game.contestants() if players is None else list(players)
            for name in names:
                where = self.game.positions.get(name)
                if where is not None:
                    place, seat = where
                    commands += render(MoveTo((name,), place, (seat,) if seat is not None else ()), self.ctx)
                commands.append(mc.clear_castle_items(name))
                for item, label in self.game.items.get(name, []):
                    commands += render(GiveItem(frozenset({name}), item, label), self.ctx)
            await self.send_commands(commands)

    def _clock_commands(self) -> list[mc.McCommand]:
        """The clock bossbar as the engine's deadline says now (hidden when no clock runs)."""
        deadline = self.game.deadline
        if deadline is None or self.game.is_over or self.game.phase is None:
            return [clock_hidden()]
        remaining = max(0.0, deadline - self.clock())
        last = self._last_clock
        if last is not None and last.phase_seq == self.game.phase_seq:
            label, seconds = last.label, last.seconds
        else:
            key = f"clock.{self.game.phase.value}"
            label, seconds = (msg(key) if key in CATALOG else msg("clock.night")), remaining
        shown = ClockStarted(self.game.phase_seq, label, max(seconds, remaining), deadline)
        return [*render(shown, self.ctx), clock_update(remaining)]

    async def on_player_left(self, name: str) -> None:
        """A player left the server (MSMP ``players/left``): a contestant becomes absent (engine)."""
        if name in self.ctx.seats:
            await self.apply(ContestantLeft(name))

    async def on_player_joined(self, name: str) -> None:
        """A player joined (MSMP ``players/joined``): a returning contestant is back in and re-synced."""
        if name not in self.ctx.seats:
            return
        await self.apply(ContestantReturned(name))
        if self.game.started:
            await self.resync([name])

    def attach_msmp(self, msmp: MsmpClient) -> None:
        """Turn MSMP ``players/left`` / ``players/joined`` notifications (live, or recovered after a reconnect)
        into ``on_player_left`` / ``on_player_joined``. Call once per client (handlers are never bound twice)."""

        async def left(params: dict[str, Any]) -> None:
            name = (params.get("player") or {}).get("name")
            if isinstance(name, str):
                await self.on_player_left(name)

        async def joined(params: dict[str, Any]) -> None:
            player = params.get("player") or {}
            self.players.update([player])  # the UUID → name map for queue entries
            name = player.get("name")
            if isinstance(name, str):
                await self.on_player_joined(name)

        async def player_list() -> list[dict[str, Any]]:
            result = await msmp.call("minecraft:players")
            return list(result) if isinstance(result, list) else []

        # Queue entries carry UUIDs: resolve unknown ones from MSMP's player list rather than RCON.
        self.refresh_players = player_list

        msmp.on(LEFT, left)
        msmp.on(JOINED, joined)

    # ------------------------------------------------------------------ the phase clock

    def _schedule(self, phase_seq: int, deadline: float) -> None:
        if self.scheduler is None:
            return
        self.scheduler.add_job(
            self._timer_fired,
            "date",
            run_date=datetime.fromtimestamp(deadline, tz=timezone.utc),
            args=[phase_seq],
            id=CLOCK_JOB,
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    def _unschedule(self) -> None:
        if self.scheduler is not None and self.scheduler.get_job(CLOCK_JOB) is not None:
            self.scheduler.remove_job(CLOCK_JOB)

    async def _timer_fired(self, phase_seq: int) -> None:
        try:
            await self.apply(TimerExpired(phase_seq))
        except BridgeError:
            log.exception("could not deliver the phase clock's effects")

    async def _clock_ticker(self) -> None:
        """Count the clock bossbar down once a second."""
        last: int | None = None
        while True:
            await asyncio.sleep(1.0)
            deadline = self.game.deadline
            if deadline is None:
                continue
            remaining = max(0, int(deadline - self.clock() + 0.999))
            if remaining != last:
                last = remaining
                try:
                    await self.send_commands([clock_update(remaining)])
                except BridgeError:
                    pass
