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
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

from engine.actions import (
    Action,
    AskSeer,
    CancelTwist,
    ChooseSwordBearer,
    GuessPower,
    OpenChest,
    PutOnTrial,
    StartTwist,
    StrikeWithSword,
    TakeDrink,
    VoteNominee,
    WriteConfession,
    WriteResponse,
)
from engine.effects import TakeItem
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Item, NightEvent, Twist
from engine.messages_terms import TWIST_NAMES
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.state import TwistState
from engine.rulesets.traitors.twists import bar, confession, double_vote, guess, murder, seer, trial
from engine.rulesets.traitors.twists.base import TEXT_LIMIT, check_text, lapses, shared_precondition
from engine.terms import twist_term

TITLES: dict[Twist, str] = dict(TWIST_NAMES)
"""How a twist is named in English (messages name it by its term, ``engine.terms.twist_term``)."""

DAY_PHASES = frozenset({Phase.DAY_ZERO, Phase.BREAKFAST, Phase.DISCUSSION, Phase.NOMINEE, Phase.ROUND_TABLE, Phase.VOTE})


PRECONDITIONS: dict[Twist, Callable[[Context, int], str | None]] = {
    Twist.DOUBLE_VOTE: double_vote.precondition,
    Twist.MURDER: murder.precondition,
    Twist.CONFESSION: confession.precondition,
    Twist.GUESS: guess.precondition,
    Twist.SEER: seer.precondition,
    Twist.TRIAL: trial.precondition,
}
"""Each twist's own precondition (its module's ``precondition``; see the module docstrings)."""


def is_on(game: Context, day: int, twist: Twist) -> bool:
    """Whether ``twist`` is scheduled for ``day`` (settings plus the host's live changes)."""
    return game.twist_state.is_on(day, twist)


# ---------------------------------------------------------------------------------------------- preconditions


def precondition(game: Context, twist: Twist, day: int) -> str | None:
    """The message key of the first precondition ``twist`` on ``day`` fails, or ``None`` (rulebook §8 [house]).

    Checks the conflicts and the shared rules (``base.shared_precondition``), then the twist's own
    (``PRECONDITIONS``).
    """
    return shared_precondition(game, twist, day) or PRECONDITIONS[twist](game, day)


def soonest_day(game: Context, twist: Twist) -> int:
    """The first day a twist started now can still happen on (see the module table)."""
    d, phase = game.day, game.phase
    if twist is Twist.CONFESSION:
        return d if phase is Phase.BREAKFAST and d >= 1 else d + 1
    if twist is Twist.TRIAL:
        return max(1, d if phase in DAY_PHASES or phase is Phase.OATH else d + 1)
    # prepared on the night before: the Turret (and, for Guess/Seer, the host visit) of night day-1
    return d + 1 if phase in DAY_PHASES or phase is Phase.OATH else d + 2


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
            game._host_logged(action.host, "start_twist", f"{twist.value}, day {day}")
            game.whisper(game.hosts, "twist.started", twist=twist_term(twist), day=day)

        return start
    days = sorted(d for d, ts in st.schedule.items() if twist in ts and (d, twist) not in st.begun and d >= game.day)
    if not days:
        raise IllegalAction("illegal.twist.none", **params)
    day = days[0]

    def cancel() -> None:
        st.schedule[day].discard(twist)
        game._host_logged(action.host, "cancel_twist", f"{twist.value}, day {day}")
        game.whisper(game.hosts, "twist.cancelled", twist=twist_term(twist), day=day)

    return cancel


# ---------------------------------------------------------------------------------------------- contestant inputs


def validate(game: Context, action: Action) -> Callable[[], None]:
    """Check a twist input of a living contestant; return the function that applies it.

    Raises:
        IllegalAction: the rules forbid it now (the key says why); nothing changes.
        InvalidCommand: an input this module does not know.
    """
    if isinstance(action, ChooseSwordBearer):
        return murder.validate_bearer(game, action)
    if isinstance(action, StrikeWithSword):
        return murder.validate_strike(game, action)
    if isinstance(action, (OpenChest, WriteConfession, WriteResponse)):
        return confession.validate(game, action)
    if isinstance(action, (GuessPower, VoteNominee)):
        return guess.validate(game, action)
    if isinstance(action, AskSeer):
        return seer.validate(game, action)
    if isinstance(action, PutOnTrial):
        return trial.validate(game, action)
    if isinstance(action, TakeDrink):
        return bar.validate(game, action)
    raise InvalidCommand("invalid.action.kind", kind=action.kind)


LISTED = (murder, confession, guess, seer, trial, bar)
"""The modules whose inputs ``legal_actions`` lists, in the order listed."""

LISTED_IN: dict[Phase, tuple[ModuleType, ...]] = {
    phase: tuple(m for m in LISTED if phase in m.INPUT_PHASES) for phase in Phase
}
"""Phase → the modules of ``LISTED`` that can offer an input in it (each module's ``INPUT_PHASES``)."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """Every twist input ``player`` (a living contestant) may send now; free-text inputs are not listed.

    Only the twists that take inputs in the current phase are asked (``LISTED_IN``): this runs for every
    ``Game.legal_actions``.
    """
    out: list[Action] = []
    for module in LISTED_IN.get(game.phase, ()):  # type: ignore[arg-type]
        out += module.legal_actions(game, player)
    return out


# ---------------------------------------------------------------------------------------------- hooks


def turret_events(game: Context, events: frozenset[NightEvent]) -> frozenset[NightEvent]:
    """TWIST HOOK (``night.open_turret``): tonight's events after the Murder twist's quiet night and the Trial."""
    if game.day in game.twist_state.quiet_nights:
        events = frozenset()
    if trial.begins_tonight(game, has_event=bool(events)):
        return frozenset()
    return events


def replaces_event(game: Context) -> bool:
    """True on a Trial night (the Traitors are not told "no murder tonight")."""
    return game.twist_state.trial_night == game.day


def confession_first(game: Context) -> bool:
    """TWIST HOOK (``night.open_turret``): True on a Confession night: the Traitors go to the Confession first."""
    return confession.confession_night(game)


def prompt_confession(game: Context) -> None:
    """TWIST HOOK (``night.open_turret``): ask the Traitors at the Confession for their response."""
    confession.prompt_response(game)


def enter_turret(game: Context) -> None:
    """TWIST HOOK (``night.open_turret``): on a confession night the Traitors read the confessions first (§7.3)."""
    confession.enter_turret(game)


def turret_work(game: Context) -> bool:
    """TWIST HOOK: whether tonight's Turret has twist choices (the Turret then opens with a clock)."""
    assert game.night
    if game.night.nominate:
        game.twist_state.begun.add((game.day + 1, Twist.DOUBLE_VOTE))
    work = [murder.turret_work(game), guess.turret_work(game), trial.turret_work(game)]
    return any(work)


def prompt_turret(game: Context) -> None:
    """TWIST HOOK: the Turret's twist prompts, after its clock has started."""
    murder.prompt_turret(game)
    guess.prompt_turret(game)
    trial.prompt_turret(game)


def turret_done(game: Context) -> bool:
    """TWIST HOOK (``night.turret_maybe_done``): every Traitor has made every twist choice tonight."""
    return murder.turret_done(game) and guess.turret_done(game) and trial.turret_done(game)


def close_turret(game: Context) -> None:
    """TWIST HOOK (``night.close_turret``): settle the twists' Turret choices (most picks; ties by the seeded draw)."""
    murder.close_turret(game)
    guess.close_turret(game)
    trial.close_turret(game)


def leave_turret(game: Context) -> None:
    """TWIST HOOK (``night.send_traitors_home``): the Traitors go home: the response draft is taken back."""
    night = game.night
    if night is None or not night.traitors:
        return
    st = game.twist_state
    if st.response_due and st.confession_day == game.day:
        game.emit(TakeItem(Item.RESPONSE_DRAFT, tuple(night.traitors)))


def traitors_home(game: Context) -> None:
    """TWIST HOOK (``night.send_traitors_home``): the Traitors are home; the Trial begins (rulebook §7.3)."""
    trial.traitors_home(game)


def before_host_visit(game: Context) -> bool:
    """TWIST HOOK (top of ``visit.open_host_visit``): True when the Faithful's nomination vote opens first."""
    return guess.open_nomination(game)


def begin_night(game: Context) -> None:
    """TWIST HOOK (``night.begin_night``): a confession day's murder shields protect tonight."""
    confession.begin_night(game)


def end_night(game: Context) -> None:
    """TWIST HOOK (``night.end_night``): unused murder shields are taken back (the following night only)."""
    confession.end_night(game)
    game.twist_state.guessed_tonight.clear()


def breakfast(game: Context) -> None:
    """TWIST HOOK (``round_table.begin_breakfast``): the night's twist news: the Trial, the Traitors' Response book."""
    trial.breakfast(game)
    confession.breakfast(game)


def begin_discussion(game: Context) -> None:
    """TWIST HOOK (``round_table.begin_discussion``, after its clock): the Sacred Sword, the confession chests."""
    murder.begin_discussion(game)
    confession.begin_discussion(game)


def before_round_table(game: Context) -> bool:
    """TWIST HOOK (top of ``round_table.begin_round_table``): discussion ends (sword, chests, books and glasses are
    collected); True when the nominee's Guess or Seer visit comes first (the round table waits, §3.3)."""
    st = game.twist_state
    if st.discussion_closed != game.day:
        st.discussion_closed = game.day
        murder.end_discussion(game)
        confession.end_discussion(game)
        bar.end_discussion(game)
    return guess.open_nominee(game)


def close_nomination(game: Context) -> None:
    """The nomination's clock ran out (or the host moved on)."""
    guess.close_nomination(game)


def close_nominee(game: Context) -> None:
    """The nominee's clock ran out (or the host moved on): the round table opens."""
    guess.close_nominee(game)


def traitor_actions(game: Context) -> list[tuple[str, str]]:
    """Tonight's guesses as Traitor actions (target, "guess"): every attempt counts (The Detective, The Spy)."""
    return [(t, "guess") for t in game.twist_state.guessed_tonight]


__all__ = [
    "TEXT_LIMIT",
    "TITLES",
    "TwistState",
    "check_text",
    "is_on",
    "lapses",
    "precondition",
    "soonest_day",
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
