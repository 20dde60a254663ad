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

from bridge.loop.recovery import rebuild
from bridge.loop.service import StepListener
from bridge.loop.store import StoredSeries
from bridge.web.hub import WebHub
from bridge.web.rig import HOST, NAMES
from bridge.web.spectator import DelayLine, SpectatorFeed, public_effects
from engine.actions import Action, Advance, StartSeries
from engine.core.ruleset import RulesetGame
from engine.effects import Announce, ClockChanged, ClockStarted, Effect, Eliminated, MoveTo, Whisper, msg
from engine.ids import Allegiance, Place
from engine.rulesets import new_game
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings
from engine.views import OutEntry, PublicView

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
        return ClubSettings(
            ruleset, NAMES[:n], hosts=(HOST,), day_execution=rng.random() < 0.85, max_days=rng.choice([30, 6])
        )
    n = rng.randint(6, 12)
    return Settings(
        contestants=NAMES[:n],
        traitors=rng.randint(1, (n - 1) // 3),
        hosts=(HOST,),
        drunk=rng.choice(["none", "possible", "always"]),
        first_night_murder=rng.random() < 0.3,
        joker_night=rng.choice([None, 1, 2, 3]),
    )


class EngineSeries:
    """A series without a server: each input goes to the engine and its effects to the listeners, as
    ``SeriesService`` does (the hub's ``Followed``)."""

    stored: StoredSeries | None = None
    """No store: a hub follows it from its first step."""
    accepting = True

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
    assert kind in ("now", "view", "event", "clock", "record"), kind
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
    if seed % 10 == 0:  # the feed rebuilt from the store after the end: the same messages, the record last
        rebuilt = WebHub(clock=lambda: series.now)
        rebuilt.attach(Resumed(_stored(game, seed)))
        live = [m for m in json.loads(json.dumps(hub.spectator.history)) if m["type"] != "view"]
        assert [m for m in json.loads(json.dumps(rebuilt.spectator.history)) if m["type"] != "view"] == live
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
    return PublicView(
        day, "night", (("Alex", 1), ("Noor", 2)), ("Alex",), (OutEntry("Noor", "banished", 1, "faithful"),), None, ()
    )


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
        page = hub.open_spectator()
        return [json.loads(page.get_nowait())["type"] for _ in range(page.qsize())]

    kinds = asyncio.run(run())
    assert kinds[:2] == ["now", "view"] and "event" in kinds and "clock" in kinds


def test_a_delayed_clock_counts_down_as_the_castle_did() -> None:
    """A 5 s delay: a 4 s breakfast clock arrives 5 s late with its deadline 5 s later, so the page shows 4 s
    left, as the castle did; a resumed clock likewise; a paused one keeps its seconds left."""
    feed = SpectatorFeed(delay=5)
    feed.update(_view(1), [ClockStarted(1, msg("clock.breakfast"), 4.0, 104.0)], now=100.0)
    feed.update(_view(1), [ClockChanged(2, None, 3.0)], now=101.0)
    feed.update(_view(1), [ClockChanged(3, 105.0, 3.0)], now=102.0)
    started, paused, resumed = [m for m in feed.release(107.0) if m["type"] == "clock"]
    assert started["deadline"] - 105.0 == 4.0
    assert paused == {"type": "clock", "deadline": None, "paused": 3.0}
    assert resumed["deadline"] - 107.0 == 3.0


def _stored(game: RulesetGame, seed: int) -> StoredSeries:
    settings: Any = game.settings
    return StoredSeries(1, "t", game.ruleset, settings, seed, log=[dict(e) for e in game.log])


class Resumed(EngineSeries):
    """A series resumed from its store: the game rebuilt from the log, which the store keeps."""

    def __init__(self, stored: StoredSeries) -> None:
        super().__init__(rebuild(stored).game)
        self.stored = stored
        self.now = float(stored.log[-1]["now"])


def restart_once(ruleset: str, seed: int) -> None:
    """A random series stopped after a random number of inputs, then resumed from its log."""
    rng = random.Random(seed)
    live = EngineSeries(new_game(random_settings(rng, ruleset), seed))
    hub = WebHub(clock=lambda: live.now)
    hub.attach(live)
    live.step(StartSeries())
    game: Any = live.game
    for _ in range(rng.randint(5, 60)):
        options: list[Action] = [a for n in game.contestants() for a in game.legal_actions(n)]
        live.step(Advance(HOST) if not options or rng.random() < 0.07 else rng.choice(options))
        if game.is_over:
            break
    resumed = Resumed(_stored(game, seed))
    again = WebHub(clock=lambda: resumed.now)
    again.attach(resumed)
    page = again.open_spectator()
    texts = [page.get_nowait() for _ in range(page.qsize())]
    seen, shown = [json.loads(t) for t in texts[1:]], json.loads(json.dumps(hub.spectator.history))
    assert [m for m in seen if m["type"] != "view"] == [m for m in shown if m["type"] != "view"]
    views = [m for m in seen if m["type"] == "view"]  # the page open all along saw the castle before the start too
    assert views == [m for m in shown if m["type"] == "view"][-len(views) :]
    assert any(m["type"] == "event" and m["kind"] == "announce" for m in seen)
    for text in texts:
        check_message(resumed.game, text)


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
def test_a_restart_rebuilds_the_spectator_feed_as_it_was(ruleset: str) -> None:
    """A service restarted mid-series: a page that opens then gets what a page open all along got (every
    announcement from before the restart, nothing private: ``check_message`` against the state at the restart)."""
    for seed in range(20):
        restart_once(ruleset, seed)


def test_a_restart_keeps_the_delay_on_the_rebuilt_feed() -> None:
    """With a 30 s delay, what the castle saw in the 30 s before the restart is still held back after it."""
    series = EngineSeries(new_game(random_settings(random.Random(4), "traitors"), 4))
    series.step(StartSeries())
    while len(series.game.log) < 8:
        series.now += 9.0
        series.step(Advance(HOST))
    resumed = Resumed(_stored(series.game, 4))
    hub = WebHub(delay=30, clock=lambda: resumed.now)
    hub.attach(resumed)
    times = [float(e["now"]) for e in series.game.log]
    assert len(hub.spectator.history) > 0 and len(hub.spectator.line) > 0
    resumed.now = times[-1] + 30
    hub.release_spectators()
    assert len(hub.spectator.line) == 0
