"""Shared pytest options: ``--update-goldens`` rewrites expected output files instead of comparing
(``docs/design.md#tests``); the ``rule`` marker names the rule ids (``docs/rules/``) a test checks
(``tests/test_rule_trace.py`` fails for a rule id no test names).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

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
