"""The store file itself: what is refused on open (not a store, empty, damaged), the modes of the store and its
backups, and secret files others may read; each refusal through the real command line (``bridge/loop/store.py``
house rules 6 and 7, ``docs/recovery.md``)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.app.demo import demo_settings
from bridge.loop.store import SeriesStore, StoreError
from engine.actions import StartSeries, TimerExpired
from engine.rulesets.traitors.game import Game

ROOT = Path(__file__).resolve().parents[3]


def cli(*args: str, **extra_env: str) -> subprocess.CompletedProcess[str]:
    """``traitors …`` as a process of its own (the real console entry point's module)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASTLE_")} | extra_env
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "bridge.app.cli", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )


def refused(run: subprocess.CompletedProcess[str], code: int, *needles: str) -> str:
    """The one-line message of a refused command, after checking its exit code and that it shows no traceback."""
    assert run.returncode == code, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr + run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, under which an ordinary new file is world-readable (0644)."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def store_a_series(path: Path, inputs: int = 400, seed: int = 5) -> None:
    """A real store: a 12-contestant series played by random legal inputs, each with a few outbox commands."""
    settings = demo_settings(12)
    rng = random.Random(seed)
    with SeriesStore(path) as store:
        series = store.create(settings, seed)
        game = Game(settings, seed)
        now = 1000.0
        action: object = StartSeries()
        while len(game.log) < inputs and not game.is_over:
            now += 1.0
            effects = game.handle(action, now=now)  # type: ignore[arg-type]
            store.record(
                series,
                entry=game.log[-1],
                commands=[f"say {type(e).__name__} {now}" for e in effects],
                phase_seq=game.phase_seq,
                deadline=game.deadline,
                over=game.is_over,
            )
            legal = [a for n in game.contestants() for a in game.legal_actions(n)]
            action = rng.choice(legal) if legal else TimerExpired(game.phase_seq)


def private_password(tmp_path: Path) -> Path:
    pw = tmp_path / "rcon.txt"
    pw.write_text("store-files-pw\n")
    pw.chmod(0o600)
    return pw


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------------------------------------- point 2


def _foreign_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
        db.execute("INSERT INTO moz_places (url) VALUES ('https://minecraft.wiki')")
    db.close()


def _empty_sqlite(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=7")  # writes the header page, creates no table
    db.close()


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda p: p.write_bytes(b""), "empty"),
        (lambda p: p.write_bytes(b"not a database\n" * 300), "not an SQLite database"),
        (_foreign_sqlite, "moz_places"),
        (_empty_sqlite, "no tables"),
    ],
    ids=["zero-bytes", "text", "foreign-sqlite", "sqlite-without-tables"],
)
def test_a_file_that_is_not_a_store_is_refused_and_left_untouched(tmp_path: Path, make: object, what: str) -> None:
    db = tmp_path / "series.db"
    make(db)  # type: ignore[operator]
    before = db.read_bytes()
    pw = private_password(tmp_path)
    served = cli("serve-demo", "--db", str(db), "--port", str(free_port()), "--password-file", str(pw))
    line = refused(served, 2, str(db), what)
    if what in ("empty", "no tables"):
        assert "--new-series" in line and "backup" in line
    refused(cli("export", str(db)), 2, str(db), what)
    assert db.read_bytes() == before
    assert not any(tmp_path.glob("series.db-*"))


def test_serve_refuses_an_empty_store_before_it_connects(tmp_path: Path) -> None:
    (tmp_path / "series.toml").write_text('contestant_count = 6\ntraitors = 1\npowers = false\nhosts = ["Host"]\n')
    (tmp_path / "serve.toml").write_text(
        'series = "series.toml"\nstore = "series.db"\n'
        'contestants = ["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor"]\n'
        f"[rcon]\nport = {free_port()}\n"
    )
    db = tmp_path / "series.db"
    db.write_bytes(b"")
    served = cli("serve", "--config", str(tmp_path / "serve.toml"), CASTLE_RCON_PASSWORD="pw")
    refused(served, 2, str(db), "empty", "--new-series")
    assert db.stat().st_size == 0


def test_new_series_is_the_only_way_to_start_afresh(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(StoreError, match="--new-series"):
        SeriesStore(empty)
    with SeriesStore(empty, fresh=True) as store:
        assert store.created and store.latest() is None
        store.create(demo_settings(8), 3)
    with SeriesStore(empty) as store:  # now it holds a series: a plain open resumes it
        assert store.latest() == 1

    never_dealt = tmp_path / "never-dealt.db"
    SeriesStore(never_dealt).close()  # the tables, but the series was never stored (a crash in between)
    with pytest.raises(StoreError, match="holds no series.*--new-series"):
        SeriesStore(never_dealt)
    assert SeriesStore(never_dealt, create=False).latest() is None  # export may look: it finds nothing

    foreign = tmp_path / "foreign.db"
    _foreign_sqlite(foreign)
    with pytest.raises(StoreError, match="not a Castle series store"):
        SeriesStore(foreign, fresh=True)  # someone else's data is never taken over, not even when asked


def test_a_missing_store_with_its_lock_left_is_expected_not_new(tmp_path: Path) -> None:
    db = tmp_path / "series.db"
    with SeriesStore(db) as store:
        store.create(demo_settings(8), 3)
        store.lock()
    db.unlink()  # the store was moved or deleted; series.db.lock stays behind
    pw = private_password(tmp_path)
    served = cli("serve-demo", "--db", str(db), "--port", str(free_port()), "--password-file", str(pw))
    refused(served, 2, str(db), "series.db.lock", "--new-series")
    assert not db.exists()
    with SeriesStore(db, fresh=True) as store:
        assert store.created


# ---------------------------------------------------------------------------------------------- point 3


def test_damage_in_the_middle_of_the_store_is_refused_with_how_to_restore(tmp_path: Path) -> None:
    db = tmp_path / "series.db"
    store_a_series(db)
    with SeriesStore(db) as store:
        store.backup(tmp_path / "series-backup.db")
    size = db.stat().st_size
    assert size > 64 * 1024
    with open(db, "r+b") as fh:
        fh.seek(size // 2)
        fh.write(random.Random(21).randbytes(4096))
    with pytest.raises(StoreError, match="damaged"):
        SeriesStore(db, create=False)

    line = refused(cli("export", str(db)), 2, str(db), "damaged", "backup", "docs/recovery.md")
    # what SQLite found: a failed quick_check, or a page it cannot read at all (which, depends on where the bytes hit)
    assert "quick_check" in line or "malformed" in line
    assert f"mv {db} {db}.broken" in line
    pw = private_password(tmp_path)
    refused(
        cli("serve-demo", "--db", str(db), "--port", str(free_port()), "--password-file", str(pw)),
        2,
        str(db),
        "damaged",
    )

    # the restore the message describes gives the series back
    db.rename(tmp_path / "series.db.broken")
    shutil.copy(tmp_path / "series-backup.db", db)
    restored = cli("export", str(db), "--format", "json", "--reveal")
    assert restored.returncode == 0, restored.stderr


def test_damage_anywhere_in_a_store_is_found_on_open(tmp_path: Path) -> None:
    """4 KiB of random bytes at 12 places through the file (not only the middle): every one is refused."""
    clean = tmp_path / "clean.db"
    store_a_series(clean, inputs=300)
    size = clean.stat().st_size
    rng = random.Random(3)
    for k in range(12):
        db = tmp_path / f"damaged-{k}.db"
        shutil.copy(clean, db)
        offset = 4096 + rng.randrange(size - 8192)
        with open(db, "r+b") as fh:
            fh.seek(offset)
            fh.write(rng.randbytes(4096))
        with pytest.raises(StoreError, match="damaged"):
            SeriesStore(db, create=False).close()


# ---------------------------------------------------------------------------------------------- point 4


def _mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_store_its_side_files_and_its_backups_are_private(tmp_path: Path, umask_022: None) -> None:
    db = tmp_path / "series.db"
    with SeriesStore(db) as store:
        store.create(demo_settings(8), 3)
        store.lock()
        sides = [Path(f"{db}{s}") for s in ("-wal", "-shm", ".lock")]
        assert all(p.exists() for p in sides)
        assert {p.name: _mode(p) for p in (db, *sides)} == {p.name: 0o600 for p in (db, *sides)}
        store.backup(tmp_path / "series-backup.db")
        loose = tmp_path / "old-backup.db"
        loose.write_bytes(b"")
        loose.chmod(0o644)
        store.backup(loose)  # written over an existing world-readable file
    assert _mode(tmp_path / "series-backup.db") == 0o600 and _mode(loose) == 0o600
    assert not list(tmp_path.glob("*-journal"))


def test_an_old_world_readable_store_is_made_private_on_open(tmp_path: Path, umask_022: None) -> None:
    db = tmp_path / "series.db"
    with SeriesStore(db) as store:
        store.create(demo_settings(8), 3)
    keep = sqlite3.connect(db)  # holds the -wal and -shm open, as a crashed service leaves them
    keep.execute("PRAGMA journal_mode=WAL")
    keep.execute("INSERT INTO meta VALUES ('note', 'x')")
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.chmod(0o644)
    with SeriesStore(db):
        assert [_mode(p) for p in (db, f"{db}-wal", f"{db}-shm")] == [0o600, 0o600, 0o600]
    keep.close()


@pytest.mark.parametrize("command", ["sandbox", "serve-demo", "sandbox-msmp"])
def test_a_password_file_others_may_read_is_refused(tmp_path: Path, command: str) -> None:
    loose = tmp_path / "loose.txt"
    loose.write_text("hunter22\n")
    loose.chmod(0o644)
    pw = private_password(tmp_path)
    if command == "sandbox":
        args = ["sandbox", "--password-file", str(loose)]
    elif command == "sandbox-msmp":
        args = ["sandbox", "--password-file", str(pw), "--msmp-secret-file", str(loose)]
    else:
        args = ["serve-demo", "--db", str(tmp_path / "s.db"), "--port", str(free_port()), "--password-file", str(loose)]
    line = refused(cli(*args), 2, str(loose), "others may read", "644", "chmod 600")
    assert "hunter22" not in line
    assert not (tmp_path / "s.db").exists()
