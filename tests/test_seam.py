"""The ruleset seam: which modules of the bridge and the lab (``bench/``) still name a ruleset.

The bridge, the lab, the CLI and the web pages should read the ruleset registry (``engine.rulesets.RULESETS``)
and never pick a ruleset out by its name (``docs/rulesets.md``, "Recipes"). ``NAMING`` lists the modules that
still do. A module that starts naming a ruleset fails ``test_only_the_listed_modules_name_a_ruleset`` (read the
registry instead); a listed module that no longer names one fails it too (take it off the list), so the list
only shrinks.

What "names a ruleset" means here, read from each module's syntax tree (comments and docstrings, bare string
statements included, are prose and do not count):

- an import of a ruleset package (``import engine.rulesets.club…``, ``from engine.rulesets.traitors… import``,
  ``from engine.rulesets import club``), or a string spelling one (``"engine.rulesets.traitors.game"``, a
  script's import line). Importing the registry itself (``from engine.rulesets import RULESETS, new_game``) is
  what a module should do and does not count;
- a registry key that is not also an ordinary word of the software (``black_knights``, ``mafia_yakuza``) anywhere
  in an identifier (a variable, attribute, function, argument, keyword or imported name) or a string;
- the key ``"traitors"``, which is also the name of the command line (``traitors``), of the data pack's namespace
  (``traitors:``) and of the ``custom_data`` marker of the castle's items, the Traitors' side in a tally and a
  setting (how many Traitors are dealt). The string ``"traitors"`` counts only where it is plainly the ruleset: when the
  statement holding it (for an ``if``, ``for``, ``while``, ``with``, ``def`` or ``class``: its header only)
  also speaks of a ruleset, through an identifier containing ``ruleset`` or the string ``"--ruleset"``; when it
  is a key or item of a dict, list, tuple or set display that holds another ruleset key; or when it is the
  value of a dict display's ``"ruleset"`` key. An identifier containing ``traitors`` never counts.

The web pages' scripts and markup (``bridge/web/static/``) are read line by line: a line names a ruleset when it
holds a registry key other than ``traitors`` as a quoted string, or ``"traitors"`` quoted on a line that also
says ``ruleset`` (``c.ruleset === "traitors"``).

The registry keys and the ruleset packages are read from the registry and from ``engine/rulesets/``, so a new
ruleset is covered without editing this test.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]

SCANNED = ("bridge", "bench")
"""The folders whose modules must not name a ruleset: the bridge (service, CLI, web) and the lab."""

PAGES = ("*.js", "*.html")
"""The web pages' files under ``SCANNED`` (their Python modules are read as Python)."""

AMBIGUOUS = frozenset({"traitors"})
"""Registry keys that are also ordinary words of the software (see the module docstring)."""

NAMING: tuple[str, ...] = ()
"""The modules that name a ruleset today, by path from the repository root: none. It may only shrink."""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """What names a ruleset: ``keys`` the registry keys, ``packages`` the ruleset packages' dotted names."""

    keys: frozenset[str]
    packages: frozenset[str]

    @property
    def plain(self) -> frozenset[str]:
        """The keys that name a ruleset wherever they appear."""
        return self.keys - AMBIGUOUS

    def spelled_in(self, text: str) -> bool:
        """Whether ``text`` spells a ruleset package's dotted name (a module path, a script's import line)."""
        return any(re.search(rf"(?<![\w.]){re.escape(p)}(?![\w])", text) for p in self.packages)


def vocabulary() -> Vocabulary:
    """The registry's keys and the packages under ``engine/rulesets/`` (each folder with an ``__init__.py``)."""
    folder = ROOT / "engine" / "rulesets"
    packages = {f"engine.rulesets.{p.parent.name}" for p in folder.glob("*/__init__.py")}
    return Vocabulary(frozenset(RULESETS), frozenset(packages))


def _is_package(name: str, vocab: Vocabulary) -> bool:
    return any(name == p or name.startswith(p + ".") for p in vocab.packages)


def _header(stmt: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``stmt`` outside the statements it holds (a compound statement's header)."""
    for child in ast.iter_child_nodes(stmt):
        if not isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
            yield from ast.walk(child)


def _speaks_of_a_ruleset(nodes: list[ast.AST]) -> bool:
    """Whether ``nodes`` hold an identifier containing ``ruleset`` or the string ``"--ruleset"``."""
    for node in nodes:
        if "ruleset" in (_identifier(node) or ""):
            return True
        if isinstance(node, ast.Constant) and node.value == "--ruleset":
            return True
    return False


def _strings(node: ast.AST) -> list[str]:
    """The string constants among the items (or the keys) of a list, tuple, set or dict display."""
    return [e.value for e in getattr(node, "elts", getattr(node, "keys", [])) if isinstance(e, ast.Constant)]


def _identifier(node: ast.AST) -> str | None:
    """The name ``node`` gives or uses, if it is a variable, attribute, definition, argument, keyword or alias."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.arg | ast.keyword):
        return node.arg
    if isinstance(node, ast.alias):
        return node.asname or node.name
    return None


def _bare_strings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are statements of their own: docstrings and attribute docstrings."""
    return {
        id(s.value)
        for s in ast.walk(tree)
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
    }


def _imports(node: ast.AST, vocab: Vocabulary) -> list[str]:
    """The ruleset packages (or their modules) the statement ``node`` imports."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if _is_package(a.name, vocab)]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        if _is_package(node.module, vocab):
            return [node.module]
        return [f"{node.module}.{a.name}" for a in node.names if _is_package(f"{node.module}.{a.name}", vocab)]
    return []


def _ambiguous_key(header: list[ast.AST], parents: dict[int, ast.AST], const: ast.Constant, vocab: Vocabulary) -> bool:
    """Whether the string ``const`` (an ambiguous key) is plainly the ruleset (module docstring)."""
    parent = parents.get(id(const))
    if isinstance(parent, ast.Dict | ast.List | ast.Tuple | ast.Set):
        if any(s in vocab.keys and s != const.value for s in _strings(parent)):
            return True
        if isinstance(parent, ast.Dict):
            for key, value in zip(parent.keys, parent.values, strict=True):
                if value is const and isinstance(key, ast.Constant) and key.value == "ruleset":
                    return True
    return _speaks_of_a_ruleset(header)


def _statements(tree: ast.AST) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
    """Every statement (and ``except``/``case`` clause) of ``tree`` with the nodes of its header."""
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt | ast.excepthandler | ast.match_case):
            yield node, list(_header(node))


def names_of_rulesets(source: str, vocab: Vocabulary) -> list[str]:
    """Where ``source`` (a module's text) names a ruleset: ``"<line>: <what>"`` per place, in line order.

    Raises:
        SyntaxError: ``source`` is not Python.
    """
    tree = ast.parse(source)
    prose = _bare_strings(tree)
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found: set[tuple[int, str]] = set()
    for stmt, header in _statements(tree):
        found |= {(stmt.lineno, f"imports {name}") for name in _imports(stmt, vocab)}
        for node in [stmt, *header]:
            ident = _identifier(node)
            if ident and any(key in ident for key in vocab.plain):
                found.add((getattr(node, "lineno", 0), f"identifier {ident}"))
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in prose:
                continue
            text = node.value
            plain = any(key in text for key in vocab.plain) or vocab.spelled_in(text)
            if plain or (text in AMBIGUOUS & vocab.keys and _ambiguous_key(header, parents, node, vocab)):
                found.add((node.lineno, repr(text)))
    return [f"{line}: {what}" for line, what in sorted(found)]


def names_in_page(text: str, vocab: Vocabulary) -> list[str]:
    """Where a web page's script or markup ``text`` names a ruleset: ``"<line>: <the line>"`` per line."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        quoted = set(re.findall(r"""["']([A-Za-z0-9_]+)["']""", line))
        if quoted & vocab.plain or (quoted & AMBIGUOUS & vocab.keys and "ruleset" in line):
            found.append(f"{number}: {line.strip()}")
    return found


def scanned_modules() -> list[Path]:
    """Every Python module and web page under ``SCANNED``, sorted."""
    patterns = ("*.py", *PAGES)
    return sorted(p for folder in SCANNED for pattern in patterns for p in (ROOT / folder).rglob(pattern))


def names_in(path: Path, vocab: Vocabulary) -> list[str]:
    """Where the module or page at ``path`` names a ruleset (``names_of_rulesets``, ``names_in_page``)."""
    text = path.read_text(encoding="utf-8")
    return names_of_rulesets(text, vocab) if path.suffix == ".py" else names_in_page(text, vocab)


def test_only_the_listed_modules_name_a_ruleset() -> None:
    vocab = vocabulary()
    naming: dict[str, list[str]] = {}
    for path in scanned_modules():
        places = names_in(path, vocab)
        if places:
            naming[path.relative_to(ROOT).as_posix()] = places
    new = {m: places for m, places in naming.items() if m not in NAMING}
    assert not new, f"these modules name a ruleset; read the registry (engine.rulesets.RULESETS) instead: {new}"
    gone = sorted(set(NAMING) - set(naming))
    assert not gone, f"these modules no longer name a ruleset; take them off NAMING in tests/test_seam.py: {gone}"


def test_every_registered_ruleset_lives_in_a_package_the_test_knows() -> None:
    vocab = vocabulary()
    assert vocab.keys >= AMBIGUOUS, "an ambiguous key is no longer a registry key"
    for ruleset in RULESETS.values():
        assert _is_package(ruleset.game.__module__, vocab), ruleset.game
        assert _is_package(ruleset.settings.__module__, vocab), ruleset.settings


NAMES = [
    ("from engine.rulesets.club.game import ClubGame\n", "1: imports engine.rulesets.club.game"),
    ("import engine.rulesets.traitors.game\n", "1: imports engine.rulesets.traitors.game"),
    ("from engine.rulesets import club\n", "1: imports engine.rulesets.club"),
    ('patch("engine.rulesets.traitors.game.Game")\n', "1: 'engine.rulesets.traitors.game.Game'"),
    ('SCRIPT = "import engine.rulesets.club.game"\n', "1: 'import engine.rulesets.club.game'"),
    ('TITLES = {"black_knights": "Black Knights"}\n', "1: 'black_knights'"),
    ("def _mafia_yakuza(n): pass\n", "1: identifier _mafia_yakuza"),
    ('if record.ruleset != "traitors":\n    pass\n', "1: 'traitors'"),
    ('def f(ruleset: str = "traitors"):\n    pass\n', "1: 'traitors'"),
    ('p.add_argument("--ruleset", default="traitors")\n', "1: 'traitors'"),
    ('x = ruleset or "traitors"\n', "1: 'traitors'"),
    ('SIDE = {"traitors": "faithful", "mafia_yakuza": "town"}\n', "1: 'mafia_yakuza'"),
    ('entry = {"ruleset": "traitors", "count": 3}\n', "1: 'traitors'"),
]


@pytest.mark.parametrize(("source", "first"), NAMES, ids=[s.strip()[:40] for s, _ in NAMES])
def test_what_names_a_ruleset(source: str, first: str) -> None:
    assert names_of_rulesets(source, vocabulary())[0] == first


NOT_NAMES = [
    "from engine.rulesets import RULESETS, new_game\n",
    'SCRIPT = "import engine.rulesets.core_club"\n',
    'parser = Parser(prog="traitors", description="Run The Traitors.")\n',
    'marker = {"traitors": {"item": "vote_paper"}}\n',
    'path = root / "assets" / "traitors" / "lang"\n',
    'COLOURS = {"faithful": "#8fd3ff", "traitors": "#ff6b6b", "white_order": "#8fd3ff"}\n',
    'KEYS = ("traitors", "drunk", "powers")\n',
    'if ruleset:\n    wins.get("traitors", 0)\n',
    "traitors = [p for p in players if p.traitor]\n",
    '"""Plays black_knights or mafia_yakuza (engine.rulesets.club)."""\n',
    'X = 1\n"""The default ruleset, "traitors"."""\n',
]


@pytest.mark.parametrize("source", NOT_NAMES, ids=[s.strip()[:40] for s in NOT_NAMES])
def test_what_does_not_name_a_ruleset(source: str) -> None:
    assert names_of_rulesets(source, vocabulary()) == []


PAGE_LINES = [
    ('  if (!twist.options.length && c.ruleset === "traitors") {', True),
    ("  const sides = {black_knights: 1, 'mafia_yakuza': 2};", True),
    ('  <option value="black_knights">Black Knights</option>', True),
    ('  <h1>The Traitors</h1><a href="/traitors">', False),
    ('  const url = "traitors";', False),
]


@pytest.mark.parametrize(("line", "names"), PAGE_LINES, ids=[line.strip()[:40] for line, _ in PAGE_LINES])
def test_what_names_a_ruleset_in_a_web_page(line: str, names: bool) -> None:
    assert bool(names_in_page(line, vocabulary())) is names
