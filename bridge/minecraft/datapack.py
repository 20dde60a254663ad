"""The shipped data pack: where it is, the functions made from the bridge's tables, and ``traitors
install-datapack`` (docs/datapack.md).

The hand-written part lives in the ``datapack`` folder of the distribution (package data, so an installed
``traitors`` finds it too). The functions that list every trigger are not kept by hand: they are made from the
trigger table when the pack is written (``generated_files``: ``traitors:input/objectives`` and
``traitors:input/player`` from ``bridge.minecraft.triggers``, ``traitors:setup`` from
``bridge.minecraft.render.setup_function``). Installing writes the whole pack into
``<world>/datapacks/castle-traitors/`` (or ``castle-traitors.zip``), leaving out the resource pack
(``resourcepack/``, which goes to players, not the world) and Python files. Installing again replaces the previous
copy, so it is idempotent. The sandbox runs the same written pack (``written_pack``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.resources
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

from bridge.minecraft.render import SETUP_FUNCTION_FILE, setup_function
from bridge.minecraft.triggers import pack_functions
from engine.errors import ConfigError

__all__ = [
    "PACK_NAME",
    "built_pack_root",
    "generated_files",
    "install",
    "pack_files",
    "pack_root",
    "resourcepack_root",
    "write_pack",
    "write_resourcepack_zip",
    "written_pack",
]

PACK_NAME = "castle-traitors"
"""The folder (or zip) name of the installed pack under ``<world>/datapacks/``."""


def pack_root() -> Path:
    """The directory of the shipped, hand-written part of the data pack (it holds ``pack.mcmeta``; the generated
    functions are not in it: ``built_pack_root`` is the whole pack)."""
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
    """The pack's functions made from the bridge's tables: path relative to the pack root → text."""
    files = {Path(rel): text for rel, text in pack_functions().items()}
    files[Path(SETUP_FUNCTION_FILE)] = setup_function()
    return files


def pack_files() -> list[Path]:
    """Every file of the data pack, relative to its root (``pack.mcmeta`` and ``data/…``), hand-written and made."""
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
        for rel in _files(root, set()):
            zf.write(root / rel, rel.as_posix())
    return out
