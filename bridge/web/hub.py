"""The hub between one series' service and its web pages: the host's grimoire kept live by diffs, the spectator
feed, and the host controls (``docs/host.md``, "The web grimoire").

House rules of this file:

1. The hub follows the service through one seam, ``SeriesService.add_listener``: after every step it diffs the
   grimoire (``bridge/web/grimoire.py``) and queues one message per host page; it never blocks the service.
2. A host control from the page becomes the very queue entry the in-game console's button makes
   (``{"player": host, "input": "host", "value": n}``, ``bridge/minecraft/triggers.py``) and goes
   through ``SeriesService.apply_entry``: decode → route → the console (``bridge/loop/console.py``) → the engine,
   exactly as a press in the castle. The engine's record keeps who and when (``host_actions``); the hub logs the
   host, the control and the page's address, never the token.
3. The spectator feed is fed ``public_view()`` and the public effects only (``bridge/web/spectator.py``), and the
   record once the series is over. The host's notes (``bridge/web/notes.py``) are a part of the grimoire: host
   pages only.
4. ``attach`` may be called again with a new service (a restart): every page is sent the resumed state whole,
   with the event log rebuilt from the series' inputs (``grimoire.rebuilt_log``) and the notes read again from
   the store.
5. Every page's queue is bounded (``queue_limit`` messages behind, beyond what it is sent on connecting): a page
   too slow to keep up is dropped (its queue emptied, then ``DROPPED``; the page reconnects and is sent the
   whole state again), so a slow reader never holds the service's memory.
6. A hub whose spectator feed has not started yet (a service restarted) and a service with a store rebuild the
   feed from the stored log (``bridge.loop.recovery.rebuild``): every step's public view and public effects at
   the time the step was taken, so the delay holds back what the castle saw in its last seconds and a page that
   opens after the restart gets every announcement from before it, and nothing more than a live page got.
7. A service that is stopping (``SeriesService.accepting``) takes no control from a page.
8. A press the series refuses (the console's or the engine's private answer to the host, a message key
   ``illegal.…`` or ``invalid.…``) is raised as ``Refused`` with that answer's text, so the page shows the
   refusal, not "sent".
9. A new series (a season's next one: another stored series, or another game without a store) starts a new
   spectator feed: what was due of the previous one is sent first, then every spectator page is sent ``reset``
   (``{"type": "reset", "now"}``: the page empties itself) and a page that connects later is sent the new
   series' messages only. The previous series' record stays on the stats pages (``/stats``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from bridge.loop.recovery import rebuild
from bridge.loop.service import StepListener
from bridge.loop.store import StoredSeries
from bridge.minecraft.inputs import HostControl
from bridge.minecraft.triggers import HOST, SEAT_BASE, encode
from bridge.web.grimoire import Parts, diff, effect_entry, grimoire, input_entry, rebuilt_log
from bridge.web.notes import HostNotes
from bridge.web.spectator import SpectatorFeed
from engine.actions import CancelTwist, StartTwist
from engine.core.ruleset import RulesetGame
from engine.effects import Effect, Whisper
from engine.ids import Twist
from engine.record import SeriesRecord
from engine.views import PublicView

__all__ = ["NOTE", "ControlError", "Refused", "WebHub", "controls", "press"]

log = logging.getLogger(__name__)


def controls() -> list[dict[str, str]]:
    """The page's buttons, made from the console's (``HostControl``, in its order): ``{"control": name, "label":
    English label}`` each, the name in lower case (``advance``, ``pause_clock``, …). The page renders them; a press
    sends the button's name (``press``)."""
    return [{"control": c.name.lower(), "label": c.title} for c in HostControl]


PREFIX = "traitors."
"""A queue entry names its trigger without this prefix (``bridge.minecraft.triggers.decode``)."""
_HOST_INPUT = HOST.removeprefix(PREFIX)

LOG_LIMIT = 5000
"""The most event-log lines a page is sent on connecting (the newest)."""

QUEUE_LIMIT = 1000
"""The most messages a page may fall behind (house rule 5; ``[web] client_queue``)."""

DROPPED = ""
"""What a dropped page's queue holds last (no message is empty): the page's connection closes on it."""

NOTE = "note"
"""The page's request that saves a note: ``{"control": "note", "contestant": name, "text": note}``; no button."""

REFUSALS = ("illegal.", "invalid.")
"""Message keys of a refusal (the engine's ``IllegalAction`` / ``InvalidCommand``, the console's, the decoder's)."""


class Followed(Protocol):
    """What the hub needs of a service (``bridge.loop.service.SeriesService`` is one). A service that also has
    ``store`` and ``stored`` (the series store and the stored series) keeps the host's notes there; without
    them the notes live in memory (``bridge/web/notes.py``)."""

    @property
    def game(self) -> RulesetGame: ...

    @property
    def stored(self) -> StoredSeries | None: ...

    @property
    def accepting(self) -> bool: ...

    def add_listener(self, listener: StepListener) -> None: ...

    async def apply_entry(self, entry: Mapping[str, Any]) -> None: ...


class ControlError(ValueError):
    """A control the page sent that no console button makes (an unknown name, a bad seat or twist)."""


class Refused(ControlError):
    """The series refused the press (house rule 8): the text is its answer to the host."""


def _record_json(record: SeriesRecord) -> str:
    return json.dumps(record.to_dict(), indent=1, ensure_ascii=False)


def _series_of(service: Followed) -> object:
    """Which series ``service`` runs: its stored series' id, or its game without a store (house rule 9)."""
    stored = service.stored
    return ("stored", stored.id) if stored is not None else ("game", id(service.game))


class WebHub:
    """One series' pages (house rules 1-8).

    Args:
        delay: the spectator page's delay in seconds (0: none).
        clock: the service's clock (seconds); stamps messages so a page can count the phase clock down.
        record_text: the finished series' game log as text for the spectator page (the export's ``text``
            format; default: the record as JSON).
        queue_limit: the most messages a page may fall behind before it is dropped (house rule 5).
    """

    def __init__(
        self,
        *,
        delay: float = 0.0,
        clock: Callable[[], float] = time.time,
        record_text: Callable[[SeriesRecord], str] = _record_json,
        queue_limit: int = QUEUE_LIMIT,
    ) -> None:
        self.clock = clock
        self.queue_limit = queue_limit
        self.record_text = record_text
        self.service: Followed | None = None
        self.parts: Parts = {}
        self.log: list[dict[str, Any]] = []
        self.version = 0
        self.hosts: set[asyncio.Queue[str]] = set()
        self.spectators: set[asyncio.Queue[str]] = set()
        self.spectator = SpectatorFeed(delay)
        self.notes = HostNotes()
        self._inputs = 0
        self._asking: str | None = None
        """The host whose press is being applied (house rule 8)."""
        self._refusals: list[str] = []
        self._stale = False
        """The series moved on while no host page was open: ``parts`` is old."""

    # ------------------------------------------------------------------ the service side

    def attach(self, service: Followed) -> None:
        """Follow ``service`` (house rule 4): its state becomes every page's new whole state; a resumed series'
        spectator feed is rebuilt from its store first (house rule 6); another series starts a new feed (house
        rule 9)."""
        if self.service is not service:
            service.add_listener(self.on_step)
        if self.service is not None and _series_of(self.service) != _series_of(service):
            self._new_feed()
        self.service = service
        game = service.game
        now = self.clock()
        store, stored = getattr(service, "store", None), getattr(service, "stored", None)
        if store is not None and stored is not None:
            self.notes = HostNotes(store, stored.id)
        self.parts = self._grimoire(game)
        try:
            self.log = rebuilt_log(game)[-LOG_LIMIT:]
        except Exception:  # the page's log must not stop the series: the inputs alone then
            log.exception("the event log could not be rebuilt")
            self.log = [input_entry(e, now) for e in game.log][-LOG_LIMIT:]
        self._inputs = len(game.log)
        self.version += 1
        if service.stored is not None and not self.spectator.started:
            self._rebuild_feed(service.stored, now)
        self._spectate([], now)
        self._send(self.hosts, self.state_message())

    def _new_feed(self) -> None:
        """House rule 9: send what is due of the old feed, tell every spectator page to start over, start anew."""
        self.release_spectators()
        self.spectator = SpectatorFeed(self.spectator.line.delay)
        self._send(self.spectators, json.dumps({"type": "reset", "now": self.clock()}))

    def _grimoire(self, game: RulesetGame) -> Parts:
        return grimoire(game) | {"notes": dict(self.notes.notes)}

    def on_step(self, effects: Sequence[Effect]) -> None:
        """The service's listener (house rule 1): diff the grimoire, queue it for every host page, feed the
        spectator page."""
        assert self.service is not None
        game = self.service.game
        now = self.clock()
        if self._asking is not None:
            self._refusals += [
                e.message.text
                for e in effects
                if isinstance(e, Whisper) and e.to == frozenset((self._asking,)) and e.message.key.startswith(REFUSALS)
            ]
        entries = [input_entry(e, now) for e in game.log[self._inputs :]]
        entries += [x for x in (effect_entry(e, now) for e in effects) if x is not None]
        self._inputs = len(game.log)
        self.log = (self.log + entries)[-LOG_LIMIT:]
        if not self.hosts:  # nobody to send a diff to: the grimoire is read again when a host page opens
            self._stale = True
            self._spectate(effects, now)
            return
        self._send_diff(game, entries, now)
        self._spectate(effects, now)

    def _send_diff(self, game: RulesetGame, entries: list[dict[str, Any]], now: float) -> None:
        """Queue the parts that changed (and the new log lines) for every host page."""
        parts = self._grimoire(game)
        changed = diff({} if self._stale else self.parts, parts)
        self.parts, self._stale = parts, False
        if changed or entries:
            self.version += 1
            message = json.dumps(
                {
                    "type": "diff",
                    "v": self.version,
                    "now": now,
                    "set": changed.set,
                    "drop": changed.drop,
                    "log": entries,
                },
                ensure_ascii=False,
            )
            self._send(self.hosts, message)

    def _rebuild_feed(self, stored: StoredSeries, now: float) -> None:
        """The spectator feed of a resumed series, replayed from its stored log (house rule 6)."""

        def seen(game: RulesetGame, effects: Sequence[Effect], when: float) -> None:
            public: Any = game  # every ruleset's game has ``public_view``
            self.spectator.update(public.public_view(), effects, min(when, now))

        rebuild(stored, on_step=seen)

    def _spectate(self, effects: Sequence[Effect], now: float) -> None:
        assert self.service is not None
        game = self.service.game
        public: Any = game  # every ruleset's game has ``public_view`` (engine.views.PublicView)
        view: PublicView = public.public_view()
        self.spectator.update(view, effects, now)
        if game.is_over:
            self.spectator.finish(game.record.to_dict(), self.record_text(game.record), now)
        self.release_spectators()

    def release_spectators(self) -> int:
        """Send the spectator messages whose delay is over to every spectator page; how many were due."""
        due = self.spectator.release(self.clock())
        for message in due:
            self._send(self.spectators, json.dumps(message, ensure_ascii=False))
        return len(due)

    def _send(self, pages: set[asyncio.Queue[str]], text: str) -> None:
        """Queue ``text`` for ``pages``; drop a page whose queue is full (house rule 5)."""
        for queue in list(pages):
            try:
                queue.put_nowait(text)
            except asyncio.QueueFull:
                self.drop(queue)

    def drop(self, queue: asyncio.Queue[str]) -> None:
        """Drop a page that fell ``queue_limit`` messages behind: its queue emptied, then ``DROPPED``."""
        self.close(queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(DROPPED)
        log.info("a page fell %d messages behind and was dropped", self.queue_limit, extra={"event": "web_dropped"})

    async def drain(self, stop: asyncio.Event, poll: float = 0.1, grace: float = 5.0) -> None:
        """Wait until every held spectator message has been released (the record, through the delay) and handed to
        every page, or until ``stop`` is set.

        Args:
            stop: set to give up waiting (a stop signal).
            poll: seconds between two looks.
            grace: the longest wait, in seconds, for the pages' connections once everything is released (a page
                that reads nothing, a phone asleep, must not hold the service).
        """
        loop = asyncio.get_running_loop()
        sent_by = None
        while not stop.is_set():
            self.release_spectators()
            if len(self.spectator.line) == 0:
                sent_by = sent_by if sent_by is not None else loop.time() + grace
                if loop.time() >= sent_by or all(q.empty() for q in self.spectators):
                    return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), poll)

    # ------------------------------------------------------------------ the page side

    def state_message(self) -> str:
        """The whole grimoire and event log, for a host page that connects (or reconnects)."""
        return json.dumps(
            {
                "type": "state",
                "v": self.version,
                "now": self.clock(),
                "parts": self.parts,
                "log": self.log,
                "controls": controls(),
            },
            ensure_ascii=False,
        )

    def open_host(self) -> asyncio.Queue[str]:
        """A new host page: its queue, starting with the whole state."""
        queue: asyncio.Queue[str] = asyncio.Queue(self.queue_limit + 1)
        if self._stale and self.service is not None:
            self.parts, self._stale = self._grimoire(self.service.game), False
        self.hosts.add(queue)
        queue.put_nowait(self.state_message())
        return queue

    def open_spectator(self) -> asyncio.Queue[str]:
        """A new spectator page: its queue, starting with the service's time (the page counts the clock down
        against it) and every released message."""
        queue: asyncio.Queue[str] = asyncio.Queue(1 + len(self.spectator.history) + self.queue_limit)
        queue.put_nowait(json.dumps({"type": "now", "now": self.clock()}))
        for message in self.spectator.history:
            queue.put_nowait(json.dumps(message, ensure_ascii=False))
        self.spectators.add(queue)
        return queue

    def close(self, queue: asyncio.Queue[str]) -> None:
        """A page went away."""
        self.hosts.discard(queue)
        self.spectators.discard(queue)

    async def control(self, host: str, request: Mapping[str, Any], client: str = "") -> None:
        """Press a console button for ``host`` (house rule 2).

        Args:
            host: the host whose token the page logged in with (``bridge/web/auth.py``); a page never chooses
                whom it acts as.
            request: ``{"control": name}`` (``controls``), with ``"seat": n`` for ``replace_contestant`` or
                ``"twist": value`` for ``start_twist`` / ``cancel_twist``; or a note to keep (``NOTE``).
            client: the page's address, for the log line.

        Raises:
            ControlError: no series attached, a host not of the series, or a request no button makes.
            Refused: the series refused the press (house rule 8).
        """
        service = self.service
        if service is None:
            raise ControlError("no series is running yet")
        if not service.accepting:
            raise ControlError("the service is stopping")
        if host not in service.game.hosts:
            raise ControlError(f"{host!r} is not a host of this series" if host else "this series has no host")
        if request.get("control") == NOTE:
            self.save_note(host, request)
            return
        entry = {"player": host, **press(request)}
        log.info(
            "web host control %s by %s",
            request.get("control"),
            host,
            extra={"event": "web_control", "host": host, "control": request.get("control"), "client": client},
        )
        self._asking, self._refusals = host, []
        try:
            await service.apply_entry(entry)
        finally:
            self._asking = None
        if self._refusals:
            raise Refused(self._refusals[-1])

    def save_note(self, host: str, request: Mapping[str, Any]) -> None:
        """Keep ``host``'s note on a contestant (``{"contestant": name, "text": note}``) and send every host page
        the new ``notes`` part (never the spectators: house rule 3).

        Raises:
            ControlError: no series attached, not a contestant of the series, or a text that is no string.
        """
        if self.service is None:
            raise ControlError("no series is running yet")
        contestant, text = request.get("contestant"), request.get("text")
        if contestant not in self.service.game.contestants():
            raise ControlError(f"{contestant!r} is not a contestant of this series")
        if not isinstance(text, str):
            raise ControlError("a note is text")
        self.notes.save(str(contestant), text, host)
        if self.hosts:
            self._send_diff(self.service.game, [], self.clock())
        else:
            self._stale = True


def press(request: Mapping[str, Any]) -> dict[str, Any]:
    """The trigger press a page's control request stands for: ``{"input": objective, "value": n}``.

    Raises:
        ControlError: an unknown control, or a missing or bad seat or twist.
    """
    name = request.get("control")
    if name in ("start_twist", "cancel_twist"):
        try:
            twist = Twist(request.get("twist"))
        except ValueError:
            raise ControlError(f"unknown twist {request.get('twist')!r}") from None
        action = StartTwist("host", twist) if name == "start_twist" else CancelTwist("host", twist)
        objective, value = encode(action, {})
        return {"input": objective.removeprefix(PREFIX), "value": value}
    control = next((c for c in HostControl if c.name.lower() == name), None)
    if control is None:
        raise ControlError(f"unknown control {name!r}")
    seat = request.get("seat")
    if control is HostControl.REPLACE_CONTESTANT and seat is not None:
        if not isinstance(seat, int) or not 1 <= seat <= 16:
            raise ControlError(f"bad seat {seat!r}")
        return {"input": _HOST_INPUT, "value": SEAT_BASE + seat}
    return {"input": _HOST_INPUT, "value": control.value}
