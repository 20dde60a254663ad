"""The records database's schema: numbered migrations, applied in order, each once (``docs/seasons.md``).

The schema is plain SQL that SQLite and PostgreSQL both read, with one placeholder: ``{id}``, the auto-numbered
primary key (``INTEGER PRIMARY KEY AUTOINCREMENT`` in SQLite, ``BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY``
in PostgreSQL). JSON is kept as text in both, so one query reads both. ``schema_version`` holds the number of the
last migration applied; a database whose number is above ``SCHEMA_VERSION`` was written by a newer Castle and is
refused, never changed.

Tables (one row set per finished series; nothing of a series in progress is ever written here):

* ``series``: the series' own identity (``key``: its store's tag and seed, so writing it twice keeps one row
  set), the castle and season it was played in, ruleset, setup (the settings that decide balance, and their
  key), settings, seed, Minecraft release, start, end and duration (seconds), days, winner, termination, the
  record as the JSON game log (``traitors export --format json``) and as the rulebook's tables (``--format text``).
* ``contestants``: one row per seat: name, allegiance as dealt and side at the end, power (the game log's name),
  false power, how and when they left, whether they won and whether they ended on the winning side, and their
  votes (cast, naming a Traitor or an opponent, received).
* ``events``: the game log's events in order (type, day, JSON).
* ``twists``: the twists a series' settings switched on (``engine.sim.twists_of``).
* ``predictions``: the balance lab's result for a setup, cached (``setup_key`` and the lab's parameters).
"""

from __future__ import annotations

SCHEMA_VERSION = 1
"""The number of the newest migration."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE series (
            id {id},
            key TEXT NOT NULL UNIQUE,
            castle TEXT NOT NULL,
            season TEXT NOT NULL DEFAULT '',
            ruleset TEXT NOT NULL,
            setup_key TEXT NOT NULL,
            setup TEXT NOT NULL,
            settings TEXT NOT NULL,
            seed BIGINT NOT NULL,
            minecraft TEXT NOT NULL DEFAULT '',
            started DOUBLE PRECISION,
            ended DOUBLE PRECISION,
            duration DOUBLE PRECISION,
            days INTEGER NOT NULL,
            contestants INTEGER NOT NULL,
            winner TEXT NOT NULL,
            termination TEXT NOT NULL DEFAULT '',
            record TEXT NOT NULL,
            tables TEXT NOT NULL,
            recorded DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX series_setup ON series (setup_key)",
        "CREATE INDEX series_castle_season ON series (castle, season)",
        """CREATE TABLE contestants (
            series_id BIGINT NOT NULL REFERENCES series (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            allegiance TEXT NOT NULL,
            side TEXT NOT NULL,
            power TEXT,
            false_power TEXT,
            recruited_day INTEGER,
            out TEXT,
            out_day INTEGER,
            winner INTEGER NOT NULL,
            winning_side INTEGER NOT NULL,
            votes_cast INTEGER NOT NULL,
            votes_found INTEGER NOT NULL,
            votes_received INTEGER NOT NULL,
            PRIMARY KEY (series_id, seat)
        )""",
        "CREATE INDEX contestants_name ON contestants (name)",
        """CREATE TABLE events (
            series_id BIGINT NOT NULL REFERENCES series (id) ON DELETE CASCADE,
            pos INTEGER NOT NULL,
            type TEXT NOT NULL,
            day INTEGER,
            data TEXT NOT NULL,
            PRIMARY KEY (series_id, pos)
        )""",
        """CREATE TABLE twists (
            series_id BIGINT NOT NULL REFERENCES series (id) ON DELETE CASCADE,
            twist TEXT NOT NULL,
            PRIMARY KEY (series_id, twist)
        )""",
        """CREATE TABLE predictions (
            setup_key TEXT NOT NULL,
            lab TEXT NOT NULL,
            ruleset TEXT NOT NULL,
            result TEXT NOT NULL,
            computed DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (setup_key, lab)
        )""",
    ),
)
"""Migration ``n`` (1-based) is ``MIGRATIONS[n - 1]``: its statements, run in one transaction with the new
``schema_version``. A migration, once released, never changes; a change of schema is a new one."""

ID_COLUMN = {
    "sqlite": "INTEGER PRIMARY KEY AUTOINCREMENT",
    "postgresql": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
}
"""The ``{id}`` placeholder per backend."""


def statements(version: int, backend: str) -> list[str]:
    """The SQL statements of migration ``version`` for ``backend`` (``"sqlite"`` or ``"postgresql"``).

    Raises:
        IndexError: no such migration.
    """
    if not 1 <= version <= len(MIGRATIONS):
        raise IndexError(f"no migration {version}")
    return [s.replace("{id}", ID_COLUMN[backend]) for s in MIGRATIONS[version - 1]]


assert len(MIGRATIONS) == SCHEMA_VERSION

__all__ = ["ID_COLUMN", "MIGRATIONS", "SCHEMA_VERSION", "statements"]
