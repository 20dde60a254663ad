"""The per-contestant summary of a series record: the columns that mean something in its ruleset, with their values.

``summarize(record)`` gives one dict per contestant (the JSON game log's ``summary``); ``COLUMNS`` says which of
its keys each ruleset's "Contestants" table shows, under which heading (``bridge.app.export``; ``docs/game-log.md``),
as each ruleset's registry entry declares them (``engine.core.ruleset.Ruleset.columns``); ``summarize`` counts
every key below, so a new ruleset picks its columns among them.

* ``traitors``: the round tables attended, votes cast, votes naming a Traitor (a contestant who was a Traitor
  that day: dealt, or recruited on an earlier night), votes received (a double vote paper counts two). Every
  vote round counts: first vote, revote, second vote, finale banishments.
* ``black_knights``: the days lived (alive when the day began, after the night's deaths), the candidates put
  forward in the speeches, votes cast, votes naming an opponent (a contestant of another team: White Order,
  Black Order, the Mad Knight alone), votes received. Every vote round counts, a repeated vote too.
* ``mafia_yakuza``: the days lived, votes cast ("keep everyone" included), votes to keep everyone, votes naming an
  opponent (another faction: Mafia, Yakuza, town, Loners), votes received.

Everything here is a pure function of the record.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.record import KEEP, ClubDayRecord, ContestantRecord, RoundTableRecord, SeriesRecord, VoteRound
from engine.rulesets import DEFAULT_RULESET, RULESETS

COLUMNS: dict[str, tuple[tuple[str, str], ...]] = {name: r.columns for name, r in RULESETS.items()}
"""Ruleset → the summary's counted columns, in table order: (heading, ``summarize`` key), each ruleset's own
(``engine.core.ruleset.Ruleset.columns``)."""


def columns(ruleset: str) -> tuple[tuple[str, str], ...]:
    """The counted columns of ``ruleset``'s summary (an unknown ruleset: the default ruleset's columns)."""
    return COLUMNS.get(ruleset, COLUMNS[DEFAULT_RULESET])


def _was_traitor(c: ContestantRecord, day: int) -> bool:
    if c.allegiance == "traitor" and c.recruited_day is None:
        return True
    return c.recruited_day is not None and c.recruited_day < day


def _votes(rounds: list[VoteRound]) -> Iterator[tuple[str, str, int]]:
    """Every cast vote of ``rounds``: (voter, what they wrote, the paper's weight)."""
    for r in rounds:
        for voter, target in r.votes.items():
            if target is not None:
                yield voter, target, r.weights.get(voter, 1)


def summarize(record: SeriesRecord) -> list[dict[str, Any]]:
    """The per-contestant summary (``docs/game-log.md``).

    Returns:
        One dict per contestant in seat order: ``{"name", <the ruleset's COLUMNS keys>, "out", "out_day",
        "winner"}``, each count a whole number.
    """
    keys = [key for _, key in columns(record.ruleset)]
    stats = {c.name: dict.fromkeys(keys, 0) for c in record.contestants}
    by_name = {c.name: c for c in record.contestants}
    for e in record.events:
        if isinstance(e, RoundTableRecord):
            present, day, rounds = e.present, e.day, e.rounds
        elif isinstance(e, ClubDayRecord):
            present, day, rounds = e.present, e.day, e.rounds
            for speaker, target in e.nominations.items():
                if target is not None and speaker in stats and "put_forward" in stats[speaker]:
                    stats[speaker]["put_forward"] += 1
        else:
            continue
        for n in present:
            if n in stats:
                stats[n][keys[0]] += 1  # round tables attended, or days lived
        for voter, target, weight in _votes(rounds):
            if voter not in stats:
                continue
            s = stats[voter]
            s["votes_cast"] += 1
            if target == KEEP:
                if "votes_to_keep" in s:
                    s["votes_to_keep"] += 1
                continue
            t = by_name.get(target)
            if t is None:
                continue
            stats[target]["votes_received"] += weight
            if "votes_for_traitors" in s and _was_traitor(t, day):
                s["votes_for_traitors"] += 1
            if "votes_for_opponents" in s and t.allegiance != by_name[voter].allegiance:
                s["votes_for_opponents"] += 1
    return [
        {"name": c.name, **stats[c.name], "out": c.out, "out_day": c.out_day, "winner": c.winner}
        for c in record.contestants
    ]


__all__ = ["COLUMNS", "columns", "summarize"]
