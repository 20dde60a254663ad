"""The twists of rulebook §8 (one module per twist) and the bar's drinks (§10), called from marked hooks in
``engine.rulesets.traitors.game`` ("TWIST HOOK" comments).

Which day a twist belongs to (``Settings.twists``: day → twists; the host adds or removes them live with
``StartTwist`` / ``CancelTwist``):

==============  ===========================================================================================
twist on day d  what happens when
==============  ===========================================================================================
double_vote     night d-1: the Traitors name the holder; day d: the holder's paper counts two (``game.py``)
murder          night d-1: the Traitors name a Traitor; day d discussion: the Sacred Sword; night d: no event
confession      day d discussion: chests and confessions; night d: shields protect, the Traitors read and reply;
                breakfast d+1: the Traitors' Response book for everyone
guess           night d-1: the Traitors' guess (Turret) and the Faithful's nomination (host visit); day d: the
                nominee's guess before the round table
seer            night d-1: the Faithful's nomination (host visit); day d: the nominee's seer book before the
                round table
trial           night d: instead of the event, the Traitors put ``trial_contestants`` contestants on trial
==============  ===========================================================================================

Preconditions (``precondition``) are checked when the host starts a twist (refused, privately to the host,
naming the reason) and again when the twist's first step comes; a twist whose precondition no longer holds then
lapses and the hosts are told. Conflicting twists (``engine.rulesets.traitors.settings.CONFLICTS``) never share a day.
State lives in ``TwistState`` on the game (``Game.twist_state``); the modules hold no mutable state.

Each module exposes one ``SPEC`` (``engine.rulesets.traitors.twists.spec.TwistSpec``); ``TWISTS`` is the registry
the hooks below iterate, in its order (``register`` adds a twist). A spec names the hooks it joins; the phase
modules call the hub's function of the same name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.actions import ACTION_TYPES, Action, CancelTwist, StartTwist, register_action, unregister_action
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import NightEvent, Twist
from engine.messages import CATALOG
from engine.messages_terms import TERMS
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.state import TwistState
from engine.rulesets.traitors.twists import bar, confession, double_vote, guess, murder, seer, trial
from engine.rulesets.traitors.twists.base import TEXT_LIMIT, check_text, lapses, shared_precondition
from engine.rulesets.traitors.twists.spec import DAY_PHASES, TwistInput, TwistSpec
from engine.terms import twist_term

SPECS: list[TwistSpec] = [double_vote.SPEC, murder.SPEC, guess.SPEC, seer.SPEC, trial.SPEC, confession.SPEC, bar.SPEC]
"""Every twist's spec (and the bar's), in the order the hooks call them and ``legal_actions`` lists their
inputs: the Murder twist's Turret choices come before the Guess twist's and the Trial's, the Trial's breakfast
news before the Traitors' response, the sword before the chests, the bar last."""

TWISTS: dict[Twist, TwistSpec] = {}
"""Twist → its spec (the registry; a test checks every ``engine.ids.Twist`` is in it)."""
TITLES: dict[Twist, str] = {}
"""How a twist is named in English (messages name it by its term, ``engine.terms.twist_term``)."""
INPUTS: dict[type[Action], TwistInput] = {}
"""Every twist input class → its ``TwistInput`` (``engine.rulesets.traitors.rules.INPUTS`` reads it)."""
LISTED_IN: dict[Phase, tuple[TwistSpec, ...]] = {}
"""Phase → the specs that can offer an input in it (each spec's ``input_phases``)."""
_HOOKS: dict[str, tuple[Callable[..., Any], ...]] = {}
REVISION = 0
"""How many times the registry was built: a reader that caches what it derives from the registry (the bridge's
trigger table) rebuilds it when this changes."""


def _term(key: Twist) -> str:
    """A twist's term key (its name inside a sentence): ``term.twist.<key>``."""
    return f"term.twist.{key.value}"


def _index() -> None:
    """Rebuild the tables above from ``SPECS``."""
    global REVISION
    REVISION += 1
    TWISTS.clear()
    TITLES.clear()
    INPUTS.clear()
    for spec in SPECS:
        if spec.key is not None:
            TWISTS[spec.key] = spec
            TITLES[spec.key] = spec.title
            TERMS[_term(spec.key)] = CATALOG[_term(spec.key)] = spec.title
        CATALOG.update(spec.messages)
        for i in spec.inputs:
            INPUTS[i.cls] = i
            register_action(i.cls)
    LISTED_IN.clear()
    LISTED_IN.update({phase: tuple(s for s in SPECS if s.legal_actions and phase in s.input_phases) for phase in Phase})
    _HOOKS.clear()
    for spec in SPECS:
        for name, fn in spec.hooks.items():
            _HOOKS[name] = (*_HOOKS.get(name, ()), fn)


_index()


def register(spec: TwistSpec) -> None:
    """Add a twist to the registry, after the others (its hooks run last); its title becomes its
    ``term.twist.<key>`` term (in ``TERMS`` and the message catalogue), as every registered twist's does.

    Its input classes become known by their kinds (``engine.actions.register_action``), so a game log or a
    scenario naming them replays.

    Raises:
        ValueError: the twist, one of its input classes (or an input's kind) or one of its message keys is already
            registered.
    """
    if spec.key is not None and spec.key in TWISTS:
        raise ValueError(f"twist {spec.key.value!r} is already registered")
    taken = [i.cls.__name__ for i in spec.inputs if i.cls in INPUTS or i.cls.kind in ACTION_TYPES]
    taken += [key for key in spec.messages if key in CATALOG]
    if taken:
        raise ValueError(f"twist inputs or messages already registered: {', '.join(taken)}")
    SPECS.append(spec)
    _index()


def unregister(key: Twist) -> None:
    """Take a twist added by ``register`` out of the registry, with its term, its messages and its inputs' kinds
    (``engine.actions.ACTION_TYPES``)."""
    for spec in SPECS:
        if spec.key is key:
            for i in spec.inputs:
                unregister_action(i.cls)
            for message in spec.messages:
                CATALOG.pop(message, None)
    SPECS[:] = [s for s in SPECS if s.key is not key]
    TERMS.pop(_term(key), None)
    CATALOG.pop(_term(key), None)
    _index()


def _hooks(name: str) -> tuple[Callable[..., Any], ...]:
    return _HOOKS.get(name, ())


def state_of(game: Context, twist: Twist) -> Any:
    """The twist's own per-series state (``TwistState.own``), made by its spec's ``state`` on first use.

    Raises:
        KeyError: the twist keeps no state of its own.
    """
    own = game.twist_state.own
    if twist not in own:
        factory = TWISTS[twist].state
        if factory is None:
            raise KeyError(twist)
        own[twist] = factory()
    return own[twist]


def is_on(game: Context, day: int, twist: Twist) -> bool:
    """Whether ``twist`` is scheduled for ``day`` (settings plus the host's live changes)."""
    return game.twist_state.is_on(day, twist)


# ---------------------------------------------------------------------------------------------- preconditions


def precondition(game: Context, twist: Twist, day: int) -> str | None:
    """The message key of the first precondition ``twist`` on ``day`` fails, or ``None`` (rulebook §8 [house]).

    Checks the conflicts and the shared rules (``base.shared_precondition``), then the twist's own (its spec's
    ``precondition``).
    """
    return shared_precondition(game, twist, day) or TWISTS[twist].precondition(game, day)


def soonest_day(game: Context, twist: Twist) -> int:
    """The first day a twist started now can still happen on (its spec's ``soonest``; see the module table)."""
    return TWISTS[twist].soonest(game)


# ---------------------------------------------------------------------------------------------- host inputs


def validate_host(game: Context, action: StartTwist | CancelTwist) -> Callable[[], None]:
    """Check a host's ``StartTwist`` / ``CancelTwist``; return the function that applies it.

    Raises:
        IllegalAction: not a host (``illegal.not_host``); a failed precondition (the key names it); already
            scheduled; nothing to cancel.
    """
    if action.host not in game.hosts:
        raise IllegalAction("illegal.not_host")
    st, twist = game.twist_state, action.twist
    params = {"twist": twist_term(twist)}
    if isinstance(action, StartTwist):
        day = soonest_day(game, twist)
        if is_on(game, day, twist):
            raise IllegalAction("illegal.twist.scheduled", day=str(day), **params)
        reason = precondition(game, twist, day)
        if reason is not None:
            raise IllegalAction(reason, day=str(day), other="", count=str(game.settings.trial_contestants), **params)

        def start() -> None:
            st.schedule.setdefault(day, set()).add(twist)
            game.log_host_action(action.host, "start_twist", f"{twist.value}, day {day}")
            game.whisper(game.hosts, "twist.started", twist=twist_term(twist), day=day)

        return start
    days = sorted(d for d, ts in st.schedule.items() if twist in ts and (d, twist) not in st.begun and d >= game.day)
    if not days:
        raise IllegalAction("illegal.twist.none", **params)
    day = days[0]

    def cancel() -> None:
        st.schedule[day].discard(twist)
        game.log_host_action(action.host, "cancel_twist", f"{twist.value}, day {day}")
        game.whisper(game.hosts, "twist.cancelled", twist=twist_term(twist), day=day)

    return cancel


# ---------------------------------------------------------------------------------------------- contestant inputs


def validate(game: Context, action: Action) -> Callable[[], None]:
    """Check a twist input of a living contestant; return the function that applies it (its spec's
    ``TwistInput.validate``).

    Raises:
        IllegalAction: the rules forbid it now (the key says why); nothing changes.
        InvalidCommand: an input no twist takes.
    """
    rule = INPUTS.get(type(action))
    if rule is None:
        raise InvalidCommand("invalid.action.kind", kind=action.kind)
    return rule.validate(game, action)


def legal_actions(game: Context, player: str) -> list[Action]:
    """Every twist input ``player`` (a living contestant) may send now; free-text inputs are not listed.

    Only the twists that take inputs in the current phase are asked (``LISTED_IN``): this runs for every
    ``Game.legal_actions``.
    """
    out: list[Action] = []
    for spec in LISTED_IN.get(game.phase, ()):  # type: ignore[arg-type]
        assert spec.legal_actions is not None
        out += spec.legal_actions(game, player)
    return out


# ---------------------------------------------------------------------------------------------- hooks


def _call(name: str, game: Context) -> None:
    for fn in _hooks(name):
        fn(game)


def _first(name: str, game: Context) -> bool:
    """True at the first hook that returns True (the later ones are not called)."""
    return any(fn(game) for fn in _hooks(name))


def _every(name: str, game: Context) -> Iterator[bool]:
    return (fn(game) for fn in _hooks(name))


def turret_events(game: Context, events: frozenset[NightEvent]) -> frozenset[NightEvent]:
    """TWIST HOOK (``night.open_turret``): tonight's events after the Murder twist's quiet night and the Trial."""
    for fn in _hooks("turret_events"):
        events = fn(game, events)
    return events


def replaces_event(game: Context) -> bool:
    """True on a Trial night (the Traitors are not told "no murder tonight")."""
    return _first("replaces_event", game)


def confession_first(game: Context) -> bool:
    """TWIST HOOK (``night.open_turret``): True on a Confession night: the Traitors go to the Confession first."""
    return _first("confession_first", game)


def prompt_confession(game: Context) -> None:
    """TWIST HOOK (``night.open_turret``): ask the Traitors at the Confession for their response."""
    _call("prompt_confession", game)


def enter_turret(game: Context) -> None:
    """TWIST HOOK (``night.open_turret``): on a confession night the Traitors read the confessions first (§7.3)."""
    _call("enter_turret", game)


def turret_work(game: Context) -> bool:
    """TWIST HOOK: whether tonight's Turret has twist choices (the Turret then opens with a clock). Every twist
    is asked (each marks its own first step)."""
    assert game.night
    return any([*_every("turret_work", game)])


def prompt_turret(game: Context) -> None:
    """TWIST HOOK: the Turret's twist prompts, after its clock has started."""
    _call("prompt_turret", game)


def turret_done(game: Context) -> bool:
    """TWIST HOOK (``night.turret_maybe_done``): every Traitor has made every twist choice tonight."""
    return all(_every("turret_done", game))


def close_turret(game: Context) -> None:
    """TWIST HOOK (``night.close_turret``): settle the twists' Turret choices (most picks; ties by the seeded draw)."""
    _call("close_turret", game)


def leave_turret(game: Context) -> None:
    """TWIST HOOK (``night.send_traitors_home``): the Traitors go home: the response draft is taken back."""
    _call("leave_turret", game)


def traitors_home(game: Context) -> None:
    """TWIST HOOK (``night.send_traitors_home``): the Traitors are home; the Trial begins (rulebook §7.3)."""
    _call("traitors_home", game)


def before_host_visit(game: Context) -> bool:
    """TWIST HOOK (top of ``visit.open_host_visit``): True when the Faithful's nomination vote opens first."""
    return _first("before_host_visit", game)


def begin_night(game: Context) -> None:
    """TWIST HOOK (``night.begin_night``): a confession day's murder shields protect tonight."""
    _call("begin_night", game)


def end_night(game: Context) -> None:
    """TWIST HOOK (``night.end_night``): unused murder shields are taken back (the following night only)."""
    _call("end_night", game)


def breakfast(game: Context) -> None:
    """TWIST HOOK (``round_table.begin_breakfast``): the night's twist news: the Trial, the Traitors' Response book."""
    _call("breakfast", game)


def begin_discussion(game: Context) -> None:
    """TWIST HOOK (``round_table.begin_discussion``, after its clock): the Sacred Sword, the confession chests."""
    _call("begin_discussion", game)


def before_round_table(game: Context) -> bool:
    """TWIST HOOK (top of ``round_table.begin_round_table``): discussion ends (sword, chests, books and glasses are
    collected); True when the nominee's Guess or Seer visit comes first (the round table waits, §3.3)."""
    st = game.twist_state
    if st.discussion_closed != game.day:
        st.discussion_closed = game.day
        _call("end_discussion", game)
    return _first("before_round_table", game)


def close_nomination(game: Context) -> None:
    """The nomination's clock ran out (or the host moved on)."""
    _call("close_nomination", game)


def close_nominee(game: Context) -> None:
    """The nominee's clock ran out (or the host moved on): the round table opens."""
    _call("close_nominee", game)


def traitor_actions(game: Context) -> list[tuple[str, str]]:
    """Tonight's Traitor actions of the twists (target, kind): every guess counts (The Detective, The Spy)."""
    out: list[tuple[str, str]] = []
    for fn in _hooks("traitor_actions"):
        out += fn(game)
    return out


__all__ = [
    "DAY_PHASES",
    "TEXT_LIMIT",
    "TITLES",
    "TWISTS",
    "TwistSpec",
    "TwistState",
    "check_text",
    "is_on",
    "lapses",
    "precondition",
    "register",
    "soonest_day",
    "state_of",
    "unregister",
    "validate",
    "validate_host",
]


def check(game: Context, action: Action) -> None:
    """Raise unless the twist input ``action`` is legal now (``validate`` without applying; changes nothing)."""
    validate(game, action)


def apply(game: Context, action: Action) -> None:
    """Apply a twist input ``check`` accepted."""
    validate(game, action)()


def check_host(game: Context, action: StartTwist | CancelTwist) -> None:
    """Raise unless the host's ``StartTwist`` / ``CancelTwist`` is legal now (changes nothing)."""
    validate_host(game, action)


def apply_host(game: Context, action: StartTwist | CancelTwist) -> None:
    """Apply a host's twist input ``check_host`` accepted."""
    validate_host(game, action)()
