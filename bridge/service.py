"""The service: the one loop that joins the engine, the server and the phase clock (DESIGN "data flow").

House rules of this file:

1. One ``Game`` per service; every input goes through ``apply`` under one lock, so the engine sees inputs one
   at a time ("the sans-I/O layer is designed to run sequentially").
2. Inputs come from the datapack's queue in storage ``traitors:io``: the service polls it over RCON, applies
   every entry with a sequence number above the last one applied, then acks it by removing exactly that
   entry. An entry seen again (ack lost, service restarted) is acked again, never applied twice.
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
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone
from typing import Any

import nbtlib
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bridge import commands as mc
from bridge.config import CastleConfig
from bridge.errors import BridgeError, RconCommandFailed
from bridge.inputs import InputError, decode
from bridge.msmp import JOINED, LEFT, MsmpClient
from bridge.rcon import RconClient, check_reply
from bridge.render import RenderContext, clock_hidden, clock_update, render, setup_commands
from engine.actions import Action, ContestantLeft, ContestantReturned, StartSeries, TimerExpired
from engine.effects import ClockStarted, Effect, GiveItem, Message, MoveTo, SeriesOver, Whisper, msg
from engine.errors import IllegalAction, InvalidCommand
from engine.game import Game
from engine.messages import CATALOG
from engine.outcome import Outcome

log = logging.getLogger(__name__)

QUEUE_PREFIX = "Storage traitors:io has the following contents: "
"""Vanilla's reply to ``data get storage`` (en_us ``commands.data.storage.query``; FACTS §5)."""
CLOCK_JOB = "phase-clock"


def parse_queue(reply: str) -> list[dict[str, Any]]:
    """The input entries in a ``data get storage traitors:io queue`` reply.

    Args:
        reply: the RCON reply text.

    Returns:
        Entries as plain dicts (``{"seq": int, "player": str, "input": str, "value": int}``), in queue order;
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


def _plain(value: Any) -> Any:
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
    ) -> None:
        self.game = game
        self.rcon = rcon
        seats = {name: i for i, name in enumerate(game.settings.contestants, start=1)}
        self.ctx = RenderContext(castle, seats)
        self.poll_interval = poll_interval
        self.clock = clock
        self.observer = observer
        self.last_seq = 0
        """The highest queue sequence number applied (issue: persisted with the series log later)."""
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
                await self.apply_entry(entry)
                self.last_seq = seq
                applied += 1
            await self.rcon.command(mc.queue_ack(seq).text)
        return applied

    async def apply_entry(self, entry: Mapping[str, Any]) -> None:
        """Turn one queue entry into an engine input and apply it; a bad entry gets a private message."""
        try:
            action = decode(entry, self.ctx.seats)
        except InputError as exc:
            player = str(entry.get("player", ""))
            if player in self.ctx.seats or player in self.game.hosts:
                await self.send([Whisper(frozenset({player}), exc.message)])
            else:
                log.info("dropped queue entry %s from an unknown player", entry.get("seq"))
            return
        await self.apply(action)

    async def apply(self, action: Action) -> list[Effect]:
        """Apply one input to the engine under the service lock and send its effects.

        An illegal input is answered with a private message to its sender (rulebook: the state is unchanged).

        Returns:
            The effects sent.
        """
        async with self.lock:
            now = self.clock()
            try:
                effects = self.game.handle(action, now=now)
            except (IllegalAction, InvalidCommand) as exc:
                actor = action.actor
                if actor is None or not (actor in self.ctx.seats or actor in self.game.hosts):
                    return []
                effects = [Whisper(frozenset({actor}), Message(exc.reason, tuple(exc.params.items())))]
            except Exception:  # a bug must not stop the series: log it, keep the loop going
                log.exception("engine failed on %s", action.kind)
                return []
            await self.send(effects)
            return effects

    async def send(self, effects: Iterable[Effect]) -> None:
        """Render and send effects in order; schedule the phase clock; note the end of the series."""
        for effect in effects:
            if self.observer is not None:
                self.observer(effect)
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
            name = (params.get("player") or {}).get("name")
            if isinstance(name, str):
                await self.on_player_joined(name)

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
