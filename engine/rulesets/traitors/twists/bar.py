"""The bar's drinks (rulebook §10: "drinks at the bar (once per series: Faithful Fancy or Traitors' Tipple; no
effect)"). Not a twist; kept with the twists because it is one of the castle's items.

Rule [house]: at breakfast or during discussion any living contestant may take one drink, once per series: a
Faithful Fancy or a Traitors' Tipple, whichever they like (``TakeDrink``; in the castle a trigger at the bar).
Either drink may be taken by anyone, so the name on the glass tells nothing. It has no effect. Glasses still
held when discussion ends are collected.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action, ByContestant
from engine.effects import GiveItem, TakeItem
from engine.errors import IllegalAction
from engine.ids import Drink
from engine.input_trigger import InputTrigger
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec
from engine.terms import term


@dataclass(frozen=True, slots=True)
class TakeDrink(ByContestant):
    """A contestant takes a drink at the bar (§10): once per series, either drink, no effect."""

    kind: ClassVar[str] = "take_drink"
    drink: Drink


BAR_PHASES = frozenset({Phase.BREAKFAST, Phase.DISCUSSION})
"""When the bar serves."""


def validate(game: Context, action: TakeDrink) -> Callable[[], None]:
    """Breakfast or discussion; once per series.

    Raises:
        IllegalAction: the bar is closed, or the contestant has had their drink.
    """
    if game.phase not in BAR_PHASES:
        raise IllegalAction("illegal.drink.closed")
    if action.contestant in game.twist_state.drinks:
        raise IllegalAction("illegal.drink.taken")

    def serve() -> None:
        game.twist_state.drinks.add(action.contestant)
        game.twist_state.glasses.append(action.drink.item)
        game.emit(GiveItem(frozenset({action.contestant}), action.drink.item, None))
        game.whisper([action.contestant], "drink.taken", drink=term(f"term.drink.{action.drink.value}"))

    return serve


def end_discussion(game: Context) -> None:
    """Glasses still held are collected when discussion ends: every glass handed out since the last collection
    (nothing else takes a glass back)."""
    handed, game.twist_state.glasses = game.twist_state.glasses, []
    for drink in Drink:
        if drink.item in handed:
            game.emit(TakeItem(drink.item, None))


INPUT_PHASES = BAR_PHASES
"""Phases in which ``legal_actions`` can offer an input (a drink)."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """The drinks ``player`` may still take at the bar."""
    if game.phase in BAR_PHASES and player not in game.twist_state.drinks:
        return [TakeDrink(player, d) for d in Drink]
    return []


MESSAGES: dict[str, str] = {
    "drink.taken": "You take a {drink}. It has no effect.",
    "illegal.drink.taken": "You have already had your drink in this series.",
    "illegal.drink.closed": "The bar serves at breakfast and during discussion.",
}
"""The bar's messages: catalogue key → English (the registry adds them to ``engine.messages.CATALOG``)."""


SPEC = TwistSpec(
    None,
    "The bar",
    inputs=(TwistInput(TakeDrink, INPUT_PHASES, validate, trigger=InputTrigger("drink", "Drink")),),
    input_phases=INPUT_PHASES,
    legal_actions=legal_actions,
    hooks={"end_discussion": end_discussion},
    messages=MESSAGES,
)
"""The bar's entry in the twists' registry: always on, never started by the host."""
