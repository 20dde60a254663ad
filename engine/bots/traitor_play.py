"""How a smart Traitor reads the Faithful's votes and plays against them (rulebook §4 the vote, §7.2 the Turret).

A Traitor sees every revealed vote paper and, from the public record (``engine.bots.belief``), the name the
public evidence pointed at when each vote opened: the *consensus*. Counting how many of the non-Traitors'
papers named the consensus tells it how the Faithful vote: Faithful who follow the evidence (they all read the
same record) pile onto one name, Faithful who do not spread their papers. From that rate (``VoteReading``) it
predicts who decides the vote:

- the Faithful, when the papers expected to name the consensus outnumber the Traitors: each Traitor writes the
  consensus as a following Faithful would, a fellow Traitor too once the evidence gives them ``BUS_AT`` (the
  fellow is lost anyway, and sparing them would mark every Traitor who did when they are revealed);
- the Traitors, when the Faithful spread their papers: they all write the likeliest Faithful (a bloc), and no
  fellow is given up for nothing.

A contestant seduced or given an ultimatum (§7.2) answers in one of two ways (``accepts_offer``). Playing for
its side (the ``smart`` kind), a Faithful refuses every offer: a recruit is one Faithful fewer and one Traitor more,
a refusal at most the murder that would have happened anyway. Answering to win (the ``opportunist`` kind), it
weighs what it wins: a recruit wins with the Traitors (§9: the Traitors win if any Traitor reaches the end), a
murdered contestant cannot win (only the surviving Faithful do); so it always accepts an ultimatum (declining is
murder, even if protected), and a seduction unless it can already name the two Traitors left. The Traitors seduce
(``seduce``) when the public evidence does not name them, so that a Faithful answering to win is likely to accept.

Nothing here reads the game state: only the revealed papers, the public weights, the Traitors' own names and a
Faithful's own chances.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from engine.actions import CastVote, ChooseEvent
from engine.bots.belief import PublicBelief
from engine.ids import NightEvent

PRIOR_FOLLOW = 0.7
"""Before any telling vote, the share of Faithful papers a Traitor expects to name the consensus."""
PRIOR_PAPERS = 2.0
"""How many papers that prior counts as (so two or three votes outweigh it)."""
DISTINCT = 0.02
"""A vote tells how the Faithful follow only if the consensus led the next name by at least this chance (on day
one every contestant is alike, and nobody can follow)."""
FOLLOWED_MARGIN = 0.5
"""The Faithful decide a vote when the papers expected to follow the evidence outnumber the Traitors' bloc by more
than this many papers."""
NAMED_AT = 1.5
"""A contestant names the two Traitors left when the two likeliest have at least this much chance together; a
Faithful so sure declines a seduction (the Faithful will find them), one less sure joins the likelier winners."""
BUS_AT = 0.25
"""When the Faithful decide the vote, a Traitor writes a fellow's name once the public evidence gives that fellow at
least this chance (about the prior, 3 Traitors in 12)."""


@dataclass(slots=True)
class VoteReading:
    """One contestant's reading of the series' votes: where each vote's papers start, its day and consensus.

    ``tops`` holds (index of the vote's first paper in the bot's paper history, consensus name, day) for every
    vote whose consensus was distinct; ``fellows`` every contestant a Traitor has known as a Traitor (banished
    ones too: their papers are not Faithful papers; empty for a Faithful).
    """

    tops: list[tuple[int, str, int]] = field(default_factory=list)
    fellows: set[str] = field(default_factory=set)

    def papers(self, history: Sequence[tuple[str, str]]) -> Iterator[tuple[str, str, str, int]]:
        """(voter, name written, the vote's consensus, day) for every paper of a vote with a distinct consensus.

        Args:
            history: every revealed paper of the series so far, in order: (voter, name written).
        """
        for i, (start, top, day) in enumerate(self.tops):
            end = self.tops[i + 1][0] if i + 1 < len(self.tops) else len(history)
            for voter, target in history[start:end]:
                yield voter, target, top, day

    def follow_rate(self, history: Sequence[tuple[str, str]]) -> float:
        """The share of non-Traitor papers that named their vote's consensus (with the ``PRIOR_FOLLOW`` prior)."""
        hits, papers = PRIOR_FOLLOW * PRIOR_PAPERS, PRIOR_PAPERS
        for voter, target, top, _ in self.papers(history):
            if voter not in self.fellows and voter != top:
                papers += 1
                hits += target == top
        return hits / papers

    def note_vote(self, at: int, top: str, distinct: bool, day: int = 0) -> None:
        """A vote opens on ``day`` with its first paper at ``at`` in the history; ``top`` its consensus."""
        if self.tops and self.tops[-1][0] == at:
            self.tops.pop()  # an earlier call for the same vote (nothing revealed since)
        if distinct:
            self.tops.append((at, top, day))


def consensus(node: PublicBelief) -> tuple[str, bool]:
    """The living contestant the public evidence points at most, and whether they lead the next by ``DISTINCT``."""
    p = node.marginals()
    top = node.top()
    rest = [x for i, x in enumerate(p) if i != top and node.alive >> i & 1]
    return node.h.names[top], p[top] - max(rest, default=0.0) >= DISTINCT


def bloc_vote(
    reading: VoteReading,
    node: PublicBelief,
    votes: Sequence[CastVote],
    fellows: set[str],
    me: str,
    living: Sequence[str],
    history: Sequence[tuple[str, str]],
) -> CastVote:
    """A Traitor's paper (see the module docstring).

    Args:
        reading: the Traitor's ``VoteReading`` (updated with this vote).
        node: the public weights before this vote's papers.
        votes: the legal papers (not empty).
        fellows: the living Traitors, ``me`` included.
        me: the Traitor choosing.
        living: the contestants in the castle.
        history: every revealed paper of the series so far.

    Returns:
        One of ``votes``.
    """
    reading.fellows |= fellows
    p = dict(zip(node.h.names, node.marginals(), strict=True))
    seat = node.h.index

    def order(n: str) -> tuple[float, int]:  # every Traitor ranks alike: by chance, then by seat
        return -p.get(n, 0.0), seat.get(n, len(seat))

    ranked = sorted(votes, key=lambda a: -p.get(a.target, 0.0))
    names = [a.target for a in ranked]
    if len(votes) + 1 >= len(living) and me in living:  # a full vote: I could be the consensus too
        names = sorted([*names, me], key=order)
    top = names[0]
    gap = p.get(top, 0.0) - (p.get(names[1], 0.0) if len(names) > 1 else 0.0)
    follow = reading.follow_rate(history)
    reading.note_vote(len(history), top, gap >= DISTINCT)
    faithful = sum(1 for n in living if n not in fellows)
    bloc = sum(1 for n in living if n in fellows)
    first = ranked[0]
    decide = follow * faithful > bloc + FOLLOWED_MARGIN
    if decide and (first.target not in fellows or p.get(first.target, 0.0) >= BUS_AT):
        # The Faithful's papers decide the vote: write as a Faithful following the evidence would, a fellow
        # included once the evidence is against them (sparing a doomed fellow marks every Traitor who did).
        return first
    # The Traitors' bloc decides a vote of spread papers: all write the likeliest Faithful.
    return next((a for a in ranked if a.target not in fellows), first)


def exposed(p: dict[str, float], living: Sequence[str], me: str) -> float:
    """The summed chance of the two likeliest Traitors among ``living`` other than ``me`` (0..2; a seduction
    means exactly two Traitors are left, §7.2).

    Args:
        p: contestant → chance of having been dealt Traitor (a Faithful's own, or the public one).
        living: the contestants in the castle.
        me: the contestant weighing it.
    """
    top = sorted((p.get(n, 0.0) for n in living if n != me), reverse=True)
    return sum(top[:2])


def accepts_offer(ultimatum: bool, p: dict[str, float] | None, living: Sequence[str], me: str, *, to_win: bool) -> bool:
    """Whether a Faithful accepts the Traitors' offer (see the module docstring; rulebook §7.2, §9).

    Args:
        ultimatum: an ultimatum (join or be murdered), else a seduction.
        p: the Faithful's chances per contestant (``None``: it cannot count; it declines a seduction).
        living: the contestants in the castle.
        me: the Faithful.
        to_win: answer as a contestant who wants to win; ``False``: play for the Faithful and refuse.
    """
    if not to_win:
        return False
    if ultimatum:
        return True
    return p is not None and exposed(p, living, me) < NAMED_AT


def seduce(events: Sequence[ChooseEvent], node: PublicBelief | None, fellows: set[str], k: int) -> bool:
    """Whether the Traitors seduce rather than murder tonight: only when a fellow has been lost (fewer living than
    the ``k`` dealt) and the public evidence does not name the Traitors (so a counting Faithful accepts)."""
    if node is None or len(fellows) >= k or not any(a.event is NightEvent.SEDUCE for a in events):
        return False
    p = dict(zip(node.h.names, node.marginals(), strict=True))
    return sum(p.get(n, 0.0) for n in fellows) < NAMED_AT


__all__ = ["VoteReading", "accepts_offer", "bloc_vote", "consensus", "exposed", "seduce"]
