"""Benchmark: what checking the store on open costs (``PRAGMA quick_check``, ``bridge/loop/store.py`` house rule 6).

Builds the store ``bench/resume.py`` builds (a 12-contestant series with a 2,000-input log and its outbox), then
opens it ``--runs`` times with ``SeriesStore`` (recognising the file, ``quick_check``, setting the journal up)
and times ``PRAGMA quick_check`` alone on a plain connection. Prints the medians in milliseconds.

Usage: python bench/store_open.py [--inputs 2000] [--runs 20]
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from resume import build_store

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.loop.store import SeriesStore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "series.db"
        n = build_store(db, args.inputs)
        opens, checks = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            SeriesStore(db).close()
            opens.append(time.perf_counter() - t)
            plain = sqlite3.connect(db)
            t = time.perf_counter()
            plain.execute("PRAGMA quick_check(20)").fetchall()
            checks.append(time.perf_counter() - t)
            plain.close()
        print(f"store: {n} inputs, {db.stat().st_size / 1e6:.1f} MB")
        print(f"SeriesStore open (with quick_check): median {statistics.median(opens) * 1e3:.1f} ms")
        print(f"PRAGMA quick_check alone: median {statistics.median(checks) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
