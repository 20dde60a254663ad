"""The command line's surface: ``--version``, every subcommand's ``--help``, one series file format for
``simulate`` and ``serve``, ``export --reveal`` for a running series, and the phase lines of ``serve-demo`` and
``sandbox`` (issue 21, points 16, 17, 19, 20, 21)."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bridge.app.cli import _parser, main
from bridge.config.series import load_series

ROOT = Path(__file__).resolve().parents[3]
SERIES_FILES = sorted((ROOT / "world_config" / "series").glob("*.toml"))


def test_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"traitors {version('castle-traitors')}"


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    return _parser().subcommands


def test_every_subcommand_help_has_a_description():
    commands = _subcommands()
    assert len(commands) == 17  # records and stats among them
    for name, parser in commands.items():
        assert parser.description and len(parser.description) > 20, name
        assert " ".join(parser.description.split()) in " ".join(parser.format_help().split()), name


def test_export_names_its_file_and_its_series_differently():
    text = _subcommands()["export"].format_help()
    assert text.count("SERIES") == 0 and "FILE" in text and "--series N" in text


def test_bad_contestants_prints_nothing_before_the_error(capsys):
    assert main(["demo", "--contestants", "3"]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err.strip().splitlines() == ["traitors: --contestants: 3; a series has 6-16 contestants"]


@pytest.mark.parametrize("path", SERIES_FILES, ids=lambda p: p.name)
def test_simulate_takes_every_shipped_series_file(path, capsys):
    """The series files ``serve`` takes (``world_config/series``) are the files ``simulate --settings`` takes."""
    assert main(["simulate", "--json", "--settings", str(path), "--series", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    series = load_series(path)
    assert data["ruleset"] == series.ruleset and data["contestants"] == series.contestant_count


def test_export_of_a_running_series_needs_reveal(stored_series, tmp_path, capsys):
    running = stored_series(tmp_path / "running.db", finished=False)
    assert main(["export", str(running)]) == 2
    printed = capsys.readouterr()
    assert printed.out == "" and "still running" in printed.err and "--reveal" in printed.err
    assert main(["export", str(running), "--reveal"]) == 0
    assert "Traitor" in capsys.readouterr().out
    finished = stored_series(tmp_path / "finished.db", finished=True)
    assert main(["export", str(finished)]) == 0
    assert "## Result" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------- phase lines


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASTLE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _lines_until(proc: subprocess.Popen[bytes], done, timeout: float = 60.0) -> list[str]:
    """Read ``proc``'s stdout lines until ``done(lines)`` or the timeout (raw reads: a buffered reader could hold
    lines that ``select`` no longer sees)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    lines: list[str] = []
    pending = b""
    end = time.monotonic() + timeout
    while not done(lines) and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            *whole, pending = (pending + chunk).split(b"\n")
            lines += [line.decode() for line in whole]
    return lines


def _phases(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("phase: ")]


def _stop(proc: subprocess.Popen[bytes]) -> str:
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    return out.decode()


def test_serve_demo_and_sandbox_print_the_phases(tmp_path):
    pw = tmp_path / "pw"
    pw.write_text(secrets.token_urlsafe(12), encoding="utf-8")
    pw.chmod(0o600)

    def popen(*args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "bridge.app.cli", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_env(),
            cwd=ROOT,
        )

    sandbox = popen("sandbox", "--password-file", str(pw), "--bots", "6")
    try:
        first = _lines_until(sandbox, lambda ls: len(ls) >= 1)
        assert first and first[0].startswith("sandbox ready 127.0.0.1:")
        port = first[0].split(":")[1].split()[0]
        serve = popen(
            "serve-demo",
            "--db",
            str(tmp_path / "s.db"),
            "--port",
            port,
            "--password-file",
            str(pw),
            "--contestants",
            "6",
        )
        lines = _lines_until(serve, lambda ls: len(_phases(ls)) >= 3)
        _stop(serve)
        assert any(line.startswith("ready series=1 ") for line in lines)
        assert any(line.startswith("phase: day 0, ") for line in _phases(lines)), lines
        seen = _phases(_lines_until(sandbox, lambda ls: len(_phases(ls)) >= 3, timeout=10))
        assert len(seen) >= 3 and seen[0].startswith("phase: Arrival, "), seen
        _lines_until(sandbox, lambda _: False, timeout=0.2)  # what it printed for the first service, read
        quiet = popen(
            "serve-demo", "--db", str(tmp_path / "s.db"), "--port", port, "--password-file", str(pw), "--quiet"
        )
        lines = _lines_until(quiet, lambda ls: any(line.startswith("ready ") for line in ls))
        passed = _phases(_lines_until(sandbox, lambda ls: len(_phases(ls)) >= 3, timeout=10))
        assert len(passed) >= 3, passed  # a few phases passed under the quiet service
        lines += _stop(quiet).splitlines()
        assert any(line.startswith("ready series=1 ") for line in lines) and _phases(lines) == [], lines
    finally:
        _stop(sandbox)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play", "world_config/series/traitors.toml"], "a series file, not a scenario: `traitors simulate --settings"),
        (["export", "world_config/series/traitors.toml"], "a series file, not a scenario"),
        (["simulate", "--series", "1", "--settings", "world_config/castle.toml"], "a castle file, not a series file"),
        (["simulate", "--series", "1", "--settings", "SERVE"], "a serve config, not a series file: `traitors serve"),
        (["simulate", "--series", "1", "--settings", "tests/scenarios/finale.toml"], "a scenario, not a series file"),
    ],
)
def test_a_file_of_another_kind_is_refused_in_one_line(
    argv: list[str], says: str, tmp_path: Path, capsys, monkeypatch
) -> None:
    """``play`` takes a scenario, ``simulate --settings`` a series file, ``export`` a store or a scenario: a file
    of another kind (as check-config tells them) is one line saying what it is, exit 2, nothing played."""
    monkeypatch.chdir(ROOT)
    serve = tmp_path / "serve.toml"
    serve.write_text('series = "traitors.toml"\n[rcon]\nport = 25575\n')
    argv = [str(serve) if a == "SERVE" else a for a in argv]
    assert main(argv) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1 and says in out.err, out.err


def test_the_files_the_readme_recipes_write_in_the_checkout_are_ignored() -> None:
    """The two-process demo writes the RCON password to ``rcon.txt`` where it runs (the checkout): a secret that
    must never be committed; nor the castle files build-castle and castle-map write there by default."""
    import fnmatch
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    written = set(re.findall(r"> ([\w.-]+)\s", readme)) | set(re.findall(r"--out ([\w.-]+)", readme))
    assert {"rcon.txt", "castle.toml", "castle.png"} <= written  # the recipes this guards
    patterns = [line.strip() for line in (ROOT / ".gitignore").read_text().splitlines() if line.strip()[:1] not in "#"]
    for name in written:
        assert any(fnmatch.fnmatch(f"/{name}", p if p.startswith("/") else f"*{p}") for p in patterns), name


def test_init_config_names_the_files_it_kept(tmp_path, capsys):
    folder = tmp_path / "castle"
    series = folder / "series"
    series.mkdir(parents=True)
    (folder / "serve.toml").write_text("# mine\n", encoding="utf-8")
    shipped = SERIES_FILES[0].name
    (series / shipped).write_text("# mine too\n", encoding="utf-8")

    assert main(["init-config", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()

    assert f"kept {folder / 'serve.toml'} (already there)" in lines
    assert f"kept {series / shipped} (already there)" in lines
    assert f"wrote {folder / 'castle.toml'}" in lines
    assert (folder / "serve.toml").read_text(encoding="utf-8") == "# mine\n"  # kept as it was
    assert (series / shipped).read_text(encoding="utf-8") == "# mine too\n"
    others = [p for p in SERIES_FILES if p.name != shipped]
    assert all(f"wrote {series / p.name}" in lines for p in others)
    assert len(lines) == 2 + len(SERIES_FILES) + 1  # one line per sample file, then what to do next
