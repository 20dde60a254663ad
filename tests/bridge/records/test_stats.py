"""The stats figures (``bridge/records/stats.py``) against the series' own exports, on records of every ruleset;
the gap's interval; and each setup's lab prediction, which must be what ``traitors simulate`` prints for the same
settings."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bridge.app.cli import main
from bridge.app.demo_settings import demo_settings
from bridge.app.export import format_record
from bridge.app.stats import fill_predictions, lab_key, predict
from bridge.config.settings_json import settings_to_json
from bridge.records.db import RecordsDb
from bridge.records.entry import make_entry
from bridge.records.stats import NO_POWER, figures, gap
from engine.sim import SIDE_WINS, play_series, twists_of, wilson

GAMES = [("traitors", 1), ("traitors", 2), ("traitors", 3), ("black_knights", 4), ("mafia_yakuza", 5), ("traitors", 6)]


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[RecordsDb, list[dict[str, Any]]]:
    db = RecordsDb(str(tmp_path / "records.db"))
    exports = []
    for ruleset, seed in GAMES:
        settings = demo_settings(8, ruleset)
        game, _ = play_series(settings, seed)
        record = json.loads(format_record(game.record, "json"))
        db.write(
            make_entry(
                record,
                format_record(game.record, "text"),
                key=f"k{seed}",
                settings=settings_to_json(settings),
                castle="north" if seed % 2 else "south",
                season="s1" if seed < 6 else "s2",
                twists=twists_of(settings),
            )
        )
        exports.append(record)
    return db, exports


def test_player_figures_are_the_sums_of_the_exports(recorded: tuple[RecordsDb, list[dict[str, Any]]]) -> None:
    db, exports = recorded
    f = figures(db.series())
    assert f["series"] == len(GAMES)
    for name, p in f["players"].items():
        seats = [
            (e, c, s) for e in exports for c, s in zip(e["contestants"], e["summary"], strict=True) if c["name"] == name
        ]
        assert p["series"] == len(seats)
        assert p["wins"] == sum(c["winner"] for _, c, _ in seats)
        assert p["survived"] == sum(c["out"] is None for _, c, _ in seats)
        assert p["votes_cast"] == sum(s["votes_cast"] for _, _, s in seats)
        found = sum(s.get("votes_for_traitors", s.get("votes_for_opponents", 0)) for _, _, s in seats)
        assert p["votes_found"] == found and p["found_rate"]["k"] == found
        assert p["powers"] == dict(Counter(c["power"] or NO_POWER for _, c, _ in seats))
        ended_as = Counter("traitor" if c["recruited_day"] is not None else c["allegiance"] for _, c, _ in seats)
        assert {side: v["played"] for side, v in p["by_side"].items()} == dict(ended_as)
    assert [p["name"] for p in f["leaderboard"]] == sorted(
        f["players"],
        key=lambda n: (-f["players"][n]["wins"], -wilson(f["players"][n]["wins"], f["players"][n]["series"])[0], n),
    )


def test_power_shares_count_the_winning_side_as_the_lab_does(recorded: tuple[RecordsDb, list[dict[str, Any]]]) -> None:
    db, exports = recorded
    powers = figures(db.series())["powers"]
    dealt: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for e in exports:
        for c in e["contestants"]:
            side = "traitor" if c["recruited_day"] is not None else c["allegiance"]
            dealt[c["power"] or NO_POWER] += 1
            won[c["power"] or NO_POWER] += int(c["winner"] or SIDE_WINS.get(side, side) == e["winner"])
    assert {p: (r["k"], r["n"]) for p, r in powers.items()} == {p: (won[p], n) for p, n in dealt.items()}


def test_setups_count_each_sides_wins_and_twists_their_series(recorded: tuple[RecordsDb, list[dict[str, Any]]]) -> None:
    db, exports = recorded
    f = figures(db.series())
    by_ruleset = Counter(e["ruleset"] for e in exports)
    assert sorted((s["ruleset"], s["series"]) for s in f["setups"]) == sorted(by_ruleset.items())
    traitors = next(s for s in f["setups"] if s["ruleset"] == "traitors")
    winners = Counter(e["winner"] for e in exports if e["ruleset"] == "traitors")
    assert {w: r["k"] for w, r in traitors["wins"].items() if r["k"]} == dict(winners)
    assert traitors["lab"] is None and traitors["check"] == {}
    assert f["twists"]["double_vote"]["series"] == by_ruleset["traitors"]


def test_season_and_castle_filters(recorded: tuple[RecordsDb, list[dict[str, Any]]]) -> None:
    db, _ = recorded
    assert figures(db.series(season="s2"))["series"] == 1
    assert figures(db.series(castle="south"))["series"] == 3


def test_the_gap_interval_is_newcombes_from_the_two_wilson_intervals() -> None:
    real = {"rate": 0.6, "ci95": list(wilson(6, 10))}
    lab = {"rate": 0.3, "ci95": list(wilson(300, 1000))}
    g = gap(real, lab)
    # Newcombe (1998), method 10: L = d - sqrt((p1-l1)^2 + (u2-p2)^2), U = d + sqrt((u1-p1)^2 + (p2-l2)^2)
    assert g["gap"] == pytest.approx(0.3)
    assert g["ci95"][0] == pytest.approx(
        0.3 - ((0.6 - real["ci95"][0]) ** 2 + (lab["ci95"][1] - 0.3) ** 2) ** 0.5, abs=1e-4
    )
    assert g["ci95"][1] == pytest.approx(
        0.3 + ((real["ci95"][1] - 0.6) ** 2 + (0.3 - lab["ci95"][0]) ** 2) ** 0.5, abs=1e-4
    )
    assert g["agrees"] is False  # 0.3 apart with 10 real series: the lab misses
    assert gap({"rate": 0.5, "ci95": list(wilson(2, 4))}, lab)["agrees"] is True


def test_the_prediction_is_what_traitors_simulate_prints_for_the_setup(
    recorded: tuple[RecordsDb, list[dict[str, Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = recorded
    assert fill_predictions(db, 40, 7) == 3
    assert fill_predictions(db, 40, 7) == 0  # cached: nothing played again
    f = figures(db.series(), db.predictions(lab_key(40, 7)))
    traitors = next(s for s in f["setups"] if s["ruleset"] == "traitors")
    series_file = tmp_path / "eight.toml"
    series_file.write_text(toml_of(traitors["setup"]))
    from bridge.app.simulate import load_settings

    written = settings_to_json(load_settings(str(series_file), None, None))
    assert {k: v for k, v in written.items() if k not in ("contestants", "hosts", "durations")} == {
        k: v for k, v in traitors["setup"].items() if k != "contestants"
    }
    assert main(["simulate", "--settings", str(series_file), "--series", "40", "--seed", "7", "--json"]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert traitors["lab"]["win_rates"] == simulated["win_rates"]
    assert traitors["lab"]["series"] == 40
    for side, check in traitors["check"].items():
        assert check["lab"]["rate"] == traitors["lab"]["win_rates"].get(side, {"rate": 0.0})["rate"]
        assert check["gap"] == pytest.approx(check["real"]["rate"] - check["lab"]["rate"], abs=1e-4)
    assert predict(traitors["setup"], 40, 7) == db.predictions(lab_key(40, 7))[traitors["key"]]


def toml_of(setup: dict[str, Any]) -> str:
    """A series file spelling a recorded setup (its knobs as they are, ``contestant_count`` for the count)."""
    lines, tables = [f"contestant_count = {setup['contestants']}"], []
    for key, value in setup.items():
        if key == "contestants" or value is None:
            continue
        if isinstance(value, dict):
            tables += [f"[{key}]", *(f'"{k}" = {json.dumps(v)}' for k, v in value.items())]
        else:
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines + tables) + "\n"


def test_stats_json_gives_the_same_figures(
    recorded: tuple[RecordsDb, list[dict[str, Any]]], capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = recorded
    assert main(["stats", "--records", db.target, "--json", "--lab-series", "20", "--season", "s1"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = figures(db.series(season="s1"), db.predictions(lab_key(20, 1)), season="s1")
    assert json.loads(json.dumps(expected)) == {k: v for k, v in data.items() if k != "lab"}
    assert data["lab"] == {"bots": "smart", "series": 20, "seed": 1}
    assert all(s["lab"] is not None for s in data["setups"])
