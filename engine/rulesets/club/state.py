"""The state of a club series: the contestants, the night's and the day's records, and ``ClubState``, the base of
the club game's night (``engine.rulesets.club.night``), day (``engine.rulesets.club.day``) and
``engine.rulesets.club.game``: every field a club series keeps, and the ways its rules speak to the castle.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from engine.core import night as core
from engine.core.host import HostControls
from engine.core.step import InputLog
from engine.effects import ClockStarted, Effect, MoveTo, Whisper, announce, msg
from engine.errors import ConfigError
from engine.ids import Place
from engine.outcome import Outcome
from engine.record import ClubDayRecord, ClubNightRecord, SeriesRecord
from engine.rulesets.club.settings import ClubPhase, ClubRules, ClubSettings, Step, settings_dict


@dataclass(slots=True)
class ClubPlayer:
    """One contestant's truth (never leaves the engine except through views and the finished record)."""

    name: str
    seat: int
    role: str
    """The current role (the Heir's becomes ``lord`` when the Lord leaves)."""
    dealt: str
    alive: bool = True
    out: str | None = None
    """``"killed"`` (at night), ``"left"`` (Black Knights' vote), ``"expelled"`` (Mafia & Yakuza's vote)."""
    out_day: int | None = None
    present: bool = True
    publicly_out: bool = False
    revealed: str | None = None
    """The role announced when the contestant left (Black Knights: the card is turned), else ``None``."""


@dataclass(slots=True)
class ClubBallot:
    """The open vote: its round, who may vote, the options and the votes cast so far."""

    kind: str
    """``"first"`` or ``"revote"``."""
    voters: tuple[str, ...]
    options: tuple[str, ...]
    """Candidates, plus ``KEEP`` when keeping everyone is an option."""
    votes: dict[str, str] = field(default_factory=dict)


class ClubState(HostControls):
    """Every field of a club series (``RULES``), and the helpers its rules use to speak to the castle.

    Args:
        settings: the series settings (``ClubSettings``), validated here against ``RULES``.
        seed: the seed of the series' one random generator (a secret).

    Raises:
        ConfigError: the settings are invalid.
    """

    RULES: ClassVar[ClubRules]
    REPLAYED_STATE: ClassVar[tuple[str, ...]] = (
        "settings",
        "seed",
        "rng",
        "hosts",
        "players",
        "phase",
        "phase_seq",
        "deadline",
        "day",
        "night_no",
        "started",
        "outcome",
        "log",
        "record",
        "step_index",
        "pending",
        "picks",
        "visits",
        "blocked",
        "last_target",
        "spent",
        "mines",
        "poisons",
        "night_record",
        "news",
        "promoted",
        "day_record",
        "speakers",
        "speaker",
        "candidates",
        "ballot",
        "departing",
        "repeat_used",
        "repeat_asks",
        "paused",
        "clock_label",
        "stand_ins",
        "_inbox",
        "_items",
        "_places",
        "_placed",
        "_untracked",
    )
    """Every attribute an undo takes from the replayed game: all but the effects being gathered (``_fx``), the
    time (``_now``), the pending item reset and the rules (a test keeps this list whole)."""

    def __init__(self, settings: ClubSettings, seed: int) -> None:
        rules = self.RULES
        if settings.ruleset != rules.name:
            raise ConfigError(f"ruleset: {settings.ruleset!r} settings given to {rules.name}")
        settings.validate(rules)
        self.rules = rules
        self.ruleset = rules.name
        self.settings = settings
        self.seed = seed
        self.rng = random.Random(seed)
        self.hosts = frozenset(settings.hosts)
        self.players: dict[str, ClubPlayer] = {}
        self.phase: ClubPhase | None = None
        self.phase_seq = 0
        self.deadline: float | None = None
        self.day = 0
        self.night_no = rules.first_night - 1
        self.started = False
        self.outcome: Outcome | None = None
        self._init_tracker()
        self.log = InputLog()
        self.record = SeriesRecord(ruleset=rules.name, seed=seed, contestants=[], settings=settings_dict(settings))
        # the night
        self.step_index = -1
        self.pending: list[str] = []
        """Contestants still to choose in the current step."""
        self.picks: dict[str, str | None] = {}
        self.visits: list[core.Visit] = []
        self.blocked: frozenset[str] = frozenset()
        self.last_target: dict[tuple[str, str], tuple[int, str]] = {}
        """(contestant, step) → (night, target) of their last action ("a new one each night")."""
        self.spent: set[tuple[str, str]] = set()
        self.mines: frozenset[str] = frozenset()
        self.poisons: dict[str, int] = {}
        self.night_record: ClubNightRecord | None = None
        self.news: list[tuple[str, str]] = []
        """(contestant, cause) killed last night, announced in the morning."""
        self.promoted: list[str] = []
        # the day
        self.day_record: ClubDayRecord | None = None
        self.speakers: list[str] = []
        self.speaker: str | None = None
        self.candidates: list[str] = []
        self.ballot: ClubBallot | None = None
        self.departing: str | None = None
        self.repeat_used = False
        self.repeat_asks: dict[str, bool] = {}
        self._init_host_controls()
        self._fx: list[Effect] = []
        self._now = 0.0

    def role_title(self, code: str) -> str:
        """The English display name of a role."""
        return self.rules.roles[code].title

    def known_to(self, name: str) -> tuple[str, ...]:
        """Contestants ``name`` knows the roles of from the first night (their team), seat order."""
        p = self.players[name]
        for group in self.rules.knows:
            if p.dealt in group:
                return tuple(q.name for q in self.players.values() if q.name != name and q.dealt in group)
        return ()

    def living(self) -> list[str]:
        """The contestants still in the series, in seat order."""
        return [p.name for p in self.players.values() if p.alive]

    def team_of(self, name: str) -> str:
        """The team of ``name``'s dealt role (a ``Role.team`` of the ruleset)."""
        return self.rules.roles[self.players[name].role].team

    def emit(self, *effects: Effect) -> None:
        self._fx.extend(effects)

    def announce(self, key: str, **params: object) -> None:
        self.emit(announce(key, **params))

    def whisper(self, to: Iterable[str], key: str, **params: object) -> None:
        recipients = frozenset(to)
        if recipients:
            self.emit(Whisper(recipients, msg(key, **params)))

    def move(self, players: Sequence[str], place: Place) -> None:
        if players:
            seats = tuple(self.players[n].seat for n in players) if place in (Place.ROUND_TABLE, Place.HOME) else ()
            self.emit(MoveTo(tuple(players), place, seats))

    def set_clock(self, phase: ClubPhase, key: str, label: str) -> None:
        """Open ``phase`` with a fresh clock of ``settings.duration(key)`` seconds labelled ``label``."""
        self.phase = phase
        self.paused = None
        self.clock_label = label
        self.phase_seq += 1
        seconds = self.settings.duration(key)
        self.deadline = self._now + seconds
        self.emit(ClockStarted(self.phase_seq, msg(label), seconds, self.deadline))

    def night_steps(self) -> tuple[Step, ...]:
        """Tonight's steps: the introduction on the first night of a ruleset that has one, else the wake order."""
        if self.night_no == self.rules.first_night and self.rules.intro:
            return self.rules.intro
        return self.rules.steps

    def current_step(self) -> Step:
        """The night step being played now (``step_index`` into ``night_steps()``)."""
        return self.night_steps()[self.step_index]


__all__ = ["ClubBallot", "ClubDayRecord", "ClubNightRecord", "ClubPlayer", "ClubState"]
