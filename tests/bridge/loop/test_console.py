"""The host's console (bridge/loop/console.py): each button becomes the engine input or the private reply the host
docs promise, decided from the game's state alone."""

from __future__ import annotations

from bridge.loop.console import HostConsole
from bridge.minecraft.inputs import EXTEND_STEP, HostCommand, HostControl
from engine.actions import ExtendPhase, PauseClock, ReplaceContestant, StartSeries, StartTwist, UndoHostAction
from engine.effects import Message, Prompt, Whisper
from engine.ids import Allegiance, Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import DealEntry, Settings

NAMES = ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor")
HOST = "Hostess"


def console() -> HostConsole:
    deal = tuple(DealEntry(n, Allegiance.TRAITOR if n == "Sunny" else Allegiance.FAITHFUL) for n in NAMES)
    game = Game(Settings(contestants=NAMES, hosts=(HOST,), deal=deal, powers=False), seed=5)
    game.handle(StartSeries(), now=0.0)
    return HostConsole(game, {n: i for i, n in enumerate(NAMES, start=1)})


def test_only_a_host_may_press_a_button() -> None:
    c = console()
    assert c.command(HostCommand("Kai", HostControl.PAUSE_CLOCK)) == [
        Whisper(frozenset({"Kai"}), Message("illegal.not_host"))
    ]


def test_engine_controls_become_the_hosts_inputs() -> None:
    c = console()
    assert c.command(HostCommand(HOST, HostControl.PAUSE_CLOCK)) == PauseClock(HOST)
    assert c.command(HostCommand(HOST, HostControl.EXTEND_PHASE)) == ExtendPhase(HOST, EXTEND_STEP)
    assert c.command(HostCommand(HOST, HostControl.UNDO)) == UndoHostAction(HOST)


def test_twist_button_lists_every_twist_to_the_host_only() -> None:
    out = console().command(HostCommand(HOST, HostControl.START_TWIST))
    assert isinstance(out, list) and len(out) == 1
    prompt = out[0]
    assert isinstance(prompt, Prompt)
    assert prompt.to == frozenset({HOST})
    assert [choice.action for choice in prompt.choices] == [StartTwist(HOST, t) for t in Twist]


def test_a_move_on_button_works_only_in_its_phase() -> None:
    c = console()
    assert c.command(HostCommand(HOST, HostControl.CLOSE_VOTE)) == [
        Whisper(frozenset({HOST}), Message("illegal.phase"))
    ]


def test_replacing_is_a_seat_then_a_new_player_who_opens_the_console() -> None:
    c = console()
    out = c.command(HostCommand(HOST, HostControl.REPLACE_CONTESTANT))
    assert isinstance(out, list) and isinstance(out[0], Prompt)
    assert [ch.label for ch in out[0].choices] == list(NAMES)
    assert c.command(HostCommand(HOST, HostControl.REPLACE_CONTESTANT, seat=2)) == []
    assert c.seat_waiting == (HOST, "Kai")
    assert c.open("Alex", in_series=True) == [Whisper(frozenset({"Alex"}), Message("illegal.not_host"))]
    assert c.open(HOST, in_series=True) == []  # the host is shown the console; the seat still waits
    assert c.open("Newbie", in_series=False) == ReplaceContestant(HOST, "Kai", "Newbie")
    assert c.seat_waiting is None
    assert c.open("Other", in_series=False) == [Whisper(frozenset({"Other"}), Message("illegal.not_host"))]
