"""The options a Traitors prompt offers: vote papers, the Turret's events and nominations, power uses, torches.
Each is made when asked for (a ballot keeps its papers for the vote); the ``Choice`` values inside come from
``engine.effects.choice``, which remembers them (``docs/performance.md``).

Each offer carries its prompt's ``Choice`` values and their inputs in the same order, so what a prompt shows and
what ``Game.legal_actions`` lists can never differ.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.actions import Action, CastVote, ChooseEvent, ChooseTorch, NominateDoubleVote, SkipPower, UsePower
from engine.effects import Choice, Prompt, choice, msg
from engine.ids import TORCHES, NightEvent

EVENT_LABELS = {e: e.value.capitalize() for e in (NightEvent.MURDER, NightEvent.SEDUCE, NightEvent.ULTIMATUM)}
"""The night's events in the order the Turret lists them, with their labels ("Murder Sam")."""


class VotePaper(NamedTuple):
    """One voter's vote paper in a ballot (``vote_paper``)."""

    choices: tuple[Choice, ...]
    """One option per candidate but the voter, in the candidates' order."""
    inputs: tuple[Action, ...]
    """The options' inputs, in the same order."""
    prompt: Prompt
    """The vote prompt showing ``choices`` to the voter."""


class Offer(NamedTuple):
    """Options offered to one contestant in a prompt, and their inputs (``Game.legal_actions`` lists those)."""

    choices: tuple[Choice, ...]
    inputs: tuple[Action, ...]


def _offer(choices: list[Choice]) -> Offer:
    return Offer(tuple(choices), tuple([c.action for c in choices]))


def vote_paper(voter: str, candidates: tuple[str, ...]) -> VotePaper:
    """``voter``'s vote paper for a ballot among ``candidates`` (rulebook §4: every candidate but oneself)."""
    choices = tuple([choice(c, CastVote, voter, c) for c in candidates if c != voter])
    prompt = Prompt(frozenset((voter,)), msg("vote.prompt"), choices)
    return VotePaper(choices, tuple([c.action for c in choices]), prompt)


def event_offer(traitor: str, events: frozenset[NightEvent], faithful: tuple[str, ...]) -> Offer:
    """``traitor``'s Turret choices: every event of ``events`` (in ``EVENT_LABELS`` order) against every one of
    ``faithful`` (the living Faithful in seat order; rulebook §7.2)."""
    pairs = [(e, t) for e in EVENT_LABELS if e in events for t in faithful]
    return _offer([choice(f"{EVENT_LABELS[e]} {t}", ChooseEvent, traitor, e, t) for e, t in pairs])


def nomination_offer(traitor: str, living: tuple[str, ...]) -> Offer:
    """``traitor``'s choices of tomorrow's double vote holder: every one of ``living`` (rulebook §8)."""
    return _offer([choice(n, NominateDoubleVote, traitor, n) for n in living])


def use_choice(user: str, target: str, second: str | None) -> Choice:
    """The option "use your power on ``target``" (and ``second``, for The Analyst: labelled "A & B")."""
    return choice(target if second is None else f"{target} & {second}", UsePower, user, target, second)


def skip_power(contestant: str) -> SkipPower:
    """``SkipPower(contestant)``: the input that passes on a power."""
    return SkipPower(contestant)


def torch_inputs(finalist: str) -> tuple[ChooseTorch, ...]:
    """``finalist``'s finale votes: both, in ``Torch`` order (rulebook §9: a vote can be changed, or kept, until
    the vote is locked)."""
    return tuple([ChooseTorch(finalist, t) for t in TORCHES])


def most_picked(picks: list[str], draw: Callable[[Sequence[str]], str]) -> str:
    """The pick named most often; a tie among the first-named is settled by ``draw`` (rulebook §7.2 [house]).

    Args:
        picks: the picks in the order made (at least one).
        draw: the seeded draw among the tied picks (``Context.draw``).
    """
    counts: dict[str, int] = {}  # in order of first pick, as a Counter would be
    for pick in picks:
        counts[pick] = counts.get(pick, 0) + 1
    best = max(counts.values())
    tied = [k for k, v in counts.items() if v == best]
    return tied[0] if len(tied) == 1 else draw(tied)


__all__ = [
    "EVENT_LABELS",
    "Offer",
    "VotePaper",
    "event_offer",
    "most_picked",
    "nomination_offer",
    "skip_power",
    "torch_inputs",
    "use_choice",
    "vote_paper",
]
