"""The rules trace: from every sentence of the three rule texts to a rule id, and from every rule id to a test.

- ``docs/rules/source/*.txt`` are the rule texts (the authority).
- ``docs/rules/<ruleset>.md`` restate them: a list item that starts with a bold rule id (``- **T4.5** …``) is a
  rule line, and it quotes the words it restates in italics (``*“…”*``, or ``*«…»*`` for Russian and Ukrainian);
  ``…`` between or inside quotes skips words. Every quote must be in the page's own text.
- ``docs/rules/trace.md`` walks each text in order: one table row per sentence (or per run of sentences, written
  ``“first words … last words”``), naming rule ids or saying why none applies. Every sentence must be covered,
  every id named there must be a rule line, and every rule line must be named there.
- A test names the ids it checks with ``@pytest.mark.rule("T4.5", …)`` (registered in ``tests/conftest.py``).
  The marks are read from the source of ``tests/**/*.py`` (an AST scan: no test is imported or run), so a rule id
  no test names, or a mark naming no rule, fails here.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.rulesets import RULESETS

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
TRACE = RULES / "trace.md"
TESTS = ROOT / "tests"

PAGES = {r.rulebook: r.rule_text for r in RULESETS.values()}
"""Each rules page and the rule text (``docs/rules/source/``) it restates (``Ruleset.rulebook``, ``rule_text``)."""

PATTERN = {r.rulebook: r.rule_id for r in RULESETS.values()}
"""Each rules page's rule id pattern (``Ruleset.rule_id``)."""
PREFIX = {page: re.match(r"[A-Z]+", pattern).group() for page, pattern in PATTERN.items()}
"""Each rules page's rule id prefix: its pattern's leading capitals."""

ID = "(?:" + "|".join(PATTERN.values()) + ")"
ID_RE = re.compile(rf"(?<![\w.]){ID}(?!\w)")
RULE_LINE_RE = re.compile(rf"^\s*(?:[-*]|\d+\.)\s+\*\*({ID})\*\*")
"""A rule line: a list item starting with its bold rule id."""
ITEM_END_RE = re.compile(r"^\s*(?:[-*]\s|\d+\.\s|#|\||$)")
"""A line that ends a list item: the next item, a heading, a table row, a blank line."""
QUOTE_RE = re.compile(r"\*[“«](.+?)[”»]\*", re.S)
"""A quote of the rule text in a rules page: ``*“…”*`` or ``*«…»*``."""
ELLIPSIS = "…"


def normalize(text: str) -> str:
    """Whitespace (tabs, line breaks, runs of spaces) as single spaces."""
    return " ".join(text.split())


_ENUMERATOR = re.compile(r"(?:^|\s)(?:\d+(?:\.\d+)*\.|Misc\.)$")
"""A piece that ends in a list number ("1.", "1.1.") or an abbreviation, not a full stop."""


def sentences(text: str) -> tuple[str, list[tuple[int, int]]]:
    """The text with normalized whitespace (lines joined by one space) and the spans of its sentences: each line
    is split after ``.``, ``!`` or ``?`` (never after a list number such as ``1.`` or ``1.1.``); a heading, a
    table row or a line of dialogue is a sentence of its own."""
    lines = [normalize(raw) for raw in text.splitlines() if raw.strip()]
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in lines:
        pieces: list[str] = []
        for piece in re.split(r"(?<=[.!?]) ", line):
            if pieces and _ENUMERATOR.search(pieces[-1]):
                pieces[-1] += " " + piece
            else:
                pieces.append(piece)
        at = offset
        for piece in pieces:
            spans.append((at, at + len(piece)))
            at += len(piece) + 1
        offset += len(line) + 1
    return " ".join(lines), spans


def find_in_order(text: str, quote: str, start: int = 0) -> tuple[int, int] | None:
    """Where ``quote`` is in ``text`` at or after ``start``: its parts (split at ``…``) in order, each normalized.
    ``None`` when a part is missing."""
    first = None
    pos = start
    for part in (normalize(p) for p in quote.split(ELLIPSIS)):
        if not part:
            continue
        at = text.find(part, pos)
        if at < 0:
            return None
        first = at if first is None else first
        pos = at + len(part)
    return None if first is None else (first, pos)


@dataclass(frozen=True)
class RuleLine:
    """One rule line of a rules page: its id, the section heading it sits under, and its text."""

    rule: str
    section: str
    text: str


def rule_lines(page: str) -> list[RuleLine]:
    """The rule lines of a rules page's Markdown, in order."""
    out: list[RuleLine] = []
    section = ""
    current: list[str] | None = None
    rule = ""

    def close() -> None:
        if current is not None:
            out.append(RuleLine(rule, section, "\n".join(current)))

    for line in page.splitlines():
        m = RULE_LINE_RE.match(line)
        if m or (current is not None and ITEM_END_RE.match(line)):
            close()
            current = None
        if line.startswith("## "):
            section = line[3:].strip()
        if m:
            rule, current = m.group(1), [line]
        elif current is not None:
            current.append(line)
    close()
    return out


def page_problems(name: str, page: str, source: str) -> list[str]:
    """What is wrong with the rule lines of the page ``name``: an id of another ruleset or section, an id given
    twice, a rule line without a quote, a quote that is not in ``source``."""
    problems = []
    text, _ = sentences(source)
    seen: set[str] = set()
    for line in rule_lines(page):
        if line.rule in seen:
            problems.append(f"{line.rule}: given twice")
        seen.add(line.rule)
        prefix = PREFIX.get(name, "")
        if not re.fullmatch(PATTERN.get(name, prefix), line.rule):
            problems.append(f"{line.rule}: not an id of {name} ({prefix}…)")
        if prefix == "T":
            number = re.match(r"(\d+)\.", line.section)
            if not number or line.rule.split(".")[0] != f"T{number.group(1)}":
                problems.append(f"{line.rule}: under the section {line.section!r}")
        quotes = QUOTE_RE.findall(line.text)
        if not quotes:
            problems.append(f"{line.rule}: quotes nothing of the rule text")
        for quote in quotes:
            if find_in_order(text, quote) is None:
                problems.append(f"{line.rule}: not in the rule text: “{normalize(quote)}”")
    return problems


@dataclass(frozen=True)
class TraceRow:
    """One row of the trace: the quoted sentence(s), the rule ids named, the note."""

    quote: str
    rules: tuple[str, ...]
    note: str


def trace_sections(trace: str) -> dict[str, list[TraceRow]]:
    """The trace's rows by rule text file name: each ``## `` section whose heading names a text file holds a
    table with a quote in its first column, a column headed ``Rules`` and a note in its last column."""
    out: dict[str, list[TraceRow]] = {}
    rows: list[TraceRow] | None = None
    header: list[str] | None = None
    for line in trace.splitlines():
        if line.startswith("## "):
            names = [f for f in PAGES.values() if f in line]
            rows = out.setdefault(names[0], []) if names else None
            header = None
            continue
        if rows is None or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        quote = cells[0]
        rules_cell = cells[header.index("Rules")] if "Rules" in header else ""
        rows.append(TraceRow(quote, tuple(ID_RE.findall(rules_cell)), cells[-1]))
    return out


QUOTED_CELL = re.compile(r"^[“«](.+)[”»]$")


def trace_problems(source: str, rows: Sequence[TraceRow]) -> list[str]:
    """What the trace of one rule text gets wrong: a row whose quote is not a quote, is not in the text or is out
    of order, a row naming no rule and giving no reason, and every sentence of the text no row covers."""
    text, spans = sentences(source)
    covered = [False] * len(spans)
    problems = []
    cursor = 0
    for row in rows:
        m = QUOTED_CELL.match(row.quote)
        if not m:
            problems.append(f"not a quote: {row.quote}")
            continue
        found = find_in_order(text, m.group(1), cursor)
        if found is None:
            problems.append(f"not in the text (after the row before): {row.quote}")
            continue
        if not row.rules and not row.note.strip("—- "):
            problems.append(f"no rule and no reason: {row.quote}")
        start, end = found
        for i, (a, b) in enumerate(spans):
            if a < end and start < b:
                covered[i] = True
        cursor = end
    problems += [f"not traced: “{text[a:b]}”" for (a, b), done in zip(spans, covered, strict=True) if not done]
    return problems


def _is_rule_mark(func: ast.expr) -> bool:
    """``pytest.mark.rule`` or ``mark.rule``."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "rule"
        and (
            (isinstance(func.value, ast.Attribute) and func.value.attr == "mark")
            or (isinstance(func.value, ast.Name) and func.value.id == "mark")
        )
    )


def marked_rules(files: Mapping[str, str]) -> tuple[dict[str, list[str]], list[str]]:
    """The rule ids named by ``rule`` marks in test sources (``{path: source}``): ``({id: [where, …]}, problems)``;
    a mark whose argument is not a literal id is a problem."""
    found: dict[str, list[str]] = {}
    problems = []
    for path, code in files.items():
        for node in ast.walk(ast.parse(code, path)):
            if not (isinstance(node, ast.Call) and _is_rule_mark(node.func)):
                continue
            where = f"{path}:{node.lineno}"
            if not node.args or node.keywords:
                problems.append(f"{where}: a rule mark names its ids as arguments")
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and re.fullmatch(ID, arg.value):
                    found.setdefault(arg.value, []).append(where)
                else:
                    problems.append(f"{where}: not a rule id: {ast.unparse(arg)}")
    return found, problems


def coverage_problems(defined: Iterable[str], marked: Mapping[str, Sequence[str]]) -> list[str]:
    """Every rule id without a test, and every mark naming no rule id."""
    defined = set(defined)
    problems = [f"{rule}: no test names it" for rule in sorted(defined - set(marked), key=_order)]
    for rule in sorted(set(marked) - defined, key=_order):
        problems.append(f"{rule}: named by {', '.join(marked[rule])} but no rules page has it")
    return problems


def _order(rule: str) -> tuple[str, tuple[int, ...]]:
    letters = rule.rstrip("0123456789.")
    return letters, tuple(int(n) for n in rule[len(letters) :].split("."))


# ------------------------------------------------------------------------------------------- the real files


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _defined() -> dict[str, list[RuleLine]]:
    return {name: rule_lines(_read(RULES / name)) for name in PAGES}


def _test_files() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): _read(p) for p in sorted(TESTS.rglob("*.py"))}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_rule_line_quotes_its_rule_text(page: str) -> None:
    problems = page_problems(page, _read(RULES / page), _read(RULES / "source" / PAGES[page]))
    assert not problems, f"docs/rules/{page}:\n" + "\n".join(problems)
    assert rule_lines(_read(RULES / page)), f"docs/rules/{page} has no rule line"


@pytest.mark.parametrize("source", sorted(PAGES.values()))
def test_the_trace_covers_every_sentence_in_order(source: str) -> None:
    sections = trace_sections(_read(TRACE))
    assert source in sections, f"docs/rules/trace.md has no section naming {source}"
    problems = trace_problems(_read(RULES / "source" / source), sections[source])
    assert not problems, f"docs/rules/trace.md, {source}:\n" + "\n".join(problems)


def test_the_trace_names_every_rule_id_and_no_other() -> None:
    defined = {line.rule for lines in _defined().values() for line in lines}
    traced = {rule for rows in trace_sections(_read(TRACE)).values() for row in rows for rule in row.rules}
    assert not traced - defined, f"the trace names ids no rules page has: {sorted(traced - defined, key=_order)}"
    assert not defined - traced, f"rule ids the trace never reaches: {sorted(defined - traced, key=_order)}"


def test_every_rule_id_is_named_by_a_test_and_every_mark_by_a_rule() -> None:
    defined = {line.rule for lines in _defined().values() for line in lines}
    marked, problems = marked_rules(_test_files())
    problems += coverage_problems(defined, marked)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------- the checks can fail


SOURCE = "Heading\n\nOne sentence here. Two sentences here!\n1. A numbered item. Then more.\nName\tPower\nAnn\tX\n"
PAGE = """## 1. Setup

- **T1.1** Restated. *“One sentence here.”*
- **T1.2** Misquoted. *“Three sentences”*
- **T2.1** Wrong section. *“Two sentences”*
- **T1.1** Given twice. *“Then more.”*
- **T1.3** No quote at all.
- **BK1** Another ruleset's id. *“A numbered item.”*
"""


def test_sentences_split_after_stops_but_not_after_list_numbers() -> None:
    text, spans = sentences(SOURCE)
    assert [text[a:b] for a, b in spans] == [
        "Heading",
        "One sentence here.",
        "Two sentences here!",
        "1. A numbered item.",
        "Then more.",
        "Name Power",
        "Ann X",
    ]


def test_a_page_with_bad_rule_lines_fails() -> None:
    assert page_problems("traitors.md", PAGE, SOURCE) == [
        "T1.2: not in the rule text: “Three sentences”",
        "T2.1: under the section '1. Setup'",
        "T1.1: given twice",
        "T1.3: quotes nothing of the rule text",
        "BK1: not an id of traitors.md (T…)",
        "BK1: under the section '1. Setup'",
    ]
    assert [line.rule for line in rule_lines(PAGE)] == ["T1.1", "T1.2", "T2.1", "T1.1", "T1.3", "BK1"]


def test_a_trace_missing_a_sentence_or_out_of_order_fails() -> None:
    trace = """## The text (traitors-rulebook.txt)

| Sentence | Rules | Note |
|---|---|---|
| “Heading” | — | a heading |
| “One sentence” | T1.1 | |
| “A numbered item. … Name” | T1.2, T2.1 | |
| “Two sentences” | T1.1 | |
| Name | — | |
| “Ann X” | — | |
"""
    rows = trace_sections(trace)["traitors-rulebook.txt"]
    assert rows[2].rules == ("T1.2", "T2.1")
    assert trace_problems(SOURCE, rows) == [
        "not in the text (after the row before): “Two sentences”",
        "not a quote: Name",
        "no rule and no reason: “Ann X”",
        "not traced: “Two sentences here!”",
    ]
    whole = rows[:1] + [TraceRow("“One sentence … Ann X”", ("T1.1",), "")]
    assert trace_problems(SOURCE, whole) == []


def test_a_rule_without_a_test_and_a_mark_without_a_rule_fail() -> None:
    tests = {
        "tests/a.py": "import pytest\n\n@pytest.mark.rule('T1.1', 'T9.9')\ndef test_a():\n    pass\n",
        "tests/b.py": "from pytest import mark\npytestmark = mark.rule('BK2')\n\n@mark.rule(RULE)\ndef test_b():\n    pass\n",
        "tests/c.py": "import pytest\n\n@pytest.mark.parametrize('x', [pytest.param(1, marks=pytest.mark.rule('MY3'))])\n"
        "def test_c(x):\n    pass\n",
    }
    marked, problems = marked_rules(tests)
    assert marked == {
        "T1.1": ["tests/a.py:3"],
        "T9.9": ["tests/a.py:3"],
        "BK2": ["tests/b.py:2"],
        "MY3": ["tests/c.py:3"],
    }
    assert problems == ["tests/b.py:4: not a rule id: RULE"]
    assert coverage_problems({"T1.1", "T1.2", "T1.10", "BK2", "MY3", "MY4"}, marked) == [
        "MY4: no test names it",
        "T1.2: no test names it",
        "T1.10: no test names it",
        "T9.9: named by tests/a.py:3 but no rules page has it",
    ]
    assert coverage_problems({"T1.1", "T9.9", "BK2", "MY3"}, marked) == []
