"""How ``tests/conftest.py`` cuts the suite into the units the xdist workers take (the tests that use a
module-scoped fixture of their module go together, so the fixture is built once; every other test alone), and how
many workers ``-n auto`` starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import conftest
from tests.conftest import MAX_WORKERS, _cores, _module_fixture_users, _unit, pytest_xdist_auto_num_workers

MODULE = """
import pytest

@pytest.fixture(scope="module")
def series():
    return 1

@pytest.fixture
def seats(series):
    return series

@pytest.fixture
def alone():
    return 2

def test_uses_the_series(series): ...

def test_uses_it_through_another_fixture(seats): ...

def test_needs_no_series(alone, tmp_path): ...

class TestGroup:
    def test_one(self): ...
    def test_two(self, series): ...
"""


def test_only_the_tests_that_use_a_module_fixture_are_one_unit(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    path = tmp_path / "test_sample.py"
    path.write_text(MODULE, encoding="utf-8")
    assert _module_fixture_users(path) == {"test_uses_the_series", "test_uses_it_through_another_fixture", "TestGroup"}
    plain = tmp_path / "test_plain.py"
    plain.write_text(
        "import pytest\n\n@pytest.fixture\ndef f():\n    return 1\n\ndef test_f(f): ...\n", encoding="utf-8"
    )
    assert _module_fixture_users(plain) is None
    autouse = tmp_path / "test_autouse.py"
    autouse.write_text(
        MODULE.replace('scope="module")\ndef series', 'scope="module", autouse=True)\ndef series'), encoding="utf-8"
    )
    assert _module_fixture_users(autouse) == {"*"}
    marked = tmp_path / "test_marked.py"
    marked.write_text('pytestmark = pytest.mark.usefixtures("alone")\n' + MODULE, encoding="utf-8")
    assert _module_fixture_users(marked) == {"*"}
    noted = tmp_path / "test_noted.py"  # the word in a comment or a string is no mark
    noted.write_text('# usefixtures\n"usefixtures"\n' + MODULE, encoding="utf-8")
    assert _module_fixture_users(noted) == _module_fixture_users(path)


def test_the_demo_module_shares_its_series_and_hands_out_its_other_tests_alone(pytestconfig: pytest.Config) -> None:
    module = "tests/bridge/app/test_demo.py"
    assert _unit(pytestconfig, f"{module}::test_every_command_sent_parses_with_mecha") == module
    busy = f"{module}::test_same_seed_same_game_log_on_a_busy_machine"  # its idle run: the module's releases
    assert _unit(pytestconfig, busy) == module
    kicked = f"{module}::test_a_series_survives_a_contestant_kicked_mid_night"
    assert _unit(pytestconfig, kicked) == kicked
    club = f"{module}::test_club_demo_plays_a_whole_series[black_knights]"
    assert _unit(pytestconfig, club) == club
    assert _unit(pytestconfig, "tests/test_docs.py::test_x") == "tests/test_docs.py::test_x"


def test_auto_starts_one_worker_more_than_the_cores_at_most_the_cap(
    pytestconfig: pytest.Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    for cores, workers in ((1, 2), (2, 3), (7, 8), (32, MAX_WORKERS)):
        monkeypatch.setattr(conftest, "_cores", lambda cores=cores: cores)
        assert pytest_xdist_auto_num_workers(pytestconfig) == workers
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")  # xdist's own hook reads it
    assert pytest_xdist_auto_num_workers(pytestconfig) is None


def test_a_cpu_cap_of_the_control_group_counts_as_fewer_cores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.sched_getaffinity", lambda _pid: set(range(16)))
    assert _cores(tmp_path) == 16  # no cgroup files: the affinity
    (tmp_path / "cpu.max").write_text("max 100000\n", encoding="ascii")
    assert _cores(tmp_path) == 16
    (tmp_path / "cpu.max").write_text("150000 100000\n", encoding="ascii")  # one and a half CPUs: two cores
    assert _cores(tmp_path) == 2
    (tmp_path / "cpu.max").unlink()
    (tmp_path / "cpu").mkdir()
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("-1\n", encoding="ascii")
    (tmp_path / "cpu" / "cpu.cfs_period_us").write_text("100000\n", encoding="ascii")
    assert _cores(tmp_path) == 16
    (tmp_path / "cpu" / "cpu.cfs_quota_us").write_text("200000\n", encoding="ascii")
    assert _cores(tmp_path) == 2
