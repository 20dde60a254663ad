"""Benchmark: time from process start to ready for a series with a 2,000-input log (target ≤ 0.3 s on a quiet machine).

Builds a store holding a 12-contestant series played by the engine's rules to the finale, where the
finalists keep changing torches until the log holds 2,000 inputs (every input with its rendered, sent
outbox, as the service stores it). Then it starts a sandbox server (``traitors sandbox``) and, several
times, ``traitors serve-demo`` against the store, timing from ``Popen`` to the ``ready`` line (the store
loaded, the log replayed, the world re-synced over RCON, the clock armed). It also times the in-process part
(load + replay) alone.

The sandbox's players start with empty inventories, so the first start gives every castle item (and the
sandbox parses its first commands); later starts find the items held, as after a crash of the service alone.
The times of every run are printed, the first one apart, with the CPU time the service process used up to
``ready`` (user + system; what to compare on a busy machine, where the wall time waits for the cores).

A breakdown of the CPU time to ``ready`` follows, each part measured in fresh processes (medians): the interpreter's
own start (``python -c pass``), the imports ``serve-demo`` makes before it opens the store (the command line, the
demo and service modules, the default castle), opening and loading the store, replaying the log, and what is left
of the CPU time to ``ready`` (the connection, the inventory reads and the re-sync sent, the clock armed).

Every Python process started here reads and writes compiled bytecode in a cache of its own (``PYTHONPYCACHEPREFIX``,
filled by an untimed start first), as a service installed with ``pip install .`` finds its modules compiled.
``--no-bytecode-cache`` starts them with ``PYTHONDONTWRITEBYTECODE=1`` and no cache instead, so every module of the
checkout is compiled from source at every start (a checkout run in place where bytecode is never written).

``--compare COMMIT`` runs this same script on a temporary worktree of COMMIT first and prints both. The last line
is the figure alone: the median wall time to ready, in milliseconds.

Usage: python bench/resume.py [--inputs 2000] [--runs 5] [--compare COMMIT] [--no-bytecode-cache]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import checkout  # noqa: I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import DEMO_DURATIONS, demo_settings
from bridge.config.castle import default_castle
from bridge.loop.recovery import Handouts, rebuild
from bridge.loop.store import SeriesStore
from bridge.minecraft.render import RenderContext, render, render_give_once
from engine.actions import ChooseTorch, StartSeries, TimerExpired
from engine.effects import GiveItem
from engine.ids import Torch
from engine.rulesets import new_game

ROOT = Path(__file__).resolve().parents[1]


def build_store(path: Path, inputs: int, seed: int = 3) -> int:
    """Store a series whose log holds exactly ``inputs`` inputs; returns the log length."""
    settings = dataclasses.replace(demo_settings(12), durations={**DEMO_DURATIONS, "torches": 3600.0})
    rng = random.Random(seed)
    store = SeriesStore(path)
    series = store.create(settings, seed)
    game: Any = new_game(settings, seed)  # The Traitors' game: its finalists are ``game.torches``
    handouts = Handouts(series.tag)
    ctx = RenderContext(default_castle(), {n: i for i, n in enumerate(settings.contestants, start=1)})
    now = time.time() - 3000.0

    def step(action: object) -> None:
        nonlocal now
        now += 1.0
        effects = game.handle(action, now=now)  # type: ignore[arg-type]
        ids = handouts.feed(effects)
        commands = [
            c.text
            for e, gid in zip(effects, ids, strict=False)
            for c in (render_give_once(e, gid) if isinstance(e, GiveItem) and gid else render(e, ctx))
        ]
        store.record(
            series,
            entry=game.log[-1],
            commands=commands,
            phase_seq=game.phase_seq,
            deadline=game.deadline,
            over=game.is_over,
        )

    step(StartSeries())
    while len(game.log) < inputs and not game.is_over:
        if game.phase is not None and game.phase.value == "torches":
            finalist = rng.choice(list(game.torches))
            step(ChooseTorch(finalist, rng.choice(list(Torch))))
            continue
        legal = [a for n in game.contestants() for a in game.legal_actions(n)]
        step(rng.choice(legal) if legal else TimerExpired(game.phase_seq))
    store.db.execute("UPDATE outbox SET sent=1")
    store.close()
    return len(game.log)


_BREAKDOWN = """
import sys, time
sys.path.insert(0, sys.argv[2])
t0 = time.process_time()
import asyncio, bridge.app.cli, bridge.app.demo, bridge.app.stored, bridge.loop.faults, bridge.loop.runner
from bridge.config.castle import default_castle
default_castle()
t1 = time.process_time()
from bridge.loop.recovery import rebuild
from bridge.loop.store import SeriesStore
store = SeriesStore(sys.argv[1])
series = store.load(store.latest())
t2 = time.process_time()
rebuild(series)
t3 = time.process_time()
print(t0, t1 - t0, t2 - t1, t3 - t2)
"""
"""Run in a fresh process: the CPU seconds to start, to import what ``serve-demo`` imports before it opens the
store, to open and load the store, and to replay the log."""


def python_env(tmp: Path, cache: bool) -> dict[str, str]:
    """The environment of the Python processes measured: a bytecode cache under ``tmp`` (``cache``), or none."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    if cache:
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def breakdown(db: Path, runs: int, env: dict[str, str]) -> dict[str, float]:
    """The parts of the start-up's CPU time (seconds, medians of ``runs`` fresh processes; see the module doc)."""
    starts, parts = [], []
    subprocess.run(
        [sys.executable, "-c", _BREAKDOWN, str(db), str(ROOT)], cwd=ROOT, check=True, env=env, capture_output=True
    )
    for _ in range(runs):
        proc = subprocess.Popen([sys.executable, "-c", "pass"], cwd=ROOT, env=env)
        usage = os.wait4(proc.pid, 0)[2]
        proc.returncode = 0
        starts.append(usage.ru_utime + usage.ru_stime)
        done = subprocess.run(
            [sys.executable, "-c", _BREAKDOWN, str(db), str(ROOT)],
            cwd=ROOT,
            check=True,
            env=env,
            capture_output=True,
            text=True,
        )
        parts.append([float(x) for x in done.stdout.split()])
    return {
        "start": statistics.median(starts),
        "imports": statistics.median(p[1] for p in parts),
        "open": statistics.median(p[2] for p in parts),
        "replay": statistics.median(p[3] for p in parts),
    }


def measure(inputs: int, runs: int, cache: bool = True) -> dict[str, float | int]:
    """Build the store, then time ``runs`` starts of ``traitors serve-demo`` (wall and CPU seconds, each run)."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "series.db"
        n = build_store(db, inputs)
        loads = []
        for _ in range(runs):
            t = time.perf_counter()
            with SeriesStore(db) as store:
                rebuild(store.load(1))
            loads.append(time.perf_counter() - t)
        env = python_env(Path(tmp), cache)
        parts = breakdown(db, runs, env)
        pw = Path(tmp) / "pw"
        pw.write_text("bench-password")
        pw.chmod(0o600)
        sandbox = subprocess.Popen(
            [sys.executable, "-m", "bridge.app.cli", "sandbox", "--password-file", str(pw), "--bots", "12"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
        )
        try:
            assert sandbox.stdout is not None
            port = int(sandbox.stdout.readline().rsplit(":", 1)[1])
            times, cpus = [], []
            for _ in range(runs):
                t = time.perf_counter()
                proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "bridge.app.cli",
                        "serve-demo",
                        "--db",
                        str(db),
                        "--port",
                        str(port),
                        "--password-file",
                        str(pw),
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                    env=env,
                )
                assert proc.stdout is not None
                while True:
                    select.select([proc.stdout], [], [], 30)
                    line = proc.stdout.readline()
                    if line.startswith("ready ") or not line:
                        break
                times.append(time.perf_counter() - t)
                proc.kill()
                usage = os.wait4(proc.pid, 0)[2]
                proc.returncode = -9
                cpus.append(usage.ru_utime + usage.ru_stime)
                if not line:
                    raise SystemExit("serve-demo exited before it was ready")
        finally:
            sandbox.terminate()
            sandbox.wait()
    return {
        "inputs": n,
        "load_replay": statistics.median(loads),
        "wall": statistics.median(times),
        "wall_min": min(times),
        "cpu": statistics.median(cpus),
        "first": times[0],
        "later": statistics.median(times[1:]) if len(times) > 1 else times[0],
        **parts,
    }


def show(name: str, r: dict[str, float | int]) -> None:
    print(
        f"{name}: {r['inputs']} inputs; in-process load + replay {r['load_replay'] * 1e3:.0f} ms; process start -> "
        f"ready: median {r['wall'] * 1e3:.0f} ms wall (min {r['wall_min'] * 1e3:.0f}; first start "
        f"{r['first'] * 1e3:.0f}, later starts {r['later'] * 1e3:.0f}), {r['cpu'] * 1e3:.0f} ms of CPU"
    )
    rest = r["cpu"] - r["start"] - r["imports"] - r["open"] - r["replay"]
    print(
        f"  CPU breakdown: interpreter start {r['start'] * 1e3:.0f} ms, imports {r['imports'] * 1e3:.0f} ms, store "
        f"open + load {r['open'] * 1e3:.0f} ms, replay {r['replay'] * 1e3:.0f} ms, connect + re-sync (the rest) "
        f"{rest * 1e3:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--compare", metavar="COMMIT", help="also measure COMMIT (a temporary worktree of it)")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="compile every module from source at every start (PYTHONDONTWRITEBYTECODE=1, no cache)",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    argv = ["--inputs", str(args.inputs), "--runs", str(args.runs), "--json"]
    argv += ["--no-bytecode-cache"] if args.no_bytecode_cache else []
    before = json.loads(checkout.run_on_commit(args.compare, __file__, argv).splitlines()[-1]) if args.compare else None
    now = measure(args.inputs, args.runs, cache=not args.no_bytecode_cache)
    if args.json:
        print(json.dumps(now))
        return
    if before is not None:
        show(args.compare, before)
    show("this checkout", now)
    print(f"{now['wall'] * 1e3:.0f}")


if __name__ == "__main__":
    main()
