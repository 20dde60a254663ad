"""The PyPI RCON client ``rcon`` (2.4.9), which nobody here wrote, against ``traitors sandbox``.

Each test is one way the sandbox must behave as a vanilla server does when a third-party tool talks to it.
"""

from __future__ import annotations

import os
import secrets
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rcon.source import Client

ROOT = Path(__file__).resolve().parents[3]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[subprocess.Popen[str], int, str]]:
    """A ``traitors sandbox`` process with 6 bots: (the process, its RCON port, its password)."""
    password = secrets.token_urlsafe(12)
    pw = tmp_path_factory.mktemp("rcon") / "pw"
    pw.write_text(password, encoding="utf-8")
    pw.chmod(0o600)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bridge.app.cli", "sandbox", "--password-file", str(pw), "--bots", "6", "--quiet"],
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
        yield proc, int(line.split(":")[1].split()[0]), password
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def run(sandbox: tuple[subprocess.Popen[str], int, str], command: str) -> str:
    _, port, password = sandbox
    with Client("127.0.0.1", port, passwd=password, timeout=10) as client:
        return client.run(command)


def test_kick_leaves_the_sandbox_running_and_the_bot_comes_back(sandbox) -> None:
    proc = sandbox[0]
    assert run(sandbox, "kick Alex") == "Kicked Alex: Kicked by an operator"
    assert "Alex" not in run(sandbox, "list").split(": ", 1)[1].split(", ")
    deadline = time.monotonic() + 10
    online: list[str] = []
    while time.monotonic() < deadline:
        online = run(sandbox, "list").split(": ", 1)[1].split(", ")
        if "Alex" in online:
            break
        time.sleep(0.1)
    assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    assert "Alex" in online, "the kicked bot rejoins later"
    assert run(sandbox, "kick Kai Go away") == "Kicked Kai: Go away"
    time.sleep(0.3)
    assert proc.poll() is None


def test_help_lists_every_command_as_vanilla_does(sandbox) -> None:
    """Vanilla's ``help`` over RCON: one ``/usage`` line per command (Brigadier's smart usage), run together."""
    listed = run(sandbox, "help")
    lines = ["/" + line for line in listed.split("/")[1:]]
    for expected in (
        "/advancement (grant|revoke)",
        "/attribute <target> <attribute> (base|get|modifier)",
        "/ban <targets> [<reason>]",
        "/banlist [ips|players]",
        "/bossbar (add|get|list|remove|set)",
        "/clear [<targets>]",
        "/kick <targets> [<reason>]",
        "/tp -> teleport",
        "/tell -> msg",
        "/list [uuids]",
        "/stop",
    ):
        assert expected in lines, expected
    assert "/publish" not in " ".join(lines), "a dedicated server has no /publish"
    assert lines == sorted(lines, key=lambda s: s.split()[0]), "in the tree's order: by name"
    assert run(sandbox, "help bossbar").startswith("/bossbar add <id> <name>/bossbar get <id>")
    assert run(sandbox, "help notacommand") == "Unknown command or insufficient permissions"


def test_give_refuses_an_unknown_item(sandbox) -> None:
    assert run(sandbox, "give Zuri minecraft:notanitem") == (
        "Unknown item 'minecraft:notanitem'give Zuri minecraft:notanitem<--[HERE]"
    )
    assert run(sandbox, "give Zuri minecraft:paper").startswith("Gave 1 [Paper] to Zuri")


def test_with_join_over_the_bots_join_after_the_ready_line(tmp_path: Path) -> None:
    """``--join-over 2``: the ready line comes before the bots, who join one by one, as people do."""
    pw = tmp_path / "pw"
    pw.write_text("pw-join", encoding="utf-8")
    pw.chmod(0o600)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bridge.app.cli",
            "sandbox",
            "--password-file",
            str(pw),
            "--bots",
            "6",
            "--quiet",
            "--join-over",
            "2",
        ],
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
        assert line.startswith("sandbox ready 127.0.0.1:"), (line, proc.poll(), proc.stderr and proc.stderr.read())
        server = (proc, int(line.split(":")[1].split()[0]), "pw-join")
        counts = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (not counts or counts[-1] < 6):
            counts.append(int(run(server, "list").split()[2]))
            time.sleep(0.05)
        assert counts[0] < 6 and counts[-1] == 6, counts
        assert len(set(counts)) > 2, f"one by one: {counts}"
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
