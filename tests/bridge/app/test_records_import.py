"""``traitors records import STORE…``: the finished series of existing stores go into the records database (SQLite
and PostgreSQL) exactly as ``traitors export`` prints them, once however often they are imported; a series still
running is never recorded; a bad store or database is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bridge.app.cli import main
from bridge.app.demo_settings import demo_settings
from bridge.loop.store import SeriesStore
from bridge.records.db import RecordsDb
from engine.sim import play_series


def store_with_every_ruleset(path: Path) -> Path:
    """A store holding one finished series of each ruleset and one still running."""
    with SeriesStore(path) as store:
        for ruleset, seed in (("traitors", 1), ("black_knights", 2), ("mafia_yakuza", 3), ("traitors", 4)):
            settings = demo_settings(8, ruleset)
            game, _ = play_series(settings, seed)
            stored = store.create(settings, seed, ruleset=ruleset)
            log = list(game.log) if seed != 4 else list(game.log)[:10]
            for i, e in enumerate(log, start=1):
                store.record(stored, entry=e, commands=[], over=seed != 4 and i == len(log))
    return path


def test_import_records_every_finished_series_once_as_export_prints_it(
    tmp_path: Path, records_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_with_every_ruleset(tmp_path / "series.db")
    assert main(["records", "import", str(store), "--records", records_url, "--castle", "north", "--season", "s1"]) == 0
    assert (
        capsys.readouterr().out.strip()
        == f"{store}: 3 series recorded, 0 already recorded, 1 still running (not recorded)"
    )
    assert main(["records", "import", str(store), "--records", records_url]) == 0
    assert "0 series recorded, 3 already recorded" in capsys.readouterr().out
    recorded = RecordsDb(records_url).series()
    assert [s.columns["ruleset"] for s in recorded] == ["traitors", "black_knights", "mafia_yakuza"]
    assert {s.columns["castle"] for s in recorded} == {"north"} and {s.columns["season"] for s in recorded} == {"s1"}
    for number, stored in enumerate(recorded, start=1):
        assert main(["export", str(store), "--series", str(number), "--format", "json"]) == 0
        exported = json.loads(capsys.readouterr().out)
        one = RecordsDb(records_url).one(stored.id)
        assert one is not None and one.record() == exported
        assert main(["export", str(store), "--series", str(number), "--format", "text"]) == 0
        assert one.columns["tables"] == capsys.readouterr().out.rstrip("\n")


def test_a_missing_store_is_one_line_and_the_others_are_still_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = store_with_every_ruleset(tmp_path / "series.db")
    junk = tmp_path / "junk.db"
    junk.write_text("not a store")
    code = main(
        ["records", "import", str(tmp_path / "missing.db"), str(junk), str(store), "--records", str(tmp_path / "r.db")]
    )
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[0] == f"traitors: {tmp_path / 'missing.db'}: no such series store"
    assert out[1].startswith(f"traitors: {junk}: not a Castle series store")
    assert out[2].startswith(f"{store}: 3 series recorded")


def test_an_unreachable_database_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = store_with_every_ruleset(tmp_path / "series.db")
    assert main(["records", "import", str(store), "--records", "postgresql://castle@127.0.0.1:1/records"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("traitors: records database postgresql://127.0.0.1:1/records: ") and "\n" not in err
    assert main(["records", "import", str(store), "--records", "postgresql://castle:pw@127.0.0.1:1/records"]) == 2
    assert "pw" not in capsys.readouterr().err
