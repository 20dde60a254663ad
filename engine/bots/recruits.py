"""What a Faithful can infer about recruits (rulebook §7.2): who may have joined the Traitors since the deal.

The weights of ``engine.bots.belief`` are over the Traitors *at the deal*; a recruit was Faithful then, so those
weights never suspect them. The public view shows every night's murder (``PublicView.out``), so a Faithful sees
the *quiet* nights: a night with no murder while the Traitors could act. With three or more Traitors left a quiet
night is a save (a murder shield, The Guardian, the Survivor); once a Traitor has been revealed the Traitors may
seduce (two left) or must give an ultimatum (one left), and a quiet night most likely means a recruit. The series
going on after every dealt Traitor is revealed means one for certain (§9: it ends when no Traitor is left).

Who is the recruit? Anyone still in the castle, the likelier the less they were suspected of being dealt Traitor
(a recruit was Faithful at the deal) and the more their papers since that night left the consensus the Faithful
followed (``engine.bots.traitor_play.VoteReading``): a Traitor need not follow the evidence.

Nothing here reads the game state: only the public view, the revealed papers and the contestant's own chances.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.bots.traitor_play import VoteReading

QUIET_RECRUIT = 0.8
"""The chance that a quiet night after a Traitor was revealed was a recruitment (not a save or a declined
seduction)."""
QUIET_SAVE = 0.05
"""... while no Traitor has been revealed yet (the Traitors murder; a quiet night is a save)."""
RECRUIT_FOLLOW = 0.4
"""How often a recruit writes the consensus (a Faithful does ``VoteReading.follow_rate`` of the time)."""
FINAL_ROUND = 5
"""From this many contestants on, nobody is murdered (the finale; rulebook §9)."""


def quiet_nights(public: Any, k: int, after_reveal: float = QUIET_RECRUIT) -> tuple[float, int]:
    """The expected number of recruits still in the castle (see the module docstring), and the first quiet night.

    Args:
        public: the ``PublicView`` (``out``: name, how, day, revealed; ``seats``; ``day``; ``winner``).
        k: the Traitors dealt (the welcome).
        after_reveal: the chance that a quiet night after a reveal was a recruitment.

    Returns:
        (a count, 0 or more: at least 1 when every dealt Traitor is revealed and the series goes on; the day of
        the first quiet night after a reveal, or ``public.day`` when there was none).
    """
    out = public.out
    murdered = {o.day for o in out if o.how == "murdered"}
    revealed = [o.day for o in out if o.revealed == "traitor"]
    reveal = min(revealed, default=public.day)
    left = [0] * (public.day + 1)  # left[d]: contestants gone before night d's murder
    for o in out:
        if o.day < public.day:
            left[o.day + (o.how == "murdered")] += 1
    expected, first, gone = 0.0, public.day, left[0]
    for night in range(1, public.day):
        gone += left[night]
        if len(public.seats) - gone <= FINAL_ROUND or night in murdered:
            continue
        if night >= reveal:
            expected += after_reveal
            first = min(first, night)
        else:
            expected += QUIET_SAVE
    found = len(revealed) - k
    expected = max(0.0, expected - max(0, found))
    if found >= 0 and not public.winner:
        expected, first = max(expected, 1.0), min(first, public.day - 1)
    return expected, first


def recruit_chances(
    public: Any,
    k: int,
    p: Mapping[str, float],
    reading: VoteReading,
    history: Sequence[tuple[str, str]],
    me: str,
    *,
    others_join: bool = True,
) -> dict[str, float]:
    """Per contestant in the castle (``me`` excepted), the chance they are a recruit.

    Args:
        public: the ``PublicView``.
        k: the Traitors dealt.
        p: the Faithful's chance per contestant of having been dealt Traitor.
        reading: the Faithful's record of each vote's consensus (``VoteReading.note_vote``).
        history: every revealed paper of the series.
        me: the Faithful.
        others_join: whether the Faithful expects the others to accept offers, as it would (answering to win);
            ``False``: a Faithful who refuses expects the others to refuse too, so a quiet night after a reveal is
            a declined seduction or a save (``QUIET_SAVE``), and only a series that goes on after every dealt
            Traitor is revealed tells of a recruit.
    """
    expected, first = quiet_nights(public, k, QUIET_RECRUIT if others_join else QUIET_SAVE)
    names = [n for n in public.in_castle if n != me]
    if expected <= 0.0 or not names:
        return {}
    follow = min(max(reading.follow_rate(history), 0.05), 0.95)
    follows, strays = math.log(RECRUIT_FOLLOW / follow), math.log((1.0 - RECRUIT_FOLLOW) / (1.0 - follow))
    score = dict.fromkeys(names, 0.0)
    for voter, target, top, day in reading.papers(history):
        if voter in score and day > first and top != voter:
            score[voter] += follows if target == top else strays
    most = max(score.values())
    weight = {n: (1.0 - p.get(n, 0.0)) * math.exp(score[n] - most) for n in names}
    total = sum(weight.values())
    return {n: min(1.0, expected * w / total) for n, w in weight.items()} if total else {}


__all__ = ["quiet_nights", "recruit_chances"]
