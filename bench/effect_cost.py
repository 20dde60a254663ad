"""The share of a series' engine time spent building its effects: how far a cheaper shape of the same effects could
move the engine's throughput (``bench/throughput.py``).

Collects every effect of the throughput series (12 contestants, the demo's settings, random bots; each series
played by ``engine.sim.play_series`` and replayed from its input log through ``RulesetGame.handle``). Then, series
by series (so that both see the machine at the same speed), it times playing the series with
``engine.sim.simulate`` and building each of its effects again from its field values, its message included
(``Message(key, params)``), with no cache and the collector off (they are freed as they are made). The figure is
about what making the effects costs the engine: the rebuild costs more where the engine reuses remembered messages
and announcements (``docs/performance.md``), and less where the engine builds the sets of names that the rebuild
takes as they are. The fingerprint (``bench/fingerprint.py``) hashes every effect's type, fields and values, so a
change that keeps the fingerprint keeps these effects: what is left, the rules deciding them and the bots' loop, is
the rest of the time.

The last line is the figure alone: the rebuild's share of the series' CPU time, in per cent (the median round).

Usage: python bench/effect_cost.py [--series 300] [--rounds 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import statistics
import time
from typing import Any

import checkout  # noqa: I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import demo_settings
from engine.core.step import fed_log
from engine.effects import Message
from engine.rulesets import new_game
from engine.sim import play_series, series_seeds, simulate

Plan = list[tuple[type, list[tuple[bool, Any, Any]]]]
"""Every effect as (its class, its fields in order as (is a message, value or key, message params))."""


class _Recorder:
    """A new game that keeps every effect it returns (what ``fed_log`` feeds)."""

    def __init__(self, settings: Any, seed: int) -> None:
        self.game = new_game(settings, seed)
        self.effects: list[Any] = []

    def handle(self, action: Any, *, now: float) -> list[Any]:
        out = self.game.handle(action, now=now)
        self.effects += out
        return out


def effects_of(settings: Any, seed: int) -> list[Any]:
    """Every effect of the random-bot series ``seed``, in order, replayed from its input log."""
    played, _ = play_series(settings, seed, "random")
    return fed_log(_Recorder(settings, seed), played.log).effects


def plan_of(effects: list[Any]) -> Plan:
    """What ``rebuild`` needs to build each effect anew."""
    plan: Plan = []
    for e in effects:
        fields = []
        for f in dataclasses.fields(e):
            if not f.init:  # a cache beside the value (none on an effect today): not an argument
                continue
            value = getattr(e, f.name)
            fields.append((True, value.key, value.params) if isinstance(value, Message) else (False, value, None))
        plan.append((type(e), fields))
    return plan


def rebuild(plan: Plan) -> None:
    """Build every effect of ``plan`` (and its message) anew."""
    for cls, fields in plan:
        cls(*[Message(v, p) if is_msg else v for is_msg, v, p in fields])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3, help="how many times every series is timed")
    args = parser.parse_args()
    settings = demo_settings(12)
    seeds = series_seeds(1, args.series)
    print(f"engine: {checkout.engine_build()}")
    plans = [plan_of(effects_of(settings, seed)) for seed in seeds]
    shares, series_cpu, effects_cpu = [], [], []
    clock = time.process_time
    for _ in range(args.rounds):
        played = built = 0.0
        gc.collect()
        for seed, plan in zip(seeds, plans, strict=True):  # one series, then its effects: the same machine speed
            cpu = clock()
            simulate(settings, [seed], bots="random")
            played += clock() - cpu
            gc.disable()  # the rebuilt effects are freed one by one; simulate runs the collector seldom too
            cpu = clock()
            rebuild(plan)
            built += clock() - cpu
            gc.enable()
        series_cpu.append(played)
        effects_cpu.append(built)
        shares.append(effects_cpu[-1] / series_cpu[-1] * 100)
    share = statistics.median(shares)
    effects = sum(len(plan) for plan in plans)
    n = args.series
    print(
        f"random bots: {n} series, {min(series_cpu) / n * 1e3:.2f} ms of CPU each (fastest of {args.rounds}); "
        f"{effects / n:.0f} effects each, built anew in {min(effects_cpu) / n * 1e3:.2f} ms "
        f"({min(effects_cpu) / effects * 1e6:.2f} µs an effect); the rounds' shares "
        f"{', '.join(f'{x:.1f}' for x in shares)} %, median {share:.1f} % of a series"
    )
    print(f"{share:.1f}")


if __name__ == "__main__":
    main()
