"""A host control defined in this test alone (``engine.core.host_spec.register_host_control``): one spec entry
(its class, check, application, undo, record term and title, English message and console button) is all it
takes for both kinds of game to take it, everyone to be told, the record and its export to keep it, the console
to press it (the in-game dialog made from the controls) and the web grimoire to show and press its button.

The toy: the host rings the castle's bell. Everyone hears it; undo takes it back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

import pytest

from bridge.app.export import format_record
from bridge.loop.console import HostConsole
from bridge.minecraft.console_dialog import console_dialog
from bridge.minecraft.inputs import HostCommand, HostControl
from bridge.minecraft.triggers import decode
from bridge.web.hub import WebHub, controls, press
from engine.actions import ACTION_TYPES, ByHost, StartSeries, UndoHostAction, action_from_dict
from engine.core.host_spec import ConsoleButton, HostControlSpec, register_host_control, unregister_host_control
from engine.effects import Announce, Effect, Message, Whisper, msg
from engine.errors import IllegalAction
from engine.messages import CATALOG
from engine.rulesets import new_game
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings
from engine.terms import term

HOST = "Host"
NAMES = ("Alex", "Kai", "Lena", "Ari", "Sunny", "Zuri", "Omar", "Efe")
BUTTON = 15
"""The toy's console button: the next number no button sends (``tests/bridge/minecraft/test_trigger_values.py``)."""


@dataclass(frozen=True, slots=True)
class RingBell(ByHost):
    """The host rings the castle's bell."""

    kind: ClassVar[str] = "ring_bell"


def _check_ring(game: Any, action: RingBell) -> Callable[[], None]:
    if game.phase is None:
        raise IllegalAction("illegal.phase")
    return partial(_ring, game, action.host)


def _ring(game: Any, host: str) -> None:
    game.log_host_action(host, "ring_bell", "once")
    game.announce("host.bell")


SPEC = HostControlSpec(
    RingBell,
    _check_ring,
    "Rang the bell",
    "ring bell",
    undoable=True,
    messages={"host.bell": "The host rings the castle's bell."},
    button=ConsoleButton(BUTTON, "ring_bell", "Ring the bell", RingBell),
)


@pytest.fixture
def bell() -> Iterator[HostControlSpec]:
    register_host_control(SPEC)
    try:
        yield SPEC
    finally:
        unregister_host_control(SPEC)
    assert "ring_bell" not in ACTION_TYPES and "host.bell" not in CATALOG  # nothing left behind


def _games() -> dict[str, Any]:
    club = ClubSettings("black_knights", NAMES, hosts=(HOST,))
    return {"traitors": new_game(Settings(contestants=NAMES, traitors=2, hosts=(HOST,)), 3), "club": new_game(club, 3)}


@pytest.mark.parametrize("family", ["traitors", "club"])
def test_both_games_take_the_control_and_everyone_is_told(bell: HostControlSpec, family: str) -> None:
    game = _games()[family]
    game.handle(StartSeries(), now=0.0)
    with pytest.raises(IllegalAction) as refused:  # a contestant cannot ring it: nothing changes
        game.handle(RingBell("Alex"), now=1.0)
    assert refused.value.reason == "illegal.not_host"
    assert not any(a["action"] == "ring_bell" for a in game.record.host_actions)

    effects: list[Effect] = game.handle(RingBell(HOST), now=2.0)
    assert effects == [Announce(msg("host.bell"))]  # to everyone, the contestants and the host alike
    assert Announce(msg("host.bell")).message.text == "The host rings the castle's bell."
    assert game.record.host_actions[-1] | {"at": 0} == {
        "host": HOST,
        "action": "ring_bell",
        "at": 0,
        "day": game.day,
        "phase": game.phase.value,
        "detail": "once",
        "undone": False,
    }
    assert action_from_dict(RingBell(HOST).to_dict()) == RingBell(HOST)  # the input log reads it back

    told = game.handle(UndoHostAction(HOST), now=3.0)  # undoable: the series is rebuilt without it
    assert Announce(msg("host.undone", action=term("term.host_action.ring_bell"))) in told
    assert game.record.host_actions[-2]["undone"]
    assert "Rang the bell: once (undone)" in format_record(game.record, "text")


def test_the_console_the_dialog_and_the_web_page_press_it(bell: HostControlSpec) -> None:
    game = _games()["traitors"]
    game.handle(StartSeries(), now=0.0)
    pressed = decode({"player": HOST, "input": "host", "value": BUTTON}, {n: i for i, n in enumerate(NAMES, 1)})
    assert pressed == HostCommand(HOST, HostControl.RING_BELL) and HostControl(BUTTON) is HostControl.RING_BELL
    assert HostConsole(game, {}).command(pressed) == RingBell(HOST)
    assert HostConsole(game, {}).command(HostCommand("Alex", HostControl.RING_BELL)) == [
        Whisper(frozenset({"Alex"}), Message("illegal.not_host"))
    ]

    dialog = console_dialog()
    assert dialog["actions"][-1] == {
        "label": {"translate": "traitors.console.ring_bell", "fallback": "Ring the bell"},
        "action": {"type": "minecraft:run_command", "command": f"/trigger traitors.host set {BUTTON}"},
    }

    assert controls()[-1] == {"control": "ring_bell", "label": "Ring the bell"}
    assert json.loads(WebHub().state_message())["controls"] == controls()  # what the page renders its buttons from
    assert press({"control": "ring_bell"}) == {"input": "host", "value": BUTTON}


def test_a_taken_number_or_kind_is_refused(bell: HostControlSpec) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_host_control(SPEC)
    twin = HostControlSpec(UndoHostAction, _check_ring, "x", "x", button=ConsoleButton(99, "x", "x", None))
    with pytest.raises(ValueError, match="already registered"):
        register_host_control(twin)
    with pytest.raises(ValueError, match="is taken"):
        register_host_control(
            HostControlSpec(ByHost, _check_ring, "x", "x", button=ConsoleButton(BUTTON, "y", "y", None))
        )
