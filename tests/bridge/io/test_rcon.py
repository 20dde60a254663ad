"""RconClient over real loopback sockets, against the sandbox and small raw servers (``docs/minecraft.md#rcon``;
``docs/rcon.md``)."""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Awaitable, Callable

import pytest

from bridge.errors import (
    BridgeError,
    RconAuthError,
    RconCommandFailed,
    RconCommandTooLong,
    RconTimeout,
    RconUnavailable,
)
from bridge.io.rcon import MAX_COMMAND_BYTES, RconClient, check_reply, encode_packet
from bridge.sandbox import Sandbox

PASSWORD = "s3cret-Pa55"
Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def _sandbox() -> tuple[Sandbox, int]:
    sb = Sandbox(PASSWORD, tick_rate=0)
    port = await sb.start()
    return sb, port


async def _read_packet(reader: asyncio.StreamReader) -> tuple[int, int, bytes]:
    (length,) = struct.unpack("<i", await reader.readexactly(4))
    body = await reader.readexactly(length)
    rid, ptype = struct.unpack("<ii", body[:8])
    return rid, ptype, body[8:-2]


async def _raw_server(handler: Handler) -> tuple[asyncio.AbstractServer, int]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


async def _login_then(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    rid, ptype, _ = await _read_packet(reader)
    assert ptype == 3
    writer.write(encode_packet(rid, 2, b""))
    await writer.drain()


# -- login ---------------------------------------------------------------------------------------------


def test_login_ok_and_command() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                assert rcon.is_connected
                assert await rcon.command("list") == "There are 0 of a max of 20 players online: "
        finally:
            await sb.stop()

    asyncio.run(main())


def test_bad_password_raises_auth_error_without_leaking_it() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            client = RconClient("127.0.0.1", port, "wrong-horse", timeout=2)
            with pytest.raises(RconAuthError) as info:
                await client.connect()
            assert isinstance(info.value, RconUnavailable) and isinstance(info.value, BridgeError)
            assert "wrong-horse" not in str(info.value)
            assert "wrong-horse" not in repr(client)
            assert PASSWORD not in repr(RconClient("127.0.0.1", port, PASSWORD))
            assert sb.world.command_log == []
        finally:
            await sb.stop()

    asyncio.run(main())


def test_empty_password_never_authenticates() -> None:
    async def main() -> None:
        sb = Sandbox("", tick_rate=0)
        port = await sb.start()
        try:
            with pytest.raises(RconAuthError):
                await RconClient("127.0.0.1", port, "", timeout=2).connect()
        finally:
            await sb.stop()

    asyncio.run(main())


# -- multi-packet replies ----------------------------------------------------------------------------------


def test_long_reply_arrives_whole_and_next_reply_stays_in_sync() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                for i in range(20):
                    await rcon.command(f'data modify storage test:big items append value "{i:03d}' + "x" * 600 + '"')
                reply = await rcon.command("data get storage test:big")
                assert len(reply) > 10_000
                assert reply.startswith('Storage test:big has the following contents: {items: ["000')
                assert reply.endswith('"]}')
                assert reply.count("x" * 600) == 20
                # The next command gets its own reply, not the tail of the previous one (mcrcon's fault).
                assert await rcon.command("list") == "There are 0 of a max of 20 players online: "
                # A reply of exactly one full chunk is fine too (the sentinel just ends it).
                await rcon.command('data modify storage test:one s set value "' + "y" * 1400 + '"')
                assert (await rcon.command("data get storage test:one s")).endswith('y"')
        finally:
            await sb.stop()

    asyncio.run(main())


def test_section_sign_and_multibyte_characters_across_chunk_boundaries() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                piece = "§6é€中ü" * 40  # 2-, 2-, 3-, 3-, 2-byte characters
                for _ in range(60):
                    await rcon.command(f'data modify storage test:mb l append value "{piece}"')
                reply = await rcon.command("data get storage test:mb l")
                assert len(reply) > 3 * 4096
                assert reply.count(piece) == 60
                assert "\ufffd" not in reply
        finally:
            await sb.stop()

    asyncio.run(main())


def test_reply_bytes_trickling_across_tcp_reads_with_gaps_between_chunks() -> None:
    """A vanilla-like server that pauses between chunks and splits UTF-8 characters across TCP segments."""
    text = ("§a€" + "é" * 3000) * 2  # 6,004 characters, 2 chunks, multi-byte chars split below
    chunks = [text[:4096].encode(), text[4096:].encode()]

    async def handler(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _login_then(reader, writer)
        while True:
            try:
                rid, ptype, _ = await _read_packet(reader)
            except asyncio.IncompleteReadError:
                return
            if ptype != 2:
                writer.write(encode_packet(rid, 0, f"Unknown request {ptype:x}".encode()))
                await writer.drain()
                continue
            for chunk in chunks:
                data = encode_packet(rid, 0, chunk)
                for i in range(0, len(data), 1001):  # odd cut points split 2-byte characters
                    writer.write(data[i : i + 1001])
                    await writer.drain()
                    await asyncio.sleep(0.002)
                await asyncio.sleep(0.02)

    async def main() -> None:
        server, port = await _raw_server(handler)
        try:
            async with RconClient("127.0.0.1", port, "pw", timeout=2) as rcon:
                assert await rcon.command("anything") == text
                assert await rcon.command("again") == text
        finally:
            server.close()

    asyncio.run(main())


# -- request limits and framing ------------------------------------------------------------------------------


def test_command_over_1446_bytes_is_refused_before_sending() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                ok = "say " + "x" * (MAX_COMMAND_BYTES - 4)
                assert len(ok.encode()) == 1446
                assert await rcon.command(ok) == ""
                with pytest.raises(RconCommandTooLong) as info:
                    await rcon.command(ok + "x")
                assert isinstance(info.value, ValueError)
                with pytest.raises(RconCommandTooLong):
                    await rcon.command("say " + "é" * 722)  # 1,448 bytes, 726 characters
                assert [r.text for r in sb.world.command_log] == [ok]
                assert await rcon.command("list")  # the connection is still fine
        finally:
            await sb.stop()

    asyncio.run(main())


async def _raw_login(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(encode_packet(7, 3, PASSWORD.encode()))
    await writer.drain()
    assert await _read_packet(reader) == (7, 2, b"")
    return reader, writer


async def _closed(reader: asyncio.StreamReader) -> bool:
    return await asyncio.wait_for(reader.read(100), 2) == b""


def test_sandbox_closes_connection_on_overlong_raw_packet() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            reader, writer = await _raw_login(port)
            writer.write(encode_packet(8, 2, b"say " + b"x" * 1443))  # 1,447-byte payload
            await writer.drain()
            assert await _closed(reader)
            assert sb.world.command_log == []
            assert sb.rcon.closed_connections == 1
            writer.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_sandbox_closes_connection_on_pipelined_packets() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            reader, writer = await _raw_login(port)
            writer.write(encode_packet(8, 2, b"list") + encode_packet(9, 2, b"list"))
            await writer.drain()
            assert await _closed(reader)
            assert sb.world.command_log == []
            writer.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_sandbox_closes_connection_on_packet_split_across_reads() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            reader, writer = await _raw_login(port)
            data = encode_packet(8, 2, b"list")
            writer.write(data[:6])
            await writer.drain()
            await asyncio.sleep(0.05)
            writer.write(data[6:])
            await writer.drain()
            assert await _closed(reader)
            writer.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_unknown_packet_type_and_command_before_login() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(encode_packet(5, 2, b"list"))  # before login
            await writer.drain()
            assert await _read_packet(reader) == (-1, 2, b"")
            writer.write(encode_packet(6, 3, b"nope"))  # wrong password
            await writer.drain()
            assert await _read_packet(reader) == (-1, 2, b"")
            writer.write(encode_packet(7, 3, PASSWORD.encode()))  # the socket stayed open
            await writer.drain()
            assert await _read_packet(reader) == (7, 2, b"")
            writer.write(encode_packet(42, 100, b""))
            await writer.drain()
            assert await _read_packet(reader) == (42, 0, b"Unknown request 64")
            writer.write(encode_packet(43, 2, b"/list"))
            await writer.drain()
            assert await _read_packet(reader) == (43, 0, b"There are 0 of a max of 20 players online: ")
            writer.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_concurrent_callers_are_serialised_on_one_connection() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        for name in ("Alice", "Bob", "Carol"):
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                commands = [f"tag {n} add t{i}" for i in range(10) for n in ("Alice", "Bob", "Carol")]
                replies = await asyncio.gather(*(rcon.command(c) for c in commands))
                assert replies == [f"Added tag '{c.split()[3]}' to {c.split()[1]}" for c in commands]
                assert sb.rcon.closed_connections == 0
        finally:
            await sb.stop()

    asyncio.run(main())


# -- error replies --------------------------------------------------------------------------------------------


def test_parse_failure_reply_and_check_reply() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                reply = await rcon.command("foo bar")
                assert reply == "Unknown or incomplete command, see below for errorfoo bar<--[HERE]"
                with pytest.raises(RconCommandFailed) as info:
                    check_reply("foo bar", reply)
                assert info.value.reply == reply and info.value.command == "foo bar"
                reply = await rcon.command("give Nobody minecraft:paper")
                assert reply == "No player was found"
                with pytest.raises(RconCommandFailed):
                    check_reply("give Nobody minecraft:paper", reply)
                ok = await rcon.command("list")
                assert check_reply("list", ok) == ok
        finally:
            await sb.stop()

    asyncio.run(main())


@pytest.mark.parametrize(
    "reply",
    [
        "Unknown or incomplete command, see below for errorfoo<--[HERE]",
        "Incorrect argument for command...paper 0<--[HERE]",
        "No player was found",
        "Expected whitespace to end one argument, but found trailing data",
        "Unknown function traitors:nope",
        "Sandbox: unsupported command: execute",
    ],
)
def test_check_reply_recognises_vanilla_errors(reply: str) -> None:
    with pytest.raises(RconCommandFailed):
        check_reply("cmd", reply)


@pytest.mark.parametrize(
    "reply", ["", "Gave 1 [Vote Paper] to Alice", "Storage traitors:io has the following contents: {}"]
)
def test_check_reply_passes_ordinary_replies(reply: str) -> None:
    assert check_reply("cmd", reply) == reply


# -- reconnect, timeouts ---------------------------------------------------------------------------------------


def test_reconnects_after_server_restart() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        sb.world.join("Alice")
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                assert "Alice" in await rcon.command("list")
                await sb.stop()
                await asyncio.sleep(0.05)
                with pytest.raises(RconUnavailable):  # down: refused, within the timeout
                    t0 = time.monotonic()
                    await RconClient("127.0.0.1", port, PASSWORD, timeout=0.3).connect()
                assert time.monotonic() - t0 < 1.0
                await sb.start(port=port)
                assert "Alice" in await rcon.command("list")  # re-logged in transparently
                assert rcon.is_connected
        finally:
            await sb.stop()

    asyncio.run(main())


def test_command_while_server_down_fails_then_recovers_with_backoff() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=0.5, max_backoff=0.2)
            await rcon.connect()
            await sb.stop()
            t0 = time.monotonic()
            with pytest.raises(RconUnavailable):
                await rcon.command("list")
            assert time.monotonic() - t0 < 1.0
            await sb.start(port=port)
            assert await rcon.command("list") == "There are 0 of a max of 20 players online: "
            await rcon.close()
            with pytest.raises(RconUnavailable):
                await rcon.command("list")
        finally:
            await sb.stop()

    asyncio.run(main())


def test_stalled_server_times_out_within_the_timeout() -> None:
    async def stall_after_login(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _login_then(reader, writer)
        await asyncio.sleep(10)

    async def stall_at_login(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(10)

    async def main() -> None:
        server, port = await _raw_server(stall_after_login)
        server2, port2 = await _raw_server(stall_at_login)
        try:
            rcon = RconClient("127.0.0.1", port, "pw", timeout=0.3)
            await rcon.connect()
            t0 = time.monotonic()
            with pytest.raises(RconTimeout):
                await rcon.command("list")
            assert 0.25 < time.monotonic() - t0 < 1.0
            assert not rcon.is_connected  # the out-of-step connection was dropped
            t0 = time.monotonic()
            with pytest.raises(RconTimeout):
                await RconClient("127.0.0.1", port2, "pw", timeout=0.3).connect()
            assert time.monotonic() - t0 < 1.0
        finally:
            server.close()
            server2.close()

    asyncio.run(main())


def test_server_closing_mid_reply_raises_unavailable() -> None:
    async def half_then_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _login_then(reader, writer)
        rid, _, _ = await _read_packet(reader)
        writer.write(encode_packet(rid, 0, b"x" * 5000)[:3000])
        await writer.drain()
        writer.close()

    async def main() -> None:
        server, port = await _raw_server(half_then_close)
        try:
            rcon = RconClient("127.0.0.1", port, "pw", timeout=2)
            await rcon.connect()
            t0 = time.monotonic()
            with pytest.raises(RconUnavailable) as info:
                await rcon.command("list")
            assert not isinstance(info.value, RconTimeout)
            assert time.monotonic() - t0 < 1.0
        finally:
            server.close()

    asyncio.run(main())


def test_reply_with_wrong_request_id_is_rejected() -> None:
    async def wrong_id(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await _login_then(reader, writer)
        rid, _, _ = await _read_packet(reader)
        writer.write(encode_packet(rid + 1000, 0, b"stale"))
        await writer.drain()
        await asyncio.sleep(1)

    async def main() -> None:
        server, port = await _raw_server(wrong_id)
        try:
            rcon = RconClient("127.0.0.1", port, "pw", timeout=2)
            await rcon.connect()
            with pytest.raises(RconUnavailable, match="unexpected request id"):
                await rcon.command("list")
        finally:
            server.close()

    asyncio.run(main())


def test_client_works_from_a_non_main_thread() -> None:
    """mcrcon 0.7.0 cannot even be constructed off the main thread (``docs/rcon.md``); ours can."""
    import threading

    result: list[str] = []

    def worker(port: int) -> None:
        async def go() -> None:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                result.append(await rcon.command("list"))

        asyncio.run(go())

    async def main() -> None:
        sb, port = await _sandbox()
        try:
            thread = threading.Thread(target=worker, args=(port,))
            thread.start()
            while thread.is_alive():
                await asyncio.sleep(0.01)
        finally:
            await sb.stop()

    asyncio.run(main())
    assert result == ["There are 0 of a max of 20 players online: "]
