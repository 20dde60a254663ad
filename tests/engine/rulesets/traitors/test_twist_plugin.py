"""A twist is a plug-in: a ``TwistSpec`` registered with the twists' hub joins the series with no other change to
the engine (``engine/rulesets/traitors/twists/spec.py``, ``docs/rulesets.md``).

The toy twist here, the Toast, lives only in this file: on its day's discussion every living contestant may raise
a toast to another contestant once (an input class of its own); everyone hears each toast, and when discussion
ends the table hears how many were raised. The host starts it live with ``StartTwist``. Everything it needs is
declared here, as a real twist's module declares it: its key and host number (``Twist.declare``), its spec with its
title, input, trigger and English messages. The fixture registers it for one test and takes it away after; nothing
else in the engine or the bridge is edited, yet the castle's trigger table, the scenario forms and replay from a
game log all take it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from bridge.config.inputs import parse_inputs
from bridge.minecraft import triggers
from bridge.minecraft.inputs import InputError
from bridge.minecraft.render import choice_label
from engine.actions import (
    ACTION_TYPES,
    Action,
    Advance,
    ByContestant,
    CancelTwist,
    CastVote,
    ChooseEvent,
    SkipPower,
    StartSeries,
    StartTwist,
    SwearOath,
)
from engine.effects import Announce, Choice, Prompt, Whisper, msg
from engine.errors import IllegalAction
from engine.ids import Allegiance, NightEvent, Twist
from engine.input_trigger import InputTrigger
from engine.messages import CATALOG
from engine.rulesets.traitors import rules, twists
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec

HOST = "Host"
NAMES = ("Sunny", "Efe", "Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Lena", "Omar")
TRAITORS = ("Sunny", "Efe")


@dataclass(frozen=True, slots=True)
class RaiseToast(ByContestant):
    """A contestant raises a toast to ``target`` (the Toast twist's one input)."""

    kind: ClassVar[str] = "raise_toast"
    target: str


@dataclass(slots=True)
class ToastState:
    raised: list[str] = field(default_factory=list)


def _toast(game: Context) -> ToastState:
    state: ToastState = twists.state_of(game, TOAST_KEY)
    return state


def _today(game: Context) -> bool:
    return game.phase is Phase.DISCUSSION and game.twist_on(game.day, TOAST_KEY)


def validate(game: Context, action: RaiseToast) -> Callable[[], None]:
    if not _today(game):
        raise IllegalAction("illegal.toast.closed")
    if action.actor in _toast(game).raised:
        raise IllegalAction("illegal.toast.raised")
    if action.target not in game.living() or action.target == action.actor:
        raise IllegalAction("illegal.toast.target", player=action.target)

    def apply() -> None:
        _toast(game).raised.append(action.actor)
        game.announce("toast.raised", player=action.actor, target=action.target)

    return apply


def legal_actions(game: Context, player: str) -> list[Action]:
    if not _today(game) or player in _toast(game).raised:
        return []
    return [RaiseToast(player, n) for n in game.living() if n != player]


def begin_discussion(game: Context) -> None:
    if game.twist_on(game.day, TOAST_KEY):
        game.whisper(game.living(), "toast.open")


def end_discussion(game: Context) -> None:
    if game.twist_on(game.day, TOAST_KEY):
        game.announce("toast.count", count=len(_toast(game).raised))


MESSAGES = {
    "toast.open": "The Toast: raise a toast once before the round table.",
    "toast.choice": "Raise a toast",
    "toast.raised": "{player} raises a toast to {target}.",
    "toast.count": "{count} toasts were raised.",
    "illegal.toast.closed": "No toast can be raised now.",
    "illegal.toast.raised": "You have already raised your toast.",
    "illegal.toast.target": "{player} cannot be toasted.",
}

TOAST_KEY: Twist = Twist.DOUBLE_VOTE  # replaced by the fixture's new member before any use


def _spec() -> TwistSpec:
    return TwistSpec(
        TOAST_KEY,
        "The Toast",
        inputs=(
            TwistInput(
                RaiseToast,
                frozenset({Phase.DISCUSSION}),
                validate,
                "traitors.dialog.title.twist",
                ("toast.choice",),
                InputTrigger("toast", "Toast"),
            ),
        ),
        input_phases=frozenset({Phase.DISCUSSION}),
        legal_actions=legal_actions,
        hooks={"begin_discussion": begin_discussion, "end_discussion": end_discussion},
        state=ToastState,
        messages=MESSAGES,
    )


@pytest.fixture
def toast(monkeypatch: pytest.MonkeyPatch) -> Iterator[TwistSpec]:
    """The Toast, registered (key, spec, inputs, messages, trigger number) for one test."""
    member = Twist.declare("toast", 7)  # a real twist's module declares its key the same way
    monkeypatch.setattr(f"{__name__}.TOAST_KEY", member)
    spec = _spec()
    rules.register_twist(spec)
    try:
        yield spec
    finally:
        rules.unregister_twist(spec)
        Twist.withdraw(member)


class Series:
    """A scripted series with one host; ``do`` applies an input one second after the last."""

    def __init__(self) -> None:
        T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL
        deal = tuple(DealEntry(n, T if n in TRAITORS else F, None) for n in NAMES)
        settings = Settings(contestants=NAMES, hosts=(HOST,), deal=deal, powers=False, joker_night=None)
        self.g = Game(settings, seed=5)
        self.now = 0.0
        self.fx: list[Any] = []
        self.do(StartSeries())

    def do(self, action: Any) -> list[Any]:
        self.now += 1
        fx = self.g.handle(action, now=self.now)
        self.fx += fx
        return fx

    def advance_to(self, phase: Phase) -> None:
        for _ in range(80):
            if self.g.phase is phase:
                return
            if self.g.phase is Phase.OATH and self.g.night.oath_taking:
                self.do(SwearOath(self.g.night.oath_queue[0]))
            elif self.g.phase is Phase.VOTE:
                for v in list(self.g.ballot.voters):
                    self.do(CastVote(v, "Omar" if v != "Omar" else "Lena"))
            elif self.g.phase is Phase.TURRET and self.g.night.events and not self.g.night.picks:
                for t in self.g.night.traitors:
                    self.do(ChooseEvent(t, NightEvent.MURDER, "Lena"))
            elif self.g.phase in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) and self.g.night.pending:
                self.do(SkipPower(self.g.night.pending[0]))
            else:
                self.do(Advance(HOST))
        raise AssertionError(f"never reached {phase}; at {self.g.phase}")

    def told(self, name: str | None, since: int = 0) -> list[str]:
        """The texts ``name`` was told privately (``None``: the public announcements)."""
        out = []
        for e in self.fx[since:]:
            public = name is None and isinstance(e, Announce)
            if public or (name is not None and isinstance(e, (Whisper, Prompt)) and name in e.to):
                out.append(e.message.text)
        return out


def _play_to_the_toasts(s: Series) -> int:
    """Start the Toast on day 1's discussion, play to day 2's discussion; the mark of the day-2 discussion's effects."""
    s.advance_to(Phase.DISCUSSION)
    assert s.g.day == 1
    mark = len(s.fx)
    s.do(StartTwist(HOST, TOAST_KEY))  # prepared the night before: the soonest day is tomorrow
    assert s.told(HOST, mark) == ["The Toast is scheduled for day 2."]
    assert all(s.told(n, mark) == [] for n in NAMES) and s.told(None, mark) == []  # only the host is told
    s.advance_to(Phase.BREAKFAST)
    assert s.g.day == 2
    mark = len(s.fx)
    s.advance_to(Phase.DISCUSSION)
    return mark


def test_a_registered_twist_is_started_played_and_heard(toast: TwistSpec) -> None:
    s = Series()
    s.advance_to(Phase.DISCUSSION)
    assert s.g.twist_on(2, TOAST_KEY) is False
    mark = _play_to_the_toasts(s)
    assert s.g.twist_on(2, TOAST_KEY) and not s.g.twist_on(1, TOAST_KEY)
    for name in s.g.living():
        assert MESSAGES["toast.open"] in s.told(name, mark)
    assert MESSAGES["toast.open"] not in s.told(HOST, mark)
    assert RaiseToast("Alex", "Kai") in s.g.legal_actions("Alex")
    assert RaiseToast("Alex", "Alex") not in s.g.legal_actions("Alex")

    mark = len(s.fx)
    s.do(RaiseToast("Alex", "Kai"))
    s.do(RaiseToast("Sunny", "Zuri"))
    assert s.told(None, mark) == ["Alex raises a toast to Kai.", "Sunny raises a toast to Zuri."]
    assert not any(isinstance(a, RaiseToast) for a in s.g.legal_actions("Alex"))
    before = len(s.fx)
    for bad, reason in (
        (RaiseToast("Alex", "Zuri"), "illegal.toast.raised"),
        (RaiseToast("Kai", "Kai"), "illegal.toast.target"),
    ):
        with pytest.raises(IllegalAction) as err:
            s.g.handle(bad, now=s.now + 1)
        assert err.value.reason == reason
    assert len(s.fx) == before and twists.state_of(s.g, TOAST_KEY).raised == ["Alex", "Sunny"]

    mark = len(s.fx)
    s.advance_to(Phase.ROUND_TABLE)
    assert "2 toasts were raised." in s.told(None, mark)
    with pytest.raises(IllegalAction) as err:
        s.g.handle(RaiseToast("Kai", "Alex"), now=s.now + 1)
    assert err.value.reason == "illegal.toast.closed"


def test_a_game_with_a_registered_twist_replays_from_its_log(toast: TwistSpec) -> None:
    s = Series()
    _play_to_the_toasts(s)
    s.do(RaiseToast("Alex", "Kai"))
    s.advance_to(Phase.ROUND_TABLE)
    log = json.loads(json.dumps(list(s.g.log)))  # as the input log is stored
    toasts = [e for e in log if e["action"] == "raise_toast"]
    assert [(e["contestant"], e["target"]) for e in toasts] == [("Alex", "Kai")]
    assert ACTION_TYPES["raise_toast"] is RaiseToast
    again = Game.replay(s.g.settings, 5, log)
    assert again.phase is s.g.phase and again.day == s.g.day
    assert twists.state_of(again, TOAST_KEY).raised == ["Alex"]
    assert again.view_for("Alex") == s.g.view_for("Alex") and again.record == s.g.record


def test_a_registered_twists_input_is_sent_by_its_own_trigger(toast: TwistSpec) -> None:
    seats = {"Alex": 1, "Kai": 4, "Host_1": 11}
    objectives = [t.objective for t in triggers.table()]
    assert objectives.index("traitors.toast") == objectives.index("traitors.trial") + 1  # by its number, 7
    assert {t.objective: t.title for t in triggers.table()}["traitors.toast"] == "Toast"
    assert triggers.encode(RaiseToast("Alex", "Kai"), seats) == ("traitors.toast", 4)
    assert triggers.decode({"player": "Alex", "input": "toast", "value": 4}, seats) == RaiseToast("Alex", "Kai")
    with pytest.raises(InputError):
        triggers.decode({"player": "Alex", "input": "toast", "value": 9}, seats)  # nobody sits there
    assert triggers.encode(StartTwist("Host_1", TOAST_KEY), seats) == ("traitors.twist", 7)
    entry = {"player": "Host_1", "input": "twist", "value": 107}
    assert triggers.decode(entry, seats) == CancelTwist("Host_1", TOAST_KEY)
    assert twists.TITLES[TOAST_KEY] == "The Toast"


def test_a_registered_twists_input_has_a_scenario_form(toast: TwistSpec) -> None:
    played, problems = parse_inputs([{"action": "raise_toast", "contestant": "Alex", "target": "Kai", "at": 5}], [HOST])
    assert problems == [] and [(i.action, i.at) for i in played] == [(RaiseToast("Alex", "Kai"), 5)]
    played, problems = parse_inputs([{"action": "raise_toast", "contestant": "Alex"}], [HOST])
    assert played == [] and problems == ["input[0].target: field required"]
    played, problems = parse_inputs([{"action": "start_twist", "twist": "toast"}], [HOST])
    assert problems == [] and played[0].action == StartTwist(HOST, TOAST_KEY)


def test_without_the_plugin_its_trigger_form_and_kind_are_unknown() -> None:
    assert "traitors.toast" not in [t.objective for t in triggers.table()]
    with pytest.raises(InputError):
        triggers.decode({"player": "Alex", "input": "toast", "value": 1}, {"Alex": 1})
    assert "raise_toast" not in ACTION_TYPES and "toast.open" not in CATALOG
    _, problems = parse_inputs([{"action": "raise_toast", "contestant": "Alex", "target": "Kai"}], [HOST])
    assert problems and problems[0].startswith("input[0].action: unknown action 'raise_toast'")


def test_unregistering_leaves_the_builtin_registry(toast: TwistSpec) -> None:
    assert list(twists.TWISTS)[-1] is TOAST_KEY
    assert RaiseToast in rules.INPUTS
    with pytest.raises(ValueError):
        rules.register_twist(toast)


def test_the_builtin_registry_names_every_twist_once() -> None:
    assert set(twists.TWISTS) == set(Twist)
    assert all(spec.key is key for key, spec in twists.TWISTS.items())
    numbers = triggers.twist_numbers()
    assert set(numbers) == {t.value for t in Twist}
    assert len(set(numbers.values())) == len(numbers)


def test_a_registered_twist_names_its_dialog_title_and_labels(toast: TwistSpec) -> None:
    toast_kai = RaiseToast("Alex", "Kai")
    assert triggers.input_dialog_title(toast_kai) == "traitors.dialog.title.twist"
    assert choice_label(Choice(msg("toast.choice").text, toast_kai)).translate == "traitors.toast.choice"
    assert choice_label(Choice("Cheers", toast_kai)).translate is None  # not a fixed label: shown as is
