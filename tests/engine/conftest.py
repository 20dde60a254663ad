"""Fixtures for engine tests: a series factory and a driver that moves it with host ``Advance``."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from engine.actions import Action, Advance, StartSeries
from engine.game import Game
from engine.ids import Allegiance, Power
from engine.phases import Phase
from engine.settings import DealEntry, Settings

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
    return tuple(
        DealEntry(n, Allegiance.TRAITOR if n in traitors else Allegiance.FAITHFUL) for n in names
    )


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
            settings = Settings(
                contestants=tuple(names), hosts=(HOST,), deal=deal_of(names, traitors), **kw
            )
        d = Driver(Game(settings, seed))
        d.do(StartSeries())
        return d

    return make


__all__ = ["Driver", "HOST", "NAMES12", "Power", "deal_of"]
