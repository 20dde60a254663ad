"""How a smart Traitor reads the Faithful's votes and plays against them (rulebook §4 the vote, §7.2 the Turret).

A Traitor sees every revealed vote paper and, from the public record (``engine.bots.belief``), the name the
public evidence pointed at when each vote opened: the *consensus*. Counting how many of the non-Traitors'
papers named the consensus tells it how the Faithful vote: Faithful who follow the evidence (they all read the
same record) pile onto one name, Faithful who do not spread their papers. From that rate (``VoteReading``) it
predicts whether a fellow Traitor the evidence points at will be banished anyway:

- the consensus is a Faithful: the Traitors write it together (a bloc);
- the consensus is a fellow Traitor the Faithful's papers will banish whatever the Traitors write (the expected
  following papers outnumber the Traitors' bloc): the Traitors give the fellow up, so that nobody is marked as
  having spared a revealed Traitor;
- otherwise the bloc writes the likeliest Faithful, which decides a vote of spread papers.

Nothing here reads the game state: only the revealed papers, the public weights and the Traitors' own names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.actions import CastVote
from engine.bots.belief import PublicBelief

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
BUS_AT = 0.25
"""When the Faithful decide the vote, a Traitor writes a fellow's name once the public evidence gives that fellow at
least this chance (about the prior, 3 Traitors in 12)."""


@dataclass(slots=True)
class VoteReading:
    """One Traitor's reading of the series' votes: where each vote's papers start, and its consensus.

    ``tops`` holds (index of the vote's first paper in the bot's paper history, consensus name) for every vote
    whose consensus was distinct; ``fellows`` every contestant the Traitor has known as a Traitor (banished
    ones too: their papers are not Faithful papers).
    """

    tops: list[tuple[int, str]] = field(default_factory=list)
    fellows: set[str] = field(default_factory=set)

    def follow_rate(self, history: Sequence[tuple[str, str]]) -> float:
        """The share of non-Traitor papers that named their vote's consensus (with the ``PRIOR_FOLLOW`` prior).

        Args:
            history: every revealed paper of the series so far, in order: (voter, name written).
        """
        hits, papers = PRIOR_FOLLOW * PRIOR_PAPERS, PRIOR_PAPERS
        for i, (start, top) in enumerate(self.tops):
            end = self.tops[i + 1][0] if i + 1 < len(self.tops) else len(history)
            for voter, target in history[start:end]:
                if voter not in self.fellows and voter != top:
                    papers += 1
                    hits += target == top
        return hits / papers

    def note_vote(self, at: int, top: str, distinct: bool) -> None:
        """A vote opens with its first paper at ``at`` in the history; ``top`` its consensus."""
        if self.tops and self.tops[-1][0] == at:
            self.tops.pop()  # an earlier call for the same vote (nothing revealed since)
        if distinct:
            self.tops.append((at, top))


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
    if follow * faithful > bloc + FOLLOWED_MARGIN:
        # The Faithful's papers decide the vote: write as a Faithful following the evidence would, a fellow
        # included once the evidence is against them (sparing a doomed fellow marks every Traitor who did).
        if first.target not in fellows or p.get(first.target, 0.0) >= BUS_AT:
            return first
    # The Traitors' bloc decides a vote of spread papers: all write the likeliest Faithful.
    return next((a for a in ranked if a.target not in fellows), first)

__all__ = ["VoteReading", "bloc_vote"]
