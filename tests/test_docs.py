"""The docs stand alone: nothing in the repository cites files outside it, and every link in the docs resolves.

Someone with only the repository must be able to follow every reference: the docs, comments and command output
cite public sources (the Minecraft wiki, the MSMP schema shipped at ``bridge/sandbox/msmp-schema-2.0.0.json``)
or a page under ``docs/``, never a project-private file beside the checkout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache", "build", "dist"}
"""Directories that are not the project's files (caches and build output); ``.venv*`` is skipped by prefix."""

# The patterns are assembled from pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        (
            r"\.\./" + "shared",  # a path beside the checkout
            r"\b" + "shared" + r"/(?:rules|minecraft|DESIGN|STYLE)",  # the same without ../
            "FAC" + r"TS(?:-26)?(?:\.md)?\s*§",  # a section of the private Minecraft notes
            "STY" + r"LE(?:\.md)?\s*§",  # a section of the private style guide
            "DES" + r"IGN(?:\.md|\s+\")",  # the private design notes
        )
    )
)
"""A citation of a file that is not in the repository."""

TOP_DIRS = ("bench/", "bridge/", "datapack/", "docs/", "engine/", "tests/", "tools/", "world_config/")
"""Top-level folders: a code span starting with one of them names a file of the repository."""


def _project_files() -> list[Path]:
    out = []
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if any(p in SKIP_DIRS or p.startswith(".venv") or p.endswith(".egg-info") for p in rel.parts[:-1]):
            continue
        if path.is_file() and not rel.parts[0].startswith(".venv"):
            out.append(path)
    return out


def _doc_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", page.read_text(encoding="utf-8"), re.M)}


def test_no_file_cites_anything_outside_the_repository() -> None:
    hits = []
    for path in _project_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        for n, line in enumerate(text.splitlines(), start=1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:100]}")
    assert not hits, "citations of files outside the repository:\n" + "\n".join(hits)


def test_the_pattern_finds_each_kind_of_outside_citation() -> None:
    # Each example is split with "+" so this file does not itself cite anything (a formatter joins "a" "b").
    for cited in (
        "see ../" + "shared/x.md",
        "(FAC" + "TS §5)",
        "shared" + "/rules/traitors.md",
        "STY" + "LE §2.3",
        "DES" + 'IGN "data flow"',
    ):
        assert OUTSIDE.search(cited), cited
    for fine in ("docs/minecraft.md", "a shared night-resolution core", "the shared core's kinds"):
        assert not OUTSIDE.search(fine), fine


@pytest.mark.parametrize("page", _doc_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    broken = []
    for m in re.finditer(r"\[[^\]]*\]\(([^)\s]+)\)", text):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / file_part).resolve() if file_part else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading #{anchor}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", _doc_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_repository_path_named_in_the_docs_exists(page: Path) -> None:
    """A code span such as `bridge/loop/recovery.py` names a file or folder that is there (globs and placeholders
    such as `tests/scenarios/*.toml` or `test_<ruleset>.py` are skipped)."""
    missing = []
    for m in re.finditer(r"`([^`\s]+)`", page.read_text(encoding="utf-8")):
        path = m.group(1).rstrip(".,:;")
        if not path.startswith(TOP_DIRS) or re.search(r"[*<>{}…]|\.\.\.", path):
            continue
        if not (ROOT / path.split("::")[0]).exists():
            missing.append(path)
    assert not missing, f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_each_ruleset_has_a_rules_page_linked_from_the_readme_and_the_docs() -> None:
    from engine.rulesets import RULESETS

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rulesets_page = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for ruleset in RULESETS.values():
        page = f"docs/rules/{ruleset.rulebook}"
        assert (ROOT / page).is_file(), f"{ruleset.name}: no {page}"
        assert f"]({page})" in readme, f"README.md does not link {page}"
        assert f"](rules/{ruleset.rulebook})" in rulesets_page, f"docs/rulesets.md does not link {page}"


def _readme_commands() -> list[list[str]]:
    """Every ``traitors …`` command line in the README's shell blocks, as arguments (comments dropped)."""
    import shlex

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0].endswith("traitors"):
                    out.append(words[1:])
    return out


def test_the_readme_shows_the_two_process_demo_with_commands_that_parse() -> None:
    from bridge.app.cli import _parser

    commands = _readme_commands()
    assert {c[0] for c in commands} >= {"demo", "sandbox", "serve-demo"}, commands
    parser = _parser()
    for args in commands:
        parser.parse_args(args)  # argparse exits (SystemExit) on a command the CLI does not take
    sandbox = next(c for c in commands if c[0] == "sandbox")
    serve = next(c for c in commands if c[0] == "serve-demo")
    port = sandbox[sandbox.index("--port") + 1]
    assert serve[serve.index("--port") + 1] == port, "serve-demo must connect to the sandbox's port"


def test_house_rules_rows_sit_under_their_ruleset() -> None:
    """docs/house-rules.md: the club table holds only club rows (Both, BK, M&Y); every Traitors row (rulebook
    sections, host console, record, recovery) sits in the Traitors part, before the club heading."""
    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    traitors, club = text.split("## House rules of the club rulesets", 1)
    rows = [line.split("|")[1].strip() for line in club.splitlines() if line.startswith("| ")]
    club_rows = [r for r in rows if r not in ("Where", "---")]
    assert club_rows and all(r.startswith(("Both:", "BK:", "M&Y:")) for r in club_rows), club_rows
    assert '| BK: repeat vote ("win the players over") |' in club and "| M&Y: the morning |" in club
    for row in ("§8 Twist days", "§10 Drinks", "§3 Host: pause", "Host: replace", "Host: undo", "Record"):
        assert f"| {row} |" in traitors, row
