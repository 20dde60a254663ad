"""The club game: one state machine for the two mafia rulesets (Black Knights, Mafia & Yakuza).

A club ruleset is data (``ClubRules``: roles, teams, the night's wake order as ``Step`` values, who knows whom,
the check answers, the win check, the default deal) plus this one ``ClubGame``. The night is settled by the
shared core (``engine.core.night``: block, heal, shot, poison, explosion, mine, team kills), the same core that
settles the Traitors' murder. ``docs/rulesets.md`` says what is data and what is code.

House rules of this file (h11 ``_state.py`` style; each is also a row of ``docs/house-rules.md``):

1. The night follows the wake order: one step at a time, every contestant of that step is prompted at once
   and the step ends when all have chosen or passed (or its clock runs out: a pass). A step nobody can act in
   is skipped. Choices are collected; the night resolves all at once after the last step.
2. A blocked contestant is not woken: they are told privately "you are not woken tonight" at their first
   step and their actions are not asked for. In a team kill, ``ClubRules.blocked_join_team`` says whether
   blocked members still take part (Black Knights: yes, the kill fails only when every living member is
   blocked) or not (Mafia & Yakuza: a blocked contestant does not visit).
3. A team kill: every member taking part picks; unanimous picks stand, otherwise the leader's pick is final
   (``engine.core.night.team_choice``). The leader is the first of the step's roles still alive (the Grey
   Cardinal, the Don, the Oyabun; then the next role, ties by seat). Members see each other's picks.
4. Team kills and checks never target the actor; team kills never target a team member. "A new one each
   night" forbids last night's target. A once-per-game action (the Bomber) is spent when used.
5. The vote: every living contestant may vote once; a vote cannot be changed; a voter who has not voted when
   the vote closes casts no vote. The most votes wins; with no votes at all nobody leaves. A tie: a revote
   among the tied options; a second tie: nobody leaves that day.
6. Every death is settled before the win check, which runs after every night (right after the night's
   deaths are announced) and after every day. Nobody alive: nobody wins. A series that reaches
   ``max_days`` without a winner ends with nobody winning.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core.step import InputLog, InputStep
from engine.actions import (
    Action,
    Advance,
    AskRepeat,
    CastVote,
    ContestantLeft,
    ContestantReturned,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    SkipPower,
    UsePower,
    action_from_dict,
)
from engine.core import night as core
from engine.effects import (
    Choice,
    ClockStarted,
    Effect,
    Eliminated,
    GiveItem,
    MoveTo,
    Prompt,
    SeriesOver,
    ShowTitle,
    Whisper,
    announce,
    msg,
)
from engine.errors import ConfigError, IllegalAction, InvalidCommand
from engine.ids import Enum, Item, Place
from engine.outcome import Outcome, Termination, Winner
from engine.record import ContestantRecord, SeriesRecord, VoteRound
from engine.messages_terms import term
from engine.rulesets.club import departures, morning
from engine.rulesets.traitors.settings import check_cast

KEEP = "keep everyone"
"""The ballot option of ``KeepEveryone`` (Mafia & Yakuza)."""

SAID = {KEEP: term("term.keep")}
"""A vote option as said in a message: a name as it is, keeping everyone as a term each client translates."""


class ClubPhase(Enum):
    """Where a club series is."""

    NIGHT = "night"
    MORNING = "morning"
    SPEECH = "speech"
    DISCUSSION = "discussion"
    VOTE = "vote"
    LAST_WORD = "last_word"
    REPEAT = "repeat"
    OVER = "over"


CLUB_DURATIONS: dict[str, float] = {
    "night_step": 60.0,
    "morning": 30.0,
    "speech": 60.0,
    "discussion": 300.0,
    "vote": 60.0,
    "revote": 45.0,
    "last_word": 60.0,
    "repeat": 30.0,
}
"""Seconds per phase. ``speech`` and ``last_word`` are one minute each (Black Knights, Day [rule])."""

ON_CLOCK: dict[ClubPhase, str] = {
    ClubPhase.NIGHT: "_close_step",
    ClubPhase.MORNING: "_after_morning",
    ClubPhase.SPEECH: "_close_speech",
    ClubPhase.DISCUSSION: "_open_first_vote",
    ClubPhase.VOTE: "_close_vote",
    ClubPhase.LAST_WORD: "_after_last_word",
    ClubPhase.REPEAT: "_close_repeat",
}
"""What the end of each phase's clock (or the host's ``Advance``) does."""


# ---------------------------------------------------------------------------------------------- rules as data


@dataclass(frozen=True, slots=True)
class Role:
    """One role of a club ruleset.

    Args:
        code: the stable English code (``"grey_cardinal"``).
        team: the faction code (``"black_order"``, ``"mafia"``, ``"loner"`` …).
        title: the English display name (message key ``<prefix>.role.<code>`` carries the translations).
        cures_poison: a heal by this role removes poison (the Doctor).
        demines: a visit by this role de-mines (the Commissar).
        mine_immune: a mine never takes this role along (commissars, K).
    """

    code: str
    team: str
    title: str
    cures_poison: bool = False
    demines: bool = False
    mine_immune: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the wake order.

    Args:
        name: stable name (message key ``<prefix>.prompt.<name>``).
        roles: the roles woken; for a team kill in leader order.
        kind: the core visit kind (``engine.core.night``).
        team: for a team kill, the faction choosing together; else ``None``.
        self_ok: the actor may target themself.
        no_repeat: "a new one each night".
        once: once per game.
        watchers: roles told the result too (the Heir watches the Lord's check).
    """

    name: str
    roles: tuple[str, ...]
    kind: str
    team: str | None = None
    self_ok: bool = False
    no_repeat: bool = False
    once: bool = False
    watchers: tuple[str, ...] = ()


WinCheck = Callable[[Mapping[str, str]], "tuple[Winner, tuple[str, ...]] | None"]
"""alive contestant → current role code  →  (winner, winning contestants) or ``None`` (the series goes on)."""
CheckAnswer = Callable[[str, str, str], str]
"""(step name, checker's role code, target's role code) → the answer's message key."""


@dataclass(frozen=True, slots=True)
class ClubRules:
    """A club ruleset as data (see ``docs/rulesets.md``)."""

    name: str
    prefix: str
    """Message key prefix (``bk``, ``my``)."""
    roles: Mapping[str, Role]
    steps: tuple[Step, ...]
    knows: tuple[frozenset[str], ...]
    """Groups of roles whose holders know each other from the first night."""
    check_answer: CheckAnswer
    win: WinCheck
    default_deal: Callable[[int], tuple[str, ...]]
    sizes: tuple[int, int]
    blocked_join_team: bool
    intro_night_actions: bool
    """False: the first night is an introduction only (Black Knights [house] "no kills")."""
    first_night: int
    reveal_role: bool
    """The role is announced when a contestant leaves (Black Knights: the card is turned)."""
    nominations: bool
    """Black Knights' day (speeches, one nomination each, last word, repeat vote) vs Mafia & Yakuza's."""
    keep_option: bool
    """The vote may keep everyone (Mafia & Yakuza)."""
    successors: Mapping[str, str] = field(default_factory=dict)
    """role → role that takes it over when its holder leaves (the Heir becomes the Lord)."""
    poison_delay: int = 2


# ---------------------------------------------------------------------------------------------- settings


@dataclass(frozen=True, slots=True)
class ClubSettings:
    """Series settings of a club ruleset.

    Args:
        ruleset: ``"black_knights"`` or ``"mafia_yakuza"``.
        contestants: names in seat order.
        hosts: who may use host controls.
        deal: an explicit deal, ``(name, role code)`` in seat order (scenarios); ``None``: the seeded deal.
        deal_table: setting ``deal``: contestant count → role codes, overriding the ruleset's default deal.
        day_execution: whether the day ends with a vote (Black Knights [rule] "Start", default true).
        morning_news: what the morning tells beyond the dead (``engine.rulesets.club.morning``; default ``"named"``).
        durations: seconds per phase (``CLUB_DURATIONS`` keys).
        max_days: the series ends with nobody winning after this many days ([house]).
    """

    ruleset: str
    contestants: tuple[str, ...]
    hosts: tuple[str, ...] = ()
    deal: tuple[tuple[str, str], ...] | None = None
    deal_table: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    day_execution: bool = True
    morning_news: str = morning.DEFAULT
    durations: Mapping[str, float] = field(default_factory=dict)
    max_days: int = 30

    def duration(self, key: str) -> float:
        """Seconds for a phase clock."""
        return float(self.durations.get(key, CLUB_DURATIONS[key]))

    def validate(self, rules: ClubRules) -> None:
        """Check every field against ``rules``.

        Raises:
            ConfigError: the message starts with the field name.
        """
        names = self.contestants
        check_cast(names, self.hosts)
        morning.check(self.morning_news)
        for key, value in self.durations.items():
            if key not in CLUB_DURATIONS:
                raise ConfigError(f"durations.{key}: unknown phase (known: {', '.join(CLUB_DURATIONS)})")
            if not isinstance(value, (int, float)) or value <= 0:
                raise ConfigError(f"durations.{key}: {value!r} must be a positive number of seconds")
        if self.max_days < 1:
            raise ConfigError(f"max_days: {self.max_days} must be at least 1")
        for count, roles in self.deal_table.items():
            if len(roles) != count:
                raise ConfigError(f"deal.{count}: lists {len(roles)} roles for {count} contestants")
            for r in roles:
                if r not in rules.roles:
                    raise ConfigError(f"deal.{count}: unknown role {r!r} (known: {', '.join(rules.roles)})")
        if self.deal is not None:
            if tuple(n for n, _ in self.deal) != names:
                raise ConfigError("deal: must list exactly the contestants, in seat order")
            for i, (n, r) in enumerate(self.deal):
                if r not in rules.roles:
                    raise ConfigError(f"deal[{i}] ({n}): unknown role {r!r} (known: {', '.join(rules.roles)})")
            if not 2 <= len(names) <= 16:
                raise ConfigError(f"deal: {len(names)} contestants; an explicit deal needs 2-16")
            return
        lo, hi = rules.sizes
        if not lo <= len(names) <= hi and len(names) not in self.deal_table:
            raise ConfigError(f"contestants: {len(names)} contestants; {rules.name} allows {lo}-{hi}")


# ---------------------------------------------------------------------------------------------- state and record


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
class ClubNightRecord:
    """One night: every action in wake order, the blocked, the deaths and what saved whom."""

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
    """One day: nominations, vote rounds, who left and whether the vote was repeated."""

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
class ClubBallot:
    kind: str
    """``"first"`` or ``"revote"``."""
    voters: tuple[str, ...]
    options: tuple[str, ...]
    """Candidates, plus ``KEEP`` when keeping everyone is an option."""
    votes: dict[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------- the game


class ClubGame(InputStep):
    """One series of a club ruleset (``RULES``). The common game interface of ``engine.rulesets``.

    Args:
        settings: the series settings (``ClubSettings``), validated here against ``RULES``.
        seed: the seed of the series' one random generator (a secret).

    Raises:
        ConfigError: the settings are invalid.
    """

    RULES: ClassVar[ClubRules]

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
        self.record = SeriesRecord(ruleset=rules.name, seed=seed, contestants=[], settings=_settings_dict(settings))
        # the night
        self.step_index = -1
        self.pending: list[str] = []
        """Contestants still to choose in the current step."""
        self.picks: dict[str, str | None] = {}
        self.visits: list[core.Visit] = []
        self.blocked: frozenset[str] = frozenset()
        self.told_blocked: set[str] = set()
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
        self._fx: list[Effect] = []
        self._now = 0.0

    # ------------------------------------------------------------------ the common interface

    def handle(self, action: Action, *, now: float) -> list[Effect]:
        """Apply one input and return its effects (validate first; an illegal input changes nothing).

        Returns:
            The effects, in order.

        Raises:
            InvalidCommand: the action names an unknown contestant or is not an input of this ruleset.
            IllegalAction: the rules forbid it now; the state is unchanged.
        """
        return self._take_input(action, now, action)  # engine.core.step

    def legal_actions(self, player: str) -> list[Action]:
        """Every input ``player`` may send now (one per choice), in a stable order."""
        out: list[Action] = []
        if self.phase in (None, ClubPhase.OVER):
            return out
        if player in self.hosts:
            out.append(Advance(player))
        p = self.players.get(player)
        if p is None or not p.alive:
            return out
        if self.phase is ClubPhase.NIGHT and player in self.pending:
            out += [UsePower(player, t) for t in self._targets(player)]
            out.append(SkipPower(player))
        elif self.phase is ClubPhase.SPEECH and self.speaker == player and self.settings.day_execution:
            out += [NominateCandidate(player, t) for t in self._nominees(player)]
            out.append(HoldBack(player))
        elif self.phase is ClubPhase.VOTE and self.ballot and player in self.ballot.voters and player not in self.ballot.votes:
            out += [CastVote(player, c) for c in self.ballot.options if c not in (player, KEEP)]
            if KEEP in self.ballot.options:
                out.append(KeepEveryone(player))
        elif self.phase is ClubPhase.REPEAT and player in self._repeat_voters() and player not in self.repeat_asks:
            out += [AskRepeat(player, True), AskRepeat(player, False)]
        return out

    @classmethod
    def replay(cls, settings: ClubSettings, seed: int, log: Iterable[dict[str, Any]]) -> ClubGame:
        """Rebuild a series from its input log (``log``): the same state, views and record."""
        game = cls(settings, seed)
        for entry in log:
            data = dict(entry)
            now = float(data.pop("now"))
            game.handle(action_from_dict(data), now=now)
        return game

    @property
    def is_over(self) -> bool:
        """True once the series has ended."""
        return self.phase is ClubPhase.OVER

    def seats(self) -> dict[str, int]:
        """Contestant → seat (public)."""
        return {p.name: p.seat for p in self.players.values()}

    def contestants(self) -> list[str]:
        """Every contestant in seat order."""
        return list(self.players)

    def present(self) -> list[str]:
        """Living contestants whose players are on the server."""
        return [p.name for p in self.players.values() if p.alive and p.present]

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

    def view_for(self, name: str) -> Any:
        """What contestant ``name`` may know now (``engine.views.PlayerView``, built from an allow-list)."""
        from engine.views import OutEntry, PlayerView, PublicView

        out = tuple(
            OutEntry(q.name, q.out or "", q.out_day or 0, q.revealed)
            for q in self.players.values()
            if q.publicly_out
        )
        public = PublicView(
            day=self.day,
            phase=self.phase.value if self.phase else "not_started",
            seats=tuple((q.name, q.seat) for q in self.players.values()),
            in_castle=tuple(q.name for q in self.players.values() if not q.publicly_out),
            out=out,
            winner=self.outcome.winner.value if self.outcome else None,
            winners=tuple(self.outcome.winners) if self.outcome else (),
        )
        p = self.players[name]
        items = tuple(item.value + (f"({label})" if label else "") for item, label in self.items.get(name, []))
        return PlayerView(
            name=name,
            public=public,
            in_series=p.alive,
            allegiance=self.rules.roles[p.role].team,
            power=self.role_title(p.role),
            false_power=None,
            traitors=self.known_to(name),
            items=items,
            messages=tuple(self.inbox.get(name, [])),
            can_act=tuple(sorted({a.kind for a in self.legal_actions(name)})),
        )

    # ------------------------------------------------------------------ validation

    def _validate(self, action: Action) -> Callable[[], None]:
        if isinstance(action, Advance):
            if action.host not in self.hosts:
                raise IllegalAction("illegal.not_host")
            return self._on_clock
        if isinstance(action, (ContestantLeft, ContestantReturned)):
            p = self.players.get(action.contestant)
            if p is None:
                raise InvalidCommand("illegal.unknown_player", player=action.contestant)
            leaving = isinstance(action, ContestantLeft)
            if leaving != p.present:
                raise IllegalAction("illegal.presence.away" if leaving else "illegal.presence.here", player=p.name)
            return lambda: self._presence(p.name, not leaving)
        actor = action.actor
        if actor is None or actor not in self.players:
            raise InvalidCommand("illegal.unknown_player", player=str(actor))
        if not self.players[actor].alive:
            raise IllegalAction("illegal.out")
        if isinstance(action, (UsePower, SkipPower)):
            if self.phase is not ClubPhase.NIGHT:
                raise IllegalAction("illegal.power.closed")
            if actor not in self.pending:
                raise IllegalAction("illegal.power.none")
            if isinstance(action, SkipPower):
                return lambda: self._apply_pick(actor, None)
            if action.second is not None:
                raise IllegalAction("illegal.power.targets", count="1")
            if action.target not in self._targets(actor):
                self._refuse_target(actor, action.target)
            return lambda: self._apply_pick(actor, action.target)
        if isinstance(action, (NominateCandidate, HoldBack)):
            if self.phase is not ClubPhase.SPEECH or self.speaker != actor or not self.settings.day_execution:
                raise IllegalAction("illegal.club.not_your_turn")
            if isinstance(action, HoldBack):
                return lambda: self._apply_nomination(actor, None)
            if action.target not in self._nominees(actor):
                raise IllegalAction("illegal.club.nominee", target=action.target)
            return lambda: self._apply_nomination(actor, action.target)
        if isinstance(action, (CastVote, KeepEveryone)):
            b = self.ballot
            if self.phase is not ClubPhase.VOTE or b is None:
                raise IllegalAction("illegal.vote.not_open")
            if actor not in b.voters:
                raise IllegalAction("illegal.vote.not_eligible")
            if actor in b.votes:
                raise IllegalAction("illegal.vote.twice")
            if isinstance(action, KeepEveryone):
                if KEEP not in b.options:
                    raise IllegalAction("illegal.club.no_keep")
                return lambda: self._apply_vote(actor, KEEP)
            if action.target == actor:
                raise IllegalAction("illegal.vote.self")
            if action.target not in b.options or action.target == KEEP:
                raise IllegalAction("illegal.vote.target", target=action.target)
            return lambda: self._apply_vote(actor, action.target)
        if isinstance(action, AskRepeat):
            if self.phase is not ClubPhase.REPEAT:
                raise IllegalAction("illegal.club.no_repeat")
            if actor not in self._repeat_voters():
                raise IllegalAction("illegal.vote.not_eligible")
            if actor in self.repeat_asks:
                raise IllegalAction("illegal.vote.twice")
            return lambda: self._apply_repeat(actor, action.ask)
        raise InvalidCommand("invalid.action.kind", kind=action.kind)

    def _refuse_target(self, actor: str, target: str) -> None:
        if target not in self.players:
            raise IllegalAction("illegal.unknown_player", player=target)
        if not self.players[target].alive:
            raise IllegalAction("illegal.power.target", target=target)
        if target == actor:
            raise IllegalAction("illegal.power.self")
        last = self.last_target.get((actor, self._step().name))
        if last is not None and last[1] == target:
            raise IllegalAction("illegal.power.repeat", target=target)
        raise IllegalAction("illegal.power.target", target=target)

    # ------------------------------------------------------------------ helpers

    def _living(self) -> list[str]:
        return [p.name for p in self.players.values() if p.alive]

    def _team(self, name: str) -> str:
        return self.rules.roles[self.players[name].role].team

    def _emit(self, *effects: Effect) -> None:
        self._fx.extend(effects)

    def _announce(self, key: str, **params: object) -> None:
        self._emit(announce(key, **params))

    def _whisper(self, to: Iterable[str], key: str, **params: object) -> None:
        recipients = frozenset(to)
        if recipients:
            self._emit(Whisper(recipients, msg(key, **params)))

    def _move(self, players: Sequence[str], place: Place) -> None:
        if players:
            seats = tuple(self.players[n].seat for n in players) if place in (Place.ROUND_TABLE, Place.HOME) else ()
            self._emit(MoveTo(tuple(players), place, seats))

    def _clock(self, phase: ClubPhase, key: str, label: str) -> None:
        self.phase = phase
        self.phase_seq += 1
        seconds = self.settings.duration(key)
        self.deadline = self._now + seconds
        self._emit(ClockStarted(self.phase_seq, msg(label), seconds, self.deadline))

    def _on_clock(self) -> None:
        assert self.phase is not None
        getattr(self, ON_CLOCK[self.phase])()

    def _presence(self, name: str, here: bool) -> None:
        self.players[name].present = here
        self._whisper(self.hosts, "presence.returned" if here else "presence.left", player=name)
        if here:
            self._whisper([name], "presence.welcome_back")
        elif self.phase is ClubPhase.VOTE and self.ballot is not None and self._all_voted():
            self._close_vote()

    # ------------------------------------------------------------------ the deal

    def _start(self) -> None:
        self.started = True
        s = self.settings
        if s.deal is not None:
            deal = list(s.deal)
        else:
            n = len(s.contestants)
            roles = list(s.deal_table.get(n) or self.rules.default_deal(n))
            self.rng.shuffle(roles)
            deal = list(zip(s.contestants, roles))
        px = self.rules.prefix
        for seat, (name, role) in enumerate(deal, start=1):
            self.players[name] = ClubPlayer(name, seat, role, role)
            self.record.contestants.append(
                ContestantRecord(name=name, seat=seat, allegiance=self.rules.roles[role].team, power=self.role_title(role))
            )
        names = list(self.players)
        self._announce(f"{px}.welcome", count=len(names))
        if self.rules.name == "black_knights":
            self._announce("bk.day_execution." + ("on" if s.day_execution else "off"))
        for who in names:
            role = self.players[who].role
            self._emit(GiveItem(frozenset({who}), Item.NOTES_BOOK))
            self._emit(ShowTitle(msg(f"{px}.role.{role}"), None, frozenset({who})))
            self._whisper([who], f"{px}.deal.{role}")
        self._begin_night()

    # ------------------------------------------------------------------ the night

    def _begin_night(self) -> None:
        self.night_no += 1
        self.night_record = ClubNightRecord(self.night_no)
        self.record.events.append(self.night_record)
        self.step_index = -1
        self.visits = []
        self.blocked = frozenset()
        self.told_blocked = set()
        self.ballot = None
        self._announce("club.night", night=self.night_no)
        self._move(self._living(), Place.HOME)
        first = self.night_no == self.rules.first_night
        if first:
            self._introduce()
            if not self.rules.intro_night_actions:
                self.phase = ClubPhase.NIGHT
                self._resolve_night()
                return
        self._next_step()

    def _introduce(self) -> None:
        """The first night: teams meet (in the wake order); Mafia & Yakuza: the host names every role."""
        px = self.rules.prefix
        if self.rules.name == "mafia_yakuza":
            counts = Counter(p.role for p in self.players.values())
            for code in self.rules.roles:
                if counts[code]:
                    self._announce(f"my.setup.{code}", count=counts[code])
        else:
            self._announce("bk.introduction")
        for p in self.players.values():
            fellows = self.known_to(p.name)
            if fellows:
                self._whisper([p.name], f"{px}.team", players=tuple(msg("club.member", player=f, role=msg(f"{px}.role.{self.players[f].role}")) for f in fellows))

    def _step(self) -> Step:
        return self.rules.steps[self.step_index]

    def _step_holders(self, step: Step) -> list[str]:
        rank = {r: i for i, r in enumerate(step.roles)}
        holders = [p for p in self.players.values() if p.alive and p.present and p.role in rank]
        holders.sort(key=lambda p: (rank[p.role], p.seat))
        return [p.name for p in holders if not (step.once and (p.name, step.name) in self.spent)]

    def _next_step(self) -> None:
        while self.step_index + 1 < len(self.rules.steps):
            self.step_index += 1
            step = self._step()
            holders = self._step_holders(step)
            blocked = [h for h in holders if h in self.blocked]
            if step.team and self.rules.blocked_join_team:
                actors = holders if len(blocked) < len(holders) else []
            else:
                actors = [h for h in holders if h not in self.blocked]
            for h in holders:
                if h not in actors and h not in self.told_blocked:
                    self.told_blocked.add(h)
                    self._whisper([h], "club.blocked")
            actors = [a for a in actors if self._targets(a, step)]
            if not actors:
                continue
            self.pending = list(actors)
            self.picks = {}
            self._clock(ClubPhase.NIGHT, "night_step", "clock.night")
            for a in actors:
                choices = [Choice(t, UsePower(a, t)) for t in self._targets(a, step)]
                choices.append(Choice(msg("power.skip").text, SkipPower(a)))
                self._emit(Prompt(frozenset({a}), msg(f"{self.rules.prefix}.prompt.{step.name}"), tuple(choices)))
            return
        self._resolve_night()

    def _targets(self, actor: str, step: Step | None = None) -> list[str]:
        """Living contestants ``actor`` may target at ``step`` (house rule 4)."""
        step = step or self._step()
        out = []
        last = self.last_target.get((actor, step.name))
        for q in self.players.values():
            if not q.alive:
                continue
            if q.name == actor and not step.self_ok:
                continue
            if step.team and self._team(q.name) == step.team:
                continue
            if step.no_repeat and last is not None and last == (self.night_no - 1, q.name):
                continue
            out.append(q.name)
        return out

    def _apply_pick(self, actor: str, target: str | None) -> None:
        step = self._step()
        self.pending.remove(actor)
        self.picks[actor] = target
        self._whisper([actor], "power.skipped" if target is None else "power.noted")
        if step.team and target is not None:
            others = [m for m in self._step_holders(step) if m != actor]
            self._whisper(others, "club.team.pick", player=actor, target=target)
        if not self.pending:
            self._close_step()

    def _close_step(self) -> None:
        """End the current step (all chose, or the clock ran out: the rest pass) and record its visits."""
        step = self._step()
        assert self.night_record is not None
        rank = self.step_index
        for a in self.pending:
            self.picks.setdefault(a, None)
        self.pending = []
        chosen: list[tuple[str, str]] = []
        if step.team:
            order = self._step_holders(step)
            leader = order[0] if order else None
            decided = core.team_choice({m: self.picks.get(m) for m in order if m in self.picks}, leader)
            if decided is not None:
                chosen.append((decided[1], decided[0]))
            elif any(t is not None for t in self.picks.values()):
                # A split the leader did not settle: the kill fails.
                self.night_record.acts.append({"step": step.name, "contestant": None, "target": None})
        else:
            chosen = [(a, t) for a, t in self.picks.items() if t is not None]
        for a, t in self.picks.items():
            if not step.team or t is None:
                if t is None:
                    self.night_record.acts.append({"step": step.name, "contestant": a, "target": None})
        for a, t in chosen:
            role = self.rules.roles[self.players[a].role]
            self.visits.append(
                core.Visit(a, step.kind, t, rank, self.players[a].seat, role.cures_poison, role.demines, role.mine_immune)
            )
            self.night_record.acts.append({"step": step.name, "contestant": a, "target": t})
            if not step.team:
                self.last_target[(a, step.name)] = (self.night_no, t)
            if step.once:
                self.spent.add((a, step.name))
        if step.kind == core.BLOCK:
            self.blocked = core.blocked(v for v in self.visits if v.kind == core.BLOCK)
            self.night_record.blocked = sorted(self.blocked, key=lambda n: self.players[n].seat)
        self.picks = {}
        self._next_step()

    def _resolve_night(self) -> None:
        """The night resolves all at once through the shared core; checks are answered privately."""
        assert self.night_record is not None
        rec = self.night_record
        outcome = core.resolve(
            self.visits, night=self.night_no, mines=self.mines, poisons=self.poisons,
            delay=self.rules.poison_delay, alive=self._living(),
        )  # fmt: skip
        said = morning.news(self, outcome)
        self.mines = outcome.mines
        self.poisons = dict(outcome.poisons)
        rec.deaths = dict(outcome.deaths)
        rec.saved = list(outcome.saved)
        rec.cured = list(outcome.cured)
        rec.mines = [list(m) for m in outcome.mine_events]
        step_of = {i: s for i, s in enumerate(self.rules.steps)}
        for v in sorted(self.visits, key=lambda v: (v.rank, v.seat)):
            if v.kind != core.CHECK:
                continue
            step = step_of[v.rank]
            key = self.rules.check_answer(step.name, self.players[v.actor].role, self.players[v.target].role)
            watchers = [
                p.name for p in self.players.values() if p.alive and p.role in step.watchers and p.name != v.actor
            ]
            self._whisper([v.actor, *watchers], key, player=v.target)
            rec.checks.append({"contestant": v.actor, "target": v.target, "answer": msg(key, player=v.target).text})
        self.news = list(outcome.deaths.items())
        self._remove([name for name, _cause in self.news], "killed", self.night_no)
        self.visits = []
        self._begin_morning(said)

    def _remove(self, names: Sequence[str], how: str, when: int) -> None:
        """``names`` leave the game together; a successor role passes on (``engine.rulesets.club.departures``)."""
        departures.remove(self, names, how, when)

    # ------------------------------------------------------------------ the day

    def _begin_morning(self, said: Sequence[tuple[str, Mapping[str, object]]]) -> None:
        self.day += 1
        px = self.rules.prefix
        self._announce("club.morning", day=self.day)
        self._move(self._living(), Place.ROUND_TABLE)
        for name, _cause in self.news:
            p = self.players[name]
            p.publicly_out = True
            self._announce("club.died", player=name)
            if self.rules.reveal_role:
                p.revealed = departures.card(p)
                self._announce(f"{px}.reveal.{p.revealed}", player=name)
            self._emit(Eliminated(name, "killed"))
            self._move([name], Place.GATE)
        if not self.news:
            self._announce("club.no_deaths")
        for key, params in said:  # whatever else of the night affects this day and next night
            self._announce(key, **params)
        self.news = []
        self.day_record = ClubDayRecord(self.day, self._living())
        self.record.events.append(self.day_record)
        if self._win_check():
            return
        self._clock(ClubPhase.MORNING, "morning", "clock.morning")

    def _after_morning(self) -> None:
        self.repeat_used = False
        self.candidates = []
        if self.rules.nominations:
            self.speakers = self._living()
            self._next_speaker()
        else:
            self._announce("club.discussion", day=self.day)
            self._clock(ClubPhase.DISCUSSION, "discussion", "clock.discussion")

    def _next_speaker(self) -> None:
        while self.speakers:
            name = self.speakers.pop(0)
            if not self.players[name].alive:
                continue
            self.speaker = name
            self._clock(ClubPhase.SPEECH, "speech", "clock.speech")
            self._announce("bk.speech", player=name)
            if self.settings.day_execution:
                choices = [Choice(t, NominateCandidate(name, t)) for t in self._nominees(name)]
                choices.append(Choice(msg("bk.hold_back").text, HoldBack(name)))
                self._emit(Prompt(frozenset({name}), msg("bk.prompt.nominate"), tuple(choices)))
            return
        self.speaker = None
        if not self.settings.day_execution:
            self._announce("bk.no_execution")
            self._end_day()
        elif not self.candidates:
            self._announce("bk.no_candidates")
            self._end_day()
        else:
            self._open_first_vote()

    def _nominees(self, name: str) -> list[str]:
        return [n for n in self._living() if n != name and n not in self.candidates]

    def _apply_nomination(self, name: str, target: str | None) -> None:
        assert self.day_record is not None
        self.day_record.nominations[name] = target
        if target is None:
            self._announce("bk.held_back", player=name)
        else:
            self.candidates.append(target)
            self._announce("bk.nominated", player=name, target=target)
        self._next_speaker()

    def _close_speech(self) -> None:
        assert self.speaker is not None and self.day_record is not None
        if self.settings.day_execution:
            self._apply_nomination(self.speaker, None)
        else:
            self._next_speaker()

    def _open_first_vote(self) -> None:
        options = tuple(self.candidates) if self.rules.nominations else tuple(self._living())
        self._open_vote("first", options + ((KEEP,) if self.rules.keep_option else ()))

    def _open_vote(self, kind: str, options: tuple[str, ...]) -> None:
        # A voter needs someone to vote for: a lone candidate does not vote for themself (house rule 5).
        voters = tuple(
            n for n in self._living() if n != self.departing and (KEEP in options or any(o != n for o in options))
        )
        self.ballot = ClubBallot(kind, voters, options)
        self._announce("club.vote.open" if kind == "first" else "club.vote.revote", options=tuple(SAID.get(o, o) for o in options))
        self._clock(ClubPhase.VOTE, "vote" if kind == "first" else "revote", "clock.vote")
        for v in voters:
            choices = [Choice(c, CastVote(v, c)) for c in options if c not in (v, KEEP)]
            if KEEP in options:
                choices.append(Choice(msg("my.keep").text, KeepEveryone(v)))
            if choices:
                self._emit(Prompt(frozenset({v}), msg("club.vote.prompt"), tuple(choices)))
        if not voters:
            self._close_vote()

    def _apply_vote(self, voter: str, option: str) -> None:
        assert self.ballot is not None
        self.ballot.votes[voter] = option
        self._whisper([voter], "club.vote.cast", target=SAID.get(option, option))
        if self._all_voted():
            self._close_vote()

    def _all_voted(self) -> bool:
        b = self.ballot
        assert b is not None
        here = [v for v in b.voters if self.players[v].present]
        return bool(here) and all(v in b.votes for v in here)

    def _close_vote(self) -> None:
        """Rulebook: the most votes leaves; a tie → revote among the tied; a second tie → nobody (house rule 5)."""
        b, rec = self.ballot, self.day_record
        assert b is not None and rec is not None
        self.ballot = None
        tally: Counter[str] = Counter()
        for v in b.voters:
            choice = b.votes.get(v)
            if choice is None:
                self._announce("vote.reveal.none", voter=v)
            else:
                self._announce("vote.reveal", voter=v, target=SAID.get(choice, choice))
                tally[choice] += 1
        count = "-".join(str(c) for c in sorted(tally.values(), reverse=True)) or "0"
        rec.rounds.append(
            VoteRound(b.kind, {v: b.votes.get(v) for v in b.voters}, {}, list(b.options), count)
        )
        self._announce("vote.count", count=count)
        best = max(tally.values(), default=0)
        top = [o for o in b.options if tally[o] == best] if best > 0 else []
        if not top:
            self._announce("club.nobody_leaves")
            self._end_day()
        elif len(top) > 1:
            if b.kind == "first":
                self._open_vote("revote", tuple(top))
            else:
                self._announce("club.second_tie")
                self._end_day()
        elif top[0] == KEEP:
            self._announce("my.kept")
            self._end_day()
        else:
            self._leaves(top[0])

    def _leaves(self, name: str) -> None:
        assert self.day_record is not None
        rec = self.day_record
        p = self.players[name]
        if self.rules.nominations:
            # Black Knights: the card is turned; a last word of one minute; maybe a repeat vote.
            self.departing = name
            rec.left = name
            rec.revealed = departures.card(p)
            self._announce("bk.leaves", player=name)
            self._announce(f"bk.reveal.{rec.revealed}", player=name)
            self._clock(ClubPhase.LAST_WORD, "last_word", "clock.last_word")
            self._announce("bk.last_word", player=name)
            return
        # Mafia & Yakuza: expelled; the role is not announced.
        rec.left = name
        self._announce("my.expelled", player=name)
        self._finalize_leave(name, "expelled")
        self._end_day()

    def _finalize_leave(self, name: str, how: str) -> None:
        if self.rules.reveal_role:
            self.players[name].revealed = departures.card(self.players[name])
        self._remove([name], how, self.day)
        self.players[name].publicly_out = True
        self._emit(Eliminated(name, how))
        self._move([name], Place.GATE)

    def _after_last_word(self) -> None:
        voters = self._repeat_voters()
        if self.repeat_used or not voters:
            self._depart()
            return
        self.repeat_asks = {}
        self._clock(ClubPhase.REPEAT, "repeat", "clock.repeat")
        for v in voters:
            self._emit(
                Prompt(
                    frozenset({v}),
                    msg("bk.prompt.repeat", player=self.departing or ""),
                    (Choice(msg("bk.repeat.yes").text, AskRepeat(v, True)), Choice(msg("bk.repeat.no").text, AskRepeat(v, False))),
                )
            )

    def _repeat_voters(self) -> list[str]:
        return [n for n in self._living() if n != self.departing] if self.departing else []

    def _apply_repeat(self, name: str, ask: bool) -> None:
        self.repeat_asks[name] = ask
        self._whisper([name], "bk.repeat.noted")
        if all(v in self.repeat_asks for v in self._repeat_voters() if self.players[v].present):
            self._close_repeat()

    def _close_repeat(self) -> None:
        """A majority of the living asks for a repeat → the vote is repeated, the departed back among the
        candidates (at most once a day)."""
        assert self.day_record is not None and self.departing is not None
        voters = self._repeat_voters()
        asks = sum(1 for v in voters if self.repeat_asks.get(v))
        self.day_record.repeat_asks = dict(self.repeat_asks)
        if asks * 2 > len(voters):
            self.repeat_used = True
            self.day_record.repeat = True
            self._announce("bk.repeat", player=self.departing, count=asks)
            self.departing = None
            self.day_record.left = None
            self.day_record.revealed = None
            self._open_vote("first", tuple(self.candidates))
            return
        self._announce("bk.no_repeat", count=asks)
        self._depart()

    def _depart(self) -> None:
        name = self.departing
        assert name is not None
        self.departing = None
        self._finalize_leave(name, "left")
        self._end_day()

    def _end_day(self) -> None:
        if self._win_check():
            return
        if self.day >= self.settings.max_days:
            self._announce("club.day_limit", days=self.day)
            self._end_series(Winner.NOBODY, (), Termination.DAY_LIMIT)
            return
        self._begin_night()

    # ------------------------------------------------------------------ the end

    def _win_check(self) -> bool:
        alive = {p.name: p.role for p in self.players.values() if p.alive}
        if not alive:
            self._end_series(Winner.NOBODY, (), Termination.ALL_DEAD)
            return True
        result = self.rules.win(alive)
        if result is None:
            return False
        self._end_series(result[0], result[1], Termination.FACTION_WON)
        return True

    def _end_series(self, winner: Winner, winners: tuple[str, ...], termination: Termination) -> None:
        self.outcome = Outcome(winner, termination, winners)
        self.record.winner = winner.value
        self.record.termination = termination.value
        for c in self.record.contestants:
            c.winner = c.name in winners
        self.phase = ClubPhase.OVER
        self.deadline = None
        self.ballot = None
        self.pending = []
        if winners:
            self._announce("series.over", winner=term(f"term.winner.{winner.value}"), winners=", ".join(winners))
        else:
            self._announce("series.over.nobody", winner=term(f"term.winner.{winner.value}"))
        for p in self.players.values():
            self._announce(f"{self.rules.prefix}.reveal.{departures.card(p)}", player=p.name)
        self._emit(ShowTitle(msg("title.series_over", winner=term(f"term.winner.{winner.value}"))))
        self._emit(SeriesOver(self.outcome))


def faction_members(alive: Mapping[str, str], roles: Mapping[str, Role], team: str) -> tuple[str, ...]:
    """The living contestants of ``team`` (in the order of ``alive``, seat order)."""
    return tuple(n for n, r in alive.items() if roles[r].team == team)


def _settings_dict(s: ClubSettings) -> dict[str, Any]:
    return {
        "ruleset": s.ruleset,
        "contestants": list(s.contestants),
        "hosts": list(s.hosts),
        "day_execution": s.day_execution,
        "morning_news": s.morning_news,
        "deal": {str(k): list(v) for k, v in sorted(s.deal_table.items())},
        "durations": {k: s.duration(k) for k in CLUB_DURATIONS},
        "max_days": s.max_days,
    }


__all__ = [
    "CLUB_DURATIONS",
    "ClubBallot",
    "ClubDayRecord",
    "ClubGame",
    "ClubNightRecord",
    "ClubPhase",
    "ClubPlayer",
    "ClubRules",
    "ClubSettings",
    "KEEP",
    "Role",
    "Step",
    "faction_members",
]
