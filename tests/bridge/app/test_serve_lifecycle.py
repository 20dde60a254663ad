"""`traitors serve`'s life around the series (``bridge/app/serve.py`` house rules 3 and 5): a stop signal takes no
input after it and ends the process at once; a series that ends keeps the spectator page up until it has shown
the end through its delay."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from bridge.loop.store import SeriesStore

from .test_serve import NAMES, RECORDS, ROOT, SERIES, _env, _line, _log_until, _sandbox, _stop

STOP_WITHIN = 2.0
"""Seconds from SIGINT to the process's exit."""

NIGHT_STAGES = re.compile(r"^(oath|turret|offer|traitor_powers|host_visit) = 1$", re.MULTILINE)
LIFECYCLE_SERIES = NIGHT_STAGES.sub(r"\1 = 0.5", SERIES)
"""``SERIES`` with half-second night stages: still a few times what the bots take to answer, and neither test here
depends on what the night decides (one stops at the first breakfast, the other waits for whatever end comes)."""


def _serve(tmp_path: Path, rcon_port: int, password: str, web: str) -> subprocess.Popen[str]:
    (tmp_path / "serve.toml").write_text(
        f'series = "series.toml"\nstore = "series.db"\ncontestants = {json.dumps(list(NAMES))}\n'
        f'poll_interval = 0.02\n[rcon]\nport = {rcon_port}\n[log]\nformat = "json"\n{RECORDS}[web]\nport = 0\n{web}'
    )
    cmd = [sys.executable, "-m", "bridge.app.cli", "serve", "--config", str(tmp_path / "serve.toml")]
    env = {**_env(), "CASTLE_RCON_PASSWORD": password}
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)


def _log_line(proc: subprocess.Popen[str], starts: str, timeout: float = 60.0) -> dict[str, Any]:
    """The first JSON log line (stderr) whose message starts with ``starts``."""
    return dict(json.loads(_log_until(proc, starts, timeout)[-1]))


class Spectator:
    """A spectator page's websocket, recording every message in a thread."""

    def __init__(self, page: str) -> None:
        self.url = page.replace("http://", "ws://").replace("/spectate", "/ws/spectate")
        self.messages: list[dict[str, Any]] = []
        self.connected = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.connected.wait(10), "the spectator page's websocket did not open"

    def _read(self) -> None:
        from websockets.sync.client import connect

        try:
            with connect(self.url) as ws:
                self.connected.set()
                for text in ws:
                    self.messages.append(json.loads(text))
        except Exception:  # noqa: S110 - the server went away: the recording ends there
            pass


def test_sigint_takes_no_input_after_it_and_exits_at_once(tmp_path: Path) -> None:
    """Ctrl-C while the many commands of a breakfast are being sent to a slow server (100 ms a command), with a
    spectator page open: the process is gone within ``STOP_WITHIN`` seconds, no input was applied after the signal
    (the store's log ends before it; the commands not sent yet wait in the outbox for the next start) and no phase
    began."""
    password, sandbox = _sandbox(tmp_path, "--reply-delay", "0.1")
    try:
        rcon_port = int(_line(sandbox, "sandbox ready").split()[2].split(":")[1])
        (tmp_path / "series.toml").write_text(LIFECYCLE_SERIES)
        proc = _serve(tmp_path, rcon_port, password, "")
        spectator = Spectator(_line(proc, "spectators: ").split()[1])
        _log_line(proc, "phase: day 1, Breakfast")  # its many commands are being sent; its clock is short
        asked = time.time()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.time() - asked
        assert proc.returncode == 0, err  # stopped cleanly: 0, not the 130 of the other commands (docs/operator.md)
        logs = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
        assert any(r.get("event") == "stopped" for r in logs), err
        assert took < STOP_WITHIN, f"stopped {took:.1f} s after SIGINT"
        with SeriesStore(tmp_path / "series.db") as store:
            late = [e for e in store.load(1).log if float(e["now"]) >= asked]
            assert not store.is_over(1)
        assert late == [], f"applied after SIGINT: {late}"
        assert not [r["message"] for r in logs if r.get("event") == "phase" and r["time"] >= asked]
        assert any(m["type"] == "view" for m in spectator.messages)
    finally:
        _stop(sandbox)


@pytest.mark.slow(reason="a whole series on the wall clock through serve, then the spectators' delay and the linger")
def test_a_finished_series_keeps_the_pages_up_until_the_spectators_saw_the_end(tmp_path: Path) -> None:
    """A 1 s spectator delay and ``linger = 1``: the page is sent the series' end and the record (every role)
    after the castle saw them, and only then, a second later, does the process exit."""
    password, sandbox = _sandbox(tmp_path)
    try:
        rcon_port = int(_line(sandbox, "sandbox ready").split()[2].split(":")[1])
        (tmp_path / "series.toml").write_text(LIFECYCLE_SERIES)
        proc = _serve(tmp_path, rcon_port, password, "spectator_delay = 1\nlinger = 1\n")
        spectator = Spectator(_line(proc, "spectators: ").split()[1])
        _log_line(proc, "series over: ", timeout=120)
        out, err = proc.communicate(timeout=60)
        gone = time.time()
        with SeriesStore(tmp_path / "series.db") as store:
            ended = float(store.load(1).log[-1]["now"])  # the input that ended the series
        assert proc.returncode == 0, err
        assert "## Result" in out and "pages stay up 2 s more" in out
        kinds = [(m["type"], m.get("kind")) for m in spectator.messages]
        assert ("event", "over") in kinds and kinds[-1] == ("record", None), kinds[-5:]
        record = spectator.messages[-1]["record"]
        assert {c["name"] for c in record["contestants"]} == set(NAMES)
        assert gone - ended >= 2.0  # the delay, then the linger
    finally:
        _stop(sandbox)


def test_ctrl_c_ends_the_wait_after_the_series_at_once() -> None:
    """Lingering after the series (60 s, a record still held back by the delay): SIGINT ends the wait at once."""
    import asyncio
    import io
    import os

    from bridge.app.serve import linger
    from bridge.web.hub import WebHub

    async def run() -> float:
        hub = WebHub(delay=30)
        hub.spectator.finish({"contestants": []}, "the record", time.time())
        asyncio.get_running_loop().call_later(0.2, os.kill, os.getpid(), signal.SIGINT)
        started = time.monotonic()
        await linger(hub, 60, io.StringIO())
        return time.monotonic() - started

    assert asyncio.run(run()) < 2.0
