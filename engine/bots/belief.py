"""What a Faithful can infer: weights over every possible set of Traitors, from the evidence a Faithful is told.

A contestant who does not know the Traitors can still count: with ``n`` contestants and ``k`` Traitors (the
welcome says both, rulebook §1) there are ``C(n, k)`` possible sets of Traitors, a few hundred for a typical
series (220 for 12 with 3). ``PublicBelief`` weighs each set by how well it explains the public record, the same
for every contestant: who was murdered (the Traitors murder Faithful, §7.2, and prefer those who voted against
them), who revealed what on banishment (§4), how everyone voted (a Traitor seldom writes a fellow Traitor's name;
a Faithful mostly follows the evidence, a Traitor need not). ``Private`` adds what only this contestant was told
(power answers, §5), each weighed by how far it can be trusted (a drunk power answers falsely, §2; The Falsifier
makes a contestant register as the other allegiance). A contestant's own knowledge that they are Faithful
removes every set with them in it.

Every contestant sees the same public record, so a ``PublicBelief`` is a pure function of the record: one node
per record prefix, kept in a small memo (``_advance``) so the contestants of a series share the arithmetic.
Nothing here reads the game state; the input is only what ``observe`` was shown.

A recruit (§7.2) is a Traitor who was not one at the deal; the sets are the Traitors *at the deal*, and a revealed
Traitor outside a set only makes the set unlikely (``RECRUIT``), not impossible.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

BUS = 0.3
"""Likelihood factor for a set in which a Traitor wrote a fellow Traitor's name (a Traitor gives up a doomed
fellow now and then, so it is not ruled out)."""
FOLLOW_FAITHFUL = 0.7
"""How often a Faithful writes the name the public evidence points at most (the consensus)."""
FOLLOW_TRAITOR = 0.7
"""How often a Traitor does: as often (a Traitor blends in; a model that trusted followers more would clear
every Traitor who follows the evidence)."""
RECRUIT = 0.05
"""Likelihood factor for a set without a contestant revealed as a Traitor (they may have been recruited)."""
MURDER_BETA = 0.6
"""Weight of a past vote against a set's Traitors in the chance that the Traitors murder the voter (softmax)."""
SHERIFF_MISS = 0.3
"""Likelihood factor for a set containing a contestant the Sheriff accused in vain (a drunk Sheriff fails)."""
MEMO_LIMIT = 50_000
"""Record prefixes remembered (``_advance``); the memo is cleared when it grows past this."""

Event = tuple[str, ...]
"""A public event: ``("murdered", name)``, ``("paper", voter, target)``, ``("closed",)``, ``("left", name)``,
``("revealed", name, "1"|"0")``, ``("sheriff_miss", name)``."""


@dataclass(frozen=True, slots=True)
class Hypotheses:
    """Every possible set of ``k`` Traitors among ``names``: as index tuples and as bit masks (bit ``i``: names[i]),
    with the tables the weighing reads (``space`` builds them once per cast)."""

    names: tuple[str, ...]
    k: int
    index: dict[str, int]
    sets: tuple[tuple[int, ...], ...]
    masks: tuple[int, ...]
    set_pairs: tuple[tuple[int, ...], ...] = ()
    """Per set, each pair ``i < j`` of its members as ``i * n + j`` (a flat ``n × n`` table's cell)."""
    member: tuple[tuple[int, ...], ...] = ()
    """Per contestant, the positions (in ``sets``) of the sets with them, in order."""
    outside: tuple[tuple[float, ...], ...] = ()
    """Per contestant, per set: 1.0 when they are not in the set, 0.0 when they are."""


_SPACES: dict[tuple[tuple[str, ...], int], Hypotheses] = {}


def space(names: Sequence[str], k: int) -> Hypotheses:
    """The hypotheses for ``names`` with ``k`` Traitors (cached: the same object for the same cast).

    Raises:
        ValueError: ``k`` outside ``1..len(names)``.
    """
    key = (tuple(names), k)
    got = _SPACES.get(key)
    if got is None:
        n = len(names)
        if not 1 <= k <= n:
            raise ValueError(f"{k} Traitors among {n} contestants")
        sets = tuple(itertools.combinations(range(n), k))
        masks = tuple(sum(1 << i for i in s) for s in sets)
        set_pairs = tuple(tuple(a * n + b for x, a in enumerate(s) for b in s[x + 1 :]) for s in sets)
        member = tuple(tuple(j for j, m in enumerate(masks) if m >> i & 1) for i in range(n))
        outside = tuple(tuple(0.0 if m >> i & 1 else 1.0 for m in masks) for i in range(n))
        index = {name: i for i, name in enumerate(names)}
        got = _SPACES[key] = Hypotheses(key[0], k, index, sets, masks, set_pairs, member, outside)
    return got


class PublicBelief:
    """The weights of every set of Traitors given one public record (immutable once built; see the module)."""

    __slots__ = ("_pair_sums", "alive", "ballot", "consensus", "h", "papers", "uid", "weights")
    _next = itertools.count()

    def __init__(
        self,
        h: Hypotheses,
        weights: list[float],
        alive: int,
        papers: tuple[tuple[int, ...], ...],
        ballot: tuple[tuple[int, int], ...],
        consensus: int,
    ) -> None:
        self.h, self.weights, self.alive, self.papers = h, weights, alive, papers
        self.ballot, self.consensus = ballot, consensus
        self.uid = next(PublicBelief._next)
        self._pair_sums: tuple[float, list[float], list[list[float]]] | None = None

    @classmethod
    def root(cls, names: Sequence[str], k: int) -> PublicBelief:
        """Nothing known yet: every set equally likely."""
        h = space(names, k)
        n = len(h.names)
        return cls(h, [1.0] * len(h.sets), (1 << n) - 1, tuple(() for _ in range(n)), (), -1)

    def marginals(self, exclude: int = 0, private: Private | None = None) -> list[float]:
        """Per contestant (by index), the chance they were dealt Traitor: over the sets without any bit of
        ``exclude`` (a Faithful excludes themself), weighted by ``private``'s evidence too."""
        factors = private.factors if private is not None else ()
        if not factors and not exclude & (exclude - 1):  # the usual case, from sums shared by every contestant
            total, single, pair = self.pair_sums()
            if not exclude:
                return [x / total for x in single] if total else single
            e = exclude.bit_length() - 1
            rest, row = total - single[e], pair[e]
            return [(x - y) / rest for x, y in zip(single, row, strict=True)] if rest > 0 else [0.0] * len(single)
        h, total = self.h, 0.0
        out = [0.0] * len(h.names)
        for s, m, w in zip(h.sets, h.masks, self.weights, strict=True):
            if m & exclude or not w:
                continue
            for test, yes, no in factors:
                w *= yes if m & test[0] == test[1] else no
            total += w
            for i in s:
                out[i] += w
        return [x / total for x in out] if total else out

    def pair_sums(self) -> tuple[float, list[float], list[list[float]]]:
        """(total weight, per contestant the weight of the sets with them, per pair the weight of the sets with
        both): computed once per node, so each contestant's chances without themself cost a subtraction.

        Each sum adds its sets' weights in the sets' order, one by one, so every figure is the same float however
        the loop is arranged: here each set adds to its own pairs' cells of one flat table (``Hypotheses.set_pairs``),
        and the table is mirrored (the cell ``(j, i)`` has the same sum as ``(i, j)``; ``(i, i)`` that of ``i``)."""
        got = self._pair_sums
        if got is None:
            h = self.h
            n = len(h.names)
            total, single, flat = 0.0, [0.0] * n, [0.0] * (n * n)
            for s, cells, w in zip(h.sets, h.set_pairs, self.weights, strict=True):
                if not w:
                    continue
                total += w
                for i in s:
                    single[i] += w
                for c in cells:
                    flat[c] += w
            pair = [flat[i * n : i * n + n] for i in range(n)]
            for i, row in enumerate(pair):
                row[i] = single[i]
                for j in range(i):
                    row[j] = pair[j][i]
            got = self._pair_sums = (total, single, pair)
        return got

    def chance_none(self, mask: int, exclude: int = 0, private: Private | None = None) -> float:
        """The chance that no bit of ``mask`` was dealt Traitor (as ``marginals``)."""
        total = none = 0.0
        factors = private.factors if private is not None else ()
        for m, w in zip(self.h.masks, self.weights, strict=True):
            if m & exclude or not w:
                continue
            for test, yes, no in factors:
                w *= yes if m & test[0] == test[1] else no
            total += w
            if not m & mask:
                none += w
        return none / total if total else 0.0

    def top(self) -> int:
        """The living contestant the public evidence points at most (index; ties: the first seat)."""
        p = self.marginals()
        best, alive = -1, self.alive
        for i, x in enumerate(p):
            if alive >> i & 1 and (best < 0 or x > p[best] + 1e-12):
                best = i
        return best


def _child(node: PublicBelief, event: Event) -> PublicBelief:
    """The node after ``event`` (the likelihoods of the module docstring)."""
    h, kind = node.h, event[0]
    w, alive, papers, ballot, consensus = node.weights, node.alive, node.papers, node.ballot, node.consensus
    idx = h.index
    if kind != "paper" and ballot:  # the papers of a vote are weighed together, once the next event comes
        w = _weigh_ballot(h, w, ballot, consensus)
        papers = tuple(p + tuple(t for v2, t in ballot if v2 == v) for v, p in enumerate(papers))
        ballot, consensus = (), -1
    if kind == "paper":
        v, t = idx.get(event[1], -1), idx.get(event[2], -1)
        if v >= 0 and t >= 0:
            if not ballot:
                consensus = node.top()
            ballot = (*ballot, (v, t))
    elif kind == "murdered" and event[1] in idx:
        x = idx[event[1]]
        w = _weigh_murder(h, w, alive, papers, x)
        alive &= ~(1 << x)
    elif kind == "left" and event[1] in idx:
        alive &= ~(1 << idx[event[1]])
    elif kind == "revealed" and event[1] in idx:
        bit = 1 << idx[event[1]]
        if event[2] == "1":
            w = [x if m & bit else x * RECRUIT for x, m in zip(w, h.masks, strict=True)]
        else:
            w = [0.0 if m & bit else x for x, m in zip(w, h.masks, strict=True)]
    elif kind == "sheriff_miss" and event[1] in idx:
        bit = 1 << idx[event[1]]
        w = [x * SHERIFF_MISS if m & bit else x for x, m in zip(w, h.masks, strict=True)]
    return PublicBelief(h, _normalised(w), alive, papers, ballot, consensus)


def _normalised(w: list[float]) -> list[float]:
    """Rescaled so the largest weight is 1 (long series multiply many small factors)."""
    top = max(w)
    return [x / top for x in w] if top and (top < 1e-60 or top > 1e60) else w


def _weigh_ballot(h: Hypotheses, w: list[float], ballot: Iterable[tuple[int, int]], consensus: int) -> list[float]:
    """A closed vote's papers: a Traitor writing a fellow's name is unlikely (``BUS``); following the consensus is
    what a Faithful does ``FOLLOW_FAITHFUL`` of the time, a Traitor ``FOLLOW_TRAITOR``.

    Only the set's own voters change its weight against the others (the factor every Faithful paper adds to every
    set without its voter is the same for all sets once divided out), so a set costs one look-up per member."""
    papers = list(ballot)
    if not papers:
        return w
    named_top = consensus >= 0 and any(t == consensus for _, t in papers)
    mine: list[tuple[tuple[int, float, float], ...]] = [()] * len(h.names)
    for v, t in papers:
        follow = named_top and t == consensus
        ratio = 1.0
        if named_top:
            ratio = FOLLOW_TRAITOR / FOLLOW_FAITHFUL if follow else (1.0 - FOLLOW_TRAITOR) / (1.0 - FOLLOW_FAITHFUL)
        mine[v] += ((1 << t, ratio, ratio * BUS),)  # the factor with a fellow named, made as it is used below
    out = list(w)
    for j, (s, m) in enumerate(zip(h.sets, h.masks, strict=True)):
        f = 1.0
        for v in s:
            for bit, ratio, bus in mine[v]:
                f *= bus if m & bit else ratio
        if f != 1.0:
            out[j] *= f
    return out


def _weigh_murder(h: Hypotheses, w: list[float], alive: int, papers: Sequence[tuple[int, ...]], x: int) -> list[float]:
    """``x`` was murdered: never a Traitor at the deal; likelier the more ``x`` voted against the set's Traitors
    (a softmax over the living contestants outside the set).

    A voter's papers against a set are counted from the sets of each contestant they named (``Hypotheses.member``),
    and each set's softmax denominator adds the living outside it in seat order (adding 0.0 for those in it,
    which changes no sum), so every weight is the same float as a set-by-set count would give."""
    n = len(h.names)
    exp = [math.exp(MURDER_BETA * a) for a in range(sum(len(p) for p in papers) + 1)]
    count, member = len(h.sets), h.member

    def against(i: int) -> list[int]:
        """Per set, how many of ``i``'s papers named one of its members."""
        per = [0] * count
        for t in papers[i]:
            for j in member[t]:
                per[j] += 1
        return per

    total = [0.0] * count
    for i in range(n):
        if alive >> i & 1:
            total = [t + exp[a] * o for t, a, o in zip(total, against(i), h.outside[i], strict=True)]
    victim = against(x)
    return [
        0.0 if m >> x & 1 or not weight else (weight * exp[a] / t if t else weight)
        for m, weight, a, t in zip(h.masks, w, victim, total, strict=True)
    ]


_MEMO: dict[tuple[int, Event], PublicBelief] = {}


def advance(node: PublicBelief, event: Event) -> PublicBelief:
    """The node after ``event``, shared by every contestant who saw the same record (a memo of ``_child``)."""
    key = (node.uid, event)
    got = _MEMO.get(key)
    if got is None:
        if len(_MEMO) > MEMO_LIMIT:
            _MEMO.clear()
        got = _MEMO[key] = _child(node, event)
    return got


class Private:
    """What only this contestant was told: each answer a factor on the sets it fits (``yes``) or not (``no``)."""

    __slots__ = ("factors",)

    def __init__(self) -> None:
        self.factors: list[tuple[tuple[int, int], float, float]] = []
        """((mask, wanted bits), factor when ``mask & set == wanted``, factor otherwise)."""

    def is_traitor(self, h: Hypotheses, name: str, traitor: bool, trust: float) -> None:
        """An answer that ``name`` is (or is not) a Traitor, right with chance ``trust``."""
        i = h.index.get(name)
        if i is not None:
            bit = 1 << i
            self.factors.append(((bit, bit if traitor else 0), trust, 1.0 - trust))

    def same_side(self, h: Hypotheses, first: str, second: str, same: bool, trust: float) -> None:
        """An answer that ``first`` and ``second`` are (or are not) on the same side."""
        i, j = h.index.get(first), h.index.get(second)
        if i is None or j is None:
            return
        both = (1 << i) | (1 << j)
        # same side: neither or both in the set; the factor test is one mask, so two entries split the cases
        if same:
            self.factors.append(((both, 1 << i), 1.0 - trust, trust))
            self.factors.append(((both, 1 << j), (1.0 - trust) / trust, 1.0))
        else:
            self.factors.append(((both, 0), 1.0 - trust, trust))
            self.factors.append(((both, both), (1.0 - trust) / trust, 1.0))


__all__ = ["Event", "Hypotheses", "Private", "PublicBelief", "advance", "space"]
