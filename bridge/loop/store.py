"""The series store: one SQLite file per service (``series.db``) holding everything needed to resume a series.

House rules of this file (``docs/recovery.md`` explains them to operators):

1. Standard-library ``sqlite3`` only, WAL journal, ``synchronous=FULL``: a transaction that returned from
   ``commit`` is on disk, and a reader (a backup, ``sqlite3`` on the command line) never blocks the service.
2. Per series the store keeps the settings (JSON, ``bridge.config.settings_json.settings_to_json``), the seed, a short
   random ``tag`` (used in item hand-out ids), and every input in arrival order: an accepted input as its
   ``Game.log`` entry (``{"now": …, "action": kind, …}``), a refused one with no entry; both with the datapack
   queue ``seq`` it came from (``NULL`` for the phase clock). ``last_seq`` is the highest queue ``seq`` taken.
   The host's notes on the contestants (``notes``, made on first use by ``bridge/web/notes.py``) are kept per
   series too; they play no part in resuming.
3. Each input row is written in ONE transaction together with its outbox (the rendered commands of its
   effects, in order, unsent) and the series' ``last_seq``, ``phase_seq`` and ``deadline``. The service
   commits that transaction BEFORE it sends the first command; it marks each command sent after the server
   has answered it. So after a crash the outbox holds exactly the commands that may not have reached the
   server (at most one of them did reach it: the one in flight).
4. Nothing is ever updated except ``outbox.sent`` and the series' progress columns; nothing is deleted.
5. One service per file: ``lock()`` takes an exclusive ``flock`` on ``<file>.lock`` (released by the
   operating system when the process dies, even by SIGKILL), so one series never has two phase clocks.
6. A file is used only if it is a Castle store (``application_id``, or the tables of an older store) that passes
   SQLite's ``PRAGMA quick_check``; anything else is refused with the path and what to do, and never written
   to. An existing file that holds no series (0 bytes, or a store whose series was never dealt), or a missing
   one whose side files (``.lock``, ``-wal``) show a store was there, is started afresh only when asked
   (``fresh``: ``--new-series``). A missing file with no trace is created: that is how a store begins.
7. The store and its backups hold the seed, so every role: they are created ``0600``, and opening a store
   takes group and other access away from it and its SQLite side files (``-wal``, ``-shm``, ``-journal``).
"""

from __future__ import annotations

import fcntl
import json
import os
import secrets
import sqlite3
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.config.settings_json import settings_from_json, settings_to_json
from engine.errors import ConfigError
from engine.rulesets import AnySettings, ruleset_of

SCHEMA_VERSION = 1

APPLICATION_ID = 0x43535452
"""``PRAGMA application_id`` of a Castle store (the SQLite header field for "which program's file is this")."""

TABLES = frozenset({"meta", "series", "inputs", "outbox"})
"""The tables every Castle store has (stores made before ``APPLICATION_ID`` are known by them)."""

SIDE_FILES = ("-wal", "-shm", "-journal")
"""SQLite's companions of a database file (write-ahead log, its shared-memory index, a rollback journal)."""

_SQLITE_HEADER = b"SQLite format 3\x00"
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26  # SQLite result codes (sqlite.org/rescode.html)
_RESTORE = "docs/recovery.md, Restoring a series"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS series (
    id        INTEGER PRIMARY KEY,
    tag       TEXT    NOT NULL,
    ruleset   TEXT    NOT NULL,
    settings  TEXT    NOT NULL,
    seed      INTEGER NOT NULL,
    created   REAL    NOT NULL,
    last_seq  INTEGER NOT NULL DEFAULT 0,
    phase_seq INTEGER NOT NULL DEFAULT 0,
    deadline  REAL,
    over      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS inputs (
    series    INTEGER NOT NULL REFERENCES series(id),
    pos       INTEGER NOT NULL,
    queue_seq INTEGER,
    source    TEXT,
    entry     TEXT,
    PRIMARY KEY (series, pos)
);
CREATE TABLE IF NOT EXISTS outbox (
    series  INTEGER NOT NULL,
    pos     INTEGER NOT NULL,
    i       INTEGER NOT NULL,
    command TEXT    NOT NULL,
    sent    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (series, pos, i)
);
CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox (series, pos, i) WHERE sent = 0;
"""


class StoreError(ConfigError):
    """The store file cannot be used: not a series store, empty, damaged, a newer schema, a missing series, or
    locked.

    The message is one line and starts with the file path.
    """


def make_private(path: str | Path) -> None:
    """Take group and other access away from ``path`` and its SQLite side files that exist (house rule 7).

    A file this process may not change (another owner's) is left as it is: opening it read-only still works.
    """
    for name in (str(path), *(f"{path}{side}" for side in SIDE_FILES)):
        try:
            mode = stat.S_IMODE(os.stat(name).st_mode)
            if mode & 0o077:
                os.chmod(name, mode & 0o700)
        except OSError:
            continue


def _create_private(path: Path) -> bool:
    """Create ``path`` empty with mode 0600 (SQLite gives its side files the database file's mode).

    Returns:
        False when the file already exists (another process made it first).

    Raises:
        StoreError: the file cannot be created.
    """
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return False
    except OSError as exc:
        raise StoreError(f"{path}: cannot create the series store ({exc.strerror or exc})") from None
    return True


@dataclass(frozen=True, slots=True)
class Pending:
    """One outbox command not yet confirmed as sent: input ``pos``, command index ``i``, the command ``text``."""

    pos: int
    i: int
    text: str


@dataclass(slots=True)
class StoredSeries:
    """A series as loaded from the store.

    Attributes:
        id: the series' row id.
        tag: short random id of the series (``[A-Za-z0-9]``), part of every hand-out id.
        ruleset: the ruleset's name (a key of ``engine.rulesets.RULESETS``).
        settings: the series settings (the ruleset's settings class, ``Ruleset.settings``).
        seed: the seed of the series' random generator (a secret: never shown to players).
        log: the accepted inputs in order, as ``Game.log`` entries (``Game.replay`` consumes them).
        sources: queue ``seq`` → ``source_of`` the entry taken with it (``{"uuid", "input", "value"}``).
        last_seq: the highest queue ``seq`` taken (applied or refused).
        next_pos: the position the next input gets.
        pending: outbox commands not confirmed as sent, in order.
        deadline: the phase deadline stored with the last input (seconds, the engine's ``now`` clock).
    """

    id: int
    tag: str
    ruleset: str
    settings: AnySettings
    seed: int
    log: list[dict[str, Any]] = field(default_factory=list)
    sources: dict[int, dict[str, Any]] = field(default_factory=dict)
    last_seq: int = 0
    next_pos: int = 0
    pending: list[Pending] = field(default_factory=list)
    deadline: float | None = None


class SeriesStore:
    """The SQLite series store (see the module docstring).

    Args:
        path: the database file.
        create: a service opens it (``True``): a missing file is created (mode 0600) with its tables. ``False``
            (``export``): the file must exist; nothing is written.
        fresh: an existing file holding no series (0 bytes, an empty SQLite database, a store with no series),
            or a missing one with a store's side files left, may start a new series (``--new-series``).
            Otherwise such a file is refused: a series was expected there (house rule 6).

    Attributes:
        created: this open made the store (a new series may be dealt into it).

    Raises:
        StoreError: the file is missing (``create=False``), not a Castle store, empty while a series was expected,
            damaged (``PRAGMA quick_check``; the message says how to restore the online backup), or has a
            newer schema. The message is one line starting with the path.
    """

    def __init__(self, path: str | Path, *, create: bool = True, fresh: bool = False) -> None:
        self.path = Path(path)
        self._lock_fd: int | None = None
        self.created = False
        if self._classify(create, fresh) and not (create and fresh):
            raise self._empty_error(create)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the series store ({exc})") from None
        try:
            self._check(create=create, fresh=fresh)
        except BaseException:
            self.db.close()
            raise
        make_private(self.path)

    def _classify(self, create: bool, fresh: bool) -> bool:
        """Look at the file before SQLite touches it (a missing one is created). Returns True for a 0-byte file.

        Raises:
            StoreError: missing (and not to be created), a store's traces without the store, not a regular
                file, or not an SQLite database.
        """
        p = self.path
        try:
            st = p.stat()
        except FileNotFoundError:
            if not create:
                raise StoreError(f"{p}: no such series store") from None
            traces = [f"{p}{side}" for side in (".lock", *SIDE_FILES) if os.path.exists(f"{p}{side}")]
            if traces and not fresh:
                raise StoreError(
                    f"{p}: the store is missing but {traces[0]} is there, so a series was kept here; restore the "
                    f"store from its backup ({_RESTORE}), or run with --new-series to start a new series"
                ) from None
            self.created = _create_private(p)
            return False
        except OSError as exc:
            raise StoreError(f"{p}: cannot read the series store ({exc.strerror or exc})") from None
        if not stat.S_ISREG(st.st_mode):
            raise StoreError(f"{p}: not a file, so not a series store")
        if st.st_size == 0:
            return True
        try:
            with open(p, "rb") as fh:
                head = fh.read(len(_SQLITE_HEADER))
        except OSError as exc:
            raise StoreError(f"{p}: cannot read the series store ({exc.strerror or exc})") from None
        if head != _SQLITE_HEADER:
            raise StoreError(
                f"{p}: not a Castle series store (not an SQLite database); it is left as it is: "
                "move it aside or name another store file"
            )
        return False

    def _empty_error(self, create: bool, what: str = "the file is empty (0 bytes)") -> StoreError:
        if not create:
            return StoreError(f"{self.path}: not a series store ({what})")
        return StoreError(
            f"{self.path}: {what}, so there is no series in it to resume; if a series ran here, restore it from "
            f"its backup ({_RESTORE}); to start a new series in this file, run with --new-series"
        )

    def sqlite_error(self, exc: sqlite3.Error, found_by: str = "") -> StoreError:
        """A broken file (SQLite's ``SQLITE_CORRUPT``, ``SQLITE_NOTADB``) is damage, said with the check that found
        it (``found_by``, e.g. ``"SQLite quick_check: "``); anything else (a read-only folder, a full disk) is said
        as it is."""
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
            return self._damaged(f"{found_by}{exc}")
        return StoreError(f"{self.path}: cannot use the series store ({exc})")

    def _damaged(self, what: str) -> StoreError:
        p = self.path
        return StoreError(
            f"{p}: the store is damaged ({what}); stop the service, keep the file aside (mv {p} {p}.broken, with "
            f"its -wal and -shm) and put the newest online backup in its place (cp series-backup.db {p}): {_RESTORE}"
        )

    def _check(self, *, create: bool, fresh: bool) -> None:
        """Recognise the store, check it (house rule 6), then set the journal up; create the tables if new."""
        db = self.db
        try:
            app_id = int(db.execute("PRAGMA application_id").fetchone()[0])
            tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.Error as exc:
            raise self.sqlite_error(exc) from None
        new = not tables and app_id == 0
        if new and not (create and (fresh or self.created)):
            raise self._empty_error(create, "the file is an SQLite database with no tables")
        if not new and app_id != APPLICATION_ID and not (app_id == 0 and tables >= TABLES):
            shown = ", ".join(sorted(tables)[:5]) or "none"
            raise StoreError(
                f"{self.path}: not a Castle series store (an SQLite database with tables: {shown}); "
                "it is left as it is: move it aside or name another store file"
            )
        if not new:
            try:
                problems = [str(r[0]) for r in db.execute("PRAGMA quick_check(20)")]
            except sqlite3.Error as exc:  # damage bad enough that the check itself cannot read the file
                raise self.sqlite_error(exc, "SQLite quick_check: ") from None
            if problems != ["ok"]:
                first = " ".join(problems[0].replace("*** in database main ***", "").split())
                more = f" and {len(problems) - 1} more problems" if len(problems) > 1 else ""
                raise self._damaged(f"SQLite quick_check: {first}{more}")
            if not tables >= TABLES:
                raise self._damaged(f"missing tables: {', '.join(sorted(TABLES - tables))}")
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=5000")
            if new:
                db.executescript(
                    f"BEGIN IMMEDIATE;\n{_SCHEMA}\nPRAGMA application_id={APPLICATION_ID};\n"
                    f"INSERT INTO meta VALUES ('schema', '{SCHEMA_VERSION}');\nCOMMIT;"
                )
                self.created = True
                return
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            version = str(row[0]) if row is not None else str(SCHEMA_VERSION)
            if not version.isdigit():
                raise self._damaged(f"schema version {version!r} is not a number")
            if int(version) > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {version} is newer than this program ({SCHEMA_VERSION})")
            if create and not fresh and db.execute("SELECT 1 FROM series LIMIT 1").fetchone() is None:
                raise self._empty_error(create, "the store holds no series")
            if create and app_id == 0:
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")  # a store made before it was set
        except sqlite3.Error as exc:
            raise self.sqlite_error(exc) from None

    def __repr__(self) -> str:
        return f"<SeriesStore {self.path}>"

    def close(self) -> None:
        """Close the database and release the lock (if held)."""
        self.db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> SeriesStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def lock(self) -> None:
        """Take the one-service-per-file lock (``<file>.lock``, exclusive ``flock``).

        Raises:
            StoreError: another process holds it (another service runs this series).
        """
        fd = os.open(f"{self.path}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StoreError(f"{self.path}: another service is running this series (lock {self.path}.lock)") from None
        self._lock_fd = fd

    # ------------------------------------------------------------------ series

    def create(self, settings: AnySettings, seed: int, *, ruleset: str | None = None) -> StoredSeries:
        """Store a new series (no inputs yet) and return it.

        Args:
            settings: the series settings (stored as JSON).
            seed: the seed of the series.
            ruleset: the ruleset name (default: the settings' own, ``engine.rulesets.ruleset_of``).

        Raises:
            ConfigError: the settings' ruleset is not registered.
        """
        ruleset = ruleset or ruleset_of(settings).name
        tag = secrets.token_hex(4)
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO series (tag, ruleset, settings, seed, created) VALUES (?, ?, ?, ?, ?)",
                (tag, ruleset, json.dumps(settings_to_json(settings)), seed, time.time()),
            )
        assert cur.lastrowid is not None
        return StoredSeries(cur.lastrowid, tag, ruleset, settings, seed)

    def latest(self) -> int | None:
        """The id of the newest series, or ``None`` for an empty store."""
        row = self.db.execute("SELECT max(id) FROM series").fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def is_over(self, series_id: int) -> bool:
        """Whether the series has ended (its last input ended it).

        Raises:
            StoreError: no such series.
        """
        row = self.db.execute("SELECT over FROM series WHERE id=?", (series_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no series {series_id}")
        return bool(row[0])

    def list_series(self) -> list[tuple[int, str, int, bool]]:
        """Every series in the store: ``(id, ruleset, inputs, over)``, oldest first."""
        rows = self.db.execute(
            "SELECT s.id, s.ruleset, (SELECT count(*) FROM inputs i WHERE i.series=s.id AND i.entry IS NOT NULL),"
            " s.over FROM series s ORDER BY s.id"
        ).fetchall()
        return [(int(a), str(b), int(c), bool(d)) for a, b, c, d in rows]

    def load(self, series_id: int) -> StoredSeries:
        """Read one series with its input log and unsent outbox.

        Raises:
            StoreError: no such series, or its settings no longer load.
        """
        row = self.db.execute(
            "SELECT tag, ruleset, settings, seed, last_seq, deadline FROM series WHERE id=?", (series_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no series {series_id}")
        tag, ruleset, settings_text, seed, last_seq, deadline = row
        try:
            settings = settings_from_json(json.loads(settings_text), f"{self.path}: series {series_id}: settings")
        except (ValueError, ConfigError) as exc:
            raise StoreError(str(exc)) from None
        series = StoredSeries(series_id, tag, ruleset, settings, int(seed), last_seq=int(last_seq), deadline=deadline)
        next_pos = 0
        for pos, queue_seq, source, entry in self.db.execute(
            "SELECT pos, queue_seq, source, entry FROM inputs WHERE series=? ORDER BY pos", (series_id,)
        ):
            if entry is not None:
                series.log.append(json.loads(entry))
            if queue_seq is not None and source is not None:
                series.sources[int(queue_seq)] = json.loads(source)
            next_pos = pos + 1
        series.next_pos = next_pos
        series.pending = [
            Pending(pos, i, text)
            for pos, i, text in self.db.execute(
                "SELECT pos, i, command FROM outbox WHERE series=? AND sent=0 ORDER BY pos, i", (series_id,)
            )
        ]
        return series

    # ------------------------------------------------------------------ inputs and the outbox

    def record(
        self,
        series: StoredSeries,
        *,
        entry: dict[str, Any] | None,
        commands: list[str],
        queue_seq: int | None = None,
        source: dict[str, Any] | None = None,
        phase_seq: int = 0,
        deadline: float | None = None,
        over: bool = False,
    ) -> int:
        """Commit one input with its unsent commands, in one transaction (house rule 3).

        Args:
            series: the series (its ``next_pos``, ``last_seq``, ``log`` and ``sources`` are updated).
            entry: the ``Game.log`` entry of an accepted input; ``None`` for a refused one.
            commands: the rendered commands of the input's effects, in sending order.
            queue_seq: the datapack queue ``seq`` the input came from, if any.
            source: that queue entry (``{"player", "input", "value"}``).
            phase_seq: the engine's phase sequence number after the input.
            deadline: the engine's phase deadline after the input.
            over: the series has ended.

        Returns:
            The input's position (used by ``mark_sent``).
        """
        pos = series.next_pos
        with self._transaction():
            self.db.execute(
                "INSERT INTO inputs (series, pos, queue_seq, source, entry) VALUES (?, ?, ?, ?, ?)",
                (
                    series.id,
                    pos,
                    queue_seq,
                    None if source is None else json.dumps(source),
                    None if entry is None else json.dumps(entry),
                ),
            )
            self.db.executemany(
                "INSERT INTO outbox (series, pos, i, command) VALUES (?, ?, ?, ?)",
                [(series.id, pos, i, text) for i, text in enumerate(commands)],
            )
            last_seq = max(series.last_seq, queue_seq or 0)
            self.db.execute(
                "UPDATE series SET last_seq=?, phase_seq=?, deadline=?, over=? WHERE id=?",
                (last_seq, phase_seq, deadline, int(over), series.id),
            )
        series.next_pos = pos + 1
        series.last_seq = last_seq
        series.deadline = deadline
        if entry is not None:
            series.log.append(entry)
        if queue_seq is not None and source is not None:
            series.sources[queue_seq] = dict(source)
        return pos

    def mark_sent(self, series: StoredSeries, pos: int, i: int) -> None:
        """Note that the server has answered outbox command ``i`` of input ``pos``."""
        self.db.execute("UPDATE outbox SET sent=1 WHERE series=? AND pos=? AND i=?", (series.id, pos, i))

    def pending(self, series: StoredSeries) -> list[Pending]:
        """The outbox commands of ``series`` not confirmed as sent, in order."""
        return [
            Pending(pos, i, text)
            for pos, i, text in self.db.execute(
                "SELECT pos, i, command FROM outbox WHERE series=? AND sent=0 ORDER BY pos, i", (series.id,)
            )
        ]

    # ------------------------------------------------------------------ operators

    def backup(self, dest: str | Path) -> None:
        """Copy the whole store to ``dest`` with SQLite's online backup (safe while the service runs).

        ``dest`` (created if missing, else replaced) and its side files are made mode 0600 (house rule 7).

        Raises:
            StoreError: ``dest`` cannot be written.
        """
        dest = Path(dest)
        _create_private(dest)
        make_private(dest)
        try:
            target = sqlite3.connect(dest)
            try:
                self.db.backup(target)
            finally:
                target.close()
        except sqlite3.Error as exc:
            raise StoreError(f"{dest}: cannot write the backup ({exc})") from None
        make_private(dest)

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (or ``ROLLBACK`` on an exception)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: type[BaseException] | None, *rest: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


__all__ = ["APPLICATION_ID", "Pending", "SeriesStore", "StoreError", "StoredSeries", "make_private"]
