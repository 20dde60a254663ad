"""tools/import_contracts.py: the ``acyclic_init`` contract catches a package's ``__init__`` in an import circle
with a module inside it, which the built-in ``acyclic_siblings`` contract lets pass."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import grimp
import pytest
from importlinter.configuration import configure
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def contracts(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT))
    return importlib.import_module("tools.import_contracts")


def _graph(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> grimp.ImportGraph:
    """The import graph of a toy package ``toy`` made of ``files`` (path under ``tmp_path`` → text)."""
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return grimp.build_graph("toy", cache_dir=None)


CIRCLE = {
    "toy/__init__.py": "from toy.a import A\n",
    "toy/a.py": "import toy\nA = 1\n",
    "toy/b.py": "",
}
"""``toy``'s ``__init__`` imports ``toy.a``, which imports ``toy`` back."""


def _check(contracts: ModuleType, graph: grimp.ImportGraph) -> tuple[bool, list[str]]:
    contract = contracts.AcyclicInitContract("init", {}, {"ancestors": ["toy"]})
    check = contract.check(graph, verbose=False)
    return check.kept, [c.render() for c in check.metadata["circles"]]


def test_a_circle_through_the_init_breaks_the_contract(
    contracts: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = _graph(tmp_path, monkeypatch, CIRCLE)
    assert _check(contracts, graph) == (False, ["toy -> toy.a -> toy"])
    configure()  # the built-in contract times itself with import-linter's configured clock
    siblings = AcyclicSiblingsContract("siblings", {}, {"ancestors": ["toy"]})
    assert siblings.check(graph, verbose=False).kept  # why the project has a contract of its own


def test_a_circle_through_a_module_outside_the_subpackage(
    contracts: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "toy/__init__.py": "",
        "toy/sub/__init__.py": "from toy.sub import x\n",
        "toy/sub/x.py": "from toy import other\n",
        "toy/other.py": "import toy.sub\n",
    }
    graph = _graph(tmp_path, monkeypatch, files)
    assert _check(contracts, graph) == (False, ["toy.sub -> toy.sub.x -> toy.other -> toy.sub"])


def test_an_init_that_imports_its_modules_one_way_keeps_it(
    contracts: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        "toy/__init__.py": "from toy.a import A\nfrom toy.sub import B\n",
        "toy/a.py": "from toy.sub.b import B\nA = B\n",
        "toy/sub/__init__.py": "from toy.sub.b import B\n",
        "toy/sub/b.py": "B = 2\n",
    }
    assert _check(contracts, _graph(tmp_path, monkeypatch, files)) == (True, [])


def test_an_unknown_ancestor_is_an_error(
    contracts: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    graph = _graph(tmp_path, monkeypatch, CIRCLE)
    contract = contracts.AcyclicInitContract("init", {}, {"ancestors": ["toy.missing"]})
    with pytest.raises(ValueError, match="toy.missing"):
        contract.check(graph, verbose=False)
