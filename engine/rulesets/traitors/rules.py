"""The Traitors' rules as tables: the phase graph, and for every input what it may do.

``PHASES`` is the phase graph (``engine.core.phasegraph``): each phase with the step that runs when its clock runs
out or the host moves on (``engine.rulesets.traitors.phases``, house rule 1), and each stage between phases
(``Stage``) with its step. A step returns the node that follows at once, or ``None`` when the series waits for a
clock or an input. ``INPUTS`` maps each input type of ``engine.actions`` to its ``InputRule``
(``engine.core.inputs``): who sends it, the phases it can be legal in, its check, its application and its lister.
``Game._validate`` and ``Game.legal_actions`` both read ``INPUTS``: the check raises (``IllegalAction`` with the
message key saying why, including "not now"), the application changes the series and returns the node that
follows (the driver runs it), and the lister gives a contestant's concrete inputs in the phases named.
"""

from __future__ import annotations

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
from engine.core.inputs import CONTESTANT, HOST, SERVER, InputRule, Lister
from engine.core.phasegraph import PhaseGraph
from engine.rulesets.traitors import finale, host, night, presence, round_table, twists, visit
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.phases import Node, Phase, Stage
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec

PHASES: PhaseGraph[Table, Node] = PhaseGraph(
    {
        # A phase: what the end of its clock (or the host's Advance) does.
        Phase.DAY_ZERO: night.begin_night,
        Phase.OATH: night.finish_oath,
        Phase.TURRET: night.turret_clock,
        Phase.TRAITOR_POWERS: visit.close_traitor_powers,
        Phase.OFFER: night.offer_clock,
        Phase.NOMINATION: twists.close_nomination,
        Phase.HOST_VISIT: visit.close_host_visit,
        Phase.BREAKFAST: round_table.begin_discussion,
        Phase.DISCUSSION: round_table.begin_round_table,
        Phase.NOMINEE: twists.close_nominee,
        Phase.ROUND_TABLE: round_table.open_first_vote,
        Phase.VOTE: round_table.close_vote,
        Phase.TORCHES: finale.torches_clock,
        # A stage between phases: the step another phase module's step (or a twist) leads to.
        Stage.NIGHT: night.night_after_day,
        Stage.TURRET_ANSWERED: night.turret_maybe_done,
        Stage.END_CONFESSION: night.end_confession,
        Stage.AFTER_TURRET: visit.after_turret,
        Stage.OFFER: night.open_offer,
        Stage.NO_OFFER: night.open_no_offer,
        Stage.HOST_VISIT: visit.open_host_visit,
        Stage.END_NIGHT: night.end_night,
        Stage.BREAKFAST: round_table.begin_breakfast,
        Stage.ROUND_TABLE: round_table.begin_round_table,
        Stage.TORCHES: finale.open_torches,
    }
)
"""The Traitors' phase graph: every phase and stage with its step (``docs/design.md`` "The phase graph")."""


def advance(game: Table, action: Advance) -> Node | None:
    """The host moves on: the phase ends as if its clock ran out (its row of ``PHASES``); the record keeps who
    pressed which button."""
    game.log_host_action(action.host, "advance", action.button or "")
    return game.phase


EVERY_PHASE = frozenset(Phase) - {Phase.OVER}


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
    CastVote: InputRule(
        CONTESTANT, _phases(Phase.VOTE), round_table.check_vote, round_table.apply_vote, round_table.list_vote
    ),
    SwearOath: InputRule(CONTESTANT, _phases(Phase.OATH), night.check_oath, night.apply_oath, night.list_oath),
    ChooseEvent: InputRule(
        CONTESTANT, _phases(Phase.TURRET), night.check_event, night.apply_event_pick, night.list_events
    ),
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
    SkipPower: InputRule(
        CONTESTANT, _phases(Phase.TRAITOR_POWERS, Phase.HOST_VISIT), visit.check_skip, visit.apply_skip
    ),
    ChooseTorch: InputRule(
        CONTESTANT, _phases(Phase.TORCHES), finale.check_torch, finale.apply_torch, finale.list_torches
    ),
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
    "PHASES",
    "SERVER",
    "InputRule",
    "Lister",
    "advance",
    "register_twist",
    "rule_of",
    "unregister_twist",
]
