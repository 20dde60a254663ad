"""The Trial (rulebook §8 "Trial"; §7.3 "With the Trial twist active it starts when the Traitors go home";
traitors.md line "**Trial** [rule: the Traitors choose who is put on trial; life and death cards]: [house]
instead of a murder, the Traitors put three contestants on trial; each draws a card, two life and one death; the
death card is murdered that night (a murder shield or The Guardian still saves)").

Rule, on day d [house mechanics]: night d has no murder, seduction or ultimatum. In the Turret each Traitor names
up to ``trial_contestants`` (default 3) living Faithful (``PutOnTrial``); the most named go on trial (ties at
the cut, or too few named: the seeded draw fills the places). As the Traitors go home the cards are drawn by the
seeded generator: one death card, the rest life cards. Each contestant on trial is told their own card; the
Traitors learn who drew death. The death card is the night's murder attempt: settled at the murder step like any
murder (a murder shield, The Guardian, then The Survivor's alert can save them). At breakfast everyone hears who
was on trial, and, as every morning, who was murdered.

Preconditions: at least two Traitors remain (with one, the Traitor must give an ultimatum, §7.2), at least
``trial_contestants`` Faithful, night d can have an event (more than ``finalists + 1`` contestants), and no
Murder twist the same day.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action, ByTraitor
from engine.effects import Choice, Prompt, msg
from engine.errors import IllegalAction
from engine.ids import NightEvent, Twist
from engine.input_trigger import InputTrigger
from engine.record import TwistRecord
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase, Stage
from engine.rulesets.traitors.turret import check_turret
from engine.rulesets.traitors.twists.base import lapses
from engine.rulesets.traitors.twists.spec import DAY_PHASES, TwistInput, TwistSpec
from engine.terms import twist_term

KEY = Twist.declare("trial", 6)
"""The Trial's key; 6 is its number on the host's ``traitors.twist`` trigger."""


@dataclass(frozen=True, slots=True)
class PutOnTrial(ByTraitor):
    """A Traitor names one contestant to put on trial tonight (§8 Trial twist); each names up to
    ``Settings.trial_contestants``."""

    kind: ClassVar[str] = "put_on_trial"
    target: str


def precondition(game: Context, _day: int) -> str | None:
    """See the module docstring."""
    if len(game.living_traitors()) < 2:
        return "illegal.twist.trial_one_traitor"
    if len(game.living_faithful()) < game.settings.trial_contestants:
        return "illegal.twist.trial_faithful"
    if len(game.living()) <= game.settings.finalists + 1:
        return "illegal.twist.too_few"
    return None


def begins_tonight(game: Context, *, has_event: bool) -> bool:
    """Called as the Turret opens: True (and the Trial begins) on a Trial night. A night without an event (the
    Murder twist's quiet night, the last night before the finale) cannot hold a Trial: it lapses."""
    day = game.day
    st = game.twist_state
    if not st.is_on(day, Twist.TRIAL) or (day, Twist.TRIAL) in st.begun:
        return False
    if not has_event:
        st.begun.add((day, Twist.TRIAL))
        game.whisper(game.hosts, "twist.lapsed", twist=twist_term(Twist.TRIAL), day=day)
        game.whisper(game.hosts, "illegal.twist.too_few", twist=twist_term(Twist.TRIAL), day=day)
        return False
    if lapses(game, Twist.TRIAL, day, precondition):
        return False
    st.trial_night = day
    st.trial_picks = {}
    return True


def _tonight(game: Context) -> bool:
    return game.night is not None and game.twist_state.trial_night == game.day and game.phase is Phase.TURRET


def turret_work(game: Context) -> bool:
    """True on a Trial night: the Traitors put contestants on trial."""
    return game.night is not None and game.twist_state.trial_night == game.day


def _size(game: Context) -> int:
    return game.settings.trial_contestants


def _prompt(game: Context, traitor: str) -> None:
    named = game.twist_state.trial_picks.get(traitor, [])
    options = [f for f in game.living_faithful() if f not in named]
    choices = tuple(Choice(f, PutOnTrial(traitor, f)) for f in options)
    game.emit(Prompt(frozenset({traitor}), msg("turret.trial", count=_size(game)), choices))


def prompt_turret(game: Context) -> None:
    """Ask each Traitor whom they put on trial."""
    night = game.night
    assert night
    if turret_work(game):
        for t in night.traitors:
            _prompt(game, t)


def turret_done(game: Context) -> bool:
    """Every Traitor has named enough contestants."""
    night = game.night
    assert night
    if not turret_work(game):
        return True
    return all(len(game.twist_state.trial_picks.get(t, [])) >= _size(game) for t in night.traitors)


def validate(game: Context, action: PutOnTrial) -> Callable[[], None]:
    """A sworn Traitor in tonight's Turret names a living Faithful not yet named by them.

    Raises:
        IllegalAction: not a Trial night, already named enough, a target that cannot be put on trial.
    """
    check_turret(game, action.actor)
    if not _tonight(game):
        raise IllegalAction("illegal.trial.closed")
    named = game.twist_state.trial_picks.get(action.actor, [])
    if len(named) >= _size(game):
        raise IllegalAction("illegal.turret.already")
    if action.target not in game.living_faithful() or action.target in named:
        raise IllegalAction("illegal.trial.target", target=action.target)

    def apply() -> None:
        game.twist_state.trial_picks.setdefault(action.actor, []).append(action.target)
        if len(game.twist_state.trial_picks[action.actor]) < _size(game):
            _prompt(game, action.actor)
        game.go(Stage.TURRET_ANSWERED)

    return apply


def close_turret(game: Context) -> None:
    """The Traitors' decision: the most named go on trial (the Trial itself begins when they go home)."""
    st = game.twist_state
    night = game.night
    assert night
    if not turret_work(game):
        return
    size = _size(game)
    counts = Counter(n for picks in st.trial_picks.values() for n in picks)
    faithful = game.living_faithful()
    chosen: list[str] = []
    for c in sorted(set(counts.values()), reverse=True):
        tier = sorted(n for n in counts if counts[n] == c and n in faithful)
        room = size - len(chosen)
        chosen += tier if len(tier) <= room else game.rng.sample(tier, room)
        if len(chosen) >= size:
            break
    rest = sorted(f for f in faithful if f not in chosen)
    if len(chosen) < size and rest:
        chosen += game.rng.sample(rest, min(size - len(chosen), len(rest)))
    chosen.sort(key=lambda n: game.players[n].seat)
    st.trial_picks = {}
    st.trial_night = None
    st.on_trial = chosen


def traitors_home(game: Context) -> None:
    """Rulebook §7.3: "If the Trial twist is active, it will begin upon The Traitors being sent to their
    individual homes": the cards are drawn; the death card becomes tonight's murder attempt."""
    st = game.twist_state
    night = game.night
    assert night
    chosen, st.on_trial = st.on_trial, []
    if not chosen:
        return
    death = game.draw(chosen)
    for n in chosen:
        game.whisper([n], "trial.card.death" if n == death else "trial.card.life")
    game.whisper(night.traitors, "trial.decided", players=", ".join(chosen), player=death)
    night.attack = (death, False)
    night.record.event = "trial"
    night.record.target = death
    st.trial_news = chosen
    game.record.events.append(TwistRecord(game.day, Twist.TRIAL.value, {"on_trial": chosen, "death_card": death}))


def breakfast(game: Context) -> None:
    """Everyone hears who was on trial last night."""
    st = game.twist_state
    if st.trial_news:
        game.announce("trial.news", players=", ".join(st.trial_news))
        st.trial_news = []


INPUT_PHASES = frozenset({Phase.TURRET})
"""Phases in which ``legal_actions`` can offer an input (putting contestants on trial)."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """The contestants a Traitor may still put on trial tonight."""
    if not _tonight(game) or game.night is None or player not in game.night.traitors:
        return []
    named = game.twist_state.trial_picks.get(player, [])
    if len(named) >= _size(game):
        return []
    return [PutOnTrial(player, f) for f in game.living_faithful() if f not in named]


def turret_events(game: Context, events: frozenset[NightEvent]) -> frozenset[NightEvent]:
    """A Trial night has no event: the Trial replaces it."""
    return frozenset() if begins_tonight(game, has_event=bool(events)) else events


def replaces_event(game: Context) -> bool:
    """True on a Trial night (the Traitors are not told "no murder tonight")."""
    return game.twist_state.trial_night == game.day


def soonest(game: Context) -> int:
    """Night d (from day 1): started by day, still tonight; started at night, the next night."""
    d = game.day
    return max(1, d if game.phase in DAY_PHASES or game.phase is Phase.OATH else d + 1)


MESSAGES: dict[str, str] = {
    "turret.trial": "Instead of a murder, put {count:contestants} on trial. Choose one.",
    "trial.decided": "On trial: {players}. {player} drew the death card.",
    "trial.card.life": "You are on trial tonight. You drew a life card.",
    "trial.card.death": "You are on trial tonight. You drew the death card.",
    "trial.news": "Last night {players} were put on trial.",
    "illegal.trial.closed": "There is no trial to decide now.",
    "illegal.trial.target": "{target} cannot be put on trial.",
}
"""The Trial's messages: catalogue key → English (the registry adds them to ``engine.messages.CATALOG``)."""


SPEC = TwistSpec(
    KEY,
    "The Trial",
    inputs=(
        TwistInput(
            PutOnTrial, INPUT_PHASES, validate, "traitors.dialog.title.turret", trigger=InputTrigger("trial", "Trial")
        ),
    ),
    input_phases=INPUT_PHASES,
    legal_actions=legal_actions,
    hooks={
        "turret_events": turret_events,
        "turret_work": turret_work,
        "prompt_turret": prompt_turret,
        "turret_done": turret_done,
        "close_turret": close_turret,
        "traitors_home": traitors_home,
        "breakfast": breakfast,
        "replaces_event": replaces_event,
    },
    precondition=precondition,
    soonest=soonest,
    messages=MESSAGES,
)
"""The Trial's entry in the twists' registry."""
