"""The game record: what happened, kept as data for the game log (``docs/game-log.md``).

The record is the after-the-series truth (it names every allegiance and power, with "The Drunk X" for a drunk
power, rulebook §2). It is never shown to contestants during a series: views (``engine.views``) are the only
door for what a contestant may know. ``to_dict`` gives the JSON game log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass(slots=True)
class ContestantRecord:
    """One contestant as dealt, with how their series ended."""

    name: str
    seat: int
    allegiance: str
    """``"faithful"`` or ``"traitor"`` as dealt."""
    power: str | None
    """Game-log power name, e.g. ``"The Sober"``, ``"The Drunk Cleanser"``; ``None`` without a power."""
    false_power: str | None = None
    recruited_day: int | None = None
    """The night on which a Faithful joined the Traitors."""
    out: str | None = None
    """``"banished"``, ``"murdered"`` or ``None`` while in (or at the end, a finalist)."""
    out_day: int | None = None
    winner: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seat": self.seat,
            "allegiance": self.allegiance,
            "power": self.power,
            "false_power": self.false_power,
            "recruited_day": self.recruited_day,
            "out": self.out,
            "out_day": self.out_day,
            "winner": self.winner,
        }


@dataclass(slots=True)
class VoteRound:
    """One vote at a round table (first vote, everyone-on-one revote, or second vote between the tied).

    ``votes`` maps every contestant present (seat order) to the name they wrote, or ``None`` for "No vote";
    ``weights`` is 2 for the double vote paper.
    """

    kind: str
    """``"first"``, ``"revote"`` or ``"second"``."""
    votes: dict[str, str | None]
    weights: dict[str, int]
    candidates: list[str]
    count: str = ""
    """Vote counts high to low joined by "-", e.g. ``"4-4-1-1"`` (rulebook §4)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "votes": [{"voter": v, "target": t, "weight": self.weights.get(v, 1)} for v, t in self.votes.items()],
            "candidates": list(self.candidates),
            "count": self.count,
        }


@dataclass(slots=True)
class RoundTableRecord:
    """One round table (or one banishment vote of the finale)."""

    RECORD_TYPE: ClassVar[str] = "round_table"
    """The event's ``type`` in the game log."""

    day: int
    present: list[str]
    """Contestants at the table, in seat order."""
    finale: bool = False
    double_vote: str | None = None
    rounds: list[VoteRound] = field(default_factory=list)
    deadlock: list[str] | None = None
    """The contestants who drew from the deadlock chests, if it came to that."""
    banished: str | None = None
    revealed: str | None = None
    """``"faithful"`` / ``"traitor"`` when the banished revealed, else ``None``."""
    silenced: list[str] = field(default_factory=list)
    """Silenced by The Silencer: no vote paper (rulebook §4)."""
    accused: str | None = None
    """Accused by The Sheriff before the vote."""
    accusation: str | None = None
    """``"banished"`` (no vote that day), ``"protected"`` (it would have banished the Judge's protected
    contestant: the vote goes on) or ``"failed"``."""
    protected: str | None = None
    """Protected by The Judge at this round table."""
    protection_used: bool = False
    """True when the protection moved the banishment to the next most votes (announced)."""
    survivor_murdered: str | None = None
    """The alerted Survivor murdered right after this round table."""
    joker: bool = False
    """True when the banished was the Joker and the series ended (rulebook §6)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "finale": self.finale,
            "present": list(self.present),
            "double_vote": self.double_vote,
            "rounds": [r.to_dict() for r in self.rounds],
            "deadlock": self.deadlock,
            "banished": self.banished,
            "revealed": self.revealed,
            "silenced": list(self.silenced),
            "accused": self.accused,
            "accusation": self.accusation,
            "protected": self.protected,
            "protection_used": self.protection_used,
            "survivor_murdered": self.survivor_murdered,
            "joker": self.joker,
        }


@dataclass(slots=True)
class TorchRound:
    """One finale torch vote: each finalist's torch (``None`` = no torch when locked)."""

    RECORD_TYPE: ClassVar[str] = "torches"
    """The event's ``type`` in the game log."""

    choices: dict[str, str | None]
    """finalist → ``"banish_again"`` / ``"end_game"`` / ``None``."""
    count: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"choices": [{"finalist": f, "torch": t} for f, t in self.choices.items()], "count": self.count}


@dataclass(slots=True)
class NightRecord:
    """One night: the Oath, the Turret's event and its outcome, nominations."""

    RECORD_TYPE: ClassVar[str] = "night"
    """The event's ``type`` in the game log."""

    day: int
    sworn: list[str] = field(default_factory=list)
    event: str | None = None
    """``"murder"``, ``"seduce"``, ``"ultimatum"`` or ``None``."""
    target: str | None = None
    result: str | None = None
    """``"murdered"``, ``"recruited"``, ``"declined"`` or ``None``."""
    double_vote: str | None = None
    powers: list[dict[str, Any]] = field(default_factory=list)
    """Every power used, in the night order: ``{"contestant", "power", "drunk", "targets", "result"}``
    (``result``: the answer the contestant was told, or ``None``)."""
    joker: dict[str, Any] | None = None
    """The Joker offer: ``{"contestant", "accepted"}`` (rulebook §6)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "sworn": list(self.sworn),
            "event": self.event,
            "target": self.target,
            "result": self.result,
            "double_vote": self.double_vote,
            "powers": [dict(p) for p in self.powers],
            "joker": self.joker,
        }


@dataclass(slots=True)
class BreakfastRecord:
    """One breakfast: arrival order and the night's news."""

    RECORD_TYPE: ClassVar[str] = "breakfast"
    """The event's ``type`` in the game log."""

    day: int
    arrivals: list[str]
    murdered: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"day": self.day, "arrivals": list(self.arrivals), "murdered": list(self.murdered)}


@dataclass(slots=True)
class TwistRecord:
    """One step of a twist (rulebook §8): ``twist`` is the ``Twist`` value, ``details`` what happened (who,
    what was chosen, the result), e.g. ``{"attacker": "Efe", "victim": "Kai", "result": "murdered"}``.

    ``day`` is the twist's day, the day it is scheduled for (``Settings.twists``), for every step: a step taken
    on the night before it (the Traitors' guess, the Faithful's nomination) or at the breakfast after it (the
    Traitors' response to the confessions) carries that day too (``docs/twists.md``)."""

    RECORD_TYPE: ClassVar[str] = "twist"
    """The event's ``type`` in the game log."""

    day: int
    twist: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"day": self.day, "twist": self.twist, "details": dict(self.details)}


KEEP = "keep everyone"
"""The ballot option of ``KeepEveryone`` (Mafia & Yakuza): what a paper to keep everyone names in a
``VoteRound``."""


@dataclass(slots=True)
class ClubNightRecord:
    """One night of a club ruleset (``engine.rulesets.club``): every action in wake order, the blocked, the deaths and what saved whom."""

    RECORD_TYPE: ClassVar[str] = "club_night"
    night: int
    acts: list[dict[str, Any]] = field(default_factory=list)
    """``{"step", "contestant", "target"}`` (``target`` ``None``: passed)."""
    blocked: list[str] = field(default_factory=list)
    deaths: dict[str, str] = field(default_factory=dict)
    saved: list[str] = field(default_factory=list)
    cured: list[str] = field(default_factory=list)
    mines: list[list[str]] = field(default_factory=list)
    checks: list[dict[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "night": self.night,
            "acts": [dict(a) for a in self.acts],
            "blocked": list(self.blocked),
            "deaths": dict(self.deaths),
            "saved": list(self.saved),
            "cured": list(self.cured),
            "mines": [list(m) for m in self.mines],
            "checks": [dict(c) for c in self.checks],
        }


@dataclass(slots=True)
class ClubDayRecord:
    """One day of a club ruleset: nominations, vote rounds, who left and whether the vote was repeated."""

    RECORD_TYPE: ClassVar[str] = "club_day"
    day: int
    present: list[str]
    nominations: dict[str, str | None] = field(default_factory=dict)
    rounds: list[VoteRound] = field(default_factory=list)
    left: str | None = None
    revealed: str | None = None
    """The departed's role as announced (Black Knights), else ``None``."""
    repeat: bool = False
    repeat_asks: dict[str, bool] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day,
            "present": list(self.present),
            "nominations": dict(self.nominations),
            "rounds": [r.to_dict() for r in self.rounds],
            "left": self.left,
            "revealed": self.revealed,
            "repeat": self.repeat,
            "repeat_asks": dict(self.repeat_asks),
        }


@dataclass(slots=True)
class SeriesRecord:
    """The whole record of one series, in the order things happened."""

    ruleset: str
    seed: int
    contestants: list[ContestantRecord]
    settings: dict[str, Any]
    events: list[Any] = field(default_factory=list)
    """Traitors: ``BreakfastRecord | RoundTableRecord | NightRecord | TorchRound | TwistRecord``; the club
    rulesets add their own record types; each has a ``RECORD_TYPE`` (the JSON ``type``) and ``to_dict``."""
    winner: str | None = None
    termination: str | None = None
    host_actions: list[dict[str, Any]] = field(default_factory=list)
    """Every host action the series took, one per press and in order (moving on with the button that moved on as
    ``detail``): ``{"host", "action", "at" (seconds, the engine's now), "day", "phase", "detail", "undone"}``
    (docs/game-log.md)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON game log (``docs/game-log.md``), format version 1."""
        events: list[dict[str, Any]] = []
        for e in self.events:
            events.append({"type": e.RECORD_TYPE, **e.to_dict()})
        return {
            "format": "castle-game-log",
            "version": 1,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "settings": self.settings,
            "contestants": [c.to_dict() for c in self.contestants],
            "events": events,
            "winner": self.winner,
            "termination": self.termination,
            "host_actions": [dict(a) for a in self.host_actions],
        }
