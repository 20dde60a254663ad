"""The stats pages: the records database's figures on the web app that serves the grimoire (``docs/seasons.md``,
"The stats pages"). Their own routes, mounted beside the grimoire's (``stats_routes``):

- ``GET /stats``: the season at a glance: wins by side, each setup's real win rates beside the balance lab's
  prediction with both intervals and the gap (the lab check), the leaderboard, powers and twists on the winning
  side, and every series recorded. ``?season=`` and ``?castle=`` narrow it.
- ``GET /stats/player/{name}``: one player's series, wins by side, powers held, survival and votes.
- ``GET /stats/series/{id}``: one series' record as the rulebook's tables (``traitors export``'s text).
- ``GET /stats.json``: the same figures as ``traitors stats --json`` (cached lab results only).
- ``GET /stats/stats.css``: their stylesheet.

House rules of this file:

1. Public by default; only finished series are in the records (``bridge/records/db.py`` house rule 4), so no
   page can show a secret of a series in progress. ``allow`` (the host's cookie, ``[records] pages = "host"``)
   closes them to everyone else.
2. Pages are HTML made on the server with every value escaped, charts are inline SVG (``stats_svg.py``); no
   inline script or style, so they work under a strict content security policy, and on a 390 px phone.
3. A records database that cannot be read gives a one-line 503 page, never a traceback.
4. Pages never play a series: the lab's predictions are read from the database's cache (``traitors stats``, or
   the season after each series, fills it).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from bridge.records.db import RecordsDb, RecordsUnavailable
from bridge.records.stats import figures
from bridge.web.stats_svg import LAB_COLOUR, Bar, bar_chart, side_colour

__all__ = ["CSS", "html_page", "record_html", "stats_routes"]

CSS = """
body { font-family: system-ui, sans-serif; margin: 0; background: #1d1b22; color: #eee; line-height: 1.35; }
header { padding: .6em 1em; background: #2b2733; display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: baseline; }
header h1 { font-size: 1.25em; margin: 0; } header nav a { color: #c9b8ff; margin-right: .8em; }
main { padding: .5em 1em 2em; max-width: 1100px; }
section { margin: 1.2em 0; } h2 { font-size: 1.1em; margin: 0 0 .4em; } h3 { font-size: 1em; margin: .8em 0 .3em; }
.scroll { overflow-x: auto; } table { border-collapse: collapse; font-size: .9em; }
td, th { border: 1px solid #4a4458; padding: .25em .5em; text-align: left; white-space: nowrap; }
th { background: #2b2733; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
a { color: #8fd3ff; } .muted { color: #aaa; font-size: .9em; } .miss { color: #ff6b6b; } .ok { color: #7fd17f; }
.chart { max-width: 760px; display: block; margin: .3em 0; }
.cards { display: flex; flex-wrap: wrap; gap: .6em; } .card { background: #2b2733; border-radius: .4em; padding: .5em .8em; }
.card b { font-size: 1.4em; display: block; }
form.filters { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; }
select, button { background: #3a3545; color: #eee; border: 1px solid #6d6480; border-radius: .3em; padding: .2em .4em; }
form { display: inline; } button { margin: .15em; } input { background: #3a3545; color: #eee; border: 1px solid #6d6480; }
.said { color: #f5c542; } .record h2 { margin-top: 1.2em; } .record p { margin: .2em 0; }
@media (max-width: 600px) { main { padding: .4em .5em 2em; } td, th { padding: .2em .35em; } }
"""

_NAME = re.compile(r"[A-Za-z0-9_]{1,16}")


def _pct(x: float) -> str:
    return f"{x * 100:.1f} %"


def _interval(r: Mapping[str, Any]) -> str:
    return f'{_pct(r["rate"])} <span class="muted">[{_pct(r["ci95"][0])}, {_pct(r["ci95"][1])}]</span>'


def html_page(
    title: str, body: str, *, query: str = "", nav: Sequence[tuple[str, str]] | None = None, cache: str = "no-cache"
) -> HTMLResponse:
    """A whole page: the stylesheet, a header with ``title`` and its links (default: the season and its JSON,
    with ``query``), and ``body`` (already HTML) in ``main``."""
    links = nav if nav is not None else [("Season", f"/stats{query}"), ("JSON", f"/stats.json{query}")]
    bar = "".join(f'<a href="{escape(href)}">{escape(label)}</a>' for label, href in links)
    html = (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{escape(title)}</title>'
        f'<link rel="stylesheet" href="/stats/stats.css"></head><body><header><h1>{escape(title)}</h1>'
        f"<nav>{bar}</nav></header><main>{body}</main></body></html>"
    )
    return HTMLResponse(html, headers={"Cache-Control": cache})


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """A table whose cells are already HTML (escape values before)."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join(
        "<tr>"
        + "".join(f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(r))
        + "</tr>"
        for r in rows
    )
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _player_link(name: str, query: str) -> str:
    return f'<a href="/stats/player/{quote(name)}{query}">{escape(name)}</a>'


def _setup_label(setup: Mapping[str, Any]) -> str:
    knobs = ", ".join(
        f"{k} {json.dumps(v, ensure_ascii=False)}"
        for k, v in setup.items()
        if k not in ("ruleset", "contestants", "power_pool", "deal", "deal_table")
    )
    return f"{setup.get('ruleset')}, {setup.get('contestants')} contestants" + (f"; {knobs}" if knobs else "")


def _lab_check(setups: Sequence[Mapping[str, Any]]) -> str:
    if not setups:
        return "<p>No series recorded yet.</p>"
    parts = []
    for s in setups:
        groups = []
        rows = []
        for side, real in s["wins"].items():
            bars = [Bar.of("real", real, side_colour(side), f"{_pct(real['rate'])} ({real['k']} of {real['n']})")]
            check = s["check"].get(side)
            if check is not None:
                lab = check["lab"]
                bars.append(Bar.of("lab", lab, LAB_COLOUR))
                verdict = (
                    '<span class="ok">within</span>' if check["agrees"] else '<span class="miss">lab misses</span>'
                )
                rows.append(
                    [
                        escape(side),
                        _interval(real),
                        _interval(lab),
                        f'{check["gap"] * 100:+.1f} points <span class="muted">[{check["ci95"][0] * 100:+.1f}, '
                        f"{check['ci95'][1] * 100:+.1f}]</span>",
                        verdict,
                    ]
                )
            else:
                rows.append([escape(side), _interval(real), "—", "—", ""])
            groups.append((side, bars))
        lab_note = (
            f"the balance lab: {s['lab']['series']} series, seed {s['lab']['seed']}, {escape(str(s['lab']['bots']))} bots"
            if s["lab"]
            else "no lab prediction yet (run <code>traitors stats</code>, or wait for the season to make it)"
        )
        parts.append(
            f'<h3 id="setup-{escape(s["key"])}">{escape(str(s["ruleset"]))}, {s["setup"].get("contestants")} contestants '
            f'<span class="muted">setup {escape(s["key"])}</span></h3><p class="muted">{escape(_setup_label(s["setup"]))}</p>'
            f'<p class="muted">{s["series"]} series recorded; {lab_note}; average {s["average_days"]} days</p>'
            + bar_chart(groups, title=f"Win rates of setup {s['key']}: real and lab", marker=None)
            + _table(["Side", "Real (95 % interval)", "Lab (95 % interval)", "Gap, real − lab", ""], rows)
        )
    return "".join(parts)


def _overview(f: Mapping[str, Any], seasons: Sequence[str], query: str, season: str | None) -> str:
    options = "".join(
        f'<option value="{escape(x)}"{" selected" if x == season else ""}>{escape(x or "(none)")}</option>'
        for x in seasons
    )
    filters = (
        f'<form class="filters" method="get" action="/stats"><label>Season <select name="season">'
        f'<option value="">all</option>{options}</select></label><button>Show</button></form>'
    )
    cards = "".join(
        f'<div class="card"><b>{r["k"]}</b>{escape(side)} won <span class="muted">{_pct(r["rate"])}</span></div>'
        for side, r in f["wins"].items()
    )
    wins_chart = bar_chart(
        [("", [Bar.of(side, r, side_colour(side), f"{_pct(r['rate'])} ({r['k']})") for side, r in f["wins"].items()])],
        title="Wins by side",
    )
    board = _table(
        ["#", "Player", "Series", "Wins", "Win rate (95 % interval)", "Votes that found the other side", "Survived"],
        [
            [
                str(p["rank"]),
                _player_link(p["name"], query),
                str(p["series"]),
                str(p["wins"]),
                _interval(p["win_rate"]),
                str(p["votes_found"]),
                str(p["survived"]),
            ]
            for p in f["leaderboard"]
        ],
        numeric=(0, 2, 3, 5, 6),
    )
    powers = sorted(f["powers"].items(), key=lambda kv: (-kv[1]["rate"], kv[0]))
    powers_chart = bar_chart(
        [
            (
                "",
                [
                    Bar.of(p, r, side_colour(r["ruleset"]), f"{_pct(r['rate'])} ({r['k']} of {r['n']})")
                    for p, r in powers
                ],
            )
        ],
        title="Powers and roles: holders on the winning side",
        marker={"even": 0.5},
    )
    twists = _table(
        ["Twist", "Series", "Wins by side"],
        [
            [escape(t), str(x["series"]), ", ".join(f"{escape(w)} {_interval(r)}" for w, r in x["wins"].items())]
            for t, x in f["twists"].items()
        ],
        numeric=(1,),
    )
    recorded = _table(
        ["#", "Castle", "Season", "Ruleset", "Winner", "Days", "Contestants", "Minutes"],
        [
            [
                f'<a href="/stats/series/{r["id"]}">{r["id"]}</a>',
                escape(str(r["castle"])),
                escape(str(r["season"])),
                escape(str(r["ruleset"])),
                escape(str(r["winner"])),
                str(r["days"]),
                str(r["contestants"]),
                f"{r['duration'] / 60:.0f}" if r["duration"] is not None else "—",
            ]
            for r in reversed(f["recorded"])
        ],
        numeric=(5, 6, 7),
    )
    return (
        f'{filters}<section><h2>{f["series"]} series</h2><div class="cards">{cards}</div>{wins_chart}</section>'
        f'<section><h2>The lab check: real play against the balance lab</h2><p class="muted">Each setup\'s real win '
        f"rates beside what <code>traitors simulate</code> predicts for the same settings; a gap whose interval "
        f"holds 0 is one the lab's bots are not shown to miss.</p>{_lab_check(f['setups'])}</section>"
        f"<section><h2>Leaderboard</h2>{board}</section>"
        f"<section><h2>Powers and roles on the winning side</h2>{powers_chart}</section>"
        f"<section><h2>Twists</h2>{twists}</section>"
        f"<section><h2>Every series</h2>{recorded}</section>"
    )


def _player(p: Mapping[str, Any]) -> str:
    sides = _table(
        ["Side at the end", "Series", "Wins"],
        [[escape(s), str(v["played"]), str(v["won"])] for s, v in sorted(p["by_side"].items())],
        numeric=(1, 2),
    )
    powers = _table(
        ["Power or role", "Series"],
        [[escape(k), str(v)] for k, v in sorted(p["powers"].items(), key=lambda kv: (-kv[1], kv[0]))],
        numeric=(1,),
    )
    chart = bar_chart(
        [
            (
                "",
                [
                    Bar.of("wins", p["win_rate"], "#7fd17f"),
                    Bar.of("survived", p["survival"], "#8fd3ff"),
                    Bar.of("votes found", p["found_rate"], "#ff6b6b"),
                ],
            )
        ],
        title=f"{p['name']}: wins, survival, votes that found the other side",
    )
    series = ", ".join(f'<a href="/stats/series/{i}">{i}</a>' for i in p["series_ids"])
    return (
        f'<div class="cards"><div class="card"><b>{p["series"]}</b>series</div><div class="card"><b>{p["wins"]}</b>wins '
        f'<span class="muted">{_pct(p["win_rate"]["rate"])}</span></div><div class="card"><b>{p["winning_side"]}</b>'
        f'on the winning side</div><div class="card"><b>{p["survived"]}</b>survived to the end</div>'
        f'<div class="card"><b>{p["votes_found"]} of {p["votes_cast"]}</b>votes found the other side</div></div>'
        f"{chart}<section><h2>Wins by side</h2>{sides}</section><section><h2>Powers and roles held</h2>{powers}</section>"
        f"<section><h2>Series</h2><p>{series}</p></section>"
    )


def record_html(tables: str) -> str:
    """``traitors export``'s text (``#`` title, ``##`` sections, ``label: value`` lines, pipe tables) as HTML."""
    out: list[str] = []
    rows: list[list[str]] = []

    def flush() -> None:
        if rows:
            header, body = rows[0], [r for r in rows[1:] if not all(set(c) <= {"-"} for c in r)]
            out.append(_table([escape(c) for c in header], [[escape(c) for c in r] for r in body]))
            rows.clear()

    for line in tables.splitlines():
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
            continue
        flush()
        if line.startswith("## "):
            out.append(f"<h2>{escape(line[3:])}</h2>")
        elif line.startswith("# "):
            out.append(f"<h2>{escape(line[2:])}</h2>")
        elif line.strip():
            out.append(f"<p>{escape(line)}</p>")
    flush()
    return '<div class="record">' + "".join(out) + "</div>"


def _series_page(db: RecordsDb, number: int) -> Response:
    """``/stats/series/N``: the series' castle, season, release, days and length, its contestants and record."""
    one = db.one(number)
    if one is None:
        return PlainTextResponse("404: no such series in these records\n", status_code=404)
    c = one.columns
    names = ", ".join(_player_link(str(x["name"]), "") for x in one.contestants)
    head = (
        f'<p class="muted">{escape(str(c["castle"]))}{", season " + escape(str(c["season"])) if c["season"] else ""}'
        f"; Minecraft {escape(str(c['minecraft']) or 'unknown')}; {c['days']} days"
        + (f"; {float(c['duration']) / 60:.0f} minutes" if c["duration"] is not None else "")
        + f'</p><p>{names}</p><p><a href="/stats#setup-{escape(str(c["setup_key"]))}">setup {escape(str(c["setup_key"]))}</a></p>'
    )
    return html_page(f"Series {number}", head + record_html(str(c["tables"])))


def stats_routes(db: RecordsDb, lab: str, *, allow: Callable[[Request], bool] | None = None) -> list[BaseRoute]:
    """The stats pages' routes (the module docstring).

    Args:
        db: the records database.
        lab: the lab run whose cached predictions the pages show (``bridge.records.stats.lab_key``).
        allow: who may see them (house rule 1); ``None``: everyone.
    """

    def filters(request: Request) -> tuple[str | None, str | None, str]:
        season = request.query_params.get("season") or None
        castle = request.query_params.get("castle") or None
        given = {k: v for k, v in (("season", season), ("castle", castle)) if v}
        return season, castle, ("?" + urlencode(given)) if given else ""

    async def guarded(request: Request, make: Callable[[], Response]) -> Response:
        if allow is not None and not allow(request):
            return PlainTextResponse("403: the stats pages are for the host here\n", status_code=403)
        try:
            return await asyncio.to_thread(make)
        except RecordsUnavailable as exc:
            return PlainTextResponse(f"503: {exc}\n", status_code=503)

    async def overview(request: Request) -> Response:
        season, castle, query = filters(request)

        def make() -> Response:
            f = figures(db.series(season=season, castle=castle), db.predictions(lab), season=season, castle=castle)
            title = "Castle stats" + (f": {season}" if season else "")
            return html_page(title, _overview(f, db.seasons(), query, season), query=query)

        return await guarded(request, make)

    async def as_json(request: Request) -> Response:
        season, castle, _ = filters(request)

        def make() -> Response:
            f = figures(db.series(season=season, castle=castle), db.predictions(lab), season=season, castle=castle)
            return JSONResponse(f, headers={"Cache-Control": "no-cache"})

        return await guarded(request, make)

    async def player(request: Request) -> Response:
        season, castle, query = filters(request)
        name = str(request.path_params["name"])

        def make() -> Response:
            f = figures(db.series(season=season, castle=castle), season=season, castle=castle)
            p = f["players"].get(name) if _NAME.fullmatch(name) else None
            if p is None:
                return PlainTextResponse("404: no such player in these records\n", status_code=404)
            return html_page(f"{name}", _player(p), query=query)

        return await guarded(request, make)

    async def series(request: Request) -> Response:
        number = int(request.path_params["number"])
        return await guarded(request, lambda: _series_page(db, number))

    async def css(_request: Request) -> Response:
        return Response(CSS, media_type="text/css", headers={"Cache-Control": "max-age=3600"})

    return [
        Route("/stats", overview),
        Route("/stats.json", as_json),
        Route("/stats/stats.css", css),
        Route("/stats/player/{name}", player),
        Route("/stats/series/{number:int}", series),
    ]
