"""A bot that votes on suspicion: better than random at the rulebook's goals, from its own knowledge only.

What it learns comes from the messages its contestant was shown (``observe``) and its view; never from the
game state. It keeps, for every other contestant, a *suspicion* score (higher = more likely an enemy of the
good side) and a set of contestants it *knows* (a reveal, a murder, a Historian's or a Sheriff's answer):

- a murdered contestant was Faithful (the Traitors murder Faithful, rulebook §7.2);
- a banished contestant who reveals (rulebook §4) is known; voters who wrote a revealed Traitor's name are
  trusted a little more, voters who wrote a revealed Faithful's name or wrote some other name when a Traitor
  went are suspected a little more (Traitors spare each other);
- The Researcher (§5): a Traitor power among the two names makes the contestant suspect (one of the names is
  theirs); two Faithful names clear them;
- The Analyst (§5): "same"/"different" links two contestants; a link to someone known settles the other,
  "different" between two unknowns raises both;
- The Historian: the true power of the last removed contestant settles them; the Sheriff's accusation settles
  the accused.

A drunk bot believes false answers, as its contestant would (rulebook §2).

Faithful: vote for the most suspected candidate; use information powers on
the most suspected unknown contestant; protect the most trusted; accuse as The Sheriff only on strong evidence;
vote banish again in the finale while a finalist is still suspected.

Traitors: never vote against the evidence together: each votes for the most suspected
non-Traitor by the public evidence (with a little noise, so they do not pile onto one name), and gives up a
fellow Traitor only when the evidence against them is overwhelming; murder the Faithful most dangerous to them
(the most trusted, and those who voted against Traitors); follow a fellow Traitor's Turret pick; give the double
vote to a Traitor; always want the series to end in the finale. Smart Traitors who can weigh the public record
read how the Faithful vote first (``engine.bots.traitor_play``): they blend in where the Faithful's papers decide
the vote and write the likeliest Faithful together where they do not; they seduce after losing a fellow. A
Faithful offered to join the Traitors refuses, or, as the ``opportunist`` kind, answers to win
(``traitor_play.accepts_offer``); smart Faithful weigh the chance that someone was recruited
(``engine.bots.recruits``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engine.actions import (
    Action,
    AnswerJoker,
    AnswerOffer,
    AskRepeat,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    NominateDoubleVote,
    SkipPower,
    UsePower,
)
from engine.bots.belief import Event, Private, PublicBelief, advance
from engine.bots.recruits import recruit_chances
from engine.bots.traitor_play import VoteReading, accepts_offer, bloc_vote, consensus, seduce
from engine.ids import TRAITOR_POWERS, NightEvent, Torch
from engine.messages_terms import TERMS

A = TypeVar("A", bound=Action)
"""An input type (``_best`` returns one of the options it is given)."""

GOOD_SIDES = frozenset({"faithful"})
"""Sides that win by finding the hidden enemies (the others know their team; the club rulesets' smart bots are
``engine.bots.club``'s)."""

TRAITOR_TITLES = frozenset(p.title for p in TRAITOR_POWERS)
KNOWN = 10.0
"""Suspicion of a contestant known to be an enemy (minus for one known to be good)."""
NOISE = 0.35
"""Spread of the random tie-break added to every score."""
SHERIFF_BAR = 1.5
"""The suspicion a Sheriff wants before accusing (once per series; a failed accusation is wasted)."""
FINALE_BAR = -1.0
"""A Faithful finalist holds the banish-again torch while another finalist is not cleared (suspicion above
this): ending with an unknown finalist hands the series to any Traitor still there (rulebook §9)."""

VOTED_TRAITOR = -0.3
"""Suspicion change for a voter who wrote the name of a banished contestant revealed as a Traitor (a Traitor may
have given up a fellow, so it clears nobody)."""
VOTED_FAITHFUL = 0.5
"""Suspicion change for a voter who wrote the name of a banished contestant revealed as Faithful."""
SPARED_TRAITOR = 0.3
"""Suspicion change for a voter who wrote another name when a Traitor was banished."""
BUS_BAR = 0.2
"""A Traitor gives up a fellow Traitor who is the most publicly suspected candidate, at least this much."""
HEARD = frozenset(
    {
        "breakfast.murdered",
        "survivor.murdered",
        "vote.reveal",
        "vote.reveal.double",
        "vote.closed",
        "banish.reveal",
        "sheriff.success",
        "sheriff.failed",
        "result.researcher",
        "result.historian",
        "result.analyst.same",
        "result.analyst.different",
        "turret.choice",
        "offer.seduce",
        "offer.ultimatum",
        "night.home",
        "series.welcome",
        "series.drunk.none",
        "banish.result",
        "sword.murdered",
        "result.seer",
    }
)
"""Every message key ``SuspicionBot.observe`` learns from."""
A_TRAITOR = TERMS["term.allegiance.a_traitor"]
"""An allegiance as a message says it of a Traitor ("Kai was a Traitor")."""
PROTECTORS = frozenset({"The Guardian", "The Judge", "The Cleanser", "Healer", "Doctor"})

Params = dict[str, str]
PUBLIC_EVENTS: dict[str, Callable[[Params], tuple[Event, ...]]] = {
    "breakfast.murdered": lambda p: (("murdered", p["player"]),),
    "survivor.murdered": lambda p: (("murdered", p["player"]),),
    "sword.murdered": lambda p: (("murdered", p["player"]),),
    "vote.reveal": lambda p: (("paper", p["voter"], p["target"]),),
    "vote.reveal.double": lambda p: (("paper", p["voter"], p["target"]),),
    "vote.closed": lambda _p: (("closed",),),
    "banish.result": lambda p: (("left", p["player"]),),
    "banish.reveal": lambda p: (("revealed", p["player"], "1" if p["allegiance"] == A_TRAITOR else "0"),),
    "sheriff.success": lambda p: (("revealed", p["player"], "1"), ("left", p["player"])),
    "sheriff.failed": lambda p: (("sheriff_miss", p["player"]),),
}
"""Public message key → the events it adds to the record ``engine.bots.belief.PublicBelief`` weighs."""
PRIVATE_EVENTS: dict[str, Callable[[Params], tuple[str, str, str, bool]]] = {
    "result.researcher": lambda p: (
        "traitor",
        p["player"],
        "",
        p["first"] in TRAITOR_TITLES or p["second"] in TRAITOR_TITLES,
    ),
    "result.historian": lambda p: ("traitor", p["player"], "", p["power"] in TRAITOR_TITLES),
    "result.seer": lambda p: ("traitor", p["player"], "", p["allegiance"] == A_TRAITOR),
    "result.analyst.same": lambda p: ("same", p["first"], p["second"], True),
    "result.analyst.different": lambda p: ("same", p["first"], p["second"], False),
}
"""Private answer key → (``traitor``, name, "", is a Traitor) or (``same``, first, second, same side)."""
TRUST_SOBER = 0.93
"""How far a power's answer is trusted when nobody is drunk in the series (The Falsifier may still lie)."""
TRUST_DRUNK = 0.8
"""... when a Faithful may be drunk (the answer may be the drunk's false one, rulebook §2)."""
ACCUSE_AT = 0.8
"""The Sheriff accuses a contestant whose chance of being a Traitor is at least this (a miss is wasted)."""
END_AT = 0.97
"""A Faithful finalist lights the end-game torch only when the other finalists are all Faithful with at least this
chance: another banishment costs the Faithful nothing when none is left (rulebook §9)."""
TIE_NOISE = 0.01
"""Choices from chances add noise of at most this much per option (``NOISE`` scaled), so only near-ties differ."""
BLEND = True
"""Traitors who can weigh the public record vote as a Faithful following it would (``SuspicionBot._blend``)."""
_ROOTS: dict[tuple[tuple[str, ...], int], PublicBelief] = {}


def _either(p: dict[str, float], r: dict[str, float], who: str) -> float:
    """The chance ``who`` is a Traitor: dealt one (``p``) or recruited since (``r``, ``engine.bots.recruits``)."""
    dealt = p.get(who, 0.0)
    return dealt + (1.0 - dealt) * r.get(who, 0.0)


class SuspicionBot:
    """A contestant that reasons from what it was told (see the module docstring).

    Args:
        name: the contestant.
        rng: its own generator (seeded by the caller).
    """

    needs_view = True
    hears = HEARD
    joins_to_win = False
    """A Faithful offered to join the Traitors refuses (plays for its side); ``True`` in the ``opportunist`` kind:
    it answers to win (``engine.bots.traitor_play.accepts_offer``)."""

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng
        self.known: dict[str, bool] = {}
        """Contestant → True if known to be an enemy of the good side, False if known good."""
        self.score: dict[str, float] = {}
        """Contestant → suspicion from soft evidence (public: votes; private: power answers)."""
        self.public: dict[str, float] = {}
        """Contestant → suspicion from public evidence only (what a Traitor expects the Faithful to think)."""
        self.links: list[tuple[str, str, bool]] = []
        """Analyst answers: (first, second, same allegiance)."""
        self.ballot: list[tuple[str, str]] = []
        """The last vote's revealed papers: (voter, name written)."""
        self.history: list[tuple[str, str]] = []
        """Every revealed paper of the series."""
        self._new_ballot = True
        self.turret_pick: tuple[str, str] | None = None
        """A fellow Traitor's Turret pick tonight: (event, target)."""
        self.offer: str | None = None
        """The last offer made to the contestant (``offer.seduce`` or ``offer.ultimatum``)."""
        self.k = 0
        """How many Traitors the welcome announced (0: not told; a club ruleset)."""
        self.trust = TRUST_DRUNK
        self.record: list[Event] = []
        """The public record so far (``PUBLIC_EVENTS``)."""
        self.answers: list[tuple[str, str, str, bool]] = []
        """Private power answers (``PRIVATE_EVENTS``)."""
        self.node: PublicBelief | None = None
        self._applied = 0
        self.p: dict[str, float] | None = None
        """At a Faithful's choice: contestant → chance they were dealt Traitor (``engine.bots.belief``)."""
        self.reading = VoteReading()
        """Each vote's consensus, to read how the others' papers follow the evidence (``engine.bots.traitor_play``)."""

    # ------------------------------------------------------------------ learning

    def _bump(self, who: str, by: float, public: bool = True) -> None:
        self.score[who] = self.score.get(who, 0.0) + by
        if public:
            self.public[who] = self.public.get(who, 0.0) + by

    def observe(self, key: str, params: tuple[tuple[str, str], ...]) -> None:  # noqa: C901 - one branch per message key
        """Learn from one message shown to the contestant (see the module docstring)."""
        p = dict(params)
        public = PUBLIC_EVENTS.get(key)
        if public is not None:
            self.record.extend(public(p))
        elif key in PRIVATE_EVENTS:
            self.answers.append(PRIVATE_EVENTS[key](p))
        elif key == "series.welcome":
            self.k = int(p["traitors"])
        elif key == "series.drunk.none":
            self.trust = TRUST_SOBER
        if key in ("breakfast.murdered", "survivor.murdered"):
            self.known[p["player"]] = False
        elif key in ("vote.reveal", "vote.reveal.double"):
            if self._new_ballot:
                self.ballot, self._new_ballot = [], False
            self.ballot.append((p["voter"], p["target"]))
            self.history.append((p["voter"], p["target"]))
        elif key == "vote.closed":
            self._new_ballot = True
        elif key == "banish.reveal":
            self._revealed(p["player"], p["allegiance"] == A_TRAITOR)
        elif key == "sheriff.success":
            self._revealed(p["player"], True)
        elif key == "sheriff.failed":
            self._bump(p["player"], -3.0)
        elif key == "result.researcher":
            if p["first"] in TRAITOR_TITLES or p["second"] in TRAITOR_TITLES:
                self._bump(p["player"], 2.0, public=False)
            else:
                self._bump(p["player"], -3.0, public=False)
        elif key == "result.historian":
            self.known.setdefault(p["player"], p["power"] in TRAITOR_TITLES)
        elif key in ("result.analyst.same", "result.analyst.different"):
            self.links.append((p["first"], p["second"], key.endswith("same")))
        elif key == "turret.choice":
            if p["traitor"] != self.name:
                self.turret_pick = (p["event"], p["target"])
        elif key in ("offer.seduce", "offer.ultimatum"):
            self.offer = key
        elif key == "night.home":
            self.turret_pick = None

    def _revealed(self, who: str, enemy: bool) -> None:
        self.known[who] = enemy
        for voter, target in self.ballot:
            if target == who:
                self._bump(voter, VOTED_TRAITOR if enemy else VOTED_FAITHFUL)
            elif enemy:
                self._bump(voter, SPARED_TRAITOR)

    def suspicion(self, who: str, *, public_only: bool = False) -> float:
        """How strongly ``who`` is suspected (``KNOWN`` when known to be an enemy, ``-KNOWN`` when known good)."""
        if who in self.known:
            return KNOWN if self.known[who] else -KNOWN
        s = (self.public if public_only else self.score).get(who, 0.0)
        if not public_only:
            for a, b, same in self.links:
                if who not in (a, b):
                    continue
                other = b if who == a else a
                if other in self.known:
                    enemy = self.known[other] if same else not self.known[other]
                    s += 5.0 if enemy else -5.0
                elif not same:
                    s += 0.8
                else:
                    s -= 0.3
        return s

    def public_belief(self, view: Any) -> PublicBelief | None:
        """The public record weighed (``engine.bots.belief``), or ``None`` when the Traitors' number is unknown."""
        if not self.k:
            return None
        node = self.node
        if node is None:
            names = tuple(n for n, _ in sorted(view.public.seats, key=lambda s: s[1]))
            if self.k >= len(names):
                return None
            key = (names, self.k)
            node = _ROOTS.get(key) or _ROOTS.setdefault(key, PublicBelief.root(names, self.k))
        for event in self.record[self._applied :]:
            node = advance(node, event)
        self.node, self._applied = node, len(self.record)
        return node

    def _private(self, node: PublicBelief) -> Private:
        private = Private()
        for kind, first, second, flag in self.answers:
            if kind == "traitor":
                private.is_traitor(node.h, first, flag, self.trust)
            else:
                private.same_side(node.h, first, second, flag, self.trust)
        return private

    def _chances(self, view: Any) -> dict[str, float] | None:
        """A Faithful's chance per contestant of having been dealt Traitor, from all it was told."""
        node = self.public_belief(view)
        if node is None:
            return None
        me = node.h.index.get(self.name)
        p = node.marginals(0 if me is None else 1 << me, self._private(node))
        return dict(zip(node.h.names, p, strict=True))

    def _clean(self, view: Any, others: Sequence[str]) -> float:
        """The chance that none of ``others`` was dealt Traitor (a Faithful's view)."""
        node = self.public_belief(view)
        if node is None:
            return 0.0
        idx = node.h.index
        me = idx.get(self.name)
        mask = sum(1 << idx[n] for n in others if n in idx)
        return node.chance_none(mask, 0 if me is None else 1 << me, self._private(node))

    # ------------------------------------------------------------------ choosing

    def choose(self, view: Any, legal: Sequence[Action]) -> Action | None:
        """Pick one of ``legal`` (see the module docstring).

        Args:
            view: the contestant's ``PlayerView``.
            legal: the contestant's legal inputs (not empty).

        Returns:
            One action of ``legal``.
        """
        good = view.allegiance in GOOD_SIDES
        fellows = set(view.traitors) | ({self.name} if not good else set())
        self.p = self._chances(view) if good else None
        if not good and self.k and BLEND:
            self.public_belief(view)
        first = legal[0]
        if isinstance(first, (CastVote, KeepEveryone)):
            return self._vote(view, legal, good, fellows)
        if isinstance(first, ChooseTorch):
            return self._torch(view, legal, good)
        if isinstance(first, (ChooseEvent, NominateDoubleVote)):
            return self._turret(legal, fellows)
        if isinstance(first, (UsePower, SkipPower)):
            return self._power(view, legal, good, fellows)
        if isinstance(first, (NominateCandidate, HoldBack)):
            noms = [a for a in legal if isinstance(a, NominateCandidate) and a.target not in fellows]
            return self._best(noms, lambda a: self._rank(a.target, good)) if noms else legal[-1]
        if isinstance(first, AnswerOffer):
            want = not good or accepts_offer(
                self.offer == "offer.ultimatum", self.p, view.public.in_castle, self.name, to_win=self.joins_to_win
            )
            return next((a for a in legal if isinstance(a, AnswerOffer) and a.accept is want), first)
        if isinstance(first, AnswerJoker):
            want = self.rng.random() < 0.2
            return next((a for a in legal if isinstance(a, AnswerJoker) and a.accept is want), first)
        if isinstance(first, AskRepeat):
            return self.rng.choice(list(legal))
        return self.rng.choice(list(legal))

    def _noise(self) -> float:
        return self.rng.random() * NOISE

    def _best(self, options: Sequence[A], key: Callable[[A], float]) -> A:
        """The option with the highest ``key`` plus noise (the noise is drawn for every option, in order)."""
        return options[self._argmax([key(a) + self._noise() for a in options])]

    @staticmethod
    def _argmax(values: Sequence[float]) -> int:
        best = 0
        for i, v in enumerate(values):
            if v > values[best]:
                best = i
        return best

    def _rank(self, who: str, good: bool) -> float:
        """How much a good contestant wants ``who`` gone; for an evil one, what the public thinks of ``who``."""
        return self.suspicion(who, public_only=not good)

    def _threat(self, who: str, fellows: set[str]) -> float:
        """How dangerous a good contestant is to the Traitors: trusted, and voting against them."""
        against = sum(1 for voter, target in self.history if voter == who and target in fellows)
        return -self.suspicion(who, public_only=True) + 0.8 * against

    def _vote(self, view: Any, legal: Sequence[Action], good: bool, fellows: set[str]) -> Action:
        votes = [a for a in legal if isinstance(a, CastVote)]
        if not votes:
            return legal[0]
        if good:
            p = self.p
            if p is not None and self.node is not None:  # the most likely Traitor; the noise only breaks near-ties
                lead, distinct = consensus(self.node)
                self.reading.note_vote(len(self.history), lead, distinct, view.public.day)
                r = recruit_chances(
                    view.public, self.k, p, self.reading, self.history, self.name, others_join=self.joins_to_win
                )
                return self._best(votes, lambda a: _either(p, r, a.target) / TIE_NOISE)
            return self._best(votes, lambda a: self.suspicion(a.target))
        if self.node is not None and BLEND:
            return self._blend(view, votes, fellows)
        # Traitors: give up a fellow Traitor the public evidence points at most (sparing them would single out
        # every Traitor who voted elsewhere when they go); otherwise spread over the non-Traitors, never all
        # together against the evidence.
        public = {a.target: self.suspicion(a.target, public_only=True) for a in votes}
        others = [a for a in votes if a.target not in fellows]
        top = max(public.values())
        doomed = [a for a in votes if a.target in fellows and public[a.target] >= top and top >= BUS_BAR]
        if doomed or not others:
            return (doomed or votes)[0]
        return self.rng.choice(others)

    def _blend(self, view: Any, votes: Sequence[CastVote], fellows: set[str]) -> Action:
        """A Traitor reads how the Faithful vote and writes with its fellows as a bloc, giving up a fellow only
        when the Faithful's papers will banish them anyway (``engine.bots.traitor_play.bloc_vote``)."""
        node = self.public_belief(None)
        assert node is not None
        return bloc_vote(self.reading, node, votes, fellows, self.name, view.public.in_castle, self.history)

    def _torch(self, view: Any, legal: Sequence[Action], good: bool) -> Action:
        want = Torch.END_GAME
        if good:
            finalists = [n for n in view.public.in_castle if n != self.name]
            if self.p is not None:
                r = recruit_chances(
                    view.public, self.k, self.p, self.reading, self.history, self.name, others_join=self.joins_to_win
                )
                if self._clean(view, finalists) * math.prod(1.0 - r.get(n, 0.0) for n in finalists) < END_AT:
                    want = Torch.BANISH_AGAIN
            elif any(self.suspicion(n) > FINALE_BAR for n in finalists):
                want = Torch.BANISH_AGAIN
        return next((a for a in legal if isinstance(a, ChooseTorch) and a.torch is want), legal[0])

    def _turret(self, legal: Sequence[Action], fellows: set[str]) -> Action:
        events = [a for a in legal if isinstance(a, ChooseEvent)]
        if events:
            if self.turret_pick is not None:
                ev, target = self.turret_pick
                same = [a for a in events if a.event.value == ev and a.target == target]
                if same:
                    return same[0]
            murders = [a for a in events if a.event is NightEvent.MURDER and a.target not in fellows]
            if murders and not seduce(events, self.node, fellows, self.k):
                return self._best(murders, lambda a: self._threat(a.target, fellows))
            # an ultimatum or a seduction: offer it to the most trusted contestant (a trusted recruit hides best)
            offers = [a for a in events if a.event is not NightEvent.MURDER and a.target not in fellows]
            return self._best(offers or events, lambda a: self._threat(a.target, fellows))
        noms = [a for a in legal if isinstance(a, NominateDoubleVote)]
        mine = [a for a in noms if a.target in fellows]
        return self.rng.choice(mine or noms)

    def _power(self, view: Any, legal: Sequence[Action], good: bool, fellows: set[str]) -> Action:
        uses = [a for a in legal if isinstance(a, UsePower)]
        skip = next((a for a in legal if isinstance(a, SkipPower)), None)
        if not uses:
            return skip or legal[0]
        power = view.power or ""
        if not good:
            enemies = [a for a in uses if a.target not in fellows]
            if power == "The Falsifier":
                suspected = [
                    a for a in uses if a.target in fellows and self.suspicion(a.target, public_only=True) > 0.5
                ]
                if suspected:
                    return self._best(suspected, lambda a: self.suspicion(a.target, public_only=True))
            pool = enemies or uses
            return self._best(pool, lambda a: self._threat(a.target, fellows))
        p = self.p
        if p is not None:
            return self._informed_power(power, uses, skip, p)
        if power in PROTECTORS:
            return self._best(uses, lambda a: -self.suspicion(a.target) + (0.5 if a.target == self.name else 0.0))
        if power == "The Sheriff":
            best = self._best(uses, lambda a: self.suspicion(a.target))
            return best if self.suspicion(best.target) >= SHERIFF_BAR else (skip or best)

        def unknown(a: Action) -> float:
            names = [a.target] + ([a.second] if a.second else [])  # type: ignore[attr-defined]
            # Ask about contestants not yet settled; the most suspected first.
            return sum(-20.0 if n in self.known or n == self.name else self.suspicion(n) for n in names)

        return self._best(uses, unknown)

    def _informed_power(self, power: str, uses: Sequence[UsePower], skip: Action | None, p: dict[str, float]) -> Action:
        """A Faithful's power from its chances: protect the likeliest Faithful (itself a little first), accuse as
        The Sheriff only a likely Traitor, ask about the contestants it is least sure of, the suspected first."""
        if power in PROTECTORS:
            return self._best(uses, lambda a: (1.0 - p.get(a.target, 0.0)) / TIE_NOISE + (a.target == self.name))
        if power == "The Sheriff":
            best = self._best(uses, lambda a: p.get(a.target, 0.0) / TIE_NOISE)
            return best if p.get(best.target, 0.0) >= ACCUSE_AT else (skip or best)

        def worth(a: UsePower) -> float:
            names = [a.target] + ([a.second] if a.second else [])
            return (
                sum(
                    -1.0 if n == self.name else min(p.get(n, 0.0), 1.0 - p.get(n, 0.0)) + p.get(n, 0.0) / 2
                    for n in names
                )
                / TIE_NOISE
            )

        return self._best(uses, worth)


__all__ = ["GOOD_SIDES", "SuspicionBot"]
