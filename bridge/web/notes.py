"""The host's own notes, one per contestant of a series, kept in the series store beside the series
(``docs/host.md``, "The web grimoire").

House rules of this file:

1. The notes are the host's: only the host page is sent them (``bridge/web/hub.py`` puts them in the grimoire's
   ``notes`` part); the spectator feed never reads them, and they are never logged.
2. Kept in the store's ``notes`` table, per series, written as the host saves: a restart finds them again. Like
   every row of the store, a note is never updated or deleted (``bridge/loop/store.py`` house rule 4): saving
   adds a row, the newest row per contestant is the note, an empty text clears it.
3. Without a store (the sandbox rig, a demo) the notes live in memory for as long as the process.
"""

from __future__ import annotations

import time

from bridge.loop.store import SeriesStore

__all__ = ["MAX_NOTE", "HostNotes"]

MAX_NOTE = 2000
"""The longest note kept (characters); a longer one is cut."""

_TABLE = """
CREATE TABLE IF NOT EXISTS notes (
    series     INTEGER NOT NULL,
    contestant TEXT    NOT NULL,
    host       TEXT    NOT NULL,
    text       TEXT    NOT NULL,
    at         REAL    NOT NULL
)"""


class HostNotes:
    """The notes of one series.

    Args:
        store: the series store (``None``: in memory only, house rule 3).
        series: the stored series' id.

    Attributes:
        notes: contestant → note (no empty notes).
    """

    def __init__(self, store: SeriesStore | None = None, series: int = 0) -> None:
        self.store, self.series = store, series
        self.notes: dict[str, str] = {}
        if store is None:
            return
        store.db.execute(_TABLE)
        rows = store.db.execute("SELECT contestant, text FROM notes WHERE series=? ORDER BY rowid", (series,))
        for contestant, text in rows:
            self._keep(str(contestant), str(text))

    def _keep(self, contestant: str, text: str) -> None:
        if text:
            self.notes[contestant] = text
        else:
            self.notes.pop(contestant, None)

    def save(self, contestant: str, text: str, host: str) -> None:
        """Keep ``text`` (cut to ``MAX_NOTE``; empty: no note) as ``host``'s note on ``contestant`` (house rule 2).

        Raises:
            sqlite3.Error: the store cannot be written (a full disk).
        """
        text = text.strip()[:MAX_NOTE]
        if self.store is not None:
            self.store.db.execute(
                "INSERT INTO notes (series, contestant, host, text, at) VALUES (?, ?, ?, ?, ?)",
                (self.series, contestant, host, text, time.time()),
            )
        self._keep(contestant, text)
