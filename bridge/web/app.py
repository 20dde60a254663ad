"""The web pages as an ASGI app (Starlette): the host's grimoire behind a token, the spectator page open to all
(``docs/host.md``, "The web grimoire").

Routes:

- ``GET /host`` the grimoire page for a host with the session cookie; anyone else gets the login form. A token in
  the address (``?token=``) is never taken (it would stay in the browser's history): 400 and the form.
- ``POST /host/login`` the login form's post (``token=…``): the right token sets the session cookie
  (``HttpOnly``, ``SameSite=Strict``; ``bridge/web/auth.py``) and sends the browser to ``/host``; a wrong one gets
  403 and the form again.
- ``GET /host/login?once=…`` a one-time link: exchanged for the same cookie, then dead.
- ``WS /ws/host`` the grimoire's live feed and its controls (``{"control": …}``; ``bridge/web/hub.py``), with the
  cookie only.
- ``GET /`` and ``GET /spectate`` the spectator page; ``WS /ws/spectate`` its feed (public only), for at most
  ``[web] max_spectators`` pages at once.
- ``/static/…`` the pages' plain HTML, CSS and JavaScript (package data; no build step).

Every request first passes the ``Host`` allow-list and every answer carries the security headers
(``bridge/web/guard.py``).

House rules of this file:

1. Tokens and cookies are compared in constant time and never logged (uvicorn's access log, which would print
   query strings, is off: ``bridge/web/server.py``).
2. Every websocket checks its ``Origin``, and every login post where it comes from (``guard.from_this_site``): a
   page of another site (another scheme, host or port) is refused (HTTP 403), so no other site can drive the
   controls with the host's cookie.
3. A control the page sends that no console button makes is answered ``{"type": "reply", "ok": false}``; it
   never reaches the engine. The control is pressed for the host whose cookie the page holds: a control's own
   fields never choose the host.
4. A spectator page beyond ``max_spectators`` is closed at once (code 1013, try again later); a page that falls
   ``client_queue`` messages behind is dropped (``bridge/web/hub.py`` house rule 5).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.resources
import json
import logging
from collections.abc import Sequence
from html import escape
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from bridge.config.serve import WebConfig
from bridge.web.auth import HostKeys
from bridge.web.guard import Guard, allowed_hosts, from_this_site, same_origin
from bridge.web.hub import DROPPED, ControlError, WebHub

__all__ = ["COOKIE", "make_app", "same_origin"]

log = logging.getLogger(__name__)

COOKIE = "castle_host"
"""The session cookie (``bridge/web/auth.py`` house rule 3) the host pages and their websocket authenticate with."""

STATIC = importlib.resources.files("bridge.web").joinpath("static")

FORM_LIMIT = 4096
"""The most bytes of a login post read."""

TRY_LATER = 1013
"""The websocket close code of a page turned away or dropped (RFC 6455: try again later)."""


def page(name: str) -> Response:
    """A page of ``static/``."""
    return FileResponse(str(STATIC.joinpath(name)), media_type="text/html")


async def spectator_page(_request: Request) -> Response:
    """``GET /spectate``: open to all."""
    return page("spectate.html")


def login_page(said: str = "", status: int = 200) -> Response:
    """The login form (house rule 2 of ``bridge/web/auth.py``): the token is typed in and posted, never put in an
    address."""
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Castle: host login</title>'
        '<link rel="stylesheet" href="/static/castle.css"></head><body class="login"><main>'
        f'<h1>The host\'s grimoire</h1><p class="said">{escape(said)}</p>'
        '<form method="post" action="/host/login"><label>Host token '
        '<input type="password" name="token" autocomplete="current-password" required></label>'
        "<button>Log in</button></form></main></body></html>"
    )
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def session_host(keys: HostKeys, conn: HTTPConnection) -> str | None:
    """The host whose session cookie a request or websocket carries, or ``None``."""
    return keys.host_of(conn.cookies.get(COOKIE))


def make_app(
    hub: WebHub, keys: HostKeys, *, web: WebConfig | None = None, extra_routes: Sequence[BaseRoute] = ()
) -> Starlette:
    """The app for one series' pages.

    Args:
        hub: the series' hub.
        keys: the hosts' tokens (``bridge/web/auth.py``).
        web: the ``[web]`` section: the ``Host`` allow-list (``bind``, ``server_names``), TLS (the cookie is then
            ``Secure``), ``max_spectators``; default ``WebConfig()`` (loopback).
        extra_routes: more pages served by the same app, in their own modules (the stats pages,
            ``bridge/web/stats_pages.py``; the lobby, ``bridge/web/lobby_pages.py``).
    """
    web = web or WebConfig()
    secure = web.tls_cert is not None

    def logged_in(host: str) -> Response:
        response = RedirectResponse("/host", status_code=303)
        response.set_cookie(COOKIE, keys.session(host), httponly=True, samesite="strict", secure=secure, path="/")
        response.headers["Cache-Control"] = "no-store"
        log.info("web host login for %s", host or "(no host)", extra={"event": "web_login", "host": host})
        return response

    async def host_page(request: Request) -> Response:
        if "token" in request.query_params:
            return login_page("A token never goes in the address: type it here.", 400)
        if session_host(keys, request) is None:
            return login_page()
        response = page("host.html")
        response.headers["Cache-Control"] = "no-store"
        return response

    async def login_form(request: Request) -> Response:
        if "once" not in request.query_params:
            return login_page()
        host = keys.redeem(request.query_params["once"])
        if host is None:
            return login_page("That login link was used already or is too old: type the token.", 403)
        return logged_in(host)

    async def login_post(request: Request) -> Response:
        if not from_this_site(request.headers, request.url.scheme):
            return login_page("A login from another site.", 403)
        token = await _form_token(request)
        if token is None:
            return login_page("A login form that long is no login.", 413)
        host = keys.login(token)
        if host is None:
            return login_page("A wrong token.", 403)
        return logged_in(host)

    async def host_feed(ws: WebSocket) -> None:
        host = session_host(keys, ws)
        if (
            "token" in ws.query_params
            or host is None
            or not same_origin(ws.headers.get("origin"), ws.headers.get("host"), ws.url.scheme)
        ):
            await ws.close(code=1008)
            return
        await ws.accept()
        queue = hub.open_host()
        client = ws.client.host if ws.client is not None else ""
        try:
            await _pump(ws, queue, lambda request: _control(hub, ws, request, host, client))
        finally:
            hub.close(queue)

    async def spectator_feed(ws: WebSocket) -> None:
        await _spectator_feed(hub, ws, web.max_spectators)

    routes = [
        Route("/", spectator_page),
        Route("/spectate", spectator_page),
        Route("/host", host_page),
        Route("/host/login", login_form, methods=["GET"]),
        Route("/host/login", login_post, methods=["POST"]),
        WebSocketRoute("/ws/host", host_feed),
        WebSocketRoute("/ws/spectate", spectator_feed),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        *extra_routes,
    ]
    return Starlette(routes=routes, middleware=[Middleware(Guard, hosts=allowed_hosts(web.bind, web.server_names))])


async def _spectator_feed(hub: WebHub, ws: WebSocket, max_spectators: int) -> None:
    """One spectator's feed: from this site only (else close 1008), at most ``max_spectators`` at once (else
    close ``TRY_LATER``); public data only, until the spectator leaves."""
    if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), ws.url.scheme):
        await ws.close(code=1008)
        return
    await ws.accept()
    if len(hub.spectators) >= max_spectators:
        await ws.close(code=TRY_LATER, reason="too many spectators")
        return
    queue = hub.open_spectator()
    try:
        await _pump(ws, queue, None)
    finally:
        hub.close(queue)


async def _form_token(request: Request) -> str | None:
    """The ``token`` field of a posted login form (``""`` when missing), or ``None`` when the body is over
    ``FORM_LIMIT`` bytes (a login form is a few bytes: never hold more)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > FORM_LIMIT:
            return None
    form = parse_qs(body.decode("utf-8", "replace"))
    return form.get("token", [""])[0].strip()


async def _control(hub: WebHub, ws: WebSocket, request: Any, host: str, client: str) -> None:
    """One control from the host page (house rule 3): pressed for the page's host, answered with a reply."""
    try:
        if not isinstance(request, dict):
            raise ControlError("a control is a JSON object")
        await hub.control(host, request, client)
        reply = {"type": "reply", "ok": True, "control": request.get("control")}
    except ControlError as exc:
        reply = {"type": "reply", "ok": False, "text": str(exc)}
    await ws.send_text(json.dumps(reply))


async def _pump(ws: WebSocket, queue: asyncio.Queue[str], on_message: Any) -> None:
    """Send the queue's messages to the page and hand what the page sends to ``on_message`` until it goes, or
    until the hub drops it (``DROPPED``: closed with ``TRY_LATER``)."""

    async def send() -> None:
        while True:
            text = await queue.get()
            if text == DROPPED:
                await ws.close(code=TRY_LATER, reason="too slow")
                return
            await ws.send_text(text)

    sender = asyncio.create_task(send())
    try:
        while True:
            text = await ws.receive_text()
            if on_message is not None:
                try:
                    request = json.loads(text)
                except ValueError:
                    request = None
                await on_message(request)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
