"""Engine throughput: 12-contestant Traitors series per second on one core (target ≥ 600; 10,000 series ≤ 20 s)
and peak memory (target ≤ 200 MB).

Each line gives the wall time and the CPU time of this process (``time.process_time``), as milliseconds of CPU per
series: on a shared machine the CPU time is the figure to compare (the aim for smart bots is 4 ms, which is
10,000 series in 20 s on two cores). ``--jobs J`` also plays the series the way ``traitors simulate --jobs J``
does (``bridge.app.simulate.run``: J worker processes) and prints its wall time and the workers' CPU time.

Plays whole series through the engine alone (``engine.sim.play_series``: no I/O) with the demo's 12-contestant
settings (3 Traitors, powers, a possible drunk, the Double Vote on day one, the Joker offered on night two), in
this one process. ``random`` bots (uniform among the legal inputs, no views) measure the engine itself; ``smart``
bots (``engine/bots/suspicion.py``, which build a view for every decision) measure what ``traitors simulate``
does. Peak memory: the process's peak resident set (``resource.getrusage``), and with ``--tracemalloc`` the peak
of Python allocations during the run (slower).

The last line is the figure alone: the CPU milliseconds per series of the last bot kind measured in this process
(``--bots random``: the engine's figure; ``--bots smart``: the balance lab's), for a script that compares runs.

Usage: python bench/throughput.py [--series 10000] [--bots random smart] [--tracemalloc] [--jobs J]
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

import checkout  # noqa: I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import demo_settings
from bridge.app.simulate import run
from engine.sim import series_seeds, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=10_000)
    parser.add_argument("--bots", nargs="*", default=["random", "smart"])
    parser.add_argument("--tracemalloc", action="store_true", help="also report the peak of Python allocations")
    parser.add_argument("--jobs", type=int, default=0, help="also play them in J worker processes (traitors simulate)")
    args = parser.parse_args()
    settings = demo_settings(12)
    seeds = series_seeds(1, args.series)
    print(f"engine: {checkout.engine_build()}")
    figure = 0.0
    for bots in args.bots:
        if args.tracemalloc:
            tracemalloc.start()
        start, cpu = time.perf_counter(), time.process_time()
        tally = simulate(settings, seeds, bots=bots)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        peak = ""
        if args.tracemalloc:
            peak = f", traced peak {tracemalloc.get_traced_memory()[1] / 1e6:.1f} MB"
            tracemalloc.stop()
        print(
            f"{bots:>6} bots: {args.series} series in {elapsed:6.1f} s = {args.series / elapsed:6.0f} series/s "
            f"({tally.inputs / elapsed:,.0f} inputs/s, {tally.inputs / tally.series:.0f} inputs per series){peak}; "
            f"CPU {cpu:.1f} s = {cpu / args.series * 1000:.1f} ms per series"
        )
        figure = cpu / args.series * 1000
        if args.jobs:
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            run(settings, seeds, bots=bots, jobs=args.jobs)
            elapsed = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
            print(
                f"{bots:>6} bots, --jobs {args.jobs}: {args.series} series in {elapsed:6.1f} s wall, "
                f"workers' CPU {used:.1f} s = {used / args.series * 1000:.1f} ms per series"
            )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of the process: {rss:.0f} MB (target <= 200 MB)")
    print(f"{figure:.2f}")


if __name__ == "__main__":
    main()
