"""Fixtures for engine tests: a series factory and a driver that moves it with host ``Advance``."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from engine.actions import (
    Action,
    Advance,
    AskRepeat,
    CastVote,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    SkipPower,
    StartSeries,
    TimerExpired,
    UsePower,
)
from engine.ids import Allegiance, Power
from engine.rulesets import new_game
from engine.rulesets.club.settings import KEEP, ClubPhase, ClubSettings
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings

HOST = "Host"
NAMES12 = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")


class Driver:
    """Drives one series: ``do`` applies an input at a clock that advances one second per call."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.now = 0.0
        self.effects: list[Any] = []

    def do(self, action: Action) -> list[Any]:
        self.now += 1.0
        fx = self.game.handle(action, now=self.now)
        self.effects.extend(fx)
        return fx

    def advance(self) -> list[Any]:
        return self.do(Advance(HOST))

    def until(self, phase: Phase, limit: int = 50) -> None:
        """Advance until the series is in ``phase`` (host moves on; nobody acts)."""
        for _ in range(limit):
            if self.game.phase is phase:
                return
            self.advance()
        raise AssertionError(f"never reached {phase}; at {self.game.phase}")

    def snapshot(self) -> Any:
        g = self.game
        return copy.deepcopy(
            (
                g.record.to_dict(),
                g.log,
                g.phase,
                g.phase_seq,
                g.day,
                g.inbox,
                g.items,
                {n: (p.alive, p.allegiance, p.power, p.sworn) for n, p in g.players.items()},
                g.ballot,
                g.torches,
                g.rng.getstate(),
            )
        )


def deal_of(names: Sequence[str], traitors: Sequence[str]) -> tuple[DealEntry, ...]:
    """An explicit deal without powers: ``traitors`` are Traitors, the rest Faithful."""
    return tuple(DealEntry(n, Allegiance.TRAITOR if n in traitors else Allegiance.FAITHFUL) for n in names)


@pytest.fixture
def series() -> Callable[..., Driver]:
    """Factory: ``series(names=…, traitors=[…] or count, seed=…, **settings)`` → a started ``Driver``."""

    def make(
        names: Sequence[str] = NAMES12,
        traitors: Sequence[str] | int = ("Sunny", "Efe", "Makena"),
        seed: int = 7,
        **kw: Any,
    ) -> Driver:
        if isinstance(traitors, int):
            settings = Settings(contestants=tuple(names), traitors=traitors, hosts=(HOST,), **kw)
        else:
            kw.setdefault("powers", False)
            settings = Settings(contestants=tuple(names), hosts=(HOST,), deal=deal_of(names, traitors), **kw)
        d = Driver(Game(settings, seed))
        d.do(StartSeries())
        return d

    return make


# ---------------------------------------------------------------- club rulesets (Black Knights, Mafia & Yakuza)


MONK = "Monk"
BK8 = (
    ("Alex", "courtesan"),
    ("Kai", "grey_cardinal"),
    ("Zuri", "black_knight"),
    ("Steve", "mad_knight"),
    ("Ari", "lord"),
    ("Noor", "heir"),
    ("Sunny", "healer"),
    ("Efe", "white_knight"),
)
MY14 = (
    ("Alex", "don"),
    ("Kai", "mafioso"),
    ("Zuri", "poisoner"),
    ("Steve", "oyabun"),
    ("Ari", "yakuza"),
    ("Noor", "sapper"),
    ("Sunny", "commissar"),
    ("Efe", "priest"),
    ("Makena", "doctor"),
    ("Lena", "shaman"),
    ("Omar", "mistress"),
    ("Rhea", "citizen"),
    ("Tomas", "maniac"),
    ("Ines", "bomber"),
)


class ClubDriver:
    def __init__(self, ruleset: str, deal: tuple[tuple[str, str], ...], seed: int = 1, **kw: Any) -> None:
        settings = ClubSettings(ruleset, tuple(n for n, _ in deal), hosts=(MONK,), deal=deal, **kw)
        self.game = new_game(settings, seed)
        self.now = 0.0
        self.effects: list[Any] = []
        self.do(StartSeries())
        self.wait_for_actors()

    def do(self, action: Action) -> list[Any]:
        self.now += 1.0
        fx = self.game.handle(action, now=self.now)
        self.effects += fx
        return fx

    def expire(self) -> list[Any]:
        """The phase clock runs out: time jumps to its deadline."""
        self.now = max(self.now, self.game.deadline or self.now)
        fx = self.game.handle(TimerExpired(self.game.phase_seq), now=self.now)
        self.effects += fx
        return fx

    def wait_for_actors(self) -> None:
        """Let the night's steps nobody is asked in run out (every step takes its whole clock), up to the first
        step with someone to ask, or the morning."""
        while self.phase is ClubPhase.NIGHT and not self.game.pending:
            self.expire()

    def advance(self) -> list[Any]:
        return self.do(Advance(MONK))

    @property
    def phase(self) -> ClubPhase | None:
        return self.game.phase

    def night(self, picks: Mapping[str, Mapping[str, str | None]] | None = None) -> None:
        """Play the night: ``picks[step][actor]`` = target (``None``/absent: pass). A blocked contestant, who
        is not asked, goes back to sleep whatever ``picks`` says."""
        picks = picks or {}
        assert self.phase is ClubPhase.NIGHT, self.phase
        while self.phase is ClubPhase.NIGHT:
            step = self.game.current_step().name
            for a in list(self.game.pending):
                t = None if a in self.game.blocked else picks.get(step, {}).get(a)
                self.do(UsePower(a, t) if t is not None else SkipPower(a))
            self.expire()

    def to_day(self) -> None:
        """From the morning, move on to the speeches (Black Knights) or the discussion (Mafia & Yakuza)."""
        assert self.phase is ClubPhase.MORNING, self.phase
        self.advance()

    def discussion(self) -> None:
        """Mafia & Yakuza: the host moves on through every contestant's turn to speak, to the vote."""
        assert self.phase is ClubPhase.DISCUSSION, self.phase
        while self.phase is ClubPhase.DISCUSSION:
            self.advance()

    def speeches(self, noms: Mapping[str, str | None]) -> None:
        while self.phase is ClubPhase.SPEECH:
            s = self.game.speaker
            t = noms.get(s)
            self.do(NominateCandidate(s, t) if t is not None else HoldBack(s))

    def vote(self, votes: Mapping[str, str]) -> None:
        """Cast ``votes`` (target ``"keep everyone"`` = keep); close the vote when someone did not vote."""
        assert self.phase is ClubPhase.VOTE, self.phase
        seq = self.game.phase_seq
        for v, t in votes.items():
            self.do(KeepEveryone(v) if t == KEEP else CastVote(v, t))
        if self.game.phase_seq == seq and self.phase is ClubPhase.VOTE:
            self.advance()

    def repeat(self, asks: Mapping[str, bool]) -> None:
        assert self.phase is ClubPhase.REPEAT, self.phase
        seq = self.game.phase_seq
        for v, a in asks.items():
            self.do(AskRepeat(v, a))
        if self.game.phase_seq == seq and self.phase is ClubPhase.REPEAT:
            self.advance()

    def alive(self) -> set[str]:
        return {n for n, p in self.game.players.items() if p.alive}

    def told(self, name: str) -> list[str]:
        """Message keys ``name`` received (whispers and prompts addressed to them, and announcements)."""
        out = []
        for e in self.effects:
            to = getattr(e, "to", None)
            m = getattr(e, "message", None)
            if m is not None and (to is None or name in to):
                out.append(m.key)
        return out

    def said(self) -> list[tuple[str, dict[str, str]]]:
        """Public announcements: (key, params)."""
        from engine.effects import Announce

        return [(e.message.key, dict(e.message.params)) for e in self.effects if isinstance(e, Announce)]


@pytest.fixture
def club() -> type[ClubDriver]:
    """``club(ruleset, deal, seed=1, **settings)`` → a started ``ClubDriver``."""
    return ClubDriver


@pytest.fixture
def bk8() -> tuple[tuple[str, str], ...]:
    """The eight-contestant Black Knights deal, one of each role: (name, role code) in seat order."""
    return BK8


@pytest.fixture
def my14() -> tuple[tuple[str, str], ...]:
    """The fourteen-contestant Mafia & Yakuza deal, one of each role but the citizens: (name, role code)."""
    return MY14


__all__ = ["BK8", "ClubDriver", "Driver", "HOST", "MONK", "MY14", "NAMES12", "Power", "deal_of"]
