"""Racing against equal allocation: the series and the time ``traitors balance`` spends to pin down the best few
setups to the same precision (``docs/simulate.md#traitors-balance``).

Runs the search twice on the same setups and seed, ``--strategy race`` and ``--strategy equal``, and prints for
each the series spent, the seconds, and the best ``--keep`` setups with their intervals (the same setups should
come out on top). Then plays ``--throughput`` series of the demo's series with smart bots in ``--jobs`` processes
and prints the series per second.

Usage: python bench/balance_search.py [--ruleset traitors] [--contestants 12] [--bots random] [--jobs 2]
                                      [--precision 0.02] [--keep 3] [--fix drunk=none] [--skip-equal]
                                      [--throughput 10000]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import checkout  # noqa: F401 - this checkout's engine and bridge, not an installed copy
from bridge.app.balance import Search, ranked, search
from bridge.app.balance_run import runner
from bridge.app.balance_setups import setups_for
from bridge.app.demo import demo_settings
from bridge.app.simulate import run
from engine.sim import series_seeds


def main() -> None:
    """Print the comparison."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="traitors")
    ap.add_argument("--contestants", type=int, default=12)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--precision", type=float, default=0.02)
    ap.add_argument("--keep", type=int, default=3)
    ap.add_argument("--fix", action="append", default=[], metavar="KNOB=VALUE", help="as for traitors balance")
    ap.add_argument("--skip-equal", action="store_true", help="only the racing search")
    ap.add_argument("--throughput", type=int, default=0, help="also time this many smart-bot series")
    args = ap.parse_args()
    setups = setups_for(args.ruleset, args.contestants, dict(p.split("=", 1) for p in args.fix))
    opts = Search(precision=args.precision, keep=args.keep, bots=args.bots)
    print(f"{args.ruleset}, {args.contestants} contestants, {len(setups)} setups, bots {args.bots}, "
          f"precision ±{100 * args.precision:.0f} %, best {args.keep}, --jobs {args.jobs}")  # fmt: skip
    for strategy in ("race",) if args.skip_equal else ("race", "equal"):
        t0 = time.perf_counter()
        workers = runner(args.jobs)
        try:
            arms = search(setups, dataclasses.replace(opts, strategy=strategy), workers, ruleset=args.ruleset)
        finally:
            workers.close()
        dt = time.perf_counter() - t0
        print(f"\n{strategy}: {sum(a.series for a in arms)} series in {dt:.0f} s")
        for a in ranked(arms, opts.target)[: args.keep]:
            lo, hi = a.interval()
            print(f"  {100 * a.rate():5.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]  {a.series:>5} series  {a.setup.label}")
    if args.throughput:
        settings = demo_settings(args.contestants, args.ruleset)
        t0 = time.perf_counter()
        tally = run(settings, series_seeds(1, args.throughput), bots="smart", jobs=args.jobs)
        dt = time.perf_counter() - t0
        print(f"\n{tally.series} smart-bot series with --jobs {args.jobs}: {dt:.1f} s ({tally.series / dt:.0f} per second)")


if __name__ == "__main__":
    main()
