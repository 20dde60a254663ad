"""The club rulesets' smart bots (Black Knights, Mafia & Yakuza): a counting town side and evil teams that hide
in it.

A good contestant (the White Order, the town) counts as the Traitors' counting Faithful do
(``engine.bots.belief``): the number of enemies is known, from the host naming every role on the first night
(Mafia & Yakuza, "Game flow") or from the rulebook's deal for the number of contestants (Black Knights, "Roles":
setting ``deal``), so the bot keeps a weight for every possible set of enemies (the Black Order and the Mad
Knight; the Mafia, the Yakuza and the Loners) and weighs each by what it was told:

- a turned card (Black Knights, "Day": a card is turned at every death and departure) settles that contestant;
  a contestant killed at night whose card is White was not an enemy, and the enemies kill likelier those who
  voted against them (``PublicBelief``'s murder weights);
- every vote paper: an enemy seldom writes a fellow's name; everyone mostly follows the evidence;
- its own checks (the Lord's, the Heir's who watches it, the Commissar's, the Priest's "Loner"), trusted
  ``CHECK_TRUST``; its known team mates (the Lord and the Heir) are good.

Mafia & Yakuza turns no card by day or night ("Vote": the role is not announced), so a death there tells only
that the contestant is gone. Everything comes from ``observe`` (the contestant's own messages) and the view.

Good contestants all vote for the likeliest enemy (reading the same record they agree, so the vote passes: a
split vote is a tie and, twice, a day without a departure), never keep everyone, put a candidate forward only
when the likeliest enemy is not one yet, ask for a repeat exactly when the departed card is good, check the
contestants they are least sure of, heal the likeliest good (the poisoned first, when they are likely good),
block the likeliest enemy, and never visit a mined contestant unless their visit clears the mine.

Evil contestants read the same public record: they vote for the candidate the town suspects most, a fellow only
once the town gives them ``BUS_AT`` (so they vote together, and with the town, wherever it decides the vote);
kill, poison and mine the contestants the town trusts most and those who voted against them; follow a fellow's
pick in a team kill; the Grey Cardinal checks the most trusted and the Black Order kills a Lord or Healer it
found; they ask for a repeat only to save a fellow (the asks are counted, not named).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.actions import Action, AskRepeat, CastVote, HoldBack, KeepEveryone, NominateCandidate, SkipPower, UsePower
from engine.bots.belief import Event, Private, PublicBelief, advance
from engine.core.night import BLOCK, CHECK, EXPLODE, HEAL, MINE, POISON, SHOT
from engine.core.ruleset import Ruleset
from engine.rulesets import RULESETS
from engine.rulesets.club.settings import ClubRules

A = TypeVar("A", bound=Action)
"""An input type (``_best`` returns one of the options it is given)."""

CHECK_TRUST = 0.98
"""How far a check's answer is trusted (no club role lies; kept below 1 so a wrong count of enemies dealt cannot
leave no possible set)."""
BUS_AT = 0.5
"""An evil contestant writes a fellow's name only when the public evidence gives that fellow at least this."""
AGAINST = 0.15
"""How much one vote against a fellow adds to a good contestant's threat to an evil team (on a chance scale)."""
NOISE = 0.2
"""An evil contestant's night target: the spread of the random tie-break added to what a target is worth (the
families and the lone killers choose apart, and not always the one the town's healer expects)."""
SHIELDED = 0.3
"""How much an evil contestant wants a contestant its shot did not kill gone by day (a self-healing Doctor is
never killed at night; left with one enemy they tie every vote until the day limit)."""
RIVAL = 0.5
"""Where several teams kill (the host named them: Mafia & Yakuza), how much a shot weighs the likely enemies (the
rival killers) against the trusted town: 0 only the trusted, 1 only the suspected (a family wins alone)."""
SELF_HEAL = 0.1
"""A healer's preference for themself (on a chance scale): they are surely good."""

CHECK_ANSWERS: dict[str, bool] = {
    "bk.check.lord.black": True,
    "bk.check.lord.mad": True,
    "bk.check.lord.white": False,
    "my.check.commissar.mafia": True,
    "my.check.commissar.yakuza": True,
    "my.check.commissar.loner": True,
    "my.check.commissar.town": False,
    "my.check.priest.loner": True,
}
"""A good side's check answer → whether the checked contestant is an enemy ("not a Loner" tells neither)."""
CARDINAL_FINDS = {"bk.check.cardinal.crown": "lord", "bk.check.cardinal.syringe": "healer"}
"""The Grey Cardinal's answers worth a kill (Black Knights night step 3)."""
NEWS = frozenset({"my.news.poisoned", "my.news.cured", "my.news.mined", "my.news.demined"})
"""Morning news naming a poisoned or mined contestant (``engine.rulesets.club.morning``)."""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What the club bots read from the registered club rulesets (``engine.rulesets.RULESETS``, the entries with
    a rules table): ``rules`` name → ``ClubRules``; ``good`` the teams that win by finding the hidden enemies
    (each entry's ``good_side``: the others know their team, or play alone); ``welcomes`` the welcome key (said
    at the start of every club series) → its ruleset; ``cards`` a turned card's key (``<prefix>.reveal.<role>``,
    a ruleset that turns cards) → whether the role is an enemy's; ``setups`` a first night's role line
    (``<prefix>.setup.<role>``, a ruleset that names the roles dealt) → the role; ``heard`` every message key
    ``ClubBot.observe`` learns from."""

    rules: dict[str, ClubRules]
    good: frozenset[str]
    welcomes: dict[str, str]
    cards: dict[str, bool]
    setups: dict[str, str]
    heard: frozenset[str]


def _vocabulary(club: tuple[Ruleset, ...]) -> Vocabulary:
    rules: dict[str, ClubRules] = {r.name: r.rules for r in club}
    good = frozenset(r.good_side for r in club)
    welcomes = {f"{r.prefix}.welcome": name for name, r in rules.items()}
    cards = {
        f"{r.prefix}.reveal.{code}": role.team not in good
        for r in rules.values()
        if r.reveal_role
        for code, role in r.roles.items()
    }
    setups = {
        f"{e.rules.prefix}.setup.{code}": code
        for e in club
        for code in e.rules.roles
        if f"{e.rules.prefix}.setup.{code}" in e.messages
    }
    heard = frozenset(
        {
            "club.died",
            "club.night",
            "club.no_deaths",
            "club.team.pick",
            "vote.reveal",
            "vote.count",
            "bk.leaves",
            "bk.repeat",
            "my.expelled",
            *welcomes,
            *CHECK_ANSWERS,
            *CARDINAL_FINDS,
            *NEWS,
            *cards,
            *setups,
            *(f"{r.prefix}.prompt.{s.name}" for r in rules.values() for s in r.steps),
        }
    )
    return Vocabulary(rules, good, welcomes, cards, setups, heard)


_LAST: list[tuple[tuple[Ruleset, ...], Vocabulary]] = []
"""The last ``Vocabulary`` worked out and the entries it was worked out from (every bot of a series asks)."""


def vocabulary() -> Vocabulary:
    """The ``Vocabulary`` of the club rulesets registered now (worked out again only when the entries change)."""
    club = tuple(r for r in RULESETS.values() if r.rules is not None)
    if _LAST and len(_LAST[0][0]) == len(club) and all(a is b for a, b in zip(_LAST[0][0], club, strict=True)):
        return _LAST[0][1]
    found = _vocabulary(club)
    _LAST[:] = [(club, found)]
    return found


def evil_roles(rules: ClubRules) -> frozenset[str]:
    """The role codes of ``rules`` outside the good teams (``Vocabulary.good``)."""
    good = vocabulary().good
    return frozenset(code for code, role in rules.roles.items() if role.team not in good)


_ROOTS: dict[tuple[tuple[str, ...], int], PublicBelief] = {}


class ClubBot:
    """A smart contestant of a club series (see the module docstring).

    Args:
        name: the contestant.
        rng: its own generator (seeded by the caller; used only to pick among inputs it has no rule for).
        ruleset: a registered club ruleset's name (``engine.rulesets.RULESETS``); ``None``: learnt from the
            series' welcome.

    Raises:
        KeyError: ``ruleset`` is not a registered club ruleset.
    """

    needs_view = True

    def __init__(self, name: str, rng: random.Random, ruleset: str | None = None) -> None:
        self.name, self.rng = name, rng
        self.vocabulary = vocabulary()
        self.hears = self.vocabulary.heard
        """Every message key ``observe`` learns from (``Vocabulary.heard``)."""
        self.rules: ClubRules | None = self.vocabulary.rules[ruleset] if ruleset else None
        self.count = 0
        """Contestants at the start (the welcome)."""
        self.setup: dict[str, int] = {}
        """Role code → how many were dealt, as the host named them (Mafia & Yakuza's first night)."""
        self.record: list[Event] = []
        """The public record (the events ``engine.bots.belief.PublicBelief`` weighs)."""
        self.answers: list[tuple[str, bool]] = []
        """This contestant's check answers: (checked contestant, enemy)."""
        self.cards: dict[str, bool] = {}
        """Contestant → whether their turned card is an enemy's."""
        self.papers: list[tuple[str, str]] = []
        """Every revealed vote paper: (voter, name written)."""
        self.dying: set[str] = set()
        """Killed tonight, card not turned yet."""
        self.departing: str | None = None
        """Sent away by today's vote, the departure not final yet (Black Knights' repeat)."""
        self.step = ""
        """The night step of the last prompt (``<prefix>.prompt.<step>``)."""
        self.team_pick: str | None = None
        """A fellow's pick in tonight's team kill."""
        self.found: dict[str, str] = {}
        """The Grey Cardinal's finds: contestant → ``lord``/``healer``."""
        self.poisoned: set[str] = set()
        self.mined: set[str] = set()
        self.shot_at: str | None = None
        """An evil contestant's shot tonight (a blocked contestant is not asked for one)."""
        self.healed: str | None = None
        """Whom this contestant healed last night."""
        self.saved_self = False
        """It healed itself and nobody died: a shot at it was saved, and the killers now know to shoot others."""
        self.shielded: set[str] = set()
        """Contestants an evil contestant's shot did not kill: healed, most likely by themself (a Doctor)."""
        self.node: PublicBelief | None = None
        self._applied = 0
        self._memo: tuple[int, int, int, dict[str, float]] | None = None

    # ------------------------------------------------------------------ learning

    def observe(self, key: str, params: tuple[tuple[str, str], ...]) -> None:
        """Learn from one message shown to the contestant (see the module docstring)."""
        p = dict(params)
        words = self.vocabulary
        learn = LEARN.get(key)
        if learn is not None:
            learn(self, p)
        elif key in words.welcomes:
            self.rules = words.rules[words.welcomes[key]]
            self.count = int(p["count"])
        elif key in CHECK_ANSWERS:
            self.answers.append((p["player"], CHECK_ANSWERS[key]))
        elif key in words.cards:
            self._card(p["player"], words.cards[key])
        elif key in words.setups:
            self.setup[words.setups[key]] = int(p["count"])
        elif key in CARDINAL_FINDS:
            self.found[p["player"]] = CARDINAL_FINDS[key]
        elif key.endswith(("poisoned", "cured", "mined", "demined")):
            self._news(key, p["player"])
        else:  # a night prompt
            self.step = key.rsplit(".", 1)[1]

    def learn_died(self, p: dict[str, str]) -> None:
        """``club.died`` (``p["player"]`` died in the night): out of the record now, or once the card is turned
        (``reveal_role``)."""
        who = p["player"]
        self.saved_self = False
        self.poisoned.discard(who)
        self.mined.discard(who)
        if self.rules is not None and self.rules.reveal_role:
            self.dying.add(who)  # the card is turned next
        else:
            self.record.append(("left", who))

    def _card(self, who: str, enemy: bool) -> None:
        """A turned card: at a night death, or at a departure by day (before the last word)."""
        self.cards[who] = enemy
        if who in self.dying:
            self.dying.discard(who)
            self.record += [("revealed", who, "1"), ("left", who)] if enemy else [("murdered", who)]
        elif who == self.departing:
            self.record.append(("revealed", who, "1" if enemy else "0"))

    def learn_night(self, _p: dict[str, str]) -> None:
        """``club.night``: a day's departure is final; last night's team pick and shot are forgotten."""
        if self.departing is not None:
            self.record.append(("left", self.departing))
            self.departing = None
        self.team_pick = None
        self.shot_at = None

    def _news(self, key: str, who: str) -> None:
        if key.endswith("poisoned"):
            self.poisoned.add(who)
        elif key.endswith("cured"):
            self.poisoned.discard(who)
        elif key.endswith("demined"):
            self.mined.discard(who)
        else:
            self.mined.add(who)

    def enemies_dealt(self) -> int:
        """How many enemies of the good side were dealt: as the host named them, else the rulebook's deal for
        the number of contestants (0 when neither is known)."""
        rules = self.rules
        if rules is None or not self.count:
            return 0
        evil = evil_roles(rules)
        if self.setup:
            return sum(c for code, c in self.setup.items() if code in evil)
        try:
            return sum(1 for code in rules.default_deal(self.count) if code in evil)
        except ValueError:
            return 0

    # ------------------------------------------------------------------ weighing

    def belief(self, view: Any) -> PublicBelief | None:
        """The public record weighed (``engine.bots.belief``), or ``None`` when the enemies' number is unknown."""
        node = self.node
        if node is None:
            k = self.enemies_dealt()
            names = tuple(n for n, _ in sorted(view.public.seats, key=lambda s: s[1]))
            if not 0 < k < len(names):
                return None
            key = (names, k)
            node = _ROOTS.get(key) or _ROOTS.setdefault(key, PublicBelief.root(names, k))
        for event in self.record[self._applied :]:
            node = advance(node, event)
        self.node, self._applied = node, len(self.record)
        return node

    def chances(self, view: Any, good: bool) -> dict[str, float]:
        """Contestant → chance they are an enemy of the good side: for a good contestant from all it knows (it
        and its known team mates are good; its checks), for an evil one as the public record has it (what the
        town thinks). Empty when the count of enemies is unknown."""
        node = self.belief(view)
        if node is None:
            return {}
        idx = node.h.index
        exclude = sum(1 << idx[n] for n in (self.name, *view.traitors) if n in idx) if good else 0
        answers = len(self.answers) if good else 0
        memo = self._memo
        if memo is not None and memo[:3] == (node.uid, exclude, answers):
            return memo[3]
        private = Private()
        for who, enemy in self.answers[:answers]:
            private.is_traitor(node.h, who, enemy, CHECK_TRUST)
        p = dict(zip(node.h.names, node.marginals(exclude, private), strict=True))
        self._memo = (node.uid, exclude, answers, p)
        return p

    # ------------------------------------------------------------------ choosing

    def choose(self, view: Any, legal: Sequence[Action]) -> Action | None:
        """One of ``legal`` (not empty) for the contestant whose ``PlayerView`` is ``view`` (the module docstring
        says how)."""
        good = view.allegiance in self.vocabulary.good
        fellows = frozenset(view.traitors) if not good else frozenset()
        p = self.chances(view, good)
        if self.shot_at is not None and view.public.phase != "night":
            if self.shot_at in view.public.in_castle:
                self.shielded.add(self.shot_at)
            self.shot_at = None
        pick = CHOICES.get(type(legal[0]))
        if pick is None:
            return self.rng.choice(list(legal))
        return pick(self, legal, p, good, fellows)

    def _rank(self, p: dict[str, float], _good: bool, fellows: frozenset[str]) -> Callable[[str], float]:
        """How much the contestant wants ``who`` gone by day: a good one the chance of an enemy; an evil one the
        public chance, a fellow only at ``BUS_AT`` (below every non-fellow)."""

        def rank(who: str) -> float:
            x = p.get(who, 0.0)
            if who in fellows and x < BUS_AT:
                return x - 2.0
            return x + (SHIELDED if who in self.shielded and who not in fellows else 0.0)

        return rank

    def vote(self, legal: Sequence[Action], p: dict[str, float], good: bool, fellows: frozenset[str]) -> Action:
        """Vote for the one the contestant most wants gone (``_rank``); no vote offered: the first legal input."""
        votes = [a for a in legal if isinstance(a, CastVote)]
        if not votes:
            return legal[0]
        return _best(votes, lambda a: self._rank(p, good, fellows)(a.target))

    def nominate(self, legal: Sequence[Action], p: dict[str, float], good: bool, fellows: frozenset[str]) -> Action:
        """Put forward the one the contestant most wants gone, unless already a candidate (then hold back, so
        the vote stays on them)."""
        noms = [a for a in legal if isinstance(a, NominateCandidate)]
        hold = next((a for a in legal if isinstance(a, HoldBack)), legal[-1])
        if not noms:
            return hold
        rank = self._rank(p, good, fellows)
        best = _best(noms, lambda a: rank(a.target))
        offered = {a.target for a in noms}
        others = [n for n in p if n not in offered and n != self.name and n in self._living()]
        if any(rank(n) >= rank(best.target) for n in others):
            return hold  # a candidate already is at least as wanted
        return best

    def _living(self) -> set[str]:
        node = self.node
        if node is None:
            return set()
        return {n for i, n in enumerate(node.h.names) if node.alive >> i & 1}

    def ask_repeat(self, legal: Sequence[Action], _p: dict[str, float], good: bool, fellows: frozenset[str]) -> Action:
        """Ask for a repeat when the departed card is good (good side), or a fellow's (evil side)."""
        who = self.departing
        want = who is not None and (not self.cards.get(who, True) if good else who in fellows)
        return next((a for a in legal if isinstance(a, AskRepeat) and a.ask is want), legal[0])

    def night_action(self, legal: Sequence[Action], p: dict[str, float], good: bool, fellows: frozenset[str]) -> Action:
        """Use the night action on the target worth most (``GOOD_POWER`` / ``EVIL_POWER``), a mined one only for
        a check, the team's pick when the step is a team's; else skip."""
        uses = [a for a in legal if isinstance(a, UsePower)]
        skip = next((a for a in legal if isinstance(a, SkipPower)), legal[0])
        rules = self.rules
        step = next((s for s in rules.steps if s.name == self.step), None) if rules else None
        if not uses or step is None:
            return skip
        safe = [a for a in uses if a.target not in self.mined or step.kind == CHECK] or uses
        score = (GOOD_POWER if good else EVIL_POWER).get(step.kind)
        if score is None:
            return skip
        if step.team and self.team_pick is not None:
            same = [a for a in safe if a.target == self.team_pick]
            if same:
                return same[0]
        best = _best(safe, lambda a: score(self, a.target, p, fellows))
        if not good and step.kind == SHOT:
            self.shot_at = best.target
        if step.kind == HEAL:
            self.healed = best.target
        return best

    # ---------------------------------------------------------------- what each night action is worth

    def worth_unknown(self, who: str, p: dict[str, float], _fellows: frozenset[str]) -> float:
        """A check is worth most on the contestant least known (the suspected first); a mined one is worth a
        little more to a commissar, whose visit clears the mine."""
        x = p.get(who, 0.0)
        done = who in self.cards or any(w == who for w, _ in self.answers)
        return (-1.0 if done else min(x, 1.0 - x) + x / 2) + (0.05 if who in self.mined else 0.0)

    def worth_heal(self, who: str, p: dict[str, float], _fellows: frozenset[str]) -> float:
        """The likeliest good contestant (the poisoned first); the healer itself first, unless a shot at it was
        saved last night (the killers will shoot someone else: heal the one they are likeliest to shoot)."""
        x = 1.0 - p.get(who, 0.0)
        if who in self.poisoned and x > 0.5:
            x += 0.5
        if who == self.name:
            x += -1.0 if self.saved_self else SELF_HEAL
        return x

    def worth_suspect(self, who: str, p: dict[str, float], _fellows: frozenset[str]) -> float:
        """A block is worth most on the likeliest enemy."""
        return p.get(who, 0.0)

    def worth_threat(self, who: str, p: dict[str, float], fellows: frozenset[str]) -> float:
        """How much an evil contestant wants to shoot (poison, mine, blow up) ``who``: trusted by the town (and,
        where several teams kill, suspected: a likely rival killer, ``RIVAL``), voting against the team, a Lord or
        Healer the Grey Cardinal found; less when already poisoned or missed by a shot; plus ``NOISE``. Never a
        fellow (a team kill cannot name one; a lone killer has none)."""
        if who in fellows or who == self.name:
            return -10.0
        found = {"lord": 2.0, "healer": 1.5}.get(self.found.get(who, ""), 0.0)
        against = sum(1 for voter, target in self.papers if voter == who and target in fellows)
        spent = 0.5 if who in self.poisoned or who in self.shielded else 0.0
        x = p.get(who, 0.0)
        rival = RIVAL if self.setup else 0.0
        return (1.0 - x) * (1.0 - rival) + x * rival + AGAINST * against + found - spent + self.rng.random() * NOISE

    def worth_search(self, who: str, p: dict[str, float], fellows: frozenset[str]) -> float:
        """The Grey Cardinal looks for the Lord and the Healer among the most trusted not yet checked."""
        if who in fellows or who in self.found:
            return -10.0
        return 1.0 - p.get(who, 0.0)


def _best(options: Sequence[A], key: Callable[[A], float]) -> A:
    """The first option with the highest ``key`` (seat order breaks ties: every contestant reading the same
    record picks the same one)."""
    best, top = options[0], key(options[0])
    for a in options[1:]:
        v = key(a)
        if v > top + 1e-9:
            best, top = a, v
    return best


def _paper(bot: ClubBot, p: dict[str, str]) -> None:
    bot.papers.append((p["voter"], p["target"]))
    bot.record.append(("paper", p["voter"], p["target"]))


def _leaves(bot: ClubBot, p: dict[str, str]) -> None:
    bot.departing = p["player"]


def _expelled(bot: ClubBot, p: dict[str, str]) -> None:
    bot.poisoned.discard(p["player"])
    bot.mined.discard(p["player"])
    bot.record.append(("left", p["player"]))


def _repeated(bot: ClubBot, _p: dict[str, str]) -> None:
    bot.departing = None


def _no_deaths(bot: ClubBot, _p: dict[str, str]) -> None:
    bot.saved_self = bot.healed == bot.name
    bot.healed = None


def _team_pick(bot: ClubBot, p: dict[str, str]) -> None:
    bot.team_pick = p["target"]


LEARN: dict[str, Callable[[ClubBot, dict[str, str]], None]] = {
    "club.died": ClubBot.learn_died,
    "club.night": ClubBot.learn_night,
    "club.team.pick": _team_pick,
    "club.no_deaths": _no_deaths,
    "vote.reveal": _paper,
    "vote.count": lambda bot, _p: bot.record.append(("closed",)),
    "bk.leaves": _leaves,
    "bk.repeat": _repeated,
    "my.expelled": _expelled,
}
"""Message key → what ``ClubBot.observe`` does with it (the rest: the welcome, checks, cards, setup, news,
prompts)."""

Choice = Callable[[ClubBot, Sequence[Action], dict[str, float], bool, frozenset[str]], Action]
CHOICES: dict[type, Choice] = {
    CastVote: ClubBot.vote,
    KeepEveryone: ClubBot.vote,
    NominateCandidate: ClubBot.nominate,
    HoldBack: ClubBot.nominate,
    AskRepeat: ClubBot.ask_repeat,
    UsePower: ClubBot.night_action,
    SkipPower: ClubBot.night_action,
}
"""The first legal input's type → the choice it asks for."""
Worth = Callable[[ClubBot, str, dict[str, float], frozenset[str]], float]
GOOD_POWER: dict[str, Worth] = {CHECK: ClubBot.worth_unknown, HEAL: ClubBot.worth_heal, BLOCK: ClubBot.worth_suspect}
"""A good contestant's night action kind → what a target is worth."""
EVIL_POWER: dict[str, Worth] = {
    SHOT: ClubBot.worth_threat,
    POISON: ClubBot.worth_threat,
    MINE: ClubBot.worth_threat,
    EXPLODE: ClubBot.worth_threat,
    CHECK: ClubBot.worth_search,
}
"""An evil contestant's night action kind → what a target is worth."""


__all__ = ["ClubBot", "Vocabulary", "evil_roles", "vocabulary"]
