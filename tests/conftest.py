"""Shared pytest options: ``--update-goldens`` rewrites expected output files instead of comparing
(``docs/design.md#tests``); the ``rule`` marker names the rule ids (``docs/rules/``) a test checks
(``tests/test_rule_trace.py`` fails for a rule id no test names).
"""

from __future__ import annotations

import ast
import functools
import gc
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(*ids): the rule ids (docs/rules/) this test checks")
    _share_bytecode()
    _fewer_collections()


YOUNG_THRESHOLD = 20_000
"""The cyclic garbage collector's first threshold in the test processes (Python's default is 700)."""


def _fewer_collections() -> None:
    """Run the cyclic garbage collector's passes less often in the test processes (each xdist worker), as
    ``engine.sim`` does while ``simulate`` plays. A worker holds every module the suite imports, the command trees
    of the sandboxes it ran and hypothesis' data, and every full pass walks all of it. Timed by ``gc.callbacks``
    over a whole run, the passes took about 28 s of the workers' CPU at Python's default threshold (700) and about
    15 s at 20,000; the run's CPU as a whole fell by 2-3 %. Cyclic garbage is freed by the later passes all the
    same; reference counting frees the rest at once. A threshold of 0 (collection turned off) is left as it is."""
    young, older, oldest = gc.get_threshold()
    if young:
        gc.set_threshold(max(young, YOUNG_THRESHOLD), older, oldest)


def _share_bytecode() -> None:
    """Let the Python processes the tests start (the xdist workers, ``traitors`` commands) keep their compiled
    modules in one folder outside the source tree, unless the environment names one already
    (``PYTHONPYCACHEPREFIX``). Where ``PYTHONDONTWRITEBYTECODE`` is set, every process would otherwise compile
    every module it imports, about half a second of CPU per ``traitors`` process; the folder, under the system's
    temporary folder and one per user, leaves the source tree as clean as that variable keeps it. A folder of
    that name that another user owns, or that others may write to, is not used: its files would be run."""
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    folder = Path(tempfile.gettempdir()) / f"castle-pycache-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    mode = folder.lstat()
    if mode.st_uid != os.getuid() or mode.st_mode & 0o022 or folder.is_symlink():
        return
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


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


MAX_WORKERS = 8
"""The most xdist workers ``-n auto`` starts: past that, each worker's own collection (about 10 s of CPU on a fresh
checkout) and the longest tests, which run whole, outweigh what another worker adds."""


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (pyproject.toml's addopts): one worker more than the cores this process may run on, at most
    ``MAX_WORKERS``. About a quarter of a worker's time goes waiting, not computing (child processes, the browser,
    phase clocks, sockets): the extra worker runs while another waits, so the cores stay busy. The environment's
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` decides instead, as xdist documents, when it is set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return min(_cores() + 1, MAX_WORKERS)


def _cores(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """The cores this process may use: those it may run on (``os.sched_getaffinity``), fewer when its control
    group caps its CPU time (cgroup v2 ``cpu.max``, v1 ``cpu/cpu.cfs_quota_us`` over ``cpu.cfs_period_us``: a
    container given two CPUs of a larger machine sees all of the machine's), rounded up; at least 1."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    for quota_file, period_file in (("cpu.max", None), ("cpu/cpu.cfs_quota_us", "cpu/cpu.cfs_period_us")):
        try:
            fields = (cgroup / quota_file).read_text(encoding="ascii").split()
            if period_file is not None:
                fields.append((cgroup / period_file).read_text(encoding="ascii").strip())
            quota, period = int(fields[0]), int(fields[1])
        except (OSError, ValueError, IndexError):  # no such file, or "max" / -1: no cap
            continue
        if quota > 0 and period > 0:
            cores = min(cores, -(-quota // period))
    return max(cores, 1)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadscope`` (pyproject.toml's addopts), hand out one test at a time, except that the
    tests of a module that use a module-scoped fixture it defines (a demo series, the Spyglass run, a browser)
    are one unit: one worker builds that fixture once and runs them (docs/design.md#tests)."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SharedFixtureScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return _unit(config, nodeid)

    return SharedFixtureScheduling(config, log)


def _fixture_scope(decorator: ast.expr) -> tuple[str, bool] | None:
    """The scope a ``@pytest.fixture(…)`` / ``@fixture(…)`` decorator gives (``"function"`` when none is named) and
    whether it is ``autouse``; ``None`` when ``decorator`` is no fixture decorator."""
    call = decorator if isinstance(decorator, ast.Call) else None
    target = call.func if call is not None else decorator
    name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
    if name != "fixture":
        return None
    given = {k.arg: k.value.value for k in call.keywords if isinstance(k.value, ast.Constant)} if call else {}
    return str(given.get("scope", "function")), bool(given.get("autouse", False))


@functools.cache
def _module_fixture_users(path: Path) -> frozenset[str] | None:
    """The tests of the module at ``path`` (function names, or class names for a test class) that use a
    module-scoped fixture the module defines, directly or through its other fixtures; ``None`` when it defines
    none. An ``autouse`` fixture or a ``usefixtures`` mark puts every test of the module in the set's place:
    ``frozenset({"*"})``."""
    if path.suffix != ".py" or not path.is_file():
        return None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    needs: dict[str, set[str]] = {}  # fixture name -> the fixtures it takes
    shared: set[str] = set()
    tests: dict[str, set[str]] = {}  # test (or test class) name -> the fixtures it takes
    whole_module = False

    def functions(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        yield from (node for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))

    def args(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        return {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}

    for fn in functions(tree.body):
        fixture = next((found for d in fn.decorator_list if (found := _fixture_scope(d)) is not None), None)
        if fixture is not None:
            needs[fn.name] = args(fn)
            if fixture[0] == "module":
                shared.add(fn.name)
                whole_module |= fixture[1]
        elif fn.name.startswith("test"):
            tests[fn.name] = args(fn)
    for cls in (node for node in tree.body if isinstance(node, ast.ClassDef) and node.name.startswith("Test")):
        tests[cls.name] = set().union(*(args(fn) for fn in functions(cls.body)))
    if not shared:
        return None
    if whole_module or any(isinstance(n, ast.Attribute) and n.attr == "usefixtures" for n in ast.walk(tree)):
        return frozenset({"*"})
    using = set(shared)
    while grown := {name for name, taken in needs.items() if name not in using and taken & using}:
        using |= grown
    return frozenset(name for name, taken in tests.items() if taken & using)


def _unit(config: pytest.Config, nodeid: str) -> str:
    """The unit a test is scheduled in: its module when it uses a module-scoped fixture of its module (one worker
    builds the fixture once and runs every test that uses it), else the test itself."""
    module, _, rest = nodeid.partition("::")
    users = _module_fixture_users(config.rootpath / module)
    if users is None:
        return nodeid
    name = rest.split("::", 1)[0].split("[", 1)[0]
    return module if "*" in users or name in users else nodeid


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
        self._run(
            "pg_ctl",
            "-D",
            f"{self.folder}/data",
            "-l",
            f"{self.folder}/log",
            "-w",
            "-o",
            f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off",
            "start",
        )
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
