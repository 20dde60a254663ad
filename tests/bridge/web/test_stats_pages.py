"""The stats pages on the web app (``bridge/web/stats_pages.py``): their figures are ``traitors stats``'s, the
lab check shows both intervals and the gap, every value is escaped, a closed or broken database is one line, and
the pages mount beside the grimoire."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bridge.app.demo_settings import demo_settings
from bridge.app.export import format_record
from bridge.app.stats import fill_predictions
from bridge.config.settings_json import settings_to_json
from bridge.records.db import RecordsDb
from bridge.records.entry import make_entry
from bridge.records.stats import figures, lab_key
from bridge.web.app import COOKIE, make_app
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from bridge.web.stats_pages import record_html, stats_routes
from engine.sim import play_series, twists_of

TOKEN = "0" * 32
BASE = "http://127.0.0.1:8765"
LAB = lab_key(30, 1)


@pytest.fixture
def db(tmp_path: Path) -> RecordsDb:
    db = RecordsDb(str(tmp_path / "records.db"))
    for ruleset, seed in (("traitors", 1), ("traitors", 2), ("black_knights", 3)):
        settings = demo_settings(8, ruleset)
        game, _ = play_series(settings, seed)
        db.write(
            make_entry(
                json.loads(format_record(game.record, "json")),
                format_record(game.record, "text"),
                key=f"k{seed}",
                settings=settings_to_json(settings),
                castle="north<b>",
                season="spring",
                twists=twists_of(settings),
            )
        )
    fill_predictions(db, 30, 1)
    return db


@pytest.fixture
def client(db: RecordsDb) -> TestClient:
    return TestClient(
        make_app(WebHub(), HostKeys.one("Host", TOKEN), extra_routes=stats_routes(db, LAB)), base_url=BASE
    )


def test_the_json_is_the_stats_figures(client: TestClient, db: RecordsDb) -> None:
    got = client.get("/stats.json?season=spring")
    assert got.status_code == 200
    assert got.json() == json.loads(
        json.dumps(figures(db.series(season="spring"), db.predictions(LAB), season="spring"))
    )


def test_the_overview_shows_the_lab_check_with_both_intervals_and_the_gap(client: TestClient, db: RecordsDb) -> None:
    page = client.get("/stats")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    f = figures(db.series(), db.predictions(LAB))
    traitors = next(s for s in f["setups"] if s["ruleset"] == "traitors")
    for side, check in traitors["check"].items():
        real, lab = check["real"], check["lab"]
        row = f"<td>{side}</td><td>{real['rate'] * 100:.1f} %"
        assert row in html
        assert (
            f'{lab["rate"] * 100:.1f} % <span class="muted">[{lab["ci95"][0] * 100:.1f} %, {lab["ci95"][1] * 100:.1f} %]'
            in html
        )
        assert f"{check['gap'] * 100:+.1f} points" in html
    assert html.count("<svg") >= 4 and "<script" not in html and " style=" not in html
    for p in f["leaderboard"]:
        assert f'<a href="/stats/player/{p["name"]}">{p["name"]}</a>' in html
    assert "north&lt;b&gt;" in html and "north<b>" not in html  # escaped


def test_player_and_series_pages(client: TestClient, db: RecordsDb) -> None:
    name = db.series()[0].contestants[0]["name"]
    page = client.get(f"/stats/player/{name}")
    assert page.status_code == 200
    p = figures(db.series())["players"][name]
    assert f"<b>{p['series']}</b>series" in page.text and f"<b>{p['wins']}</b>wins" in page.text
    assert client.get("/stats/player/Nobody_Here").status_code == 404
    assert client.get("/stats/player/%3Cscript%3E").status_code == 404
    one = client.get("/stats/series/1")
    assert one.status_code == 200 and "<h2>Cast</h2>" in one.text and "<th>Contestant</th>" in one.text
    assert client.get("/stats/series/99").status_code == 404


def test_the_record_tables_become_html_tables() -> None:
    html = record_html(
        "# The Traitors: series record\n\n## Cast\n\n| Seat | Contestant |\n|---|---|\n| 1 | <Alex> |\n\n"
        "Result: Traitors win"
    )
    assert html == (
        '<div class="record"><h2>The Traitors: series record</h2><h2>Cast</h2><div class="scroll"><table>'
        "<thead><tr><th>Seat</th><th>Contestant</th></tr></thead><tbody><tr><td>1</td><td>&lt;Alex&gt;</td>"
        "</tr></tbody></table></div><p>Result: Traitors win</p></div>"
    )


def test_host_only_pages_need_the_host_cookie(db: RecordsDb) -> None:
    keys = HostKeys.one("Host", TOKEN)
    client = TestClient(
        make_app(
            WebHub(),
            keys,
            extra_routes=stats_routes(
                db, LAB, allow=lambda request: keys.host_of(request.cookies.get(COOKIE)) is not None
            ),
        ),
        base_url=BASE,
    )
    assert client.get("/stats").status_code == 403
    client.cookies.set(COOKIE, keys.session("Host"))
    assert client.get("/stats").status_code == 200


def test_a_database_that_cannot_be_read_is_a_one_line_503(tmp_path: Path) -> None:
    broken = tmp_path / "records.db"
    broken.write_text("junk" * 100)
    client = TestClient(
        make_app(WebHub(), HostKeys.one("Host", TOKEN), extra_routes=stats_routes(RecordsDb(str(broken)), LAB)),
        base_url=BASE,
    )
    page = client.get("/stats")
    assert page.status_code == 503 and re.fullmatch(r"503: records database .*\n", page.text)
