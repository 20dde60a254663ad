"""Racing against equal allocation: the series and the time ``traitors balance`` spends to pin down the best few
setups to the same precision, and whether both give the same answer (``docs/simulate.md#traitors-balance``).

Runs the search on the same setups and seed with ``--strategy race`` and ``--strategy equal`` and prints, for
each, the series spent, the wall-clock and CPU seconds (this process and its workers) and the best ``--keep``
setups with their intervals; then whether the answers are the same (``bridge.app.balance.differences``: racing's
best few are within ``--precision`` of equal allocation's by equal allocation's own measurements, and their
rates agree within ``--precision``). Exit code 1 when they differ. ``--plot`` and ``--json`` write racing's
result as ``traitors balance`` would. ``--throughput N`` also times N smart-bot series of the demo's series.

Usage: python bench/balance_search.py [--ruleset traitors] [--contestants 12] [--bots random] [--jobs 2]
                                      [--precision 0.02] [--keep 3] [--fix drunk=none] [--seed 1]
                                      [--skip-equal] [--plot FILE.png] [--json FILE.json] [--throughput 10000]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import sys
import time

import checkout  # noqa: F401 - this checkout's engine and bridge, not an installed copy
from bridge.app.balance import Arm, Search, differences, kept, search, to_json
from bridge.app.balance_plot import plot
from bridge.app.balance_run import runner
from bridge.app.balance_setups import setups_for
from bridge.app.demo_settings import demo_settings
from bridge.app.simulate import run
from engine.rulesets import DEFAULT_RULESET
from engine.sim import series_seeds


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and of its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def timed_search(args: argparse.Namespace, opts: Search) -> tuple[list[Arm], float, float]:
    """(arms, wall seconds, CPU seconds) of one search (the workers are stopped before the CPU is read)."""
    setups = setups_for(args.ruleset, args.contestants, dict(p.split("=", 1) for p in args.fix))
    t0, c0 = time.perf_counter(), cpu_seconds()
    workers = runner(args.jobs)
    try:
        arms = search(setups, opts, workers, ruleset=args.ruleset)
    finally:
        workers.close()
    return arms, time.perf_counter() - t0, cpu_seconds() - c0


def write(data: dict[str, object], args: argparse.Namespace) -> None:
    """Racing's result into ``--json`` and ``--plot``, when asked for."""
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=2)
    if args.plot:
        plot(data, args.plot)


def main() -> int:
    """Print the comparison; 1 when the answers differ."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=DEFAULT_RULESET)
    ap.add_argument("--contestants", type=int, default=12)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--precision", type=float, default=0.02)
    ap.add_argument("--keep", type=int, default=3)
    ap.add_argument("--fix", action="append", default=[], metavar="KNOB=VALUE", help="as for traitors balance")
    ap.add_argument("--skip-equal", action="store_true", help="only the racing search")
    ap.add_argument("--plot", metavar="FILE.png", help="draw racing's result (traitors balance --plot)")
    ap.add_argument("--json", metavar="FILE.json", help="write racing's result (traitors balance --json)")
    ap.add_argument("--throughput", type=int, default=0, help="also time this many smart-bot series")
    args = ap.parse_args()
    opts = Search(precision=args.precision, keep=args.keep, bots=args.bots, seed=args.seed)
    n = len(setups_for(args.ruleset, args.contestants, dict(p.split("=", 1) for p in args.fix)))
    print(
        f"{args.ruleset}, {args.contestants} contestants, {n} setups, bots {args.bots}, seed {args.seed}, "
        f"precision ±{100 * args.precision:g} %, best {args.keep}, --jobs {args.jobs}",
        flush=True,
    )
    results: dict[str, list[Arm]] = {}
    for strategy in ("race",) if args.skip_equal else ("race", "equal"):
        arms, wall, cpu = timed_search(args, dataclasses.replace(opts, strategy=strategy))
        results[strategy] = arms
        print(f"\n{strategy}: {sum(a.series for a in arms)} series in {wall:.0f} s ({cpu:.0f} s of CPU)")
        for a in kept(arms, opts):
            lo, hi = a.interval()
            print(f"  {100 * a.rate():5.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]  {a.series:>5} series  {a.setup.label}")
        sys.stdout.flush()
        if strategy == "race":  # written before the (longer) baseline runs
            write(to_json(arms, opts, ruleset=args.ruleset, contestants=args.contestants), args)
    status = 0
    if "equal" in results:
        race, equal = (sum(a.series for a in results[k]) for k in ("race", "equal"))
        problems = differences(results["race"], results["equal"], opts)
        print(f"\nracing spent {equal / race:.1f} times fewer series; the same answer: {'no' if problems else 'yes'}")
        for line in problems:
            print(f"  {line}")
        status = 1 if problems else 0
    if args.throughput:
        settings = demo_settings(args.contestants, args.ruleset)
        t0 = time.perf_counter()
        tally = run(settings, series_seeds(1, args.throughput), bots="smart", jobs=args.jobs)
        dt = time.perf_counter() - t0
        print(
            f"\n{tally.series} smart-bot series with --jobs {args.jobs}: {dt:.1f} s ({tally.series / dt:.0f} per second)"
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
