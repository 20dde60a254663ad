"""traitors balance: racing search over setups, the same result in every runner (bridge/app/balance.py)."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys

import pytest

from bridge.app.balance import Arm, Search, run_balance, search
from bridge.app.balance_run import LocalRunner, ProcessRunner, runner
from bridge.app.balance_setups import setups_for
from bridge.app.cli import main
from engine.errors import ConfigError

QUICK = Search(first=20, batch=20, max_series=60, keep=2, bots="random", precision=0.1)
"""A small search: random bots, a few rounds."""


def _setups():
    return setups_for("black_knights", 8)[:4]


def _key(arms: list[Arm]) -> list[tuple[str, int, int, int | None]]:
    return [(a.setup.label, a.series, a.evil, a.dropped) for a in arms]


def test_setups_cover_the_knobs_each_valid():
    traitors = setups_for("traitors", 12)
    assert len(traitors) >= 20
    labels = {s.label for s in traitors}
    assert "traitors=3 drunk=possible joker=on double_vote=on first_night_murder=off" in labels
    assert {s.settings.traitors for s in traitors} == {1, 2, 3}
    assert len(setups_for("mafia_yakuza", 12)) == 16
    sober = setups_for("traitors", 12, {"drunk": "none"})
    assert len(sober) == 24 and all(s.settings.drunk == "none" for s in sober)
    with pytest.raises(ConfigError, match="--fix: drunk=sometimes; values: always, none, possible"):
        setups_for("traitors", 12, {"drunk": "sometimes"})
    with pytest.raises(ConfigError, match="--ruleset"):
        setups_for("chess", 12)


def test_racing_drops_setups_the_interval_rules_out_and_spends_less_than_equal_allocation():
    setups = _setups()
    race = search(setups, QUICK, LocalRunner(), ruleset="black_knights")
    equal = search(setups, dataclasses.replace(QUICK, strategy="equal"), LocalRunner(), ruleset="black_knights")
    assert all(a.series == equal[0].series for a in equal)  # equal: the same for every setup
    spent = sum(a.series for a in race)
    assert spent <= sum(a.series for a in equal)
    for a in race:
        if a.dropped is not None:  # a dropped setup's distance is surely above the best kept ones'
            kept = sorted(b.distance(0.5)[2] for b in race if b.dropped is None)
            assert a.distance(0.5)[0] > kept[0]


def test_the_result_does_not_depend_on_the_processes():
    setups = _setups()
    one = search(setups, QUICK, LocalRunner(), ruleset="black_knights")
    two = ProcessRunner(2)
    try:
        assert _key(search(setups, QUICK, two, ruleset="black_knights")) == _key(one)
    finally:
        two.close()


def test_a_dask_cluster_gives_the_same_result():
    distributed = pytest.importorskip("distributed", reason="the [cluster] extra (dask[distributed]) is missing")
    setups = _setups()
    one = search(setups, QUICK, LocalRunner(), ruleset="black_knights")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c:
        run = runner(scheduler=c.scheduler_address)
        try:
            assert _key(search(setups, QUICK, run, ruleset="black_knights")) == _key(one)
        finally:
            run.close()


def test_json_lists_every_setup_ranked_with_its_interval_and_series():
    out = io.StringIO()
    assert run_balance(ruleset="black_knights", contestants=8, opts=QUICK, as_json=True, out=out) == 0
    data = json.loads(out.getvalue())
    assert len(data["setups"]) == len(setups_for("black_knights", 8))
    assert data["series_total"] == sum(s["series"] for s in data["setups"])
    kept = [s for s in data["setups"] if s["dropped_in_round"] is None]
    assert data["setups"][: len(kept)] == kept  # setups still in the race come first
    for s in data["setups"]:
        lo, hi = s["ci95"]
        assert lo <= s["rate"] <= hi


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["balance", "--precision", "0"], "--precision"),
        (["balance", "--jobs", "0"], "--jobs"),
        (["balance", "--ruleset", "mafia_yakuza", "--contestants", "30"], "--contestants"),
        (["balance", "--bots", "traitor=clever"], "--bots"),
        (["balance", "--fix", "drunk"], "--fix"),
        (["balance", "--fix", "shields=2"], "--fix"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err and "Traceback" not in err


def test_plot_needs_matplotlib_or_draws_the_file(tmp_path, monkeypatch):
    from bridge.app import balance

    data = {"ruleset": "black_knights", "contestants": 8, "target": 0.5, "keep": 1,
            "setups": [{"knobs": {"black_knights": "1"}, "rate": 0.5, "ci95": [0.4, 0.6], "dropped_in_round": None}]}  # fmt: skip
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        with pytest.raises(ConfigError, match=r"castle-traitors\[plot\]"):
            balance.plot(data, str(tmp_path / "p.png"))
        return
    balance.plot(data, str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


def test_the_balance_and_simulate_commands_do_not_import_the_sandbox():
    # `traitors --help` builds every parser, balance's included: it must stay fast (no sandbox, no server loop).
    code = ("import sys, bridge.app.balance, bridge.app.simulate, bridge.app.cli as cli\n"
            "cli._parser()\n"
            "print(sorted(m for m in sys.modules if m.startswith(('bridge.sandbox', 'bridge.loop', 'mecha'))))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
