"""The host's grimoire as data: every seat with its hidden hand, the clock, tonight's choices, the vote, and the
event log, read from the series (``docs/host.md``, "The web grimoire").

House rules of this file:

1. Only the host page reads this (``bridge/web/hub.py``): it holds every secret of the series. The spectator
   feed (``bridge/web/spectator.py``) never imports it.
2. The grimoire is a flat mapping of *parts* (``"clock"``, ``"seat/<name>"``, ``"night"``, ``"vote"``), each a
   JSON value; the page is kept live by ``diff`` (the parts that changed), never by whole states.
3. What differs between rulesets is a table (``SEAT_READERS``, ``NIGHT_READERS``, ``VOTE_READERS``), keyed by
   the game family of the series' ruleset (``engine.core.ruleset.Ruleset.family``: The Traitors' game or the club
   game), so a new club ruleset needs no row; a family without a row still gets its seats' names, status, items
   and the clock.
4. Pure: no I/O, no clock reads; ``now`` is passed in (seconds, the service's clock).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bridge.web.sheets import night_sheet, vote_history
from bridge.web.timeline import timeline
from engine.actions import action_from_dict
from engine.core.ruleset import RulesetGame
from engine.effects import (
    Announce,
    ClearPlace,
    ClockChanged,
    ClockStarted,
    Effect,
    Eliminated,
    GiveItem,
    MoveTo,
    PlaceItem,
    Prompt,
    Revealed,
    SeriesOver,
    ShowTitle,
    TakeItem,
    Whisper,
    label_text,
)
from engine.rulesets import RULESETS, family, new_game

__all__ = ["Parts", "diff", "effect_entry", "grimoire", "input_entry", "rebuilt_log"]

Parts = dict[str, Any]
"""Part name → JSON value (house rule 2)."""


def _title(value: Any) -> str | None:
    """The display name of an enum member with a ``title`` (a power, an allegiance), or its value, or ``None``."""
    if value is None:
        return None
    title = getattr(value, "title", None)
    if isinstance(title, str):
        return title
    return str(getattr(value, "value", value))


# ---------------------------------------------------------------------------------------------- seats


def _status(p: Any) -> str:
    """``in``, ``absent``, or how the contestant went out (``banished``, ``murdered``…); a murder not yet
    announced at breakfast is ``murdered (not yet announced)``."""
    if not p.alive:
        how = str(p.out or "out")
        return how if getattr(p, "publicly_out", True) else f"{how} (not yet announced)"
    return "in" if p.present else "absent"


def _traitors_seat(game: Any, name: str) -> dict[str, Any]:
    """The Traitors: allegiance, the true power, the false power a sworn Traitor shows, drunkenness, and the
    marks the powers leave (rulebook §5-§7)."""
    p = game.players[name]
    powers = game.powers
    marks = [
        mark
        for mark, names in (
            ("sworn", {n for n, q in game.players.items() if q.sworn}),
            ("silenced", powers.silenced),
            ("shielded", powers.shields),
            ("intoxicated", powers.intoxicated),
            ("falsified", powers.falsified),
            ("sobered", powers.sobered),
            ("cleansed", powers.cleansed),
            ("joker", powers.jokers),
            ("guarded", game.guarded),
            ("protected", {powers.protected}),
            ("accused", {powers.accusation}),
            ("alerted", {powers.alerted}),
            ("double vote", {game.double_vote_holder}),
        )
        if name in names
    ]
    if p.recruited_day is not None:
        marks.append(f"recruited day {p.recruited_day}")
    return {
        "allegiance": _title(p.allegiance),
        "role": _title(p.power),
        "false_role": _title(p.false_power),
        "drunk": bool(p.drunk),
        "marks": marks,
    }


def _club_seat(game: Any, name: str) -> dict[str, Any]:
    """A club ruleset: the role now, the card dealt when it differs (a successor), the team, and tonight's marks
    (blocked, mined, poisoned)."""
    p = game.players[name]
    roles = game.rules.roles
    marks = [
        mark
        for mark, names in (
            ("blocked", game.blocked),
            ("mined", game.mines),
            ("poisoned", game.poisons),
            ("to act", game.pending),
            ("speaking", {game.speaker}),
            ("departing", {game.departing}),
        )
        if name in names
    ]
    return {
        "allegiance": roles[p.role].team,
        "role": roles[p.role].title,
        "false_role": roles[p.dealt].title if p.dealt != p.role else None,
        "drunk": False,
        "marks": marks,
    }


SEAT_READERS: dict[str, Callable[[Any, str], dict[str, Any]]] = {
    "traitors": _traitors_seat,
    "club": _club_seat,
}
"""Game family (``Ruleset.family``) → the hidden hand of one seat (house rule 3)."""


def _seat(game: RulesetGame, name: str, seat: int) -> dict[str, Any]:
    g: Any = game
    p = g.players[name]
    base = {
        "seat": seat,
        "name": name,
        "player": game.player_of(name),
        "status": _status(p),
        "items": [
            f"{_title(item)}{f' ({label_text(label)})' if label else ''}" for item, label in game.items.get(name, [])
        ],
    }
    reader = SEAT_READERS.get(family(game))
    return base | (reader(g, name) if reader is not None else {})


# ---------------------------------------------------------------------------------------------- night and vote


def _traitors_night(game: Any) -> dict[str, Any] | None:
    night = game.night
    if night is None:
        return None
    return {
        "picks": {t: [_title(ev), target] for t, (ev, target) in night.picks.items()},
        "nominations": dict(night.nominations),
        "offer": [_title(night.offer[0]), night.offer[1]] if night.offer else None,
        "powers": [[u.actor, _title(u.power), list(u.targets)] for u in night.uses],
        "waiting": list(night.pending),
        "victims": list(night.victims),
    }


def _club_night(game: Any) -> dict[str, Any] | None:
    if not game.pending and not game.picks and not game.visits:
        return None
    return {
        "picks": dict(game.picks),
        "powers": [[v.actor, v.kind, v.target] for v in game.visits],
        "waiting": list(game.pending),
    }


def _tally(votes: Mapping[str, str], weights: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Votes per candidate (a voter's weight counts: the double vote) and the names tied on top."""
    count: Counter[str] = Counter()
    for voter, target in votes.items():
        count[target] += (weights or {}).get(voter, 1)
    top = max(count.values(), default=0)
    return {"tally": dict(count.most_common()), "tied": sorted(n for n, c in count.items() if c == top and top)}


def _traitors_vote(game: Any) -> dict[str, Any] | None:
    ballot = game.ballot
    torches = {n: _title(t) for n, t in game.torches.items()} if game.torches else None
    if ballot is None:
        return {"kind": "torches", "torches": torches} if torches else None
    return {
        "kind": ballot.kind,
        "voters": list(ballot.voters),
        "candidates": list(ballot.candidates),
        "votes": dict(ballot.votes),
        **_tally(ballot.votes, ballot.weights),
        "torches": torches,
    }


def _club_vote(game: Any) -> dict[str, Any] | None:
    ballot = game.ballot
    nominations = dict(game.day_record.nominations) if game.day_record is not None else {}
    if ballot is None:
        return {"kind": "nominations", "nominations": nominations} if nominations else None
    return {
        "kind": ballot.kind,
        "voters": list(ballot.voters),
        "candidates": list(ballot.options),
        "votes": dict(ballot.votes),
        **_tally(ballot.votes),
        "nominations": nominations,
    }


NIGHT_READERS: dict[str, Callable[[Any], dict[str, Any] | None]] = {
    "traitors": _traitors_night,
    "club": _club_night,
}
"""Game family → tonight's choices as they arrive (``None``: no night running)."""

VOTE_READERS: dict[str, Callable[[Any], dict[str, Any] | None]] = {
    "traitors": _traitors_vote,
    "club": _club_vote,
}
"""Game family → the vote as it arrives: who voted whom, the tally, the tie (``None``: no vote open)."""


# ---------------------------------------------------------------------------------------------- the whole


def grimoire(game: RulesetGame) -> Parts:
    """Every part of the host's grimoire now (house rule 2).

    Args:
        game: the series (any ruleset).

    Returns:
        ``{"clock": {...}, "seat/<name>": {...} per contestant, "night": ..., "vote": ..., "votes": the vote
        history, "night_order": the night-order sheet (``bridge/web/sheets.py``), "timeline": the finished
        series step by step (``bridge/web/timeline.py``; only once it is over)}``; the clock's ``deadline`` is in
        the service clock's seconds, ``paused`` the seconds left while paused (else ``None``), ``twists`` the
        twists the host may start (``Ruleset.twists``: the page's list).
    """
    g: Any = game
    phase = game.phase
    spec = RULESETS.get(game.ruleset)
    parts: Parts = {
        "clock": {
            "ruleset": game.ruleset,
            "day": game.day,
            "phase": phase.value if phase is not None else None,
            "phase_seq": game.phase_seq,
            "deadline": game.deadline,
            "paused": getattr(g, "paused", None),
            "label": getattr(g, "clock_label", ""),
            "over": game.is_over,
            "hosts": sorted(game.hosts),
            "winner": _title(game.outcome.winner) if game.outcome is not None else None,
            "twists": list(spec.twists) if spec is not None else [],
        },
    }
    for name, seat in game.seats().items():
        parts[f"seat/{name}"] = _seat(game, name, seat)
    if game.started:
        night = NIGHT_READERS.get(family(game), lambda _g: None)(g)
        vote = VOTE_READERS.get(family(game), lambda _g: None)(g)
        parts.update({k: v for k, v in (("night", night), ("vote", vote)) if v is not None})
    parts["votes"] = vote_history(game)
    parts["night_order"] = night_sheet(game)
    if game.is_over:
        parts["timeline"] = timeline(game.record)
    return parts


@dataclass(frozen=True, slots=True)
class Diff:
    """What changed between two grimoires: ``set`` (part → new value) and ``drop`` (parts gone)."""

    set: Parts
    drop: list[str]

    def __bool__(self) -> bool:
        return bool(self.set or self.drop)


def diff(before: Parts, after: Parts) -> Diff:
    """The parts of ``after`` that differ from ``before``, and the parts ``after`` no longer has (house rule 2)."""
    return Diff({k: v for k, v in after.items() if before.get(k) != v}, [k for k in before if k not in after])


# ---------------------------------------------------------------------------------------------- the event log


def _recipients(effect: Effect) -> list[str] | None:
    to = effect.recipients
    return sorted(to) if to is not None else None


def _prompt_text(e: Prompt) -> str:
    return f"{e.message.text} [{' | '.join(c.label for c in e.choices)}]"


def _clock_changed(e: ClockChanged) -> str:
    return f"clock paused ({e.remaining:.0f} s left)" if e.deadline is None else f"clock: {e.remaining:.0f} s left"


_EFFECT_TEXT: dict[type[Effect], tuple[str, Callable[[Any], str]]] = {
    Announce: ("announce", lambda e: e.message.text),
    Whisper: ("whisper", lambda e: e.message.text),
    Prompt: ("prompt", _prompt_text),
    ShowTitle: ("title", lambda e: e.title.text + (f" / {e.subtitle.text}" if e.subtitle else "")),
    MoveTo: ("move", lambda e: f"{', '.join(e.players)} → {e.place.value}"),
    GiveItem: ("item", lambda e: f"give {_title(e.item)}{f' ({label_text(e.label)})' if e.label else ''}"),
    TakeItem: ("item", lambda e: f"take {_title(e.item)} from {', '.join(e.players) if e.players else 'everyone'}"),
    PlaceItem: ("item", lambda e: f"set {_title(e.item)} ({e.label}) at {e.place.value} {e.seat}"),
    ClearPlace: ("item", lambda e: f"take {_title(e.item)} from {e.place.value} {', '.join(map(str, e.seats))}"),
    ClockStarted: ("clock", lambda e: f"{e.label.text}: {e.seconds:.0f} s"),
    ClockChanged: ("clock", _clock_changed),
    Revealed: ("reveal", lambda e: f"{e.player} reveals: {_title(e.allegiance)}"),
    Eliminated: ("out", lambda e: f"{e.player} {e.how}"),
    SeriesOver: ("over", lambda e: f"series over: {_title(e.outcome.winner)}"),
}
"""Effect class → (the log filter's kind, its one-line text)."""


def effect_entry(effect: Effect, now: float) -> dict[str, Any] | None:
    """One effect as an event-log line ``{"t", "kind", "text", "to"}`` (``to``: recipients, ``None`` = public),
    or ``None`` for an effect the log does not show."""
    row = _EFFECT_TEXT.get(type(effect))
    if row is None:
        return None
    kind, text = row
    return {"t": now, "kind": kind, "text": text(effect), "to": _recipients(effect)}


def input_entry(entry: Mapping[str, Any], now: float) -> dict[str, Any]:
    """One input of the log (``engine.core.step.InputLog``) as an event-log line: its kind and fields; a host
    control's line names the host (the record keeps who and when too: ``host_actions``)."""
    fields = " ".join(f"{k}={v}" for k, v in entry.items() if k not in ("action", "now", "at"))
    kind = str(entry.get("action", "input"))
    return {
        "t": entry.get("now", entry.get("at", now)),
        "kind": "input",
        "text": f"{kind} {fields}".strip(),
        "to": None,
    }


def rebuilt_log(game: RulesetGame) -> list[dict[str, Any]]:
    """The event log of ``game`` so far, rebuilt from its input log (what the store keeps): every input replayed
    through the engine, each followed by the lines of its effects, stamped with the input's ``now`` (seconds).

    A resumed series has only its inputs; replaying them gives the same effects the live log showed (the engine
    is deterministic from its settings and seed). The bridge's own answers (the console's dialogs and refusals)
    are not engine effects and are not rebuilt.

    Raises:
        InvalidCommand, IllegalAction: the log does not fit the series' settings and seed (a damaged store).
    """
    g: Any = game
    fresh = new_game(game.settings, g.seed)
    lines: list[dict[str, Any]] = []
    for entry in game.log:
        data = dict(entry)
        now = float(data.pop("now"))
        effects = fresh.handle(action_from_dict(data), now=now)
        lines.append(input_entry(entry, now))
        lines += [x for x in (effect_entry(e, now) for e in effects) if x is not None]
    return lines
