"""Who is who: player UUIDs → names (``docs/design.md#data-flow``).

The datapack can read a player's ``UUID`` into storage as an int array (``[I;a,b,c,d]``) but cannot read a
name, so every input queue entry carries the UUID and the bridge looks the name up here. The directory is fed
from the server's player list: MSMP ``minecraft:players`` (``[{id, name}]``, ``docs/minecraft.md#msmp``) or, without
MSMP, RCON ``list uuids`` (en_us ``commands.list.players`` with ``commands.list.nameAndId`` = ``"%s (%s)"``).

It only grows while the service runs: a player who has left may still have an input in the queue.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["PlayerDirectory", "uuid_from_ints", "ints_from_uuid"]

_LIST_PREFIX = re.compile(r"There are \d+ of a max of \d+ players online: ?")
_NAME_AND_ID = re.compile(r"([A-Za-z0-9_]{1,16}) \(([0-9a-fA-F-]{36})\)")
_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,16}")


def uuid_from_ints(ints: Sequence[int]) -> str:
    """A UUID from vanilla's int-array form (four signed 32-bit ints, most significant first).

    Args:
        ints: e.g. ``[-1071843264, 1165184211, -1574436372, 1311016150]`` (nbtlib ``IntArray`` is fine).

    Returns:
        The hyphenated lower-case UUID.

    Raises:
        ValueError: not four ints.
    """
    values = [int(v) for v in ints]
    if len(values) != 4:
        raise ValueError(f"a UUID int array has 4 ints, not {len(values)}")
    n = 0
    for v in values:
        n = (n << 32) | (v & 0xFFFFFFFF)
    return str(uuid.UUID(int=n))


def ints_from_uuid(text: str) -> tuple[int, int, int, int]:
    """The int-array form of a UUID (the inverse of ``uuid_from_ints``).

    Raises:
        ValueError: not a UUID.
    """
    n = uuid.UUID(text).int
    out = []
    for shift in (96, 64, 32, 0):
        v = (n >> shift) & 0xFFFFFFFF
        out.append(v - (1 << 32) if v >= 1 << 31 else v)
    return (out[0], out[1], out[2], out[3])


class PlayerDirectory:
    """UUID → player name, fed from the server's player list.

    Args:
        players: initial entries, as MSMP ``minecraft:players`` returns them: ``[{"id": uuid, "name": name}]``.
    """

    def __init__(self, players: Iterable[Mapping[str, Any]] = ()) -> None:
        self._names: dict[str, str] = {}
        self.update(players)

    def __len__(self) -> int:
        return len(self._names)

    def update(self, players: Iterable[Mapping[str, Any]]) -> int:
        """Add or refresh entries ``{"id": uuid, "name": name}``; malformed entries are skipped.

        Returns:
            How many entries were taken.
        """
        taken = 0
        for p in players:
            try:
                key = str(uuid.UUID(str(p["id"])))
                name = str(p["name"])
            except (KeyError, TypeError, ValueError):
                continue
            if _NAME_RE.fullmatch(name):
                self._names[key] = name
                taken += 1
        return taken

    def update_from_list_reply(self, reply: str) -> int:
        """Take the players of a vanilla ``list uuids`` reply (``"There are 2 of a max of 20 players online:
        Alex (…), Kai (…)"``).

        Returns:
            How many entries were taken (0 for an unrelated reply).
        """
        m = _LIST_PREFIX.match(reply)
        if m is None:
            return 0
        found = [{"id": u, "name": n} for n, u in _NAME_AND_ID.findall(reply[m.end() :])]
        return self.update(found)

    def names(self) -> set[str]:
        """Every name in the directory."""
        return set(self._names.values())

    def name_for(self, player_uuid: str | Sequence[int]) -> str | None:
        """The name of the player with this UUID (hyphenated text or the int-array form), or ``None``."""
        try:
            key = uuid_from_ints(player_uuid) if not isinstance(player_uuid, str) else str(uuid.UUID(player_uuid))
        except (TypeError, ValueError):
            return None
        return self._names.get(key)
