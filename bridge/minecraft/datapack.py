"""The shipped data pack: where it is, the functions made from the bridge's tables, and ``traitors
install-datapack`` (docs/datapack.md).

The hand-written part lives in the ``datapack`` folder of the distribution (package data, so an installed
``traitors`` finds it too). The functions that list every trigger are not kept by hand: they are made from the
trigger table when the pack is written (``generated_files``: ``traitors:input/objectives`` and
``traitors:input/player`` from ``bridge.minecraft.triggers``, ``traitors:setup`` from
``bridge.minecraft.render.setup_function``, ``traitors:item/give/one`` from ``bridge.minecraft.batch``, the host's
console dialog ``traitors:host/console`` from the console's buttons, ``bridge.minecraft.console_dialog``), and
neither is ``pack.mcmeta``: its format range and its overlays
are made from the versions table (``bridge.minecraft.versions``), so a format number is written in one place.

One pack serves every supported release: ``min_format``/``max_format`` span the oldest to the newest, and the
files whose form changed live in overlays (``OVERLAYS``: a folder beside ``data/`` holding the newer form, used by
a server whose data format is at least the overlay's first; the later overlay wins where both apply, as vanilla
orders ``overlays.entries``). An overlay has no upper bound: a release newer than the newest supported one keeps
the newest forms, and vanilla only warns that the pack was made for an older version. Installing writes the whole pack into
``<world>/datapacks/castle-traitors/`` (or ``castle-traitors.zip``), leaving out the resource pack
(``resourcepack/``, which goes to players, not the world) and Python files. Installing again replaces the previous
copy, so it is idempotent. The sandbox runs the same written pack (``written_pack``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.resources
import json
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bridge.minecraft.batch import GIVE_ONE_FILE, give_one_function
from bridge.minecraft.console_dialog import CONSOLE_DIALOG_FILE, console_dialog_text
from bridge.minecraft.render import SETUP_FUNCTION_FILE, setup_function
from bridge.minecraft.trigger_pack import pack_functions
from bridge.minecraft.versions import (
    ENTITY_PREDICATE_MAP_FROM,
    NEWEST,
    OLDEST,
    SINGLE_TRIGGER_CONDITION_FROM,
    PackFormat,
)
from engine.errors import ConfigError

__all__ = [
    "OVERLAYS",
    "OVERLAY_OPEN_MAX",
    "PACK_NAME",
    "Overlay",
    "built_pack_root",
    "generated_files",
    "install",
    "pack_files",
    "pack_mcmeta",
    "pack_root",
    "resourcepack_mcmeta",
    "resourcepack_root",
    "write_pack",
    "write_resourcepack",
    "write_resourcepack_zip",
    "written_pack",
]

PACK_NAME = "castle-traitors"
"""The folder (or zip) name of the installed pack under ``<world>/datapacks/``."""


@dataclass(frozen=True, slots=True)
class Overlay:
    """One overlay of the data pack: the shipped folder ``directory`` (beside ``data/``) holds the files whose form
    changed at data format ``first``; it applies from ``first`` on, without an upper bound."""

    directory: str
    first: PackFormat


OVERLAYS: tuple[Overlay, ...] = (
    Overlay("ov_26_2", ENTITY_PREDICATE_MAP_FROM),  # entity predicates: entity_type, not type
    Overlay("ov_26_3", SINGLE_TRIGGER_CONDITION_FROM),  # one trigger condition, keyed type, not condition
)
"""The data pack's overlays, oldest first (``overlays.entries`` order: a later entry wins where both apply)."""

OVERLAY_OPEN_MAX = 2**31 - 1
"""The ``max_format`` of every overlay: the largest major vanilla reads (``Integer.MAX_VALUE``), i.e. no end."""

PACK_DESCRIPTION = {
    "translate": "traitors.pack.description",
    "fallback": "Castle: The Traitors (input triggers, dialogs, Sacred Sword)",
}
RESOURCES_DESCRIPTION = {
    "translate": "traitors.pack.resources",
    "fallback": "Castle: The Traitors (English, Russian, Ukrainian)",
}


def _format(fmt: PackFormat) -> list[int]:
    return [fmt[0], fmt[1]]


def pack_mcmeta() -> str:
    """The data pack's ``pack.mcmeta``: ``min_format`` the oldest supported release's data format,
    ``max_format`` the newest one's (``bridge.minecraft.versions.SUPPORTED``), no ``supported_formats`` (refused
    from format 82 on), and one ``overlays.entries`` item per :data:`OVERLAYS` entry."""
    entries = [
        {"directory": o.directory, "min_format": _format(o.first), "max_format": OVERLAY_OPEN_MAX} for o in OVERLAYS
    ]
    meta = {
        "pack": {
            "description": PACK_DESCRIPTION,
            "min_format": _format(OLDEST.data_pack),
            "max_format": _format(NEWEST.data_pack),
        },
        "overlays": {"entries": entries},
    }
    return json.dumps(meta, indent=2, ensure_ascii=False) + "\n"


def resourcepack_mcmeta() -> str:
    """The resource pack's ``pack.mcmeta``: the oldest to the newest supported release's resource format (the
    language files have one form in every release, so there is no overlay)."""
    meta = {
        "pack": {
            "description": RESOURCES_DESCRIPTION,
            "min_format": _format(OLDEST.resource_pack),
            "max_format": _format(NEWEST.resource_pack),
        }
    }
    return json.dumps(meta, indent=2, ensure_ascii=False) + "\n"


def pack_root() -> Path:
    """The directory of the shipped, hand-written part of the data pack (``data/`` and the overlay folders; the
    generated files, ``pack.mcmeta`` among them, are not in it: ``built_pack_root`` is the whole pack)."""
    return Path(str(importlib.resources.files("datapack")))


def resourcepack_root() -> Path:
    """The directory of the shipped resource pack (language files)."""
    return pack_root() / "resourcepack"


def _files(root: Path, skip: set[str]) -> list[Path]:
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or rel.parts[0] in skip or path.suffix in (".py", ".pyc") or "__pycache__" in rel.parts:
            continue
        out.append(rel)
    return out


def generated_files() -> dict[Path, str]:
    """The pack's files made from the bridge's tables (the functions, the console dialog and ``pack.mcmeta``): path
    relative to the pack root → text."""
    files = {Path(rel): text for rel, text in pack_functions().items()}
    files[Path(SETUP_FUNCTION_FILE)] = setup_function()
    files[Path(GIVE_ONE_FILE)] = give_one_function()
    files[Path(CONSOLE_DIALOG_FILE)] = console_dialog_text()
    files[Path("pack.mcmeta")] = pack_mcmeta()
    return files


def pack_files() -> list[Path]:
    """Every file of the data pack, relative to its root (``pack.mcmeta``, ``data/…`` and the overlays'
    ``ov_*/data/…``), hand-written and made."""
    return sorted({*_files(pack_root(), {"resourcepack"}), *generated_files()})


def write_pack(target: str | Path) -> Path:
    """Write the whole data pack (the shipped files and the generated functions) into ``target`` (created if
    missing; files already there are overwritten, others left).

    Returns:
        ``target`` as a ``Path``.
    """
    target, src = Path(target), pack_root()
    for rel in _files(src, {"resourcepack"}):
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, target / rel)
    for rel, text in generated_files().items():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        (target / rel).write_bytes(text.encode("utf-8"))
    return target


@contextlib.contextmanager
def written_pack() -> Iterator[Path]:
    """The whole data pack written into a fresh temporary directory, removed when the block ends: what the
    sandbox parses (``bridge/sandbox/server.py``), so it runs exactly what ``install`` writes.

    Yields:
        The pack's root directory (it holds ``pack.mcmeta``).
    """
    with tempfile.TemporaryDirectory(prefix="castle-datapack-") as tmp:
        yield write_pack(tmp)


@functools.cache
def built_pack_root() -> Path:
    """The whole data pack written once per process into a temporary directory (removed at exit), for readers
    that need its files for as long as the process runs (the pack's tests)."""
    root = Path(tempfile.mkdtemp(prefix="castle-datapack-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return write_pack(root)


def install(world: str | Path, *, as_zip: bool = False) -> Path:
    """Write the whole data pack (shipped files and generated functions) into a world's ``datapacks`` folder
    (replacing an earlier copy).

    Args:
        world: the world directory (it holds ``level.dat``; ``datapacks/`` is created if missing).
        as_zip: write ``castle-traitors.zip`` instead of a folder.

    Returns:
        The installed folder or zip.

    Raises:
        ConfigError: ``world`` is not a directory, or it has no ``level.dat`` and no ``datapacks`` folder
            (probably not a world).
    """
    world = Path(world)
    if not world.is_dir():
        raise ConfigError(f"--world {world}: not a directory")
    if not (world / "level.dat").is_file() and not (world / "datapacks").is_dir():
        raise ConfigError(f"--world {world}: no level.dat or datapacks/ here; is this a world folder?")
    target_dir = world / "datapacks"
    target_dir.mkdir(exist_ok=True)
    folder, archive = target_dir / PACK_NAME, target_dir / (PACK_NAME + ".zip")
    if as_zip:
        if folder.exists():
            shutil.rmtree(folder)
        _write_zip(archive)
        return archive
    if archive.exists():
        archive.unlink()
    tmp_dir = target_dir / (PACK_NAME + ".tmp")
    if tmp_dir.exists():
        shutil.rmtree(tmp_dir)
    write_pack(tmp_dir)
    if folder.exists():
        shutil.rmtree(folder)
    tmp_dir.replace(folder)
    return folder


def _write_zip(archive: Path) -> None:
    """Write the whole pack as ``archive`` (through a temporary file, so a reader never sees half a zip)."""
    src = pack_root()
    tmp = archive.with_suffix(".zip.tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel in _files(src, {"resourcepack"}):
            zf.write(src / rel, rel.as_posix())
        for rel, text in generated_files().items():
            zf.writestr(rel.as_posix(), text.encode("utf-8"))
    tmp.replace(archive)


def write_resourcepack_zip(out: str | Path) -> Path:
    """Zip the resource pack (``pack.mcmeta`` + ``assets/traitors/lang/*.json``) for players or ``resource-pack=``.

    Returns:
        The written file.
    """
    out = Path(out)
    root = resourcepack_root()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("pack.mcmeta", resourcepack_mcmeta().encode("utf-8"))
        for rel in _files(root, set()):
            zf.write(root / rel, rel.as_posix())
    return out


def write_resourcepack(target: str | Path) -> Path:
    """Write the resource pack as a folder into ``target`` (created if missing): ``pack.mcmeta`` (made from the
    versions table) and the shipped ``assets/``. What the Spyglass check reads (``tools/spyglass``).

    Returns:
        ``target`` as a ``Path``.
    """
    target, root = Path(target), resourcepack_root()
    target.mkdir(parents=True, exist_ok=True)
    (target / "pack.mcmeta").write_bytes(resourcepack_mcmeta().encode("utf-8"))
    for rel in _files(root, set()):
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, target / rel)
    return target
