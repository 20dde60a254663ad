"""The host's notes (``bridge/web/notes.py``, ``bridge/web/hub.py``): kept in the series store per series, found
again after a restart, sent to host pages only."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bridge.loop.store import SeriesStore, StoredSeries
from bridge.web.hub import ControlError, WebHub
from bridge.web.notes import MAX_NOTE, HostNotes
from engine.actions import Advance, StartSeries
from engine.rulesets import new_game

from .test_spectator import HOST, EngineSeries, random_settings

NOTE = "lied about the Turret, watch her vote"


class StoredEngineSeries(EngineSeries):
    """An engine-only series with the store a service has (``SeriesService.store``, ``.stored``)."""

    def __init__(self, store: SeriesStore, stored: StoredSeries) -> None:
        super().__init__(new_game(stored.settings, stored.seed))
        self.store, self.stored = store, stored


def drain(queue: asyncio.Queue[str]) -> list[dict[str, Any]]:
    return [json.loads(queue.get_nowait()) for _ in range(queue.qsize())]


def test_a_note_survives_a_restart_and_never_reaches_a_spectator(tmp_path: Path) -> None:
    path = tmp_path / "series.db"
    store = SeriesStore(path)
    stored = store.create(random_settings(random.Random(3), "traitors"), 3)
    other = store.create(random_settings(random.Random(4), "traitors"), 4)
    series = StoredEngineSeries(store, stored)
    hub = WebHub(clock=lambda: series.now)
    hub.attach(series)
    page, watcher = hub.open_host(), hub.open_spectator()
    series.step(StartSeries())
    drain(page)
    name = series.game.contestants()[2]
    asyncio.run(hub.control(HOST, {"control": "note", "contestant": name, "text": "  " + NOTE + "\n"}))
    (update,) = drain(page)
    assert update["set"] == {"notes": {name: NOTE}}, "the host page gets the new note as a diff"
    for _ in range(30):
        series.step(Advance(HOST))
    assert HostNotes(store, other.id).notes == {}, "notes are per series"
    store.close()

    store = SeriesStore(path)  # the service restarts: the store is opened again, the series resumed
    again = StoredEngineSeries(store, store.load(stored.id))
    again.step(StartSeries())
    hub = WebHub(clock=lambda: again.now)
    hub.attach(again)
    state = drain(hub.open_host())[0]
    assert state["parts"]["notes"] == {name: NOTE}
    asyncio.run(hub.control(HOST, {"control": "note", "contestant": name, "text": ""}))
    assert HostNotes(store, stored.id).notes == {}, "an empty note clears it, in the store too"
    store.close()

    sent = [watcher.get_nowait() for _ in range(watcher.qsize())]
    assert sent and not any("Turret, watch" in text for text in sent)
    assert not any("Turret, watch" in json.dumps(m) for m in hub.spectator.history)


def test_a_note_without_a_store_lives_in_memory_and_is_cut_to_its_limit() -> None:
    series = EngineSeries(new_game(random_settings(random.Random(5), "black_knights"), 5))
    hub = WebHub(clock=lambda: series.now)
    hub.attach(series)
    series.step(StartSeries())
    name = series.game.contestants()[0]
    hub.save_note(HOST, {"contestant": name, "text": "x" * (MAX_NOTE + 50)})
    assert hub.notes.notes == {name: "x" * MAX_NOTE}
    assert drain(hub.open_host())[0]["parts"]["notes"] == {name: "x" * MAX_NOTE}


@pytest.mark.parametrize(
    "request_", [{"contestant": "Nobody", "text": "x"}, {"contestant": "Alex", "text": 3}, {"text": "x"}]
)
def test_a_bad_note_is_refused(request_: dict[str, Any]) -> None:
    series = EngineSeries(new_game(random_settings(random.Random(6), "traitors"), 6))
    hub = WebHub()
    hub.attach(series)
    series.step(StartSeries())
    with pytest.raises(ControlError):
        asyncio.run(hub.control(HOST, {"control": "note", **request_}))
    with pytest.raises(ControlError, match="not a host"):
        asyncio.run(hub.control("Alex", {"control": "note", "contestant": "Alex", "text": "x"}))
    assert hub.notes.notes == {}
