"""What the demo commands print besides the game log: the live announcements (breakfast arrivals grouped), the
phase lines of ``traitors serve-demo`` and ``traitors sandbox``, and the closing summary that says why the
winner won.

All of it is for the person watching, so the commands send it to stderr (``demo``) or print it as progress
lines (``serve-demo``, ``sandbox``); the game log itself stays alone on stdout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

from bridge.app.export import ENDINGS, left_text
from engine.effects import Announce, ClockStarted, Effect
from engine.ids import Torch
from engine.outcome import Winner
from engine.record import ContestantRecord, NightRecord, RoundTableRecord, SeriesRecord, TorchRound
from engine.rulesets import RULESETS

ARRIVAL_KEY = "breakfast.arrives"
"""The message key of one contestant's arrival at breakfast (rulebook §3: they arrive one by one)."""


class LiveAnnouncements:
    """An effect observer that prints each public announcement with the seconds since ``started``.

    The arrivals at one breakfast come one announcement each; they are printed as one line
    (``At breakfast, in order of arrival: Ari, Zuri, …``) when the next announcement comes or at ``flush``.

    Args:
        out: where to print.
        started: ``time.monotonic()`` at the start of the series.
        clock: seconds, monotonic (tests pass their own).
    """

    def __init__(self, out: TextIO, started: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.out = out
        self.started = started
        self.clock = clock
        self._arrivals: list[str] = []
        self._arrivals_at = 0.0

    def __call__(self, effect: Effect) -> None:
        if not isinstance(effect, Announce):
            return
        now = self.clock() - self.started
        message = effect.message
        if message.key == ARRIVAL_KEY:
            if not self._arrivals:
                self._arrivals_at = now
            self._arrivals.append(str(dict(message.params).get("player", "?")))
            return
        self.flush()
        self._line(now, message.text)

    def flush(self) -> None:
        """Print the arrivals held back, if any."""
        if self._arrivals:
            names, self._arrivals = self._arrivals, []
            self._line(self._arrivals_at, f"At breakfast, in order of arrival: {', '.join(names)}.")

    def _line(self, at: float, text: str) -> None:
        print(f"[{at:6.2f}s] {text}", file=self.out, flush=True)


def phase_line(label: str, seconds: float, day: int | None = None) -> str:
    """One progress line for a phase whose clock starts: ``phase: day 2, Round table, 300 s``."""
    where = f"day {day}, " if day is not None else ""
    shown = f"{seconds:.0f}" if seconds >= 10 else f"{seconds:.1f}".removesuffix(".0")
    return f"phase: {where}{label}, {shown} s"


def phase_printer(out: TextIO, day: Callable[[], int | None]) -> Callable[[Effect], None]:
    """An effect observer that prints ``phase_line`` for every ``ClockStarted``.

    Args:
        out: where to print.
        day: the series' current day (called when a phase starts), or ``None`` when not known yet.
    """

    def observe(effect: Effect) -> None:
        if isinstance(effect, ClockStarted):
            print(phase_line(effect.label.text, effect.seconds, day()), file=out, flush=True)

    return observe


# ---------------------------------------------------------------------------------------------- the summary


def explain(record: SeriesRecord) -> list[str]:
    """A few lines that say why the series ended as it did, for the end of ``traitors demo``.

    For The Traitors: every Traitor's fate (banished on which day and by what count, or still in at the end),
    the recruitments, and the finale (torch votes and finale banishments). For a club ruleset: how it ended, the
    winners with their roles, and who left the game. A series without a winner gives one line saying so.

    Returns:
        Lines without trailing newlines; the first is ``"Why: …"``.
    """
    if record.winner is None:
        return ["Why: the series did not finish."]
    ending = ENDINGS.get(record.termination or "", "")
    winners = [c.name for c in record.contestants if c.winner]
    lines = [f"Why: {Winner(record.winner).title} ({', '.join(winners) or 'nobody'}). {ending}".rstrip()]
    spec = RULESETS.get(record.ruleset)
    return lines + WHY.get(spec.family if spec is not None else "", _club_lines)(record)


def _is_traitor(c: ContestantRecord) -> bool:
    return c.allegiance == "traitor" or c.recruited_day is not None


def _banishments(record: SeriesRecord) -> dict[str, RoundTableRecord]:
    return {e.banished: e for e in record.events if isinstance(e, RoundTableRecord) and e.banished}


def _fate(c: ContestantRecord, tables: dict[str, RoundTableRecord]) -> str:
    """``"banished on day 4 (5-3-1)"``, ``"murdered on night 2"``, ``"still in at the end"``."""
    table = tables.get(c.name)
    if c.out == "banished" and table is not None:
        when = "in the finale" if table.finale else f"on day {table.day}"
        if table.accused == c.name and table.accusation == "banished":
            return f"banished {when} by the Sheriff's accusation, without a vote"
        if table.deadlock:
            return f"banished {when}: drew the empty chest in a deadlock"
        count = table.rounds[-1].count if table.rounds else ""
        return f"banished {when}" + (f" ({count})" if count else "")
    if c.out:
        return f"{c.out} on {'night' if c.out == 'murdered' else 'day'} {c.out_day}"
    return "still in at the end"


def _left_at(record: SeriesRecord, c: ContestantRecord) -> int:
    """The index in ``record.events`` of the event in which ``c`` left (``len(events)``: still in)."""
    for i, e in enumerate(record.events):
        if isinstance(e, RoundTableRecord) and e.banished == c.name:
            return i
        if isinstance(e, NightRecord) and c.out == "murdered" and e.day == c.out_day:
            return i
    return len(record.events)


def _traitor_lines(record: SeriesRecord) -> list[str]:
    tables = _banishments(record)
    traitors = [c for c in record.contestants if _is_traitor(c)]
    traitors.sort(key=lambda c: (_left_at(record, c), c.seat))
    fates = []
    for c in traitors:
        who = c.name if c.recruited_day is None else f"{c.name} (recruited)"
        fates.append(f"{who} {_fate(c, tables)}")
    lines = [f"- The Traitors: {'; '.join(fates)}." if fates else "- There were no Traitors."]
    recruited = [c for c in traitors if c.recruited_day is not None]
    recruited.sort(key=lambda c: (c.recruited_day or 0, c.seat))
    if recruited:
        lines.append("- Recruited: " + "; ".join(f"{c.name} on night {c.recruited_day}" for c in recruited) + ".")
    else:
        lines.append("- Nobody was recruited.")
    lines.append(_finale_line(record))
    survivors = [c.name for c in traitors if not c.out]
    if record.winner == Winner.TRAITORS.value and survivors:
        lines.append(f"- So the Traitors win: {', '.join(survivors)} reached the end without being banished.")
    elif record.winner == Winner.FAITHFUL.value and traitors:
        last = traitors[-1]
        lines.append(f"- So the Faithful win: the last Traitor, {last.name}, was {_fate(last, tables)}.")
    return lines


def _finale_line(record: SeriesRecord) -> str:
    torches = [e for e in record.events if isinstance(e, TorchRound)]
    banished = [e for e in record.events if isinstance(e, RoundTableRecord) and e.finale and e.banished]
    if not torches and not banished:
        return "- No finale was played."
    by_name = {c.name: c for c in record.contestants}
    parts = []
    if torches:
        last = torches[-1].choices.values()
        end = sum(1 for t in last if t == Torch.END_GAME.value)
        again = sum(1 for t in last if t == Torch.BANISH_AGAIN.value)
        parts.append(
            f"{len(torches)} torch vote{'s' if len(torches) != 1 else ''}, the last {end} "
            f"{Torch.END_GAME.title} to {again} {Torch.BANISH_AGAIN.title}"
        )
    if banished:
        names = []
        for e in banished:
            c = by_name.get(e.banished or "")
            side = "Traitor" if c is not None and _is_traitor(c) else "Faithful"
            names.append(f"{e.banished} ({side})")
        parts.append("banished in the finale: " + ", ".join(names))
    else:
        parts.append("nobody banished in the finale")
    return "- Finale: " + "; ".join(parts) + "."


def _club_lines(record: SeriesRecord) -> list[str]:
    winners = [f"{c.name} ({c.power})" for c in record.contestants if c.winner]
    out = [c for c in record.contestants if c.out]
    out.sort(key=lambda c: (c.out_day or 0, c.seat))
    lines = [f"- Winners: {', '.join(winners)}." if winners else "- Nobody is on the winning side."]
    if out:
        lines.append("- Out: " + "; ".join(f"{c.name} ({c.power}) {left_text(c, False).lower()}" for c in out) + ".")
    return lines


WHY: dict[str, Callable[[SeriesRecord], list[str]]] = {"traitors": _traitor_lines, "club": _club_lines}
"""Game family (``engine.core.ruleset.Ruleset.family``) → the lines after "Why: …" (an unknown ruleset: the club
game's)."""


__all__ = ["WHY", "LiveAnnouncements", "explain", "phase_line", "phase_printer"]
