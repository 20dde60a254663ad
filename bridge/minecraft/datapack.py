"""The shipped data pack: where it is, and ``traitors install-datapack`` (docs/datapack.md).

The pack lives in the ``datapack`` folder of the distribution (package data, so an installed ``traitors`` finds
it too). Installing copies it into ``<world>/datapacks/castle-traitors/`` (or writes
``castle-traitors.zip``), leaving out the resource pack (``resourcepack/``, which goes to players, not the
world) and Python files. Installing again replaces the previous copy, so it is idempotent.
"""

from __future__ import annotations

import importlib.resources
import shutil
import zipfile
from pathlib import Path

from engine.errors import ConfigError

__all__ = ["PACK_NAME", "install", "pack_files", "pack_root", "resourcepack_root", "write_resourcepack_zip"]

PACK_NAME = "castle-traitors"
"""The folder (or zip) name of the installed pack under ``<world>/datapacks/``."""


def pack_root() -> Path:
    """The directory of the shipped data pack (it holds ``pack.mcmeta``)."""
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


def pack_files() -> list[Path]:
    """The data pack's files, relative to ``pack_root()`` (``pack.mcmeta`` and ``data/…``)."""
    return _files(pack_root(), {"resourcepack"})


def install(world: str | Path, *, as_zip: bool = False) -> Path:
    """Copy the data pack into a world's ``datapacks`` folder (replacing an earlier copy).

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
    src = pack_root()
    if as_zip:
        if folder.exists():
            shutil.rmtree(folder)
        tmp = archive.with_suffix(".zip.tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
            for rel in pack_files():
                zf.write(src / rel, rel.as_posix())
        tmp.replace(archive)
        return archive
    if archive.exists():
        archive.unlink()
    tmp_dir = target_dir / (PACK_NAME + ".tmp")
    if tmp_dir.exists():
        shutil.rmtree(tmp_dir)
    for rel in pack_files():
        (tmp_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src / rel, tmp_dir / rel)
    if folder.exists():
        shutil.rmtree(folder)
    tmp_dir.replace(folder)
    return folder


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
