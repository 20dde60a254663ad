"""Contestant and host names that differ only in case are one player to Minecraft: every way of configuring a
cast refuses them, naming both (``engine.core.cast.check_cast``), through the real command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.cast import check_cast
from engine.errors import ConfigError
from engine.rulesets import RULESETS
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
CAST = ["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea"]
CLASH = [*CAST[:5], "ab_", *CAST[6:10], "Ab_", CAST[11]]  # seats 6 and 11 differ only in case


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASTLE_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "bridge.app.cli", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )


def refused(run: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout
    problems = [line for line in run.stderr.strip().splitlines() if line]
    assert len(problems) == 1, run.stderr
    for needle in needles:
        assert needle in problems[0], problems[0]
    return problems[0]


def test_the_engine_refuses_a_case_clash_in_every_ruleset() -> None:
    with pytest.raises(ConfigError, match="^contestants: ab_ and Ab_ differ only in case"):
        Settings(contestants=tuple(CLASH)).validate()
    with pytest.raises(ConfigError, match="^contestants: ab_ and Ab_"):
        Game(Settings(contestants=tuple(CLASH)), 1)
    for name, ruleset in RULESETS.items():
        if name == "traitors":
            continue
        from bridge.app.demo import demo_settings

        settings = demo_settings(12, name)
        clash = type(settings)(
            **{**{f: getattr(settings, f) for f in settings.__dataclass_fields__}, "contestants": tuple(CLASH)}
        )
        with pytest.raises(ConfigError, match="^contestants: ab_ and Ab_"):
            clash.validate(ruleset.game.RULES)  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="^hosts: alex and contestant Alex differ only in case"):
        check_cast(CAST, ["alex"])
    with pytest.raises(ConfigError, match="^hosts: Host and HOST differ only in case"):
        check_cast(CAST, ["Host", "HOST"])
    with pytest.raises(ConfigError, match="^contestants: duplicate names Kai$"):
        check_cast([*CAST[:3], "Kai"])
    check_cast(CAST, ["Host", "Host2"])  # distinct names pass


def test_a_series_file_with_a_case_clash_is_refused(tmp_path: Path) -> None:
    for ruleset in ("traitors", "black_knights", "mafia_yakuza"):
        f = tmp_path / f"{ruleset}.toml"
        f.write_text(
            f'ruleset = "{ruleset}"\ncontestants = {json.dumps(CLASH)}\nhosts = ["Host"]\n'
            + ("powers = false\n" if ruleset == "traitors" else "")
        )
        refused(cli("check-config", str(f)), str(f), "ab_", "Ab_", "differ only in case")


def test_a_scenario_file_with_a_case_clash_is_refused(tmp_path: Path) -> None:
    f = tmp_path / "scenario.toml"
    f.write_text(f"seed = 1\ncontestants = {json.dumps(CLASH)}\npowers = false\n")
    refused(cli("play", str(f)), str(f), "ab_", "Ab_", "differ only in case")


def test_a_serve_config_whose_cast_clashes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "series.toml").write_text('contestant_count = 12\npowers = false\nhosts = ["Host"]\n')
    serve = tmp_path / "serve.toml"
    serve.write_text(f'series = "series.toml"\nstore = "series.db"\ncontestants = {json.dumps(CLASH)}\n')
    refused(cli("check-config", str(serve)), str(serve), "ab_", "Ab_", "differ only in case")
    serve.write_text(
        f'series = "series.toml"\nstore = "series.db"\ncontestants = {json.dumps(CAST)}\nhosts = ["ALEX"]\n'
    )
    refused(cli("check-config", str(serve)), str(serve), "ALEX", "Alex", "differ only in case")


def test_sandbox_names_that_clash_are_refused(tmp_path: Path) -> None:
    pw = tmp_path / "rcon.txt"
    pw.write_text("cast-names-pw")
    pw.chmod(0o600)
    refused(cli("sandbox", "--password-file", str(pw), "--names", ",".join(CLASH)), "--names", "ab_", "Ab_")
    refused(
        cli("sandbox", "--password-file", str(pw), "--names", "Alex,Kai,Zuri", "--hosts", "kai"),
        "--hosts",
        "kai",
        "Kai",
    )
