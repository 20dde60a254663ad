"""Our own asyncio RCON client for the vanilla Minecraft server (``docs/minecraft.md#rcon``; ``docs/rcon.md``).

House rules of this file:

1. One TCP connection, one command in flight (an ``asyncio.Lock``). Vanilla reads each request with one
   ``read(1460)`` and drops the connection when two packets arrive together, so we never pipeline: the next
   packet goes out only after the previous reply has begun.
2. Every request has its own id (random start, then incrementing) and every reply id is checked.
3. Vanilla splits a reply into 4096-character packets with no end marker. When the first reply packet is
   4096 bytes or more, we send ONE sentinel packet of unknown type 100 and read until the server answers it
   ("Unknown request 64"); everything before that with the command's id is the reply.
4. Commands over 1446 bytes of UTF-8 are refused before anything is sent (vanilla would drop us).
5. Timeouts use asyncio only (no signals, any thread). After a timeout, EOF or reset the connection is
   dropped, because its byte stream can no longer be trusted; the next ``command()`` reconnects with capped
   exponential backoff and logs in again. A command is never re-sent by this module: it might have run.
6. The password is never logged, never in an exception text and never in ``repr``.
7. A client belongs to the event loop that first used it (its lock and socket live there). A coroutine
   awaited from another loop (another thread's ``asyncio.run``) is handed to the owner loop with
   ``run_coroutine_threadsafe``, so one connection serves every thread and task; when the owner loop has
   ended, the next user's loop adopts the client. ``BlockingRcon`` is the synchronous facade for plain threads.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import random
import struct
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import TracebackType
from typing import TypeVar

from bridge.errors import (
    RconAuthError,
    RconCommandFailed,
    RconCommandTooLong,
    RconTimeout,
    RconUnavailable,
)
from bridge.io.reasons import reason

__all__ = [
    "MAX_COMMAND_BYTES",
    "BlockingRcon",
    "RconClient",
    "check_reply",
    "encode_packet",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Largest command payload vanilla accepts: a 1460-byte read minus 14 bytes of framing (docs/minecraft.md#rcon).
MAX_COMMAND_BYTES = 1446
#: Vanilla splits replies into chunks of this many UTF-16 characters (docs/minecraft.md#rcon).
CHUNK_CHARS = 4096

TYPE_RESPONSE = 0
TYPE_COMMAND = 2
TYPE_AUTH_REPLY = 2
TYPE_LOGIN = 3
#: Any type vanilla does not know; it answers "Unknown request 64" with the same id (docs/minecraft.md#rcon).
TYPE_SENTINEL = 100

#: Refuse reply packets larger than this (a 4096-char chunk is at most 12,288 bytes of UTF-8).
_MAX_PACKET_BYTES = 1 << 20
_BACKOFF_START = 0.1  # seconds

_ERROR_PREFIXES = (
    "Unknown or incomplete command",
    "Incorrect argument for command",
    "No player was found",
    "No entity was found",
    "No targets accepted",
    "Expected ",
    "Unknown function",
    "Unknown scoreboard objective",
    "Unknown item",
    "Unknown block",
    "Invalid ",
    "No bossbar exists",
    "Found no elements matching",
    "An entity is required",
    "A player is required",
    "Only one player is allowed",
    "Only one entity is allowed",
    "Sandbox: unsupported command",
)


@dataclass(frozen=True, slots=True)
class Packet:
    """One RCON packet: ``request_id`` (int32), ``type`` (int32) and the raw ``payload`` bytes."""

    request_id: int
    type: int
    payload: bytes


def encode_packet(request_id: int, packet_type: int, payload: bytes) -> bytes:
    """Frame one packet the vanilla way (``docs/minecraft.md#rcon``): little-endian ``len, id, type, payload,
    0x00 0x00``.

    Args:
        request_id: signed 32-bit request id.
        packet_type: 3 login, 2 command, 0 response, anything else is "unknown".
        payload: the payload bytes (UTF-8 text for commands).

    Returns:
        The whole packet; ``len`` counts everything after itself.
    """
    body = struct.pack("<ii", request_id, packet_type) + payload + b"\x00\x00"
    return struct.pack("<i", len(body)) + body


async def read_packet(reader: asyncio.StreamReader) -> Packet:
    """Read exactly one packet from ``reader`` (however TCP split it).

    Raises:
        asyncio.IncompleteReadError: EOF before a whole packet arrived.
        RconUnavailable: the declared length is impossible.
    """
    (length,) = struct.unpack("<i", await reader.readexactly(4))
    if length < 10 or length > _MAX_PACKET_BYTES:
        raise RconUnavailable(f"RCON server sent a packet with impossible length {length}")
    body = await reader.readexactly(length)
    request_id, packet_type = struct.unpack("<ii", body[:8])
    payload = body[8:-2] if body.endswith(b"\x00\x00") else body[8:].rstrip(b"\x00")
    return Packet(request_id, packet_type, payload)


def check_reply(command: str, reply: str) -> str:
    """Raise when ``reply`` is one of vanilla's error texts (replies are checked in this one place).

    Vanilla reports most failures as reply text over RCON, not as a transport error (``docs/minecraft.md#rcon``), e.g.
    "Unknown or incomplete command, see below for error…", "Incorrect argument for command…",
    "No player was found", "Expected whitespace to end one argument…".

    Args:
        command: the command that was sent (kept in the exception).
        reply: the reply text from :meth:`RconClient.command`.

    Returns:
        ``reply`` unchanged when it is not an error text.

    Raises:
        RconCommandFailed: the reply starts with a known error text.
    """
    if reply.startswith(_ERROR_PREFIXES):
        raise RconCommandFailed(command, reply)
    return reply


class RconClient:
    """An asyncio RCON client: one connection, one command in flight, multi-packet safe (``docs/rcon.md``).

    Use it as ``async with RconClient(host, port, password) as rcon: reply = await rcon.command("list")``.
    It uses no signals, so it may be created in any thread. It belongs to the loop that first uses it;
    awaiting it from another thread's loop forwards the call to the owner loop (house rule 7), so any thread
    or task may share one client. From a thread without a loop, use :class:`BlockingRcon`.

    Args:
        host: server host name or address.
        port: RCON TCP port (vanilla default 25575).
        password: ``rcon.password`` from server.properties; never logged or shown.
        timeout: seconds allowed for connecting + logging in, and again for each command's whole reply.
        max_backoff: cap in seconds of the wait between reconnect attempts (exponential from 0.1 s).
    """

    def __init__(
        self,
        host: str,
        port: int,
        password: str,
        *,
        timeout: float = 5.0,
        max_backoff: float = 10.0,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive seconds")
        self.host = host
        self.port = port
        self.timeout = timeout
        self.max_backoff = max_backoff
        self._password = password
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()
        self._next_id = random.randint(1, 1 << 30)
        self._failures = 0  # consecutive failed connection attempts
        self._retry_at = 0.0  # time.monotonic() before which no new attempt is made
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self.logins = 0
        """How many times this client has logged in: a change means the connection was re-made (the server
        may have restarted), so the service re-syncs the world."""

    def __repr__(self) -> str:
        state = "connected" if self.is_connected else "disconnected"
        return f"<RconClient {self.host}:{self.port} {state}>"

    @property
    def is_connected(self) -> bool:
        """True while a logged-in connection is open (as far as the loop has seen)."""
        return (
            self._writer is not None
            and self._reader is not None
            and not self._writer.is_closing()
            and not self._reader.at_eof()
        )

    async def __aenter__(self) -> RconClient:
        await self.connect()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def connect(self) -> None:
        """Open the connection and log in (type 3), retrying with backoff within ``timeout``.

        Raises:
            RconAuthError: the password was refused (not retried).
            RconUnavailable: no connection could be made within ``timeout`` seconds.
        """
        self._closed = False
        await self._on_owner(self._connect)

    async def _connect(self) -> None:
        async with self._lock:
            await self._ensure_connected()

    async def _on_owner(self, make: Callable[[], Awaitable[T]]) -> T:
        """Run ``make()`` on the owner loop (house rule 7), adopting the current loop if there is no live owner."""
        loop = asyncio.get_running_loop()
        owner = self._loop
        if owner is None or owner.is_closed() or (owner is not loop and not owner.is_running()):
            self._adopt(loop)
        elif owner is not loop:

            async def run() -> T:
                return await make()

            return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(run(), owner))
        return await make()

    def _adopt(self, loop: asyncio.AbstractEventLoop) -> None:
        """Make ``loop`` the owner: a fresh lock; a socket of a dead loop is abandoned (reconnect on use)."""
        writer = self._writer
        self._reader = self._writer = None
        if writer is not None:
            with contextlib.suppress(Exception):  # the old loop is gone; nothing more to release
                writer.transport.abort()
        self._lock = asyncio.Lock()
        self._loop = loop

    async def command(self, text: str) -> str:
        """Run one command and return its whole reply text (all 4096-character chunks joined).

        A leading ``/`` is allowed (vanilla strips it). Reconnects first if the connection was lost.

        Args:
            text: one command line; at most 1446 bytes of UTF-8.

        Returns:
            The reply decoded as UTF-8 (``§`` codes kept; vanilla runs multi-line output together).

        Raises:
            RconCommandTooLong: the payload is over 1446 bytes; nothing was sent.
            RconAuthError: re-login after a reconnect was refused.
            RconTimeout: the (whole) reply did not arrive within ``timeout`` seconds; the connection is dropped.
            RconUnavailable: connection lost or refused, or the server sent something unreadable.
        """
        payload = text.encode("utf-8")
        if len(payload) > MAX_COMMAND_BYTES:
            raise RconCommandTooLong(len(payload), MAX_COMMAND_BYTES)
        if self._closed:
            raise RconUnavailable("RCON client is closed")
        return await self._on_owner(lambda: self._command(payload))

    async def _command(self, payload: bytes) -> str:
        async with self._lock:
            await self._ensure_connected()
            try:
                async with asyncio.timeout(self.timeout):
                    return await self._exchange(payload)
            except TimeoutError:
                await self._drop()
                raise RconTimeout(
                    f"no complete RCON reply from {self.host}:{self.port} within {self.timeout} s"
                ) from None
            except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
                await self._drop()
                raise RconUnavailable(f"RCON connection to {self.host}:{self.port} lost: {reason(exc)}") from None
            except BaseException:
                # RconUnavailable from the framing checks, or cancellation: the stream is out of step.
                await self._drop()
                raise

    async def close(self) -> None:
        """Close the connection; later ``command()`` calls raise ``RconUnavailable`` until ``connect()``."""
        self._closed = True
        if self._loop is None or self._loop.is_closed():
            return
        await self._on_owner(self._drop)

    # -- internals ---------------------------------------------------------------------------------

    def _new_id(self) -> int:
        rid = self._next_id
        self._next_id = rid + 1 if rid < 0x7FFFFFF0 else 1
        return rid

    async def _exchange(self, payload: bytes) -> str:
        assert self._reader is not None and self._writer is not None
        rid = self._new_id()
        await self._send(rid, TYPE_COMMAND, payload)
        first = await self._read_for(rid)
        chunks = [first.payload]
        if len(first.payload) >= CHUNK_CHARS:
            # Maybe more chunks follow (no end marker): the reply to an unknown-type packet ends them.
            sentinel = self._new_id()
            await self._send(sentinel, TYPE_SENTINEL, b"")
            while True:
                packet = await read_packet(self._reader)
                if packet.request_id == rid:
                    chunks.append(packet.payload)
                elif packet.request_id == sentinel:
                    break
                else:
                    raise RconUnavailable(f"RCON reply with unexpected request id {packet.request_id}")
        return b"".join(chunks).decode("utf-8", errors="replace")

    async def _read_for(self, rid: int) -> Packet:
        assert self._reader is not None
        packet = await read_packet(self._reader)
        if packet.request_id == -1:
            raise RconUnavailable("RCON server says this connection is not logged in")
        if packet.request_id != rid:
            raise RconUnavailable(f"RCON reply with unexpected request id {packet.request_id} (sent {rid})")
        return packet

    async def _send(self, rid: int, packet_type: int, payload: bytes) -> None:
        assert self._writer is not None
        self._writer.write(encode_packet(rid, packet_type, payload))  # one write: one TCP segment on loopback
        await self._writer.drain()

    async def _ensure_connected(self) -> None:
        if self.is_connected:
            return
        await self._drop()
        deadline = time.monotonic() + self.timeout
        while True:
            wait = self._retry_at - time.monotonic()
            if wait > 0:
                if time.monotonic() + wait > deadline:
                    raise RconUnavailable(
                        f"RCON server {self.host}:{self.port} unavailable; next attempt in {wait:.1f} s"
                    )
                await asyncio.sleep(wait)
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    await self._open_and_login()
            except RconAuthError:
                await self._drop()
                raise
            except (TimeoutError, OSError, asyncio.IncompleteReadError, RconUnavailable) as exc:
                await self._drop()
                self._failures += 1
                backoff = min(self.max_backoff, _BACKOFF_START * 2 ** (self._failures - 1))
                self._retry_at = time.monotonic() + backoff
                log.info(
                    "RCON connect to %s:%s failed (%s); retry in %.1f s", self.host, self.port, reason(exc), backoff
                )
                if time.monotonic() >= deadline or self._retry_at > deadline:
                    if isinstance(exc, TimeoutError):
                        raise RconTimeout(f"RCON login to {self.host}:{self.port} timed out") from None
                    raise RconUnavailable(f"cannot connect to RCON at {self.host}:{self.port}: {reason(exc)}") from None
                continue
            self._failures = 0
            self._retry_at = 0.0
            self.logins += 1
            log.info("RCON connected to %s:%s", self.host, self.port)
            return

    async def _open_and_login(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        rid = self._new_id()
        await self._send(rid, TYPE_LOGIN, self._password.encode("utf-8"))
        while True:
            packet = await read_packet(self._reader)
            if packet.request_id == -1:
                raise RconAuthError(f"RCON login to {self.host}:{self.port} refused (wrong password?)")
            if packet.request_id != rid:
                raise RconUnavailable(f"RCON login reply with unexpected id {packet.request_id}")
            if packet.type == TYPE_AUTH_REPLY:
                return
            # Some Source-style servers send an empty type-0 packet first; skip it.

    async def _drop(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is None:
            return
        writer.close()
        with contextlib.suppress(OSError, TimeoutError):
            await asyncio.wait_for(writer.wait_closed(), 1.0)


class BlockingRcon:
    """A synchronous, thread-safe facade: an :class:`RconClient` on its own event loop in a daemon thread.

    Any thread may call :meth:`command`; calls are serialised on the one connection (house rule 1).

    Example::

        with BlockingRcon("127.0.0.1", 25575, password, timeout=5.0) as rcon:
            print(rcon.command("list"))

    Args:
        host, port, password, timeout, max_backoff: as for :class:`RconClient` (seconds).
    """

    def __init__(self, host: str, port: int, password: str, *, timeout: float = 5.0, max_backoff: float = 10.0) -> None:
        self.client = RconClient(host, port, password, timeout=timeout, max_backoff=max_backoff)
        ready: concurrent.futures.Future[asyncio.AbstractEventLoop] = concurrent.futures.Future()

        def run() -> None:
            loop = asyncio.new_event_loop()
            ready.set_result(loop)
            try:
                loop.run_forever()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="castle-rcon", daemon=True)
        self._thread.start()
        self._loop = ready.result(10.0)

    def __repr__(self) -> str:
        return f"<BlockingRcon {self.client!r}>"

    def _call(self, make: Callable[[], Awaitable[T]]) -> T:
        if self._loop.is_closed():
            raise RconUnavailable("RCON client is closed")

        async def run() -> T:
            return await make()

        # The client's own timeout ends every call; the extra seconds only guard against a dead loop thread.
        fut = asyncio.run_coroutine_threadsafe(run(), self._loop)
        return fut.result(self.client.timeout * 3 + 5.0)

    def connect(self) -> None:
        """Connect and log in now (see :meth:`RconClient.connect`)."""
        self._call(self.client.connect)

    def command(self, text: str) -> str:
        """Run one command from any thread and return its whole reply (see :meth:`RconClient.command`)."""
        return self._call(lambda: self.client.command(text))

    def close(self) -> None:
        """Close the connection and stop the loop thread (idempotent)."""
        if self._loop.is_closed():
            return
        try:
            self._call(self.client.close)
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(5.0)

    def __enter__(self) -> BlockingRcon:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
