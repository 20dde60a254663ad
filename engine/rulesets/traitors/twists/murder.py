"""The Murder twist (rulebook §8 "Murder"; traitors.md line "**Murder** [rule: the Traitors choose which Traitor;
the Sacred Sword is placed in their inventory; they must attack a Faithful with it to murder them in plain
sight, then keep it hidden]").

Rule, on day d: in the Turret of night d-1 the Traitors name one Traitor (each Traitor names one; the most
named wins, a tie is drawn). At the start of day d's discussion the Sacred Sword is placed in that Traitor's
inventory. A hit on a Faithful (``StrikeWithSword``, from the data pack's ``traitors:sword/struck``
advancement) murders them on the spot, in plain sight: announced to everyone at once, the victim told where
they stand (the diary room is a night place, rule T10.7); shields and The Guardian do
not apply by day [house]. The sword is the Traitors' attempt to murder, so a sober Survivor whose alert is unused
is alerted instead (rule T5.3), told where they stand, with nothing announced: the strike is spent, and the day's
round table decides their fate (T5.4). A hit on a Traitor does nothing. The sword strikes once.
[house] When discussion ends the sword vanishes (used or not: the castle takes it back), and night d has no
event (no murder, seduction or ultimatum) whether or not the sword was used.

Precondition [house]: more than ``finalists + 2`` contestants remain (a day murder and a banishment still
leave a finale), and no Trial the same day.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action, ByTraitor, Sent
from engine.effects import Choice, Eliminated, GiveItem, Prompt, TakeItem, msg
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, NightEvent, Twist
from engine.input_trigger import InputTrigger
from engine.record import TwistRecord
from engine.rulesets.traitors.choices import most_picked
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.losses import murder
from engine.rulesets.traitors.phases import Phase, Stage
from engine.rulesets.traitors.powers import survivor
from engine.rulesets.traitors.turret import check_turret
from engine.rulesets.traitors.twists.base import lapses
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec

KEY = Twist.declare("murder", 2)
"""The Murder twist's key; 2 is its number on the host's ``traitors.twist`` trigger."""


@dataclass(frozen=True, slots=True)
class _ByAttacker(Sent):
    actor_key: ClassVar[str] = "attacker"

    @property
    def attacker(self) -> str:
        """The Sacred Sword's holder who strikes (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class ChooseSwordBearer(ByTraitor):
    """A Traitor names which Traitor receives the Sacred Sword at the next discussion (§8 Murder twist)."""

    kind: ClassVar[str] = "choose_sword_bearer"
    target: str


@dataclass(frozen=True, slots=True)
class StrikeWithSword(_ByAttacker):
    """The Sacred Sword's holder hits ``victim`` during discussion (§8 Murder twist; the data pack's
    ``traitors:sword/struck`` advancement names both players)."""

    kind: ClassVar[str] = "strike_with_sword"
    victim: str


def precondition(game: Context, _day: int) -> str | None:
    """See the module docstring."""
    if len(game.living()) <= game.settings.finalists + 2:
        return "illegal.twist.too_few"
    return None


def _naming_tonight(game: Context) -> bool:
    """True while tonight's Turret names the sword's bearer (begun, not yet settled)."""
    day = game.day + 1
    st = game.twist_state
    if not game.night or (day, Twist.MURDER) not in st.begun or day in st.bearers:
        return False
    return st.is_on(day, Twist.MURDER)


def turret_work(game: Context) -> bool:
    """The Turret of night d-1 names the sword's bearer when the Murder twist is on day d."""
    day = game.day + 1
    if not game.twist_state.is_on(day, Twist.MURDER) or (day, Twist.MURDER) in game.twist_state.begun:
        return False
    if lapses(game, Twist.MURDER, day, precondition):
        return False
    game.twist_state.bearer_picks.clear()
    return True


def prompt_turret(game: Context) -> None:
    """Ask each Traitor to name the sword's bearer."""
    assert game.night
    if not _naming_tonight(game):
        return
    for t in game.night.traitors:
        choices = tuple(Choice(b, ChooseSwordBearer(t, b)) for b in game.night.traitors)
        game.emit(Prompt(frozenset({t}), msg("turret.nominate.sword"), choices))


def turret_done(game: Context) -> bool:
    """Every Traitor has named a bearer (or no bearer is named tonight)."""
    assert game.night
    return not _naming_tonight(game) or all(t in game.twist_state.bearer_picks for t in game.night.traitors)


def close_turret(game: Context) -> None:
    """The most named Traitor will hold the sword (a tie, or nobody named: the seeded draw)."""
    night = game.night
    assert night
    if not _naming_tonight(game) or not night.traitors:
        return
    picks = list(game.twist_state.bearer_picks.values())
    bearer = most_picked(picks, game.draw) if picks else game.draw(night.traitors)
    game.twist_state.bearers[game.day + 1] = bearer
    game.twist_state.bearer_picks.clear()
    game.whisper(night.traitors, "turret.sword_bearer", player=bearer)


def validate_bearer(game: Context, action: ChooseSwordBearer) -> Callable[[], None]:
    """A sworn Traitor names one of tonight's Traitors as the sword's bearer, once."""
    check_turret(game, action.actor)
    if not _naming_tonight(game):
        raise IllegalAction("illegal.turret.no_twist")
    if action.actor in game.twist_state.bearer_picks:
        raise IllegalAction("illegal.turret.already")
    assert game.night
    if action.target not in game.night.traitors:
        raise IllegalAction("illegal.turret.target", target=action.target)

    def apply() -> None:
        game.twist_state.bearer_picks[action.actor] = action.target
        game.go(Stage.TURRET_ANSWERED)

    return apply


def begin_discussion(game: Context) -> None:
    """Day d's discussion: the Sacred Sword is placed in the bearer's inventory; night d will be quiet."""
    st = game.twist_state
    bearer = st.bearers.pop(game.day, None)
    if bearer is None or not game.players[bearer].alive:
        return
    st.sword, st.sword_used = (game.day, bearer), False
    st.quiet_nights.add(game.day)
    game.emit(GiveItem(frozenset({bearer}), Item.SACRED_SWORD, None))
    game.whisper([bearer], "sword.given")


def validate_strike(game: Context, action: StrikeWithSword) -> Callable[[], None]:
    """The sword's holder, during discussion, once; the victim another living contestant."""
    st = game.twist_state
    if game.phase is not Phase.DISCUSSION or st.sword is None or st.sword != (game.day, action.attacker):
        raise IllegalAction("illegal.sword.none")
    if st.sword_used:
        raise IllegalAction("illegal.sword.used")
    victim = game.players.get(action.victim)
    if victim is None or not victim.alive or action.victim == action.attacker:
        raise IllegalAction("illegal.sword.target", target=action.victim)
    return lambda: _strike(game, action.attacker, action.victim)


def _strike(game: Context, attacker: str, victim: str) -> None:
    p = game.players[victim]
    record = TwistRecord(game.day, Twist.MURDER.value, {"attacker": attacker, "victim": victim})
    game.record.events.append(record)
    if p.allegiance is Allegiance.TRAITOR:
        record.details["result"] = "nothing"
        game.whisper([attacker], "sword.nothing")
        return
    game.twist_state.sword_used = True
    if survivor.alert_holds(game, victim):
        record.details["result"] = "alerted"
        survivor.alert(game, victim)
        game.whisper([attacker], "sword.survived", player=victim)
        return
    record.details["result"] = "murdered"
    murder(game, victim, by_day=True)
    p.publicly_out = True
    game.record_out(victim)
    game.announce("sword.murdered", player=victim)
    game.emit(Eliminated(victim, "murdered"))


def end_discussion(game: Context) -> None:
    """When discussion ends the sword vanishes (used or not)."""
    st = game.twist_state
    if st.sword is None:
        return
    _, holder = st.sword
    game.emit(TakeItem(Item.SACRED_SWORD, (holder,)))
    if not st.sword_used:
        game.whisper([holder], "sword.vanished")
        game.record.events.append(TwistRecord(game.day, Twist.MURDER.value, {"attacker": holder, "result": "unused"}))
    st.sword, st.sword_used = None, False


INPUT_PHASES = frozenset({Phase.TURRET, Phase.DISCUSSION})
"""Phases in which ``legal_actions`` can offer an input: naming the bearer (Turret), the strike (discussion)."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """Naming the bearer (Turret) and the strike (discussion) that ``player`` may send now."""
    out: list[Action] = []
    st = game.twist_state
    night = game.night
    naming = game.phase is Phase.TURRET and night and player in night.traitors and _naming_tonight(game)
    if naming and night and player not in st.bearer_picks:
        out += [ChooseSwordBearer(player, b) for b in night.traitors]
    if game.phase is Phase.DISCUSSION and st.sword == (game.day, player) and not st.sword_used:
        out += [StrikeWithSword(player, v) for v in game.living() if v != player]
    return out


def turret_events(game: Context, events: frozenset[NightEvent]) -> frozenset[NightEvent]:
    """The night of a Murder-twist day has no event ([house])."""
    return frozenset() if game.day in game.twist_state.quiet_nights else events


MESSAGES: dict[str, str] = {
    "turret.nominate.sword": "Choose which Traitor receives the Sacred Sword at the next discussion.",
    "turret.sword_bearer": "{player} will receive the Sacred Sword at the next discussion.",
    "sword.given": "You hold the Sacred Sword. Strike a Faithful during discussion to murder them in plain sight, then keep it hidden.",
    "sword.murdered": "{player} has been murdered with the Sacred Sword.",
    "sword.victim": "You have been murdered with the Sacred Sword.",
    "sword.nothing": "Nothing happens.",
    "sword.survived": "{player} survives the Sacred Sword.",
    "sword.vanished": "The Sacred Sword vanishes.",
    "illegal.sword.none": "You do not hold the Sacred Sword now.",
    "illegal.sword.used": "The Sacred Sword has already struck.",
    "illegal.sword.target": "{target} cannot be struck.",
}
"""The Murder twist's messages: catalogue key → English (the registry adds them to ``engine.messages.CATALOG``)."""


SPEC = TwistSpec(
    KEY,
    "The Murder twist",
    inputs=(
        TwistInput(
            ChooseSwordBearer,
            INPUT_PHASES,
            validate_bearer,
            "traitors.dialog.title.turret",
            trigger=InputTrigger("bearer", "Sword bearer"),
        ),
        TwistInput(StrikeWithSword, INPUT_PHASES, validate_strike),
    ),
    input_phases=INPUT_PHASES,
    legal_actions=legal_actions,
    hooks={
        "turret_events": turret_events,
        "turret_work": turret_work,
        "prompt_turret": prompt_turret,
        "turret_done": turret_done,
        "close_turret": close_turret,
        "begin_discussion": begin_discussion,
        "end_discussion": end_discussion,
    },
    precondition=precondition,
    messages=MESSAGES,
)
"""The Murder twist's entry in the twists' registry."""
