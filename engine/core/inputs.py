"""One input type's rules, the row shape both rule packages' ``INPUTS`` tables share (python-chess: "is it legal?"
separate from "apply it"; composed from functions, never from subclasses).

A ruleset's ``INPUTS`` maps each input type of ``engine.actions`` to an ``InputRule``. Its game's ``_validate``
reads the row: a contestant's input is checked for a known, living actor first; then, when the row names the
refusal ``closed``, for its phase; then the row's ``check`` runs. The game's ``legal_actions`` asks the
``lister`` of each row open in the current phase.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action

CONTESTANT, HOST, SERVER = "contestant", "host", "server"
"""Who sends an input: a living contestant (checked first: known, then still in the series), a host or the
server (each check says who may)."""

Lister = Callable[[Any, str], Sequence[Action]]
"""``(game, contestant) -> the inputs of one type the living contestant may send now``."""


@dataclass(frozen=True, slots=True)
class InputRule:
    """One input type's rules.

    Args:
        by: ``CONTESTANT``, ``HOST`` or ``SERVER``.
        phases: the phases it can be legal in (a set of the ruleset's phase values).
        check: ``(game, action) -> None | apply``; raises ``IllegalAction`` / ``InvalidCommand`` and changes
            nothing when the rules refuse the input. With ``apply`` unset it returns the function that applies
            the input (a check that works out what to apply, such as a host control's).
        apply: ``(game, action) -> node | None``; applies an input ``check`` accepted and returns the node of
            the phase graph that follows (``engine.core.phasegraph``), ``None`` when the series waits.
        lister: the inputs of this type a living contestant may send now (asked only in ``phases``); ``None``
            when it is listed with another type (a pass with its power's uses) or elsewhere.
        closed: the refusal's message key when a contestant sends it outside ``phases`` (the game refuses it
            before the check); ``None``: the check says when it is not open, with its own message keys.
    """

    by: str
    phases: frozenset[Any]
    check: Callable[[Any, Any], Callable[[], Any] | None]
    apply: Callable[[Any, Any], Any] | None = None
    lister: Lister | None = None
    closed: str | None = None


__all__ = ["CONTESTANT", "HOST", "SERVER", "InputRule", "Lister"]
