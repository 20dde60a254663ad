"""The host controls every ruleset shares (``docs/host.md``): pause, resume, extend, replace a contestant, undo the
last host action, end the series.

House rules of this file:

1. Only a host (``settings.hosts``) may send a host control; anyone else is refused with ``illegal.not_host``.
2. Pause, resume and extend change only the phase clock: each gives the clock a new sequence number, so a timer
   armed for the old deadline is stale (ignored, house rule 2 of ``engine.core.step``).
3. A replacement changes who plays a seat, never the seat's name: inputs are translated from the player to the
   contestant on the way in (every input's ``actor``, a presence input's ``contestant``), recipients from the
   contestant to the player on the way out. The replaced player can no longer act (``illegal.replaced``).
4. An undo takes back the last input if it was a host's move on, pause, resume or extension (the controls marked
   ``undoable``: ``engine.core.host_spec.undoable``): the series is rebuilt by replay without it and the castle
   is put back (places, items, what is set down at the per-seat places, the clock with the time it had left then,
   the open prompts). Nothing said is unsaid: everyone is told.
5. Ending the series: nobody wins; the record shows what happened so far.
6. Every host control the series takes is kept in the record's ``host_actions`` with who, when, the day and the
   phase: the controls here (``BUILT_IN``, and any control registered later), moving on (``advance``, with the
   console button that moved on as its detail), the finale's question (``ask_happy``) and starting or cancelling
   a twist (``start_twist``, ``cancel_twist``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar, Protocol, Self

from engine.actions import (
    Action,
    ContestantLeft,
    ContestantReturned,
    EndSeries,
    ExtendPhase,
    PauseClock,
    ReplaceContestant,
    ResumeClock,
    UndoHostAction,
)
from engine.core.cast import NAME_RE, same_player
from engine.core.host_spec import HOST_CONTROLS, ConsoleButton, HostControlSpec, register_host_control, undoable
from engine.core.step import InputStep
from engine.effects import (
    ClearPlace,
    ClockChanged,
    ClockStarted,
    Effect,
    Eliminated,
    GiveItem,
    Label,
    MoveTo,
    PlaceItem,
    Prompt,
    ShowTitle,
    TakeItem,
    Whisper,
    msg,
)
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Enum, Item, Place
from engine.record import SeriesRecord
from engine.terms import host_action_term
from engine.tracking import WorldState

MAX_EXTENSION = 3600
"""The most seconds one ``ExtendPhase`` may add."""

EXTEND_STEP = 60
"""Seconds one press of the console's "Add a minute" adds to the phase clock."""


class SeatState(Protocol):
    """What the host controls read of a contestant's state."""

    seat: int
    alive: bool
    present: bool


class HostControls(InputStep):
    """Mixin for a game class: the host controls (house rules above) and the stand-in players of replaced seats.

    The game provides, besides ``InputStep``'s: ``settings`` and ``seed`` (for ``replay``), ``hosts``,
    ``players`` (contestant → state with ``seat``, ``alive``, ``present``), ``phase`` (``None`` before the
    start), ``day``, ``deadline``, ``record`` (a ``SeriesRecord``), the class method ``replay(settings, seed,
    log)``, ``REPLAYED_STATE`` (every attribute an undo takes from the replayed game) and the methods
    ``emit``, ``announce``, ``whisper``, ``move``, ``_tell_hand(contestant)``, ``_reprompt(only)`` and
    ``_end_by_host()``. It calls ``_init_host_controls()`` in its constructor and answers ``handle`` with
    ``_handle``.
    """

    REPLAYED_STATE: ClassVar[tuple[str, ...]]
    settings: Any
    seed: int
    hosts: frozenset[str]
    players: Mapping[str, SeatState]
    phase: Enum | None
    day: int
    deadline: float | None
    record: SeriesRecord
    paused: float | None
    clock_label: str
    stand_ins: dict[str, str]
    _reset_items: dict[str, list[tuple[Item, Label]]] | None

    def _init_host_controls(self) -> None:
        self.paused = None
        """Seconds the phase clock had left when the host paused it; ``None`` while it runs (or no clock)."""
        self.clock_label = ""
        """Message key of the running phase clock's label (``clock.*``)."""
        self.stand_ins = {}
        """Contestant → the player who now plays the seat (``ReplaceContestant``); absent: the contestant's own."""
        self._reset_items = None

    @classmethod
    def replay(cls, settings: Any, seed: int, log: Iterable[dict[str, Any]]) -> Self:
        """Rebuild a series from its input log (each game class says how)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ hooks the game provides

    def emit(self, *effects: Effect) -> None:
        raise NotImplementedError

    def announce(self, key: str, **params: object) -> None:
        raise NotImplementedError

    def whisper(self, to: Iterable[str], key: str, **params: object) -> None:
        raise NotImplementedError

    def move(self, players: Sequence[str], place: Place) -> None:
        raise NotImplementedError

    def _tell_hand(self, contestant: str) -> None:
        """Tell the seat's new player, privately, the hand as the contestant knows it."""
        raise NotImplementedError

    def _reprompt(self, only: list[str] | None) -> None:
        """Prompt again what is open now, for the contestants ``only`` (``None``: everyone)."""
        raise NotImplementedError

    def _end_by_host(self) -> None:
        """End the series with nobody winning (``Termination.HOST_ENDED``)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the input step with stand-ins

    def _handle(self, action: Action, now: float) -> list[Effect]:
        """``InputStep._take_input`` for a game with stand-ins: the input as the seat's contestant's, the
        effects addressed to the players who play the seats (house rule 3)."""
        effects = self._take_input(self._as_contestant(action) if self.stand_ins else action, now, action)
        if self._reset_items is not None:
            self.items, self._reset_items = self._reset_items, None
        return self._to_players(effects) if self.stand_ins else effects

    def player_of(self, contestant: str) -> str:
        """The player who plays ``contestant``'s seat now (the contestant's own name unless replaced)."""
        return self.stand_ins.get(contestant, contestant)

    def contestant_of(self, player: str) -> str | None:
        """The contestant whose seat ``player`` plays now, or ``None`` (not playing, or replaced)."""
        for contestant, stand_in in self.stand_ins.items():
            if stand_in == player:
                return contestant
        if player in self.players and player not in self.stand_ins:
            return player
        return None

    def _as_contestant(self, action: Action) -> Action:
        """A stand-in's input as the seat's contestant's (its ``actor``; a presence input's ``contestant``); a
        replaced player's input is refused."""
        if not self.stand_ins or isinstance(action, ReplaceContestant):
            return action
        value: str | None
        if isinstance(action, (ContestantLeft, ContestantReturned)):
            value, field = action.contestant, "contestant"
        else:
            value, field = action.actor, "actor"
        if not isinstance(value, str):
            return action
        contestant = self.contestant_of(value)
        if contestant is None and value in self.stand_ins:
            raise IllegalAction("illegal.replaced")
        if contestant is not None and contestant != value:
            return dataclasses.replace(action, **{field: contestant})
        return action

    def _to_players(self, effects: list[Effect]) -> list[Effect]:
        """Recipients and movers named as the players who play the seats now."""
        who = self.player_of
        out: list[Effect] = []
        for e in effects:
            rename = ADDRESSED.get(type(e))
            out.append(e if rename is None else rename(e, who))
        return out

    def world_state(self) -> WorldState:
        """``CastleTracker.world_state`` keyed by the player who now plays each seat (``ReplaceContestant``)."""
        state = super().world_state()
        if not self.stand_ins:
            return state
        who = self.player_of
        return dataclasses.replace(
            state,
            places={who(n): at for n, at in state.places.items()},
            items={who(n): held for n, held in state.items.items()},
            placed={spot: (item, who(label) if label else label) for spot, (item, label) in state.placed.items()},
        )

    # ------------------------------------------------------------------ checks

    def check_host_action(self, action: Action) -> Callable[[], None]:
        """Raise if the host control ``action`` is illegal now; else return the function that applies it.

        Raises:
            IllegalAction: not a host (house rule 1), or the control's check (its ``HostControlSpec``) fails.
            InvalidCommand: a replacement names an unknown contestant.
        """
        if action.actor not in self.hosts:
            raise IllegalAction("illegal.not_host")
        return HOST_CONTROLS[type(action)].check(self, action)

    def check_pause(self, action: PauseClock) -> Callable[[], None]:
        """``PauseClock``: the phase clock must be running. Raises ``IllegalAction``; returns the pause to apply."""
        if self.deadline is None:
            raise IllegalAction("illegal.clock.not_running")
        return partial(self._apply_pause, action.host)

    def check_resume(self, action: ResumeClock) -> Callable[[], None]:
        """``ResumeClock``: the clock must be paused. Raises ``IllegalAction``; returns the resume to apply."""
        if self.paused is None:
            raise IllegalAction("illegal.clock.not_paused")
        return partial(self._apply_resume, action.host)

    def check_extend(self, action: ExtendPhase) -> Callable[[], None]:
        """``ExtendPhase``: 1 to ``MAX_EXTENSION`` seconds onto a running or paused clock. Raises
        ``IllegalAction``; returns the extension to apply."""
        if not 1 <= action.seconds <= MAX_EXTENSION:
            raise IllegalAction("illegal.clock.seconds", seconds=str(action.seconds))
        if self.deadline is None and self.paused is None:
            raise IllegalAction("illegal.clock.not_running")
        return partial(self._apply_extend, action.host, action.seconds)

    def check_replace(self, action: ReplaceContestant) -> Callable[[], None]:
        """``ReplaceContestant``: a contestant still in, and a Minecraft name no one else holds (Minecraft
        names ignore case). Raises ``InvalidCommand`` (unknown contestant) or ``IllegalAction``; returns the swap."""
        p = self.players.get(action.contestant)
        if p is None:
            raise InvalidCommand("illegal.unknown_player", player=action.contestant)
        if not p.alive:
            raise IllegalAction("illegal.replace.out", contestant=action.contestant)
        new = action.player
        taken = {self.player_of(n) for n in self.players} | set(self.players) | set(self.hosts)
        same = same_player(new, taken) if NAME_RE.match(new) else new
        if same is not None and same != new:  # Minecraft takes them for one player
            raise IllegalAction("illegal.replace.case", player=new, other=same)
        if same == new and not (new == action.contestant and action.contestant in self.stand_ins):
            raise IllegalAction("illegal.replace.player", player=new)
        return partial(self._apply_replace, action.contestant, new, action.host)

    def check_undo(self, action: UndoHostAction) -> Callable[[], None]:
        """``UndoHostAction``: the last logged input must be an ``UNDOABLE`` host control. Raises
        ``IllegalAction``; returns the undo to apply."""
        last = self.log[-1] if self.log else None
        if last is None or last.get("action") not in undoable():
            raise IllegalAction("illegal.undo.nothing")
        return partial(self._apply_undo, action.host)

    def check_end(self, action: EndSeries) -> Callable[[], None]:
        """``EndSeries``: always allowed to a host; returns the ending to apply."""
        return partial(self._apply_end, action.host)

    # ------------------------------------------------------------------ applying

    def log_host_action(self, host: str, kind: str, detail: str = "") -> None:
        """House rule 6: every host action is kept in the record with who and when.

        Args:
            host: the host who pressed.
            kind: the action (``pause_clock``, ``advance``…).
            detail: a short text (``"+60 s"``, the button that moved on).
        """
        self.record.host_actions.append(
            {
                "host": host,
                "action": kind,
                "at": self._now,
                "day": self.day,
                "phase": self.phase.value if self.phase is not None else None,
                "detail": detail,
                "undone": False,
            }
        )

    def _clock_changed(self) -> None:
        self.phase_seq += 1
        remaining = self.paused if self.paused is not None else max(0.0, (self.deadline or self._now) - self._now)
        self.emit(ClockChanged(self.phase_seq, self.deadline, remaining))

    def _apply_pause(self, host: str) -> None:
        assert self.deadline is not None
        self.paused = max(0.0, self.deadline - self._now)
        self.deadline = None
        self.log_host_action(host, "pause_clock", f"{self.paused:.0f} s left")
        self.announce("host.paused")
        self._clock_changed()

    def _apply_resume(self, host: str) -> None:
        assert self.paused is not None
        left, self.paused = self.paused, None
        self.deadline = self._now + left
        self.log_host_action(host, "resume_clock", f"{left:.0f} s left")
        self.announce("host.resumed", seconds=f"{left:.0f}")
        self._clock_changed()

    def _apply_extend(self, host: str, seconds: int) -> None:
        if self.paused is not None:
            self.paused += seconds
        else:
            assert self.deadline is not None
            self.deadline += seconds
        self.log_host_action(host, "extend_phase", f"+{seconds} s")
        self.announce("host.extended", seconds=str(seconds))
        self._clock_changed()

    def _apply_replace(self, contestant: str, player: str, host: str) -> None:
        if player == contestant:
            self.stand_ins.pop(contestant, None)
        else:
            self.stand_ins[contestant] = player
        p = self.players[contestant]
        p.present = True
        self.log_host_action(host, "replace_contestant", f"{player} for {contestant}")
        self.announce("host.replaced", player=player, contestant=contestant, seat=str(p.seat))
        # The Whisper names the contestant and goes out to the player who plays the seat now (``_to_players``).
        self._tell_hand(contestant)
        # Re-prompt what the seat has to answer now (the old player's dialogs went to the old player).
        self._reprompt([contestant])

    def _apply_end(self, host: str) -> None:
        self.log_host_action(host, "end_series")
        self.announce("host.ended")
        self._end_by_host()

    def _apply_undo(self, host: str) -> None:
        """House rule 4: rebuild without the last input; reconcile places, items, the clock and the prompts."""
        undone = self.log[-1]
        before = type(self).replay(self.settings, self.seed, self.log[:-1])
        # The clock gets back the time it had left when the undone action happened, counted from now.
        left = before.paused
        if left is None and before.deadline is not None:
            left = max(0.0, before.deadline - float(undone["now"]))
        old_items, old_places, old_placed, old_seq = self.items, self.places, self.placed, self.phase_seq
        old_log, old_inbox, old_actions = self.log, self.inbox, self.record.host_actions
        for name in self.REPLAYED_STATE:
            setattr(self, name, getattr(before, name))
        self.log, self.inbox = old_log, old_inbox
        self.record.host_actions = old_actions
        for a in reversed(old_actions):
            if not a["undone"] and a["action"] == undone["action"]:
                a["undone"] = True
                break
        self.log_host_action(host, "undo_host_action", str(undone["action"]))
        self.announce("host.undone", action=host_action_term(str(undone["action"])))
        self._restore_places(old_places)
        self._restore_items(old_items)
        self._restore_placed(old_placed)
        # The clock: a fresh sequence number above every one used, so no old timer can fire into it.
        self.phase_seq = max(old_seq, self.phase_seq)
        if self.phase is not None and not self.is_over and left is not None:
            self.phase_seq += 1
            if before.paused is not None:
                self.deadline = None
                self.paused = left
                self.emit(ClockChanged(self.phase_seq, None, left))
            else:
                self.deadline = self._now + left
                self.emit(ClockStarted(self.phase_seq, msg(self.clock_label), left, self.deadline))
        self._reprompt(None)

    def _restore_places(self, old_places: dict[str, tuple[Place, int | None]]) -> None:
        """After an undo: move whoever is elsewhere than the replayed game says back (the tracker keeps
        ``old_places`` until the moves are tracked)."""
        target_places, self.places = self.places, old_places
        moves: dict[tuple[Place, bool], list[str]] = {}
        for n, (place, seat) in target_places.items():
            if old_places.get(n) != (place, seat) and self.players[n].alive:
                moves.setdefault((place, seat is not None), []).append(n)
        for (place, _), names in moves.items():
            self.move(names, place)

    def _restore_placed(self, old_placed: dict[tuple[Place, int], tuple[Item, str | None]]) -> None:
        """After an undo: take away what the undone input set down, set back what it took away (the tracker keeps
        ``old_placed`` until these effects are tracked)."""
        target, self.placed = self.placed, old_placed
        for (place, seat), (item, _) in old_placed.items():
            if target.get((place, seat)) != old_placed[(place, seat)]:
                self.emit(ClearPlace(item, place, (seat,)))
        for (place, seat), (item, label) in target.items():
            if old_placed.get((place, seat)) != (item, label):
                self.emit(PlaceItem(item, place, seat, label))

    def _restore_items(self, old_items: dict[str, list[tuple[Item, Label]]]) -> None:
        """After an undo: give back what the undone input took, take what it gave (the items become exactly the
        replayed game's once this input's effects are tracked, ``_handle``)."""
        target_items = self.items
        self._reset_items = {n: list(v) for n, v in target_items.items()}
        self.items = old_items
        for n in sorted(set(target_items) | set(old_items)):
            want, have = target_items.get(n, []), old_items.get(n, [])
            for item, label in want:
                if (item, label) not in have:
                    self.emit(GiveItem(frozenset({n}), item, label))
            # In the order held (a set of items would iterate in a per-process order: they hash by name).
            for item in dict.fromkeys(i for i, _ in have if all(i is not j for j, _ in want)):
                self.emit(TakeItem(item, (n,)))


def _extend(host: str) -> Action:
    """The console's "Add a minute": ``EXTEND_STEP`` seconds more."""
    return ExtendPhase(host, EXTEND_STEP)


BUILT_IN: tuple[HostControlSpec, ...] = (
    HostControlSpec(
        PauseClock,
        HostControls.check_pause,
        "Paused the clock",
        "pause clock",
        undoable=True,
        messages={"host.paused": "The host has paused the clock."},
        button=ConsoleButton(8, "pause_clock", "Pause the clock", PauseClock),
    ),
    HostControlSpec(
        ResumeClock,
        HostControls.check_resume,
        "Resumed the clock",
        "resume clock",
        undoable=True,
        messages={"host.resumed": "The clock runs again: {seconds:seconds} left."},
        button=ConsoleButton(9, "resume_clock", "Resume the clock", ResumeClock),
    ),
    HostControlSpec(
        ExtendPhase,
        HostControls.check_extend,
        "Extended the phase",
        "extend phase",
        undoable=True,
        messages={"host.extended": "The host has added {seconds:seconds} to the clock."},
        button=ConsoleButton(11, "extend_phase", "Add a minute", _extend),
    ),
    # Not undoable: the new player already knows the hand (replace again instead).
    HostControlSpec(
        ReplaceContestant,
        HostControls.check_replace,
        "Replaced a contestant",
        "replace contestant",
        messages={"host.replaced": "{player} now plays for {contestant} (seat {seat})."},
        button=ConsoleButton(12, "replace_contestant", "Replace a contestant", None),
    ),
    HostControlSpec(
        UndoHostAction,
        HostControls.check_undo,
        "Undid a host action",
        "undo host action",
        messages={"host.undone": "The host has taken back the last host action ({action})."},
        button=ConsoleButton(13, "undo", "Undo the last host action", UndoHostAction),
    ),
    # Not undoable: the service has stopped.
    HostControlSpec(
        EndSeries,
        HostControls.check_end,
        "Ended the series",
        "end series",
        messages={"host.ended": "The host has ended the series."},
        button=ConsoleButton(10, "end_series", "End the series", EndSeries),
    ),
)
"""The host controls every series takes (house rules above), each with its check (which returns the function
that applies it), its texts and its console button; registered at import (``engine.core.host_spec``)."""

for _spec in BUILT_IN:
    register_host_control(_spec)


Seated = Callable[[str], str]
"""Contestant → the player who plays the seat now (``HostControls.player_of``)."""


def _to(e: Any, who: Seated) -> Effect:
    renamed: Effect = e if e.to is None else dataclasses.replace(e, to=frozenset([who(n) for n in e.to]))
    return renamed


def _label(e: Any, who: Seated) -> Effect:
    renamed: Effect = e if e.label is None else dataclasses.replace(e, label=who(e.label))
    return renamed


def _players(e: Any, who: Seated) -> Effect:
    renamed: Effect = e if e.players is None else dataclasses.replace(e, players=tuple([who(n) for n in e.players]))
    return renamed


ADDRESSED: dict[type[Effect], Callable[[Any, Seated], Effect]] = {
    Whisper: _to,
    Prompt: _to,
    GiveItem: _to,
    ShowTitle: _to,
    Eliminated: _to,
    MoveTo: _players,
    TakeItem: _players,
    PlaceItem: _label,
}
"""The effects that name contestants as recipients (``to``), movers (``players``) or owners (the ``label`` of a
head set down), and how to rename them; a ``None`` means everyone and stays."""


__all__ = ["ADDRESSED", "BUILT_IN", "EXTEND_STEP", "HOST_CONTROLS", "MAX_EXTENSION", "HostControls", "SeatState"]
