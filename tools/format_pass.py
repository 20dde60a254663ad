"""The formatting pass: drop every ``# fmt: skip`` / ``# fmt: off`` / ``# fmt: on`` marker, then ``ruff format``.

Run from anywhere: ``python tools/format_pass.py`` works on the checkout that holds this file. The pass is
idempotent: a second run finds no marker and ``ruff format`` changes nothing. Afterwards ``ruff format --check``
over the same directories (``FORMATTED``) passes, which is what CI checks.

Markers are found with ``tokenize``, so a ``# fmt: skip`` inside a string literal is left alone. A trailing
marker is cut from its line (with the spaces before it); a marker alone on its line removes the line. Any
other comment sharing a trailing marker's line (``# noqa: …  # fmt: skip``) stays.

Exit status: 0 when the pass ran, 1 when ``ruff`` is missing or fails, 2 when a file cannot be tokenized (it is
named on one line; no file is changed before every file has been read).
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

__all__ = ["FORMATTED", "ROOT", "main", "python_files", "strip_markers"]

ROOT = Path(__file__).resolve().parent.parent
# The directories whose Python the pass formats (and CI's ``ruff format --check`` checks).
FORMATTED = ("engine", "bridge", "tests", "bench", "tools", "datapack", "world_config")
# Directories never formatted: third-party code (npm packages) and tool caches.
_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})
# A marker is one ``#`` segment of a comment: alone, or before or after another comment on the same line.
_MARKER = re.compile(r"\s*#\s*fmt:\s*(?:skip|off|on)(?=\s*(?:#|$))\s*")


def python_files(root: Path = ROOT) -> list[Path]:
    """The ``.py`` files under ``root``'s ``FORMATTED`` directories, sorted; none under a dot-directory,
    ``node_modules`` or ``__pycache__``."""
    found: list[Path] = []
    for top in FORMATTED:
        for path in (root / top).rglob("*.py"):
            parts = path.relative_to(root).parts[:-1]
            if not any(p.startswith(".") or p in _SKIPPED_DIRS for p in parts):
                found.append(path)
    return sorted(found)


def strip_markers(source: str) -> str:
    """``source`` (Python text) without its formatter markers; the same text when it has none.

    Raises ``tokenize.TokenError`` or ``SyntaxError`` (``IndentationError``) when ``source`` is not Python.
    """
    comments = {
        tok.start: tok.string
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT and _MARKER.search(tok.string)
    }
    if not comments:
        return source
    lines = source.splitlines(keepends=True)
    for (number, column), comment in comments.items():
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        code = body[:column].rstrip()
        rest = _MARKER.sub("  ", comment).strip()
        if not code and not rest:
            lines[number - 1] = ""  # a marker alone on its line
        elif not code:
            lines[number - 1] = body[:column] + rest + line[len(body) :]
        else:
            lines[number - 1] = code + (f"  {rest}" if rest else "") + line[len(body) :]
    return "".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Strip the markers in every ``python_files()`` file, then run ``ruff format`` over ``FORMATTED``.

    ``argv`` is unused (the pass takes no options); it is accepted so the function can serve as an entry point.
    Prints how many files lost markers; ruff prints what it reformatted. Returns the exit status (module doc).
    """
    del argv
    ruff = shutil.which("ruff")
    if ruff is None:
        print("format_pass: ruff not found on PATH (pip install -e '.[lint]')", file=sys.stderr)
        return 1
    changed: dict[Path, str] = {}
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        try:
            stripped = strip_markers(text)
        except (tokenize.TokenError, SyntaxError) as exc:
            print(f"format_pass: cannot read {path.relative_to(ROOT)}: {exc}", file=sys.stderr)
            return 2
        if stripped != text:
            changed[path] = stripped
    for path, text in changed.items():
        path.write_text(text, encoding="utf-8")
    print(f"format_pass: removed formatter markers from {len(changed)} files")
    done = subprocess.run([ruff, "format", *FORMATTED], cwd=ROOT, check=False)
    return 0 if done.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
