"""The template every twist module follows: one ``SPEC`` value (``TwistSpec``) that the twists' registry
(``engine.rulesets.traitors.twists.TWISTS``) reads, as the powers' ``POWER`` values are read by ``POWERS``.

A spec says what the twist is called, which inputs it takes (each input's class, the phases it can be legal in
and its ``validate``), which hooks of the phase modules it joins (by name, ``HOOKS``), its precondition, the
first day a twist started now can happen on, and the factory of its own per-series state. Twist modules hold no
module-level mutable state.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.ids import Twist
from engine.input_trigger import InputTrigger
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase

HOOKS: dict[str, str] = {
    "turret_events": "(game, events) -> events: tonight's night events, filtered (a quiet night, the Trial)",
    "confession_first": "(game) -> bool: the Traitors go to the Confession before the Turret (first True wins)",
    "enter_turret": "(game) -> None: the Traitors enter the Turret (or the Confession)",
    "prompt_confession": "(game) -> None: the Traitors at the Confession are asked for their response",
    "turret_work": "(game) -> bool: tonight's Turret has this twist's choices (every twist is asked)",
    "prompt_turret": "(game) -> None: the Turret's prompts, after its clock has started",
    "turret_done": "(game) -> bool: every Traitor has made this twist's choices tonight",
    "close_turret": "(game) -> None: the Turret's choices are settled",
    "leave_turret": "(game) -> None: the Traitors go home (items handed out in the Turret are taken back)",
    "traitors_home": "(game) -> None: the Traitors are home (before the host visits)",
    "before_host_visit": "(game) -> bool: a step of the twist comes before the host visits (first True wins)",
    "begin_night": "(game) -> None: the night begins",
    "end_night": "(game) -> None: the night ends",
    "breakfast": "(game) -> None: breakfast: the night's twist news",
    "begin_discussion": "(game) -> None: discussion begins (after its clock has started)",
    "end_discussion": "(game) -> None: discussion ends (items handed out for it are collected)",
    "before_round_table": "(game) -> bool: a step of the twist comes before the round table (first True wins)",
    "close_nomination": "(game) -> None: the Faithful's nomination closes (its clock ran out, or the host moved on)",
    "close_nominee": "(game) -> None: the nominee's step closes (its clock ran out, or the host moved on)",
    "traitor_actions": "(game) -> [(target, kind)]: tonight's Traitor actions (The Detective, The Spy see them)",
    "replaces_event": "(game) -> bool: tonight the twist replaces the night's event (first True wins)",
}
"""Hook name → its call shape and when the phase modules call it (the hub's functions of the same name).
Hooks are called in registry order (``engine.rulesets.traitors.twists.TWISTS``)."""

DAY_PHASES = frozenset(
    {Phase.DAY_ZERO, Phase.BREAKFAST, Phase.DISCUSSION, Phase.NOMINEE, Phase.ROUND_TABLE, Phase.VOTE}
)
"""The phases of a day (a twist started in one is too late for that day's preparation)."""


def night_before(game: Context) -> int:
    """The soonest day of a twist prepared on the night before (the Turret, or the host visit, of night day-1)."""
    d = game.day
    return d + 1 if game.phase in DAY_PHASES or game.phase is Phase.OATH else d + 2


def no_precondition(_game: Context, _day: int) -> str | None:
    """Always ``None``: only the shared preconditions (``base.shared_precondition``) apply."""
    return None


@dataclass(frozen=True, slots=True)
class TwistInput:
    """One contestant input a twist takes.

    Args:
        cls: the input's class (``engine.actions``).
        phases: the phases it can be legal in (its check refuses it in the others, with its own key).
        validate: ``(game, action) -> apply``; raises ``IllegalAction`` (a message key) when the rules forbid
            the input now, changing nothing; ``apply()`` applies it.
        dialog_title: the client translation key of the title of a dialog asking for this input (the bridge's
            ``traitors.dialog.title.*``); ``""``: the castle's title.
        labels: the catalogue keys a choice of this input may be labelled with (the bridge shows such a label
            translated); ``()``: its labels are names.
        trigger: the castle trigger that sends it (``engine.input_trigger``: the bridge's trigger table builds its
            row from it); ``None``: not sent by a trigger (the Sacred Sword's strike comes from an advancement).
    """

    cls: type[Action]
    phases: frozenset[Phase]
    validate: Callable[[Context, Any], Callable[[], None]]
    dialog_title: str = ""
    labels: tuple[str, ...] = ()
    trigger: InputTrigger | None = None


@dataclass(frozen=True, slots=True)
class TwistSpec:
    """One twist's rule as data plus its functions (rulebook §8).

    Args:
        key: the twist's key, declared by its module (``Twist.declare("trial", 6)``: its stable string and its
            number on the host's trigger); ``None`` for the bar (rulebook §10), which is always on.
        title: the twist's English name: its ``term.twist.<key>`` term (the registry adds it to the catalogue;
            other languages translate the term).
        inputs: the contestant inputs it takes.
        input_phases: the phases in which ``legal_actions`` can offer an input (only those are asked).
        legal_actions: ``(game, player) -> [Action]``: the inputs a living contestant may send now (free-text
            inputs are not listed); ``None`` when it lists none.
        hooks: hook name (``HOOKS``) → its function.
        precondition: ``(game, day) -> message key or None``: the twist's own precondition on ``day``.
        soonest: ``(game) -> day``: the first day a twist started now can still happen on.
        state: ``() -> object``: a new per-series state of the twist (``TwistState.own[key]``); ``None`` when
            it keeps none of its own.
        messages: catalogue key → English text of the twist's own messages (``engine.messages.CATALOG``: the
            registry adds them, and takes them back with the twist); other languages translate the keys in their
            language files.
    """

    key: Twist | None
    title: str
    inputs: tuple[TwistInput, ...] = ()
    input_phases: frozenset[Phase] = frozenset()
    legal_actions: Callable[[Context, str], list[Action]] | None = None
    hooks: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    precondition: Callable[[Context, int], str | None] = no_precondition
    soonest: Callable[[Context], int] = night_before
    state: Callable[[], object] | None = None
    messages: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.hooks) - set(HOOKS))
        if unknown:
            raise ValueError(f"unknown twist hook(s) {unknown} (known: {', '.join(HOOKS)})")


__all__ = ["DAY_PHASES", "HOOKS", "TwistInput", "TwistSpec", "night_before", "no_precondition"]
