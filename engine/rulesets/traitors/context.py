"""What a power or a twist may ask of the series and do to it: the one door between the rules of a power or
twist (``engine.rulesets.traitors.powers``, ``engine.rulesets.traitors.twists``) and the game that runs them.

``Context`` is a ``typing.Protocol``: ``engine.rulesets.traitors.game.Game`` implements it, and the power and
twist modules are typed against it, so they never import the game module. What it offers:

* the series as data, read-only references (the objects may be changed, never rebound): the settings, the
  contestants' truth, the hosts, the day and phase, the night in progress, the record, the powers' and twists'
  own state, the seeded random generator;
* questions the rules ask (rulebook §2, §5): who is living, who is impaired, what a contestant registers as,
  which power they hold or may use now, tonight's Traitor actions;
* what the rules may do: say things (``emit``, ``announce``, ``whisper``, ``tell``), move contestants, draw with
  the seeded generator, start a phase clock, and move the series on to a node of the phase graph (``go``: the
  Turret's "every Traitor has chosen", host visiting, the round table).
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
from engine.rulesets.traitors.phases import Phase, Stage
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

    last_removed: str | None
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

    def move(self, players: Sequence[str], place: Place) -> None:
        """Send ``players`` to ``place`` (with their seats at the round table and at home)."""

    def draw(self, options: Sequence[str]) -> str:
        """One seeded draw among ``options`` (sorted first)."""

    def twist_on(self, day: int, twist: Twist) -> bool:
        """Whether ``twist`` is scheduled for ``day``."""

    def start_clock(self, phase: Phase, duration_key: str, label: str) -> None:
        """Enter ``phase`` with its clock (``Settings.duration(duration_key)`` seconds, labelled ``label``)."""

    def go(self, node: Phase | Stage) -> None:
        """Move the series on to ``node`` of the phase graph now (``engine.rulesets.traitors.rules.PHASES``): its
        step runs, and the steps it leads to, until the series waits. A twist's hook uses it where a phase step
        would return the node."""

    def record_out(self, name: str) -> None:
        """Copy ``name``'s way out into the record."""

    def log_host_action(self, host: str, kind: str, detail: str = "") -> None:
        """Keep a host's action in the record's ``host_actions`` (``engine.core.host`` house rule 6)."""


class Table(Context, Protocol):
    """All a phase of play may read and change: the whole series state (implemented by
    ``engine.rulesets.traitors.game.Game``). The phase modules (``night``, ``visit``, ``round_table``, ``finale``,
    ``presence``, ``host``) are typed against it, so none imports the game module; a step leads to another phase
    module's step by returning its node of the phase graph."""

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
    paused: float | None
    clock_label: str
    stand_ins: dict[str, str]
    log: InputLog

    @property
    def now(self) -> float:
        """The time of the input being applied (seconds)."""

    def player_of(self, contestant: str) -> str:
        """The player who plays ``contestant``'s seat now."""

    def contestant_of(self, player: str) -> str | None:
        """The contestant whose seat ``player`` plays now, or ``None``."""

    def end_series(self, termination: Termination, joker: str | None = None, *, nobody: bool = False) -> None:
        """The series ends (rulebook §9; a banished Joker §6; the host's end)."""

    def check_host_action(self, action: Action) -> Callable[[], None]:
        """A host control's check and application (``engine.core.host.HostControls``)."""


__all__ = ["Context", "Table"]
