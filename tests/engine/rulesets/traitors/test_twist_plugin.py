"""A twist is a plug-in: a ``TwistSpec`` registered with the twists' hub joins the series with no other change to
the engine (``engine/rulesets/traitors/twists/spec.py``, ``docs/rulesets.md``).

The toy twist here, the Toast, lives only in this file: on its day's discussion every living contestant may raise
a toast once (an input class of its own); everyone hears each toast, and when discussion ends the table hears
how many were raised. The host starts it live with ``StartTwist``. Its key, its messages and its trigger number
are added for the test and taken away after it, as a real twist's module, catalogue rows and ``TWIST_NUMBERS`` row
would be added for good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from bridge.minecraft import triggers
from bridge.minecraft.render import choice_label
from engine.actions import (
    Action,
    Advance,
    CancelTwist,
    CastVote,
    ChooseEvent,
    SkipPower,
    StartSeries,
    StartTwist,
    SwearOath,
)
from engine.actions import _ByContestant as ContestantInput
from engine.effects import Announce, Choice, Prompt, Whisper, msg
from engine.errors import IllegalAction
from engine.ids import Allegiance, NightEvent, Twist
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
class RaiseToast(ContestantInput):
    """A contestant raises a toast (the Toast twist's one input)."""

    kind: ClassVar[str] = "raise_toast"


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

    def apply() -> None:
        _toast(game).raised.append(action.actor)
        game.announce("toast.raised", player=action.actor)

    return apply


def legal_actions(game: Context, player: str) -> list[Action]:
    return [RaiseToast(player)] if _today(game) and player not in _toast(game).raised else []


def begin_discussion(game: Context) -> None:
    if game.twist_on(game.day, TOAST_KEY):
        game.whisper(game.living(), "toast.open")


def end_discussion(game: Context) -> None:
    if game.twist_on(game.day, TOAST_KEY):
        game.announce("toast.count", count=len(_toast(game).raised))


MESSAGES = {
    "toast.open": "The Toast: raise a toast once before the round table.",
    "toast.choice": "Raise a toast",
    "toast.raised": "{player} raises a toast.",
    "toast.count": "{count} toasts were raised.",
    "illegal.toast.closed": "No toast can be raised now.",
    "illegal.toast.raised": "You have already raised your toast.",
}

TOAST_KEY: Twist = Twist.DOUBLE_VOTE  # replaced by the fixture's new member before any use


def _spec() -> TwistSpec:
    return TwistSpec(
        TOAST_KEY,
        "The Toast",
        number=7,
        inputs=(
            TwistInput(
                RaiseToast, frozenset({Phase.DISCUSSION}), validate, "traitors.dialog.title.twist", ("toast.choice",)
            ),
        ),
        input_phases=frozenset({Phase.DISCUSSION}),
        legal_actions=legal_actions,
        hooks={"begin_discussion": begin_discussion, "end_discussion": end_discussion},
        state=ToastState,
    )


def _add_twist_member(name: str, value: str) -> Twist:
    """A new ``Twist`` member for this test only (a real twist appends it to ``engine.ids.Twist``)."""
    member = object.__new__(Twist)
    member._name_, member._value_ = name, value
    Twist._member_map_[name] = member
    Twist._value2member_map_[value] = member
    Twist._member_names_.append(name)
    type.__setattr__(Twist, name, member)
    return member


def _remove_twist_member(member: Twist) -> None:
    del Twist._member_map_[member.name]
    del Twist._value2member_map_[member.value]
    Twist._member_names_.remove(member.name)
    type.__delattr__(Twist, member.name)


@pytest.fixture
def toast(monkeypatch: pytest.MonkeyPatch) -> Iterator[TwistSpec]:
    """The Toast, registered (key, spec, inputs, messages, trigger number) for one test."""
    member = _add_twist_member("TOAST", "toast")
    monkeypatch.setattr(f"{__name__}.TOAST_KEY", member)
    for key, text in MESSAGES.items():
        monkeypatch.setitem(CATALOG, key, text)
    spec = _spec()
    rules.register_twist(spec)
    try:
        yield spec
    finally:
        rules.unregister_twist(spec)
        _remove_twist_member(member)


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


def test_a_registered_twist_is_started_played_and_heard(toast: TwistSpec) -> None:
    s = Series()
    s.advance_to(Phase.DISCUSSION)
    assert s.g.day == 1
    mark = len(s.fx)
    s.do(StartTwist(HOST, TOAST_KEY))  # prepared the night before: the soonest day is tomorrow
    assert any("The Toast" in t and "2" in t for t in s.told(HOST, mark))
    assert s.g.twist_on(2, TOAST_KEY) and not s.g.twist_on(1, TOAST_KEY)
    assert not any(isinstance(a, RaiseToast) for a in s.g.legal_actions("Alex"))

    s.advance_to(Phase.BREAKFAST)
    assert s.g.day == 2
    mark = len(s.fx)
    s.advance_to(Phase.DISCUSSION)
    living = s.g.living()
    for name in living:
        assert MESSAGES["toast.open"] in s.told(name, mark)
    assert RaiseToast("Alex") in s.g.legal_actions("Alex")

    mark = len(s.fx)
    s.do(RaiseToast("Alex"))
    s.do(RaiseToast("Sunny"))
    assert s.told(None, mark) == ["Alex raises a toast.", "Sunny raises a toast."]
    assert RaiseToast("Alex") not in s.g.legal_actions("Alex")
    with pytest.raises(IllegalAction) as err:
        s.g.handle(RaiseToast("Alex"), now=s.now + 1)
    assert err.value.reason == "illegal.toast.raised"

    mark = len(s.fx)
    s.advance_to(Phase.ROUND_TABLE)
    assert "2 toasts were raised." in s.told(None, mark)
    with pytest.raises(IllegalAction) as err:
        s.g.handle(RaiseToast("Kai"), now=s.now + 1)
    assert err.value.reason == "illegal.toast.closed"


def test_a_registered_twist_has_a_trigger_number_by_its_key(toast: TwistSpec) -> None:
    seats = {"Host_1": 1}
    assert triggers.encode(StartTwist("Host_1", TOAST_KEY), seats) == ("traitors.twist", 7)
    entry = {"player": "Host_1", "input": "twist", "value": 107}
    assert triggers.decode(entry, seats) == CancelTwist("Host_1", TOAST_KEY)
    assert twists.TITLES[TOAST_KEY] == "The Toast"


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
    assert triggers.input_dialog_title(RaiseToast("Alex")) == "traitors.dialog.title.twist"
    label = choice_label(Choice(msg("toast.choice").text, RaiseToast("Alex")))
    assert label.translate == "traitors.toast.choice"
    assert choice_label(Choice("Cheers", RaiseToast("Alex"))).translate is None  # not a fixed label: shown as is
