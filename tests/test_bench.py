"""Every benchmark script under ``bench/`` still starts: it imports, and one with options prints its ``--help``.

The scripts are run by hand, seldom, so a rename in the engine or the bridge could break one unnoticed; these
cheap checks run each script's imports and its argument parser (not its measurement), in this process.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if p.name != "checkout.py")
"""Every script (``checkout.py`` is the module each imports first, checked below)."""


def _has_options(path: Path) -> bool:
    return "argparse" in path.read_text(encoding="utf-8")


@pytest.fixture
def bench_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bench/`` first on ``sys.path``, as Python puts a script's folder (the scripts ``import checkout``)."""
    monkeypatch.syspath_prepend(str(BENCH))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_every_bench_script_imports_and_prints_its_help(
    path: Path, bench_path: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if not _has_options(path):
        runpy.run_path(str(path), run_name="bench_script")  # its imports and definitions, not its measurement
        return
    monkeypatch.setattr(sys, "argv", [str(path), "--help"])
    with pytest.raises(SystemExit) as ended:
        runpy.run_path(str(path), run_name="__main__")
    assert ended.value.code in (0, None)
    assert capsys.readouterr().out.startswith("usage:")


def test_the_checkout_module_names_the_engine_it_measures(bench_path: None) -> None:
    import checkout  # type: ignore[import-not-found]

    built = Path(checkout.engine_build())
    assert (built / "__init__.py").is_file() and (built / "rulesets").is_dir()
