"""The sandbox's view of a data pack: its functions (parsed with mecha), function tags, dialogs and advancements.

The sandbox runs the project's real datapack (``datapack/``) instead of simulating it: :class:`Datapack` loads
the files, and :class:`bridge.sandbox.world.World` interprets the functions for the command subset they use
(``scoreboard``, ``execute as/if/unless/store/run``, ``data get/modify/remove`` on storage (and ``from entity
@s UUID``), ``function`` (macros with ``$`` lines, ``{…}`` arguments and ``with storage``), ``tag``, ``dialog
show/clear``, ``advancement revoke``, ``return``). A command outside that subset is a sandbox error
(``World.errors``), never silently skipped.

Layout read (pack format 94.1 = 1.21.11, singular folder names): ``data/<ns>/function/**/*.mcfunction``,
``data/<ns>/tags/function/*.json``, ``data/<ns>/dialog/**/*.json``, ``data/<ns>/advancement/**/*.json``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mecha import DiagnosticCollection, DiagnosticError, Mecha
from mecha import ast as mast

__all__ = ["Datapack", "DatapackError", "Function", "Line"]


class DatapackError(ValueError):
    """A datapack file cannot be read; the message names the file (and line)."""


@dataclass(frozen=True, slots=True)
class Line:
    """One command line of a function.

    Attributes:
        lineno: 1-based line number in the file.
        node: the parsed command (``None`` for a macro line).
        template: for a macro line, its parts: ``(False, text)`` or ``(True, variable name)``.
    """

    lineno: int
    node: mast.AstCommand | None
    template: tuple[tuple[bool, str], ...] = ()

    @property
    def is_macro(self) -> bool:
        return self.node is None

    def variables(self) -> list[str]:
        """The macro variables this line uses, in order."""
        return [value for is_var, value in self.template if is_var]

    def substitute(self, args: dict[str, str]) -> str:
        """The command text with every ``$(name)`` replaced by ``args[name]`` (already turned into text)."""
        return "".join(args[value] if is_var else value for is_var, value in self.template)


@dataclass(slots=True)
class Function:
    """One ``.mcfunction`` file: its id, source text (node positions index into it) and lines."""

    id: str
    path: Path
    source: str
    lines: list[Line] = field(default_factory=list)

    @property
    def is_macro(self) -> bool:
        return any(line.is_macro for line in self.lines)


def _rid(namespace: str, rel: Path, suffix: str) -> str:
    return f"{namespace}:{rel.as_posix()[: -len(suffix)]}"


class Datapack:
    """The parsed contents of one data pack directory.

    Attributes:
        root: the pack's directory (the one holding ``pack.mcmeta``).
        functions: function id (``traitors:tick``) → :class:`Function`.
        function_tags: tag id (``minecraft:tick``) → function ids (nested tags resolved).
        dialogs: dialog id → the dialog as plain JSON data.
        advancements: advancement id → JSON data.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.functions: dict[str, Function] = {}
        self.function_tags: dict[str, list[str]] = {}
        self.dialogs: dict[str, Any] = {}
        self.advancements: dict[str, Any] = {}

    @classmethod
    def load(cls, root: str | Path) -> Datapack:
        """Read and parse a data pack.

        Args:
            root: the pack directory.

        Raises:
            DatapackError: no ``pack.mcmeta``, unreadable JSON, or a function line mecha rejects (the message
                names the file and line).
        """
        pack = cls(Path(root))
        if not (pack.root / "pack.mcmeta").is_file():
            raise DatapackError(f"{pack.root}: no pack.mcmeta")
        mc = Mecha(version="1.21")
        data = pack.root / "data"
        raw_tags: dict[str, list[str]] = {}
        for ns_dir in sorted(p for p in data.iterdir() if p.is_dir()) if data.is_dir() else []:
            ns = ns_dir.name
            for path in sorted((ns_dir / "function").rglob("*.mcfunction")):
                fid = _rid(ns, path.relative_to(ns_dir / "function"), ".mcfunction")
                pack.functions[fid] = _parse_function(mc, fid, path)
            for folder, target in (("dialog", pack.dialogs), ("advancement", pack.advancements)):
                for path in sorted((ns_dir / folder).rglob("*.json")):
                    target[_rid(ns, path.relative_to(ns_dir / folder), ".json")] = _read_json(path)
            for path in sorted((ns_dir / "tags" / "function").rglob("*.json")):
                values = _read_json(path).get("values", [])
                tid = _rid(ns, path.relative_to(ns_dir / "tags" / "function"), ".json")
                raw_tags[tid] = [v if isinstance(v, str) else str(v.get("id")) for v in values]
        for tid in raw_tags:
            pack.function_tags[tid] = _flatten(tid, raw_tags, set())
        return pack

    def tag(self, tag_id: str) -> list[str]:
        """Function ids of a function tag (``[]`` when the tag does not exist)."""
        return list(self.function_tags.get(tag_id, []))


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatapackError(f"{path}: {exc}") from None


def _flatten(tid: str, raw: dict[str, list[str]], seen: set[str]) -> list[str]:
    out: list[str] = []
    seen = seen | {tid}
    for v in raw.get(tid, []):
        if v.startswith("#"):
            inner = v[1:]
            if inner not in seen:
                out += _flatten(inner, raw, seen)
        else:
            out.append(v if ":" in v else "minecraft:" + v)
    return out


def _parse_function(mc: Mecha, fid: str, path: Path) -> Function:
    source = path.read_text(encoding="utf-8")
    report = DiagnosticCollection()
    try:
        root = mc.parse(source, resource_location=fid)
    except DiagnosticError as exc:
        first = exc.diagnostics.exceptions[0] if exc.diagnostics.exceptions else exc
        loc = getattr(first, "location", None)
        where = f":{loc.lineno}" if loc is not None else ""
        raise DatapackError(f"{path}{where}: {first}") from None
    del report
    fn = Function(fid, path, source)
    for node in root.commands:
        lineno = node.location.lineno
        if isinstance(node, mast.AstMacroLine):
            parts: list[tuple[bool, str]] = []
            for arg in node.arguments:
                if isinstance(arg, mast.AstMacroLineVariable):
                    parts.append((True, str(arg.value)))
                elif isinstance(arg, mast.AstMacroLineText):
                    parts.append((False, str(arg.value)))
                else:
                    raise DatapackError(f"{path}:{lineno}: unexpected macro line part {type(arg).__name__}")
            fn.lines.append(Line(lineno, None, tuple(parts)))
        else:
            fn.lines.append(Line(lineno, node))
    return fn
