"""Every command-line failure is one ``traitors: …`` line on stderr with exit code 1 or 2, never a traceback.

Each case runs the real command in a process of its own (``python -m bridge.app.cli``): the failures of the field
report (issue 21, point 15), a closed stdout (``| head -1``), Ctrl-C, and ``--debug``, which shows the traceback.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bridge.app.cli import main

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "tests" / "scenarios" / "finale.toml"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASTLE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "bridge.app.cli", *args]


def traitors(*args: str, cwd: Path = ROOT, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cli(*args), capture_output=True, text=True, env=_env(), cwd=cwd, timeout=timeout)


def assert_one_line(proc: subprocess.CompletedProcess[str], code: int, needle: str) -> None:
    """Exit ``code``, one ``traitors: …`` line on stderr containing ``needle``, no traceback anywhere."""
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("traitors: "), proc.stderr
    assert needle in lines[0], lines[0]
    assert proc.returncode == code, (proc.returncode, proc.stderr)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _password_file(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    path.chmod(0o600)
    return path


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    """A ``traitors sandbox`` process: (its RCON port, its password file)."""
    tmp = tmp_path_factory.mktemp("sandbox")
    pw = _password_file(tmp, "pw", secrets.token_urlsafe(12))
    proc = subprocess.Popen(
        _cli("sandbox", "--password-file", str(pw), "--bots", "6", "--quiet"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        line = proc.stdout.readline() if ready else ""
        assert line.startswith("sandbox ready 127.0.0.1:"), (line, proc.poll())
        yield int(line.split(":")[1].split()[0]), pw
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_serve_demo_with_a_wrong_rcon_password(sandbox, tmp_path):
    port, _ = sandbox
    wrong = _password_file(tmp_path, "wrong", "not-the-password")
    proc = traitors("serve-demo", "--db", str(tmp_path / "s.db"), "--port", str(port), "--password-file", str(wrong))
    assert_one_line(proc, 1, "refused")
    assert not list(tmp_path.glob("s.db*")), "a refused login leaves no store (and no dealt series) behind"


def test_serve_with_a_wrong_rcon_password_leaves_no_store(sandbox, tmp_path):
    """The store is made once the server has answered: a refused login leaves nothing that the next run (with
    the right password) would refuse as an empty store."""
    port, _ = sandbox
    (tmp_path / "series.toml").write_text('contestant_count = 6\ntraitors = 1\npowers = false\nhosts = ["Host"]\n')
    (tmp_path / "serve.toml").write_text(
        'series = "series.toml"\ncontestants = ["Alex", "Kai", "Zuri", "Steve", '
        f'"Ari", "Noor"]\n[rcon]\nport = {port}\n'
    )
    env = {**_env(), "CASTLE_RCON_PASSWORD": "not-the-password"}
    proc = subprocess.run(
        _cli("serve", "--config", str(tmp_path / "serve.toml")),
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    failures = [line for line in proc.stderr.splitlines() if line.startswith("traitors: ")]
    assert len(failures) == 1 and "refused" in failures[0], proc.stderr
    assert not list(tmp_path.glob("series.db*"))


def test_serve_demo_with_no_server_listening(tmp_path):
    """Refused connections, retried until ``--timeout`` runs out (0.1, 0.2, 0.4 s apart: three tries in half a
    second), then one line; a ``--timeout`` of no time is bad input."""
    pw = _password_file(tmp_path, "pw", "secret")
    args = ["--db", str(tmp_path / "s.db"), "--port", str(_free_port()), "--password-file", str(pw)]
    assert_one_line(traitors("serve-demo", *args, "--timeout", "0"), 2, "--timeout: 0.0")
    proc = traitors("serve-demo", *args, "--timeout", "0.5")
    assert_one_line(proc, 1, "cannot connect")
    assert "connection refused" in proc.stderr and "Error" not in proc.stderr, proc.stderr


def test_sandbox_on_a_port_in_use(tmp_path):
    pw = _password_file(tmp_path, "pw", "secret")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = traitors("sandbox", "--password-file", str(pw), "--port", str(port))
    assert_one_line(proc, 1, f"--port {port}")


def test_sandbox_world_upgrade_needs_26_3_and_an_unknown_release_is_refused(tmp_path):
    pw = _password_file(tmp_path, "pw", "secret")
    proc = traitors("sandbox", "--password-file", str(pw), "--version", "26.2", "--upgrade-world")
    assert_one_line(proc, 2, "--upgrade-world: Minecraft 26.2 (MSMP 3.0.0) reports no world upgrade")
    proc = traitors("sandbox", "--password-file", str(pw), "--version", "26.1", "--startup-delay", "3")
    assert_one_line(proc, 2, "--startup-delay: Minecraft 26.1 (MSMP 2.0.0) answers every call")
    proc = traitors("demo", "--version", "1.21.4")
    assert proc.returncode == 2 and "invalid choice: '1.21.4'" in proc.stderr


def test_install_datapack_resourcepack_into_a_missing_folder(tmp_path):
    world = tmp_path / "world"
    world.mkdir()
    (world / "level.dat").write_bytes(b"")
    proc = traitors("install-datapack", "--world", str(world), "--resourcepack", str(tmp_path / "no" / "rp.zip"))
    assert_one_line(proc, 2, "--resourcepack")
    assert not (world / "datapacks").exists()  # checked before anything was written


def test_init_config_into_an_unwritable_path(tmp_path):
    if os.geteuid() == 0:  # root writes anywhere permissions allow; /proc refuses even root
        target = Path("/proc/self/castle-config")
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "castle"
    proc = traitors("init-config", str(target))
    assert_one_line(proc, 1, str(target))


def test_init_config_onto_a_file(tmp_path):
    file = tmp_path / "castle"
    file.write_text("not a folder", encoding="utf-8")
    proc = traitors("init-config", str(file))
    assert_one_line(proc, 2, "not a folder")


@pytest.fixture
def finished_store(stored_series, tmp_path):
    return stored_series(tmp_path / "series.db", finished=True)


@pytest.mark.parametrize(
    "command", ["play", "export", pytest.param("demo", marks=pytest.mark.slow(reason="two whole demo processes"))]
)
def test_stdout_closed_early_is_quiet(command, finished_store):
    """A reader gone before the first write, and ``| head -1``: both quiet. The two runs go at once (``demo``
    writes its game log only once the series is over, so each plays a whole series; side by side they wait for
    their phase clocks together)."""
    args = {
        "play": ["play", str(SCENARIO)],
        "export": ["export", str(finished_store)],
        "demo": ["demo", "--contestants", "6", "--quiet", "--fast-forward"],
    }[command]
    # The reader is gone before the first write, as `| head -1` is by the time a long record is written.
    proc = subprocess.Popen(
        _cli(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT
    )
    assert proc.stdout is not None
    proc.stdout.close()
    # And through a real pipe into head: its first line arrives, nothing else is said.
    shell = subprocess.Popen(
        ["bash", "-c", " ".join(_cli(*args)) + " | head -1; exit ${PIPESTATUS[0]}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    try:
        _, err = proc.communicate(timeout=120)
        out, shell_err = shell.communicate(timeout=120)
    finally:
        for p in (proc, shell):
            if p.poll() is None:
                p.kill()
                p.wait()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err.strip() == "" and proc.returncode == 1, (proc.returncode, err)
    assert out.count("\n") == 1 and "Traceback" not in shell_err, shell_err
    assert shell.returncode in (0, 1)


def _with_ctrl_c(argv: list[str]) -> list[str]:
    """``argv`` (a Python command) run with SIGINT at its default: a job a shell started in the background
    (``pytest ... &``) ignores SIGINT, a child inherits that, and a Python started so never sees Ctrl-C."""
    assert argv[0] == sys.executable
    reset = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
        "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    )
    return [sys.executable, "-c", reset, *argv[1:]]


@pytest.mark.parametrize(
    "args",
    [("demo", "--contestants", "6"), ("simulate", "--series", "100000", "--jobs", "2")],
    ids=["demo", "simulate-jobs"],
)
def test_ctrl_c_exits_130_quietly(args):
    # Its own process group, signalled as a whole: a terminal's Ctrl-C reaches simulate's workers too.
    proc = subprocess.Popen(
        _with_ctrl_c(_cli(*args)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
        start_new_session=True,
    )
    assert proc.stderr is not None
    seen = ""
    try:
        if args[0] == "demo":
            end = time.monotonic() + 60
            fd = proc.stderr.fileno()  # read the pipe itself: a buffered readline may hold the line select missed
            while "Day 1: breakfast" not in seen and time.monotonic() < end:  # the series is running
                ready, _, _ = select.select([fd], [], [], 0.1)
                if ready:
                    seen += os.read(fd, 4096).decode(errors="replace")
        else:  # the workers are playing (100000 series take minutes)
            children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
            end = time.monotonic() + 60
            while len(children.read_text().split()) < 2 and time.monotonic() < end:
                time.sleep(0.1)
            time.sleep(1.0)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:  # a failed wait must not leave the workers playing for the rest of the run
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, (proc.returncode, err)
    assert "Traceback" not in seen + err + out and "KeyboardInterrupt" not in err, err


def test_ctrl_c_on_serve_demo_exits_130_and_the_series_resumes(tmp_path):
    pw = _password_file(tmp_path, "rcon.txt", secrets.token_hex(8))
    port = _free_port()
    sandbox = subprocess.Popen(
        _cli("sandbox", "--password-file", str(pw), "--port", str(port), "--quiet"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=ROOT,
    )
    try:
        assert sandbox.stdout is not None and "ready" in sandbox.stdout.readline()
        cmd = _cli(
            "serve-demo",
            "--db",
            str(tmp_path / "series.db"),
            "--port",
            str(port),
            "--password-file",
            str(pw),
            "--quiet",
        )
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT)
        assert proc.stdout is not None and proc.stdout.readline().startswith("ready ")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130, (proc.returncode, err)
        assert "Traceback" not in out + err, err
        again = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT)
        assert again.stdout is not None and again.stdout.readline().startswith("ready series=1 ")
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=60)
    finally:
        sandbox.send_signal(signal.SIGTERM)
        sandbox.communicate(timeout=30)


@pytest.mark.parametrize("command", ["sandbox", "serve-demo"])
def test_a_port_out_of_range_is_bad_input(tmp_path, command):
    pw = _password_file(tmp_path, "rcon.txt", secrets.token_hex(8))
    args = ["--password-file", str(pw), "--port", "99999"]
    if command == "serve-demo":
        args += ["--db", str(tmp_path / "series.db")]
    proc = traitors(command, *args)
    assert proc.returncode == 2 and "99999" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "series.db").exists()


def test_debug_shows_the_traceback(tmp_path):
    file = tmp_path / "castle"
    file.write_text("", encoding="utf-8")
    assert_one_line(traitors("init-config", str(file)), 2, "not a folder")
    proc = traitors("--debug", "init-config", str(file))
    assert "Traceback" in proc.stderr and "ConfigError" in proc.stderr
    assert proc.returncode == 2 and proc.stderr.splitlines()[-1].startswith("traitors: ")  # the same code and line
    proc = traitors("init-config", str(file), "--debug")  # after the subcommand too
    assert "Traceback" in proc.stderr and proc.returncode == 2


def test_an_unexpected_error_is_one_line(monkeypatch, capsys):
    import bridge.config.play

    def broken(scenario):
        raise RuntimeError("boom")

    monkeypatch.setattr(bridge.config.play, "play_scenario", broken)
    assert main(["play", str(SCENARIO)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["traitors: unexpected RuntimeError: boom (run with --debug to see where)"]


def test_stats_of_a_missing_sqlite_file_is_refused_and_creates_nothing(tmp_path: Path, capsys) -> None:
    """``stats`` only reads the records: a mistyped file is one line, exit 2, and no empty database is left."""
    typo = tmp_path / "typo.db"
    assert main(["stats", "--records", str(typo), "--no-lab"]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"traitors: {typo}: no records database here (`traitors serve` and `traitors records import` create it)\n"
    )
    assert not typo.exists()


def test_serve_demo_new_series_refuses_a_running_series_as_serve_does(stored_series, tmp_path: Path, capsys) -> None:
    """``--new-series`` starts a series only where none runs: a running one is refused in one line (exit 2), before
    the sandbox is reached (port 1 answers nothing), and the store is left as it was."""
    from bridge.loop.store import SeriesStore

    db = stored_series(tmp_path / "running.db", finished=False)
    password = _password_file(tmp_path, "pw.txt", "pw")
    assert main(["serve-demo", "--db", str(db), "--port", "1", "--password-file", str(password), "--new-series"]) == 2
    assert capsys.readouterr().err == (
        f"traitors: {db}: series 1 is still running; finish it (or end it from the "
        "host console) before starting a new one\n"
    )
    with SeriesStore(db, create=False) as store:
        assert store.latest() == 1 and not store.is_over(1)


@pytest.mark.parametrize("argv", [["demo", "--bogus"], ["--bogus", "demo"]])
def test_an_unknown_option_points_to_the_subcommands_help(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err == "traitors demo: unrecognized arguments: --bogus (see 'traitors demo --help')\n"


def test_sandbox_refuses_more_bots_than_a_series_seats(tmp_path: Path, capsys) -> None:
    """The demo has 16 names and the castle 16 seats: ``--bots 99`` was cut to 16 without a word."""
    password = _password_file(tmp_path, "pw.txt", "pw")
    assert main(["sandbox", "--password-file", str(password), "--bots", "99"]) == 2
    assert capsys.readouterr().err == "traitors: --bots: 99; 0-16 (a series has at most 16 contestants)\n"
