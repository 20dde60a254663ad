"""The records database: every finished series of every castle, in SQLite (one file, the default) or PostgreSQL
(``[records] url = "postgresql://…"``, shared by several ``traitors serve`` processes on several servers).
``docs/seasons.md`` is the operator's page.

House rules of this file:

1. One small interface, two backends: ``RecordsDb`` speaks SQL that SQLite and PostgreSQL both read
   (``bridge/records/schema.py``), with ``?`` parameters (turned into ``%s`` for psycopg 3). Each call opens a
   connection and closes it, so a database that went away and came back is simply used again.
2. The schema is versioned: ``schema_version`` holds the last migration applied; the first use of a database
   applies the missing ones in one transaction (PostgreSQL: under an advisory lock, so two services starting at
   once migrate it once). A database written by a newer Castle is refused, never changed.
3. Writes are idempotent: a series is keyed by its own identity (``SeriesEntry.key``), ``INSERT … ON CONFLICT
   DO NOTHING`` decides in the same transaction as its rows, so writing a series twice (an import after the
   service wrote it, two retries racing) keeps one row set.
4. Only finished series are written (``bridge/records/entry.py``): nothing of a series in progress is ever here.
5. Every failure is one line: a bad address is a ``ConfigError`` (exit 2); an unreachable, refused or damaged
   database is ``RecordsUnavailable`` (exit 1), and the caller keeps what it wanted to write (the series store's
   record outbox, ``bridge/loop/season_store.py``). No message or log line holds a password: a password in the
   address is refused (PostgreSQL takes it from ``PGPASSWORD``, ``~/.pgpass`` or ``CASTLE_RECORDS_PASSWORD``).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

from bridge.config.records_url import PASSWORD_ENV, parse_url
from bridge.errors import BridgeError
from bridge.records.entry import SeriesEntry, setup_key
from bridge.records.schema import SCHEMA_VERSION, statements
from engine.errors import ConfigError

__all__ = [
    "PASSWORD_ENV",
    "RecordsDb",
    "RecordsUnavailable",
    "StoredSeries",
    "default_path",
    "parse_url",
    "password_from",
    "shown",
]

_MIGRATION_LOCK = 0x43535452
"""PostgreSQL advisory lock id held while migrating (the series store's application id: "CSTR")."""


class RecordsUnavailable(BridgeError):
    """The records database cannot be used now: unreachable, refused, damaged, or of a newer schema. The message is
    one line naming the database (its address without any password)."""


def shown(url: str) -> str:
    """The address as messages show it: a PostgreSQL address without user info or query (host, port, database)."""
    parts = urlsplit(url)
    if parts.scheme in ("postgresql", "postgres"):
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        return f"postgresql://{host}{port}{parts.path}"
    return url


@dataclass(frozen=True, slots=True)
class StoredSeries:
    """One recorded series as read back: the ``series`` row (``columns``), its seats and its twists."""

    columns: Mapping[str, Any]
    contestants: tuple[Mapping[str, Any], ...]
    twists: tuple[str, ...]

    @property
    def id(self) -> int:
        return int(self.columns["id"])

    def record(self) -> dict[str, Any]:
        """The JSON game log (``traitors export --format json``)."""
        out: dict[str, Any] = json.loads(self.columns["record"])
        return out


class _Cursor(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...
    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class RecordsDb:
    """The records database at one address (house rules 1-5).

    Args:
        url: as ``parse_url`` takes it.
        base: the folder a relative SQLite path is relative to.
        password: a PostgreSQL password (``CASTLE_RECORDS_PASSWORD``), or ``None`` (libpq finds it).
        timeout: seconds to wait for a PostgreSQL server (or a locked SQLite file).

    Raises:
        ConfigError: a bad address.
    """

    def __init__(
        self, url: str, *, base: Path | None = None, password: str | None = None, timeout: float = 5.0
    ) -> None:
        self.backend, self.target = parse_url(url, base)
        self.password = password
        self.timeout = timeout
        self.ready = False
        """The schema was checked (and migrated) by this object."""

    @property
    def name(self) -> str:
        """The address as messages show it (no password, no user)."""
        return shown(self.target)

    def __repr__(self) -> str:
        return f"<RecordsDb {self.name}>"

    # ------------------------------------------------------------------ connections

    def _fail(self, exc: BaseException) -> RecordsUnavailable:
        text = " ".join(str(exc).split()) or type(exc).__name__
        if self.backend == "sqlite" and isinstance(exc, sqlite3.DatabaseError) and "not a database" in text:
            text = "the file is not an SQLite database (damaged, or another kind of file)"
        return RecordsUnavailable(f"records database {self.name}: {text}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[_Cursor]:
        """A cursor inside one transaction, committed at the end of the block (rolled back on an exception).

        Raises:
            RecordsUnavailable: the database cannot be reached or used (house rule 5).
        """
        if self.backend == "sqlite":
            with self._sqlite() as cur:
                yield cur
        else:
            with self._postgres() as cur:
                yield cur

    @contextlib.contextmanager
    def _sqlite(self) -> Iterator[_Cursor]:
        path = Path(self.target)
        if not path.parent.is_dir():
            raise RecordsUnavailable(f"records database {self.name}: no folder {path.parent}")
        try:
            db = sqlite3.connect(path, timeout=self.timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._fail(exc) from None
        try:
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("BEGIN IMMEDIATE")
            cur = _SqliteCursor(db.cursor())
            yield cur
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise self._fail(exc) from None
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise
        finally:
            db.close()

    @contextlib.contextmanager
    def _postgres(self) -> Iterator[_Cursor]:
        try:
            import psycopg
        except ImportError:
            raise ConfigError(
                "records: url: PostgreSQL needs psycopg: pip install 'castle-traitors[postgres]'"
            ) from None
        extra: dict[str, Any] = {"connect_timeout": max(1, round(self.timeout))}
        if self.password is not None:
            extra["password"] = self.password
        try:
            conn = psycopg.connect(self.target, **extra)
        except psycopg.Error as exc:
            raise self._fail(exc) from None
        try:
            with conn.transaction(), conn.cursor() as raw:
                yield _PgCursor(raw)
        except psycopg.Error as exc:
            raise self._fail(exc) from None
        finally:
            conn.close()

    # ------------------------------------------------------------------ schema (house rule 2)

    def migrate(self) -> int:
        """Bring the schema up to ``SCHEMA_VERSION`` (house rule 2); the version it had before.

        Raises:
            RecordsUnavailable: unreachable, not a records database, damaged, or of a newer schema.
        """
        with self._transaction() as cur:
            if self.backend == "postgresql":
                cur.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            else:
                problems = [str(r[0]) for r in cur.execute("PRAGMA quick_check(5)").fetchall()]
                if problems != ["ok"]:
                    raise RecordsUnavailable(
                        f"records database {self.name}: damaged (SQLite quick_check: "
                        f"{problems[0]}); restore it from its backup"
                    )
            tables = self._tables(cur)
            if "schema_version" not in tables:
                if tables & {"series", "contestants"}:
                    raise RecordsUnavailable(
                        f"records database {self.name}: holds tables but no schema_version: "
                        "not a Castle records database"
                    )
                cur.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                cur.execute("INSERT INTO schema_version (version) VALUES (0)")
            row = cur.execute("SELECT version FROM schema_version").fetchone()
            before = int(row[0]) if row is not None else 0
            if before > SCHEMA_VERSION:
                raise RecordsUnavailable(
                    f"records database {self.name}: schema version {before} is newer than this "
                    f"Castle's ({SCHEMA_VERSION}); upgrade Castle"
                )
            for version in range(before + 1, SCHEMA_VERSION + 1):
                for sql in statements(version, self.backend):
                    cur.execute(sql)
                cur.execute("UPDATE schema_version SET version=?", (version,))
        self.ready = True
        return before

    def _tables(self, cur: _Cursor) -> set[str]:
        if self.backend == "sqlite":
            rows = cur.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall()
        else:
            rows = cur.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            ).fetchall()
        return {str(r[0]) for r in rows}

    def _ensure(self) -> None:
        if not self.ready:
            self.migrate()

    def schema_version(self) -> int:
        """The schema version after migrating (``SCHEMA_VERSION``).

        Raises:
            RecordsUnavailable: as ``migrate``.
        """
        self._ensure()
        with self._transaction() as cur:
            return int(cur.execute("SELECT version FROM schema_version").fetchone()[0])

    # ------------------------------------------------------------------ writing (house rules 3 and 4)

    def write(self, entry: SeriesEntry, *, now: float | None = None) -> bool:
        """Record one finished series (house rule 3).

        Returns:
            True when written now; False when a series with its key was already there (nothing changed).

        Raises:
            RecordsUnavailable: the database cannot be used now (nothing was written).
        """
        self._ensure()
        record = entry.record
        setup = entry.setup
        with self._transaction() as cur:
            row = cur.execute(
                "INSERT INTO series (key, castle, season, ruleset, setup_key, setup, settings, seed, minecraft, "
                "started, ended, duration, days, contestants, winner, termination, record, tables, recorded) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING "
                "RETURNING id",
                (
                    entry.key,
                    entry.castle,
                    entry.season,
                    entry.ruleset,
                    setup_key(setup),
                    _json(setup),
                    _json(entry.settings),
                    int(record.get("seed") or 0),
                    entry.minecraft,
                    entry.started,
                    entry.ended,
                    entry.duration,
                    entry.days,
                    len(entry.contestants),
                    str(record.get("winner")),
                    str(record.get("termination") or ""),
                    _json(record),
                    entry.tables,
                    time.time() if now is None else now,
                ),
            ).fetchone()
            if row is None:
                return False
            sid = int(row[0])
            cur.executemany(
                "INSERT INTO contestants (series_id, seat, name, allegiance, side, power, false_power, recruited_day, "
                "out, out_day, winner, winning_side, votes_cast, votes_found, votes_received) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        sid,
                        c.seat,
                        c.name,
                        c.allegiance,
                        c.side,
                        c.power,
                        c.false_power,
                        c.recruited_day,
                        c.out,
                        c.out_day,
                        int(c.winner),
                        int(c.winning_side),
                        c.votes_cast,
                        c.votes_found,
                        c.votes_received,
                    )
                    for c in entry.contestants
                ],
            )
            events = record.get("events", [])
            if events:
                cur.executemany(
                    "INSERT INTO events (series_id, pos, type, day, data) VALUES (?, ?, ?, ?, ?)",
                    [
                        (
                            sid,
                            i,
                            str(e.get("type", "")),
                            e.get("day") if isinstance(e.get("day"), int) else None,
                            _json(e),
                        )
                        for i, e in enumerate(events)
                    ],
                )
            if entry.twists:
                cur.executemany(
                    "INSERT INTO twists (series_id, twist) VALUES (?, ?)",
                    [(sid, t) for t in dict.fromkeys(entry.twists)],
                )
        return True

    def has(self, key: str) -> bool:
        """Whether a series with this key is recorded.

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            return cur.execute("SELECT 1 FROM series WHERE key=?", (key,)).fetchone() is not None

    # ------------------------------------------------------------------ reading

    def series(self, *, season: str | None = None, castle: str | None = None) -> list[StoredSeries]:
        """Every recorded series (in the order recorded), with its seats and twists; only a season's or a castle's when given.

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        where, params = _filters(season=season, castle=castle)
        with self._transaction() as cur:
            rows = _dicts(
                cur,
                f"SELECT id, key, castle, season, ruleset, setup_key, setup, settings, seed, minecraft, "
                f"started, ended, duration, days, contestants, winner, termination, recorded "
                f"FROM series{where} ORDER BY id",
                params,
            )
            seats = _dicts(
                cur,
                f"SELECT c.* FROM contestants c JOIN series s ON s.id = c.series_id{where} "
                f"ORDER BY c.series_id, c.seat",
                params,
            )
            twists = cur.execute(
                f"SELECT t.series_id, t.twist FROM twists t JOIN series s ON s.id = t.series_id"
                f"{where} ORDER BY t.series_id, t.twist",
                params,
            ).fetchall()
        by_series: dict[int, list[Mapping[str, Any]]] = {}
        for c in seats:
            by_series.setdefault(int(c["series_id"]), []).append(c)
        twist_map: dict[int, list[str]] = {}
        for sid, twist in twists:
            twist_map.setdefault(int(sid), []).append(str(twist))
        return [
            StoredSeries(r, tuple(by_series.get(int(r["id"]), [])), tuple(twist_map.get(int(r["id"]), [])))
            for r in rows
        ]

    def one(self, series_id: int) -> StoredSeries | None:
        """One recorded series with its record and tables (``columns["record"]``, ``["tables"]``), or ``None``.

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            rows = _dicts(cur, "SELECT * FROM series WHERE id=?", (series_id,))
            if not rows:
                return None
            seats = _dicts(cur, "SELECT * FROM contestants WHERE series_id=? ORDER BY seat", (series_id,))
            twists = [
                str(r[0])
                for r in cur.execute(
                    "SELECT twist FROM twists WHERE series_id=? ORDER BY twist", (series_id,)
                ).fetchall()
            ]
        return StoredSeries(rows[0], tuple(seats), tuple(twists))

    def seasons(self) -> list[str]:
        """Every season label recorded (``""`` for series without one), in order of their first series.

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            rows = cur.execute("SELECT season, min(id) FROM series GROUP BY season ORDER BY min(id)").fetchall()
        return [str(r[0]) for r in rows]

    # ------------------------------------------------------------------ the balance lab's predictions

    def prediction(self, key: str, lab: str) -> dict[str, Any] | None:
        """The cached lab result for setup ``key`` with lab parameters ``lab``, or ``None``.

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            row = cur.execute("SELECT result FROM predictions WHERE setup_key=? AND lab=?", (key, lab)).fetchone()
        if row is None:
            return None
        out: dict[str, Any] = json.loads(row[0])
        return out

    def predictions(self, lab: str) -> dict[str, dict[str, Any]]:
        """Every cached lab result made with lab parameters ``lab``, by setup key.

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            rows = cur.execute("SELECT setup_key, result FROM predictions WHERE lab=?", (lab,)).fetchall()
        return {str(k): json.loads(v) for k, v in rows}

    def put_prediction(self, key: str, lab: str, ruleset: str, result: Mapping[str, Any]) -> None:
        """Cache a lab result (replacing one with the same setup and lab parameters).

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            cur.execute(
                "INSERT INTO predictions (setup_key, lab, ruleset, result, computed) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (setup_key, lab) DO UPDATE SET result=excluded.result, "
                "computed=excluded.computed",
                (key, lab, ruleset, _json(result), time.time()),
            )

    def setups(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Every recorded setup: key → (ruleset, setup).

        Raises:
            RecordsUnavailable: the database cannot be used now.
        """
        self._ensure()
        with self._transaction() as cur:
            rows = cur.execute("SELECT setup_key, min(ruleset), min(setup) FROM series GROUP BY setup_key").fetchall()
        return {str(k): (str(r), json.loads(s)) for k, r, s in rows}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=False)


def _filters(**given: str | None) -> tuple[str, tuple[Any, ...]]:
    """`` WHERE s.a=? AND …`` for the filters given (the series table is ``s`` or unaliased ``series``)."""
    parts = [(k, v) for k, v in given.items() if v is not None]
    if not parts:
        return "", ()
    return " WHERE " + " AND ".join(f"{k}=?" for k, _ in parts), tuple(v for _, v in parts)


def _dicts(cur: _Cursor, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    result = cur.execute(sql, params)
    names = [d[0] for d in result.description]
    return [dict(zip(names, row, strict=True)) for row in result.fetchall()]


class _SqliteCursor:
    """An ``sqlite3`` cursor with the common interface (``?`` parameters, as SQLite takes them)."""

    def __init__(self, cur: sqlite3.Cursor) -> None:
        self.cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.cur.execute(sql, tuple(params))

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any:
        return self.cur.executemany(sql, [tuple(p) for p in params])

    def fetchone(self) -> Any:
        return self.cur.fetchone()

    def fetchall(self) -> list[Any]:
        return self.cur.fetchall()


class _PgCursor:
    """A psycopg 3 cursor with the common interface (``?`` becomes ``%s``; the SQL here holds no other ``%``)."""

    def __init__(self, cur: Any) -> None:
        self.cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.cur.execute(sql.replace("?", "%s"), tuple(params))

    def executemany(self, sql: str, params: Sequence[Sequence[Any]]) -> Any:
        return self.cur.executemany(sql.replace("?", "%s"), [tuple(p) for p in params])

    def fetchone(self) -> Any:
        return self.cur.fetchone()

    def fetchall(self) -> list[Any]:
        return list(self.cur.fetchall())


def password_from(env: Mapping[str, str], secrets: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL password from the secrets file's lines or the environment (``PASSWORD_ENV``), or ``None``."""
    value = (secrets or {}).get(PASSWORD_ENV) or env.get(PASSWORD_ENV)
    return value or None


def default_path(folder: Path) -> Path:
    """Where the SQLite records database lives when ``[records] url`` is not given: ``records.db`` in ``folder``."""
    return folder / "records.db"
