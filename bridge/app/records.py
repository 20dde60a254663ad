"""Writing finished series into the records database (``docs/seasons.md``): from a running season
(``bridge/app/season.py``) and ``traitors records import STORE…`` for the series stores that already exist.

House rules of this file:

1. A series is recorded from its store alone: its input log is replayed (as ``traitors export`` does), so the
   record in the database is exactly the export's, JSON (``--format json``, with the summary) and text tables.
2. Its key is its own identity, the store's tag for it and its seed (``<tag>-<seed>``): importing a store twice,
   or importing what a service already wrote, keeps one row set (``bridge/records/db.py`` house rule 3).
3. A series still running is never recorded (``bridge/records/db.py`` house rule 4): ``import`` counts it as
   running and leaves it; the season records it when it ends.
4. The records outbox: a season marks a series recorded in its store (``bridge/loop/season_store.py``) only once
   the database took it; ``flush`` writes every series still waiting, and a database that is away stays a
   one-line warning until it is back.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bridge.app.export import format_record
from bridge.config.serve import RecordsConfig
from bridge.config.settings import AnySettings
from bridge.config.settings_json import settings_to_json
from bridge.loop.season_store import SeasonStore
from bridge.loop.store import SeriesStore, StoreError
from bridge.records.db import RecordsDb, password_from
from bridge.records.entry import SeriesEntry, make_entry
from engine.errors import ConfigError, IllegalAction, InvalidCommand
from engine.record import SeriesRecord
from engine.rulesets import replay
from engine.sim import twists_of

__all__ = [
    "CASTLE",
    "MINECRAFT",
    "SEASON",
    "ImportCount",
    "flush",
    "import_stores",
    "record_bot_series",
    "records_db",
    "records_password",
    "series_key",
    "stored_entry",
]

log = logging.getLogger("castle.records")

MINECRAFT, CASTLE, SEASON = "minecraft", "castle", "season"
"""The season store's facts about a series (``SeasonStore.note``): the server's release, and the castle and season
it was played for (they win over the ``[records]`` of the moment it is written)."""


def records_db(config: RecordsConfig, password: str | None = None) -> RecordsDb:
    """The records database of a serve config's ``[records]``.

    Raises:
        ConfigError: a bad address.
    """
    return RecordsDb(config.url, base=config.base, password=password)


def records_password(env: Mapping[str, str], secrets_file: Path | None) -> str | None:
    """A PostgreSQL password from ``CASTLE_RECORDS_PASSWORD`` (secrets file, else environment), or ``None``.

    Raises:
        ConfigError: the secrets file cannot be read, or others may read it.
    """
    lines: dict[str, str] = {}
    if secrets_file is not None:
        from bridge.config.files import read_secret_file

        text = read_secret_file(secrets_file).splitlines()
        lines = dict(line.strip().split("=", 1) for line in text if "=" in line and not line.lstrip().startswith("#"))
    return password_from(env, lines)


def series_key(tag: str, seed: int) -> str:
    """House rule 2: the series' own identity."""
    return f"{tag}-{seed}"


def entry_for(
    record: SeriesRecord,
    settings: AnySettings,
    *,
    key: str,
    castle: str,
    season: str,
    minecraft: str = "",
    started: float | None = None,
    ended: float | None = None,
) -> SeriesEntry:
    """The database entry of a finished series' record (house rule 1).

    Raises:
        ValueError: the series is not over.
    """
    data = json.loads(format_record(record, "json"))
    return make_entry(
        data,
        format_record(record, "text"),
        key=key,
        settings=settings_to_json(settings),
        castle=castle,
        season=season,
        minecraft=minecraft,
        started=started,
        ended=ended,
        twists=twists_of(settings),
    )


def stored_entry(store: SeriesStore, series_id: int, *, castle: str, season: str) -> SeriesEntry | None:
    """The entry of series ``series_id`` of a store, replayed from its log; ``None`` while it runs (house rule 3).

    Raises:
        StoreError: no such series, or its log does not replay (a damaged store).
    """
    if not store.is_over(series_id):
        return None
    stored = store.load(series_id)
    try:
        game = replay(stored.settings, stored.seed, stored.log)
    except (IllegalAction, InvalidCommand, ConfigError) as exc:
        raise StoreError(f"{store.path}: series {series_id}: the input log does not replay ({exc})") from None
    times = [float(e["now"]) for e in stored.log if isinstance(e.get("now"), (int, float))]
    facts = SeasonStore(store, writable=False).facts(series_id)
    return entry_for(
        game.record,
        stored.settings,
        key=series_key(stored.tag, stored.seed),
        castle=facts.get(CASTLE, castle),
        season=facts.get(SEASON, season),
        minecraft=facts.get(MINECRAFT, ""),
        started=min(times, default=None),
        ended=max(times, default=None),
    )


@dataclass(slots=True)
class ImportCount:
    """What ``import_stores`` did with one store."""

    written: int = 0
    already: int = 0
    running: int = 0

    def line(self, path: str) -> str:
        return f"{path}: {self.written} series recorded, {self.already} already recorded" + (
            f", {self.running} still running (not recorded)" if self.running else ""
        )


def import_stores(paths: Sequence[str], db: RecordsDb, *, castle: str, season: str, out: TextIO) -> int:
    """``traitors records import STORE…``: every finished series of every store into ``db`` (house rules 1-3).

    A store that cannot be read is one line on ``out`` and the others are still imported.

    Returns:
        0 when every store was read and written; 1 when a store was refused.

    Raises:
        RecordsUnavailable: the records database cannot be used (nothing more is tried).
    """
    db.migrate()
    code = 0
    for path in paths:
        count = ImportCount()
        try:
            if not Path(path).is_file():
                raise StoreError(f"{path}: no such series store")
            with SeriesStore(path, create=False) as store:
                for series_id, _, _, _ in store.list_series():
                    entry = stored_entry(store, series_id, castle=castle, season=season)
                    if entry is None:
                        count.running += 1
                    elif db.write(entry):
                        count.written += 1
                    else:
                        count.already += 1
        except StoreError as exc:
            print(f"traitors: {exc}", file=out)
            code = 1
            continue
        print(count.line(path), file=out)
    return code


async def flush(store: SeriesStore, db: RecordsDb, *, castle: str, season: str) -> list[int]:
    """Write every finished series of the store still waiting for the records database (house rule 4).

    The store is read and marked on the caller's thread (the service's store connection is not shared between
    threads); only the database's work runs in a worker thread, so the event loop goes on meanwhile.

    Returns:
        The series written (or found already there) now.

    Raises:
        RecordsUnavailable: the database cannot be used now; the series keep waiting.
    """
    import asyncio

    season_store = SeasonStore(store)
    done = []
    for series_id in season_store.pending():
        entry = stored_entry(store, series_id, castle=castle, season=season)
        if entry is None:
            continue
        if await asyncio.to_thread(db.write, entry):
            log.info("series %d recorded in %s", series_id, db.name, extra={"event": "recorded", "series": series_id})
        season_store.mark_recorded(series_id, db.name)
        done.append(series_id)
    return done


def record_bot_series(db: RecordsDb, plays: Sequence[tuple[AnySettings, int, str]], *, season: str = "") -> None:
    """Play one series per ``(settings, seed, castle)`` with the engine's bots (``engine.sim.play_series``) and
    record it as a season would (the browser tests' and the screenshots' records, ``bench/stats_screenshots.py``).

    Raises:
        RecordsUnavailable: the database cannot be used.
    """
    from engine.sim import play_series

    for settings, seed, castle in plays:
        game, _ = play_series(settings, seed)
        times = [float(e["now"]) for e in game.log]
        db.write(
            entry_for(
                game.record,
                settings,
                key=f"bots-{castle}-{seed}",
                castle=castle,
                season=season,
                minecraft="1.21.11",
                started=0.0,
                ended=60.0 * (25 + len(times) % 40),
            )
        )
