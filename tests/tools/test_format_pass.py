"""tools/format_pass.py: the formatter markers go, nothing else on their lines does, and a second pass changes
nothing."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def format_pass(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT))
    return importlib.import_module("tools.format_pass")


MARKED = (
    "TABLE = {\n"
    "    'a': 1,  'bb': 2,\n"
    "}  # fmt: skip\n"
    "x = f(1,  2)  # noqa: B008  # fmt: skip\n"
    "y = g(3)  # fmt:skip  # type: ignore[no-untyped-call]\n"
    "# fmt: off\n"
    "z = [1,\n"
    "     2]\n"
    "    # fmt: on\n"
    "s = '# fmt: skip'\n"
)
"""A module with a trailing marker, a marker after another comment and one before it, an off/on pair (one
indented) and a marker inside a string literal."""


def test_markers_are_cut_and_the_rest_of_each_line_kept(format_pass: ModuleType) -> None:
    assert format_pass.strip_markers(MARKED) == (
        "TABLE = {\n"
        "    'a': 1,  'bb': 2,\n"
        "}\n"
        "x = f(1,  2)  # noqa: B008\n"
        "y = g(3)  # type: ignore[no-untyped-call]\n"
        "z = [1,\n"
        "     2]\n"
        "s = '# fmt: skip'\n"
    )


def test_stripping_twice_changes_nothing(format_pass: ModuleType) -> None:
    once = format_pass.strip_markers(MARKED)
    assert format_pass.strip_markers(once) == once
    assert format_pass.strip_markers("a = 1\n") == "a = 1\n"


def test_windows_line_endings_are_kept(format_pass: ModuleType) -> None:
    assert format_pass.strip_markers("a = 1  # fmt: skip\r\nb = 2\r\n") == "a = 1\r\nb = 2\r\n"


def test_a_file_that_is_not_python_is_refused(format_pass: ModuleType) -> None:
    with pytest.raises((SyntaxError, format_pass.tokenize.TokenError)):
        format_pass.strip_markers("x = (1,\n")


def test_the_pass_covers_the_checked_directories_and_no_third_party_code(format_pass: ModuleType) -> None:
    files = format_pass.python_files()
    relative = {p.relative_to(ROOT).as_posix() for p in files}
    assert "tools/format_pass.py" in relative and "engine/__init__.py" in relative
    assert {r.split("/")[0] for r in relative} <= set(format_pass.FORMATTED)
    assert not any("node_modules" in r or "/." in r for r in relative)
