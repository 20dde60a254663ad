"""One finished series as the records database keeps it: built from its JSON game log (``traitors export --format
json``, ``docs/game-log.md``), whatever the ruleset.

Everything here is read from the record itself, so a new ruleset needs nothing here: the cast (allegiance,
power, how each left), the winner, the events, the settings; ``engine.sim`` says which side a winner's value
stands for (``SIDE_WINS``) and which twists a setup switches on (``twists_of``), as the balance lab counts them.

* **Setup**: the settings that decide balance: every setting (as the series store keeps them,
  ``bridge.config.settings_json``) but the names (contestants and hosts) and the phase clocks (``durations``),
  with the number of contestants and the ruleset. Two series with the same setup have
  the same ``setup_key`` (the first 16 hex digits of SHA-256 of its canonical JSON), wherever they were played.
* **Side at the end**: a recruited Faithful ends as a Traitor (rulebook §3); anyone else ends on the side dealt.
* **Winning side**: the contestants whose side at the end is the side that won, and the winners themselves
  (the Joker), whether or not they were still in: ``engine.sim.SeriesResult.winning_side``'s rule, so a power's
  share on the winning side means the same here as in the balance lab.
* **Votes that found the other side**: the summary's votes naming a Traitor (``votes_for_traitors``) or, in the
  club rulesets, naming an opponent (``votes_for_opponents``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.sim import SIDE_WINS

NAMES_AND_CLOCKS = ("contestants", "hosts", "durations")
"""Settings that are not part of a setup."""

FOUND_KEYS = ("votes_for_traitors", "votes_for_opponents")
"""Summary columns that count votes naming the other side (``bridge.app.summary``), the first present counts."""


def setup_of(settings: Mapping[str, Any], ruleset: str) -> dict[str, Any]:
    """The setup of a series' settings (the module docstring): a JSON-ready dict."""
    setup = {k: v for k, v in settings.items() if k not in NAMES_AND_CLOCKS}
    setup["ruleset"] = ruleset
    setup["contestants"] = len(settings.get("contestants") or ())
    return setup


def setup_key(setup: Mapping[str, Any]) -> str:
    """The setup's key: 16 hex digits of SHA-256 of its canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(setup, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class ContestantRow:
    """One seat of a recorded series (table ``contestants``; names as in ``bridge/records/schema.py``)."""

    seat: int
    name: str
    allegiance: str
    side: str
    power: str | None
    false_power: str | None
    recruited_day: int | None
    out: str | None
    out_day: int | None
    winner: bool
    winning_side: bool
    votes_cast: int
    votes_found: int
    votes_received: int


@dataclass(frozen=True, slots=True)
class SeriesEntry:
    """A finished series ready to be written (``RecordsDb.write``).

    Args:
        key: the series' own identity (its store's tag and its seed): writing the same key twice keeps one row set.
        settings: the series' settings as the store keeps them (``bridge.config.settings_json.settings_to_json``).
        castle: which castle (server) played it.
        season: the season label (``[records] season``; ``""``: none).
        record: the JSON game log with its ``summary`` (``traitors export --format json``).
        tables: the same record as the rulebook's tables (``traitors export --format text``).
        minecraft: the server's release (``""`` when not known, e.g. an imported store).
        started, ended: seconds since the epoch (the series' first and last input), or ``None``.
        twists: the twists its settings switched on (``engine.sim.twists_of``).
    """

    key: str
    settings: Mapping[str, Any]
    castle: str
    season: str
    record: Mapping[str, Any]
    tables: str
    minecraft: str = ""
    started: float | None = None
    ended: float | None = None
    twists: tuple[str, ...] = ()
    contestants: tuple[ContestantRow, ...] = field(default=())

    @property
    def ruleset(self) -> str:
        return str(self.record.get("ruleset", ""))

    @property
    def setup(self) -> dict[str, Any]:
        return setup_of(self.settings, self.ruleset)

    @property
    def duration(self) -> float | None:
        """Seconds from the first input to the last, or ``None``."""
        if self.started is None or self.ended is None:
            return None
        return max(0.0, self.ended - self.started)

    @property
    def days(self) -> int:
        """The last day any event of the record names (0 when none does)."""
        days = [e.get("day") for e in self.record.get("events", [])]
        return max([d for d in days if isinstance(d, int)], default=0)


def side_at_end(contestant: Mapping[str, Any]) -> str:
    """A contestant's side when the series ended (the module docstring)."""
    if contestant.get("recruited_day") is not None:
        return "traitor"
    return str(contestant.get("allegiance") or "")


def contestant_rows(record: Mapping[str, Any]) -> tuple[ContestantRow, ...]:
    """The seats of a JSON game log as rows (the module docstring)."""
    winner = str(record.get("winner") or "")
    summary = {s.get("name"): s for s in record.get("summary", [])}
    rows = []
    for c in record.get("contestants", []):
        s = summary.get(c.get("name"), {})
        side = side_at_end(c)
        found = next((int(s[k]) for k in FOUND_KEYS if k in s), 0)
        rows.append(
            ContestantRow(
                seat=int(c["seat"]),
                name=str(c["name"]),
                allegiance=str(c.get("allegiance") or ""),
                side=side,
                power=c.get("power"),
                false_power=c.get("false_power"),
                recruited_day=c.get("recruited_day"),
                out=c.get("out"),
                out_day=c.get("out_day"),
                winner=bool(c.get("winner")),
                winning_side=bool(c.get("winner")) or (winner != "" and SIDE_WINS.get(side, side) == winner),
                votes_cast=int(s.get("votes_cast", 0)),
                votes_found=found,
                votes_received=int(s.get("votes_received", 0)),
            )
        )
    return tuple(rows)


def make_entry(
    record: Mapping[str, Any],
    tables: str,
    *,
    key: str,
    settings: Mapping[str, Any],
    castle: str,
    season: str = "",
    minecraft: str = "",
    started: float | None = None,
    ended: float | None = None,
    twists: tuple[str, ...] = (),
) -> SeriesEntry:
    """A ``SeriesEntry`` from a finished series' JSON game log and its text tables.

    Raises:
        ValueError: the record has no winner (the series is not over: it is never recorded) or no contestants.
    """
    if not record.get("winner"):
        raise ValueError("the series is not over: only finished series are recorded")
    rows = contestant_rows(record)
    if not rows:
        raise ValueError("the record names no contestants")
    return SeriesEntry(key, settings, castle, season, record, tables, minecraft, started, ended, twists, rows)


__all__ = ["ContestantRow", "SeriesEntry", "contestant_rows", "make_entry", "setup_key", "setup_of", "side_at_end"]
