"""Split demos in a row: how many stall? (issue 21 point 1; want 0).

Each run is the two-process demo of ``docs/recovery.md``: ``traitors sandbox`` (the server with bot contestants,
here answering every command ``--reply-delay`` seconds late, a slow server) and ``traitors serve-demo`` (the
service with its store) with the demo's short phases. A run stalls when the service has not finished the series
after ``--timeout`` seconds; it is then killed and counted. Prints one line per run and a summary::

    python bench/stall.py                      # 50 runs, 6 bots, replies 5 ms late, two runs at a time
    python bench/stall.py --runs 10 --bots 12 --reply-delay 0 --jobs 1
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_run(i: int, bots: int, reply_delay: float, timeout: float) -> tuple[int, bool, float, str]:
    """One split demo (seed ``i + 1``): returns (run, stalled, seconds, the last line the service printed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cli = [sys.executable, "-m", "bridge.app.cli"]
    with tempfile.TemporaryDirectory(prefix="castle-stall-") as tmp:
        password = Path(tmp) / "rcon-password"
        password.write_text(secrets.token_urlsafe(18))
        password.chmod(0o600)
        sandbox = subprocess.Popen(
            [
                *cli,
                "sandbox",
                "--password-file",
                str(password),
                "--bots",
                str(bots),
                "--seed",
                str(i + 1),
                "--reply-delay",
                str(reply_delay),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=ROOT,
        )
        try:
            assert sandbox.stdout is not None
            ready = sandbox.stdout.readline().split()
            port = ready[2].rsplit(":", 1)[1]
            started = time.monotonic()
            service = subprocess.Popen(
                [
                    *cli,
                    "serve-demo",
                    "--db",
                    str(Path(tmp) / "series.db"),
                    "--port",
                    port,
                    "--password-file",
                    str(password),
                    "--contestants",
                    str(bots),
                    "--seed",
                    str(i + 1),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env=env,
                cwd=ROOT,
            )
            try:
                out, _ = service.communicate(timeout=timeout)
                stalled = service.returncode != 0
            except subprocess.TimeoutExpired:
                service.kill()
                out, _ = service.communicate()
                stalled = True
            took = time.monotonic() - started
            lines = [line for line in (out or "").splitlines() if line.strip()]
            return i, stalled, took, lines[-1][:100] if lines else ""
        finally:
            sandbox.send_signal(signal.SIGTERM)
            try:
                sandbox.wait(10)
            except subprocess.TimeoutExpired:
                sandbox.kill()
                sandbox.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--bots", type=int, default=6, help="contestants per series (6-16)")
    parser.add_argument("--reply-delay", type=float, default=0.005, help="seconds the sandbox waits per reply")
    parser.add_argument("--jobs", type=int, default=2, help="runs at a time")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds before a run counts as stalled")
    args = parser.parse_args()
    results = []
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one_run, i, args.bots, args.reply_delay, args.timeout) for i in range(args.runs)]
        for future in futures:
            i, stalled, took, last = future.result()
            results.append((stalled, took))
            print(f"run {i + 1:3d}: {'STALLED' if stalled else 'ok':7s} {took:6.1f} s  {last}", flush=True)
    stalls = sum(1 for s, _ in results if s)
    times = [t for s, t in results if not s]
    median = statistics.median(times) if times else float("nan")
    print(
        f"{len(results)} split demos ({args.bots} bots, replies {args.reply_delay * 1000:.0f} ms late, "
        f"{args.jobs} at a time): {stalls} stalled; median {median:.1f} s per finished series"
    )
    return 1 if stalls else 0


if __name__ == "__main__":
    sys.exit(main())
