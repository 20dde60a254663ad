"""What a power or a twist may ask of the series and do to it: the one door between the rules of a power or
twist (``engine.rulesets.traitors.powers``, ``engine.rulesets.traitors.twists``) and the game that runs them.

``Context`` is a ``typing.Protocol``: ``engine.rulesets.traitors.game.Game`` implements it, and the power and
twist modules are typed against it, so they never import the game module. What it offers:

* the series as data, read-only references (the objects may be changed, never rebound): the settings, the
  contestants' truth, the hosts, the day and phase, the night in progress, the record, the powers' and twists'
  own state, the seeded random generator;
* questions the rules ask (rulebook §2, §5): who is living, who is impaired, what a contestant registers as,
  which power they hold or may use now, tonight's Traitor actions;
* what the rules may do: say things (``emit``, ``announce``, ``whisper``, ``tell``), draw with the seeded
  generator, start a phase clock, and the few steps of play a twist takes part in (the Turret's "every Traitor has
  chosen", host visiting, the round table, a murder by day, a lost power).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from engine.actions import Action
from engine.core.step import InputLog
from engine.effects import Effect
from engine.ids import Allegiance, Place, Power, Torch, Twist
from engine.outcome import Termination
from engine.record import RoundTableRecord, SeriesRecord
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import Settings
from engine.rulesets.traitors.state import Ballot, NightState, PlayerState, PowerState, TwistState, Use


class Context(Protocol):
    """What a power or twist may read and do (implemented by ``engine.rulesets.traitors.game.Game``)."""

    @property
    def settings(self) -> Settings:
        """The series settings."""

    @property
    def players(self) -> dict[str, PlayerState]:
        """Contestant → their truth, in seat order."""

    @property
    def hosts(self) -> frozenset[str]:
        """The hosts' names."""

    @property
    def day(self) -> int:
        """The day (0: day zero); the night of day d follows day d's round table."""

    @property
    def phase(self) -> Phase | None:
        """Where the series is (``None`` before the start)."""

    @property
    def night(self) -> NightState | None:
        """The night in progress, or ``None`` by day."""

    @property
    def record(self) -> SeriesRecord:
        """The game record (twists append their ``TwistRecord`` entries)."""

    @property
    def powers(self) -> PowerState:
        """What the powers keep between nights."""

    @property
    def twist_state(self) -> TwistState:
        """What the twists keep."""

    @property
    def rng(self) -> random.Random:
        """The series' one seeded generator (draws in a fixed order keep replays exact)."""

    @property
    def guarded(self) -> set[str]:
        """Protected by The Guardian tonight."""

    @property
    def last_removed(self) -> str | None:
        """The most recently murdered or banished contestant (The Historian)."""

    def living(self) -> list[str]:
        """The living contestants in seat order."""

    def living_traitors(self) -> list[str]:
        """The living Traitors in seat order."""

    def living_faithful(self) -> list[str]:
        """The living Faithful in seat order."""

    def active_power(self, name: str) -> Power | None:
        """The power ``name`` can use now (a Mimic's copy; none while holding the Joker)."""

    def held_power(self, name: str) -> Power | None:
        """The power that is truly ``name``'s (The Researcher, The Historian)."""

    def impaired(self, name: str) -> bool:
        """Drunk or intoxicated now, and not sobered (rulebook §2)."""

    def registers_as(self, name: str) -> Allegiance:
        """What information powers and the Sheriff see (rulebook §5)."""

    def murdered_tonight(self, name: str) -> bool:
        """Murdered tonight (after the murder step): their ability does not succeed."""

    def traitor_actions(self) -> list[tuple[str, str]]:
        """Tonight's Traitor actions as (target, action)."""

    def emit(self, *effects: Effect) -> None:
        """Send effects, in order, after those already sent for this input."""

    def announce(self, key: str, **params: object) -> None:
        """Say message ``key`` to everyone."""

    def whisper(self, to: Iterable[str], key: str, **params: object) -> None:
        """Say message ``key`` privately to ``to`` (nothing when ``to`` is empty)."""

    def tell(self, use: Use, key: str, **params: object) -> None:
        """Give a power's answer to its user only, and keep it in the night record."""

    def draw(self, options: Sequence[str]) -> str:
        """One seeded draw among ``options`` (sorted first)."""

    def twist_on(self, day: int, twist: Twist) -> bool:
        """Whether ``twist`` is scheduled for ``day``."""

    def start_clock(self, phase: Phase, duration_key: str, label: str) -> None:
        """Enter ``phase`` with its clock (``Settings.duration(duration_key)`` seconds, labelled ``label``)."""

    def check_turret(self, actor: str, confession: bool = False) -> None:
        """Raise ``IllegalAction`` unless ``actor`` is a sworn Traitor in tonight's open Turret, at the stage the
        input belongs to (``confession``: the response at the Confession; else a decision after it)."""

    def end_confession(self) -> None:
        """The Confession is over: the Traitors make the night's decisions (rule T8.4)."""

    def turret_maybe_done(self) -> None:
        """Close the Turret if every Traitor has made every choice tonight."""

    def open_host_visit(self) -> None:
        """Begin host visiting (rulebook §7.4)."""

    def begin_round_table(self) -> None:
        """Open the round table (rulebook §4)."""

    def murder(self, victim: str, by_day: bool = False) -> None:
        """``victim`` is murdered: out, sent to the diary room and told (rulebook §7.5); ``by_day`` (the Sacred
        Sword): told where they stand, as the diary room is a night place (rule T10.7)."""

    def record_out(self, name: str) -> None:
        """Copy ``name``'s way out into the record."""

    def lose_power(self, name: str) -> None:
        """``name`` loses their power for the series and is told (the Guess twist)."""

    def log_host_action(self, host: str, kind: str, detail: str = "") -> None:
        """Keep a host's action in the record's ``host_actions`` (``engine.core.host`` house rule 6)."""


class Table(Context, Protocol):
    """All a phase of play may read and change: the whole series state and the steps that cross phase modules
    (implemented by ``engine.rulesets.traitors.game.Game``). The phase modules (``night``, ``visit``,
    ``round_table``, ``finale``, ``presence``, ``host``) are typed against it, so none imports the game module;
    a step of another phase module that would make an import circle is called through it (``begin_night``,
    ``begin_breakfast``, ...)."""

    seed: int
    phase: Phase | None
    phase_seq: int
    deadline: float | None
    day: int
    night: NightState | None
    ballot: Ballot | None
    table: RoundTableRecord | None
    revote_used: bool
    double_vote_holder: str | None
    double_vote_next: str | None
    news: list[str]
    torches: dict[str, Torch | None]
    torches_asked: bool
    heads: dict[str, int]
    last_removed: str | None
    paused: float | None
    clock_label: str
    stand_ins: dict[str, str]
    log: InputLog

    @property
    def now(self) -> float:
        """The time of the input being applied (seconds)."""

    def move(self, players: Sequence[str], place: Place) -> None:
        """Send ``players`` to ``place`` (with their seats at the round table and at home)."""

    def player_of(self, contestant: str) -> str:
        """The player who plays ``contestant``'s seat now."""

    def contestant_of(self, player: str) -> str | None:
        """The contestant whose seat ``player`` plays now, or ``None``."""

    def begin_night(self) -> None:
        """The night begins (rulebook §7)."""

    def after_turret(self) -> None:
        """The Turret is over: the Traitor powers, then the offer or host visiting."""

    def open_offer(self) -> None:
        """The Traitors meet the contestant they seduce (or give an ultimatum) at the contestant's home."""

    def open_no_offer(self) -> None:
        """No offer tonight: the Traitors go home and the offer's clock runs anyway (phases house rule 9)."""

    def send_traitors_home(self) -> None:
        """Every decision of the Turret is made: the Traitors go home, equipment taken back; the Trial begins."""

    def end_night(self) -> None:
        """The night ends: murders are settled and day breaks."""

    def begin_breakfast(self) -> None:
        """A new day begins at breakfast (rulebook §3)."""

    def open_torches(self) -> None:
        """The finale's torches (rulebook §9)."""

    def end_series(self, termination: Termination, joker: str | None = None, *, nobody: bool = False) -> None:
        """The series ends (rulebook §9; a banished Joker §6; the host's end)."""

    def check_host_action(self, action: Action) -> Callable[[], None]:
        """A host control's check and application (``engine.core.host.HostControls``)."""


__all__ = ["Context", "Table"]
