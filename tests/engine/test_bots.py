"""The smart bots (engine/bots/suspicion.py) play the rulebook's goals better than random bots.

Fixed seeds and wide margins: each comparison plays the same 240 series seeds both ways; the margins asserted are
several standard errors (about 0.03 per rate at 240 series) below the differences measured (docs/simulate.md).
"""

from __future__ import annotations

import functools

from engine.actions import CastVote
from engine.bots import make_bot
from engine.bots.suspicion import SuspicionBot
from engine.ids import Twist
from engine.rulesets.traitors.settings import Settings
from engine.sim import series_seeds, simulate

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
SETTINGS = Settings(contestants=NAMES, traitors=3, drunk="possible", twists={1: (Twist.DOUBLE_VOTE,)})
SEEDS = series_seeds(7, 240)


@functools.cache
def _wins(faithful: str, traitor: str) -> dict[str, int]:
    return simulate(SETTINGS, SEEDS, bots={"faithful": faithful, "traitor": traitor}).wins


def rate(bots: dict[str, str], side: str) -> float:
    return _wins(bots["faithful"], bots["traitor"]).get(side, 0) / len(SEEDS)


def test_smart_faithful_win_more_against_random_traitors():
    random_faithful = rate({"faithful": "random", "traitor": "random"}, "faithful")
    smart_faithful = rate({"faithful": "smart", "traitor": "random"}, "faithful")
    assert smart_faithful >= random_faithful + 0.08, (random_faithful, smart_faithful)


def test_smart_traitors_win_more_against_smart_faithful():
    random_traitors = rate({"faithful": "smart", "traitor": "random"}, "traitors")
    smart_traitors = rate({"faithful": "smart", "traitor": "smart"}, "traitors")
    assert smart_traitors >= random_traitors + 0.15, (random_traitors, smart_traitors)


class View:
    """A minimal stand-in for ``PlayerView`` with what the bot reads."""

    def __init__(self, name: str, allegiance: str, traitors: tuple[str, ...] = (), power: str | None = None):
        self.name, self.allegiance, self.traitors, self.power = name, allegiance, traitors, power


def bot(name: str = "Alex") -> SuspicionBot:
    import random

    b = make_bot("smart", name, random.Random(1))
    assert isinstance(b, SuspicionBot)
    return b


def told(b: SuspicionBot, key: str, **params: str) -> None:
    b.observe(key, tuple(params.items()))


def test_a_faithful_votes_for_the_contestant_a_researcher_answer_exposes():
    b = bot()
    told(b, "result.researcher", player="Kai", first="The Analyst", second="The Silencer")
    told(b, "result.researcher", player="Zuri", first="The Spy", second="The Judge")
    legal = [CastVote("Alex", n) for n in ("Kai", "Zuri", "Steve", "Ari")]
    assert b.choose(View("Alex", "faithful"), legal) == CastVote("Alex", "Kai")


def test_murdered_and_revealed_contestants_are_known():
    b = bot()
    told(b, "breakfast.murdered", player="Kai")
    told(b, "vote.reveal", voter="Zuri", target="Steve")
    told(b, "vote.reveal", voter="Ari", target="Noor")
    told(b, "vote.closed")
    told(b, "banish.reveal", player="Steve", allegiance="a Traitor")
    assert b.suspicion("Kai") < 0 < b.suspicion("Steve")
    # Ari wrote another name when a Traitor went: a little suspect; Zuri wrote the Traitor's name.
    assert b.suspicion("Ari") > b.suspicion("Zuri")


def test_analyst_link_to_a_known_traitor_settles_the_other():
    b = bot()
    told(b, "result.analyst.same", first="Kai", second="Zuri")
    told(b, "banish.reveal", player="Kai", allegiance="a Traitor")
    assert b.suspicion("Zuri") >= 5


def test_a_traitor_never_votes_for_a_fellow_the_evidence_spares():
    b = bot("Sunny")
    legal = [CastVote("Sunny", n) for n in ("Efe", "Kai", "Zuri")]
    view = View("Sunny", "traitor", traitors=("Efe",))
    for _ in range(30):
        assert b.choose(view, legal).target != "Efe"


def test_a_traitor_gives_up_a_fellow_the_public_suspects_most():
    b = bot("Sunny")
    told(b, "vote.reveal", voter="Efe", target="Kai")
    told(b, "vote.closed")
    told(b, "banish.reveal", player="Kai", allegiance="Faithful")  # Efe voted out a Faithful: suspect
    legal = [CastVote("Sunny", n) for n in ("Efe", "Zuri", "Steve")]
    assert b.choose(View("Sunny", "traitor", traitors=("Efe",)), legal) == CastVote("Sunny", "Efe")


def test_a_random_bot_draws_what_random_choice_would():
    """``RandomBot.choose`` is ``rng.choice(legal)`` made in one call: the same pick from the same generator state
    for every list length (powers of two and their neighbours, where the redraw loop runs), and ``None`` for no
    input. The balance lab's series depend on it: a different draw would change every simulated series."""
    import random

    bot = make_bot("random", "Alex", random.Random("7:Alex"))
    twin = random.Random("7:Alex")
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100] * 40:
        legal = [CastVote("Alex", f"T{i}") for i in range(n)]
        assert bot.choose(None, legal) is twin.choice(legal)
    assert bot.choose(None, []) is None
