"""What a season keeps in the series store besides the series themselves (``docs/seasons.md``): the lobby's
sign-ups, facts learnt while a series ran (the server's Minecraft release), and the records outbox.

House rules of this file (``bridge/loop/store.py``'s house rules hold here too):

1. Three tables of the same SQLite file, created when a season first uses the store (a store made by an older
   Castle simply has none yet): ``season_lobby`` (the lobby's inputs in order, ``bridge/loop/lobby.py``),
   ``season_facts`` (series, key, value) and ``season_recorded`` (the series already in the records database).
2. Append-only like the rest of the store: a row is written once, in its own transaction, and never changed.
3. The records outbox is the store itself: a finished series that is not in ``season_recorded`` waits to be
   written to the records database (``pending``); it is marked only once the database took it, so a records
   database that is away loses nothing.
4. A store opened read-only (``export``, ``records import``) is only read: a missing table reads as empty.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bridge.loop.store import SeriesStore

__all__ = ["LobbyRow", "SeasonStore"]

_TABLES = """
CREATE TABLE IF NOT EXISTS season_lobby (
    pos    INTEGER PRIMARY KEY,
    round  INTEGER NOT NULL,
    at     REAL    NOT NULL,
    entry  TEXT    NOT NULL
);
CREATE TABLE IF NOT EXISTS season_facts (
    series INTEGER NOT NULL,
    key    TEXT    NOT NULL,
    value  TEXT    NOT NULL,
    PRIMARY KEY (series, key)
);
CREATE TABLE IF NOT EXISTS season_recorded (
    series INTEGER PRIMARY KEY,
    target TEXT    NOT NULL,
    at     REAL    NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """One lobby input as stored: its position, the lobby round (the number of the series it is for) and the
    input (``bridge/loop/lobby.py``: ``{"action", "player", …}``)."""

    pos: int
    round: int
    entry: Mapping[str, Any]


class SeasonStore:
    """The season's tables in one series store (house rules 1-4).

    Args:
        store: the open series store.
        writable: create the tables (a service); ``False``: read only (house rule 4).

    Raises:
        StoreError: the tables cannot be created (a read-only or full disk).
    """

    def __init__(self, store: SeriesStore, *, writable: bool = True) -> None:
        self.store = store
        self.db = store.db
        if writable:
            try:
                self.db.executescript(f"BEGIN IMMEDIATE;\n{_TABLES}\nCOMMIT;")
            except sqlite3.Error as exc:
                raise store.sqlite_error(exc) from None

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                return []
            raise

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute(sql, params)
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ------------------------------------------------------------------ facts

    def note(self, series: int, key: str, value: str) -> None:
        """Keep a fact about a series (the first value stays: house rule 2)."""
        self._write("INSERT OR IGNORE INTO season_facts (series, key, value) VALUES (?, ?, ?)", (series, key, value))

    def facts(self, series: int) -> dict[str, str]:
        """Every fact kept about a series."""
        return {str(k): str(v) for k, v in self._rows("SELECT key, value FROM season_facts WHERE series=?", (series,))}

    # ------------------------------------------------------------------ the records outbox (house rule 3)

    def pending(self) -> list[int]:
        """The finished series not yet written to the records database, oldest first."""
        over = [int(r[0]) for r in self._rows("SELECT id FROM series WHERE over=1 ORDER BY id")]
        done = {int(r[0]) for r in self._rows("SELECT series FROM season_recorded")}
        return [s for s in over if s not in done]

    def mark_recorded(self, series: int, target: str) -> None:
        """The records database ``target`` (its shown address) has the series."""
        self._write(
            "INSERT OR IGNORE INTO season_recorded (series, target, at) VALUES (?, ?, ?)", (series, target, time.time())
        )

    # ------------------------------------------------------------------ the lobby

    def lobby_rows(self, round_: int) -> list[LobbyRow]:
        """The lobby inputs of one round (the series numbered ``round_``), in order."""
        rows = self._rows("SELECT pos, round, entry FROM season_lobby WHERE round=? ORDER BY pos", (round_,))
        return [LobbyRow(int(p), int(r), json.loads(e)) for p, r, e in rows]

    def add_lobby(self, round_: int, entry: Mapping[str, Any]) -> None:
        """Keep one lobby input of round ``round_`` (before its effects are sent)."""
        self._write(
            "INSERT INTO season_lobby (round, at, entry) VALUES (?, ?, ?)",
            (round_, time.time(), json.dumps(dict(entry), ensure_ascii=False)),
        )
