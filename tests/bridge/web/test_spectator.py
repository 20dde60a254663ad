"""The spectator feed never tells a secret (``bridge/web/spectator.py``; ``docs/host.md``): the random-series leak
property test of ``tests/engine/rulesets/*/test_*secrets.py`` extended to every message the spectator page would
be sent, for 300 seeded random series of each ruleset, driven through the hub as the service drives it."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import pytest

from bridge.loop.service import StepListener
from bridge.web.hub import WebHub
from bridge.web.spectator import DelayLine, SpectatorFeed, public_effects
from engine.actions import Action, Advance, StartSeries
from engine.core.ruleset import RulesetGame
from engine.effects import Announce, Effect, Eliminated, MoveTo, Whisper, msg
from engine.ids import Allegiance, Place
from engine.rulesets import new_game
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings
from engine.views import OutEntry, PublicView

HOST = "Host"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea",
         "Tomas", "Ines", "Yuki", "Bram")  # fmt: skip
SERIES = 300
STEP_LIMIT = 4000
VIEW_FIELDS = {f.name for f in fields(PublicView)}
HOLDER_UNNAMED = ("The Judge protects", "The Sheriff accuses")
"""Public announcements that name a power but never its holder (as in the engine's leak test)."""
PUBLIC_REVEALS = ("bk.reveal.",)
"""Announcements that tell a hand because the rulebook says so while the contestant is still at the table (Black
Knights: the card of the one who leaves is turned before their last word), as the club leak test allows."""


def random_settings(rng: random.Random, ruleset: str) -> Settings | ClubSettings:
    if ruleset != "traitors":
        n = rng.randint(8, 16)
        return ClubSettings(ruleset, NAMES[:n], hosts=(HOST,), day_execution=rng.random() < 0.85,
                            max_days=rng.choice([30, 6]))  # fmt: skip
    n = rng.randint(6, 12)
    return Settings(contestants=NAMES[:n], traitors=rng.randint(1, (n - 1) // 3), hosts=(HOST,),
                    drunk=rng.choice(["none", "possible", "always"]), first_night_murder=rng.random() < 0.3,
                    joker_night=rng.choice([None, 1, 2, 3]))  # fmt: skip


class EngineSeries:
    """A series without a server: each input goes to the engine and its effects to the listeners, as
    ``SeriesService`` does (the hub's ``Followed``)."""

    def __init__(self, game: RulesetGame) -> None:
        self.game = game
        self.listeners: list[StepListener] = []
        self.now = 0.0

    def add_listener(self, listener: StepListener) -> None:
        self.listeners.append(listener)

    async def apply_entry(self, entry: Mapping[str, Any]) -> None:
        raise AssertionError("the spectator test presses no host control")

    def step(self, action: Action) -> list[Effect]:
        self.now += 1.0
        effects = self.game.handle(action, now=self.now)
        for listener in self.listeners:
            listener(effects)
        return effects


def secrets_of(game: Any, name: str) -> set[str]:
    """The words that would tell ``name``'s hand: allegiance, power, false power (The Traitors); role, the card
    dealt, the team (club)."""
    p = game.players[name]
    if game.ruleset == "traitors":
        return {_title(p.allegiance), _title(p.power), _title(p.false_power)} - {None}  # type: ignore[operator]
    roles = game.rules.roles
    return {roles[p.role].title, roles[p.dealt].title, roles[p.role].team}


def _title(value: Any) -> str | None:
    return None if value is None else str(value.title)


def check_message(game: Any, text: str) -> None:
    """One message the spectator page receives, checked against the state after the step that made it."""
    message = json.loads(text)
    kind = message["type"]
    assert kind in ("view", "event", "clock", "record"), kind
    if kind == "record":
        assert game.is_over, "the record (every role) only after the series"
        return
    if kind == "view":
        view = message["view"]
        assert set(view) == VIEW_FIELDS
        for out in view["out"]:
            assert not game.players[out["name"]].alive, f"{out['name']} is shown out while in"
        return
    words = set(re.findall(r"[A-Za-z_]+", message.get("text", "")))
    body = message.get("text", "")
    for prefix in HOLDER_UNNAMED:
        body = body.replace(prefix, "")
    if game.is_over or str(message.get("key", "")).startswith(PUBLIC_REVEALS):
        return
    for name, p in game.players.items():
        if p.alive and name in words:
            for secret in secrets_of(game, name):
                assert secret not in body, f"the spectators learned {name}'s {secret}: {body}"


def play(ruleset: str, seed: int) -> int:
    """One random series; the number of spectator messages checked."""
    rng = random.Random(seed)
    series = EngineSeries(new_game(random_settings(rng, ruleset), seed))
    hub = WebHub(clock=lambda: series.now)
    hub.attach(series)
    page = hub.open_spectator()
    checked = 0
    series.step(StartSeries())
    game: Any = series.game
    for _ in range(STEP_LIMIT):
        while not page.empty():
            check_message(game, page.get_nowait())
            checked += 1
        if game.is_over:
            break
        options: list[Action] = [a for n in game.contestants() for a in game.legal_actions(n)]
        series.step(Advance(HOST) if not options or rng.random() < 0.07 else rng.choice(options))
    assert game.is_over, f"{ruleset} seed {seed}: no end in {STEP_LIMIT} inputs"
    assert hub.spectator.history[-1]["type"] == "record", "after the series: the full record"
    return checked


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
@pytest.mark.parametrize("chunk", range(3))
def test_spectator_feed_tells_no_secret(ruleset: str, chunk: int) -> None:
    """300 random series per ruleset (three chunks of 100): every message, after every input."""
    per = SERIES // 3
    checked = sum(play(ruleset, seed) for seed in range(chunk * per, chunk * per + per))
    assert checked > per * 20, "the series made spectator messages to check"


def test_only_public_effects_pass() -> None:
    """The Turret trip, a whisper and a murder not yet announced never reach the feed; a banishment does."""
    effects: Sequence[Effect] = (
        MoveTo(("Kai", "Zuri"), Place.TURRET),
        Whisper(frozenset({"Kai"}), msg("turret.traitors", traitors="Kai, Zuri")),
        Eliminated("Alex", "murdered", frozenset({"Alex"})),
        Eliminated("Noor", "banished"),
        Announce(msg("banish.reveal", player="Noor", allegiance=Allegiance.FAITHFUL.title)),
    )
    assert public_effects(effects) == [effects[3], effects[4]]


def _view(day: int) -> PublicView:
    return PublicView(day, "night", (("Alex", 1), ("Noor", 2)), ("Alex",), (OutEntry("Noor", "banished", 1, "faithful"),),
                      None, ())  # fmt: skip


def test_the_delay_holds_every_message_back() -> None:
    """A streamer's delay of 30 s: nothing is released before its time, everything after, in order."""
    feed = SpectatorFeed(delay=30)
    feed.update(_view(1), [Eliminated("Noor", "banished")], now=100.0)
    feed.update(_view(2), [], now=110.0)
    assert feed.release(129.9) == []
    first = feed.release(130.0)
    assert [m["type"] for m in first] == ["view", "event"] and first[0]["view"]["day"] == 1
    assert [m["view"]["day"] for m in feed.release(140.0)] == [2]
    assert len(feed.history) == 3


def test_an_unchanged_view_is_not_sent_again() -> None:
    line = DelayLine()
    line.push(1.0, [{"a": 1}])
    assert line.due(1.0) == [{"a": 1}] and line.due(2.0) == [] and len(line) == 0
    feed = SpectatorFeed()
    feed.update(_view(1), [], now=1.0)
    feed.update(_view(1), [], now=2.0)
    assert len(feed.release(2.0)) == 1


def test_a_page_that_connects_late_gets_everything_released() -> None:
    async def run() -> list[str]:
        series = EngineSeries(new_game(random_settings(random.Random(3), "traitors"), 3))
        hub = WebHub(clock=lambda: series.now)
        hub.attach(series)
        series.step(StartSeries())
        return [json.loads(hub.open_spectator().get_nowait())["type"]]

    assert asyncio.run(run()) == ["view"]
