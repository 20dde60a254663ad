"""traitors balance: racing search over setups, the same result in every runner (bridge/app/balance.py)."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import re
import subprocess
import sys

import pytest

from bridge.app.balance import (
    Arm,
    Bar,
    Search,
    differences,
    in_doubt,
    kept,
    precise,
    ranked,
    run_balance,
    search,
    to_json,
)
from bridge.app.balance_run import LocalRunner, ProcessRunner, runner
from bridge.app.balance_setups import Setup, setups_for
from bridge.app.cli import main
from engine.errors import ConfigError

QUICK = Search(first=20, batch=20, max_series=60, keep=2, bots="random", precision=0.1)
"""A small search: random bots, a few rounds."""


def _setups():
    return setups_for("black_knights", 8)[:4]


class Known:
    """A runner whose setups have known rates: a setup's ``settings`` is the evil side's win rate, and series
    ``seed`` is won by it when a hash of (rate, seed) falls below the rate. It plays no series, so a test can
    check the search's bookkeeping on thousands of series at once, against the truth."""

    def map(self, tasks, done=None):
        out = []
        for rate, seeds, _bots in tasks:
            wins = sum(
                int.from_bytes(hashlib.sha256(f"{rate}:{s}".encode()).digest()[:4]) < rate * 2**32 for s in seeds
            )
            out.append({"traitors": wins, "faithful": len(seeds) - wins})
            if done is not None:
                done(len(seeds))
        return out

    def close(self):
        pass


RATES = (
    0.50,
    0.51,
    0.49,
    0.52,
    0.47,
    0.54,
    0.45,
    0.56,
    0.42,
    0.60,
    0.38,
    0.65,
    0.70,
    0.30,
    0.75,
    0.80,
    0.25,
    0.85,
    0.90,
    0.20,
    0.53,
    0.48,
    0.55,
    0.58,
)
"""24 setups, eight of them within 3 points of 50 %: the near ties that make a search expensive."""


TIES = tuple(round(0.48 + 0.04 * i / 23, 4) for i in range(24)) + tuple(
    round(0.55 + 0.4 * i / 47, 4) for i in range(48)
)
"""72 setups, a third of them within 2 points of 50 %."""


def _known(rates: tuple[float, ...] = RATES) -> list[Setup]:
    return [Setup((("rate", f"{p}"),), p) for p in rates]


class Terminal(io.StringIO):
    """Standard error as a terminal."""

    def isatty(self):
        return True


def _key(arms: list[Arm]) -> list[tuple[str, int, int, int | None]]:
    return [(a.setup.label, a.series, a.evil, a.dropped) for a in arms]


def test_setups_cover_the_knobs_each_valid():
    traitors = setups_for("traitors", 12)
    assert len(traitors) >= 20
    labels = {s.label for s in traitors}
    assert "traitors=3 drunk=possible joker=on double_vote=on first_night_murder=off" in labels
    assert {s.settings.traitors for s in traitors} == {1, 2, 3}
    assert len(setups_for("mafia_yakuza", 12)) == 8
    # at 8 the deal has no Mafioso and no Yakuza: their knobs change nothing, and the duplicates are left out
    small = setups_for("mafia_yakuza", 8)
    assert len(small) == len({repr(s.settings) for s in small}) == 2
    with pytest.raises(ConfigError, match="black_knights has no knob 'drunk'"):
        setups_for("black_knights", 12, {"drunk": "none"})
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


@pytest.mark.parametrize("rates", [RATES, TIES], ids=["24 setups", "72 setups"])
def test_racing_finds_the_best_few_of_known_setups_for_a_third_of_equal_allocations_series(rates):
    opts = Search(bots="random")  # the defaults: the best 3 to ±2 %
    race = search(_known(rates), opts, Known())
    equal = search(_known(rates), dataclasses.replace(opts, strategy="equal"), Known())
    assert 3 * sum(a.series for a in race) <= sum(a.series for a in equal)
    assert differences(race, equal, opts) == []
    best = kept(race, opts)
    assert all(precise(a, opts) for a in best)
    assert all(abs(a.setup.settings - 0.5) <= 0.03 for a in best)  # the true rates: all among the near ties
    for a in race:  # it stopped because nothing was left in doubt
        assert a in best or a.dropped is not None or not in_doubt(a, best, opts)
    far = [a for a in race if abs(a.setup.settings - 0.5) >= 0.2]
    assert far and all(a.series == opts.first and a.dropped == 1 for a in far)  # ruled out after the first round


def test_a_setup_known_near_the_target_outranks_one_a_few_lucky_series_put_nearer():
    sure, lucky = Arm(_known()[1], 2400, 1224), Arm(_known()[0], 200, 100)  # 51 % ± 2 and 50 % ± 7
    assert kept([lucky, sure], Search(keep=1)) == [sure]
    assert ranked([lucky, sure], 0.5) == [sure, lucky]
    lucky.dropped = 2
    assert ranked([Arm(_known()[9], 200, 120), lucky], 0.5)[1] is lucky  # a dropped setup comes last


def test_differences_names_a_setup_racing_ranked_best_that_equal_allocation_does_not():
    opts = Search(keep=1)
    near, far = _known()[0], _known()[9]  # 50 % and 60 %
    equal = [Arm(near, 2400, 1200), Arm(far, 2400, 1440)]
    assert differences([Arm(near, 400, 200), Arm(far, 400, 240)], equal, opts) == []
    wrong = differences([Arm(near, 400, 240), Arm(far, 400, 200)], equal, opts)  # racing drew far as 50 %
    assert len(wrong) == 2 and all(line.startswith("rate=0.6: ") for line in wrong)


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
    out, err = io.StringIO(), Terminal()
    assert run_balance(ruleset="black_knights", contestants=8, opts=QUICK, as_json=True, out=out, err=err) == 0
    assert err.getvalue() == ""  # no progress bar with --json, even on a terminal
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
        (["balance", "--scheduler", "notaurl"], "--scheduler: 'notaurl' is not a scheduler address"),
        (["balance", "--plot", "table.txt"], "--plot: table.txt: not an image file name"),
        (["balance", "--plot", "no/such/folder/p.png"], "--plot: no/such/folder/p.png: no folder"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err and "Traceback" not in err


def test_on_a_terminal_a_progress_bar_counts_the_series_round_by_round(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # the note must fit
    err = Terminal()
    bar = Bar(err, len(RATES))
    arms = search(_known(), Search(bots="random"), Known(), bar)
    bar.close()
    frames = re.findall(r"(\d+)/(\d+) \[[^]]*round (\d+): (\d+) sampled, (\d+) in the race\]", err.getvalue())
    first, last = ([int(x) for x in f] for f in (frames[0], frames[-1]))
    assert first == [0, 24 * 200, 1, 24, 24]  # every setup's first series
    assert last[1] == sum(a.series for a in arms)  # the planned total grew round by round to the series played
    assert last[2] > 2 and last[3] <= 3 < last[4] < 24  # at the end only the best few get series; many dropped


def _known_json() -> dict:
    opts = Search(bots="random")
    return to_json(search(_known(), opts, Known()), opts, ruleset="traitors", contestants=12)


def test_plot_needs_matplotlib_or_draws_the_file(tmp_path):
    from bridge.app import balance_plot

    data = {**_known_json(), "ruleset": "black_knights"}
    for s in data["setups"]:
        s["knobs"] = {"black_knights": str(int(float(s["knobs"]["rate"]) * 10) % 3 + 1)}
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        with pytest.raises(ConfigError, match=r"castle-traitors\[plot\]"):
            balance_plot.plot(data, str(tmp_path / "p.png"))
        return
    balance_plot.plot(data, str(tmp_path / "p.png"))
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ConfigError, match="--plot: cannot write"):
        balance_plot.plot(data, str(tmp_path / "missing" / "p.png"))


def test_plot_spreads_the_setups_of_one_value_lowest_rate_first():
    from bridge.app.balance_plot import positions

    setups = [{"knobs": {"traitors": t}, "rate": r} for t, r in (("2", 0.7), ("10", 0.9), ("2", 0.6), ("1", 0.5))]
    values, xs = positions(setups, "traitors")
    assert values == ["1", "2", "10"]  # numbers in numeric order
    assert xs[3] == 0.0 and 0.5 < xs[2] < 1.0 < xs[0] < 1.5 and xs[1] == 2.0


def _modules_loaded_by(code: str) -> list[str]:
    code += (
        "\nprint(sorted(m for m in sys.modules if m.startswith(('bridge.sandbox', 'bridge.loop', 'mecha', 'engine.'))))"
    )
    out = subprocess.run([sys.executable, "-c", "import sys\n" + code], capture_output=True, text=True, check=True)
    return [m for m in json.loads(out.stdout.replace("'", '"')) if not m.startswith(("engine.errors", "engine.ids"))]


def test_traitors_help_imports_no_rules_and_balance_and_simulate_no_sandbox():
    # `traitors --help` builds every parser, balance's included: it must stay fast.
    loaded = _modules_loaded_by("import bridge.app.cli as cli\ncli._parser()")
    assert not [m for m in loaded if m.startswith(("bridge.sandbox", "engine.rulesets", "engine.sim", "mecha"))]
    loaded = _modules_loaded_by("import bridge.app.balance, bridge.app.simulate")
    assert "engine.sim" in loaded and not [
        m for m in loaded if m.startswith(("bridge.sandbox", "bridge.loop", "mecha"))
    ]
