"""The finished series' timeline for the host page: the record's events as steps a slider moves through, each
with what happened and who was out by then (``docs/host.md``, "The web grimoire").

House rules of this file:

1. Read from the record only (``engine.record.SeriesRecord``, the club rulesets' night and day records): the
   timeline is the record told step by step, the same truth ``traitors export`` prints.
2. Host page only while a series runs; it is sent once the series is over (``bridge/web/grimoire.py``).
3. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.record import (
    BreakfastRecord,
    ClubDayRecord,
    ClubNightRecord,
    NightRecord,
    RoundTableRecord,
    SeriesRecord,
    TorchRound,
    TwistRecord,
    VoteRound,
)

__all__ = ["timeline"]

Told = tuple[str, list[str], list[tuple[str, str]]]
"""One event told: its title, its lines, and who went out in it (``(name, how)``)."""


def _names(names: list[str] | tuple[str, ...]) -> str:
    return ", ".join(names) if names else "nobody"


def _vote(r: VoteRound) -> str:
    papers = ", ".join(
        f"{v} → {t or 'no vote'}{' (x2)' if r.weights.get(v, 1) == 2 else ''}" for v, t in r.votes.items()
    )
    return f"{r.kind} vote {r.count}: {papers}"


def _night(e: NightRecord) -> Told:
    lines = [
        f"Oath: {_names(e.sworn)}",
        f"event: {e.event or 'none'}" + (f" on {e.target}: {e.result}" if e.target else ""),
    ]
    if e.double_vote:
        lines.append(f"double vote: {e.double_vote}")
    lines += [
        f"{u.get('contestant')}: {u.get('power')} on {_names(u.get('targets') or [])}"
        + (f" ({u['result']})" if u.get("result") else "")
        for u in e.powers
    ]
    return f"Night {e.day}", lines, []


def _breakfast(e: BreakfastRecord) -> Told:
    return (
        f"Breakfast, day {e.day}",
        [f"arrivals: {_names(e.arrivals)}", f"murdered: {_names(e.murdered)}"],
        [(n, "murdered") for n in e.murdered],
    )


def _round_table(e: RoundTableRecord) -> Told:
    lines = [_vote(r) for r in e.rounds]
    if e.deadlock:
        lines.append(f"deadlock: {_names(e.deadlock)}")
    lines.append(f"banished: {e.banished or 'nobody'}" + (f" ({e.revealed})" if e.revealed else ""))
    out = [(e.banished, "banished")] if e.banished else []
    if e.survivor_murdered:
        lines.append(f"murdered after the round table: {e.survivor_murdered}")
        out.append((e.survivor_murdered, "murdered"))
    return f"{'Finale vote' if e.finale else 'Round table'}, day {e.day}", lines, out


def _torches(e: TorchRound) -> Told:
    return "Torches", [f"{f}: {t or 'no torch'}" for f, t in e.choices.items()] + [f"count: {e.count}"], []


def _twist(e: TwistRecord) -> Told:
    return f"Twist {e.twist.replace('_', ' ')}, day {e.day}", [f"{k}: {v}" for k, v in e.details.items()], []


def _club_night(e: ClubNightRecord) -> Told:
    lines = [f"{a.get('step')}: {a.get('contestant') or 'the team'} → {a.get('target') or 'passed'}" for a in e.acts]
    if e.blocked:
        lines.append(f"blocked: {_names(e.blocked)}")
    lines.append(f"died: {_names([f'{k} ({v})' for k, v in e.deaths.items()])}")
    return f"Night {e.night}", lines, [(k, "killed") for k in e.deaths]


def _club_day(e: ClubDayRecord) -> Told:
    named = ", ".join(f"{k} → {v or 'held back'}" for k, v in e.nominations.items())
    lines = [f"nominations: {named}"] if named else []
    lines += [_vote(r) for r in e.rounds]
    lines.append(f"left: {e.left or 'nobody'}" + (f" ({e.revealed})" if e.revealed else ""))
    return f"Day {e.day}", lines, [(e.left, "voted out")] if e.left else []


_TELLERS: dict[type, Callable[[Any], Told]] = {
    NightRecord: _night,
    BreakfastRecord: _breakfast,
    RoundTableRecord: _round_table,
    TorchRound: _torches,
    TwistRecord: _twist,
    ClubNightRecord: _club_night,
    ClubDayRecord: _club_day,
}
"""Record event class → how it is told."""


def timeline(record: SeriesRecord) -> list[dict[str, Any]]:
    """The record as steps (house rule 1): the deal, every event in order, the result.

    Returns:
        ``[{"title", "lines": [text], "out": [[name, how], ...]}]``: ``out`` is everyone out by the end of that
        step, in the order they went.
    """
    out: list[list[str]] = []
    cast = [f"{c.seat} {c.name}: {c.allegiance}" + (f", {c.power}" if c.power else "") for c in record.contestants]
    steps: list[dict[str, Any]] = [{"title": "The deal", "lines": cast, "out": []}]
    for event in record.events:
        tell = _TELLERS.get(type(event))
        if tell is None:
            continue
        title, lines, gone = tell(event)
        out = out + [[name, how] for name, how in gone if name not in {o[0] for o in out}]
        steps.append({"title": title, "lines": lines, "out": out})
    winners = [c.name for c in record.contestants if c.winner]
    steps.append(
        {
            "title": "The result",
            "out": out,
            "lines": [
                f"winner: {record.winner or 'none'}" + (f" ({record.termination})" if record.termination else ""),
                f"won: {_names(winners)}",
            ],
        }
    )
    return steps
