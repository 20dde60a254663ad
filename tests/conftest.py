"""Shared pytest options: ``--update-goldens`` rewrites expected output files instead of comparing
(``docs/design.md#tests``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest


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
