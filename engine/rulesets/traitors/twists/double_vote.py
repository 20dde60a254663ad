"""The Double Vote (rulebook §8 "Double Vote" [rule: the Traitors choose who gets it]: the holder's paper counts
two at the next round table).

Rule, on day d: in the Turret of night d-1 each Traitor names a living contestant (``NominateDoubleVote``); the
most named holds the double vote paper at day d's round table (a tie: the seeded draw). The holder is told at
breakfast; the table learns it when the vote opens. The mechanics live in ``engine.rulesets.traitors.night`` (``open_turret``,
``close_turret``) and ``engine.rulesets.traitors.round_table`` (``begin_breakfast``, ``open_vote``); this module only states the rule and its precondition.

Precondition: none beyond the shared ones (``engine.rulesets.traitors.twists.precondition``).
"""

from __future__ import annotations

from engine.ids import Twist
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.twists.spec import TwistSpec

KEY = Twist.declare("double_vote", 1)
"""The Double Vote's key; 1 is its number on the host's ``traitors.twist`` trigger."""


def precondition(_game: Context, _day: int) -> str | None:
    """Always ``None``: a double vote can be given whenever there is a round table."""
    return None


def turret_work(game: Context) -> bool:
    """The Turret of night d-1 names the holder (``night.open_turret``): the twist has begun; no choices here."""
    assert game.night
    if game.night.nominate:
        game.twist_state.begun.add((game.day + 1, Twist.DOUBLE_VOTE))
    return False


SPEC = TwistSpec(
    KEY,
    "The Double Vote",
    hooks={"turret_work": turret_work},
    precondition=precondition,
)
"""The Double Vote's entry in the twists' registry."""
