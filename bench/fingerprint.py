"""Behaviour fingerprint: one SHA-256 over hundreds of seeded series of every ruleset, to show that a change of
structure changed no behaviour.

Each series is played by bots through the engine alone (the same driving as ``engine.sim.play_series``), and
everything observable is hashed in order: every effect of every input (what each contestant and the castle were
told), each contestant's view and the public view at every phase change, and at the end the input log (the
store's format), the game record (the game log) and the outcome. Values are reduced to plain data by type name
and field name, so moving a class to another module keeps the fingerprint; renaming a field or changing any
value changes it.

Usage: python bench/fingerprint.py [--series 40] [--verbose]
Prints one line per ruleset and setup (series, inputs, digest) and a total digest; compare the total before and
after a change (``git stash``, run, ``git stash pop``, run).
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import checkout  # noqa: F401 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import demo_settings
from engine.actions import Action, StartSeries, TimerExpired
from engine.bots import make_bot
from engine.effects import Announce, Prompt, Whisper
from engine.rulesets import RULESETS, new_game
from engine.sim import series_seeds

FAMILY_SETUPS: dict[str, tuple[tuple[int, str], ...]] = {
    "traitors": ((8, "random"), (12, "random"), (12, "smart"), (16, "random")),
    "club": ((12, "random"), (12, "smart")),
}
"""Game family (``engine.core.ruleset.Ruleset.family``) → (contestants, bot kind) of each group of series of each
of its rulesets."""

SETUPS: tuple[tuple[str, int, str], ...] = tuple(
    (name, n, kind) for name, r in RULESETS.items() for n, kind in FAMILY_SETUPS[r.family]
)
"""(ruleset, contestants, bot kind) of each group of series, in the registry's order."""


def plain(value: Any) -> Any:
    """``value`` as JSON-ready data: dataclasses and slotted objects by type and field names (the fields that
    take part in equality), enums by value, sets sorted, classes and functions by name."""
    if isinstance(value, enum.Enum):
        return plain(value.value)
    if isinstance(value, Action):  # by the input log's keys: ``actor`` under its ``actor_key`` (``voter``, ...)
        data = value.to_dict()
        del data["action"]
        return {"@": type(value).__name__, **{k: plain(v) for k, v in data.items()}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f for f in dataclasses.fields(value) if f.compare]  # not caches (``Message._text``): they hold
        # what earlier series happened to compute, so hashing them would tie a digest to the groups run before it
        return {"@": type(value).__name__, **{f.name: plain(getattr(value, f.name)) for f in fields}}
    if isinstance(value, dict):
        return {"@dict": sorted(([plain(k), plain(v)] for k, v in value.items()), key=repr)}
    if isinstance(value, (set, frozenset)):
        return {"@set": sorted((plain(v) for v in value), key=repr)}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, type) or callable(value):
        return {"@fn": getattr(value, "__name__", repr(value))}
    if hasattr(value, "to_dict"):
        return plain(value.to_dict())
    if hasattr(value, "__iter__"):
        return [plain(v) for v in value]
    raise TypeError(f"no plain form for {type(value).__name__}")


def _deliver(effects: list[Any], bots: dict[str, Any], asked: set[str]) -> None:
    """Show ``effects`` to the bots (name → bot) that hear them; note in ``asked`` who was prompted."""
    for e in effects:
        if isinstance(e, Prompt):
            asked.update(n for n in e.to if n in bots)
        message = getattr(e, "message", None)
        if message is None:
            continue
        if isinstance(e, (Whisper, Prompt)):
            hearers = [bots[n] for n in e.to if n in bots]
        else:
            hearers = list(bots.values()) if isinstance(e, Announce) else []
        for bot in hearers:
            if message.key in bot.hears:
                bot.observe(message.key, message.english_params)


def _series(ruleset: str, contestants: int, kind: str, seed: int, feed: Callable[[Any], None]) -> int:
    """Play one series, feeding everything observable to ``feed``; returns the inputs taken."""
    game = new_game(demo_settings(contestants, ruleset), seed)
    now = 0.0
    names: list[str] = []
    bots: dict[str, Any] = {}

    def step(action: Any) -> None:
        effects = game.handle(action, now=now)
        feed(["in", action.kind, plain(effects)])
        deliver(effects)

    def deliver(effects: list[Any]) -> None:
        _deliver(effects, bots, asked)

    def phase_views() -> None:
        feed(["phase", game.phase.value if hasattr(game.phase, "value") else game.phase, game.phase_seq, game.day])
        feed(["views", [plain(game.view_for(n)) for n in names]])

    asked: set[str] = set()
    first = game.handle(StartSeries(), now=now)
    names.extend(game.contestants())
    bots.update((n, make_bot(kind, n, random.Random(f"{seed}:{n}"))) for n in names)
    feed(["in", "start_series", plain(first)])
    deliver(first)
    phase_views()
    seq, steps, acted = game.phase_seq, 1, {}  # type: ignore[var-annotated]
    while not game.is_over and steps < 20_000:
        moved = False
        for name in sorted(asked, key=names.index):
            legal = [a for a in game.legal_actions(name) if a.kind not in acted.get(name, ())]
            feed(["legal", name, [plain(a) for a in legal]])
            if not legal:
                continue
            bot = bots[name]
            action = bot.choose(game.view_for(name) if bot.needs_view else None, legal)
            if action is None:
                continue
            acted.setdefault(name, set()).add(action.kind)
            now += 1.0
            step(action)
            steps, moved = steps + 1, True
            if game.phase_seq != seq or game.is_over:
                break
        if not moved and not game.is_over:
            now = max(now + 1.0, game.deadline if game.deadline is not None else now)
            step(TimerExpired(game.phase_seq))
            steps += 1
        if game.phase_seq != seq:
            seq, acted = game.phase_seq, {}
            asked = set(names)
            phase_views()
    feed(["log", plain(list(game.log))])
    feed(["record", plain(game.record)])
    feed(["outcome", plain(game.outcome)])
    return steps


def _feeder(digest: Any) -> Callable[[Any], None]:
    """A function that hashes one observed item (as sorted JSON, one line) into ``digest``."""

    def feed(item: Any) -> None:
        digest.update(json.dumps(item, sort_keys=True, ensure_ascii=False).encode())
        digest.update(b"\n")

    return feed


def fingerprints(series: int) -> Iterator[tuple[str, int, int, str]]:
    """(setup label, series, inputs, hex digest) for each of ``SETUPS``."""
    for ruleset, contestants, kind in SETUPS:
        digest = hashlib.sha256()
        feed = _feeder(digest)
        inputs = sum(_series(ruleset, contestants, kind, s, feed) for s in series_seeds(7, series))
        yield f"{ruleset} {contestants} {kind}", series, inputs, digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=40, help="series per setup (default 40: 320 series in all)")
    args = parser.parse_args()
    total = hashlib.sha256()
    for label, count, inputs, hexdigest in fingerprints(args.series):
        print(f"{label:<24} {count:>4} series {inputs:>8} inputs  {hexdigest[:16]}")
        total.update(hexdigest.encode())
    print(f"total {total.hexdigest()}")


if __name__ == "__main__":
    main()
