"""The hub (``bridge/web/hub.py``): host controls go the in-game console's way, pages get diffs, a new service
(a restart) gives every page the resumed state whole."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest

from bridge.web.app import COOKIE
from bridge.web.hub import ControlError, Refused, WebHub, controls, press
from bridge.web.rig import HOST, SandboxRig
from engine.actions import Advance, StartSeries
from engine.core.step import fed_log
from engine.rulesets import new_game

from .test_spectator import EngineSeries, random_settings


def drain(queue: asyncio.Queue[str]) -> list[dict[str, Any]]:
    return [json.loads(queue.get_nowait()) for _ in range(queue.qsize())]


def test_host_controls_go_through_the_console_and_the_record() -> None:
    """Pause from the page: the engine pauses (the record names the host), the page gets the paused clock as a
    diff; undo takes it back; a control the series refuses is raised with the console's private answer (the page
    shows it) and whispered to the host as a press in the castle would be."""

    async def run() -> None:
        async with SandboxRig() as rig:
            page = rig.hub.open_host()
            assert drain(page)[0]["type"] == "state"
            await rig.hub.control(HOST, {"control": "pause_clock"}, "127.0.0.1")
            actions = rig.game.record.to_dict()["host_actions"]
            assert [(a["host"], a["action"]) for a in actions] == [(HOST, "pause_clock")]
            diffs = drain(page)
            assert any((d.get("set", {}).get("clock") or {}).get("paused") for d in diffs)
            assert any("pause_clock host=Host" in line["text"] for d in diffs for line in d["log"])
            await rig.hub.control(HOST, {"control": "undo"})
            assert rig.game.paused is None
            with pytest.raises(Refused, match="can't do that now"):
                await rig.hub.control(HOST, {"control": "close_vote"})  # day zero: no vote is open
            refused = [line for d in drain(page) for line in d["log"] if line["kind"] == "whisper"]
            assert refused and refused[-1]["to"] == [HOST]
            await rig.hub.control(HOST, {"control": "replace_contestant", "seat": 3})
            assert rig.service is not None and rig.service.router.console.seat_waiting == (HOST, "Zuri")
            with pytest.raises(ControlError, match="not a host"):
                await rig.hub.control("Alex", {"control": "end_series"})

    asyncio.run(run())


def test_every_press_is_audited_as_the_host_whose_token_was_used() -> None:
    """Two hosts, each with their own token: the page logged in as Ann presses; every press (twists and moving on
    too) is one line of the record's ``host_actions`` naming Ann and the button, whatever host the request names
    (its ``"as"`` is no way to act as another host)."""
    import websockets

    async def run() -> list[tuple[str, str, str]]:
        async with SandboxRig(hosts=(HOST, "Ann")) as rig:
            url = rig.web.base.replace("http://", "ws://") + "/ws/host"
            cookie = {"Cookie": f"{COOKIE}={rig.keys.session('Ann')}"}
            async with websockets.connect(url, origin=websockets.Origin(rig.web.base), additional_headers=cookie) as ws:
                assert json.loads(await ws.recv())["type"] == "state"
                for request in (
                    {"control": "pause_clock", "as": HOST},
                    {"control": "resume_clock", "as": HOST},
                    {"control": "start_twist", "twist": "murder", "as": HOST},
                    {"control": "cancel_twist", "twist": "murder"},
                    {"control": "advance", "as": HOST},
                ):
                    await ws.send(json.dumps(request))
                    while (reply := json.loads(await ws.recv()))["type"] != "reply":
                        pass
                    assert reply["ok"], reply
            return [
                (a["host"], a["action"], a["detail"].split(",")[0].split()[-1]) for a in rig.game.record.host_actions
            ]

    assert asyncio.run(run()) == [
        ("Ann", "pause_clock", "left"),
        ("Ann", "resume_clock", "left"),
        ("Ann", "start_twist", "murder"),
        ("Ann", "cancel_twist", "murder"),
        ("Ann", "advance", "advance"),
    ]


def test_a_stopping_service_takes_no_control_from_the_page() -> None:
    """Once the service is asked to stop (SIGINT), a host control from the page is refused and changes nothing."""

    async def run() -> None:
        async with SandboxRig() as rig:
            assert rig.service is not None
            rig.service.request_stop()
            before = len(rig.game.log)
            with pytest.raises(ControlError, match="stopping"):
                await rig.hub.control(HOST, {"control": "pause_clock"})
            assert len(rig.game.log) == before and rig.game.paused is None

    asyncio.run(run())


def test_a_vote_cast_in_the_castle_arrives_as_a_diff() -> None:
    async def run() -> None:
        async with SandboxRig(seed=5) as rig:
            await rig.advance_to("vote")
            page = rig.hub.open_host()
            drain(page)
            voter, target = rig.game.present()[0], rig.game.present()[1]
            await rig.press(voter, "traitors.vote", rig.game.seats()[target])
            await rig.until(lambda: voter in (rig.game.ballot.votes if rig.game.ballot else {}))
            await rig.until(lambda: not page.empty())
            votes = [d["set"]["vote"]["votes"] for d in drain(page) if "vote" in d.get("set", {})]
            assert votes and votes[-1][voter] == target

    asyncio.run(run())


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
def test_a_new_service_sends_every_page_the_resumed_state(ruleset: str) -> None:
    """A restart (the series replayed from its stored inputs, a new service): the page gets the resumed state
    whole, and its event log is the one the series showed live, every effect line and not the inputs only."""
    rng = random.Random(2)
    first = EngineSeries(new_game(random_settings(rng, ruleset), 2))
    hub = WebHub(clock=lambda: first.now)
    hub.attach(first)
    first.step(StartSeries())
    page = hub.open_host()
    for _ in range(400):
        if first.game.is_over:
            break
        options = [a for n in first.game.contestants() for a in first.game.legal_actions(n)]
        first.step(Advance(HOST) if not options or rng.random() < 0.1 else rng.choice(options))
    live = [(e["kind"], e["text"], e["to"]) for e in hub.log]
    drain(page)
    again = EngineSeries(new_game(first.game.settings, 2))
    fed_log(again.game, first.game.log)
    hub.attach(again)
    (state,) = drain(page)
    assert state["type"] == "state" and state["parts"]["clock"]["phase"] == first.game.phase.value
    assert sum(e["kind"] != "input" for e in state["log"]) > len(first.game.log)
    assert [(e["kind"], e["text"], e["to"]) for e in state["log"]] == live
    assert [e["t"] for e in state["log"] if e["kind"] == "input"] == [e["now"] for e in first.game.log]


def test_press_is_the_console_button() -> None:
    assert press({"control": "advance"}) == {"input": "host", "value": 1}
    assert press({"control": "pause_clock"}) == {"input": "host", "value": 8}
    assert press({"control": "undo"}) == {"input": "host", "value": 13}
    assert press({"control": "replace_contestant", "seat": 4}) == {"input": "host", "value": 104}
    assert press({"control": "start_twist", "twist": "murder"}) == {"input": "twist", "value": 2}
    assert press({"control": "cancel_twist", "twist": "murder"}) == {"input": "twist", "value": 102}
    for bad in (
        {"control": "start_twist", "twist": "nope"},
        {"control": "replace_contestant", "seat": 40},
        {"control": None},
        {},
        {"control": "PAUSE_CLOCK"},
        {"control": "nope"},
    ):
        with pytest.raises(ControlError):
            press(bad)


def test_the_page_is_sent_the_console_buttons_in_the_console_order() -> None:
    """The page renders its buttons from the state's ``controls``: every console button, named as a press names it."""
    state = json.loads(WebHub().state_message())
    assert state["controls"] == controls()
    assert [c["control"] for c in controls()] == [
        "advance",
        "open_round_table",
        "open_vote",
        "close_vote",
        "ask_happy",
        "lock_torches",
        "start_twist",
        "cancel_twist",
        "pause_clock",
        "resume_clock",
        "end_series",
        "extend_phase",
        "replace_contestant",
        "undo",
    ]
    assert controls()[-1] == {"control": "undo", "label": "Undo the last host action"}
    for c in controls():
        press({"control": c["control"], "seat": 1, "twist": "murder"})  # each is a press the hub takes


def test_drain_waits_for_the_delay_but_not_for_a_page_that_reads_nothing() -> None:
    """After the series: the record held back 0.3 s is released, then a page whose queue nobody reads holds the
    wait only ``grace`` seconds."""

    async def run() -> tuple[float, int]:
        hub = WebHub(delay=0.3)
        hub.open_spectator()  # a page that never reads its queue
        hub.spectator.finish({"contestants": []}, "the record", time.time())
        started = time.monotonic()
        await hub.drain(asyncio.Event(), poll=0.02, grace=0.2)
        return time.monotonic() - started, len(hub.spectator.line)

    took, held = asyncio.run(run())
    assert held == 0 and 0.45 <= took < 1.5


def test_a_log_that_cannot_be_rebuilt_keeps_the_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's log must not stop the series: when the replay fails, the resumed page shows the inputs."""
    series = EngineSeries(new_game(random_settings(random.Random(4), "traitors"), 4))
    series.step(StartSeries())

    def broken(game: Any) -> list[dict[str, Any]]:
        raise KeyError("a bug")

    monkeypatch.setattr("bridge.web.hub.rebuilt_log", broken)
    hub = WebHub(clock=lambda: series.now)
    hub.attach(series)
    assert [e["text"] for e in hub.log] == ["start_series"]
