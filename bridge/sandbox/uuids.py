"""Player UUIDs in the sandbox: vanilla's offline-mode UUIDs (stable per name).

An offline-mode server gives a player the name-based (version 3, MD5) UUID of ``"OfflinePlayer:<name>"``
(vanilla ``UUIDUtil.createOfflinePlayerUUID`` = Java ``UUID.nameUUIDFromBytes``, which hashes the bytes with no
namespace). The sandbox's RCON world and its MSMP player list both use this helper, so one sandbox player has
one UUID everywhere.
"""

from __future__ import annotations

import hashlib
import uuid

__all__ = ["offline_uuid"]


def offline_uuid(name: str) -> str:
    """The offline-mode UUID of a player name, hyphenated lower-case (``"xxxxxxxx-xxxx-3xxx-…"``).

    Args:
        name: a player name (case matters, as in vanilla).
    """
    digest = hashlib.md5(("OfflinePlayer:" + name).encode("utf-8")).digest()
    return str(uuid.UUID(bytes=digest, version=3))
