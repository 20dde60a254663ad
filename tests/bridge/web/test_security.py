"""The pages' defences (``bridge/web/app.py``, ``auth.py``, ``guard.py``, ``hub.py``): no token in an address, the
session cookie, the one-time link, the Origin and Host checks, the framing headers, the spectator limit and the
bounded queues; and the audit: a press is made by the host whose token logged in."""

from __future__ import annotations

import asyncio
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bridge.config.serve import WebConfig
from bridge.web.app import COOKIE, TRY_LATER, make_app
from bridge.web.auth import LINK_LIFETIME, TOKEN_ENV, HostKeys, host_keys, token_env
from bridge.web.hub import DROPPED, WebHub
from engine.actions import StartSeries
from engine.errors import ConfigError
from engine.rulesets import new_game

from .test_spectator import HOST, EngineSeries, random_settings

TOKEN = "0123456789abcdef0123456789abcdef"
BASE, WS = "http://127.0.0.1:8765", "ws://127.0.0.1:8765"
ORIGIN = {"origin": BASE}


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def app_for(keys: HostKeys, web: WebConfig | None = None) -> tuple[TestClient, WebHub]:
    series = EngineSeries(new_game(random_settings(random.Random(1), "traitors"), 1))
    hub = WebHub(clock=lambda: series.now)
    hub.attach(series)
    series.step(StartSeries())
    return TestClient(make_app(hub, keys, web=web), base_url=BASE), hub


@pytest.fixture
def client() -> TestClient:
    return app_for(HostKeys.one(HOST, TOKEN))[0]


def refused(client: TestClient, url: str, **headers: str) -> int:
    """The close code of a websocket the server refuses (fails the test if it is accepted and talks)."""
    with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect(url, headers=headers) as ws:
        ws.receive_text()
    return info.value.code


# ---------------------------------------------------------------------------------------------- headers


@pytest.mark.parametrize("path", ["/", "/spectate", "/host", "/host/login", "/static/feed.js", "/no-such-page"])
def test_every_answer_forbids_framing_and_sniffing(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_grimoire_itself_is_not_framed_or_cached(client: TestClient) -> None:
    client.post("/host/login", data={"token": TOKEN}, headers=ORIGIN)
    page = client.get("/host")
    assert "Grimoire" in page.text and page.headers["x-frame-options"] == "DENY"
    assert page.headers["cache-control"] == "no-store"


# ---------------------------------------------------------------------------------------------- the token


def test_a_token_in_the_address_is_never_taken(client: TestClient) -> None:
    page = client.get(f"/host?token={TOKEN}", follow_redirects=False)
    assert page.status_code == 400 and COOKIE not in page.cookies and "Grimoire" not in page.text
    assert 'type="password"' in page.text  # the login form instead
    assert refused(client, f"{WS}/ws/host?token={TOKEN}", **ORIGIN) == 1008


def test_the_websocket_takes_the_cookie_only(client: TestClient) -> None:
    client.post("/host/login", data={"token": TOKEN}, headers=ORIGIN)
    assert refused(client, f"{WS}/ws/host?token={TOKEN}", **ORIGIN) == 1008  # even with the cookie
    with client.websocket_connect(f"{WS}/ws/host", headers=ORIGIN) as ws:
        assert json.loads(ws.receive_text())["type"] == "state"


@pytest.mark.parametrize("cookie", [None, "", TOKEN, "0" * 64, HostKeys.one(HOST, "f" * 32).session(HOST)])
def test_a_wrong_or_missing_cookie_is_refused(client: TestClient, cookie: str | None) -> None:
    """No cookie, an empty one, the token itself, a made-up one, another token's session."""
    if cookie is not None:
        client.cookies.set(COOKIE, cookie)
    assert refused(client, f"{WS}/ws/host", **ORIGIN) == 1008
    assert 'type="password"' in client.get("/host").text


def test_the_session_cookie_holds_no_token_and_is_strict(client: TestClient) -> None:
    response = client.post("/host/login", data={"token": TOKEN}, headers=ORIGIN, follow_redirects=False)
    cookie = response.headers["set-cookie"]
    assert TOKEN not in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    assert response.headers["location"] == "/host" and "token" not in response.headers["location"]


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "http://127.0.0.1:9999"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site", "origin": "null"},
        {"sec-fetch-site": "same-site", "origin": BASE},
    ],
)
def test_a_login_from_another_site_is_refused(client: TestClient, headers: dict[str, str]) -> None:
    """Another site, another port of this machine (same site, other origin), or an origin the browser hid."""
    response = client.post("/host/login", data={"token": TOKEN}, headers=headers, follow_redirects=False)
    assert response.status_code == 403 and COOKIE not in response.cookies


def test_a_huge_login_post_is_not_read(client: TestClient) -> None:
    response = client.post("/host/login", data={"token": TOKEN + "0" * 10_000}, headers=ORIGIN, follow_redirects=False)
    assert response.status_code == 413 and COOKIE not in response.cookies


def test_a_login_from_this_page_under_no_referrer_is_taken(client: TestClient) -> None:
    """Under ``Referrer-Policy: no-referrer`` a browser posts ``Origin: null``; its ``Sec-Fetch-Site`` decides."""
    response = client.post(
        "/host/login",
        data={"token": TOKEN},
        follow_redirects=False,
        headers={"sec-fetch-site": "same-origin", "origin": "null"},
    )
    assert response.status_code == 303 and COOKIE in response.cookies


def test_a_one_time_link_works_once_and_not_after_its_time() -> None:
    clock = Clock()
    keys = HostKeys({HOST: TOKEN}, clock=clock)
    client = app_for(keys)[0]
    code = keys.link(HOST)
    first = client.get(f"/host/login?once={code}", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == "/host" and COOKIE in first.cookies
    client.cookies.clear()
    again = client.get(f"/host/login?once={code}", follow_redirects=False)
    assert again.status_code == 403 and COOKIE not in again.cookies
    late = keys.link(HOST)
    clock.now += LINK_LIFETIME + 1
    assert client.get(f"/host/login?once={late}", follow_redirects=False).status_code == 403


def test_each_host_has_their_own_token(tmp_path: Path) -> None:
    file = tmp_path / "castle.secrets"
    file.write_text(f"{TOKEN_ENV}={'a' * 32}\n{token_env('Ann')}={'b' * 32}\n")
    os.chmod(file, 0o600)
    keys = host_keys({token_env("Bo"): "c" * 32}, file, ["Host", "Ann", "Bo", "Cy"])
    assert {h: keys.tokens[h] for h in ("Host", "Ann", "Bo")} == {"Host": "a" * 32, "Ann": "b" * 32, "Bo": "c" * 32}
    assert keys.made == {"Cy"} and len(keys.tokens["Cy"]) == 32
    assert keys.login("b" * 32) == "Ann" and keys.login("a" * 32) == "Host" and keys.login("d" * 32) is None
    assert keys.host_of(keys.session("Bo")) == "Bo" and keys.session("Bo") != keys.session("Ann")
    with pytest.raises(ConfigError, match="same web token"):
        host_keys({token_env("Bo"): "a" * 32}, file, ["Host", "Bo"])  # Bo's is the first host's


def test_a_short_or_readable_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="too short"):
        host_keys({TOKEN_ENV: "abc"}, None, ["Host"])
    file = tmp_path / "castle.secrets"
    file.write_text(f"{TOKEN_ENV}={'a' * 32}\n")
    os.chmod(file, 0o644)
    with pytest.raises(ConfigError, match="castle.secrets"):
        host_keys({}, file, ["Host"])


# ---------------------------------------------------------------------------------------------- Origin and Host


@pytest.mark.parametrize("path", ["/ws/host", "/ws/spectate"])
def test_a_foreign_origin_is_refused(client: TestClient, path: str) -> None:
    client.post("/host/login", data={"token": TOKEN}, headers=ORIGIN)
    for origin in ("http://evil.example", "https://127.0.0.1:8765", "http://127.0.0.1:9999", "null"):
        assert refused(client, WS + path, origin=origin) == 1008


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "testserver"])
def test_a_foreign_host_is_refused(client: TestClient, host: str) -> None:
    """DNS rebinding: a name that resolves to 127.0.0.1 but is not this server's is refused everywhere."""
    client.post("/host/login", data={"token": TOKEN}, headers=ORIGIN)
    for path in ("/", "/spectate", "/host", "/static/host.js"):
        page = client.get(path, headers={"host": host})
        assert page.status_code == 400 and "Grimoire" not in page.text
        assert page.headers["x-frame-options"] == "DENY"
    origin = f"http://{host}"
    for path in ("/ws/host", "/ws/spectate"):
        assert refused(client, WS + path, host=host, origin=origin) == 1008


def test_the_allowed_names_follow_the_bind_address_and_the_setting() -> None:
    client = app_for(HostKeys.one(HOST, TOKEN), WebConfig(bind="192.168.1.5", server_names=("castle.example",)))[0]
    for host in ("127.0.0.1:8765", "localhost:8765", "[::1]:8765", "192.168.1.5:8765", "CASTLE.example"):
        assert client.get("/spectate", headers={"host": host}).status_code == 200, host
    assert client.get("/spectate", headers={"host": "castle.example.evil"}).status_code == 400


# ---------------------------------------------------------------------------------------------- limits


def first_view(ws: Any) -> str:
    """The type of a spectator page's first message after the service's time (``{"type": "now"}``)."""
    assert json.loads(ws.receive_text())["type"] == "now"
    return str(json.loads(ws.receive_text())["type"])


def test_spectators_beyond_the_limit_are_turned_away() -> None:
    client, hub = app_for(HostKeys.one(HOST, TOKEN), WebConfig(max_spectators=2))
    with (
        client.websocket_connect(f"{WS}/ws/spectate", headers=ORIGIN) as one,
        client.websocket_connect(f"{WS}/ws/spectate", headers=ORIGIN) as two,
    ):
        assert first_view(one) == first_view(two) == "view"
        assert refused(client, f"{WS}/ws/spectate", **ORIGIN) == TRY_LATER
    with client.websocket_connect(f"{WS}/ws/spectate", headers=ORIGIN) as three:  # room again
        assert first_view(three) == "view"


def test_a_page_that_falls_behind_is_dropped_not_buffered() -> None:
    async def run() -> None:
        series = EngineSeries(new_game(random_settings(random.Random(1), "traitors"), 1))
        hub = WebHub(clock=lambda: series.now, queue_limit=10)
        hub.attach(series)
        slow, quick = hub.open_spectator(), hub.open_spectator()
        host = hub.open_host()
        history = slow.qsize()
        for i in range(history + 10):
            hub._send(hub.spectators, json.dumps({"type": "event", "text": str(i)}))
            if quick in hub.spectators:
                while not quick.empty():
                    quick.get_nowait()
        assert slow not in hub.spectators and slow.qsize() == 1 and slow.get_nowait() == DROPPED
        assert quick in hub.spectators, "a page that keeps up stays"
        for _ in range(11):
            hub._send(hub.hosts, "{}")
        assert host not in hub.hosts and host.qsize() == 1

    asyncio.run(run())


def test_a_dropped_page_is_closed_to_reconnect() -> None:
    """The hub drops a page that fell behind: its websocket is closed with "try again later" (the page reconnects
    and is sent the whole state again)."""
    client, hub = app_for(HostKeys.one(HOST, TOKEN))
    with client, client.websocket_connect(f"{WS}/ws/spectate", headers=ORIGIN) as ws:
        assert first_view(ws) == "view"
        (queue,) = hub.spectators
        client.portal.call(hub.drop, queue)  # type: ignore[union-attr]
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                ws.receive_text()
        assert closed.value.code == TRY_LATER and not hub.spectators
