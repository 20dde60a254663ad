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
   stale or repeated ``TimerExpired``, so a late or duplicate job is harmless. One job id per service, and
   one service per series (the store's lock), so a series never has two clocks.
6. With a store (``bridge/store.py``, ``docs/recovery.md``) every input is committed, with the queue ``seq``
   it came from and the commands of its effects, BEFORE the first command is sent; each command is marked
   sent once the server has answered. Gives carry a hand-out id and are idempotent (``bridge/recovery.py``).
   When the connection is lost the service keeps applying inputs (the clock may run out meanwhile) and
   keeps their commands in the outbox; once the server answers again it sends the outbox, then re-syncs.
7. On start with a store: send what the outbox still holds, re-sync the castle, take the inputs that queued
   up while the service was down, and only then re-arm the phase clock; a deadline that passed while the
   service was down fires once, at once.
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
from bridge.errors import BridgeError, RconCommandFailed, RconUnavailable
from bridge.faults import fault
from bridge.inputs import InputError, decode
from bridge.rcon import RconClient, check_reply
from bridge.recovery import Handouts, Rebuilt, rebuild, resync_commands
from bridge.render import RenderContext, clock_hidden, clock_update, render, render_give_once, setup_commands
from bridge.store import SeriesStore, StoredSeries
from engine.actions import Action, StartSeries, TimerExpired
from engine.effects import ClockStarted, Effect, GiveItem, Message, SeriesOver, Whisper
from engine.errors import IllegalAction, InvalidCommand
from engine.game import Game
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


def _source(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a queue entry that identifies the click: ``{"player", "input", "value"}``."""
    return {"player": entry.get("player"), "input": entry.get("input"), "value": entry.get("value")}


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
        store: the series store; ``None`` runs without persistence (nothing survives a crash).
        stored: the series in ``store`` (with ``rebuilt``: see ``SeriesService.resume``).
        rebuilt: the game rebuilt from ``stored`` (its ``game`` must be ``game``).
        retry_interval: seconds between attempts to reach a server that went away (doubling up to 5 s).
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
        store: SeriesStore | None = None,
        stored: StoredSeries | None = None,
        rebuilt: Rebuilt | None = None,
        retry_interval: float = 0.1,
    ) -> None:
        if (store is None) != (stored is None):
            raise ValueError("store and stored go together")
        self.game = game
        self.rcon = rcon
        seats = {name: i for i, name in enumerate(game.settings.contestants, start=1)}
        self.ctx = RenderContext(castle, seats)
        self.poll_interval = poll_interval
        self.clock = clock
        self.observer = observer
        self.store = store
        self.stored = stored
        self.handouts: Handouts | None = None
        self._last_clock: ClockStarted | None = None
        if stored is not None:
            self.handouts = rebuilt.handouts if rebuilt is not None else Handouts(stored.tag)
            self._last_clock = rebuilt.clock if rebuilt is not None else None
        self.last_seq = stored.last_seq if stored is not None else 0
        """The highest queue sequence number taken (stored with each input when there is a store)."""
        self.retry_interval = retry_interval
        self._offline = False
        """True after the connection was lost while sending: the outbox is sent and the world re-synced first."""
        self._logins = 0
        self.lock = asyncio.Lock()
        self.scheduler: AsyncIOScheduler | None = None
        self.failed_commands: list[tuple[str, str]] = []
        """Commands the server answered with an error text: (command, reply)."""
        self._over = asyncio.Event()

    async def run(self, on_ready: Callable[[], None] | None = None) -> Outcome | None:
        """Prepare the server, start the series if needed, and apply inputs until the series ends.

        Args:
            on_ready: called once the series is started or resumed (outbox sent, world re-synced, clock armed).

        Returns:
            The outcome.

        Raises:
            RconUnavailable: the server cannot be reached (after the client's own reconnect attempts) at start,
                or later without a store.
        """
        await self.start()
        if on_ready is not None:
            on_ready()
        ticker = asyncio.create_task(self._clock_ticker())
        retry = self.retry_interval
        try:
            while not self._over.is_set():
                wait = self.poll_interval
                try:
                    if self.store is not None and (self._offline or self.rcon.logins != self._logins):
                        await self.recover()
                    await self.poll_once()
                    retry = self.retry_interval
                except RconUnavailable as exc:
                    if self.store is None:
                        raise
                    self._offline = True
                    log.warning("server unreachable (%s); retrying in %.1f s", type(exc).__name__, retry)
                    wait, retry = retry, min(5.0, retry * 2)
                if self._over.is_set():
                    break
                try:
                    await asyncio.wait_for(self._over.wait(), wait)
                except asyncio.TimeoutError:
                    pass
        finally:
            ticker.cancel()
            await self.stop()
        return self.game.outcome

    @classmethod
    def resume(
        cls,
        store: SeriesStore,
        series_id: int,
        rcon: RconClient,
        castle: CastleConfig,
        **kwargs: Any,
    ) -> SeriesService:
        """A service for a stored series: load it and rebuild the game by replaying its log.

        Args:
            store: the series store.
            series_id: which series.
            rcon: the RCON client.
            castle: the castle's coordinates.
            **kwargs: further ``SeriesService`` arguments (``poll_interval``, ``clock``, ``observer``…).

        Raises:
            StoreError: no such series, or unreadable settings.
            InvalidCommand, IllegalAction: the stored log does not replay (a damaged store).
        """
        stored = store.load(series_id)
        rebuilt = rebuild(stored)
        return cls(rebuilt.game, rcon, castle, store=store, stored=stored, rebuilt=rebuilt, **kwargs)

    async def start(self) -> None:
        """Send the setup commands, start the scheduler, and start the series if it has not started.

        With a store, a resumed series first gets its unsent outbox and a re-sync (house rule 7).
        """
        await self.send_commands(setup_commands(self.ctx))
        self._logins = self.rcon.logins
        if self.store is not None and self.game.started:
            await self.recover()
        self.scheduler = AsyncIOScheduler(timezone=timezone.utc)
        self.scheduler.start()
        if not self.game.started:
            await self.apply(StartSeries())
        elif self.game.is_over:
            self._over.set()
        else:
            if self.store is not None:
                await self.poll_once()
            if self.game.deadline is not None and not self.game.is_over:
                self._schedule(self.game.phase_seq, self.game.deadline)
            if self.game.is_over:
                self._over.set()

    async def recover(self) -> None:
        """Send the outbox's unsent commands, then re-sync the castle to the engine's state (house rule 6).

        Raises:
            RconUnavailable: the server is (still) unreachable; nothing is lost, call again later.
        """
        assert self.store is not None and self.stored is not None and self.handouts is not None
        async with self.lock:
            if self._offline or self.rcon.logins != self._logins:
                await self.send_commands(setup_commands(self.ctx))
            for p in self.store.pending(self.stored):
                await self._send_checked(p.text)
                self.store.mark_sent(self.stored, p.pos, p.i)
            now = self.clock()
            await self.send_commands(
                resync_commands(Rebuilt(self.game, self.handouts, self._last_clock), self.ctx, now)
            )
            self._offline = False
            self._logins = self.rcon.logins

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
        applied = 0
        for entry in sorted(parse_queue(reply), key=lambda e: int(e["seq"])):
            seq = int(entry["seq"])
            if self._is_new(seq, entry):
                await self.apply_entry(entry)
                self.last_seq = max(self.last_seq, seq)
                applied += 1
            fault("before-ack")
            await self.rcon.command(mc.queue_ack(seq).text)
        return applied

    def _is_new(self, seq: int, entry: Mapping[str, Any]) -> bool:
        """Whether a queue entry has not been taken yet.

        Without a store: ``seq`` above the last one taken. With a store, also an entry whose ``seq`` was taken
        with different content: the server's storage was rolled back (a crash before its save) and reused the
        number for a new click, which must not be lost.
        """
        if seq > self.last_seq:
            return True
        if self.stored is None:
            return False
        seen = self.stored.sources.get(seq)
        if seen is None or seen == _source(entry):
            return False
        log.warning("queue entry %d reused by the server (storage rolled back?); taking it as new", seq)
        return True

    async def apply_entry(self, entry: Mapping[str, Any]) -> None:
        """Turn one queue entry into an engine input and apply it; a bad entry gets a private message."""
        seq = int(entry["seq"]) if isinstance(entry.get("seq"), int) else None
        source = _source(entry)
        try:
            action = decode(entry, self.ctx.seats)
        except InputError as exc:
            player = str(entry.get("player", ""))
            effects: list[Effect] = []
            if player in self.ctx.seats or player in self.game.hosts:
                effects = [Whisper(frozenset({player}), exc.message)]
            else:
                log.info("dropped queue entry %s from an unknown player", entry.get("seq"))
            async with self.lock:
                await self._commit_and_send(effects, entry=None, queue_seq=seq, source=source)
            return
        await self.apply(action, queue_seq=seq, source=source)

    async def apply(
        self, action: Action, *, queue_seq: int | None = None, source: Mapping[str, Any] | None = None
    ) -> list[Effect]:
        """Apply one input to the engine under the service lock, store it (with a store), send its effects.

        An illegal input is answered with a private message to its sender (rulebook: the state is unchanged).

        Args:
            action: the input.
            queue_seq: the datapack queue ``seq`` it came from (stored with it: exactly-once).
            source: that queue entry (``{"player", "input", "value"}``).

        Returns:
            The effects (sent, or kept in the outbox when the server is unreachable).

        Raises:
            RconUnavailable: only without a store (with one, the commands wait in the outbox).
        """
        async with self.lock:
            now = self.clock()
            before = len(self.game.log)
            try:
                effects = self.game.handle(action, now=now)
            except (IllegalAction, InvalidCommand) as exc:
                actor = action.actor
                effects = []
                if actor is not None and (actor in self.ctx.seats or actor in self.game.hosts):
                    effects = [Whisper(frozenset({actor}), Message(exc.reason, tuple(exc.params.items())))]
            except Exception:  # a bug must not stop the series: log it, keep the loop going
                log.exception("engine failed on %s", action.kind)
                effects = []
            entry = self.game.log[-1] if len(self.game.log) > before else None
            await self._commit_and_send(effects, entry=entry, queue_seq=queue_seq, source=source)
            return effects

    async def _commit_and_send(
        self,
        effects: list[Effect],
        *,
        entry: dict[str, Any] | None,
        queue_seq: int | None,
        source: Mapping[str, Any] | None,
    ) -> None:
        """Render, store (input + outbox in one transaction), then send (house rule 6). Holds ``self.lock``."""
        ids: list[dict[str, str] | None] = [None] * len(effects)
        if self.handouts is not None and entry is not None:
            ids = self.handouts.feed(effects)
        rendered: list[list[mc.McCommand]] = []
        for effect, gids in zip(effects, ids):
            if isinstance(effect, GiveItem) and gids is not None:
                rendered.append(render_give_once(effect, gids))
            else:
                rendered.append(render(effect, self.ctx))
        pos: int | None = None
        if self.store is not None and self.stored is not None and (entry is not None or queue_seq is not None):
            fault("before-commit")
            pos = self.store.record(
                self.stored,
                entry=entry,
                commands=[c.text for cmds in rendered for c in cmds],
                queue_seq=queue_seq,
                source=None if source is None else dict(source),
                phase_seq=self.game.phase_seq,
                deadline=self.game.deadline,
                over=self.game.is_over,
            )
            fault("after-commit")
        if queue_seq is not None:
            self.last_seq = max(self.last_seq, queue_seq)
        i = 0
        for effect, cmds in zip(effects, rendered):
            if self.observer is not None:
                self.observer(effect)
            for cmd in cmds:
                if not self._offline:
                    try:
                        await self._send_checked(cmd.text)
                    except RconUnavailable:
                        if self.store is None:
                            raise
                        self._offline = True
                        log.warning("server unreachable; %s kept in the outbox", cmd.text.split(" ", 1)[0])
                    else:
                        if pos is not None and self.store is not None and self.stored is not None:
                            fault("mid-send")
                            self.store.mark_sent(self.stored, pos, i)
                i += 1
            if isinstance(effect, ClockStarted):
                self._last_clock = effect
                self._schedule(effect.phase_seq, effect.deadline)
            elif isinstance(effect, SeriesOver):
                self._unschedule()
                self._over.set()

    async def send(self, effects: Iterable[Effect]) -> None:
        """Render and send effects in order; schedule the phase clock; note the end of the series."""
        for effect in effects:
            if self.observer is not None:
                self.observer(effect)
            await self.send_commands(render(effect, self.ctx))
            if isinstance(effect, ClockStarted):
                self._schedule(effect.phase_seq, effect.deadline)
            elif isinstance(effect, SeriesOver):
                self._unschedule()
                self._over.set()

    async def send_commands(self, commands: Iterable[mc.McCommand]) -> None:
        """Send commands one by one; an error reply is logged and kept in ``failed_commands``."""
        for cmd in commands:
            await self._send_checked(cmd.text)

    async def _send_checked(self, text: str) -> None:
        reply = await self.rcon.command(text)
        try:
            check_reply(text, reply)
        except RconCommandFailed as exc:
            if mc.is_already_exists(reply):
                return
            self.failed_commands.append((text, exc.reply))
            log.warning("server refused a command: %s", exc.reply[:200])

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
