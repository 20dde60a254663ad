"""The input queue: the data pack's list of trigger presses in storage ``traitors:io`` (``docs/datapack.md``).

House rules of this file (``bridge/loop/service.py`` house rule 2):

1. The service reads the whole queue over RCON, takes every entry with a sequence number above the last one
   taken, then acks it by removing exactly that entry (``data remove … queue[{seq:N}]``). An entry seen again
   (ack lost, service restarted) is acked again, never taken twice.
2. With a store, an entry whose ``seq`` was taken with different content is new: the server's storage was rolled
   back (a crash before its save) and reused the number for a new click, which must not be lost.
3. When the queue's reply is unreadable (an entry written by hand), the entries are read one by one from the
   head and the unreadable one is removed, so it never blocks the inputs behind it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bridge.io.rcon import RconClient
from bridge.minecraft import snbt
from bridge.minecraft.storage import queue_ack, queue_drop_head, queue_get, queue_head

__all__ = ["QUEUE_PREFIX", "InputQueue", "parse_queue", "source_of"]

log = logging.getLogger(__name__)

QUEUE_PREFIX = "Storage traitors:io has the following contents: "
"""Vanilla's reply to ``data get storage`` (en_us ``commands.data.storage.query``;
``docs/minecraft.md#player-input``)."""


def parse_queue(reply: str) -> list[dict[str, Any]]:
    """The input entries in a ``data get storage traitors:io queue`` (or ``queue[0]``) reply.

    Args:
        reply: the RCON reply text.

    Returns:
        Entries as plain dicts (``{"seq": int, "uuid": [int×4], "input": str, "value": int}``), in queue order;
        ``[]`` when the queue is empty or absent ("Found no elements matching queue"). An entry that is not
        a compound, or lacks an integer ``seq``, is dropped (it cannot be acked by sequence number).

    Raises:
        snbt.SnbtError: the reply's SNBT is unreadable (``InputQueue.read`` then takes the entries one by one,
            house rule 3).
    """
    if not reply.startswith(QUEUE_PREFIX):
        return []
    tag = snbt.parse(reply[len(QUEUE_PREFIX) :])
    entries = tag if isinstance(tag, list) else [tag]
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("seq"), int)]


def source_of(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a queue entry that identifies the click: ``{"uuid", "player", "input", "value"}`` (those
    present). The store keeps it with the input, to recognise a reused ``seq`` (house rule 2)."""
    return {k: entry.get(k) for k in ("uuid", "player", "input", "value") if k in entry}


class InputQueue:
    """The queue over RCON: read it, tell new entries from taken ones, ack them.

    Args:
        rcon: the RCON client.
        last_seq: the highest ``seq`` already taken (from the store, or given for a series rebuilt without one).
        sources: ``seq`` → ``source_of`` the entry taken with it (``StoredSeries.sources``), or ``None`` without a
            store (then only ``last_seq`` decides, house rule 2).
    """

    def __init__(self, rcon: RconClient, last_seq: int, sources: Mapping[int, Any] | None) -> None:
        self.rcon = rcon
        self.last_seq = last_seq
        """The highest queue sequence number taken (stored with each input when there is a store)."""
        self._sources = sources

    async def read_reply(self) -> str:
        """The raw reply to ``data get storage traitors:io queue``.

        Raises:
            RconUnavailable: the server cannot be reached.
        """
        return await self.rcon.command(queue_get().text)

    async def entries(self, reply: str) -> list[dict[str, Any]]:
        """The entries of a ``read_reply`` in ``seq`` order; when it is unreadable, the head alone (house rule 3).

        Raises:
            RconUnavailable: the server cannot be reached (reading the head).
        """
        try:
            entries = parse_queue(reply)
        except snbt.SnbtError:
            entries = await self._head()
        return sorted(entries, key=lambda e: int(e["seq"]))

    async def _head(self) -> list[dict[str, Any]]:
        """The oldest queue entry alone, when the whole queue's reply was unreadable (house rule 3).

        The data pack writes only readable entries; an unreadable one was put there by hand (``data modify``).
        Reading the head alone lets the entries before it through, one per poll; once the unreadable entry (or
        one without a ``seq``, which cannot be acked) is the head, it is removed with a warning.

        Returns:
            ``[entry]``, or ``[]`` (the queue is empty, or its head was removed).
        """
        reply = await self.rcon.command(queue_head().text)
        if not reply.startswith(QUEUE_PREFIX):
            return []
        try:
            head = parse_queue(reply)
        except snbt.SnbtError:
            head = []
        if not head:
            log.warning("removing an unreadable input queue entry (%d characters)", len(reply) - len(QUEUE_PREFIX))
            await self.rcon.command(queue_drop_head().text)
        return head

    def is_new(self, seq: int, entry: Mapping[str, Any]) -> bool:
        """Whether a queue entry has not been taken yet (house rules 1 and 2)."""
        if seq > self.last_seq:
            return True
        if self._sources is None:
            return False
        seen = self._sources.get(seq)
        if seen is None or seen == source_of(entry):
            return False
        log.warning("queue entry %d reused by the server (storage rolled back?); taking it as new", seq)
        return True

    def taken(self, seq: int | None) -> None:
        """Note ``seq`` taken (in the same step as its input is applied and stored: no await in between)."""
        if seq is not None:
            self.last_seq = max(self.last_seq, seq)

    async def ack(self, seq: int) -> None:
        """Remove the entry ``seq`` from the queue (house rule 1).

        Raises:
            RconUnavailable: the server cannot be reached (the entry is seen, and acked, again).
        """
        await self.rcon.command(queue_ack(seq).text)
