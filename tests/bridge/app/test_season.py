"""Three sandbox series in a row, the casts drawn from bots who signed up in the lobby, recorded in one records
database: two castles' services writing one PostgreSQL database at once, and one castle with the SQLite default.
The stats pages' figures are then checked against the series' own exports (``traitors export``)."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from bridge.app.cli import main
from bridge.records.db import RecordsDb
from bridge.records.stats import NO_POWER, lab_key
from bridge.web.app import make_app
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from bridge.web.stats_pages import stats_routes

from .season_rig import castle, play


def exports(store: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """Every series of a store as ``traitors export --format json`` prints it."""
    out = []
    number = 1
    while main(["export", str(store), "--series", str(number), "--format", "json"]) == 0:
        out.append(json.loads(capsys.readouterr().out))
        number += 1
    capsys.readouterr()
    return out


def record(db: RecordsDb, series_id: int) -> dict[str, Any]:
    one = db.one(series_id)
    assert one is not None
    return one.record()


def check_pages_against(db: RecordsDb, games: list[dict[str, Any]], castles: dict[str, int]) -> None:
    """The stats pages' figures (``/stats.json`` and ``/stats``) are the exports' own counts."""
    client = TestClient(
        make_app(WebHub(), HostKeys.one("Host"), extra_routes=stats_routes(db, lab_key(20, 1))),
        base_url="http://127.0.0.1:8765",
    )
    f = client.get("/stats.json").json()
    assert f["series"] == len(games) == sum(castles.values())
    assert Counter(r["castle"] for r in f["recorded"]) == Counter(castles)
    assert {r["season"] for r in f["recorded"]} == {"spring"}
    seats = [(g, c, s) for g in games for c, s in zip(g["contestants"], g["summary"], strict=True)]
    for name, p in f["players"].items():
        mine = [(g, c, s) for g, c, s in seats if c["name"] == name]
        assert p["series"] == len(mine)
        assert p["wins"] == sum(c["winner"] for _, c, _ in mine)
        assert p["survived"] == sum(c["out"] is None for _, c, _ in mine)
        assert p["votes_cast"] == sum(s["votes_cast"] for _, _, s in mine)
        assert p["votes_found"] == sum(s["votes_for_traitors"] for _, _, s in mine)
        assert p["powers"] == dict(Counter(c["power"] or NO_POWER for _, c, _ in mine))
    assert sum(p["series"] for p in f["players"].values()) == len(seats)
    [setup] = f["setups"]  # every series played the one series file
    assert {w: r["k"] for w, r in setup["wins"].items() if r["k"]} == dict(Counter(g["winner"] for g in games))
    assert setup["lab"] is not None and setup["lab"]["series"] == 20  # the season cached the lab's prediction
    html = client.get("/stats").text
    for p in f["leaderboard"]:
        assert f'>{p["name"]}</a></td><td class="num">{p["series"]}</td><td class="num">{p["wins"]}</td>' in html
    for stored in db.series():
        game = record(db, stored.id)
        assert game in games
        page = client.get(f"/stats/series/{stored.id}").text
        winners = [c["name"] for c in game["contestants"] if c["winner"]]
        assert winners and all(w in page for w in winners) and "<h2>Cast</h2>" in page


def check_lobby(games: list[dict[str, Any]], names: set[str]) -> None:
    """Every cast came from the lobby: six of the bots who signed up, none of them the host."""
    for g in games:
        cast = [c["name"] for c in g["contestants"]]
        assert len(cast) == 6 == len(set(cast)) and set(cast) <= names and "Host" not in cast


@pytest.mark.slow(reason="two castles, three sandbox series each, on the wall clock")
def test_three_series_from_the_lobby_on_two_castles_sharing_postgresql(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def both() -> None:
        async with (
            castle(tmp_path / "north", postgres_url, "north", seed=1) as north,
            castle(tmp_path / "south", postgres_url, "south", seed=2) as south,
        ):
            await asyncio.gather(play(north, 2), play(south, 1))
            assert north.lobbies == 2 and south.lobbies == 1

    asyncio.run(both())
    games = exports(tmp_path / "north" / "series.db", capsys) + exports(tmp_path / "south" / "series.db", capsys)
    check_lobby(games, {"Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe"})
    db = RecordsDb(postgres_url)
    assert [s.columns["castle"] for s in db.series()].count("north") == 2
    assert all(s.columns["minecraft"].startswith("1.21.11") for s in db.series())  # as the server reported it
    north_games, south_games = games[:2], games[2:]
    ordered = sorted(db.series(), key=lambda s: (s.columns["castle"], s.id))
    assert [record(db, s.id) for s in ordered] == north_games + south_games
    check_pages_against(db, north_games + south_games, {"north": 2, "south": 1})


@pytest.mark.slow(reason="three sandbox series in a row on the wall clock")
def test_three_series_in_a_row_with_the_sqlite_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    async def one() -> None:
        async with castle(tmp_path / "castle", "records.db", "keep", seed=3) as keep:
            await play(keep, 3)
            assert keep.lobbies == 3

    asyncio.run(one())
    games = exports(tmp_path / "castle" / "series.db", capsys)
    assert len(games) == 3
    check_lobby(games, {"Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe"})
    db = RecordsDb(str(tmp_path / "castle" / "records.db"))  # the default: records.db beside serve.toml
    assert [record(db, s.id) for s in db.series()] == games
    check_pages_against(db, games, {"keep": 3})


@pytest.mark.slow(reason="sandbox series while the records database goes away and comes back")
def test_a_records_database_that_is_away_loses_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    """The database's folder is missing while the series is played: one warning line, the series waits in its
    store's outbox, and it is written once the database is there."""
    from bridge.app.records import records_db
    from bridge.app.season import Records
    from bridge.loop.season_store import SeasonStore
    from bridge.loop.store import SeriesStore

    async def one() -> Any:
        async with castle(tmp_path / "castle", "away/records.db", "keep", seed=4) as keep:
            await play(keep, 1)
            return keep.config

    with caplog.at_level("WARNING", logger="castle.serve"):
        config = asyncio.run(one())
    warnings = [r.getMessage() for r in caplog.records if "records database" in r.getMessage()]
    assert warnings and all("\n" not in w for w in warnings)
    assert warnings[0].startswith(f"records database {tmp_path / 'castle' / 'away' / 'records.db'}: no folder")
    with SeriesStore(config.store, fresh=True) as store:
        assert SeasonStore(store).pending() == [1]
        (tmp_path / "castle" / "away").mkdir()
        records = Records(store, records_db(config.records), config)
        assert asyncio.run(records.flush_once()) is True
        assert SeasonStore(store).pending() == []
    [game] = exports(tmp_path / "castle" / "series.db", capsys)
    db = RecordsDb(str(tmp_path / "castle" / "away" / "records.db"))
    assert [record(db, s.id) for s in db.series()] == [game]
