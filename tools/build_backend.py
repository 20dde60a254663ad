"""The project's build backend: setuptools', which also asks for mypy (its compiler, mypyc) when
``CASTLE_COMPILE=1`` asks for a compiled engine (``setup.py``), and refuses that for an editable install. A plain
install needs nothing more than setuptools.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - every other hook is setuptools' own

MYPYC = "mypy==2.4.1"
"""The compiler of a compiled engine, pinned: another version compiles other C."""


def _compiling() -> bool:
    return os.environ.get("CASTLE_COMPILE") == "1"


def _refuse_editable() -> None:
    """Raise ``SystemExit`` (pip shows the message) when a compiled engine is asked of an editable install: its
    extension modules would sit beside the sources in the checkout and be imported instead of them, so an edited
    rule would silently not run."""
    if _compiling():
        raise SystemExit(
            "CASTLE_COMPILE=1 is for a regular install into its own environment (pip install .), not an editable "
            "one (pip install -e .): compiled modules beside the sources would be imported instead of them"
        )


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    """setuptools' build requirements, and mypy when ``CASTLE_COMPILE=1`` (PEP 517 hook)."""
    extra = [MYPYC] if _compiling() else []
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *extra]  # type: ignore[no-any-return,arg-type,unused-ignore]


def get_requires_for_build_editable(config_settings: dict[str, object] | None = None) -> list[str]:
    """setuptools' requirements for an editable install (PEP 660 hook); refused when ``CASTLE_COMPILE=1``."""
    _refuse_editable()
    return _setuptools.get_requires_for_build_editable(config_settings)  # type: ignore[no-any-return,arg-type,unused-ignore]


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, object] | None = None
) -> str:
    """setuptools' hook (PEP 660); refused when ``CASTLE_COMPILE=1`` (a frontend may call it first)."""
    _refuse_editable()
    return _setuptools.prepare_metadata_for_build_editable(metadata_directory, config_settings)  # type: ignore[no-any-return,arg-type,unused-ignore]


def build_editable(
    wheel_directory: str, config_settings: dict[str, object] | None = None, metadata_directory: str | None = None
) -> str:
    """setuptools' hook (PEP 660); refused when ``CASTLE_COMPILE=1``."""
    _refuse_editable()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)  # type: ignore[no-any-return,arg-type,unused-ignore]
