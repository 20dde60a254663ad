"""Bot contestants: choose legal inputs, for the demo and the balance lab (``engine/sim.py``).

A bot sees only what its contestant may know: its ``PlayerView``, its legal inputs and the messages addressed to
it (``observe``: private whispers to it and public announcements, as the bridge would show them). A bot never
looks at the game state.

Kinds (``BOTS``):
    random  uniform among the legal inputs.
    simple  ``choose`` below: a sworn Traitor never votes for a fellow Traitor; finalists' torches by chance.
    smart   ``engine.bots.suspicion.SuspicionBot``: Faithful weigh every possible set of Traitors by what they were
            told (``engine.bots.belief``: murders, reveals, the open vote, their power answers); Traitors vote
            with the public evidence. In a club series ``engine.bots.club.ClubBot``: the good side weighs every
            possible set of enemies the same way (turned cards, night kills, votes, its checks); the evil teams
            hide among what the town thinks.
    opportunist  ``OpportunistBot``: the smart kind, but a Faithful offered to join the Traitors answers to win
            (accepts an ultimatum, and a seduction unless it can name the Traitors left) instead of refusing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.actions import Action, CastVote, ChooseEvent, ChooseTorch, NominateDoubleVote
from engine.bots.club import ClubBot, vocabulary
from engine.bots.suspicion import HEARD, SuspicionBot
from engine.ids import Torch
from engine.rulesets import RULESETS
from engine.views import PlayerView


def choose(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """Pick one of ``legal`` for the contestant whose view is ``view``.

    Simple heuristics: a Traitor who knows the other Traitors never votes for one of them while it has
    another choice; a Faithful finalist holds the end-game torch only when the other finalists have all been
    at the table long enough to trust (here: by chance, 60 %); a Traitor finalist always wants to end.

    Args:
        view: the contestant's view (allow-listed).
        legal: ``Game.legal_actions`` for that contestant.
        rng: the bot's own generator (seeded by the caller).

    Returns:
        One action from ``legal``, or ``None`` when ``legal`` is empty.
    """
    if not legal:
        return None
    options = list(legal)
    fellows = set(view.traitors)
    votes = [a for a in options if isinstance(a, CastVote)]
    if votes:
        safe = [a for a in votes if a.target not in fellows] or votes
        return rng.choice(safe)
    torches = [a for a in options if isinstance(a, ChooseTorch)]
    if torches:
        want = Torch.END_GAME if view.allegiance == "traitor" or rng.random() < 0.6 else Torch.BANISH_AGAIN
        pick = [a for a in torches if a.torch is want]
        return pick[0] if pick else None
    events = [a for a in options if isinstance(a, ChooseEvent)]
    if events:
        return rng.choice(events)
    noms = [a for a in options if isinstance(a, NominateDoubleVote)]
    if noms:
        return rng.choice(noms)
    return rng.choice(options)


class Bot(Protocol):
    """What the simulator asks of a bot (``engine/sim.py``)."""

    needs_view: bool
    """Whether ``choose`` reads its view (the simulator hands a view only to bots that do: an
    ``engine.views.LazyView``, with every field of ``PlayerView``, readable while ``choose`` runs)."""
    hears: frozenset[str]
    """The message keys ``observe`` learns from (the simulator hands a bot only those; empty: none)."""

    def observe(self, key: str, params: tuple[tuple[str, str], ...]) -> None:
        """A message the contestant was shown: its catalogue key and parameters."""

    def choose(self, view: Any, legal: Sequence[Action]) -> Action | None:
        """One of ``legal`` (never empty), or ``None`` to do nothing. ``view`` is the contestant's ``PlayerView``
        or a ``LazyView`` of it (the same fields; keep values read from it, not the view: a field first read after
        ``choose`` returns raises ``RuntimeError``), or ``None`` for a bot that does not need one."""


class RandomBot:
    """Uniform among the legal inputs; learns nothing."""

    needs_view = False
    hears: frozenset[str] = frozenset()

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng
        self._bits = rng.getrandbits

    def observe(self, key: str, params: tuple[tuple[str, str], ...]) -> None:
        """Ignored."""

    def choose(self, _view: Any, legal: Sequence[Action]) -> Action | None:
        """A uniform pick: the same draw as ``self.rng.choice(legal)`` (CPython's ``Random.choice``: ``k`` random
        bits, ``k`` the bit length of ``len(legal)``, drawn again until below it), made here in one call instead
        of three (the balance lab asks a random bot about a hundred times a series)."""
        n = len(legal)
        if not n:
            return None
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return legal[r]


class SimpleBot(RandomBot):
    """``choose`` above (Traitors spare each other at the vote)."""

    needs_view = True

    def choose(self, view: Any, legal: Sequence[Action]) -> Action | None:
        """``choose(view, legal, rng)``."""
        return choose(view, legal, self.rng)


class SmartBot(SuspicionBot):
    """The smart kind for a caller that does not say the ruleset: a ``SuspicionBot`` (the Traitors) that hands a
    club series to a ``ClubBot`` once it hears the series' welcome (said before anyone chooses)."""

    def __init__(self, name: str, rng: random.Random) -> None:
        super().__init__(name, rng)
        self.club: ClubBot | None = None
        self.welcomes = vocabulary().welcomes
        self.hears = HEARD | vocabulary().heard
        """The Traitors' keys and every registered club ruleset's (``engine.bots.club.Vocabulary.heard``)."""

    def observe(self, key: str, params: tuple[tuple[str, str], ...]) -> None:
        """``ClubBot.observe`` from a club welcome on, ``SuspicionBot.observe`` before (its keys only)."""
        if self.club is None and key in self.welcomes:
            self.club = ClubBot(self.name, self.rng)
        if self.club is not None:
            self.club.observe(key, params)
        elif key in HEARD:
            super().observe(key, params)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action | None:
        """The club bot's choice in a club series, else ``SuspicionBot.choose``."""
        if self.club is not None:
            return self.club.choose(view, legal)
        return super().choose(view, legal)


class OpportunistBot(SmartBot):
    """The smart kind, but a Faithful offered to join the Traitors (rulebook §7.2) answers as a contestant who wants
    to win rather than for its side (``engine.bots.traitor_play.accepts_offer``). The club rulesets make no
    offers: there it is the smart kind."""

    joins_to_win = True


class _OpportunistTraitors(SuspicionBot):
    """``OpportunistBot`` for a caller that says the ruleset is ``traitors``."""

    joins_to_win = True


BOTS: dict[str, Any] = {"random": RandomBot, "simple": SimpleBot, "smart": SmartBot, "opportunist": OpportunistBot}
"""Bot kinds by name: ``kind(name, rng) -> Bot``."""
OWN_GAME: dict[str, Callable[[str, random.Random], Bot]] = {"smart": SuspicionBot, "opportunist": _OpportunistTraitors}
"""Kind → its bot for a ruleset with a game of its own (The Traitors), for the kinds that play each ruleset with a
bot of its own; in a club ruleset (a registry entry with a rules table) these kinds are ``ClubBot``."""


def make_bot(kind: str, name: str, rng: random.Random, *, ruleset: str | None = None) -> Bot:
    """A new bot of ``kind`` for contestant ``name``.

    Args:
        kind: a key of ``BOTS``.
        name: the contestant.
        rng: the bot's own generator (seeded by the caller).
        ruleset: the series' ruleset (``engine.rulesets.RULESETS`` key): for a kind of ``OWN_GAME``, its bot
            for that ruleset (``ClubBot`` in a club ruleset); ``None``: ``BOTS[kind]`` (the smart kind's
            ``SmartBot`` tells the ruleset from the series' welcome).

    Raises:
        KeyError: an unknown kind (``BOTS`` lists them) or ruleset.
    """
    if ruleset is not None and kind in OWN_GAME:
        if RULESETS[ruleset].rules is not None:
            return ClubBot(name, rng, ruleset)
        return OWN_GAME[kind](name, rng)
    bot: Bot = BOTS[kind](name, rng)
    return bot


__all__ = ["BOTS", "OWN_GAME", "Bot", "OpportunistBot", "RandomBot", "SimpleBot", "SmartBot", "choose", "make_bot"]
