"""The command value and the checks every builder shares: ``McCommand``, the 1446-byte RCON limit, player names,
targets, counts and resource ids.

House rules of the builders (``bridge.minecraft.text``, ``display``, ``items``, ``world``, ``scoreboard``,
``storage``; ``docs/design.md#the-bridge``):

1. Every builder returns ``McCommand`` values (or a list of them); nothing in ``bridge/minecraft`` sends anything.
2. Every free text (names, labels, messages, item names) goes through ONE text-component builder
   (``bridge.minecraft.text``) and ONE SNBT serializer (``bridge.minecraft.snbt.snbt``). Nothing is ever
   concatenated into a command without passing through ``snbt`` (strings) or a validator here (names, ids,
   numbers).
3. Player names are validated as ``[A-Za-z0-9_]{3,16}``; the only selector a builder accepts is ``@a``.
4. Every command is measured in UTF-8 bytes against vanilla's 1446-byte RCON limit (``docs/minecraft.md#rcon``).
   ``tellraw`` splits a long text into several commands; every other builder raises ``ValueError``
   (``checked_command``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NewType

MAX_COMMAND_BYTES = 1446
"""Vanilla's largest RCON command payload in UTF-8 bytes (``docs/minecraft.md#rcon``)."""


@dataclass(frozen=True, slots=True)
class McCommand:
    """One complete Minecraft command, no leading slash, at most ``MAX_COMMAND_BYTES`` UTF-8 bytes."""

    text: str

    def __post_init__(self) -> None:
        if self.text.startswith("/"):
            raise ValueError(f"McCommand must not start with '/': {self.text[:60]!r}")
        size = utf8_size(self.text)
        if size > MAX_COMMAND_BYTES:
            raise ValueError(
                f"command is {size} bytes of UTF-8, over the {MAX_COMMAND_BYTES}-byte RCON limit: {self.text[:60]!r}..."
            )


McName = NewType("McName", str)
"""A validated Java Edition player name (``[A-Za-z0-9_]{3,16}``)."""

_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,16}")
_RESOURCE_RE = re.compile(r"[a-z0-9_.-]+:[a-z0-9_./-]+")


def player_name(s: str) -> McName:
    """Validate a player name at the edge.

    Args:
        s: a current Java Edition username.

    Returns:
        The same string, typed as ``McName``.

    Raises:
        ValueError: unless ``s`` matches ``[A-Za-z0-9_]{3,16}``.
    """
    if not isinstance(s, str) or not _NAME_RE.fullmatch(s):
        raise ValueError(f"not a valid Minecraft player name: {s!r}")
    return McName(s)


def targets(t: str) -> str:
    """Validate a command target: ``@a`` (everyone online) or one player name.

    Raises:
        ValueError: anything else (other selectors are never built here).
    """
    if t == "@a":
        return t
    return player_name(t)


def utf8_size(text: str) -> int:
    """The size of ``text`` in UTF-8 bytes (the unit of the 1446-byte RCON limit)."""
    return len(text.encode("utf-8", "surrogatepass"))


def checked_command(text: str) -> McCommand:
    """Wrap a finished command, refusing it when it is over the RCON limit (with a clear message).

    Raises:
        ValueError: ``text`` is over ``MAX_COMMAND_BYTES`` UTF-8 bytes (the message names the command).
    """
    size = utf8_size(text)
    if size > MAX_COMMAND_BYTES:
        head = text.split(" ", 1)[0]
        raise ValueError(
            f"{head} command would be {size} bytes of UTF-8, over the {MAX_COMMAND_BYTES}-byte RCON limit; "
            "it cannot be split"
        )
    return McCommand(text)


def check_count(v: int, what: str, minimum: int = 0) -> int:
    """Validate a whole number argument (an int, not a bool, within ``minimum``..2³¹-1, vanilla's int range).

    Raises:
        ValueError: anything else; the message names ``what``.
    """
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum or v > 2**31 - 1:
        raise ValueError(f"{what} must be an int >= {minimum}: {v!r}")
    return v


def resource_id(value: str, what: str) -> str:
    """Validate a namespaced id (``namespace:path``, lower case: an effect, bossbar, storage or function).

    Raises:
        ValueError: anything else; the message names ``what``.
    """
    if not _RESOURCE_RE.fullmatch(value):
        raise ValueError(f"not a{'n' if what[0] in 'aeiou' else ''} {what} id: {value!r}")
    return value
