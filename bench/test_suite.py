"""Benchmark: the README's test command (``.venv/bin/python -m pytest``), its wall time and its CPU time.

Runs the command from the checkout's root with the Python running this script (the checkout's venv), as the
README and CI (``.ci/run``) run it: pyproject.toml's ``addopts`` give it pytest-xdist workers (``-n auto``: one
more than the machine's cores) and ``tests/conftest.py`` counts them and schedules the tests. The CPU time is the
user + system time of the command and of every process it waited for (the xdist workers, the ``traitors``
processes and Node processes the tests start); it moves much less than the wall time when other work shares the
machine, so the load average before and after is printed too: a wall time measured beside other work is not the
suite's.

Each run prints its pytest summary (``N passed in …``), wall and CPU time; the last line is the median wall time
in seconds, alone.

Usage: python bench/test_suite.py [--runs 1] [-- PYTEST ARGUMENTS…]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def children_cpu() -> float:
    """User + system seconds of every child process waited for so far (and of the processes they waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(extra: list[str]) -> tuple[float, float, int, str, list[str]]:
    """Run the test command once; returns (wall seconds, CPU seconds, exit code, pytest's summary line, the
    ``FAILED``/``ERROR`` lines of its short summary)."""
    cpu, started = children_cpu(), time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfE", *extra], cwd=ROOT, capture_output=True, text=True
    )
    wall = time.monotonic() - started
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    summary = lines[-1].strip("= ") if lines else proc.stderr.strip()[-300:]
    failures = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    return wall, children_cpu() - cpu, proc.returncode, summary, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="how many times to run the suite (default 1)")
    parser.add_argument("pytest_args", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; `python -m pytest` in {ROOT}", flush=True)
    walls = []
    failed = 0
    for run in range(1, args.runs + 1):
        load = os.getloadavg()[0]
        wall, cpu, code, summary, failures = run_once(args.pytest_args)
        walls.append(wall)
        failed += code != 0
        print(
            f"run {run}: {summary}; wall {wall:.1f} s, CPU {cpu:.1f} s; load average {load:.1f} before, "
            f"{os.getloadavg()[0]:.1f} after",
            flush=True,
        )
        for line in failures:
            print(f"  {line}", flush=True)
    if failed:
        print(f"{failed} of {args.runs} runs failed", file=sys.stderr)
    print(f"{statistics.median(walls):.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
