"""Command storage and function calls: the input queue the data pack fills (``traitors:io``), the storage the
bridge fills for the pack's UI macros (``traitors:ui``), the sandbox's quiet flag, and ``function`` calls
(``docs/minecraft.md#player-input``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bridge.minecraft.core import McCommand, checked_command, resource_id
from bridge.minecraft.snbt import SnbtValue, snbt

IO_STORAGE = "traitors:io"
"""The storage the datapack appends input entries to (``queue``)."""


def queue_get() -> McCommand:
    """``data get storage traitors:io queue``: read the input queue (reply ends in the SNBT list)."""
    return checked_command(f"data get storage {IO_STORAGE} queue")


def queue_ack(seq: int) -> McCommand:
    """``data remove storage traitors:io queue[{seq:N}]``: acknowledge one input entry by its sequence number.

    Raises:
        ValueError: ``seq`` is not an int.
    """
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise ValueError(f"seq must be an int: {seq!r}")
    return checked_command(f"data remove storage {IO_STORAGE} queue[{{seq:{int(seq)}}}]")


def queue_head() -> McCommand:
    """``data get storage traitors:io queue[0]``: read the oldest input entry alone (reply ends in its compound)."""
    return checked_command(f"data get storage {IO_STORAGE} queue[0]")


def queue_drop_head() -> McCommand:
    """``data remove storage traitors:io queue[0]``: remove the oldest input entry, whatever it holds."""
    return checked_command(f"data remove storage {IO_STORAGE} queue[0]")


UI_STORAGE = "traitors:ui"
"""The storage the bridge fills before calling a data pack UI macro (``traitors:ui/prompt``)."""

QUIET_STORAGE = "traitors:sandbox"
"""The storage the sandbox answers with its bots' state (``bridge/sandbox/quiet.py``): ``{quiet: 1b}`` when quiet.
Not a vanilla storage: a real server has no such storage and the demo's service never asks one."""

_PATH_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _storage_path(storage: str, path: str) -> tuple[str, str]:
    resource_id(storage, "storage")
    if not _PATH_RE.fullmatch(path):
        raise ValueError(f"not a simple NBT path: {path!r}")
    return storage, path


def storage_set(storage: str, path: str, value: SnbtValue) -> McCommand:
    """``data modify storage <storage> <path> set value <snbt>``.

    Raises:
        ValueError: a bad id or path (only ``a.b.c`` keys), or a command over the 1446-byte limit.
    """
    storage, path = _storage_path(storage, path)
    return checked_command(f"data modify storage {storage} {path} set value {snbt(value)}")


def storage_append(storage: str, path: str, value: SnbtValue) -> McCommand:
    """``data modify storage <storage> <path> append value <snbt>`` (the path must be a list).

    Raises:
        ValueError: as ``storage_set``.
    """
    storage, path = _storage_path(storage, path)
    return checked_command(f"data modify storage {storage} {path} append value {snbt(value)}")


def function_with_storage(function: str, storage: str, path: str) -> McCommand:
    """``function <id> with storage <storage> <path>``: call a macro function with arguments from storage."""
    resource_id(function, "function")
    storage, path = _storage_path(storage, path)
    return checked_command(f"function {function} with storage {storage} {path}")


def function_call(function: str, args: Mapping[str, SnbtValue] | None = None) -> McCommand:
    """``function <id>`` or ``function <id> {k:v,…}`` (a macro function with inline arguments)."""
    resource_id(function, "function")
    return checked_command(f"function {function}" + (f" {snbt(args)}" if args is not None else ""))
