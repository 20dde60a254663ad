"""The service: the one loop that joins the engine, the server and the phase clock (``docs/design.md#data-flow``).

House rules of this file:

1. One ``Game`` per service; every input goes through ``apply`` under one lock, so the engine sees inputs one
   at a time ("the sans-I/O layer is designed to run sequentially").
2. Inputs come from the datapack's queue in storage ``traitors:io``: the service polls it over RCON, applies
   every entry with a sequence number above the last one taken, then acks it by removing exactly that
   entry. An entry seen again (ack lost, service restarted) is acked again, never applied twice.
   ``last_seq`` moves on in the same step as the input is applied (no await in between) and, with a store, is
   committed with it; so a crash between reading and acking loses nothing and repeats nothing. When the
   queue's reply is unreadable (an entry written by hand), the entries are taken one by one from the head and
   the unreadable one is removed, so it never blocks the inputs behind it.
3. A contestant's illegal input becomes a private message to that contestant and changes nothing; a bad queue
   entry likewise. A spectator (a player who is neither a contestant nor a host) who presses a contestant's
   trigger is told privately that only contestants can do that ("Only the host can do that." for the host's
   console), and nothing reaches the engine. A bug while applying one input is logged and the loop goes on.
4. Effects are rendered and sent in order over the one RCON connection. A command the server answers with an
   error text is logged (never with secrets) and the next command is sent. Every give carries a hand-out id
   and is idempotent (``bridge/loop/recovery.py``), so sending it twice gives one item.
5. The phase clock (``bridge/loop/clock.py``) is one task per service that fires ``TimerExpired(phase_seq)`` at the
   running phase's deadline, one deadline after the other: a deadline that comes while the previous expiry is
   still being sent fires after it, never dropped; the loop's watchdog fires a deadline that passed without its
   timer. The engine ignores a stale or repeated ``TimerExpired``, so a late or duplicate one is harmless. One
   service per series (the store's lock), so a series never has two clocks.
6. With a store (``bridge/loop/store.py``, ``docs/recovery.md``) every input is committed, with the queue ``seq``
   it came from and the commands of its effects, BEFORE the first command is sent; each command is marked
   sent once the server has answered. When the connection is lost the service keeps applying inputs (the
   clock may run out meanwhile) and keeps their commands in the outbox.
7. When the RCON client has logged in again (a server restart, a dropped connection), the service sends the
   outbox (with a store), then re-syncs the castle from the engine's state (``recover``): set-up, every
   contestant's position and castle items, the clock bossbar. A contestant who returns is re-synced the same
   way. On start with a store: outbox, re-sync, the inputs that queued up while the service was down, and only
   then the phase clock; a deadline that passed while the service was down fires once, at once.
8. Entries carry the player's UUID; ``players`` (``bridge.io.players.PlayerDirectory``) maps it to a name. An
   unknown UUID makes the service refresh the directory once (``refresh_players``: MSMP ``minecraft:players``
   when given, else RCON ``list uuids``); an entry whose UUID is still unknown is dropped with a log line.
9. Host controls: only ``Settings.hosts`` may use them; anyone else gets "Only the host can do that." and
   nothing changes. "Start/cancel a twist" show the host a list of twists (``traitors.twist``); the engine
   checks the twist's preconditions. Pause, resume, extend, undo and end are engine inputs (docs/host.md); the
   clock job follows ``ClockChanged``. Replacing is two steps: the host picks a seat (``_seat_waiting``, kept in
   memory only), then the new player opens the console and takes it (``ReplaceContestant``); the seat's player
   then gets the castle re-synced.
10. The Sacred Sword: a ``sword_struck`` entry names the victim (its UUID) and the attacker (``attacker``); it
   becomes ``StrikeWithSword(attacker, victim)``. Without ``attacker`` it is paired with the latest
   ``sword_hit`` entry (the attacker's) if that came at most ``SWORD_PAIRING`` entries before; else dropped.
11. Books: a ``SendBook`` entry makes the service read the sender's inventory (``data get entity <name>
   Inventory``) and apply ``WriteConfession`` / ``WriteResponse`` with the text of the castle book given to them
   (a book picked up from someone else does not count); no such book or an unreadable reply gets a private
   "hold your book" message.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from bridge.minecraft import commands as mc
from bridge.minecraft import snbt
from bridge.loop.clock import PhaseClock, QuietGate, count_down
from bridge.config.castle import CastleConfig
from bridge.errors import BridgeError, RconCommandFailed, RconUnavailable
from bridge.loop.faults import fault
from bridge.minecraft.inputs import EXTEND_STEP, HostCommand, HostControl, InputError, OpenConsole, SendBook, SwordHit
from bridge.minecraft.triggers import HOST, PREFIX, TWIST, decode
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient, check_reply
from bridge.loop.recovery import Handouts, Rebuilt, items_to_hold, rebuild, resync_commands
from bridge.minecraft.render import (
    RenderContext,
    clock_hidden,
    clock_update,
    render,
    render_give_once,
    setup_call,
    setup_commands,
    show_console,
)
from bridge.loop.store import SeriesStore, StoredSeries
from engine.actions import (
    Action,
    Advance,
    CancelTwist,
    ContestantLeft,
    ContestantReturned,
    EndSeries,
    ExtendPhase,
    PauseClock,
    ReplaceContestant,
    ResumeClock,
    StartSeries,
    StartTwist,
    StrikeWithSword,
    TimerExpired,
    UndoHostAction,
    WriteConfession,
    WriteResponse,
)
from engine.effects import (
    Choice,
    ClockChanged,
    ClockStarted,
    Effect,
    GiveItem,
    Message,
    Prompt,
    SeriesOver,
    Whisper,
    msg,
)
from engine.ids import Item, Twist
from engine.rulesets.traitors.twists import TITLES as TWIST_TITLES
from engine.errors import IllegalAction, InvalidCommand
from engine.rulesets.traitors.game import Game
from engine.outcome import Outcome

if TYPE_CHECKING:  # MSMP (and websockets) is imported only when a service attaches it: start-up stays short
    from bridge.io.msmp import MsmpClient

log = logging.getLogger(__name__)

QUEUE_PREFIX = "Storage traitors:io has the following contents: "
"""Vanilla's reply to ``data get storage`` (en_us ``commands.data.storage.query``;
``docs/minecraft.md#player-input``)."""
ENTITY_SUFFIX = " has the following entity data: "
"""Vanilla's reply to ``data get entity`` (en_us ``commands.data.entity.query``)."""
SWORD_PAIRING = 4
"""How many queue entries apart a ``sword_hit`` and an attacker-less ``sword_struck`` may be to pair."""


POLL_INTERVAL = 0.005
"""Seconds between polls of the input queue. A press reaches the queue at the data pack's next tick (up to 50 ms
at 20 ticks per second); polling every 5 ms keeps the press-to-command latency's p99 under 60 ms
(``bench/latency.py``, ``docs/performance.md``; 50 ms polls gave a p99 of about 100 ms). An empty poll is one short
RCON round trip."""


def parse_queue(reply: str) -> list[dict[str, Any]]:
    """The input entries in a ``data get storage traitors:io queue`` (or ``queue[0]``) reply.

    Args:
        reply: the RCON reply text.

    Returns:
        Entries as plain dicts (``{"seq": int, "uuid": [int×4], "input": str, "value": int}``), in queue order;
        ``[]`` when the queue is empty or absent ("Found no elements matching queue"). An entry that is not
        a compound, or lacks an integer ``seq``, is dropped (it cannot be acked by sequence number).

    Raises:
        snbt.SnbtError: the reply's SNBT is unreadable (``SeriesService.poll_once`` then takes the entries one by
            one, house rule 2).
    """
    if not reply.startswith(QUEUE_PREFIX):
        return []
    tag = snbt.parse(reply[len(QUEUE_PREFIX):])
    entries = tag if isinstance(tag, list) else [tag]
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("seq"), int)]


def _spectator_reply(entry: Mapping[str, Any]) -> Message:
    """House rule 3: what a player outside the series is told when pressing a trigger: only the host may use the
    host's triggers (console buttons, twists), only contestants the others."""
    host_trigger = f"{PREFIX}{entry.get('input')}" in (HOST, TWIST)
    return Message("illegal.not_host" if host_trigger else "illegal.spectator")


def _source(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a queue entry that identifies the click: ``{"uuid", "player", "input", "value"}``."""
    return {k: entry.get(k) for k in ("uuid", "player", "input", "value") if k in entry}


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

    Raises:
        ValueError: ``store`` without ``stored`` or the other way round.
    """

    def __init__(
        self,
        game: Game,
        rcon: RconClient,
        castle: CastleConfig,
        *,
        poll_interval: float = POLL_INTERVAL,
        clock: Callable[[], float] = time.time,
        observer: Callable[[Effect], None] | None = None,
        players: PlayerDirectory | None = None,
        refresh_players: Callable[[], Awaitable[Iterable[Mapping[str, Any]]]] | None = None,
        store: SeriesStore | None = None,
        stored: StoredSeries | None = None,
        rebuilt: Rebuilt | None = None,
        retry_interval: float = 0.1,
        last_seq: int | None = None,
        quiet: QuietGate | None = None,
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
        self.players = players if players is not None else PlayerDirectory()
        self.refresh_players = refresh_players
        self.store = store
        self.stored = stored
        self.handouts = Handouts(stored.tag if stored is not None else secrets.token_hex(4))
        """Hand-out ids of every give (house rule 4); rebuilt from the log on resume."""
        self._last_clock: ClockStarted | None = None
        if rebuilt is not None:
            self.handouts = rebuilt.handouts
            self._last_clock = rebuilt.clock
        self.last_seq = stored.last_seq if stored is not None else (last_seq or 0)
        """The highest queue sequence number taken (stored with each input when there is a store)."""
        self.retry_interval = retry_interval
        self._offline = False
        """True after the connection was lost while sending: the outbox is sent and the world re-synced first."""
        self._logins: int | None = None
        """``rcon.logins`` when the castle was last known to be in sync (house rule 7)."""
        self._dialogs_open: set[str] = set()
        """Players shown a prompt dialog since the last phase clock (closed when the next phase starts)."""
        self.lock = asyncio.Lock()
        self.phase_clock = PhaseClock(self._timer_fired, now=clock, gate=quiet)
        """The phase clock (house rule 5), started by ``start``."""
        self.failed_commands: list[tuple[str, str]] = []
        """Commands the server answered with an error text: (command, reply)."""
        self._over = asyncio.Event()
        self._stopping = asyncio.Event()
        self.stopped_by: int | None = None
        """The signal whose handler stopped the service (``request_stop``), if any."""
        """Set by ``request_stop``: ``run`` returns after the input in hand (the series stays resumable)."""
        self.resyncs = 0
        """How many times the castle was re-synced after a reconnect."""
        self._last_sword_hit: tuple[str, int] | None = None
        """(attacker, queue seq) of the latest ``sword_hit`` entry (house rule 10)."""
        self._seat_waiting: tuple[str, str] | None = None
        """(host, contestant): a seat the host chose for a new player, until someone takes it (house rule 9)."""

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
        ticker = asyncio.create_task(count_down(lambda: self.game.deadline, self.clock, self._show_remaining))
        retry = self.retry_interval
        try:
            while not self._over.is_set() and not self._stopping.is_set():
                wait = self.poll_interval
                self.phase_clock.watch(self.game.phase_seq, self.game.deadline)
                try:
                    if self._offline:
                        await self.recover()
                    await self.poll_once()
                    retry = self.retry_interval
                except RconUnavailable as exc:
                    if self.store is None:
                        raise
                    self._offline = True
                    log.warning("server unreachable (%s); retrying in %.1f s", type(exc).__name__, retry)
                    wait, retry = retry, min(5.0, retry * 2)
                if self._over.is_set() or self._stopping.is_set():
                    break
                try:
                    await asyncio.wait_for(self._stopping.wait(), wait)
                except asyncio.TimeoutError:
                    pass
        finally:
            ticker.cancel()
            await self.stop()
        return self.game.outcome

    def request_stop(self, signal_number: int | None = None) -> None:
        """Ask ``run`` to return (SIGTERM): the input being applied finishes sending, the clock stops, and the
        series stays resumable from its store (``docs/recovery.md``). Safe to call from a signal handler.

        Args:
            signal_number: the signal that asked (kept as ``stopped_by``; the command line's exit code for a
                Ctrl-C is 130), or ``None``.
        """
        self.stopped_by = signal_number
        self._stopping.set()

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
        """Send the setup commands, start the phase clock, and start the series if it has not started.

        With a store, a resumed series first gets its unsent outbox and a re-sync (house rule 7).
        """
        await self.setup()
        self._logins = self.rcon.logins
        if self.store is not None and self.game.started:
            await self.recover()
        self.phase_clock.start()
        if not self.game.started:
            await self.apply(StartSeries())
        elif self.game.is_over:
            self._over.set()
        else:
            if self.store is not None:
                await self.poll_once()
            if self.game.deadline is not None and not self.game.is_over:
                self.phase_clock.arm(self.game.phase_seq, self.game.deadline)
            if self.game.is_over:
                self._over.set()

    async def setup(self) -> None:
        """Prepare the server for a series (``render.setup_commands``) with one data pack call,
        ``function traitors:setup``; when the server's pack has no such function ("Unknown function …"), the
        commands go one by one.

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        call = setup_call().text
        try:
            check_reply(call, await self.rcon.command(call))
        except RconCommandFailed:
            log.info("the data pack has no %s; sending the set-up command by command", call.split()[-1])
            await self.send_commands(setup_commands(self.ctx))

    async def recover(self) -> None:
        """Send the outbox's unsent commands (with a store), then re-sync the castle (house rule 7).

        Raises:
            RconUnavailable: the server is (still) unreachable; nothing is lost, call again later.
        """
        async with self.lock:
            reconnected = self._offline or self.rcon.logins != self._logins
            if reconnected:
                await self.setup()
            if self.store is not None and self.stored is not None:
                for p in self.store.pending(self.stored):
                    await self._send_checked(p.text)
                    self.store.mark_sent(self.stored, p.pos, p.i)
            await self.send_commands(await self._resync_commands())
            self._offline = False
            self._logins = self.rcon.logins

    async def _resync_commands(self, players: Iterable[str] | None = None) -> list[mc.McCommand]:
        """The re-sync commands (``recovery.resync_commands``), after reading the inventory of every player who
        should hold castle items, so that items seen there are not given again (one short command per player
        instead of a long ``give_once`` per item; the ``give_once`` guard stays for every other item).

        Raises:
            RconUnavailable: the server went away while reading.
        """
        rebuilt = Rebuilt(self.game, self.handouts, self._last_clock)
        holding = {name: mc.held_give_ids(await self._inventory(name)) for name in items_to_hold(rebuilt, players)}
        return resync_commands(rebuilt, self.ctx, self.clock(), players=players, holding=holding)

    async def _inventory(self, player: str) -> Any:
        """A player's ``Inventory`` as plain Python (``data get entity <player> Inventory``, ``bridge.minecraft.snbt``).

        Returns:
            The list of stack compounds, or ``None`` when the player is not online or the reply is unreadable.

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        reply = await self.rcon.command(mc.inventory_get(player).text)
        if ENTITY_SUFFIX not in reply:
            return None
        try:
            return snbt.parse(reply.split(ENTITY_SUFFIX, 1)[1])
        except snbt.SnbtError:
            log.warning("unreadable inventory reply for %s", player)
            return None

    async def resync_if_reconnected(self) -> bool:
        """Re-sync the castle when the RCON client has logged in again since the last check (house rule 7).

        Returns:
            True when a re-sync was sent.
        """
        if self._logins is None:
            self._logins = self.rcon.logins
            return False
        if self.rcon.logins == self._logins:
            return False
        log.info("RCON reconnected: re-syncing the castle from the series state")
        await self.recover()
        self.resyncs += 1
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
            await self.send_commands(await self._resync_commands(players))

    async def stop(self) -> None:
        """Stop the phase clock and hide the clock bossbar (the series stays resumable from its log).

        Waits for an input being applied (an expiry of the phase clock in flight included) to finish sending its
        effects.
        """
        await self.phase_clock.stop()
        async with self.lock:  # an input being applied meanwhile (an MSMP join, say) finishes sending first
            pass
        try:
            await self.send_commands([clock_hidden()])
        except BridgeError:
            pass

    # ------------------------------------------------------------------ inputs

    async def poll_once(self) -> int:
        """Read the input queue once, apply new entries in sequence order and ack each.

        Returns:
            How many entries were taken.
        """
        reply = await self.rcon.command(mc.queue_get().text)
        await self.resync_if_reconnected()
        try:
            entries = parse_queue(reply)
        except snbt.SnbtError:
            entries = await self._queue_head()
        taken = 0
        for entry in sorted(entries, key=lambda e: int(e["seq"])):
            seq = int(entry["seq"])
            if self._is_new(seq, entry):
                await self.apply_entry(entry)
                taken += 1
            fault("before-ack")
            await self.rcon.command(mc.queue_ack(seq).text)
        return taken

    async def _queue_head(self) -> list[dict[str, Any]]:
        """The oldest queue entry alone, when the whole queue's reply was unreadable (house rule 2).

        The data pack writes only readable entries; an unreadable one was put there by hand (``data modify``).
        Reading the head alone lets the entries before it through, one per poll; once the unreadable entry (or
        one without a ``seq``, which cannot be acked) is the head, it is removed with a warning, so it never
        blocks the inputs behind it.

        Returns:
            ``[entry]``, or ``[]`` (the queue is empty, or its head was removed).

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        reply = await self.rcon.command(mc.queue_head().text)
        if not reply.startswith(QUEUE_PREFIX):
            return []
        try:
            head = parse_queue(reply)
        except snbt.SnbtError:
            head = []
        if not head:
            log.warning("removing an unreadable input queue entry (%d characters)", len(reply) - len(QUEUE_PREFIX))
            await self.rcon.command(mc.queue_drop_head().text)
        return head

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

    async def apply_entry(self, entry: Mapping[str, Any]) -> None:
        """Turn one queue entry into an input and apply it; a bad entry gets a private message.

        Whatever happens, the entry is taken: ``last_seq`` moves to its ``seq`` (and, with a store, the entry
        is recorded) in the same step.
        """
        seq = int(entry["seq"]) if isinstance(entry.get("seq"), int) else None
        source = _source(entry)
        player = await self.player_of(entry)
        if player is None:
            log.info("dropped queue entry %s from an unknown player", entry.get("seq"))
            await self._settle([], seq, source)
            return
        try:
            item = decode({**entry, "player": player}, self.ctx.seats)
        except InputError as exc:
            reply = exc.message if self._in_series(player) else _spectator_reply(entry)
            await self._settle(self._private(player, reply), seq, source)
            return
        if isinstance(item, (Action, SendBook)) and not self._in_series(player):
            await self._settle(self._private(player, _spectator_reply(entry)), seq, source)
        elif isinstance(item, Action):
            await self.apply(item, queue_seq=seq, source=source)
        elif isinstance(item, HostCommand):
            await self._host_command(item, seq, source)
        elif isinstance(item, OpenConsole):
            if item.player in self.game.hosts:
                await self._settle([], seq, source)
                await self.send_commands([show_console(item.player)])
            elif self._seat_waiting is not None and not self._in_series(item.player):
                host, contestant = self._seat_waiting
                self._seat_waiting = None
                await self.apply(ReplaceContestant(host, contestant, item.player), queue_seq=seq, source=source)
                if self.game.player_of(contestant) == item.player:
                    await self.resync([item.player])
            else:
                await self._settle(self._private(item.player, Message("illegal.not_host")), seq, source)
        elif isinstance(item, SwordHit):
            await self._sword_hit(item, seq, source)
        elif isinstance(item, SendBook):
            await self._send_book(item, seq, source)

    async def _sword_hit(self, hit: SwordHit, seq: int | None, source: Mapping[str, Any]) -> None:
        """House rule 10: pair attacker and victim, then ``StrikeWithSword`` (the engine checks the rest)."""
        if not hit.struck:
            self._last_sword_hit = (hit.player, seq or 0)
            await self._settle([], seq, source)
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
            log.info("Sacred Sword hit on %s dropped: no attacker to pair it with", hit.player)
            await self._settle([], seq, source)
            return
        await self.apply(StrikeWithSword(attacker, hit.player), queue_seq=seq, source=source)

    async def _send_book(self, send: SendBook, seq: int | None, source: Mapping[str, Any]) -> None:
        """House rule 11: read the castle book the contestant holds (one given to them or to the seat they play,
        not one picked up from someone else) and apply its text."""
        item = Item.CONFESSION_BOOK if send.kind == "confess" else Item.RESPONSE_DRAFT
        seat = self.game.contestant_of(send.player) or send.player
        held = {*self.handouts.held.get(send.player, []), *self.handouts.held.get(seat, [])}
        own = {gid for given, _, gid in held if given is item}
        text: str | None = None
        try:
            text = mc.book_text(await self._inventory(send.player), item, own)
        except BridgeError:
            log.warning("could not read %s's inventory", send.player)
        if text is None:
            await self._settle(self._private(send.player, msg("host.book.missing")), seq, source)
            return
        action: Action = WriteConfession(send.player, text) if send.kind == "confess" else WriteResponse(send.player, text)
        await self.apply(action, queue_seq=seq, source=source)

    def _in_series(self, player: str) -> bool:
        """Whether ``player`` plays a seat now, or is a replaced contestant, or a host."""
        return player in self.ctx.seats or player in self.game.hosts or self.game.contestant_of(player) is not None

    def _private(self, player: str, message: Message) -> list[Effect]:
        """A private reply to ``player`` (a contestant, a host, or a spectator told what only others may do)."""
        return [Whisper(frozenset({player}), message)]

    async def _settle(self, effects: list[Effect], seq: int | None, source: Mapping[str, Any] | None) -> None:
        """Take a queue entry that is no engine input (or was refused before reaching the engine)."""
        async with self.lock:
            await self._commit_and_send(effects, entry=None, queue_seq=seq, source=source)

    async def _host_command(self, command: HostCommand, seq: int | None, source: Mapping[str, Any]) -> None:
        """A console button other than "move on": host check, then the engine's host input, a phase-bound
        "move on", the replacement's seat choice, or "not available" (house rule 9)."""
        control = command.control
        host = command.host
        engine_input: dict[HostControl, Callable[[], Action]] = {
            HostControl.PAUSE_CLOCK: lambda: PauseClock(host),
            HostControl.RESUME_CLOCK: lambda: ResumeClock(host),
            HostControl.EXTEND_PHASE: lambda: ExtendPhase(host, EXTEND_STEP),
            HostControl.UNDO: lambda: UndoHostAction(host),
            HostControl.END_SERIES: lambda: EndSeries(host),
        }
        if host not in self.game.hosts:
            await self._settle(self._private(host, Message("illegal.not_host")), seq, source)
        elif control in (HostControl.START_TWIST, HostControl.CANCEL_TWIST):
            start = control is HostControl.START_TWIST
            choices = tuple(
                Choice(TWIST_TITLES[t], StartTwist(host, t) if start else CancelTwist(host, t)) for t in Twist
            )
            key = "host.twist.start" if start else "host.twist.cancel"
            await self._settle([Prompt(frozenset({host}), msg(key), choices)], seq, source)
        elif control in engine_input:
            await self.apply(engine_input[control](), queue_seq=seq, source=source)
        elif control is HostControl.REPLACE_CONTESTANT:
            await self._choose_seat(command, seq, source)
        elif control.phase is None:
            await self._settle(self._private(host, msg("host.unavailable", control=control.title)), seq, source)
        elif self.game.phase is not control.phase:
            await self._settle(self._private(host, Message("illegal.phase")), seq, source)
        else:
            await self.apply(Advance(host), queue_seq=seq, source=source)

    async def _choose_seat(self, command: HostCommand, seq: int | None, source: Mapping[str, Any]) -> None:
        """Replacing, step 1: without a seat, prompt the host with the seats still in; with one, keep it waiting."""
        living = [n for n in self.game.contestants() if self.game.players[n].alive]
        if command.seat is None:
            prompt = Prompt(frozenset({command.host}), msg("host.choose_seat"),
                            tuple(Choice(n, ReplaceContestant(command.host, n, "")) for n in living))  # fmt: skip
            await self._settle([prompt] if living else self._private(command.host, Message("illegal.phase")),
                               seq, source)  # fmt: skip
            return
        contestant = next((n for n, s in self.ctx.seats.items() if s == command.seat), None)
        if contestant is None or contestant not in living:
            await self._settle(self._private(command.host, msg("illegal.replace.out", contestant=str(contestant))),
                               seq, source)  # fmt: skip
            return
        self._seat_waiting = (command.host, contestant)
        log.info("seat %d (%s) waits for a new player", command.seat, contestant)
        await self._settle([], seq, source)

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

    async def send(self, effects: Iterable[Effect]) -> None:
        """Send effects that follow no input (e.g. a private reply); same path as ``apply``'s effects."""
        async with self.lock:
            await self._commit_and_send(list(effects), entry=None, queue_seq=None, source=None)

    def _render(self, effect: Effect, give_ids: dict[str, str] | None) -> list[mc.McCommand]:
        """One effect's commands; closes the previous phase's unanswered dialogs when a new phase starts."""
        out: list[mc.McCommand] = []
        if isinstance(effect, ClockStarted) and self._dialogs_open:
            # A new phase: close the previous phase's unanswered prompt dialogs (the chat fallback stays).
            names, self._dialogs_open = sorted(self._dialogs_open), set()
            out += [mc.dialog_clear(n) for n in names]
        elif isinstance(effect, Prompt):
            self._dialogs_open |= effect.to
        if isinstance(effect, GiveItem) and give_ids is not None:
            return out + render_give_once(effect, give_ids)
        return out + render(effect, self.ctx)

    async def _commit_and_send(
        self,
        effects: list[Effect],
        *,
        entry: dict[str, Any] | None,
        queue_seq: int | None,
        source: Mapping[str, Any] | None,
    ) -> None:
        """Render, store (input + outbox in one transaction), then send (house rule 6). Holds ``self.lock``."""
        ids = self.handouts.feed(effects)
        rendered = [self._render(effect, gids) for effect, gids in zip(effects, ids)]
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
        for effect in effects:  # the clock follows the engine at once, not after the (maybe slow) sending
            if isinstance(effect, ClockStarted) or (isinstance(effect, ClockChanged) and effect.deadline is not None):
                self.phase_clock.arm(effect.phase_seq, effect.deadline)
            elif isinstance(effect, (ClockChanged, SeriesOver)):
                self.phase_clock.disarm()
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
            elif isinstance(effect, SeriesOver):
                self._over.set()
                self._stopping.set()

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
        from bridge.io.msmp import JOINED, LEFT

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

        self.refresh_players = player_list
        msmp.on(LEFT, left)
        msmp.on(JOINED, joined)

    # ------------------------------------------------------------------ the phase clock

    async def _timer_fired(self, phase_seq: int) -> None:
        try:
            await self.apply(TimerExpired(phase_seq))
        except BridgeError:
            log.exception("could not deliver the phase clock's effects")

    async def _show_remaining(self, seconds: int) -> None:
        """The clock bossbar's countdown (``clock.count_down``); a lost connection only skips a second."""
        try:
            await self.send_commands([clock_update(seconds)])
        except BridgeError:
            pass
