"""Shared pytest options: ``--update-goldens`` rewrites expected output files instead of comparing
(``docs/design.md#tests``); the ``rule`` marker names the rule ids (``docs/rules/``) a test checks
(``tests/test_rule_trace.py`` fails for a rule id no test names).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(*ids): the rule ids (docs/rules/) this test checks")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite golden files (e.g. tests/scenarios/*.text) from the current output instead of comparing",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first (with the rest of their unit, ``pytest_xdist_make_scheduler``), so the
    longest ones start at once and never end the run alone on one worker; otherwise the order is pytest's."""
    slow = {_unit(config, item.nodeid) for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: _unit(config, item.nodeid) not in slow)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadscope`` (pyproject.toml's addopts: ``-n 2``), hand out one test at a time, except that a
    test module defining a module-scoped fixture (a demo series, the Spyglass run, a browser) is one unit: one
    worker builds that fixture once and runs the module's tests (docs/design.md#tests)."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _unit(config, nodeid)

    return SharedFixtureScheduling(config, log)


_MODULE_FIXTURE = re.compile(r"""scope=["']module["']""")


@functools.cache
def _shares_a_fixture(path: Path) -> bool:
    """Whether the test module at ``path`` defines a module-scoped fixture."""
    return path.suffix == ".py" and bool(_MODULE_FIXTURE.search(path.read_text(encoding="utf-8")))


def _unit(config: pytest.Config, nodeid: str) -> str:
    """The unit a test is scheduled in: its module when the module shares a fixture, else the test itself."""
    module = nodeid.split("::", 1)[0]
    return module if _shares_a_fixture(config.rootpath / module) else nodeid


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[Path, str], None]:
    """``golden(path, actual)``: assert ``actual`` equals the file's text, or rewrite it with --update-goldens."""
    update = bool(request.config.getoption("--update-goldens"))

    def check(path: Path, actual: str) -> None:
        if update or not path.exists():
            path.write_text(actual, encoding="utf-8")
            if not update:
                pytest.fail(f"{path.name} did not exist; written. Check it, then run again.")
            return
        assert actual == path.read_text(encoding="utf-8"), f"{path.name} differs (rerun with --update-goldens)"

    return check


@pytest.fixture
def stored_series() -> Callable[..., Path]:
    """``stored_series(path, finished=...)``: a store at ``path`` holding one 8-contestant demo series played by
    the engine's bots (``engine.sim.play_series``, seed 5): all of it, or only its first half (still running)."""

    def make(path: Path, *, finished: bool) -> Path:
        from bridge.app.demo import demo_settings
        from bridge.loop.store import SeriesStore
        from engine.sim import play_series

        settings = demo_settings(8)
        game, _ = play_series(settings, 5)
        log = list(game.log) if finished else list(game.log)[: len(game.log) // 2]
        with SeriesStore(path) as store:
            stored = store.create(settings, 5)
            for i, entry in enumerate(log, start=1):
                store.record(stored, entry=entry, commands=[], over=finished and i == len(log))
        return path

    return make


# ---------------------------------------------------------------------------------------------- PostgreSQL


class _Cluster:
    """A throwaway PostgreSQL cluster in a temporary folder (initdb + pg_ctl, trust authentication on 127.0.0.1),
    run as the ``postgres`` user when the tests run as root (PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        import glob
        import os
        import pwd
        import shutil
        import socket
        import tempfile

        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
        initdb = found[-1] if found else shutil.which("initdb")
        if initdb is None:
            raise RuntimeError("no initdb: apt-get install postgresql")
        self.bin = os.path.dirname(initdb)
        self.as_user: list[str] = []
        self.folder = tempfile.mkdtemp(prefix="castle-pg-")
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and there is no postgres user to run PostgreSQL as") from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"] if shutil.which("runuser") else ["su", "postgres", "-c"]
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self._run("initdb", "-D", f"{self.folder}/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self._run("pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w", "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                  "-c synchronous_commit=off -c full_page_writes=off", "start")  # fmt: skip
        self.count = 0

    def _run(self, tool: str, *args: str) -> None:
        import shlex
        import subprocess

        argv = [f"{self.bin}/{tool}", *args]
        su = self.as_user[-1:] == ["-c"]  # su takes one shell command line; runuser the argument list
        argv = [*self.as_user, shlex.join(argv)] if su else [*self.as_user, *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{tool} failed: {(done.stderr or done.stdout).strip()[-300:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database's address (one per test)."""
        import os

        import psycopg

        self.count += 1
        name = f"castle_{os.getpid()}_{self.count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        import shutil

        try:
            self._run("pg_ctl", "-D", f"{self.folder}/data", "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[_Cluster]:
    """One PostgreSQL cluster for the session (``.ci/run`` installs Debian's ``postgresql``); the tests that need
    it are skipped, with the reason, where it cannot start."""
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install -e '.[test]'")
    try:
        cluster = _Cluster()
    except (RuntimeError, OSError) as exc:
        pytest.skip(f"PostgreSQL cannot start here: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster: _Cluster) -> str:
    """The address of a new, empty PostgreSQL database on the session's cluster."""
    return postgres_cluster.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def records_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A records database's address on each backend: a SQLite file, then a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "records.db")
    url: str = request.getfixturevalue("postgres_url")
    return url
