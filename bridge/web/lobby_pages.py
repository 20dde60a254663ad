"""The host's lobby page (``GET /host/lobby``): the sign-ups, the cast and the stand-bys, with the lobby console's
buttons, and a way to sign up or withdraw a player by name (``docs/host.md``, "The lobby").

House rules of this file:

1. Only a host: the page needs a host's session cookie (the login sets it, ``bridge/web/app.py``); anyone else
   gets 403. A press (``POST /host/lobby``) must also come from a page of this server (its ``Origin``), so no
   other site can press with the host's cookie. A press is made by the host whose cookie it is.
2. Every press goes the way the in-game button goes (``bridge.loop.lobby_run.LobbyRunner.control``): the same
   checks, the same private refusal (shown on the page), the same record in the store.
3. A plain HTML form per button (an ``application/x-www-form-urlencoded`` post, then back to the page): no script and no inline style (the stats pages'
   stylesheet), so it works on any phone and under a strict content security policy.
"""

from __future__ import annotations

from html import escape
from urllib.parse import parse_qs, quote

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bridge.loop.lobby_run import Season
from bridge.minecraft.inputs import LobbyControl
from bridge.web.auth import HostKeys
from bridge.web.guard import from_this_site
from bridge.web.stats_pages import html_page
from engine.effects import Message

__all__ = ["lobby_routes"]

COOKIE = "castle_host"
"""The host pages' session cookie (``bridge.web.app.COOKIE``)."""

_CONTROLS = {
    "draw": LobbyControl.DRAW,
    "start": LobbyControl.START,
    "clear": LobbyControl.CLEAR,
    "pick": LobbyControl.PICK,
}


def _button(do: str, label: str, **fields: str) -> str:
    hidden = "".join(f'<input type="hidden" name="{escape(k)}" value="{escape(v)}">' for k, v in fields.items())
    return f'<form method="post" action="/host/lobby"><input type="hidden" name="do" value="{do}">{hidden}<button>{escape(label)}</button></form>'


def lobby_routes(season: Season, keys: HostKeys) -> list[BaseRoute]:
    """The lobby page's routes.

    Args:
        season: the season the page follows (its ``lobby`` while open).
        keys: the hosts' tokens (the session cookie names the host who presses).
    """

    async def page(request: Request) -> Response:
        if keys.host_of(request.cookies.get(COOKIE)) is None:
            return PlainTextResponse("403: a wrong or missing host token\n", status_code=403)
        said = request.query_params.get("said", "")
        lobby = season.lobby
        if lobby is None:
            body = (
                f"<p>Series {season.series} is running: the lobby opens when it is over.</p>"
                if season.series
                else "<p>The lobby is not open.</p>"
            )
        else:
            s = lobby.state()
            rows = "".join(
                f"<tr><td>{i}</td><td>{escape(p)}</td><td>{'seat ' + str(s['cast'].index(p) + 1) if p in s['cast'] else 'stand-by'}</td>"
                f"<td>{'' if p in s['cast'] or len(s['cast']) >= s['seats'] else _button('pick', 'Seat', index=str(i))}"
                f"{_button('withdraw', 'Withdraw', name=p)}</td></tr>"
                for i, p in enumerate(s["signups"], start=1)
            )
            waiting = [p for p in s["online"] if p not in s["signups"]]
            add = (
                "".join(_button("add", f"Sign up {p}", name=p) for p in waiting) or '<span class="muted">nobody</span>'
            )
            actions = (
                _button("draw", "Draw the cast")
                + _button("clear", "Clear the draw")
                + _button("start", "Start the series")
            )
            body = (
                f"<h2>Series {s['round']}: {len(s['cast'])} of {s['seats']} seats, {len(s['signups'])} sign-ups "
                f"(the castle seats {s['capacity']})</h2><p>{actions}</p>"
                f"<table><tr><th>#</th><th>Player</th><th>Place</th><th></th></tr>{rows}</table>"
                f"<h2>On the server, not signed up</h2><p>{add}</p>"
                f'<form method="post" action="/host/lobby"><input type="hidden" name="do" value="add">'
                f'<input name="name" placeholder="player name" maxlength="16"><button>Sign up</button></form>'
            )
        return html_page(
            "The lobby",
            f'<p class="said">{escape(said)}</p>{body}',
            nav=[("Grimoire", "/host"), ("Stats", "/stats")],
            cache="no-store",
        )

    async def press(request: Request) -> Response:
        host = keys.host_of(request.cookies.get(COOKIE))
        if host is None:
            return PlainTextResponse("403: a wrong or missing host token\n", status_code=403)
        if not from_this_site(request.headers, request.url.scheme):
            return PlainTextResponse("403: a press from another site\n", status_code=403)
        form = {k: v[0] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        do, name = form.get("do", ""), form.get("name", "").strip()
        lobby = season.lobby
        reply: Message | None
        if lobby is None:
            reply = Message("lobby.closed")
        elif do == "add":
            reply = await lobby.add(host, name)
        elif do == "withdraw":
            reply = await lobby.withdraw(host, name)
        elif do in _CONTROLS:
            index = form.get("index", "")
            reply = await lobby.control(host, _CONTROLS[do], int(index) if index.isdigit() else None)
        else:
            return PlainTextResponse("400: no such lobby control\n", status_code=400)
        said = reply.text if reply is not None else "Done."
        return RedirectResponse(f"/host/lobby?said={quote(said)}", status_code=303)

    return [Route("/host/lobby", page, methods=["GET"]), Route("/host/lobby", press, methods=["POST"])]
