"""Crash points (bridge/loop/faults.py): a fault is a value given to the service, read from the environment only by
the command line; it kills the process at the visit asked for and never otherwise."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from bridge.loop.faults import FAULT_ENV, NO_FAULT, Fault

ROOT = Path(__file__).resolve().parents[3]


def test_a_fault_is_parsed_from_point_and_visit() -> None:
    assert Fault.parse("mid-send:3") == Fault("mid-send", 3)
    for spec in ("", "mid-send", "mid-send:0", "mid-send:x", "nowhere:2", ":2"):
        assert Fault.parse(spec) == Fault(), spec
    assert Fault.from_env({FAULT_ENV: "before-ack:2"}) == Fault("before-ack", 2)
    assert Fault.from_env({}) == NO_FAULT


def test_no_fault_counts_nothing() -> None:
    for _ in range(3):
        NO_FAULT("mid-send")
    assert NO_FAULT.seen == 0
    other = Fault("before-ack", 5)
    other("mid-send")
    other("before-ack")
    assert other.seen == 1


def test_the_process_dies_at_the_visit_asked_for() -> None:
    code = (
        "from bridge.loop.faults import Fault\n"
        "f = Fault.parse('mid-send:2')\n"
        "f('after-commit'); f('mid-send'); print('first', flush=True); f('mid-send'); print('second', flush=True)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert proc.stdout.split() == ["first"]
