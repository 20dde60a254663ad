"""The web pages as an ASGI app (Starlette): the host's grimoire behind a token, the spectator page open to all
(``docs/host.md``, "The web grimoire").

Routes:

- ``GET /host?token=T`` the grimoire page; a wrong or missing token gets 403. The right one also sets an
  ``HttpOnly`` ``SameSite=Strict`` cookie, which the page's websocket carries.
- ``WS /ws/host`` the grimoire's live feed and its controls (``{"control": …}``; ``bridge/web/hub.py``).
- ``GET /`` and ``GET /spectate`` the spectator page; ``WS /ws/spectate`` its feed (public only).
- ``/static/…`` the pages' plain HTML, CSS and JavaScript (package data; no build step).

House rules of this file:

1. The token is compared in constant time (``hmac.compare_digest``) and never logged (uvicorn's access log,
   which would print query strings, is off: ``bridge/web/server.py``).
2. Every websocket checks its ``Origin``: a page of another site (another scheme, host or port) is refused before
   the handshake completes (HTTP 403), so no other site can drive the controls with the host's cookie.
3. A control the page sends that no console button makes is answered ``{"type": "reply", "ok": false}``; it
   never reaches the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import importlib.resources
import json
import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from bridge.web.hub import ControlError, WebHub

__all__ = ["COOKIE", "make_app", "same_origin"]

log = logging.getLogger(__name__)

COOKIE = "castle_host"
"""The cookie the host page's websocket authenticates with (set by ``GET /host`` with the right token)."""

STATIC = importlib.resources.files("bridge.web").joinpath("static")


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """Whether a websocket's ``Origin`` header names this server (house rule 2).

    Args:
        origin: the ``Origin`` header (``None``: not a browser; allowed, the token still decides).
        host: the ``Host`` header the client connected to (``127.0.0.1:8765``).
        scheme: ``ws`` or ``wss``.
    """
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme == ("https" if scheme == "wss" else "http") and parts.netloc == (host or "")


def page(name: str) -> Response:
    """A page of ``static/``."""
    return FileResponse(str(STATIC.joinpath(name)), media_type="text/html")


async def spectator_page(request: Request) -> Response:
    """``GET /spectate``: open to all."""
    return page("spectate.html")


def _token_ok(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


def make_app(hub: WebHub, token: str, *, secure: bool = False, host_name: str | None = None,
             extra_routes: Sequence[BaseRoute] = ()) -> Starlette:
    """The app for one series' pages.

    Args:
        hub: the series' hub.
        token: the host token (``bridge/web/server.py``: ``host_token``).
        secure: served over TLS (the cookie is then ``Secure``).
        host_name: the host the page acts as (default: the series' first host, by name).
        extra_routes: more pages served by the same app, in their own modules (the stats pages,
            ``bridge/web/stats_pages.py``; the lobby, ``bridge/web/lobby_pages.py``).
    """

    async def host_page(request: Request) -> Response:
        given = request.query_params.get("token") or request.cookies.get(COOKIE)
        if not _token_ok(given, token):
            return PlainTextResponse("403: a wrong or missing host token\n", status_code=403)
        if "token" in request.query_params:  # keep the token out of the address bar and the history
            response: Response = RedirectResponse("/host", status_code=303)
        else:
            response = page("host.html")
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", secure=secure)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def host_feed(ws: WebSocket) -> None:
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), ws.url.scheme) or not _token_ok(
                ws.cookies.get(COOKIE) or ws.query_params.get("token"), token):  # fmt: skip
            await ws.close(code=1008)
            return
        await ws.accept()
        queue = hub.open_host()
        client = ws.client.host if ws.client is not None else ""
        try:
            await _pump(ws, queue, lambda request: _control(hub, ws, request, host_name, client))
        finally:
            hub.close(queue)

    async def spectator_feed(ws: WebSocket) -> None:
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host"), ws.url.scheme):
            await ws.close(code=1008)
            return
        await ws.accept()
        queue = hub.open_spectator()
        try:
            await _pump(ws, queue, None)
        finally:
            hub.close(queue)

    routes = [
        Route("/", spectator_page),
        Route("/spectate", spectator_page),
        Route("/host", host_page),
        WebSocketRoute("/ws/host", host_feed),
        WebSocketRoute("/ws/spectate", spectator_feed),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        *extra_routes,
    ]
    return Starlette(routes=routes)


async def _control(hub: WebHub, ws: WebSocket, request: Any, host_name: str | None, client: str) -> None:
    """One control from the host page (house rule 3): pressed for the page's host, answered with a reply."""
    service = hub.service
    host = host_name or (sorted(service.game.hosts)[0] if service is not None and service.game.hosts else "")
    try:
        if not isinstance(request, dict):
            raise ControlError("a control is a JSON object")
        await hub.control(str(request.get("as") or host), request, client)
        reply = {"type": "reply", "ok": True, "control": request.get("control")}
    except ControlError as exc:
        reply = {"type": "reply", "ok": False, "text": str(exc)}
    await ws.send_text(json.dumps(reply))


async def _pump(ws: WebSocket, queue: asyncio.Queue[str], on_message: Any) -> None:
    """Send the queue's messages to the page and hand what the page sends to ``on_message`` until it goes."""

    async def send() -> None:
        while True:
            await ws.send_text(await queue.get())

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
    except WebSocketDisconnect:
        pass
    finally:
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
