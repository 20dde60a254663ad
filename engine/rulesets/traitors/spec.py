"""The Traitors' registry entry (``engine.rulesets.RULESETS``; ``engine.core.ruleset.Ruleset``)."""

from __future__ import annotations

import dataclasses
import itertools

from engine.core.knobs import BalanceKnobs, Knobs, on_off
from engine.core.ruleset import Ruleset
from engine.ids import Twist
from engine.rulesets.traitors import powers, twists
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import SIZES, Settings
from engine.rulesets.traitors.settings_form import FORM


def balance_setups(base: Settings, n: int) -> list[tuple[Knobs, Settings]]:
    """The balance lab's setups for ``n`` contestants (rulebook §1, §2, §6, §7, §8): the number of Traitors (1 to
    fewer than a third of the contestants; the settings also allow exactly a third, which the search leaves
    out), drunk (``none``/``possible``/``always``; with powers off nobody can be drunk), the Joker offered on
    night 2 or not, the Double Vote on day one or not, a murder on the first night or not; ``base`` with only
    those changed."""
    out: list[tuple[Knobs, Settings]] = []
    for t, drunk, joker, dv, fnm in itertools.product(
        range(1, (n - 1) // 3 + 1), ("none", "possible", "always"), (True, False), (True, False), (False, True)
    ):
        if drunk != "none" and not base.powers:
            continue
        s = dataclasses.replace(
            base,
            traitors=t,
            drunk=drunk,
            joker_night=2 if joker else None,
            twists={1: (Twist.DOUBLE_VOTE,)} if dv else {},
            first_night_murder=fnm,
        )
        knobs = (
            ("traitors", str(t)),
            ("drunk", drunk),
            ("joker", on_off(joker)),
            ("double_vote", on_off(dv)),
            ("first_night_murder", on_off(fnm)),
        )
        out.append((knobs, s))
    return out


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
    good_side="faithful",
    rule_text="traitors-rulebook.txt",
    rule_id=r"T\d+\.\d+",
    powers=powers,
    balance=BalanceKnobs(balance_setups, "traitors", "number of Traitors", evil_sides=("traitors",)),
    twist_table=twists,
    console_phases={
        "open_round_table": Phase.DISCUSSION,
        "open_vote": Phase.ROUND_TABLE,
        "close_vote": Phase.VOTE,
        "ask_happy": Phase.TORCHES,
        "lock_torches": Phase.TORCHES,
    },
)
"""The Traitors: a record's hand is the allegiance and power, a contestant still in at the end is a finalist, the
summary counts round tables attended, votes cast, votes naming a Traitor and votes received; every contestant has
a place at the breakfast table (rulebook §10); the host may start every twist of rulebook §8; the Faithful find the hidden Traitors; the
balance lab counts the Traitors' wins (not the Joker's, who wins alone, rulebook §6) as the evil side's."""

__all__ = ["RULESET"]
