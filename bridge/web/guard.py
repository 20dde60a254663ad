"""The door every request of the pages goes through: the ``Host`` allow-list and the security headers
(``docs/host.md``, "Logging in to the grimoire").

House rules of this file:

1. A request (page or websocket) whose ``Host`` header names no allowed host is refused before any route sees it:
   HTTP 400, or a websocket closed before its handshake completes (HTTP 403). The allowed names are the loopback
   names, the ``bind`` address and ``[web] server_names``; so a site whose name a rebinding DNS points at 127.0.0.1
   never reaches the grimoire, even with the host's cookie.
2. Every HTTP answer carries ``SECURITY_HEADERS``: a content security policy with ``frame-ancestors 'none'``
   (no other page frames the grimoire), ``X-Frame-Options: DENY`` for older browsers, ``nosniff`` and
   ``Referrer-Policy: no-referrer``. The pages have no inline script or style, so the policy allows only this
   origin's files.
3. A form's post (the login, the lobby's buttons) counts only from a page of this server (``from_this_site``):
   the browser's ``Sec-Fetch-Site`` says ``same-origin``, or, from a client that does not send it, the ``Origin``
   is this server's. (Under ``no-referrer`` a browser posts ``Origin: null``, so ``Sec-Fetch-Site`` decides.)
   Another port of the same machine is another site here, though its cookies are the same.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["LOOPBACK_NAMES", "SECURITY_HEADERS", "Guard", "allowed_hosts", "from_this_site", "host_name", "same_origin"]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
"""The names a loopback server answers to by default."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""House rule 2: the headers of every HTTP answer."""

_WILDCARDS = {"0.0.0.0", "::", ""}


def host_name(header: str | None) -> str:
    """The name of a ``Host`` header, lower-case, without its port or an IPv6 address's brackets."""
    name = urlsplit(f"//{header or ''}").hostname
    return (name or "").lower()


def allowed_hosts(bind: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """House rule 1: the loopback names, ``bind`` (unless it is every address) and ``extra``, lower-case."""
    names = {*LOOPBACK_NAMES, *(h.strip().strip("[]").lower() for h in extra)}
    bare = bind.strip("[]").lower()
    if bare not in _WILDCARDS:
        names.add(bare)
    return frozenset(n for n in names if n)


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """Whether an ``Origin`` header names this server.

    Args:
        origin: the ``Origin`` header (``None``: not a browser; allowed, the cookie still decides).
        host: the ``Host`` header the client connected to (``127.0.0.1:8765``).
        scheme: ``ws`` or ``wss`` (``http`` or ``https`` for a form's post).
    """
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme == ("https" if scheme in ("wss", "https") else "http") and parts.netloc == (host or "")


def from_this_site(headers: Headers, scheme: str) -> bool:
    """House rule 3: whether a form's post comes from a page of this server."""
    fetch_site = headers.get("sec-fetch-site")
    if fetch_site is not None:
        return fetch_site == "same-origin"
    return same_origin(headers.get("origin"), headers.get("host"), scheme)


def _loopback(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


class Guard:
    """ASGI middleware: house rules 1-2.

    Args:
        app: the pages' app.
        hosts: the allowed ``Host`` names (``allowed_hosts``).
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(hosts)

    def allows(self, header: str | None) -> bool:
        """Whether a ``Host`` header names an allowed host (a loopback address is one when ``127.0.0.1`` is)."""
        name = host_name(header)
        return name in self.hosts or ("127.0.0.1" in self.hosts and _loopback(name))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not self.allows(Headers(scope=scope).get("host")):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await self._with_headers(
                    PlainTextResponse("400: this server does not answer to that name\n", status_code=400),
                    scope,
                    receive,
                    send,
                )
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for k, v in SECURITY_HEADERS.items():
                    headers[k] = v
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _with_headers(self, response: PlainTextResponse, scope: Scope, receive: Receive, send: Send) -> None:
        response.headers.update(SECURITY_HEADERS)
        await response(scope, receive, send)
