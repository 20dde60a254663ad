"""The Guess twist (rulebook §8 "Guess"; §7.4 "Faithful may vote to nominate for the Guess or Seer twists; a
guessed Faithful learns it before using their power (the Cleanser excepted)"; §5 The Cleanser "when guessed,
gets an unknowing chance to protect themself"), and the nomination and nominee steps it shares with the Seer.

Rule, on day d [house mechanics]:

* Night d-1, in the Turret: each Traitor guesses "contestant X holds power P" (``GuessPower``: first the
  contestant, then the power; X a living non-Traitor). The most picked guess is the Traitors' guess (a tie: the
  seeded draw). It is a Traitor action on X (The Detective, The Spy). If X truly holds P, X loses that power for
  the series and learns it when the host visits, before using it; but a guessed Cleanser is not told and keeps
  the power by cleansing themself that night; any other choice of theirs is void and unrecorded
  (``PowerState.guessed``; ``visit.open_host_visit``, ``visit.voided_by_guess`` and the ``GUESS`` step of
  ``engine.rulesets.traitors.powers.NIGHT_ORDER``). The Traitors are not told whether they were right.
* Night d-1, at the start of host visiting: every living Faithful present votes for a nominee (any other living
  contestant; ``VoteNominee``); the most votes wins, a tie is drawn; no votes: no nominee, the twist lapses.
* Day d, before the round table (the round table waits): the nominee, announced to everyone, guesses the same
  way (any other living contestant and any power); a right guess strips that power (the contestant is told).
  Only the nominee learns whether the guess was right; everyone hears that the guess was made.

"Holds" means the power dealt (or gained by a recruit at the Oath): a Traitor's Traitor power, never the false
power; The Joker is never guessed. Twists see the truth (The Falsifier does not change it).

Preconditions: the series deals powers, and night d-1 has powers (from night 1, or night 0 with
``first_night_murder``); no Seer twist the same day (one nominee).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action, ByVoter, Sent
from engine.effects import Choice, Prompt, msg
from engine.errors import IllegalAction
from engine.ids import Allegiance, Power, Twist
from engine.input_trigger import InputTrigger
from engine.record import TwistRecord
from engine.rulesets.traitors.choices import most_picked
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.losses import lose_power
from engine.rulesets.traitors.phases import Phase, Stage
from engine.rulesets.traitors.turret import check_turret
from engine.rulesets.traitors.twists.base import lapses
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec
from engine.terms import power_term, twist_term

KEY = Twist.declare("guess", 4)
"""The Guess twist's key; 4 is its number on the host's ``traitors.twist`` trigger."""


@dataclass(frozen=True, slots=True)
class _ByGuesser(Sent):
    actor_key: ClassVar[str] = "guesser"

    @property
    def guesser(self) -> str:
        """The contestant who makes the guess (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class _BySeer(Sent):
    actor_key: ClassVar[str] = "seer"

    @property
    def seer(self) -> str:
        """The contestant who visits the Seer (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class GuessPower(_ByGuesser):
    """A guess "``target`` holds ``power``" (§8 Guess twist): by a Traitor in the Turret or by the Faithful's
    nominee before the round table. ``power`` ``None`` first picks the target (the power is asked next)."""

    kind: ClassVar[str] = "guess_power"
    target: str
    power: Power | None = None


@dataclass(frozen=True, slots=True)
class VoteNominee(ByVoter):
    """A Faithful votes, at the host's visit, for who makes the Guess or visits the Seer (§7.4, §8)."""

    kind: ClassVar[str] = "vote_nominee"
    target: str


@dataclass(frozen=True, slots=True)
class AskSeer(_BySeer):
    """The Seer twist's nominee chooses whose true allegiance the seer book shows them (§8 Seer)."""

    kind: ClassVar[str] = "ask_seer"
    target: str


GUESSABLE: tuple[Power, ...] = tuple(p for p in Power if p is not Power.JOKER)
"""The powers a guess may name (every dealt power; The Joker is offered, never dealt)."""


def precondition(game: Context, day: int) -> str | None:
    """See the module docstring."""
    if not game.settings.powers:
        return "illegal.twist.no_powers"
    if day - 1 < 1 and not game.settings.first_night_murder:
        return "illegal.twist.guess_night0"
    return None


# ---------------------------------------------------------------------------------------------- the Turret


def _guessing_tonight(game: Context) -> bool:
    day = game.day + 1
    if not game.night or game.phase is not Phase.TURRET or (day, Twist.GUESS) not in game.twist_state.begun:
        return False
    return game.twist_state.is_on(day, Twist.GUESS)


def turret_work(game: Context) -> bool:
    """The Turret of night d-1 makes the Traitors' guess when the Guess twist is on day d."""
    day = game.day + 1
    st = game.twist_state
    if not st.is_on(day, Twist.GUESS) or (day, Twist.GUESS) in st.begun:
        return False
    if lapses(game, Twist.GUESS, day, precondition):
        return False
    st.guess_picks.clear()
    st.guess_pending.clear()
    return bool(_targets(game))


def _targets(game: Context) -> list[str]:
    """Whom the Traitors may guess about: living non-Traitors."""
    return [n for n in game.living() if game.players[n].allegiance is not Allegiance.TRAITOR]


def _ask_target(game: Context, guesser: str, options: list[str]) -> None:
    key = "turret.guess" if game.phase is Phase.TURRET else "guess.nominee.prompt"
    game.emit(Prompt(frozenset({guesser}), msg(key), tuple(Choice(t, GuessPower(guesser, t)) for t in options)))


def _ask_power(game: Context, guesser: str, target: str) -> None:
    choices = tuple(Choice(p.title, GuessPower(guesser, target, p)) for p in GUESSABLE)
    game.emit(Prompt(frozenset({guesser}), msg("guess.power", player=target), choices))


def prompt_turret(game: Context) -> None:
    """Ask each Traitor whom they guess about."""
    night = game.night
    assert night
    if not _guessing_tonight(game) or not _targets(game):
        return
    for t in night.traitors:
        _ask_target(game, t, _targets(game))


def turret_done(game: Context) -> bool:
    """Every Traitor has guessed (or there is nothing to guess tonight)."""
    night = game.night
    assert night
    return (
        not _guessing_tonight(game)
        or not _targets(game)
        or all(t in game.twist_state.guess_picks for t in night.traitors)
    )


def close_turret(game: Context) -> None:
    """The most picked guess lands (a tie: the seeded draw); a right one goes to ``PowerState.guessed``."""
    st = game.twist_state
    night = game.night
    assert night
    if not _guessing_tonight(game) or not st.guess_picks:
        st.guess_picks.clear()
        st.guess_pending.clear()
        return
    keys = [f"{t}|{p}" for t, p in st.guess_picks.values()]
    target, value = most_picked(keys, game.draw).split("|")
    power = Power(value)
    st.guess_picks.clear()
    st.guess_pending.clear()
    st.guessed_tonight.append(target)
    right = game.players[target].power is power and game.players[target].allegiance is Allegiance.FAITHFUL
    if right:
        game.powers.guessed.add(target)
    game.whisper(night.traitors, "turret.guess.decided", player=target, power=power_term(power))
    # Recorded under the twist's day (tomorrow's), not tonight's number.
    game.record.events.append(
        TwistRecord(
            game.day + 1, Twist.GUESS.value, {"by": "traitors", "target": target, "power": power.title, "right": right}
        )
    )


# ---------------------------------------------------------------------------------------------- the nomination


def _nomination_twist(game: Context) -> Twist | None:
    """The Guess or Seer twist on tomorrow's day whose nomination is held tonight, if any."""
    for twist in (Twist.GUESS, Twist.SEER):
        if game.twist_state.is_on(game.day + 1, twist):
            return twist
    return None


def open_nomination(game: Context) -> bool:
    """At the start of host visiting: the Faithful vote for tomorrow's nominee (once per night)."""
    st = game.twist_state
    night = game.night
    twist = _nomination_twist(game)
    if night is None or twist is None or st.nomination_night == game.day:
        return False
    st.nomination_night = game.day
    day = game.day + 1
    if twist is Twist.SEER and lapses(game, twist, day):
        return False
    if twist is Twist.GUESS:
        st.begun.add((day, twist))
        if twist not in st.schedule.get(day, set()):
            return False
    voters = tuple(n for n in game.living_faithful() if game.players[n].present)
    candidates = game.living()
    if not voters or len(candidates) < 2:
        return False
    st.nominators = voters
    st.nomination = {}
    game.start_clock(Phase.NOMINATION, "nomination", "clock.nomination")
    for v in voters:
        choices = tuple(Choice(c, VoteNominee(v, c)) for c in candidates if c != v)
        game.emit(Prompt(frozenset({v}), msg(f"nomination.prompt.{twist.value}"), choices))
    return True


def close_nomination(game: Context) -> None:
    """The most votes is tomorrow's nominee (a tie: the seeded draw; no votes: none, the hosts are told)."""
    st = game.twist_state
    twist = _nomination_twist(game)
    votes = list(st.nomination.values())
    st.nomination, st.nominators = {}, ()
    if twist is not None:
        day = game.day + 1
        if votes:
            nominee = most_picked(votes, game.draw)
            st.nominees[day] = (twist, nominee)
            game.record.events.append(TwistRecord(day, twist.value, {"nominee": nominee, "votes": len(votes)}))
        else:
            game.whisper(game.hosts, "twist.lapsed", twist=twist_term(twist), day=day)
            game.whisper(game.hosts, "nomination.none")
    game.go(Stage.HOST_VISIT)


def validate(game: Context, action: GuessPower | VoteNominee) -> Callable[[], None]:
    """A Traitor's guess in the Turret, the nominee's guess before the round table, a nomination vote.

    Raises:
        IllegalAction: not now, not yours, a target that cannot be guessed, a second nomination vote.
    """
    st = game.twist_state
    if isinstance(action, VoteNominee):
        if game.phase is not Phase.NOMINATION or action.actor not in st.nominators:
            raise IllegalAction("illegal.nominee.closed")
        if action.actor in st.nomination:
            raise IllegalAction("illegal.turret.already")
        target = game.players.get(action.target)
        if target is None or not target.alive or action.target == action.actor:
            raise IllegalAction("illegal.power.target", target=action.target)

        def vote() -> None:
            st.nomination[action.actor] = action.target
            game.whisper([action.actor], "nomination.noted")
            everyone = all(v in st.nomination for v in st.nominators if game.players[v].present)
            if everyone and not game.settings.night_fixed_length:  # phases house rule 9
                close_nomination(game)

        return vote
    g = action.guesser
    if game.phase is Phase.TURRET:
        check_turret(game, g)
        if not _guessing_tonight(game):
            raise IllegalAction("illegal.guess.closed")
        if g in st.guess_picks:
            raise IllegalAction("illegal.turret.already")
        allowed = _targets(game)
    elif game.phase is Phase.NOMINEE and nominee_of(game, Twist.GUESS) == g:
        allowed = [n for n in game.living() if n != g]
    else:
        raise IllegalAction("illegal.guess.closed")
    if action.target not in allowed:
        raise IllegalAction("illegal.guess.target", target=action.target)
    if action.power is None:
        return lambda: _pick_target(game, g, action.target)
    if action.power not in GUESSABLE:
        raise IllegalAction("illegal.guess.target", target=power_term(action.power))
    power = action.power
    if game.phase is Phase.TURRET:
        return lambda: _turret_guess(game, g, action.target, power)
    return lambda: _nominee_guess(game, g, action.target, power)


def _pick_target(game: Context, guesser: str, target: str) -> None:
    game.twist_state.guess_pending[guesser] = target
    _ask_power(game, guesser, target)


def _turret_guess(game: Context, traitor: str, target: str, power: Power) -> None:
    st = game.twist_state
    st.guess_pending.pop(traitor, None)
    st.guess_picks[traitor] = (target, power.value)
    game.whisper([traitor], "result.guess.noted", player=target, power=power_term(power))
    game.go(Stage.TURRET_ANSWERED)


# ---------------------------------------------------------------------------------------------- the nominee


def nominee_of(game: Context, twist: Twist) -> str | None:
    """The nominee of ``twist`` today while their step is open, else ``None``."""
    entry = game.twist_state.nominees.get(game.day)
    if entry is None or entry[0] is not twist or game.day in game.twist_state.nominee_done:
        return None
    return entry[1]


def open_nominee(game: Context) -> bool:
    """Before the round table: the nominee's Guess or Seer visit (once per day)."""
    st = game.twist_state
    entry = st.nominees.get(game.day)
    if entry is None or game.day in st.nominee_done:
        return False
    twist, nominee = entry
    p = game.players[nominee]
    if not p.alive or not p.present:
        st.nominee_done.add(game.day)
        return False
    game.announce(f"{twist.value}.nominee", player=nominee)
    game.start_clock(Phase.NOMINEE, "nominee", "clock.nominee")
    others = [n for n in game.living() if n != nominee]
    if twist is Twist.GUESS:
        _ask_target(game, nominee, others)
    else:
        choices = tuple(Choice(n, AskSeer(nominee, n)) for n in others)
        game.emit(Prompt(frozenset({nominee}), msg("seer.prompt"), choices))
    return True


def _nominee_guess(game: Context, nominee: str, target: str, power: Power) -> None:
    st = game.twist_state
    st.guess_pending.pop(nominee, None)
    right = game.players[target].power is power
    game.record.events.append(
        TwistRecord(
            game.day, Twist.GUESS.value, {"by": nominee, "target": target, "power": power.title, "right": right}
        )
    )
    if right:
        game.whisper([nominee], "result.guess.right", player=target, power=power_term(power))
        lose_power(game, target)
    else:
        game.whisper([nominee], "result.guess.wrong")
    game.announce("guess.made")
    finish_nominee(game)


def finish_nominee(game: Context) -> None:
    """The nominee's step is over: the round table opens."""
    game.twist_state.nominee_done.add(game.day)
    game.twist_state.guess_pending.clear()
    game.go(Stage.ROUND_TABLE)


def close_nominee(game: Context) -> None:
    """The nominee's clock ran out (or the host moved on): no guess, no seer book; the round table opens."""
    finish_nominee(game)


INPUT_PHASES = frozenset({Phase.NOMINATION, Phase.TURRET, Phase.NOMINEE})
"""Phases in which ``legal_actions`` can offer an input: the nomination, the Traitors' guess, the nominee's."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """The nomination vote, the Traitors' guess and the nominee's guess that ``player`` may send now."""
    st = game.twist_state
    out: list[Action] = []
    if game.phase is Phase.NOMINATION and player in st.nominators and player not in st.nomination:
        out += [VoteNominee(player, c) for c in game.living() if c != player]
    turret = (
        game.phase is Phase.TURRET
        and _guessing_tonight(game)
        and game.night is not None
        and (player in game.night.traitors and player not in st.guess_picks)
    )
    nominee = game.phase is Phase.NOMINEE and nominee_of(game, Twist.GUESS) == player
    if turret or nominee:
        allowed = _targets(game) if turret else [n for n in game.living() if n != player]
        out += [GuessPower(player, t) for t in allowed]
        pending = st.guess_pending.get(player)
        if pending is not None and pending in allowed:
            out += [GuessPower(player, pending, p) for p in GUESSABLE]
    return out


def end_night(game: Context) -> None:
    """Tonight's guesses have been counted as Traitor actions."""
    game.twist_state.guessed_tonight.clear()


def traitor_actions(game: Context) -> list[tuple[str, str]]:
    """Tonight's guesses as Traitor actions (target, "guess"): every attempt counts (The Detective, The Spy)."""
    return [(t, "guess") for t in game.twist_state.guessed_tonight]


MESSAGES: dict[str, str] = {
    "turret.guess": "The Guess: which contestant do you guess about?",
    "turret.guess.decided": "Tonight's guess: {player} holds {power}.",
    "guess.power": "Which power does {player} hold?",
    "result.guess.noted": "Your guess: {player} holds {power}.",
    "nomination.prompt.guess": "Who makes the Guess before the next round table?",
    "nomination.prompt.seer": "Who visits the Seer before the next round table?",
    "nomination.noted": "Your nomination is noted.",
    "nomination.none": "Nobody was nominated.",
    "guess.nominee": "{player} was nominated at the host's visit and makes the Guess before the round table.",
    "guess.nominee.prompt": "The Guess: which contestant do you guess about?",
    "result.guess.right": "Your guess is right: {player} loses {power}.",
    "result.guess.wrong": "Your guess is wrong.",
    "guess.made": "The nominee has made the Guess.",
    "illegal.guess.closed": "There is no guess for you to make now.",
    "illegal.guess.target": "{target} cannot be guessed.",
    "illegal.nominee.closed": "There is no nomination for you now.",
}
"""The Guess twist (and the Faithful's nomination it shares with the Seer twist)'s messages: catalogue key → English (the registry adds them to ``engine.messages.CATALOG``)."""


SPEC = TwistSpec(
    KEY,
    "The Guess twist",
    inputs=(
        TwistInput(
            GuessPower,
            INPUT_PHASES,
            validate,
            "traitors.dialog.title.guess",
            trigger=InputTrigger("guess", "Guess", choices=GUESSABLE),
        ),
        TwistInput(
            VoteNominee,
            INPUT_PHASES,
            validate,
            "traitors.dialog.title.nomination",
            trigger=InputTrigger("nominee", "Nominee"),
        ),
    ),
    input_phases=INPUT_PHASES,
    legal_actions=legal_actions,
    hooks={
        "turret_work": turret_work,
        "prompt_turret": prompt_turret,
        "turret_done": turret_done,
        "close_turret": close_turret,
        "before_host_visit": open_nomination,
        "end_night": end_night,
        "before_round_table": open_nominee,
        "close_nomination": close_nomination,
        "close_nominee": close_nominee,
        "traitor_actions": traitor_actions,
    },
    precondition=precondition,
    messages=MESSAGES,
)
"""The Guess twist's entry in the twists' registry (its nomination and nominee steps also serve the Seer)."""
