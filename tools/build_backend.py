"""The project's build backend: setuptools', which also asks for mypy (its compiler, mypyc) when
``CASTLE_COMPILE=1`` asks for a compiled engine (``setup.py``). A plain install needs nothing more than setuptools.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every other hook is setuptools' own

MYPYC = "mypy==2.4.1"
"""The compiler of a compiled engine, pinned: another version compiles other C."""


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    """setuptools' build requirements, and mypy when ``CASTLE_COMPILE=1`` (PEP 517 hook)."""
    extra = [MYPYC] if os.environ.get("CASTLE_COMPILE") == "1" else []
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]  # type: ignore[arg-type]
