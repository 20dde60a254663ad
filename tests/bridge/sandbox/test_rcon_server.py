"""The sandbox's RCON server writes a reply as vanilla's ``RconClient.sendCmdResponse`` does."""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import pytest
from rcon.source import Client

from bridge.sandbox.rcon_server import RconServer

LONG = "".join(f"line {i:05d}\n" for i in range(900))  # 10,800 characters: three packets


def _request(request_id: int, packet_type: int, payload: str) -> bytes:
    body = struct.pack("<ii", request_id, packet_type) + payload.encode() + b"\x00\x00"
    return struct.pack("<i", len(body)) + body


def test_each_reply_packet_is_its_own_write_flushed_before_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    """Vanilla sends each 4096-unit chunk with its own socket write; a client that reads one packet per command
    then sees only the first, here as there."""
    calls: list[tuple[str, int]] = []
    write, drain = asyncio.StreamWriter.write, asyncio.StreamWriter.drain

    def recording_write(self: asyncio.StreamWriter, data: Any) -> None:
        calls.append(("write", len(data)))
        write(self, data)

    async def recording_drain(self: asyncio.StreamWriter) -> None:
        calls.append(("drain", 0))
        await drain(self)

    monkeypatch.setattr(asyncio.StreamWriter, "write", recording_write)
    monkeypatch.setattr(asyncio.StreamWriter, "drain", recording_drain)

    async def main() -> None:
        server = RconServer("pw", lambda _text: LONG)
        port = await server.start()
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            write(writer, _request(1, 3, "pw"))
            await reader.readexactly(14)
            calls.clear()
            write(writer, _request(2, 2, "help"))
            for _ in range(3):
                (length,) = struct.unpack("<i", await reader.readexactly(4))
                await reader.readexactly(length)
        finally:
            writer.close()
            await server.stop()

    asyncio.run(main())
    writes = [n for op, n in calls if op == "write"]
    assert len(writes) == 3
    ops = [op for op, _ in calls]
    assert [ops[i + 1] for i, op in enumerate(ops) if op == "write"] == ["drain"] * 3, calls


def test_the_rcon_client_reads_a_reply_of_several_packets() -> None:
    async def main() -> None:
        server = RconServer("pw", lambda _text: LONG)
        port = await server.start()
        try:
            reply = await asyncio.to_thread(_run, port, "help")
        finally:
            await server.stop()
        assert reply == LONG

    asyncio.run(main())


def _run(port: int, command: str) -> str:
    with Client("127.0.0.1", port, passwd="pw", timeout=10) as client:
        return client.run(command)
