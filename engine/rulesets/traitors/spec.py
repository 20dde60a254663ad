"""The Traitors' registry entry (``engine.rulesets.RULESETS``; ``engine.core.ruleset.Ruleset``)."""

from __future__ import annotations

from engine.core.ruleset import Ruleset
from engine.ids import Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import SIZES, Settings
from engine.rulesets.traitors.settings_form import FORM

RULESET = Ruleset(
    name="traitors",
    title="The Traitors",
    game=Game,
    settings=Settings,
    rulebook="traitors.md",
    family="traitors",
    sizes=SIZES,
    hand=("Allegiance", "Power"),
    survivor="Finalist",
    columns=(
        ("Round tables", "round_tables"),
        ("Votes cast", "votes_cast"),
        ("Votes for a Traitor", "votes_for_traitors"),
        ("Votes received", "votes_received"),
    ),
    form=FORM,
    castle_places=("seats", "homes", "breakfast"),
    twists=tuple(t.value for t in Twist),
)
"""The Traitors: a record's hand is the allegiance and power, a contestant still in at the end is a finalist, the
summary counts round tables attended, votes cast, votes naming a Traitor and votes received; every contestant has
a place at the breakfast table (rulebook §10); the host may start every twist of rulebook §8."""

__all__ = ["RULESET"]
