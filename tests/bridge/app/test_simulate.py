"""``traitors simulate`` (bridge/app/simulate.py): determinism, processes, the JSON report, settings files, bad input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bridge.app.cli import main
from bridge.app.simulate import format_text, parse_bots, run_simulate
from engine.errors import ConfigError
from engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[3]


def simulate_json(capsys, *args: str) -> dict:
    assert main(["simulate", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def test_same_seed_same_json(capsys):
    a = simulate_json(capsys, "--series", "6", "--seed", "3")
    b = simulate_json(capsys, "--series", "6", "--seed", "3")
    assert a == b
    c = simulate_json(capsys, "--series", "6", "--seed", "4")
    assert c["seed"] == 4 and c != a


def test_jobs_give_the_same_result(capsys):
    one = simulate_json(capsys, "--series", "8", "--seed", "2", "--twist-impact")
    two = simulate_json(capsys, "--series", "8", "--seed", "2", "--twist-impact", "--jobs", "2")
    assert one == two


def test_json_schema(capsys):
    data = simulate_json(capsys, "--series", "5", "--contestants", "10", "--twist-impact")
    assert set(data) == {
        "ruleset",
        "contestants",
        "series",
        "seed",
        "bots",
        "win_rates",
        "average_days",
        "average_inputs",
        "on_winning_side",
        "twists",
        "twist_impact",
        "twists_in_setup",
    }
    assert data["ruleset"] == "traitors" and data["contestants"] == 10 and data["series"] == 5
    assert sum(w["wins"] for w in data["win_rates"].values()) == 5
    for w in data["win_rates"].values():
        assert set(w) == {"wins", "rate", "ci95"} and 0 <= w["ci95"][0] <= w["rate"] <= w["ci95"][1] <= 1
    for r in data["on_winning_side"].values():
        assert set(r) == {"dealt", "won", "rate"} and 0 <= r["won"] <= r["dealt"]
    assert data["twists_in_setup"] == ["double_vote", "joker"] and set(data["twists"]) == {"double_vote", "joker"}
    for t in data["twists"].values():
        assert set(t) == {"runs", "changed", "rate", "ci95", "win_rates_without"} and t["runs"] == 5
    assert data["average_days"] > 0


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_each_ruleset_runs(capsys, ruleset):
    data = simulate_json(capsys, "--ruleset", ruleset, "--series", "3", "--contestants", "9")
    assert data["ruleset"] == ruleset and data["series"] == 3 and data["twists"] == {}


def test_settings_file(capsys):
    path = str(ROOT / "world_config" / "series" / "black_knights.toml")
    data = simulate_json(capsys, "--settings", path, "--series", "3")
    assert data["ruleset"] == "black_knights" and data["contestants"] == 12


def test_text_report(capsys):
    assert main(["simulate", "--series", "4", "--bots", "faithful=smart,traitor=random"]) == 0
    out = capsys.readouterr()
    assert "Win rates (95 % Wilson interval)" in out.out and "Average series length" in out.out
    assert "--twist-impact" in out.out
    assert out.err == ""  # not a terminal: no progress bar


def test_progress_bar_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err, out = Tty(), io.StringIO()
    run_simulate(
        ruleset=None,
        contestants=None,
        series=3,
        seed=1,
        as_json=False,
        settings_file=None,
        jobs=1,
        bots="random",
        twist_impact=False,
        out=out,
        err=err,
    )
    assert "series" in err.getvalue() and "Win rates" in out.getvalue()
    err, out = Tty(), io.StringIO()
    run_simulate(
        ruleset=None,
        contestants=None,
        series=3,
        seed=1,
        as_json=True,
        settings_file=None,
        jobs=1,
        bots="random",
        twist_impact=False,
        out=out,
        err=err,
    )
    assert err.getvalue() == "" and json.loads(out.getvalue())["series"] == 3


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--series", "0"], "--series"),
        (["--series", "2", "--jobs", "0"], "--jobs"),
        (["--series", "2", "--contestants", "40"], "--contestants"),
        (["--series", "2", "--bots", "clever"], "--bots"),
        (["--series", "2", "--bots", "foo=random"], "no side 'foo' in traitors (sides: faithful, traitor)"),
        (["--series", "2", "--bots", "town=random"], "no side 'town' in traitors"),
        (
            ["--series", "2", "--ruleset", "black_knights", "--bots", "mafia=random"],
            "no side 'mafia' in black_knights (sides: alone, black_order, white_order)",
        ),
        (
            ["--series", "2", "--ruleset", "black_knights", "--bots", "alone=random,mad_knight=smart"],
            "side 'alone' given twice, as random and as smart",
        ),
        (["--series", "2", "--bots", "faithful=random,faithful=smart"], "side 'faithful' given twice"),
        (["--series", "2", "--settings", "/nonexistent/series.toml"], "/nonexistent/series.toml"),
    ],
)
def test_bad_input_exits_2_naming_the_option(capsys, args, needle):
    assert main(["simulate", *args]) == 2
    assert needle in capsys.readouterr().err


def test_ruleset_mismatch_and_bad_toml(tmp_path, capsys):
    path = str(ROOT / "world_config" / "series" / "black_knights.toml")
    assert main(["simulate", "--settings", path, "--ruleset", "traitors", "--series", "1"]) == 2
    assert "ruleset" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("contestants = [", encoding="utf-8")
    assert main(["simulate", "--settings", str(bad), "--series", "1"]) == 2
    assert str(bad) in capsys.readouterr().err


def test_bot_sides_may_be_named_as_they_win(capsys):
    """``--bots`` takes a side as the deal names it (``alone``) or as the report names its win (``mad_knight``):
    the same series either way, and not the all-smart default."""
    runs = {
        bots: simulate_json(capsys, "--ruleset", "black_knights", "--series", "12", "--bots", bots)["win_rates"]
        for bots in ("alone=random,black_order=random", "mad_knight=random,black_order=random", "smart")
    }
    assert runs["alone=random,black_order=random"] == runs["mad_knight=random,black_order=random"] != runs["smart"]
    traitors = simulate_json(capsys, "--series", "12", "--bots", "traitors=random")["win_rates"]
    assert traitors == simulate_json(capsys, "--series", "12", "--bots", "traitor=random")["win_rates"]


def test_parse_bots():
    assert parse_bots("smart") == "smart"
    assert parse_bots("faithful=smart, traitor=random") == {"faithful": "smart", "traitor": "random"}
    with pytest.raises(ConfigError):
        parse_bots("faithful")
    with pytest.raises(ConfigError):
        parse_bots("faithful=genius")


def test_format_text_lists_twists():
    data = {
        "ruleset": "traitors",
        "contestants": 12,
        "series": 1,
        "seed": 1,
        "bots": "smart",
        "win_rates": {"faithful": {"wins": 1, "rate": 1.0, "ci95": [0.2065, 1.0]}},
        "average_days": 5.0,
        "average_inputs": 100.0,
        "on_winning_side": {},
        "twists": {},
    }
    assert "Twists in this setup: none" in format_text(data, ())
    assert "double_vote" in format_text(data, ("double_vote",))
