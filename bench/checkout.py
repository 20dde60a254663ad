"""Imported first by every benchmark: puts this checkout's root first on ``sys.path``.

A script's own folder (``bench/``) is what Python puts first, so without this the ``engine`` and ``bridge`` of the
installed project would be measured, whichever checkout the script was run from (an editable install points at
one checkout; comparing two versions back to back means running each one's ``bench/`` scripts).

``CASTLE_BENCH_INSTALLED=1`` measures the installed project instead (a regular ``pip install .`` into another
environment, run with that environment's Python), for comparing a release with the checkout.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The checkout this ``bench/`` folder belongs to."""

INSTALLED = os.environ.get("CASTLE_BENCH_INSTALLED") == "1"
"""True: measure the installed project, not this checkout (``CASTLE_BENCH_INSTALLED=1``)."""

if INSTALLED:
    sys.path = [p for p in sys.path if Path(p or ".").resolve() != ROOT]
elif str(ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(ROOT))


def engine_build() -> str:
    """The folder the benchmark's engine was imported from (printed by the scripts, so a figure always says what it
    measured)."""
    import engine

    return str(Path(str(engine.__file__)).parent)


def run_on_commit(commit: str, script: str, argv: list[str]) -> str:
    """Run a copy of ``script`` (a path under this ``bench/``) with ``argv`` on a temporary worktree of ``commit``
    and return its standard output: the same measurement of an older version (``--compare`` of a script), which
    the copy counts exactly as this one does.

    Raises:
        subprocess.CalledProcessError: ``git worktree add`` or the script failed.
    """
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="castle-bench-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), commit], check=True, capture_output=True
        )
        try:
            copy = tree / "bench" / Path(script).name
            shutil.copyfile(script, copy)
            done = subprocess.run([sys.executable, str(copy), *argv], check=True, capture_output=True, text=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    return done.stdout
