"""The sandbox's view of a data pack: its functions (parsed with mecha), function tags, dialogs and advancements.

The sandbox runs the project's real datapack (``datapack/``) instead of simulating it: :class:`Datapack` loads
the files, and :class:`bridge.sandbox.world.World` interprets the functions for the command subset they use
(``scoreboard``, ``execute as/if/unless/store/run``, ``data get/modify/remove`` on storage (and ``from entity
@s UUID``), ``function`` (macros with ``$`` lines, ``{…}`` arguments and ``with storage``), ``tag``, ``dialog
show/clear``, ``advancement revoke``, ``return``). A command outside that subset is a sandbox error
(``World.errors``), never silently skipped.

Layout read (singular folder names, as from 1.21): ``data/<ns>/function/**/*.mcfunction``,
``data/<ns>/tags/function/*.json``, ``data/<ns>/dialog/**/*.json``, ``data/<ns>/advancement/**/*.json``.

The pack is read as a given release reads it (``version``, default the oldest supported one): the overlays of
``pack.mcmeta`` whose format range contains the release's data format replace the base files, a pack whose range
leaves the release out gets vanilla's warning and still loads, and an advancement in a form the release refuses is
not loaded, with an error naming its file (``bridge.sandbox.packmeta``). Functions are parsed with mecha's 1.21
grammar on every version: the command syntax the project uses did not change up to 26.3 (docs/minecraft.md).

A function's lines depend only on its text (one grammar for every release), and mecha's trees are frozen, so a
text parsed once in a process is not parsed again (``_parsed_lines``): every release's read of the project's
pack, and every copy of a pack, shares the lines of the files they have in common.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from mecha import DiagnosticError
from mecha import ast as mast

from bridge.minecraft.datapack import written_pack
from bridge.minecraft.syntax import thread_mecha
from bridge.minecraft.versions import OLDEST, McVersion
from bridge.sandbox.packmeta import advancement_errors, applied_overlays, compatibility_warning

__all__ = ["Datapack", "DatapackError", "Function", "Line", "effective_files", "project_pack"]


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


def _rid(namespace: str, rel: PurePosixPath, suffix: str) -> str:
    return f"{namespace}:{rel.as_posix()[: -len(suffix)]}"


class Datapack:
    """The parsed contents of one data pack directory, as one release reads it.

    Attributes:
        root: the pack's directory (the one holding ``pack.mcmeta``).
        version: the release the pack was read as.
        overlays: the overlay folders applied, in order (a later one wins).
        functions: function id (``traitors:tick``) → :class:`Function`.
        function_tags: tag id (``minecraft:tick``) → function ids (nested tags resolved).
        dialogs: dialog id → the dialog as plain JSON data.
        advancements: advancement id → JSON data (only those ``version`` accepts).
        warnings: what the server would warn about at load (the pack's format range leaves ``version`` out).
        errors: what the server would log as errors at load: one line per advancement it refuses, naming the file.
    """

    def __init__(self, root: Path, version: McVersion = OLDEST) -> None:
        self.root = root
        self.version = version
        self.overlays: list[str] = []
        self.functions: dict[str, Function] = {}
        self.function_tags: dict[str, list[str]] = {}
        self.dialogs: dict[str, Any] = {}
        self.advancements: dict[str, Any] = {}
        self.warnings: list[str] = []
        self.errors: list[str] = []

    @classmethod
    def load(cls, root: str | Path, version: McVersion = OLDEST) -> Datapack:
        """Read and parse a data pack as ``version`` reads it (its overlays applied, its advancements checked).

        Args:
            root: the pack directory.
            version: the release (``bridge.minecraft.versions``); the default, the oldest supported release, is
                what the sandbox ran before it had versions.

        Raises:
            DatapackError: no ``pack.mcmeta``, a ``pack.mcmeta`` without a valid format range, unreadable JSON, or
                a function line mecha rejects (the message names the file and line).
        """
        pack = cls(Path(root), version)
        meta_path = pack.root / "pack.mcmeta"
        if not meta_path.is_file():
            raise DatapackError(f"{pack.root}: no pack.mcmeta")
        meta = _read_json(meta_path)
        try:
            warning = compatibility_warning(meta, version)
        except (ValueError, AttributeError, TypeError) as exc:
            raise DatapackError(f"{meta_path}: {exc}") from None
        pack.warnings += [f"{meta_path}: {warning}"] if warning else []
        pack.overlays = applied_overlays(meta, version)
        pack._read(effective_files(pack.root, pack.overlays))
        return pack

    def _read(self, files: dict[PurePosixPath, Path]) -> None:
        """Parse the pack's files (path under ``data/`` → the file that supplies it)."""
        raw_tags: dict[str, list[str]] = {}
        for rel, path in files.items():
            ns, kind, rest = rel.parts[0], rel.parts[1] if len(rel.parts) > 2 else "", PurePosixPath(*rel.parts[2:])
            if kind == "function" and rel.suffix == ".mcfunction":
                fid = _rid(ns, rest, ".mcfunction")
                self.functions[fid] = _parse_function(fid, path)
            elif kind == "dialog" and rel.suffix == ".json":
                self.dialogs[_rid(ns, rest, ".json")] = _read_json(path)
            elif kind == "advancement" and rel.suffix == ".json":
                self._add_advancement(_rid(ns, rest, ".json"), path)
            elif kind == "tags" and rest.parts[:1] == ("function",) and rel.suffix == ".json":
                values = _read_json(path).get("values", [])
                tid = _rid(ns, PurePosixPath(*rest.parts[1:]), ".json")
                raw_tags[tid] = [v if isinstance(v, str) else str(v.get("id")) for v in values]
        for tid in raw_tags:
            self.function_tags[tid] = _flatten(tid, raw_tags, set())

    def _add_advancement(self, aid: str, path: Path) -> None:
        """Keep the advancement when this version accepts its form; else log the error vanilla logs."""
        data = _read_json(path)
        problems = advancement_errors(data, self.version)
        if not problems:
            self.advancements[aid] = data
            return
        shown = path.relative_to(self.root).as_posix()
        self.errors += [f"Couldn't parse data file '{aid}' from '{shown}' ({self.version.name}): {p}" for p in problems]

    def tag(self, tag_id: str) -> list[str]:
        """Function ids of a function tag (``[]`` when the tag does not exist)."""
        return list(self.function_tags.get(tag_id, []))


def effective_files(root: Path, overlays: list[str]) -> dict[PurePosixPath, Path]:
    """Every file under ``data/`` as the server sees it: path under ``data/`` → the file that supplies it (the
    base pack's, replaced by each applied overlay's in turn), sorted by path."""
    files: dict[PurePosixPath, Path] = {}
    for folder in (root, *(root / o for o in overlays)):
        data = folder / "data"
        for path in sorted(data.rglob("*")) if data.is_dir() else []:
            if path.is_file():
                files[PurePosixPath(path.relative_to(data).as_posix())] = path
    return dict(sorted(files.items()))


@functools.cache
def project_pack(version: McVersion = OLDEST) -> Datapack:
    """The project's data pack as ``install-datapack`` writes it, read as ``version`` reads it; parsed once per
    process and version (a world never changes a pack, so worlds may share it).

    Raises:
        DatapackError: as :meth:`Datapack.load`.
    """
    with written_pack() as built:
        return Datapack.load(built, version)


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


def _parse_function(fid: str, path: Path) -> Function:
    source = path.read_text(encoding="utf-8")
    try:
        lines = _parsed_lines(source)
    except DiagnosticError as exc:
        first = exc.diagnostics.exceptions[0] if exc.diagnostics.exceptions else exc
        loc = getattr(first, "location", None)
        where = f":{loc.lineno}" if loc is not None else ""
        raise DatapackError(f"{path}{where}: {first}") from None
    except _MacroPartError as exc:
        raise DatapackError(f"{path}:{exc}") from None
    return Function(fid, path, source, list(lines))


class _MacroPartError(ValueError):
    """A macro line holds a part other than text and variables (the message: ``<line>: <what>``)."""


@functools.lru_cache(maxsize=1024)
def _parsed_lines(source: str) -> tuple[Line, ...]:
    """The lines of a function's text (frozen, so shared by every pack that holds the same text); a failure is
    not remembered.

    Raises:
        DiagnosticError: mecha rejects a line.
        _MacroPartError: a macro line has a part the sandbox does not know.
    """
    lines: list[Line] = []
    for node in thread_mecha().parse(source).commands:
        lineno = node.location.lineno
        if isinstance(node, mast.AstMacroLine):
            parts: list[tuple[bool, str]] = []
            for arg in node.arguments:
                if isinstance(arg, mast.AstMacroLineVariable):
                    parts.append((True, str(arg.value)))
                elif isinstance(arg, mast.AstMacroLineText):
                    parts.append((False, str(arg.value)))
                else:
                    raise _MacroPartError(f"{lineno}: unexpected macro line part {type(arg).__name__}")
            lines.append(Line(lineno, None, tuple(parts)))
        else:
            lines.append(Line(lineno, node))
    return tuple(lines)
