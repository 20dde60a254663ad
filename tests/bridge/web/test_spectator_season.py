"""The spectator page across a season (``bridge/web/hub.py`` house rule 9): when the next series is attached, every
open spectator page is told to start over and a page that connects then is sent the new series only, never the
previous series' announcements or record; a service restarted on the same series keeps its feed."""

from __future__ import annotations

import json
from typing import Any

from bridge.web.hub import WebHub
from engine.actions import EndSeries, StartSeries
from engine.rulesets import new_game
from engine.rulesets.traitors.settings import Settings

from .test_spectator import HOST, NAMES, EngineSeries, Resumed, _stored


def series(names: tuple[str, ...]) -> EngineSeries:
    return EngineSeries(new_game(Settings(contestants=names, traitors=1, hosts=(HOST,)), 7))


def read(page: Any) -> list[dict[str, Any]]:
    return [json.loads(page.get_nowait()) for _ in range(page.qsize())]


def names_in(messages: list[dict[str, Any]]) -> set[str]:
    text = json.dumps(messages)
    return {n for n in NAMES if n in text}


def test_the_next_series_starts_the_spectator_page_over() -> None:
    first, second = series(NAMES[:6]), series(NAMES[6:12])
    hub = WebHub(clock=lambda: first.now + second.now)
    hub.attach(first)
    open_all_along = hub.open_spectator()
    first.step(StartSeries())
    first.step(EndSeries(HOST))
    seen = read(open_all_along)
    assert any(m["type"] == "record" for m in seen) and names_in(seen) == set(NAMES[:6])

    hub.attach(second)  # the season's next series
    second.step(StartSeries())
    after = read(open_all_along)
    assert after[0]["type"] == "reset"  # the page empties itself first
    assert names_in(after[1:]) == set(NAMES[6:12])  # then only the new series
    assert not any(m["type"] == "record" for m in after)
    new_page = read(hub.open_spectator())
    assert new_page[0]["type"] == "now" and names_in(new_page) == set(NAMES[6:12])
    assert not any(m["type"] == "record" for m in new_page)
    assert [m for m in new_page[1:] if m["type"] == "event"] == [m for m in after[1:] if m["type"] == "event"]


def test_a_restart_of_the_same_series_keeps_its_feed() -> None:
    live = series(NAMES[:6])
    live.step(StartSeries())
    stored = _stored(live.game, 7)
    hub = WebHub(clock=lambda: 0.0)
    hub.attach(Resumed(stored))
    page = hub.open_spectator()
    before = read(page)
    hub.attach(Resumed(stored))  # the service restarted: the same stored series
    assert read(page) == [] and json.loads(hub.state_message())["type"] == "state"
    assert [json.loads(json.dumps(m)) for m in hub.spectator.history] == before[1:]
