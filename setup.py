"""Build script: everything is in ``pyproject.toml``, but for the optional compiled engine.

``CASTLE_COMPILE=1 pip install .`` compiles the engine's rules with mypyc (the compiler mypy ships; black and mypy
are built the same way) into C extension modules: the same code and the same series, about 1.6 times as fast
(``docs/performance.md`` §1). A plain install, editable or not, is pure Python. The modules left interpreted are
the inputs (``engine/actions.py``: their ``kind`` class variables), the errors (subclassed by the bridge's), the
club rulesets (their rule tables) and the compiler's marks (``engine/compile_marks.py``: mypyc reads them from
mypy_extensions while compiling; Python runs them as no-ops). Compiled code calls them as any Python module.

The build backend (``tools/build_backend.py``) refuses a compiled build for an editable install (``pip install
-e``): the extension modules would sit beside the sources in the checkout and be imported instead of them, so an
edited rule would silently not run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent

INTERPRETED = {"engine/actions.py", "engine/errors.py", "engine/compile_marks.py"}
"""Engine modules a compiled build leaves as Python (besides ``engine/rulesets/``)."""


def compiled_modules() -> list[str]:
    """The engine's source files a compiled build compiles, as paths relative to the repository root, sorted."""
    out = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel not in INTERPRETED and not rel.startswith("engine/rulesets/"):
            out.append(rel)
    return out


def ext_modules() -> list[object]:
    """The extension modules to build: none unless ``CASTLE_COMPILE=1``, and none while the frontend only asks for
    the metadata (``egg_info``, ``dist_info``: mypyc would otherwise run twice).

    Raises:
        SystemExit: ``CASTLE_COMPILE=1`` and mypy (mypyc) is not installed where the build runs.
    """
    if os.environ.get("CASTLE_COMPILE") != "1" or {"egg_info", "dist_info"} & set(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit(
            "CASTLE_COMPILE=1 needs mypy (its compiler, mypyc) where the build runs: pip's isolated build installs "
            "it (tools/build_backend.py); with --no-build-isolation, install mypy==2.4.1 first"
        )
    os.chdir(ROOT)  # mypycify takes paths relative to the project
    return mypycify(compiled_modules(), opt_level="3", group_name="castle_engine")


setup(ext_modules=ext_modules())
