"""The Seer twist (rulebook §8 "Seer"; §10 "Written Books": "the seer book, which reveals whether a player is a
Faithful or a Traitor during the Seer twist").

Rule, on day d: the Faithful nominate at the start of host visiting on night d-1 (shared with the Guess twist,
``engine.rulesets.traitors.twists.guess``); on day d, before the round table (the round table waits), the nominee, announced to
everyone, chooses one other living contestant (``AskSeer``) and receives the seer book. The book's page states the
contestant's true allegiance (twists see the truth: The Falsifier does not change it): the book's label is the
page (``seer.book.page``), which each reader's client shows in their own language. Only the nominee receives it,
and a private message repeats the answer. [house] What others can see of the book tells nothing: its name and
lore are the same whoever was seen, and they name nobody; only its page, which the holder alone reads, does.
Everyone hears that the Seer was visited.

Precondition: no Guess twist the same day (one nominee).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.effects import GiveItem, msg
from engine.errors import IllegalAction
from engine.ids import Allegiance, Item, Twist
from engine.input_trigger import InputTrigger
from engine.record import TwistRecord
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.twists.guess import AskSeer, finish_nominee, nominee_of
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec
from engine.terms import term

KEY = Twist.declare("seer", 5)
"""The Seer twist's key; 5 is its number on the host's ``traitors.twist`` trigger."""


def precondition(_game: Context, _day: int) -> str | None:
    """See the module docstring (the shared checks are in ``engine.rulesets.traitors.twists.precondition``)."""
    return None


def validate(game: Context, action: AskSeer) -> Callable[[], None]:
    """Only the Seer's nominee, before today's round table; any other living contestant.

    Raises:
        IllegalAction: not the nominee now, or a target that cannot be chosen.
    """
    if game.phase is not Phase.NOMINEE or nominee_of(game, Twist.SEER) != action.seer:
        raise IllegalAction("illegal.seer.closed")
    target = game.players.get(action.target)
    if target is None or not target.alive or action.target == action.seer:
        raise IllegalAction("illegal.power.target", target=action.target)
    return lambda: _see(game, action.seer, action.target)


def _see(game: Context, seer: str, target: str) -> None:
    truth = game.players[target].allegiance
    allegiance = term("term.allegiance.a_traitor" if truth is Allegiance.TRAITOR else "term.allegiance.faithful")
    game.emit(GiveItem(frozenset({seer}), Item.SEER_BOOK, msg("seer.book.page", player=target, allegiance=allegiance)))
    game.whisper([seer], "result.seer", player=target, allegiance=allegiance)
    game.record.events.append(
        TwistRecord(game.day, Twist.SEER.value, {"seer": seer, "target": target, "allegiance": truth.value})
    )
    game.announce("seer.visited")
    finish_nominee(game)


INPUT_PHASES = frozenset({Phase.NOMINEE})
"""Phases in which ``legal_actions`` can offer an input (the nominee's question)."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """The Seer nominee's choices before the round table."""
    if game.phase is Phase.NOMINEE and nominee_of(game, Twist.SEER) == player:
        return [AskSeer(player, n) for n in game.living() if n != player]
    return []


MESSAGES: dict[str, str] = {
    "seer.nominee": "{player} was nominated at the host's visit and visits the Seer before the round table.",
    "seer.prompt": "The Seer: whose true allegiance does your seer book show?",
    "result.seer": "The seer book: {player} is {allegiance}.",
    "seer.book.page": "The Seer reveals:\n\n{player} is {allegiance}.",
    "seer.visited": "The Seer has been visited.",
    "illegal.seer.closed": "There is no seer book for you now.",
}
"""The Seer twist's messages: catalogue key → English (the registry adds them to ``engine.messages.CATALOG``)."""


SPEC = TwistSpec(
    KEY,
    "The Seer twist",
    inputs=(
        TwistInput(AskSeer, INPUT_PHASES, validate, "traitors.dialog.title.seer", trigger=InputTrigger("seer", "Seer")),
    ),
    input_phases=INPUT_PHASES,
    legal_actions=legal_actions,
    precondition=precondition,
    messages=MESSAGES,
)
"""The Seer twist's entry in the twists' registry (its nomination is the Guess twist's hooks)."""
