"""The records database on both backends: SQLite (a file) and a real PostgreSQL server (``postgres_url``,
skipped with its reason where PostgreSQL cannot start): the versioned schema, idempotent writes of every
ruleset's records, read-back, the lab's prediction cache, and one-line errors for a bad, unreachable, damaged or
newer database."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bridge.app.demo_settings import demo_settings
from bridge.app.export import format_record
from bridge.config.settings_json import settings_to_json
from bridge.records.db import RecordsDb, RecordsUnavailable, parse_url
from bridge.records.entry import SeriesEntry, make_entry, setup_key
from bridge.records.schema import SCHEMA_VERSION
from engine.errors import ConfigError
from engine.sim import play_series, twists_of


def finished(ruleset: str = "traitors", seed: int = 3, contestants: int = 8) -> tuple[dict[str, Any], str, Any]:
    """A finished bot series: its JSON game log, its text tables and its settings."""
    settings = demo_settings(contestants, ruleset)
    game, _ = play_series(settings, seed)
    return json.loads(format_record(game.record, "json")), format_record(game.record, "text"), settings


def entry(ruleset: str = "traitors", seed: int = 3, key: str | None = None, castle: str = "north") -> SeriesEntry:
    record, tables, settings = finished(ruleset, seed)
    return make_entry(
        record,
        tables,
        key=key or f"{ruleset}-{seed}",
        settings=settings_to_json(settings),
        castle=castle,
        season="s1",
        minecraft="1.21.11",
        started=1000.0,
        ended=1600.0,
        twists=twists_of(settings),
    )


def test_a_new_database_gets_the_whole_schema_once(records_url: str) -> None:
    db = RecordsDb(records_url)
    assert db.migrate() == 0
    assert RecordsDb(records_url).migrate() == SCHEMA_VERSION  # already there: nothing applied again
    assert db.schema_version() == SCHEMA_VERSION


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
def test_every_ruleset_is_recorded_once_and_read_back_as_written(records_url: str, ruleset: str) -> None:
    db = RecordsDb(records_url)
    e = entry(ruleset)
    assert db.write(e) is True
    assert db.write(e) is False  # the same series again: one row set
    assert RecordsDb(records_url).write(e) is False
    [got] = db.series()
    record = e.record
    assert got.columns["ruleset"] == ruleset and got.columns["winner"] == record["winner"]
    assert got.columns["castle"] == "north" and got.columns["season"] == "s1" and got.columns["minecraft"] == "1.21.11"
    assert got.columns["duration"] == 600.0 and got.columns["contestants"] == len(record["contestants"])
    assert got.columns["setup_key"] == setup_key(e.setup)
    assert [c["name"] for c in got.contestants] == [c["name"] for c in record["contestants"]]
    assert [c["power"] for c in got.contestants] == [c["power"] for c in record["contestants"]]
    assert [bool(c["winner"]) for c in got.contestants] == [c["winner"] for c in record["contestants"]]
    assert sum(c["votes_cast"] for c in got.contestants) == sum(s["votes_cast"] for s in record["summary"])
    one = db.one(got.id)
    assert one is not None and one.record() == record and one.columns["tables"] == e.tables
    assert list(got.twists) == sorted(e.twists)


def test_two_writers_racing_on_one_series_keep_one_row_set(records_url: str) -> None:
    e = entry()
    RecordsDb(records_url).migrate()
    results: list[bool] = []

    def write() -> None:
        results.append(RecordsDb(records_url, timeout=10).write(e))

    threads = [threading.Thread(target=write) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [False, False, False, True]
    [got] = RecordsDb(records_url).series()
    assert len(got.contestants) == len(e.contestants)


def test_series_are_filtered_by_season_and_castle(records_url: str) -> None:
    db = RecordsDb(records_url)
    db.write(entry(seed=1, castle="north"))
    db.write(entry(seed=2, castle="south"))
    assert [s.columns["castle"] for s in db.series(castle="south")] == ["south"]
    assert len(db.series(season="s1")) == 2 and db.series(season="other") == []
    assert db.seasons() == ["s1"]


def test_lab_predictions_are_cached_per_setup_and_replaced(records_url: str) -> None:
    db = RecordsDb(records_url)
    assert db.prediction("abc", "smart:100:1") is None
    db.put_prediction("abc", "smart:100:1", "traitors", {"win_rates": {"faithful": {"rate": 0.5}}})
    db.put_prediction("abc", "smart:100:1", "traitors", {"win_rates": {"faithful": {"rate": 0.25}}})
    assert db.prediction("abc", "smart:100:1") == {"win_rates": {"faithful": {"rate": 0.25}}}
    assert db.predictions("smart:100:1") == {"abc": {"win_rates": {"faithful": {"rate": 0.25}}}}
    assert db.predictions("other") == {}


def test_an_unfinished_series_is_never_recorded() -> None:
    record, tables, _ = finished()
    with pytest.raises(ValueError, match="not over"):
        make_entry({**record, "winner": None}, tables, key="k", settings={}, castle="c")


def test_a_password_in_the_address_is_refused_and_never_shown() -> None:
    with pytest.raises(ConfigError, match="CASTLE_RECORDS_PASSWORD") as caught:
        parse_url("postgresql://castle:hunter2@db.example:5432/records")
    assert "hunter2" not in str(caught.value)
    with pytest.raises(ConfigError, match="unknown kind"):
        parse_url("mysql://db/records")


def test_a_relative_file_is_relative_to_the_config(tmp_path: Path) -> None:
    assert parse_url("records.db", tmp_path) == ("sqlite", str(tmp_path / "records.db"))
    assert parse_url("sqlite:///srv/castle/records.db") == ("sqlite", "/srv/castle/records.db")


def one_line(fail: Callable[[], object]) -> str:
    with pytest.raises(RecordsUnavailable) as caught:
        fail()
    text = str(caught.value)
    assert "\n" not in text
    return text


def test_an_unreachable_server_is_one_line_without_user_or_password() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    text = one_line(
        lambda: RecordsDb(f"postgresql://castle@127.0.0.1:{port}/records", password="pw", timeout=1).migrate()
    )
    assert text.startswith(f"records database postgresql://127.0.0.1:{port}/records: ")
    assert "castle@" not in text and "pw" not in text.split(": ", 1)[1].split()[:1]


def test_a_damaged_or_foreign_sqlite_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    assert "not an SQLite database" in one_line(lambda: RecordsDb(str(junk)).migrate())
    assert junk.read_bytes() == b"not a database at all" * 100
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE series (x)")
    assert "not a Castle records database" in one_line(lambda: RecordsDb(str(other)).migrate())
    assert "no folder" in one_line(lambda: RecordsDb(str(tmp_path / "missing" / "r.db")).migrate())


def test_a_newer_schema_is_refused_and_not_changed(records_url: str) -> None:
    db = RecordsDb(records_url)
    db.migrate()
    with db._transaction() as cur:
        cur.execute("UPDATE schema_version SET version=?", (SCHEMA_VERSION + 1,))
    text = one_line(lambda: RecordsDb(records_url).migrate())
    assert f"schema version {SCHEMA_VERSION + 1} is newer" in text
