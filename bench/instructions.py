"""Engine cost in machine instructions per 12-contestant series: a figure that does not move with the machine's load.

The series of ``bench/throughput.py`` (the demo's settings, ``random`` bots by default) are played under
``valgrind --tool=callgrind``, which counts every instruction the interpreter executes. The process plays
``--series`` series, then plays none; the difference, divided by the series, is the cost of a series without the
interpreter's start-up and the imports. The same code, series and Python give the same count on every run, so two
versions of the engine can be compared with one run each, even on a shared machine (wall-clock figures there
vary by 5-10 % from run to run). Slow: callgrind runs the interpreter about 50 times slower (100 series take about
a minute). Needs valgrind (Debian's ``valgrind`` package).

Usage: python bench/instructions.py [--series 100] [--bots random]
(``CASTLE_BENCH_INSTALLED=1``: the installed project's engine instead of this checkout's: ``bench/checkout.py``.)
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from checkout import INSTALLED, ROOT

PLAY = """
import sys
from bridge.app.demo import demo_settings
from engine.sim import series_seeds, simulate
settings = demo_settings(12)
simulate(settings, series_seeds(1, 5), bots=sys.argv[2])  # the same warm-up in both runs: caches, imports
simulate(settings, series_seeds(1, int(sys.argv[1])), bots=sys.argv[2])
import engine.rulesets.traitors.game
print(engine.rulesets.traitors.game.__file__)
"""


def instructions(series: int, bots: str) -> int:
    """Instructions executed by a Python process that plays ``series`` series (callgrind's total).

    Raises:
        RuntimeError: valgrind failed or printed no total.
    """
    python = [sys.executable, "-P"] if INSTALLED else [sys.executable]  # -P: not the working folder first
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *python, "-c", PLAY, str(series), bots],
        capture_output=True,
        text=True,
        cwd=ROOT,  # the played series import this checkout's engine (``-c`` puts the working folder first)
    )
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode != 0 or found is None:
        raise RuntimeError(f"valgrind failed ({run.returncode}): {run.stderr[-2000:]}")
    engine = run.stdout.strip()
    print(f"engine: {Path(engine).parent}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=100)
    parser.add_argument("--bots", default="random", help="random, simple or smart (engine.bots.BOTS)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    full, empty = instructions(args.series, args.bots), instructions(0, args.bots)
    per = (full - empty) / args.series
    print(f"{args.bots} bots: {per / 1e6:.2f} M instructions per series ({args.series} series; {full:,} - {empty:,})")


if __name__ == "__main__":
    main()
