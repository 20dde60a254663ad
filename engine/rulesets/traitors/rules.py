"""The Traitors' rules as tables: what ends each phase, and for every input what it may do.

``ON_CLOCK`` maps each phase to the function that runs when its clock runs out or the host moves on
(``engine.rulesets.traitors.phases``, house rule 1). ``INPUTS`` maps each input type of ``engine.actions`` to its
``InputRule``: who sends it, the phases it can be legal in, its check and its application.
``Game._validate`` and ``Game.legal_actions`` both read ``INPUTS``: the check raises (``IllegalAction`` with the
message key saying why, including "not now"), the application changes the series, and the lister gives a
contestant's concrete inputs in the phases named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    AskHappy,
    CancelTwist,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    ContestantLeft,
    ContestantReturned,
    NominateDoubleVote,
    SkipPower,
    StartTwist,
    SwearOath,
    UsePower,
)
from engine.core.host import HOST_CONTROLS
from engine.rulesets.traitors import finale, host, night, presence, round_table, twists, visit
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec

ON_CLOCK: dict[Phase, Callable[[Table], None]] = {
    Phase.DAY_ZERO: night.begin_night,
    Phase.BREAKFAST: round_table.begin_discussion,
    Phase.DISCUSSION: round_table.begin_round_table,
    Phase.ROUND_TABLE: round_table.open_first_vote,
    Phase.VOTE: round_table.close_vote,
    Phase.OATH: night.finish_oath,
    Phase.TURRET: night.turret_clock,
    Phase.OFFER: night.offer_clock,
    Phase.TRAITOR_POWERS: visit.close_traitor_powers,
    Phase.HOST_VISIT: visit.close_host_visit,
    Phase.TORCHES: finale.torches_clock,
    Phase.NOMINATION: twists.close_nomination,
    Phase.NOMINEE: twists.close_nominee,
}
"""What the end of each phase's clock (or the host's ``Advance``) does."""


def on_clock(game: Table) -> None:
    """The current phase's clock ran out, or the host moved on (``ON_CLOCK``)."""
    assert game.phase is not None
    ON_CLOCK[game.phase](game)


def advance(game: Table, action: Advance) -> None:
    """The host moves on: the phase ends as if its clock ran out; the record keeps who pressed which button."""
    game._host_logged(action.host, "advance", action.button or "")
    on_clock(game)


Lister = Callable[[Table, str], Sequence[Action]]
"""``(game, contestant) -> the inputs of one type the living contestant may send now``."""

CONTESTANT, HOST, SERVER = "contestant", "host", "server"
"""Who sends an input: a living contestant (checked first: known, then still in the series), a host or the
server (each check says who may)."""

EVERY_PHASE = frozenset(Phase) - {Phase.OVER}


@dataclass(frozen=True, slots=True)
class InputRule:
    """One input type's rules.

    Args:
        by: ``CONTESTANT``, ``HOST`` or ``SERVER``.
        phases: the phases it can be legal in (the check says so with its own message key).
        check: ``(game, action) -> None``; raises ``IllegalAction`` / ``InvalidCommand``, changes nothing.
        apply: ``(game, action) -> None``; applies an input ``check`` accepted. ``None`` for the shared host
            controls (``engine.core.host``), whose check returns the function that applies it.
        lister: the inputs of this type a living contestant may send now (asked only in ``phases``); ``None``
            when listed with another type (a pass with its power's uses) or by its twist (``twists.legal_actions``).
    """

    by: str
    phases: frozenset[Phase]
    check: Callable[[Any, Any], Callable[[], None] | None]
    apply: Callable[[Any, Any], None] | None = None
    lister: Lister | None = None


def _phases(*phases: Phase) -> frozenset[Phase]:
    return frozenset(phases)


def _twist_rule(i: TwistInput) -> InputRule:
    """A twist input's row: a contestant's, in its phases, checked and applied by the twists' hub (listed by its
    twist: ``twists.legal_actions``)."""
    return InputRule(CONTESTANT, i.phases, twists.check, twists.apply)


INPUTS: dict[type[Action], InputRule] = {
    Advance: InputRule(HOST, EVERY_PHASE, host.check_host, advance),
    AskHappy: InputRule(HOST, _phases(Phase.TORCHES), finale.check_ask, finale.apply_ask),
    StartTwist: InputRule(HOST, EVERY_PHASE, twists.check_host, twists.apply_host),
    CancelTwist: InputRule(HOST, EVERY_PHASE, twists.check_host, twists.apply_host),
    ContestantLeft: InputRule(SERVER, EVERY_PHASE, presence.check_left, presence.apply_left),
    ContestantReturned: InputRule(SERVER, EVERY_PHASE, presence.check_returned, presence.apply_returned),
    CastVote: InputRule(CONTESTANT, _phases(Phase.VOTE), round_table.check_vote, round_table.apply_vote, round_table.list_vote),
    SwearOath: InputRule(CONTESTANT, _phases(Phase.OATH), night.check_oath, night.apply_oath, night.list_oath),
    ChooseEvent: InputRule(CONTESTANT, _phases(Phase.TURRET), night.check_event, night.apply_event_pick, night.list_events),
    NominateDoubleVote: InputRule(
        CONTESTANT, _phases(Phase.TURRET), night.check_nomination, night.apply_nomination, night.list_nominations
    ),
    AnswerOffer: InputRule(CONTESTANT, _phases(Phase.OFFER), night.check_offer, night.apply_offer, night.list_offer),
    AnswerJoker: InputRule(
        CONTESTANT, _phases(Phase.HOST_VISIT), visit.check_joker, visit.apply_joker_answer, visit.list_joker
    ),
    UsePower: InputRule(
        CONTESTANT, _phases(Phase.TRAITOR_POWERS, Phase.HOST_VISIT), visit.check_use, visit.apply_use, visit.list_uses
    ),
    SkipPower: InputRule(CONTESTANT, _phases(Phase.TRAITOR_POWERS, Phase.HOST_VISIT), visit.check_skip, visit.apply_skip),
    ChooseTorch: InputRule(CONTESTANT, _phases(Phase.TORCHES), finale.check_torch, finale.apply_torch, finale.list_torches),
    **{cls: _twist_rule(i) for cls, i in twists.INPUTS.items()},
}
"""Every input the Traitors take, with its rules, but the host controls (``HOST_CONTROL``; an input of another
ruleset is refused: ``invalid.action.kind``)."""

HOST_CONTROL = InputRule(HOST, EVERY_PHASE, host.check_control)
"""The rule of every host control (``engine.core.host.HOST_CONTROLS``, one registered later included): a host's,
in any phase, checked and applied by its spec."""


def rule_of(cls: type[Action]) -> InputRule | None:
    """The rule of an input type: its ``INPUTS`` row, ``HOST_CONTROL`` for a host control, else ``None``."""
    rule = INPUTS.get(cls)
    return HOST_CONTROL if rule is None and cls in HOST_CONTROLS else rule

LISTERS: dict[Phase, tuple[Lister, ...]] = {
    phase: tuple(r.lister for r in INPUTS.values() if r.lister is not None and phase in r.phases) for phase in Phase
}
"""Phase → the listers of the inputs that can be legal in it, in ``INPUTS`` order (made once: ``legal_actions``
runs for every bot decision)."""


def register_twist(spec: TwistSpec) -> None:
    """Add a twist to the registry (``twists.register``) and its inputs to ``INPUTS``.

    Raises:
        ValueError: the twist or one of its inputs is already registered.
    """
    twists.register(spec)
    for i in spec.inputs:
        INPUTS[i.cls] = _twist_rule(i)


def unregister_twist(spec: TwistSpec) -> None:
    """Take out a twist ``register_twist`` added, with its inputs."""
    assert spec.key is not None
    twists.unregister(spec.key)
    for i in spec.inputs:
        INPUTS.pop(i.cls, None)


__all__ = [
    "CONTESTANT",
    "HOST",
    "HOST_CONTROL",
    "INPUTS",
    "LISTERS",
    "ON_CLOCK",
    "SERVER",
    "InputRule",
    "on_clock",
    "register_twist",
    "rule_of",
    "unregister_twist",
]
