"""``engine.ids.Twist``: a twist's key, declared by its own module, read like an enum member."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.ids import Twist
from engine.rulesets.traitors import twists


def test_every_registered_twist_has_a_declared_key_read_like_an_enum_member() -> None:
    assert [t.value for t in Twist] == ["double_vote", "murder", "confession", "guess", "seer", "trial"]
    assert [t.number for t in Twist] == [1, 2, 3, 4, 5, 6]  # the host's twist buttons: never renumbered
    assert set(Twist) == set(twists.TWISTS) and len(Twist) == len(twists.TWISTS)
    assert Twist("murder") is Twist.MURDER and Twist.MURDER.name == "MURDER"
    assert repr(Twist.TRIAL) == "<Twist.TRIAL: 'trial'>" and str(Twist.TRIAL) == "Twist.TRIAL"


def test_a_key_stays_one_object_when_copied_or_pickled() -> None:
    assert copy.deepcopy({Twist.SEER: [Twist.SEER]}) == {Twist.SEER: [Twist.SEER]}
    assert copy.copy(Twist.SEER) is Twist.SEER
    assert pickle.loads(pickle.dumps(Twist.SEER)) is Twist.SEER


def test_an_unknown_key_or_name_is_refused() -> None:
    for bad in ("toast", "", None, 3):
        with pytest.raises(ValueError):
            Twist(bad)
    with pytest.raises(AttributeError):
        _ = Twist.TOAST


def test_a_key_is_declared_once_with_a_number_no_other_twist_has() -> None:
    assert Twist.declare("trial", 6) is Twist.TRIAL  # the same declaration again: the same key
    for value, number in (("trial", 7), ("toast", 6), ("Toast", 9), ("to ast", 9)):
        with pytest.raises(ValueError):
            Twist.declare(value, number)
    toast = Twist.declare("toast", 9)
    try:
        assert Twist("toast") is toast is Twist.TOAST and list(Twist)[-1] is toast
    finally:
        Twist.withdraw(toast)
    with pytest.raises(ValueError):
        Twist("toast")
    assert "toast" not in {t.value for t in Twist}
