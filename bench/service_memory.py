"""Service memory (RSS) during a 16-contestant sandbox series (target ≤ 120 MB).

Runs the two sides as separate processes, as in production: ``traitors sandbox --bots 16`` (the stand-in server
with 16 bot contestants pressing their dialogs' buttons) and ``traitors serve-demo --contestants 16`` (the
service, with its SQLite series store), and samples the service process's resident set (``/proc/<pid>/status``
``VmRSS``, and ``VmHWM``, the kernel's high-water mark) every 20 ms until the series ends.

Usage: python bench/service_memory.py [--seed 1]
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def status_kb(pid: int, field: str) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--contestants", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pw = Path(tmp) / "pw"
        pw.write_text("bench-password")
        pw.chmod(0o600)
        sandbox = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bridge.app.cli",
                "sandbox",
                "--password-file",
                str(pw),
                "--bots",
                str(args.contestants),
                "--seed",
                str(args.seed),
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            assert sandbox.stdout is not None
            port = int(sandbox.stdout.readline().rsplit(":", 1)[1])
            start = time.monotonic()
            service = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "bridge.app.cli",
                    "serve-demo",
                    "--db",
                    str(Path(tmp) / "series.db"),
                    "--port",
                    str(port),
                    "--password-file",
                    str(pw),
                    "--contestants",
                    str(args.contestants),
                    "--seed",
                    str(args.seed),
                ],
                stdout=subprocess.DEVNULL,
                cwd=ROOT,
            )
            samples: list[int] = []
            hwm = 0
            while service.poll() is None:
                rss = status_kb(service.pid, "VmRSS")
                hwm = max(hwm, status_kb(service.pid, "VmHWM") or 0)
                if rss is not None:
                    samples.append(rss)
                time.sleep(0.02)
            elapsed = time.monotonic() - start
        finally:
            sandbox.send_signal(signal.SIGTERM)
            sandbox.wait(10)
    if service.returncode != 0 or not samples:
        raise SystemExit(f"the service exited with {service.returncode}")
    print(
        f"{args.contestants}-contestant series, {elapsed:.1f} s, {len(samples)} samples: service RSS median "
        f"{sorted(samples)[len(samples) // 2] / 1024:.1f} MB, peak {max(samples) / 1024:.1f} MB, "
        f"high-water mark {hwm / 1024:.1f} MB (target <= 120 MB)"
    )


if __name__ == "__main__":
    main()
