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


def told(effects: object, who: str) -> list[str]:
    """The texts ``who`` was told by ``effects`` (announcements and whispers to them)."""
    from engine.effects import Announce

    out = []
    for e in effects:  # type: ignore[attr-defined]
        if isinstance(e, Announce) or (isinstance(e, Whisper) and who in e.to):
            out.append(e.message.text)
    return out


def test_in_a_season_the_first_stand_by_on_the_server_takes_the_seat() -> None:
    """docs/host.md, "When something goes wrong": the host picks the seat; the first stand-by in sign-up order
    who is on the server takes it at once (one offline is passed over), learns the hand alone, and everyone is
    told who plays for the seat now."""
    c = console()
    c.standbys = ("Offline", "Ines", "Bram")
    press = HostCommand(HOST, HostControl.REPLACE_CONTESTANT, seat=5)  # Efe's seat
    assert c.wants_online(press) and not c.wants_online(HostCommand(HOST, HostControl.REPLACE_CONTESTANT))
    action = c.command(press, online={"Alex", "Kai", "bram", "Ines", HOST})
    assert action == ReplaceContestant(HOST, "Efe", "Ines")
    assert c.seat_waiting is None
    effects = c.game.handle(action, now=1.0)
    assert "Ines now plays for Efe (seat 5)." in told(effects, "Kai")
    assert any(t.startswith("You now play for Efe (seat 5). You are Faithful.") for t in told(effects, "Ines"))
    assert not any(t.startswith("You now play") for t in told(effects, "Kai"))  # the hand is the stand-by's alone
    # Ines plays now: the next replacement passes over her to the next stand-by on the server
    assert c.command(HostCommand(HOST, HostControl.REPLACE_CONTESTANT, seat=2), online={"Ines", "Bram"}) == (
        ReplaceContestant(HOST, "Kai", "Bram")
    )


def test_with_no_stand_by_on_the_server_the_seat_waits_and_the_host_is_told() -> None:
    c = console()
    c.standbys = ("Ines", "Bram")
    out = c.command(HostCommand(HOST, HostControl.REPLACE_CONTESTANT, seat=2), online={"Alex", HOST})
    assert isinstance(out, list) and [e.to for e in out] == [frozenset({HOST})]  # type: ignore[union-attr]
    assert told(out, HOST) == [
        "No stand-by is on the server: seat 2 (Kai) waits for a new player, who takes it by "
        "typing /trigger traitors.console."
    ]
    assert c.seat_waiting == (HOST, "Kai")
    assert c.open("Newbie", in_series=False) == ReplaceContestant(HOST, "Kai", "Newbie")  # as outside a season
