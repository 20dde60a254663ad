"""An RCON server with vanilla's framing and its faults (``docs/minecraft.md#rcon``), for the sandbox. Not Minecraft.

House rules of this file (each one is vanilla behaviour we reproduce on purpose):

1. Each request is taken from ONE ``read(1460)``. If fewer than 10 bytes arrive, or the declared length is
   not ``bytes_read - 4`` (a packet split over two reads, two packets in one read, a payload over 1446
   bytes), the connection is closed without a word.
2. Login is type 3. A wrong or empty password gets a type-2 reply with id -1 (and logs the connection out);
   success gets an empty type-2 reply with the request id.
3. A command (type 2) before login gets the id -1 reply; the socket stays open.
4. Replies are split into 4096-character (UTF-16 unit) chunks, each a type-0 packet with the request id,
   with no end marker. An empty reply is one empty packet. Each packet is its own write, flushed before the
   next is written (a client reading one packet per command sees only the first, as on a real server).
5. Any other type gets a type-0 reply ``Unknown request <hex type>`` with the same id.
6. Commands run one at a time on the event loop thread (vanilla's main thread); the payload is read up to
   its first NUL byte and decoded as UTF-8.

Misbehaviour on purpose (``RconServer.faults``, for tests of the client; all off by default): pauses between
reply packets, replies written to TCP in small pieces at odd offsets, a connection closed half-way through a
reply, a server that runs the command but never answers, a server slow to answer every command
(``reply_delay``), and (``Sandbox.restart``) a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import struct
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["RconFaults", "RconServer", "split_reply"]

log = logging.getLogger(__name__)

READ_SIZE = 1460
CHUNK_UNITS = 4096


def split_reply(text: str) -> list[bytes]:
    """Split a reply like vanilla's ``sendCmdResponse``: 4096 UTF-16 units per chunk, each UTF-8 encoded.

    A surrogate pair cut in two becomes ``?`` on each side, as Java's encoder does.
    """
    units = text.encode("utf-16-le", "surrogatepass")
    chunks: list[bytes] = []
    step = CHUNK_UNITS * 2
    for start in range(0, max(len(units), 1), step):
        part = units[start : start + step].decode("utf-16-le", "surrogatepass")
        chunks.append(part.encode("utf-8", "replace"))
    return chunks


def _packet(request_id: int, packet_type: int, payload: bytes) -> bytes:
    body = struct.pack("<ii", request_id, packet_type) + payload + b"\x00\x00"
    return struct.pack("<i", len(body)) + body


@dataclass
class RconFaults:
    """Switches that make the sandbox RCON server misbehave (each applies to every reply to a command).

    Attributes:
        chunk_delay: seconds to wait before each reply packet after the first.
        split_writes: when > 0, write each reply packet in pieces of this many bytes (pick an odd number to cut
            UTF-8 characters and headers apart), with ``split_delay`` seconds between pieces.
        split_delay: pause between pieces, in seconds.
        close_mid_reply: send the first half of the reply's bytes, then close the connection.
        stall: run the command but never answer (the connection stays open).
        reply_delay: seconds to wait before answering each command (a slow or busy server; the command has run).
    """

    chunk_delay: float = 0.0
    split_writes: int = 0
    split_delay: float = 0.001
    close_mid_reply: bool = False
    stall: bool = False
    reply_delay: float = 0.0


class RconServer:
    """Serves RCON on one address; ``execute(command) -> reply`` runs each command.

    Args:
        password: the only accepted password (must be non-empty to ever authenticate).
        execute: called on the event loop for each authenticated command (leading ``/`` left in place).
    """

    def __init__(self, password: str, execute: Callable[[str], str]) -> None:
        self._password = password
        self._execute = execute
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.closed_connections = 0  # connections the server dropped on a framing violation
        self.faults = RconFaults()
        self.commands_run = 0  # commands executed (also those whose reply a fault withheld)

    def __repr__(self) -> str:
        return f"<RconServer port={self.port}>"

    @property
    def port(self) -> int | None:
        """The bound port, or None when not serving."""
        if self._server is None or not self._server.sockets:
            return None
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Start listening; returns the bound port (``port=0`` picks a free one)."""
        self._server = await asyncio.start_server(self._handle, host, port, reuse_address=True)
        bound = self.port
        assert bound is not None
        return bound

    async def stop(self) -> None:
        """Stop listening and close every open connection."""
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        for writer in list(self._writers):
            with contextlib.suppress(OSError, TimeoutError):
                await asyncio.wait_for(writer.wait_closed(), 1.0)
        if self._server is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 1.0)
        self._server = None

    async def _send_reply(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, packets: list[bytes]
    ) -> bool:
        """Write one reply's packets, applying ``faults``; False when the connection must end now."""
        f = self.faults
        if f.reply_delay > 0:
            await asyncio.sleep(f.reply_delay)
        if f.stall:  # never answer; swallow whatever comes until the client gives up and closes
            while await reader.read(4096):
                pass
            return False
        if f.close_mid_reply:
            data = b"".join(packets)
            writer.write(data[: max(1, len(data) // 2)])
            await writer.drain()
            return False
        for i, packet in enumerate(packets):
            if i and f.chunk_delay:
                await asyncio.sleep(f.chunk_delay)
            if f.split_writes > 0:
                for start in range(0, len(packet), f.split_writes):
                    writer.write(packet[start : start + f.split_writes])
                    await writer.drain()
                    await asyncio.sleep(f.split_delay)
            else:  # one write per packet, flushed before the next, as vanilla's sendCmdResponse
                writer.write(packet)
                await writer.drain()
        return True

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        authed = False
        try:
            while True:
                data = await reader.read(READ_SIZE)
                if not data:
                    return
                if len(data) < 10:
                    self.closed_connections += 1
                    return
                (length,) = struct.unpack_from("<i", data, 0)
                if length != len(data) - 4 or len(data) < 12:
                    self.closed_connections += 1
                    return
                request_id, packet_type = struct.unpack_from("<ii", data, 4)
                raw = data[12:]
                nul = raw.find(b"\x00")
                text = (raw if nul < 0 else raw[:nul]).decode("utf-8", "replace")
                if packet_type == 3:
                    authed = bool(text) and text == self._password
                    writer.write(_packet(request_id if authed else -1, 2, b""))
                elif packet_type == 2:
                    if not authed:
                        writer.write(_packet(-1, 2, b""))
                    else:
                        try:
                            reply = self._execute(text)
                        except Exception as exc:  # vanilla's RconClient does the same
                            log.exception("sandbox command failed")
                            reply = f"Error executing: {text} ({exc})"
                        self.commands_run += 1
                        packets = [_packet(request_id, 0, chunk) for chunk in split_reply(reply)]
                        if not await self._send_reply(reader, writer, packets):
                            return
                else:
                    writer.write(_packet(request_id, 0, f"Unknown request {packet_type & 0xFFFFFFFF:x}".encode()))
                await writer.drain()
        except (ConnectionError, OSError):
            return
        finally:
            self._writers.discard(writer)
            writer.close()
