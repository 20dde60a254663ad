"""The pages' HTTP and websocket doors (``bridge/web/app.py``): the login, the cookie, the origin check."""

from __future__ import annotations

import json
import random

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bridge.web.app import COOKIE, make_app, same_origin
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from engine.actions import StartSeries
from engine.rulesets import new_game

from .test_spectator import HOST, EngineSeries, random_settings

TOKEN = "0123456789abcdef0123456789abcdef"
BASE = "http://127.0.0.1:8765"
WS = "ws://127.0.0.1:8765"
ORIGIN = {"origin": BASE}


@pytest.fixture
def client() -> TestClient:
    series = EngineSeries(new_game(random_settings(random.Random(1), "traitors"), 1))
    hub = WebHub(clock=lambda: series.now)
    hub.attach(series)
    series.step(StartSeries())
    return TestClient(make_app(hub, HostKeys.one(HOST, TOKEN)), base_url=BASE)


def login(client: TestClient, token: str = TOKEN) -> None:
    """The login form's post: the session cookie is in ``client`` after it."""
    response = client.post("/host/login", data={"token": token}, headers=ORIGIN, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/host"


@pytest.mark.parametrize("token", ["", "wrong", TOKEN[:-1], f"{TOKEN}x"])
def test_a_wrong_token_gets_403(client: TestClient, token: str) -> None:
    response = client.post("/host/login", data={"token": token}, headers=ORIGIN, follow_redirects=False)
    assert response.status_code == 403 and "A wrong token" in response.text
    assert COOKIE not in response.cookies


def test_the_right_token_sets_the_cookie_and_leaves_the_address_bar(client: TestClient) -> None:
    response = client.post("/host/login", data={"token": TOKEN}, headers=ORIGIN, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/host"
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and TOKEN not in cookie
    page = client.get("/host")  # the cookie alone now
    assert page.status_code == 200 and "Grimoire" in page.text


def test_the_spectator_page_needs_no_token(client: TestClient) -> None:
    for path in ("/", "/spectate"):
        assert "watch the series" in client.get(path).text
    assert client.get("/static/feed.js").status_code == 200


def test_the_host_feed_sends_the_state_then_answers_controls(client: TestClient) -> None:
    login(client)
    with client.websocket_connect(WS + "/ws/host", headers=ORIGIN) as ws:
        state = json.loads(ws.receive_text())
        assert state["type"] == "state" and sum(k.startswith("seat/") for k in state["parts"]) >= 6
        assert state["parts"]["clock"]["phase"] == "day_zero"
        ws.send_text(json.dumps({"control": "no_such_button"}))
        reply = json.loads(ws.receive_text())
        assert reply == {"type": "reply", "ok": False, "text": "unknown control 'no_such_button'"}
        ws.send_text("not json")
        assert json.loads(ws.receive_text())["ok"] is False


def test_the_host_feed_refuses_without_the_token(client: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(WS + "/ws/host"):
        pass
    assert refused.value.code == 1008


@pytest.mark.parametrize("path", ["/ws/host", "/ws/spectate"])
def test_a_page_of_another_site_is_refused(client: TestClient, path: str) -> None:
    login(client)
    for origin in ("http://evil.example", "https://127.0.0.1:8765", "http://127.0.0.1:9999"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(WS + path, headers={"origin": origin}):
            pass


def test_the_spectator_feed_starts_with_the_public_view(client: TestClient) -> None:
    with client.websocket_connect(WS + "/ws/spectate", headers=ORIGIN) as ws:
        now = json.loads(ws.receive_text())
        first, second = json.loads(ws.receive_text()), json.loads(ws.receive_text())
    assert now["type"] == "now" and isinstance(now["now"], float)  # the service's time: the page's clock offset
    assert first["type"] == second["type"] == "view"
    assert (first["view"]["phase"], second["view"]["phase"]) == ("not_started", "day_zero")


def test_same_origin() -> None:
    assert same_origin("http://127.0.0.1:8765", "127.0.0.1:8765", "ws")
    assert same_origin("https://castle.example:443", "castle.example:443", "wss")
    assert same_origin(None, "127.0.0.1:8765", "ws")
    assert not same_origin("http://castle.example:443", "castle.example:443", "wss")
    assert not same_origin("null", "127.0.0.1:8765", "ws")
