"""The service: the one loop that joins the engine, the server and the phase clock (``docs/design.md#data-flow``).

One input passes these stages, in this order (``docs/vote-path.md``): the input queue (``bridge/loop/queue.py``)
→ who sent it and what it decodes to (``bridge/loop/route.py``, ``bridge.minecraft.inputs``) → the engine
(``SeriesService.apply``) → render (``bridge/loop/sender.py``) → commit (``bridge/loop/store.py``) → schedule (the
phase clock, ``bridge/loop/clock.py``) → send (``bridge/loop/sender.py``) → ack (``bridge/loop/queue.py``).

House rules of this file:

1. One ``Game`` per service; every input goes through ``apply`` under one lock, so the engine sees inputs one
   at a time ("the sans-I/O layer is designed to run sequentially").
2. Inputs come from the datapack's queue in storage ``traitors:io`` (``bridge/loop/queue.py``): every entry with
   a sequence number above the last one taken is applied, then acked by removing exactly that entry. An entry
   seen again (ack lost, service restarted) is acked again, never applied twice. ``last_seq`` moves on in the
   same step as the input is applied (no await in between) and, with a store, is committed with it; so a crash
   between reading and acking loses nothing and repeats nothing. An unreadable entry never blocks the inputs
   behind it.
3. A contestant's illegal input becomes a private message to that contestant and changes nothing; a bad queue
   entry likewise. A spectator who presses a contestant's trigger is told privately that only contestants can do
   that (``bridge/loop/route.py``), and nothing reaches the engine. A bug while applying one input is logged and
   the loop goes on.
4. Effects are rendered and sent in order over the one RCON connection (``bridge/loop/sender.py``). A command
   the server answers with an error text is logged (never with secrets) and the next command is sent. Every give
   carries a hand-out id and is idempotent (``bridge/loop/recovery.py``), so sending it twice gives one item.
5. The phase clock (``bridge/loop/clock.py``) is one task per service that fires ``TimerExpired(phase_seq)`` at
   the running phase's deadline, one deadline after the other: a deadline that comes while the previous expiry
   is still being sent fires after it, never dropped; the loop's watchdog fires a deadline that passed without
   its timer. The engine ignores a stale or repeated ``TimerExpired``, so a late or duplicate one is harmless.
   One service per series (the store's lock), so a series never has two clocks.
6. With a store (``bridge/loop/store.py``, ``docs/recovery.md``) every input is committed, with the queue ``seq``
   it came from and the commands of its effects, BEFORE the first command is sent; each command is marked
   sent once the server has answered. When the connection is lost the service keeps applying inputs (the
   clock may run out meanwhile) and keeps their commands in the outbox.
7. When the RCON client has logged in again (a server restart, a dropped connection), the service sends the
   outbox (with a store), then re-syncs the castle from the engine's state (``bridge/loop/resync.py``): set-up,
   every contestant's position and castle items, the clock bossbar. A contestant who returns is re-synced the
   same way. On start with a store: outbox, re-sync, the inputs that queued up while the service was down, and
   only then the phase clock; a deadline that passed while the service was down fires once, at once.
8. Entries carry the player's UUID; ``players`` (``bridge.io.players.PlayerDirectory``) maps it to a name,
   refreshed once for an unknown UUID (``bridge/loop/route.py``); an entry whose UUID is still unknown is
   dropped with a log line.
9. Host controls: only ``Settings.hosts`` may use them (``bridge/loop/console.py``). Pause, resume, extend, undo
   and end are engine inputs (docs/host.md); the clock job follows ``ClockChanged``. Replacing is two steps: the
   host picks a seat, then the new player opens the console and takes it (``ReplaceContestant``), or in a
   season the first stand-by on the server takes it at once; the seat's player then gets the castle re-synced.
10. The Sacred Sword: a ``sword_struck`` entry becomes ``StrikeWithSword(attacker, victim)``, its attacker named
   or paired with the latest ``sword_hit`` entry (``bridge/loop/route.py``).
11. Books: a ``SendBook`` entry applies ``WriteConfession`` / ``WriteResponse`` with the text of the castle book
   given to the sender (``bridge/loop/route.py``); no such book gets a private "hold your book" message.
12. Crash points (``bridge/loop/faults.py``) are a value passed in (``fault``), never read from the environment
   here: the command line builds it.
13. The server's Minecraft release (``server_version``, ``bridge/loop/version.py``) is learnt by
   ``learn_version`` before the series starts (``run_series`` calls it); until then it is the oldest supported
   release. Command builders read ``mc_version``.
14. Step listeners (``add_listener``; the web pages, ``bridge/web/hub.py``) are called with every step's effects
   right after the engine stage, before sending; one that raises is logged and the series goes on.
15. A stop (``request_stop``: SIGTERM, SIGINT) takes effect at once: no queue entry is taken after it (the rest
   stay queued, unacked, for the next start), the phase clock fires no more deadlines (one already waiting for
   the lock is dropped: it fires again at the next start) and the web pages' controls are refused. With a store,
   the command in flight is answered and the rest of the input's commands stay in the outbox, sent at the next
   start (house rule 7), so the service stops within a command's round trip however slow the server is;
   without a store they are all sent first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bridge.config.castle import CastleConfig
from bridge.errors import BridgeError, RconUnavailable
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.clock import FastForward, PhaseClock, QuietGate, count_down
from bridge.loop.faults import NO_FAULT, Fault
from bridge.loop.queue import InputQueue, source_of
from bridge.loop.recovery import Handouts, Rebuilt, rebuild
from bridge.loop.resync import CastleSync
from bridge.loop.route import PlayerList, Router
from bridge.loop.sender import Sender
from bridge.loop.store import SeriesStore, StoredSeries
from bridge.loop.version import ServerVersion, detect_version
from bridge.minecraft.core import McCommand
from bridge.minecraft.inputs import InputError, OpenConsole
from bridge.minecraft.render import RenderContext, clock_hidden, clock_update, show_console
from bridge.minecraft.triggers import decode
from bridge.minecraft.versions import OLDEST, McVersion
from engine.actions import (
    Action,
    ContestantLeft,
    ContestantReturned,
    ReplaceContestant,
    StartSeries,
    TimerExpired,
)
from engine.core.ruleset import RulesetGame
from engine.effects import ClockChanged, ClockStarted, Effect, Message, SeriesOver, Whisper
from engine.errors import IllegalAction, InvalidCommand
from engine.outcome import Outcome

if TYPE_CHECKING:  # MSMP (and websockets) is imported only when a service attaches it: start-up stays short
    from bridge.io.msmp import MsmpClient

__all__ = ["POLL_INTERVAL", "SeriesService", "StepListener"]

log = logging.getLogger(__name__)

POLL_INTERVAL = 0.005
"""Seconds between polls of the input queue. A press reaches the queue at the data pack's next tick (up to 50 ms
at 20 ticks per second); polling every 5 ms keeps the press-to-command latency's p99 under 60 ms
(``bench/latency.py``, ``docs/performance.md``; 50 ms polls gave a p99 of about 100 ms). An empty poll is one short
RCON round trip."""


StepListener = Callable[[Sequence[Effect]], None]
"""Called with the effects of each step (an input applied, or a reply sent without the engine) right after the
engine stage, before the commands are sent, under the service lock: ``service.game`` is the state after the
step. It must not block (the host's web grimoire, ``bridge/web/hub.py``, queues its messages)."""


class SeriesService:
    """Runs one series against one server.

    Args:
        game: the series (not yet started, or rebuilt from a store by ``SeriesService.resume``).
        rcon: a connected-or-connectable RCON client.
        castle: the castle's coordinates.
        poll_interval: seconds between polls of the input queue (default ``POLL_INTERVAL``).
        clock: wall-clock seconds (``time.time``); the engine's ``now`` and the phase clock both use it.
        observer: called with every effect before it is sent (the demo prints public announcements).
        players: UUID → name directory (fed from MSMP by ``attach_msmp``, or refreshed here; house rule 8).
        refresh_players: coroutine returning the server's player list ``[{"id", "name"}]`` (MSMP
            ``minecraft:players``); ``None``: RCON ``list uuids``.
        store: the series store; ``None`` runs without persistence (nothing survives a crash).
        stored: the series in ``store`` (with ``rebuilt``: see ``SeriesService.resume``).
        rebuilt: the game rebuilt from ``stored`` (its ``game`` must be ``game``).
        retry_interval: seconds between attempts to reach a server that went away (doubling up to 5 s).
        last_seq: the highest queue sequence number already taken, for a series rebuilt without a store
            (with a store it comes from the store).
        quiet: the phase clock's quiet gate (``bridge/loop/clock.py`` house rule 3; the sandbox demo's), or ``None``:
            deadlines fire on ``clock`` alone.
        fast_forward: with ``quiet``, fire a deadline as soon as the gate says quiet, moving ``clock`` ahead to it
            (``bridge/loop/clock.py`` house rule 4; the tests' sandbox demos); ``False``: wait for it.
        fault: the crash points to die at (``bridge.loop.faults.Fault``, the recovery tests'); ``None``: never.
        version: the server's release when already known (house rule 13); ``None``: the oldest supported one
            until ``learn_version``.

    Raises:
        ValueError: ``store`` without ``stored`` or the other way round; ``fast_forward`` without ``quiet``.
    """

    def __init__(
        self,
        game: RulesetGame,
        rcon: RconClient,
        castle: CastleConfig,
        *,
        poll_interval: float = POLL_INTERVAL,
        clock: Callable[[], float] = time.time,
        observer: Callable[[Effect], None] | None = None,
        players: PlayerDirectory | None = None,
        refresh_players: PlayerList | None = None,
        store: SeriesStore | None = None,
        stored: StoredSeries | None = None,
        rebuilt: Rebuilt | None = None,
        retry_interval: float = 0.1,
        last_seq: int | None = None,
        quiet: QuietGate | None = None,
        fast_forward: bool = False,
        fault: Fault | None = None,
        version: ServerVersion | None = None,
    ) -> None:
        if (store is None) != (stored is None):
            raise ValueError("store and stored go together")
        skipping = FastForward(clock) if fast_forward else None
        clock = skipping if skipping is not None else clock
        self.game, self._rcon, self.clock = game, rcon, clock
        self.poll_interval, self.retry_interval = poll_interval, retry_interval
        self.store, self.stored = store, stored
        self.fault = fault if fault is not None else NO_FAULT
        self.ctx = RenderContext(castle, {name: i for i, name in enumerate(game.settings.contestants, start=1)})
        handouts = (
            rebuilt.handouts
            if rebuilt is not None
            else Handouts(stored.tag if stored is not None else secrets.token_hex(4))
        )
        self.sender = Sender(rcon, self.ctx, handouts, observer, outbox=store is not None)
        """Render and send (house rule 4)."""
        kept = (store, stored) if store is not None and stored is not None else None
        self.sync = CastleSync(game, self.sender, clock, kept, rebuilt.clock if rebuilt is not None else None)
        """Set-up, outbox and re-sync (house rule 7)."""
        self.queue = InputQueue(
            rcon,
            stored.last_seq if stored is not None else (last_seq or 0),
            stored.sources if stored is not None else None,
        )
        """The input queue (house rule 2)."""
        self.router = Router(
            game, rcon, self.ctx.seats, players if players is not None else PlayerDirectory(), handouts, refresh_players
        )
        """Who sent an entry and what it becomes (house rules 3 and 8-11)."""
        self.lock = asyncio.Lock()
        self.phase_clock = PhaseClock(
            self._timer_fired, now=clock, gate=quiet, skip=skipping.skip_to if skipping is not None else None
        )
        """The phase clock (house rule 5), started by ``start``."""
        self._over = asyncio.Event()
        self._stopping = asyncio.Event()
        """Set by ``request_stop``: ``run`` returns after the input in hand (the series stays resumable)."""
        self._stop_asked = False
        self.stopped_by: int | None = None
        """The signal whose handler stopped the service (``request_stop``), if any."""
        self.server_version = version if version is not None else ServerVersion(OLDEST)
        """The server's release as learnt (house rule 13)."""
        self.listeners: list[StepListener] = []
        """Called after every step (``add_listener``)."""

    # ------------------------------------------------------------------ state the stages keep

    @property
    def rcon(self) -> RconClient:
        """The RCON client every stage sends over; setting it (a test's failing client) changes it for all."""
        return self._rcon

    @rcon.setter
    def rcon(self, rcon: RconClient) -> None:
        self._rcon = self.queue.rcon = self.sender.rcon = self.sync.rcon = self.router.rcon = rcon

    @property
    def last_seq(self) -> int:
        """The highest queue sequence number taken (stored with each input when there is a store)."""
        return self.queue.last_seq

    @property
    def mc_version(self) -> McVersion:
        """The supported release whose command and pack forms the service uses (house rule 13)."""
        return self.server_version.forms

    async def learn_version(self, msmp: MsmpClient | None = None) -> ServerVersion:
        """Ask the server which release it runs (MSMP ``server/status``, else RCON ``version``) and keep the
        answer in ``server_version`` (house rule 13; ``bridge/loop/version.py``).

        Raises:
            UnsupportedVersion: the server runs a release older than the oldest supported one.
        """
        self.server_version = await detect_version(self.rcon, msmp)
        return self.server_version

    @property
    def handouts(self) -> Handouts:
        """Hand-out ids of every give (house rule 4); rebuilt from the log on resume."""
        return self.sender.handouts

    @property
    def players(self) -> PlayerDirectory:
        """The UUID → name directory (house rule 8)."""
        return self.router.players

    @property
    def failed_commands(self) -> list[tuple[str, str]]:
        """Commands the server answered with an error text: (command, reply)."""
        return self.sender.failed_commands

    @property
    def resyncs(self) -> int:
        """How many times the castle was re-synced after a reconnect."""
        return self.sync.resyncs

    def add_listener(self, listener: StepListener) -> None:
        """Call ``listener`` with every step's effects from now on (``StepListener``); a listener that raises
        is logged and the series goes on."""
        self.listeners.append(listener)

    def _notify(self, effects: Sequence[Effect]) -> None:
        for listener in self.listeners:
            try:
                listener(effects)
            except Exception:  # a page's bug must not stop the series
                log.exception("a step listener failed")

    # ------------------------------------------------------------------ running

    async def run(self, on_ready: Callable[[], None] | None = None) -> Outcome | None:
        """Prepare the server, start the series if needed, and apply inputs until the series ends.

        Args:
            on_ready: called once the series is started or resumed (outbox sent, world re-synced, clock armed).

        Returns:
            The outcome (``None`` when stopped early by ``request_stop``).

        Raises:
            RconUnavailable: the server cannot be reached (after the client's own reconnect attempts) at start,
                or later without a store.
        """
        await self.start()
        if on_ready is not None:
            on_ready()
        ticker = asyncio.create_task(count_down(self._deadline, self.clock, self._show_remaining))
        retry = self.retry_interval
        try:
            while not self._over.is_set() and not self._stopping.is_set():
                wait = self.poll_interval
                self.phase_clock.watch(self.game.phase_seq, self.game.deadline)
                try:
                    if self.sender.offline:
                        await self.recover()
                    await self.poll_once()
                    retry = self.retry_interval
                except RconUnavailable as exc:
                    if self.store is None:
                        raise
                    self.sender.offline = True
                    log.warning("server unreachable (%s); retrying in %.1f s", exc, retry)
                    wait, retry = retry, min(5.0, retry * 2)
                if self._over.is_set() or self._stopping.is_set():
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopping.wait(), wait)
        finally:
            ticker.cancel()
            await self.stop()
        return self.game.outcome

    def request_stop(self, signal_number: int | None = None) -> None:
        """Ask ``run`` to return (SIGTERM, SIGINT; house rule 15): no input is taken from now on, the clock fires
        no more deadlines, the input being applied finishes (with a store, its unsent commands wait in the outbox)
        and the series stays resumable from its store (``docs/recovery.md``). Safe to call from a signal handler.

        Args:
            signal_number: the signal that asked (kept as ``stopped_by``; the command line's exit code for a
                Ctrl-C is 130), or ``None``.
        """
        self.stopped_by = signal_number
        self._stop_asked = True
        self._stopping.set()
        self.phase_clock.hold()
        self.sender.halted = self.store is not None

    @property
    def accepting(self) -> bool:
        """Whether the service still takes inputs: not after ``request_stop`` (house rule 15)."""
        return not self._stop_asked

    @classmethod
    def resume(
        cls, store: SeriesStore, series_id: int, rcon: RconClient, castle: CastleConfig, **kwargs: Any
    ) -> SeriesService:
        """A service for a stored series: load it and rebuild the game by replaying its log.

        Args:
            store: the series store.
            series_id: which series.
            rcon: the RCON client.
            castle: the castle's coordinates.
            **kwargs: further ``SeriesService`` arguments (``poll_interval``, ``clock``, ``observer``, ``fault``…).

        Raises:
            StoreError: no such series, or unreadable settings.
            InvalidCommand, IllegalAction: the stored log does not replay (a damaged store).
        """
        stored = store.load(series_id)
        rebuilt = rebuild(stored)
        return cls(rebuilt.game, rcon, castle, store=store, stored=stored, rebuilt=rebuilt, **kwargs)

    async def start(self) -> None:
        """Send the setup commands, start the phase clock, and start the series if it has not started.

        With a store, a resumed series first gets its unsent outbox and a re-sync (house rule 7).
        """
        await self.setup()
        self.sync.logins = self.rcon.logins
        if self.store is not None and self.game.started:
            await self.recover()
        self.phase_clock.start()
        if not self.game.started:
            await self.apply(StartSeries())
        elif self.game.is_over:
            if self.store is not None:  # inputs queued as the series ended (a crash then): answered and acked
                await self.poll_once()
            self._over.set()
        else:
            if self.store is not None:
                await self.poll_once()
            if self.game.deadline is not None and not self.game.is_over:
                self.phase_clock.arm(self.game.phase_seq, self.game.deadline)
            if self.game.is_over:
                self._over.set()

    async def stop(self) -> None:
        """Stop the phase clock and hide the clock bossbar (the series stays resumable from its log).

        Waits for an input being applied (an expiry of the phase clock in flight included) to finish sending its
        effects.
        """
        await self.phase_clock.stop()
        async with self.lock:  # an input being applied meanwhile (an MSMP join, say) finishes sending first
            pass
        with contextlib.suppress(BridgeError):
            await self.send_commands([clock_hidden()])

    # ------------------------------------------------------------------ one input, stage by stage

    async def poll_once(self) -> int:
        """Read the input queue once, apply new entries in sequence order and ack each (house rule 2).

        Returns:
            How many entries were taken.
        """
        reply = await self.queue.read_reply()
        await self.resync_if_reconnected()  # the read is what logs in again after a restart
        taken = 0
        for entry in await self.queue.entries(reply):
            if not self.accepting:  # stopping: the entry stays queued, unacked, for the next start
                break
            seq = int(entry["seq"])
            if self.queue.is_new(seq, entry):
                await self.apply_entry(entry)
                taken += 1
            self.fault("before-ack")
            await self.queue.ack(seq)
        return taken

    async def apply_entry(self, entry: Mapping[str, Any]) -> None:
        """One queue entry: who sent it → decode → route → the engine (``apply``) or a reply → follow-up.

        Whatever happens, the entry is taken: ``last_seq`` moves to its ``seq`` (and, with a store, the entry
        is recorded) in the same step.
        """
        seq = int(entry["seq"]) if isinstance(entry.get("seq"), int) else None
        source = source_of(entry)
        player = await self.router.player_of(entry)
        if player is None:
            log.info("dropped queue entry %s from an unknown player", entry.get("seq"))
            await self._settle([], seq, source)
            return
        try:
            item = decode({**entry, "player": player}, self.ctx.seats)
        except InputError as exc:
            await self._settle(self.router.refused(player, entry, exc.message), seq, source)
            return
        routed = await self.router.route(player, item, entry)
        if isinstance(routed, list):
            await self._settle(routed, seq, source)
        else:
            await self.apply(routed, queue_seq=seq, source=source)
        if isinstance(item, OpenConsole):
            await self._console_opened(item.player, routed)
        elif isinstance(routed, ReplaceContestant) and self.game.player_of(routed.contestant) == routed.player:
            await self.resync([routed.player])  # a stand-by the console called in (console.py house rule 4)

    async def apply(
        self, action: Action, *, queue_seq: int | None = None, source: Mapping[str, Any] | None = None
    ) -> list[Effect]:
        """Apply one input to the engine under the service lock, store it (with a store), send its effects.

        An illegal input is answered with a private message to its sender (rulebook: the state is unchanged).

        Args:
            action: the input.
            queue_seq: the datapack queue ``seq`` it came from (stored with it: exactly-once).
            source: that queue entry (``{"uuid", "input", "value"}``).

        Returns:
            The effects (sent, or kept in the outbox when the server is unreachable).

        Raises:
            RconUnavailable: only without a store (with one, the commands wait in the outbox).
        """
        async with self.lock:
            if isinstance(action, TimerExpired) and not self.accepting:  # a stop came while it waited (rule 15)
                return []
            effects, entry = self._step(action)
            await self._commit_and_send(effects, entry=entry, queue_seq=queue_seq, source=source)
            return effects

    def _step(self, action: Action) -> tuple[list[Effect], dict[str, Any] | None]:
        """The engine stage: the input's effects and its new log entry (``None`` when it was refused)."""
        before = len(self.game.log)
        try:
            effects = self.game.handle(action, now=self.clock())
        except (IllegalAction, InvalidCommand) as exc:
            actor = action.actor
            effects = []
            if actor is not None and (actor in self.ctx.seats or actor in self.game.hosts):
                effects = [Whisper(frozenset({actor}), Message(exc.reason, tuple(exc.params.items())))]
        except Exception:  # a bug must not stop the series: log it, keep the loop going
            log.exception("engine failed on %s", action.kind)
            effects = []
        return effects, self.game.log[-1] if len(self.game.log) > before else None

    async def _settle(self, effects: list[Effect], seq: int | None, source: Mapping[str, Any] | None) -> None:
        """Take a queue entry that is no engine input (or was refused before reaching the engine)."""
        async with self.lock:
            await self._commit_and_send(effects, entry=None, queue_seq=seq, source=source)

    async def send(self, effects: Iterable[Effect]) -> None:
        """Send effects that follow no input (e.g. a private reply); same path as ``apply``'s effects."""
        async with self.lock:
            await self._commit_and_send(list(effects), entry=None, queue_seq=None, source=None)

    async def _commit_and_send(
        self,
        effects: list[Effect],
        *,
        entry: dict[str, Any] | None,
        queue_seq: int | None,
        source: Mapping[str, Any] | None,
    ) -> None:
        """Render → commit (input + outbox in one transaction, house rule 6) → schedule → send. Holds the lock."""
        rendered = self.sender.render(effects)
        pos = self._commit(entry, rendered, queue_seq, source)
        self.queue.taken(queue_seq)
        self._schedule(effects)  # the clock follows the engine at once, not after the (maybe slow) sending
        self._notify(effects)
        sent = functools.partial(self._mark_sent, pos) if pos is not None else None
        await self.sender.send(effects, rendered, sent=sent, after=self._effect_sent)

    def _commit(
        self,
        entry: dict[str, Any] | None,
        rendered: list[list[McCommand]],
        queue_seq: int | None,
        source: Mapping[str, Any] | None,
    ) -> int | None:
        """The store stage: record the input, its queue entry and its commands; their position, or ``None`` (no
        store, or nothing to record)."""
        if self.store is None or self.stored is None or (entry is None and queue_seq is None):
            return None
        self.fault("before-commit")
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
        self.fault("after-commit")
        return pos

    def _mark_sent(self, pos: int, i: int) -> None:
        assert self.store is not None and self.stored is not None
        self.fault("mid-send")
        self.store.mark_sent(self.stored, pos, i)

    def _schedule(self, effects: Iterable[Effect]) -> None:
        """The schedule stage: arm the phase clock at a new deadline, disarm it when paused or over (house rule 5)."""
        for effect in effects:
            if isinstance(effect, (ClockStarted, ClockChanged)) and effect.deadline is not None:
                self.phase_clock.arm(effect.phase_seq, effect.deadline)
            elif isinstance(effect, (ClockChanged, SeriesOver)):
                self.phase_clock.disarm()

    def _effect_sent(self, effect: Effect) -> None:
        """After an effect's commands went: keep the bossbar's clock for re-syncs; the series' end ends ``run``."""
        if isinstance(effect, ClockStarted):
            self.sync.last_clock = effect
        elif isinstance(effect, SeriesOver):
            self._over.set()
            self._stopping.set()

    async def _console_opened(self, player: str, routed: Action | list[Effect]) -> None:
        """The follow-up of opening the console: a host is shown it; a new player who took a seat is re-synced."""
        if player in self.game.hosts:
            await self.send_commands([show_console(player)])
        elif isinstance(routed, ReplaceContestant) and self.game.player_of(routed.contestant) == player:
            await self.resync([player])

    # ------------------------------------------------------------------ sending outside an input

    async def send_commands(self, commands: Iterable[McCommand]) -> None:
        """Send commands one by one; an error reply is logged and kept in ``failed_commands``."""
        await self.sender.send_commands(commands)

    async def player_of(self, entry: Mapping[str, Any]) -> str | None:
        """The name of the player who sent a queue entry (``Router.player_of``)."""
        return await self.router.player_of(entry)

    # ------------------------------------------------------------------ set-up and re-sync (bridge/loop/resync.py)

    async def setup(self) -> None:
        """Prepare the server for a series with one data pack call, ``function traitors:setup``, or command by
        command when the pack has no such function (``CastleSync.setup``).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        await self.sync.setup()

    async def recover(self) -> None:
        """Send the outbox's unsent commands (with a store), then re-sync the castle (house rule 7).

        Raises:
            RconUnavailable: the server is (still) unreachable; nothing is lost, call again later.
        """
        async with self.lock:
            await self.sync.recover()

    async def resync_if_reconnected(self) -> bool:
        """Re-sync the castle when the RCON client has logged in again since the last check (house rule 7).

        Returns:
            True when a re-sync was sent.
        """
        if self.sync.logins is None:
            self.sync.logins = self.rcon.logins
            return False
        if self.rcon.logins == self.sync.logins:
            return False
        log.info("RCON reconnected: re-syncing the castle from the series state")
        await self.recover()
        self.sync.resyncs += 1
        return True

    async def resync(self, players: Iterable[str] | None = None) -> None:
        """Re-send the castle from the engine's state: positions, castle items (given once, never twice) and,
        for everyone, the clock bossbar.

        Args:
            players: only these contestants; ``None`` = every contestant plus the set-up and the clock.
        """
        async with self.lock:
            if players is None:
                await self.setup()
            await self.send_commands(await self.sync.commands(players))

    # ------------------------------------------------------------------ presence

    async def on_player_left(self, name: str) -> None:
        """A player left the server (MSMP ``players/left``): a contestant becomes absent (engine).

        ``name`` is the player: a stand-in's leave is the seat's (the engine translates it)."""
        if self.game.contestant_of(name) is not None:
            await self.apply(ContestantLeft(name))

    async def on_player_joined(self, name: str) -> None:
        """A player joined (MSMP ``players/joined``): a returning contestant is back in and re-synced."""
        if self.game.contestant_of(name) is None:
            return
        await self.apply(ContestantReturned(name))
        if self.game.started:
            await self.resync([name])

    def attach_msmp(self, msmp: MsmpClient) -> None:
        """Turn MSMP ``players/left`` / ``players/joined`` notifications (live, or recovered after a reconnect)
        into ``on_player_left`` / ``on_player_joined``, and resolve unknown UUIDs from MSMP's player list.
        Call once per client (handlers are never bound twice)."""
        from bridge.io.msmp import JOINED, LEFT  # here, not at the top: start-up without MSMP stays short

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

        self.router.refresh_players = player_list
        msmp.on(LEFT, left)
        msmp.on(JOINED, joined)

    # ------------------------------------------------------------------ the phase clock

    def _deadline(self) -> float | None:
        return self.game.deadline

    async def _timer_fired(self, phase_seq: int) -> None:
        try:
            await self.apply(TimerExpired(phase_seq))
        except BridgeError:
            log.exception("could not deliver the phase clock's effects")

    async def _show_remaining(self, seconds: int) -> None:
        """The clock bossbar's countdown (``clock.count_down``); a lost connection only skips a second."""
        with contextlib.suppress(BridgeError):
            await self.send_commands([clock_update(seconds)])
