"""bridge/minecraft/triggers.py (and inputs.py): the trigger table, encode/decode round trips, rejection of bad
queue entries."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mecha import Mecha
from mecha.ast import AstNbt

from bridge.minecraft import inputs, triggers
from bridge.minecraft.inputs import InputError
from bridge.minecraft.syntax import check_command
from bridge.minecraft.triggers import TRIGGERS, decode, encode, trigger_command
from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    AskHappy,
    AskRepeat,
    CancelTwist,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    NominateDoubleVote,
    SkipPower,
    StartTwist,
    SwearOath,
    TimerExpired,
    UsePower,
)
from engine.ids import Drink, NightEvent, Power, Torch, Twist
from engine.rulesets.traitors.twists.bar import TakeDrink
from engine.rulesets.traitors.twists.confession import OpenChest, WriteConfession, WriteResponse
from engine.rulesets.traitors.twists.guess import AskSeer, GuessPower, VoteNominee
from engine.rulesets.traitors.twists.murder import ChooseSwordBearer, StrikeWithSword
from engine.rulesets.traitors.twists.trial import PutOnTrial

SEATS = {"Alex": 1, "Bea": 2, "Cal": 3, "Dee_4": 4, "Eve": 16}


def entry_for(action: Action, seats: dict[str, int] = SEATS, seq: int = 1) -> dict[str, Any]:
    objective, value = encode(action, seats)
    return {"seq": seq, "player": action.actor, "input": objective.removeprefix("traitors."), "value": value}


def test_trigger_table() -> None:
    assert TRIGGERS == (
        "traitors.vote",
        "traitors.oath",
        "traitors.murder",
        "traitors.seduce",
        "traitors.ultimatum",
        "traitors.nominate",
        "traitors.offer",
        "traitors.torch",
        "traitors.power",
        "traitors.power2",
        "traitors.pass",
        "traitors.joker",
        "traitors.host",
        "traitors.console",
        "traitors.candidate",
        "traitors.holdback",
        "traitors.keep",
        "traitors.repeat",
        "traitors.bearer",
        "traitors.chest",
        "traitors.confess",
        "traitors.respond",
        "traitors.guess",
        "traitors.nominee",
        "traitors.seer",
        "traitors.trial",
        "traitors.drink",
        "traitors.twist",
        "traitors.signup",
        "traitors.withdraw",
        "traitors.lobby",
    )
    assert set(triggers.TRIGGER_TITLES) == set(TRIGGERS)


EXAMPLES: list[tuple[Action, tuple[str, int]]] = [
    (CastVote(actor="Alex", target="Cal"), ("traitors.vote", 3)),
    (CastVote(actor="Alex", target="Eve"), ("traitors.vote", 16)),
    (SwearOath(actor="Bea"), ("traitors.oath", 1)),
    (ChooseEvent(actor="Bea", event=NightEvent.MURDER, target="Alex"), ("traitors.murder", 1)),
    (ChooseEvent(actor="Bea", event=NightEvent.SEDUCE, target="Dee_4"), ("traitors.seduce", 4)),
    (ChooseEvent(actor="Bea", event=NightEvent.ULTIMATUM, target="Cal"), ("traitors.ultimatum", 3)),
    (NominateDoubleVote(actor="Bea", target="Cal"), ("traitors.nominate", 3)),
    (AnswerOffer(actor="Cal", accept=True), ("traitors.offer", 1)),
    (AnswerOffer(actor="Cal", accept=False), ("traitors.offer", 2)),
    (ChooseTorch(actor="Alex", torch=Torch.BANISH_AGAIN), ("traitors.torch", 1)),
    (ChooseTorch(actor="Alex", torch=Torch.END_GAME), ("traitors.torch", 2)),
    (UsePower(actor="Alex", target="Eve"), ("traitors.power", 16)),
    (UsePower(actor="Alex", target="Bea", second="Eve"), ("traitors.power2", 216)),
    (SkipPower(actor="Alex"), ("traitors.pass", 1)),
    (AnswerJoker(actor="Cal", accept=True), ("traitors.joker", 1)),
    (AnswerJoker(actor="Cal", accept=False), ("traitors.joker", 2)),
    (Advance(actor="Host_1", button="advance"), ("traitors.host", 1)),
    (NominateCandidate(actor="Alex", target="Cal"), ("traitors.candidate", 3)),
    (HoldBack(actor="Alex"), ("traitors.holdback", 1)),
    (KeepEveryone(actor="Bea"), ("traitors.keep", 1)),
    (AskRepeat(actor="Cal", ask=True), ("traitors.repeat", 1)),
    (AskRepeat(actor="Cal", ask=False), ("traitors.repeat", 2)),
    (ChooseSwordBearer(actor="Bea", target="Cal"), ("traitors.bearer", 3)),
    (OpenChest(actor="Cal"), ("traitors.chest", 1)),
    (GuessPower(actor="Bea", target="Cal"), ("traitors.guess", 300)),
    (GuessPower(actor="Bea", target="Eve", power=Power.BARTENDER), ("traitors.guess", 1601)),
    (GuessPower(actor="Bea", target="Cal", power=Power.GUARDIAN), ("traitors.guess", 315)),
    (VoteNominee(actor="Alex", target="Dee_4"), ("traitors.nominee", 4)),
    (AskSeer(actor="Alex", target="Bea"), ("traitors.seer", 2)),
    (PutOnTrial(actor="Bea", target="Alex"), ("traitors.trial", 1)),
    (TakeDrink(actor="Cal", drink=Drink.FAITHFUL_FANCY), ("traitors.drink", 1)),
    (TakeDrink(actor="Cal", drink=Drink.TRAITORS_TIPPLE), ("traitors.drink", 2)),
    (StartTwist(actor="Host_1", twist=Twist.DOUBLE_VOTE), ("traitors.twist", 1)),
    (StartTwist(actor="Host_1", twist=Twist.TRIAL), ("traitors.twist", 6)),
    (CancelTwist(actor="Host_1", twist=Twist.MURDER), ("traitors.twist", 102)),
]

NOT_ROUND_TRIPPED = {StrikeWithSword, WriteConfession, WriteResponse, AskHappy}
"""Inputs no trigger carries whole: the sword's hit comes from an advancement event (``SwordHit``); a book's text
is read by the service after the ``traitors.confess`` / ``traitors.respond`` trigger (``SendBook``); the host's
question at the finale is a console button (``HostCommand``) the service turns into ``AskHappy``."""


def test_books_and_the_sword_decode_to_bridge_inputs() -> None:
    assert encode(WriteConfession("Cal", ""), SEATS) == ("traitors.confess", 1)
    assert encode(WriteResponse("Bea", ""), SEATS) == ("traitors.respond", 1)
    assert decode({"player": "Cal", "input": "confess", "value": 1}, SEATS) == inputs.SendBook("Cal", "confess")
    assert decode({"player": "Bea", "input": "respond", "value": 1}, SEATS) == inputs.SendBook("Bea", "respond")
    hit = decode({"player": "Cal", "input": "sword_struck", "value": 1, "attacker": [1, 2, 3, 4]}, SEATS)
    assert hit == inputs.SwordHit("Cal", struck=True, attacker=[1, 2, 3, 4])
    with pytest.raises(TypeError):
        encode(StrikeWithSword("Bea", "Cal"), SEATS)


@pytest.mark.parametrize(("action", "expected"), EXAMPLES, ids=[type(a).__name__ for a, _ in EXAMPLES])
def test_encode_and_round_trip(action: Action, expected: tuple[str, int]) -> None:
    assert encode(action, SEATS) == expected
    assert decode(entry_for(action), SEATS) == action
    command = trigger_command(action, SEATS)
    assert command == f"/trigger {expected[0]} set {expected[1]}"
    check_command(command)


def test_every_contestant_action_type_is_covered() -> None:
    from engine.actions import ACTION_TYPES
    from engine.core.host import HOST_CONTROLS

    covered = {type(a) for a, _ in EXAMPLES} | NOT_ROUND_TRIPPED
    # contestant/host actions have an actor field; system inputs (TimerExpired, StartSeries…) do not; the
    # host's console controls reach the engine through HostCommand (the service), tested below
    with_actor = {cls for cls in ACTION_TYPES.values() if "actor" in {f.name for f in dataclasses.fields(cls)}}
    assert covered == with_actor - set(HOST_CONTROLS)


def test_host_controls_and_seat_choice_decode() -> None:
    from bridge.minecraft.inputs import HostCommand, HostControl
    from bridge.minecraft.triggers import SEAT_BASE
    from engine.actions import ReplaceContestant

    for control in HostControl:
        item = decode({"player": "Host_1", "input": "host", "value": control.value}, SEATS)
        assert item == (
            Advance("Host_1", button="advance") if control is HostControl.ADVANCE else HostCommand("Host_1", control)
        )
    item = decode({"player": "Host_1", "input": "host", "value": SEAT_BASE + 3}, SEATS)
    assert item == HostCommand("Host_1", HostControl.REPLACE_CONTESTANT, seat=3)
    assert encode(ReplaceContestant("Host_1", "Cal", ""), SEATS) == ("traitors.host", SEAT_BASE + 3)
    with pytest.raises(InputError):
        decode({"player": "Host_1", "input": "host", "value": SEAT_BASE + 7}, SEATS)  # an empty seat
    with pytest.raises(InputError):
        decode({"player": "Host_1", "input": "host", "value": 15}, SEATS)
    assert encode(AskHappy("Host_1"), SEATS) == ("traitors.host", HostControl.ASK_HAPPY.value)


_NAMES = st.from_regex(r"[A-Za-z0-9_]{3,16}", fullmatch=True)


@st.composite
def seated_actions(draw: st.DrawFn) -> tuple[Action, dict[str, int]]:
    names = draw(st.lists(_NAMES, min_size=2, max_size=16, unique=True))
    seat_numbers = draw(st.permutations(range(1, 17)))
    seats = dict(zip(names, seat_numbers, strict=False))  # the first len(names) seats of the permutation
    actor, target = draw(st.sampled_from(names)), draw(st.sampled_from(names))
    action = draw(
        st.sampled_from(
            [
                CastVote(actor=actor, target=target),
                SwearOath(actor=actor),
                *(ChooseEvent(actor=actor, event=e, target=target) for e in NightEvent),
                NominateDoubleVote(actor=actor, target=target),
                AnswerOffer(actor=actor, accept=True),
                AnswerOffer(actor=actor, accept=False),
                *(ChooseTorch(actor=actor, torch=t) for t in Torch),
                Advance(actor=actor, button="advance"),
            ]
        )
    )
    return action, seats


@settings(max_examples=200, deadline=None)
@given(seated_actions())
def test_round_trip_property(case: tuple[Action, dict[str, int]]) -> None:
    action, seats = case
    assert decode(entry_for(action, seats), seats) == action


def test_decode_accepts_nbtlib_values_from_the_queue() -> None:
    queue = (
        Mecha()
        .parse('[{seq:1,player:"Alex",input:"vote",value:3},{seq:2,player:"Cal",input:"offer",value:2}]', type=AstNbt)
        .evaluate()
    )
    assert [decode(e, SEATS) for e in queue] == [
        CastVote(actor="Alex", target="Cal"),
        AnswerOffer(actor="Cal", accept=False),
    ]


BAD: list[tuple[dict[str, Any], str]] = [
    ({"seq": 1, "player": "Alex", "input": "dance", "value": 1}, "invalid.action.kind"),
    ({"seq": 1, "player": "Alex", "input": "traitors.vote", "value": 1}, "invalid.action.kind"),
    ({"seq": 1, "player": "Alex", "input": "", "value": 1}, "invalid.action.kind"),
    ({"seq": 1, "player": "Alex", "input": 5, "value": 1}, "invalid.action.kind"),
    ({"seq": 1, "player": "Alex", "input": "vote", "value": 9}, "invalid.action.value"),  # empty seat
    ({"seq": 1, "player": "Alex", "input": "vote", "value": 0}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "murder", "value": -3}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "vote", "value": "3"}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "vote", "value": True}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "vote", "value": 2.0}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "oath", "value": 2}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "offer", "value": 3}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "torch", "value": 0}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "host", "value": 15}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "guess", "value": 316}, "invalid.action.value"),  # no 16th power
    ({"seq": 1, "player": "Alex", "input": "drink", "value": 3}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "twist", "value": 7}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "twist", "value": 100}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "chest", "value": 2}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "host", "value": 15}, "invalid.action.value"),
    ({"seq": 1, "player": "Al", "input": "vote", "value": 1}, "invalid.action.value"),
    ({"seq": 1, "player": "@a", "input": "vote", "value": 1}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex Smith", "input": "vote", "value": 1}, "invalid.action.value"),
    ({"seq": 1, "player": 42, "input": "vote", "value": 1}, "invalid.action.value"),
    ({"seq": 1, "player": "Alex", "input": "vote"}, "invalid.action.fields"),
    ({"seq": 1}, "invalid.action.fields"),
]


@pytest.mark.parametrize(("entry", "key"), BAD, ids=[repr(e) for e, _ in BAD])
def test_decode_rejects_bad_entries(entry: dict[str, Any], key: str) -> None:
    with pytest.raises(InputError) as info:
        decode(entry, SEATS)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.key == key
    assert error.message.key == key
    assert error.text and error.text != key  # English text from the catalogue, fit for a private message
    assert str(error) == error.text


def test_decode_rejects_a_non_mapping() -> None:
    with pytest.raises(InputError):
        decode(["vote", 1], SEATS)  # type: ignore[arg-type]


def test_encode_rejects_timer_and_unseated_target() -> None:
    with pytest.raises(TypeError):
        encode(TimerExpired(phase_seq=3), SEATS)
    with pytest.raises(InputError) as info:
        encode(CastVote(actor="Alex", target="Nobody"), SEATS)
    assert info.value.key == "illegal.unknown_player"
