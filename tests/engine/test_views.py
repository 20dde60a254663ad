"""The lazy view the balance lab hands a bot (engine/views.py ``LazyView``): the same fields as ``view_for``."""

from __future__ import annotations

import pytest

from engine.ids import Twist
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import Settings
from engine.sim import play_series

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
SETTINGS = {
    "traitors": Settings(contestants=NAMES, traitors=3, drunk="possible", twists={1: (Twist.DOUBLE_VOTE,)}),
    "black_knights": ClubSettings("black_knights", NAMES[:11]),
    "mafia_yakuza": ClubSettings("mafia_yakuza", NAMES),
}


@pytest.mark.parametrize("ruleset", sorted(SETTINGS))
def test_every_field_equals_view_for_all_through_a_series(ruleset):
    settings = SETTINGS[ruleset]
    finished, _ = play_series(settings, 4)
    log = list(finished.log)
    for cut in range(1, len(log) + 1, 15):  # points all through the series: nights, votes, the finale
        game = type(finished).replay(settings, 4, log[:cut])
        for name in game.contestants():
            assert game.lazy_view(name).full() == game.view_for(name)
    assert game.lazy_view(NAMES[0]).full().messages  # the parts do run: the inbox is read through them


def test_a_closed_view_keeps_what_was_read_and_refuses_the_rest():
    game, _ = play_series(SETTINGS["traitors"], 2)
    view = game.lazy_view("Alex")
    allegiance = view.allegiance
    view.close()
    assert view.allegiance == allegiance == game.view_for("Alex").allegiance
    with pytest.raises(RuntimeError, match="messages"):
        view.messages  # noqa: B018
    with pytest.raises(AttributeError):
        view.seed  # noqa: B018 - not a field of a view: the game's secrets have no name here
    with pytest.raises(KeyError):
        game.lazy_view("Nobody")
