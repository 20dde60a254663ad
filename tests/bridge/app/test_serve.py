"""`traitors serve` end to end: a sandbox process (RCON + MSMP + bots), SIGTERM, restart → the series resumes."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bridge.loop.store import SeriesStore
from bridge.records.db import RecordsDb

from .pipes import next_line, rest

ROOT = Path(__file__).resolve().parents[3]
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")

SERIES = """
contestant_count = 6
traitors = 1
hosts = ["Host"]
powers = false
[durations]
day_zero = 0.5
breakfast = 0.2
discussion = 0.2
round_table = 0.2
vote = 20
revote = 20
oath = 1
turret = 1
offer = 1
traitor_powers = 1
host_visit = 1
torches = 1
torch_question = 0.3
"""
"""A 6-contestant series on short clocks. The votes end once everyone has voted; every night stage runs its
whole clock (``serve`` keeps the wall clock, with no quiet gate), 1 s: several times what the sandbox's bots take
to answer (they act every 20 ms, the data pack queues a press at its next tick, ``serve`` polls every 20 ms), short
enough that a whole series takes seconds. The finale's last changes (``torch_question``) wait for no answer, so
their clock is the shortest."""

RECORDS = "[records]\nlab_series = 10\n"
"""A ``[records]`` section whose balance lab plays the fewest series it may: ``serve`` waits for the lab's
prediction of the finished series before it exits, and nothing here reads the prediction."""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASTLE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _line(proc: subprocess.Popen[str], prefix: str, timeout: float = 30.0) -> str:
    """The first stdout line of ``proc`` starting with ``prefix``; an error with the process's log when none comes
    within ``timeout`` seconds (the process is killed first, so its log can be read to the end)."""
    assert proc.stdout is not None and proc.stderr is not None
    end = time.monotonic() + timeout
    while (line := next_line(proc.stdout, end)) is not None:
        if line.startswith(prefix):
            return line.strip()
    code = proc.poll()
    if code is None:
        proc.kill()
        proc.wait(10)
    raise AssertionError(f"no {prefix!r} line (exit {code}): {rest(proc.stderr)}")


def _log_until(proc: subprocess.Popen[str], starts: str, timeout: float = 60.0) -> list[str]:
    """The stderr lines of ``proc`` (a ``serve`` logging JSON) up to and including the first log line whose message
    starts with ``starts``; an error when none comes within ``timeout`` seconds."""
    assert proc.stderr is not None
    end = time.monotonic() + timeout
    lines = []
    while (line := next_line(proc.stderr, end)) is not None:
        lines.append(line)
        if line.startswith("{") and json.loads(line)["message"].startswith(starts):
            return lines
    raise AssertionError(f"no log line {starts!r} (exit {proc.poll()})")


def _sandbox(tmp_path: Path, *options: str) -> tuple[str, subprocess.Popen[str]]:
    """A new RCON password (in a chmod-600 file) and a ``traitors sandbox`` process with ``NAMES`` as bots (and
    more ``options`` of ``traitors sandbox``)."""
    password = secrets.token_urlsafe(12)
    pw_file = tmp_path / "rcon.txt"
    pw_file.write_text(password)
    pw_file.chmod(0o600)
    sandbox = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bridge.app.cli",
            "sandbox",
            "--password-file",
            str(pw_file),
            "--names",
            ",".join(NAMES),
            "--hosts",
            "Host",
            "--seed",
            "3",
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    return password, sandbox


def _stop(sandbox: subprocess.Popen[str]) -> None:
    sandbox.send_signal(signal.SIGTERM)
    try:
        sandbox.wait(10)
    except subprocess.TimeoutExpired:
        sandbox.kill()


@pytest.mark.slow(reason="a whole series on the wall clock through two serve processes and a sandbox process")
def test_serve_stops_on_sigterm_and_resumes(tmp_path: Path) -> None:
    password, secret = secrets.token_urlsafe(12), secrets.token_hex(20)
    pw_file, secret_file = tmp_path / "rcon.txt", tmp_path / "msmp.txt"
    pw_file.write_text(password)
    secret_file.write_text(secret)
    pw_file.chmod(0o600)
    secret_file.chmod(0o600)
    sandbox = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bridge.app.cli",
            "sandbox",
            "--password-file",
            str(pw_file),
            "--msmp-secret-file",
            str(secret_file),
            "--names",
            ",".join(NAMES),
            "--hosts",
            "Host",
            "--seed",
            "3",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    try:
        ready = _line(sandbox, "sandbox ready")
        rcon_port = int(ready.split()[2].split(":")[1])
        fields = dict(f.split("=", 1) for f in ready.split()[3:])
        msmp_url, msmp_ca = fields["msmp"], fields["msmp_ca"]
        assert msmp_url.startswith("wss://")  # the whole series is played over TLS
        (tmp_path / "series.toml").write_text(SERIES)
        (tmp_path / "serve.toml").write_text(
            f'series = "series.toml"\nstore = "series.db"\ncontestants = {json.dumps(list(NAMES))}\n'
            f'poll_interval = 0.02\n[rcon]\nport = {rcon_port}\n[msmp]\nurl = "{msmp_url}"\n'
            f'ca_file = "{msmp_ca}"\n[log]\nformat = "json"\n{RECORDS}'
        )
        env = {**_env(), "CASTLE_RCON_PASSWORD": password, "CASTLE_MSMP_SECRET": secret}
        cmd = [sys.executable, "-m", "bridge.app.cli", "serve", "--config", str(tmp_path / "serve.toml")]
        first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert _line(first, "ready ").startswith("ready series=1 inputs=1 phase=day_zero")
        # Stop once day zero is over (its first night has begun) but well before the series could end (a
        # 6-contestant series needs that night, a round table, a vote and another night: several seconds).
        read = _log_until(first, "phase: day 0, ")
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=30)
        assert first.returncode == 0, err
        err = "\n".join(read) + "\n" + err
        logs = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
        assert any(r.get("event") == "stop" for r in logs) and any(r.get("event") == "stopped" for r in logs), err
        assert any(r.get("event") == "msmp" for r in logs), err  # connected over wss://, trusting msmp_ca
        assert any(r.get("event") == "phase" and r["message"].startswith("phase: day 0, ") for r in logs), err
        assert password not in err and secret not in err
        with SeriesStore(tmp_path / "series.db") as store:
            assert not store.is_over(1)
            taken = len(store.load(1).log)
        assert taken > 1
        second = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        line = _line(second, "ready ")
        assert line.startswith("ready series=1 ")
        assert int(line.split("inputs=")[1].split()[0]) >= taken
        out, err = second.communicate(timeout=120)
        assert second.returncode == 0, err
        assert "## Result" in out
        with SeriesStore(tmp_path / "series.db") as store:
            assert store.is_over(1)
        # a finished series is not restarted by accident
        third = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=30)
        assert third.returncode == 2 and "is over" in third.stderr
        # and its record exports
        export = subprocess.run(
            [sys.executable, "-m", "bridge.app.cli", "export", str(tmp_path / "series.db"), "--format", "wiki"],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=30,
        )
        assert export.returncode == 0 and "== Contestants ==" in export.stdout
        # the finished series went into the records database (the SQLite default, beside serve.toml)
        exported = subprocess.run(
            [sys.executable, "-m", "bridge.app.cli", "export", str(tmp_path / "series.db"), "--format", "json"],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=30,
        )
        [recorded] = RecordsDb(str(tmp_path / "records.db")).series()
        one = RecordsDb(str(tmp_path / "records.db")).one(recorded.id)
        assert one is not None and one.record() == json.loads(exported.stdout)
    finally:
        _stop(sandbox)


def test_serve_without_a_cast_opens_the_lobby_and_keeps_its_sign_ups(tmp_path: Path) -> None:
    """A season: the lobby opens, the sandbox's bots sign up from its dialog, SIGTERM stops it cleanly, and the
    next start finds the sign-ups; the stats pages are served beside the grimoire."""
    import urllib.request

    password, sandbox = _sandbox(tmp_path)
    try:
        rcon_port = int(_line(sandbox, "sandbox ready").split()[2].split(":")[1])
        (tmp_path / "series.toml").write_text(SERIES)
        (tmp_path / "serve.toml").write_text(
            f'series = "series.toml"\nstore = "series.db"\npoll_interval = 0.02\n[rcon]\nport = {rcon_port}\n'
            f'[web]\nport = 0\n[records]\ncastle = "north"\n'
        )
        env = {**_env(), "CASTLE_RCON_PASSWORD": password}
        cmd = [sys.executable, "-m", "bridge.app.cli", "serve", "--config", str(tmp_path / "serve.toml")]
        first = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        spectators = _line(first, "spectators: ").split()[1]
        assert _line(first, "lobby ") == "lobby series=1 signups=0"
        stats = urllib.request.urlopen(spectators.replace("/spectate", "/stats"), timeout=10)  # noqa: S310
        assert stats.status == 200 and "0 series" in stats.read().decode()
        end = time.monotonic() + 30
        while time.monotonic() < end and (tmp_path / "series.db").exists():
            with SeriesStore(tmp_path / "series.db", fresh=True) as store:
                from bridge.loop.season_store import SeasonStore

                if len(SeasonStore(store, writable=False).lobby_rows(1)) == len(NAMES):
                    break
            time.sleep(0.2)
        first.send_signal(signal.SIGTERM)
        _, err = first.communicate(timeout=30)
        assert first.returncode == 0, err
        second = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        assert _line(second, "lobby ") == f"lobby series=1 signups={len(NAMES)}"
        second.send_signal(signal.SIGTERM)
        _, err = second.communicate(timeout=30)
        assert second.returncode == 0, err
        assert password not in err
    finally:
        _stop(sandbox)


def test_serve_serves_the_web_pages_with_a_token_printed_once(tmp_path: Path) -> None:
    """A ``[web]`` section: a one-time login link and a new token on stdout (never in the log); the link opens
    the grimoire once, then is dead; a non-loopback bind without TLS is refused in one line."""
    import urllib.error
    import urllib.request

    password, sandbox = _sandbox(tmp_path)
    try:
        rcon_port = int(_line(sandbox, "sandbox ready").split()[2].split(":")[1])
        (tmp_path / "series.toml").write_text(SERIES.replace("vote = 20", "vote = 600"))
        config = (
            f'series = "series.toml"\ncontestants = {json.dumps(list(NAMES))}\n[rcon]\nport = {rcon_port}\n'
            "[web]\nport = 0\n"
        )
        (tmp_path / "serve.toml").write_text(config)
        env = {**_env(), "CASTLE_RCON_PASSWORD": password}
        cmd = [sys.executable, "-m", "bridge.app.cli", "serve", "--config", str(tmp_path / "serve.toml")]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        host_url = _line(proc, "grimoire: ").split()[1]
        token = _line(proc, "host token").split(": ")[1].split()[0]
        assert _line(proc, "spectators: ").endswith("/spectate")
        _line(proc, "ready ")
        assert len(token) == 32 and token not in host_url and "/host/login?once=" in host_url
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # the link becomes a cookie
        with browser.open(host_url, timeout=10) as page:
            assert page.status == 200 and "Grimoire" in page.read().decode() and page.url.endswith("/host")
        try:
            urllib.request.urlopen(host_url, timeout=10)
            raise AssertionError("a used link was let in")
        except urllib.error.HTTPError as exc:
            assert exc.code == 403
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0 and token not in err
        (tmp_path / "serve.toml").write_text(config.replace("port = 0", 'bind = "0.0.0.0"\nport = 0'))
        refused = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
        assert refused.returncode == 2 and "serve.toml: web: bind" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    finally:
        _stop(sandbox)
