"""The numbers the triggers carry are pinned to the tables below (``bridge/minecraft/triggers.py``).

Why a value may never change meaning: a press is ``/trigger traitors.<input> set N``, and ``N`` is written in
places the bridge does not rewrite when it is upgraded. The host console's dialog in the data pack installed on a
live server (its console dialog, ``data/traitors/dialog/host/console.json``: ``/trigger traitors.host set 8``
pauses the clock), the click events of chat prompts and of written books already in contestants' inventories (a book keeps
its click events for as long as it is held, across a restart of the bridge), a series resumed after an upgrade,
and the commands hosts learn by heart all carry bare numbers. A twist's number is declared with its key in its
module (``Twist.declare``; ``triggers.twist_numbers``); others are positions in a list the code builds from an enum:
a guessed power's its place in ``GUESSABLE`` (the order of ``engine.ids.Power``), a drink's its place in ``engine.ids.Drink``. Editing
the table, reordering an enum, or inserting a member anywhere but at the end, would silently make every button
already handed out start, cancel, guess or pour something else, with no error anywhere.

So each value is pinned here by the member's stable name (its ``value`` string, or its name for
``HostControl``), and checked both ways through ``encode`` and ``decode``. A new twist, power, drink, control or
lobby button must be added to its table (the completeness tests fail until it is) with a new number; an existing
row never changes.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridge.minecraft import triggers
from bridge.minecraft.inputs import HostCommand, HostControl, LobbyControl, LobbyPress
from bridge.minecraft.triggers import decode, encode, lobby_command
from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    AskRepeat,
    CancelTwist,
    ChooseTorch,
    HoldBack,
    KeepEveryone,
    SkipPower,
    StartTwist,
    SwearOath,
    UsePower,
)
from engine.ids import Drink, Power, Torch, Twist
from engine.rulesets.traitors.twists.bar import TakeDrink
from engine.rulesets.traitors.twists.confession import OpenChest
from engine.rulesets.traitors.twists.guess import GUESSABLE, GuessPower

SEATS = {"Alex": 1, "Bea": 2, "Cal": 3, "Eve": 16}

TWISTS = {"double_vote": 1, "murder": 2, "confession": 3, "guess": 4, "seer": 5, "trial": 6}
"""``traitors.twist``: the host starts a twist with its number, cancels it with ``CANCEL`` + its number."""

GUESSED_POWERS = {
    "bartender": 1,
    "falsifier": 2,
    "silencer": 3,
    "analyst": 4,
    "researcher": 5,
    "sheriff": 6,
    "cleanser": 7,
    "detective": 8,
    "historian": 9,
    "mimic": 10,
    "sober": 11,
    "spy": 12,
    "survivor": 13,
    "judge": 14,
    "guardian": 15,
}
"""``traitors.guess``: ``PAIR`` × seat + the guessed power's number (0: the power is asked next)."""

DRINKS = {"faithful_fancy": 1, "traitors_tipple": 2}
"""``traitors.drink``."""

TORCHES = {"banish_again": 1, "end_game": 2}
"""``traitors.torch``."""

HOST_CONTROLS = {
    "ADVANCE": 1,
    "OPEN_ROUND_TABLE": 2,
    "OPEN_VOTE": 3,
    "CLOSE_VOTE": 4,
    "LOCK_TORCHES": 5,
    "START_TWIST": 6,
    "CANCEL_TWIST": 7,
    "PAUSE_CLOCK": 8,
    "RESUME_CLOCK": 9,
    "END_SERIES": 10,
    "EXTEND_PHASE": 11,
    "REPLACE_CONTESTANT": 12,
    "UNDO": 13,
    "ASK_HAPPY": 14,
}
"""``traitors.host``: the console's buttons (``SEAT_BASE`` + seat: the seat chosen for a new player)."""

SIGNUP = {"sign_up": 1, "withdraw": 2, "show": 3}
"""``traitors.signup``: a player's lobby buttons."""

LOBBY = {"console": 1, "draw": 2, "start": 3, "clear": 4}
"""``traitors.lobby``: the host's lobby buttons (``PICK_BASE`` + k: seat the k-th sign-up)."""

BASES = {"PAIR": 100, "SEAT_BASE": 100, "CANCEL": 100, "PICK_BASE": 100, "MAX_SEATS": 16, "MAX_SIGNUPS": 64}
"""The constants that pack a second number into a value, and the ranges they leave room for."""

FIXED: list[tuple[Action, str, int]] = [
    (AnswerOffer("Cal", accept=True), "traitors.offer", 1),
    (AnswerOffer("Cal", accept=False), "traitors.offer", 2),
    (AnswerJoker("Cal", accept=True), "traitors.joker", 1),
    (AnswerJoker("Cal", accept=False), "traitors.joker", 2),
    (AskRepeat("Cal", ask=True), "traitors.repeat", 1),
    (AskRepeat("Cal", ask=False), "traitors.repeat", 2),
    (SwearOath("Bea"), "traitors.oath", 1),
    (SkipPower("Bea"), "traitors.pass", 1),
    (HoldBack("Bea"), "traitors.holdback", 1),
    (KeepEveryone("Bea"), "traitors.keep", 1),
    (OpenChest("Bea"), "traitors.chest", 1),
    (Advance("Host_1", button="advance"), "traitors.host", 1),
    (UsePower("Alex", "Bea", second="Eve"), "traitors.power2", 216),
]
"""Yes/no answers (1 yes, 2 no), one-button inputs (1) and the Analyst's two seats in one value."""


def _round_trip(action: Action, objective: str, value: int) -> None:
    """``action`` is sent as ``objective`` = ``value``, and that press decodes to ``action`` again."""
    assert encode(action, SEATS) == (objective, value)
    entry: dict[str, Any] = {"player": action.actor, "input": objective.removeprefix("traitors."), "value": value}
    assert decode(entry, SEATS) == action


@pytest.mark.parametrize(("twist", "number"), TWISTS.items())
def test_twist_numbers(twist: str, number: int) -> None:
    _round_trip(StartTwist("Host_1", Twist(twist)), "traitors.twist", number)
    _round_trip(CancelTwist("Host_1", Twist(twist)), "traitors.twist", BASES["CANCEL"] + number)


@pytest.mark.parametrize(("power", "number"), GUESSED_POWERS.items())
def test_guessed_power_numbers(power: str, number: int) -> None:
    _round_trip(GuessPower("Bea", "Cal", Power(power)), "traitors.guess", BASES["PAIR"] * 3 + number)


def test_drink_and_torch_numbers() -> None:
    for drink, number in DRINKS.items():
        _round_trip(TakeDrink("Cal", Drink(drink)), "traitors.drink", number)
    for torch, number in TORCHES.items():
        _round_trip(ChooseTorch("Alex", Torch(torch)), "traitors.torch", number)


@pytest.mark.parametrize(("action", "objective", "value"), FIXED, ids=[f"{o}={v}" for _, o, v in FIXED])
def test_fixed_values(action: Action, objective: str, value: int) -> None:
    _round_trip(action, objective, value)


@pytest.mark.parametrize(("control", "value"), HOST_CONTROLS.items())
def test_host_console_values(control: str, value: int) -> None:
    pressed = decode({"player": "Host_1", "input": "host", "value": value}, SEATS)
    expected = (
        Advance("Host_1", button="advance") if control == "ADVANCE" else HostCommand("Host_1", HostControl[control])
    )
    assert pressed == expected


def test_a_seat_for_a_new_player_and_a_picked_sign_up() -> None:
    seat = decode({"player": "Host_1", "input": "host", "value": BASES["SEAT_BASE"] + 3}, SEATS)
    assert seat == HostCommand("Host_1", HostControl.REPLACE_CONTESTANT, seat=3)
    last = BASES["PICK_BASE"] + BASES["MAX_SIGNUPS"]
    assert decode({"player": "Host_1", "input": "lobby", "value": last}, SEATS) == LobbyPress(
        "Host_1", LobbyControl.PICK, BASES["MAX_SIGNUPS"]
    )
    assert lobby_command(LobbyControl.PICK, 2) == f"/trigger traitors.lobby set {BASES['PICK_BASE'] + 2}"


def test_lobby_values() -> None:
    for objective, table in (("signup", SIGNUP), ("lobby", LOBBY)):
        for control, value in table.items():
            pressed = decode({"player": "Alex", "input": objective, "value": value}, SEATS)
            assert pressed == LobbyPress("Alex", LobbyControl(control))
            assert lobby_command(LobbyControl(control)) == f"/trigger traitors.{objective} set {value}"


def test_the_constants() -> None:
    assert {name: getattr(triggers, name) for name in BASES} == BASES


def test_every_member_has_a_pinned_value() -> None:
    """A new twist, guessable power, drink, torch, console button or lobby button needs its own row above."""
    assert set(TWISTS) == {t.value for t in Twist}
    assert set(GUESSED_POWERS) == {p.value for p in GUESSABLE}
    assert set(DRINKS) == {d.value for d in Drink}
    assert set(TORCHES) == {t.value for t in Torch}
    assert set(HOST_CONTROLS) == {c.name for c in HostControl}
    assert set(SIGNUP) | set(LOBBY) == {c.value for c in LobbyControl} - {LobbyControl.PICK.value}
    for table in (TWISTS, GUESSED_POWERS, DRINKS, TORCHES, HOST_CONTROLS, SIGNUP, LOBBY):
        assert len(set(table.values())) == len(table), table


def test_a_console_button_is_found_by_its_number_or_name_only() -> None:
    """``HostControl`` is the console's list: a number or name no button has is an error, never another button."""
    assert HostControl(8) is HostControl.PAUSE_CLOCK is HostControl["PAUSE_CLOCK"]
    assert [c.value for c in HostControl] == [1, 2, 3, 4, 14, 5, 6, 7, 8, 9, 10, 11, 12, 13]  # the console's order
    with pytest.raises(ValueError):
        HostControl(15)
    with pytest.raises(KeyError):
        HostControl["pause_clock"]
    with pytest.raises(AttributeError):
        HostControl.NO_SUCH_BUTTON  # noqa: B018
