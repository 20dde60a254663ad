"""Running the lobby between series against the server: the sign-up presses in, the board, the action bar and the
dialogs out, until the host starts the next series (``docs/host.md``, "The lobby"; the decisions are
``bridge/loop/lobby.py``'s).

House rules of this file:

1. The presses come through the data pack's input queue like every input (``bridge/loop/queue.py``): each entry
   is taken once and acked. A lobby input that was accepted is kept in the series store with the queue ``seq``
   it came from (``bridge/loop/season_store.py``) BEFORE anything is sent, so a restart rebuilds the lobby
   (sign-ups survive) and never takes an entry twice.
2. A refusal is private to whoever pressed; a series input pressed now (a late vote) is answered "You can't do
   that now." and a player outside the server's list is dropped with a log line, as during a series.
3. Every player on the server who is not a host and has not signed up is shown the sign-up dialog (and its chat
   link) when the lobby opens and when they join; the board is replaced when the sign-ups change, and the
   action bar is sent again every ``refresh`` seconds. The host gets the lobby console from
   ``/trigger traitors.console`` (or ``/trigger traitors.lobby``), and again after each of their presses.
4. ``run`` returns the cast, in seat order, once the host starts the series (the start is kept first: a restart
   between the start and the series' creation starts that same cast), or ``None`` when asked to stop.
5. A lost connection is retried with backoff (0.1 s doubling to 5 s); nothing is lost meanwhile.
6. The board's chunk is force-loaded while the lobby is open (``forceload add`` when it opens, and the board
   shown once ``execute if loaded`` passes, up to ``LOAD_WAIT`` seconds), so the board is replaced, not doubled,
   and shown even when nobody is near the foyer. When ``run`` returns (the start or a stop) the forceload is
   removed, only if the lobby added it (a chunk the operator forced stays forced).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge.config.castle import CastleConfig
from bridge.errors import BridgeError, RconUnavailable
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.lobby import Lobby, LobbyRefused, Step
from bridge.loop.queue import InputQueue
from bridge.loop.season_store import SeasonStore
from bridge.loop.store import SeriesStore
from bridge.minecraft import lobby as show
from bridge.minecraft.core import McCommand
from bridge.minecraft.inputs import InputError, LobbyControl, LobbyPress, OpenConsole
from bridge.minecraft.press import PREFIX
from bridge.minecraft.render import RenderContext, render
from bridge.minecraft.triggers import CONSOLE, LOBBY, SIGNUP, WITHDRAW, decode
from engine.effects import Effect, Message, Whisper

__all__ = ["LobbyRunner", "Season", "standbys_of"]

log = logging.getLogger("castle.lobby")

LOBBY_INPUTS = frozenset(t.removeprefix(PREFIX) for t in (SIGNUP, WITHDRAW, LOBBY, CONSOLE))
"""The queue inputs the lobby acts on; any other is a series input pressed between series."""

LOAD_WAIT = 2.0
"""Seconds the lobby waits for the board's forced chunk to load before showing the board anyway (house rule 6)."""

_HOST_CONTROLS = (LobbyControl.DRAW, LobbyControl.START, LobbyControl.CLEAR, LobbyControl.PICK, LobbyControl.CONSOLE)


def standbys_of(
    store: SeriesStore, series_id: int, castle: CastleConfig, *, seats: int, hosts: Sequence[str]
) -> list[str]:
    """The stand-bys of a series started from the lobby: the sign-ups of its lobby (kept in the store under its
    number) not in the cast, in sign-up order; ``[]`` for a series that had no lobby.

    Args:
        store: the series store.
        series_id: the series (the lobby's round).
        castle: the castle (its round-table seats, as the lobby had them).
        seats: the series' number of contestants.
        hosts: the hosts.
    """
    rows = SeasonStore(store).lobby_rows(series_id)
    lobby = Lobby(seats, len(castle.seats), frozenset(hosts)).replay([r.entry for r in rows])
    return lobby.standbys if lobby.started else []


@dataclass(slots=True)
class Season:
    """What the web pages see of a season (``bridge/app/season.py``): the lobby while it is open
    (``bridge/web/lobby_pages.py``), the series running now, and who to tell when the lobby changes."""

    lobby: LobbyRunner | None = None
    series: int | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)


class LobbyRunner:
    """The lobby of the next series of one store (house rules 1-5).

    Args:
        store: the open, locked series store.
        rcon: the RCON client.
        castle: the castle (its round-table seats cap the sign-ups; the board stands above its foyer by default).
        seats: the series' number of contestants.
        hosts: the hosts.
        board: where the board stands (x, y, z in blocks), or ``None``: three blocks above the foyer.
        poll_interval: seconds between polls of the input queue.
        refresh: seconds between player-list reads (new players are invited) and action bar repeats.
    """

    def __init__(
        self,
        store: SeriesStore,
        rcon: RconClient,
        castle: CastleConfig,
        *,
        seats: int,
        hosts: Sequence[str],
        board: tuple[float, float, float] | None = None,
        poll_interval: float = 0.1,
        refresh: float = 2.0,
    ) -> None:
        self.store = store
        self.season = SeasonStore(store)
        self.rcon = rcon
        self.round = (store.latest() or 0) + 1
        """The number the next series will have in the store: the lobby's round."""
        foyer = castle.places.foyer
        self.board = board if board is not None else (foyer.x, foyer.y + 3.0, foyer.z)
        self.lobby = Lobby(seats, len(castle.seats), frozenset(hosts))
        rows = self.season.lobby_rows(self.round)
        self.lobby.replay([r.entry for r in rows])
        seqs = [int(r.entry.get("seq", 0)) for r in rows]
        latest = store.latest()
        last_seq = max([*seqs, store.load(latest).last_seq if latest is not None else 0])
        self.queue = InputQueue(rcon, last_seq, None)
        self.players = PlayerDirectory()
        self.online: set[str] = set()
        self.invited: set[str] = set()
        self.poll_interval, self.refresh = poll_interval, refresh
        self.ctx = RenderContext(castle, {})
        self.lock = asyncio.Lock()
        self._stop = asyncio.Event()
        self.listeners: list[Callable[[], None]] = []
        """Called after every change (the web lobby page refreshes)."""
        self.forced = False
        """The lobby force-loaded the board's chunk and is to release it (house rule 6)."""

    # ------------------------------------------------------------------ state, for the pages

    def state(self) -> dict[str, Any]:
        """The lobby as plain data: ``{"round", "seats", "capacity", "signups", "cast", "standbys", "started",
        "online"}`` (public: sign-ups are announced)."""
        lobby = self.lobby
        return {
            "round": self.round,
            "seats": lobby.seats,
            "capacity": lobby.capacity,
            "signups": list(lobby.signups),
            "cast": list(lobby.cast),
            "standbys": lobby.standbys,
            "started": lobby.started,
            "online": sorted(self.online - lobby.hosts),
        }

    def request_stop(self) -> None:
        """Ask ``run`` to return ``None`` (SIGTERM): the sign-ups stay in the store."""
        self._stop.set()

    # ------------------------------------------------------------------ running

    async def run(self) -> list[str] | None:
        """Open the lobby and run it until the host starts the series (its cast) or a stop (``None``)."""
        if self.lobby.started:
            return list(self.lobby.cast)
        try:
            return await self._run()
        finally:
            await self._release_board_chunk()

    async def _run(self) -> list[str] | None:
        retry = 0.1
        opened = False
        next_refresh = 0.0
        while not self._stop.is_set():
            wait = self.poll_interval
            try:
                if not opened:
                    await self._open()
                    opened = True
                if time.monotonic() >= next_refresh:
                    await self._refresh_players()
                    next_refresh = time.monotonic() + self.refresh
                await self.poll_once()
                retry = 0.1
            except RconUnavailable as exc:
                log.warning("server unreachable (%s); retrying in %.1f s", exc, retry)
                wait, retry = retry, min(5.0, retry * 2)
            if self.lobby.started:
                with contextlib.suppress(BridgeError):
                    await self.rcon.command(show.board_gone().text)
                return list(self.lobby.cast)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), wait)
        return None

    async def _open(self) -> None:
        log.info("the lobby is open for series %d", self.round, extra={"event": "lobby", "series": self.round})
        self.invited.clear()
        await self._hold_board_chunk()
        await self._refresh_players()
        await self._show_board()

    async def _hold_board_chunk(self) -> None:
        """House rule 6: force-load the board's chunk, and wait (at most ``LOAD_WAIT`` s) until it is loaded."""
        if not self.forced:
            reply = await self.rcon.command(show.board_chunk(self.board, hold=True).text)
            self.forced = reply.startswith("Marked")
        end = time.monotonic() + LOAD_WAIT
        while not (await self.rcon.command(show.board_loaded(self.board).text)).startswith("Test passed"):
            if time.monotonic() >= end:
                log.warning("the sign-up board's chunk is not loaded yet; the board is shown when it is")
                return
            await asyncio.sleep(0.05)

    async def _release_board_chunk(self) -> None:
        """House rule 6: remove the lobby's forceload (a server that cannot be reached keeps it until the next
        lobby opens and closes)."""
        if self.forced:
            with contextlib.suppress(BridgeError):
                await self.rcon.command(show.board_chunk(self.board, hold=False).text)
                self.forced = False

    async def _refresh_players(self) -> None:
        """House rule 3: read who is online, invite the newcomers, repeat the action bar."""
        reply = await self.rcon.command("list uuids")
        now = PlayerDirectory()
        now.update_from_list_reply(reply)
        self.players.update_from_list_reply(reply)
        self.online = now.names()
        self.invited &= self.online  # who left is invited again when they come back
        for name in sorted(self.online - self.invited - self.lobby.hosts):
            self.invited.add(name)
            if name not in self.lobby.signups:
                await self._send(show.invitation(name, self.lobby.signups, self.lobby.seats, signed_up=False))
        await self._send(show.actionbar(self.lobby.signups, self.lobby.seats))

    async def _show_board(self) -> None:
        await self._send(show.board_commands(self.board, self.lobby.signups, self.lobby.seats), quiet=True)

    async def _send(self, commands: Sequence[McCommand], *, quiet: bool = False) -> None:
        for c in commands:
            reply = await self.rcon.command(c.text)
            if reply and not quiet and reply.startswith(("Unknown", "Incorrect", "No player", "Invalid")):
                log.warning("the server refused a lobby command: %s", reply[:200])

    async def poll_once(self) -> int:
        """Read the input queue once; take every new entry and ack it (house rules 1 and 2). How many were taken."""
        reply = await self.queue.read_reply()
        taken = 0
        for entry in await self.queue.entries(reply):
            seq = int(entry["seq"])
            if self.queue.is_new(seq, entry):
                await self.take(entry, seq)
                taken += 1
            await self.queue.ack(seq)
        return taken

    async def take(self, entry: Mapping[str, Any], seq: int | None = None) -> None:
        """One queue entry (house rules 1 and 2)."""
        raw = entry.get("uuid")
        player = self.players.name_for(raw) if raw is not None else None
        if player is None and raw is not None:
            self.players.update_from_list_reply(await self.rcon.command("list uuids"))
            player = self.players.name_for(raw)
        if not isinstance(player, str):
            log.info("dropped lobby queue entry %s from an unknown player", seq)
            self.queue.taken(seq)
            return
        if entry.get("input") not in LOBBY_INPUTS:  # a series input (a late vote): nothing to do now
            self.queue.taken(seq)
            await self._whisper(player, Message("illegal.phase"))
            return
        try:
            item = decode({**entry, "player": player}, {})
        except InputError as exc:
            self.queue.taken(seq)
            await self._whisper(player, exc.message)
            return
        async with self.lock:
            self.queue.taken(seq)
            if isinstance(item, OpenConsole):
                await self._console(player)
            elif isinstance(item, LobbyPress):
                await self._press(item, seq)
            else:
                await self._whisper(player, Message("illegal.phase"))

    async def _press(self, press: LobbyPress, seq: int | None) -> None:
        player, control, lobby = press.player, press.control, self.lobby
        try:
            if control is LobbyControl.SHOW:
                signed = player in lobby.signups
                await self._send(show.invitation(player, lobby.signups, lobby.seats, signed_up=signed))
                return
            if control in _HOST_CONTROLS:
                await self._host(player, control, press.index, seq)
                return
            step = lobby.sign_up(player, self.online) if control is LobbyControl.SIGN_UP else lobby.withdraw(player)
        except LobbyRefused as refused:
            await self._whisper(refused.to, refused.message)
            return
        await self._commit(step, seq)

    async def _host(self, host: str, control: LobbyControl, index: int | None, seq: int | None) -> None:
        lobby = self.lobby
        if control is LobbyControl.CONSOLE:
            await self._console(host)
            return
        if control is LobbyControl.DRAW:
            step = lobby.draw(host)
        elif control is LobbyControl.START:
            step = lobby.start(host)
        elif control is LobbyControl.CLEAR:
            step = lobby.clear(host)
        else:
            step = lobby.pick(host, index or 0)
        await self._commit(step, seq)
        if not lobby.started:
            await self._console(host)

    async def _console(self, player: str) -> None:
        if player not in self.lobby.hosts:
            await self._whisper(player, Message("illegal.not_host"))
            return
        await self._send(show.host_console(player, self.lobby.signups, self.lobby.cast, self.lobby.seats))

    async def _commit(self, step: Step, seq: int | None) -> None:
        """Keep the input (house rule 1), then send what it says and the new board."""
        self.season.add_lobby(self.round, {**step.entry, **({"seq": seq} if seq is not None else {})})
        log.info(
            "lobby: %s %s",
            step.entry.get("action"),
            step.entry.get("player") or step.entry.get("by") or "",
            extra={"event": "lobby_" + str(step.entry.get("action")), "series": self.round},
        )
        await self._effects(step.effects)
        if step.entry.get("action") != "start":
            await self._show_board()
            await self._send(show.actionbar(self.lobby.signups, self.lobby.seats))
        for listener in self.listeners:
            listener()

    async def _effects(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            await self._send(render(effect, self.ctx))

    async def _whisper(self, to: str, message: Message) -> None:
        await self._effects([Whisper(frozenset({to}), message)])

    # ------------------------------------------------------------------ the web page's controls

    async def control(self, host: str, control: LobbyControl, index: int | None = None) -> Message | None:
        """A host's lobby control from the web page: as the in-game console's button (house rule 3).

        Returns:
            The refusal's message, or ``None`` when it was done.
        """
        async with self.lock:
            try:
                if control is LobbyControl.CONSOLE:
                    return None
                await self._host(host, control, index, None)
            except LobbyRefused as refused:
                return refused.message
        return None

    async def add(self, host: str, name: str) -> Message | None:
        """A host signs ``name`` up from the web page (they must be on the server: house rule 2).

        Returns:
            The refusal's message, or ``None`` when it was done.
        """
        async with self.lock:
            if host not in self.lobby.hosts:
                return Message("illegal.not_host")
            with contextlib.suppress(BridgeError):
                await self._refresh_players()
            try:
                step = self.lobby.sign_up(name, self.online, by=host)
            except LobbyRefused as refused:
                return refused.message
            await self._commit(step, None)
        return None

    async def withdraw(self, host: str, name: str) -> Message | None:
        """A host withdraws ``name`` from the web page. Returns the refusal's message, or ``None``."""
        async with self.lock:
            if host not in self.lobby.hosts:
                return Message("illegal.not_host")
            try:
                step = self.lobby.withdraw(name)
            except LobbyRefused as refused:
                return refused.message
            await self._commit(step, None)
        return None
