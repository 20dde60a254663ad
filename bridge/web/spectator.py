"""The spectator feed: what the castle shows everyone, as messages for the spectator page, optionally delayed
(``docs/host.md``, "The spectator page").

House rules of this file (``docs/design.md#hidden-information``):

1. The feed is built from the engine's public view (``engine.views.PublicView``) and the public effects only
   (``public_effects``: an allow-list of effect classes whose ``recipients`` is ``None``). It never receives the
   series itself, so it cannot read a hand: this module imports neither the game, nor the rulesets, nor the
   host's grimoire (an import-linter contract in ``pyproject.toml`` keeps it so).
2. After the series ends (``SeriesOver``), and only then, ``finish`` adds the full record with every role.
3. A delay of N seconds (a streamer's delay) holds every message back N seconds (``DelayLine``); the page
   shows nothing newer than that, the record included. A clock message's deadline moves N seconds later with
   it, so the page counts down the phase as the castle did, N seconds behind.
4. Pure: no I/O, no clock reads; times are passed in (seconds).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from typing import Any

from engine.effects import Announce, ClockChanged, ClockStarted, Effect, Eliminated, Revealed, SeriesOver, ShowTitle
from engine.views import PublicView

__all__ = ["PUBLIC_EFFECTS", "DelayLine", "SpectatorFeed", "public_effects"]


def _clock_changed(e: ClockChanged) -> dict[str, Any]:
    return {"type": "clock", "deadline": e.deadline, "paused": e.remaining if e.deadline is None else None}


def _title(e: ShowTitle) -> dict[str, Any]:
    sub = f" / {e.subtitle.text}" if e.subtitle is not None else ""
    return {"type": "event", "kind": "title", "key": e.title.key, "text": e.title.text + sub}


_EVENTS: dict[type[Effect], Callable[[Any], dict[str, Any]]] = {
    Announce: lambda e: {"type": "event", "kind": "announce", "key": e.message.key, "text": e.message.text},
    ShowTitle: _title,
    Revealed: lambda e: {"type": "event", "kind": "reveal", "text": f"{e.player} reveals: {e.allegiance.title}"},
    Eliminated: lambda e: {"type": "event", "kind": "out", "text": f"{e.player} is {e.how}"},
    ClockStarted: lambda e: {"type": "clock", "label": e.label.text, "deadline": e.deadline, "paused": None},
    ClockChanged: _clock_changed,
    SeriesOver: lambda e: {"type": "event", "kind": "over", "text": f"The series is over: {e.outcome.winner.title}"},
}
"""Public effect class → the page's message (``{"type": "event", "kind", "text"}`` or a clock message)."""

PUBLIC_EFFECTS: tuple[type[Effect], ...] = tuple(_EVENTS)
"""The effect classes a spectator may see, when addressed to everyone (house rule 1). ``MoveTo`` is not one:
whom the castle sends to the Turret is a Traitor's secret."""


def public_effects(effects: Iterable[Effect]) -> list[Effect]:
    """The effects of ``effects`` that everyone in the castle sees (house rule 1): an allowed class, no
    recipients (a murder is public only once breakfast announces it)."""
    return [e for e in effects if type(e) in _EVENTS and e.recipients is None]


def _shifted(message: dict[str, Any], delay: float) -> dict[str, Any]:
    """A clock message's deadline moved ``delay`` seconds later, with the feed (house rule 3)."""
    if message["type"] == "clock" and message["deadline"] is not None:
        return {**message, "deadline": message["deadline"] + delay}
    return message


def _view_json(view: PublicView) -> dict[str, Any]:
    """Every field of the public view, as JSON values (``dataclasses.asdict`` without its deep copies)."""
    shown = {f.name: getattr(view, f.name) for f in fields(view)}
    shown["out"] = [{f.name: getattr(o, f.name) for f in fields(o)} for o in view.out]
    return shown


class DelayLine:
    """Messages held back ``delay`` seconds (house rule 3).

    Args:
        delay: seconds (0: every message is due at once).
    """

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = max(0.0, delay)
        self._held: deque[tuple[float, dict[str, Any]]] = deque()

    def push(self, now: float, messages: Iterable[dict[str, Any]]) -> None:
        """Hold ``messages`` made at ``now`` (seconds)."""
        self._held.extend((now + self.delay, m) for m in messages)

    def due(self, now: float) -> list[dict[str, Any]]:
        """The held messages whose time has come at ``now``, oldest first (each given once)."""
        out = []
        while self._held and self._held[0][0] <= now:
            out.append(self._held.popleft()[1])
        return out

    def __len__(self) -> int:
        return len(self._held)


class SpectatorFeed:
    """The spectator page's messages for one series (house rules 1-3).

    Args:
        delay: the streamer's delay in seconds (0: none).
    """

    def __init__(self, delay: float = 0.0) -> None:
        self.line = DelayLine(delay)
        self.history: list[dict[str, Any]] = []
        """Every message released so far: a page that connects is sent them all."""
        self._view: PublicView | None = None
        self.finished = False

    @property
    def started(self) -> bool:
        """Whether any step was fed (a hub rebuilds the feed of a resumed series only into an unstarted one)."""
        return self._view is not None

    def update(self, view: PublicView, effects: Sequence[Effect], now: float) -> None:
        """Feed one step of the series: its public view after the step and its public effects.

        Args:
            view: ``public_view()`` of the series after the step.
            effects: the step's effects; anything not public is dropped here (``public_effects``).
            now: seconds (the service's clock).
        """
        messages = [_shifted(_EVENTS[type(e)](e), self.line.delay) for e in public_effects(effects)]
        if view != self._view:
            self._view = view
            messages.insert(0, {"type": "view", "view": _view_json(view)})
        self.line.push(now, messages)

    def finish(self, record: dict[str, Any], text: str, now: float) -> None:
        """The series is over (house rule 2): the full record (``SeriesRecord.to_dict``) and its game log text."""
        if not self.finished:
            self.finished = True
            self.line.push(now, [{"type": "record", "record": record, "text": text}])

    def release(self, now: float) -> list[dict[str, Any]]:
        """The messages due at ``now`` (kept in ``history`` too)."""
        out = self.line.due(now)
        self.history += out
        return out
