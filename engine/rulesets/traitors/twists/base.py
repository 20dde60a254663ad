"""What every twist shares (rulebook §8 [house]): the preconditions common to all twists, a twist lapsing at
its first step, and the check of a free text (a confession, the Traitors' response).

Twists see the series only through ``engine.rulesets.traitors.context.Context``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.errors import IllegalAction
from engine.ids import Twist
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.settings import CONFLICTS
from engine.terms import twist_term

TEXT_LIMIT = 400
"""Most characters in a confession or the Traitors' response ([house]; also at most twice as many UTF-8 bytes, so
the response book always fits one RCON command)."""


def shared_precondition(game: Context, twist: Twist, day: int) -> str | None:
    """The message key of the first shared precondition ``twist`` on ``day`` fails, or ``None``: a day after day
    zero, before the finale, and no conflicting twist the same day (``engine.rulesets.traitors.settings.CONFLICTS``).
    """
    if day < 1:
        return "illegal.twist.day"
    if len(game.living()) <= game.settings.finalists:
        return "illegal.twist.finale"
    for a, b, _ in CONFLICTS:
        other = b if twist.value == a else a if twist.value == b else None
        if other is not None and game.twist_state.is_on(day, Twist(other)):
            return "illegal.twist.conflict"
    return None


def lapses(game: Context, twist: Twist, day: int, own: Callable[[Context, int], str | None] | None = None) -> bool:
    """At a twist's first step: mark it begun; when a precondition fails (the shared ones, then ``own``, the
    twist's own ``precondition``), tell the hosts and return True."""
    st = game.twist_state
    st.begun.add((day, twist))
    reason = shared_precondition(game, twist, day)
    if reason is None and own is not None:
        reason = own(game, day)
    if reason is None:
        return False
    game.whisper(game.hosts, "twist.lapsed", twist=twist_term(twist), day=day)
    game.whisper(game.hosts, reason, twist=twist_term(twist), day=day, other="", count=game.settings.trial_contestants)
    st.schedule.get(day, set()).discard(twist)
    return True


def check_text(text: str) -> str:
    """A confession or response text, stripped; refuses an empty or over-long one.

    Raises:
        IllegalAction: empty (``illegal.text.empty``), too long (``illegal.text.long``) or holding a control
            character or the section sign (``illegal.text.chars``).
    """
    t = text.strip()
    if not t:
        raise IllegalAction("illegal.text.empty")
    if len(t) > TEXT_LIMIT or len(t.encode("utf-8")) > 2 * TEXT_LIMIT:
        raise IllegalAction("illegal.text.long", limit=str(TEXT_LIMIT))
    if any((ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or c == "\u00a7" for c in t):
        # Vanilla books never hold these (chat's allowed characters); refusing them keeps every text printable
        # and the Response book within one RCON command (bench/twists.py).
        raise IllegalAction("illegal.text.chars")
    return t


__all__ = ["TEXT_LIMIT", "check_text", "lapses", "shared_precondition"]
