"""Issue 6, RCON: every fault case against the misbehaving sandbox, over real loopback sockets
(``docs/minecraft.md#rcon``; ``docs/rcon.md``)."""

from __future__ import annotations

import asyncio
import logging
import re
import threading
import time

import pytest

from bridge.errors import RconCommandTooLong, RconTimeout, RconUnavailable
from bridge.io.rcon import BlockingRcon, RconClient
from bridge.minecraft.display import tellraw
from bridge.minecraft.items import give, item_stack
from bridge.minecraft.text import text_component
from bridge.sandbox import Sandbox
from bridge.sandbox.server import SandboxThread
from engine.ids import Item

PASSWORD = "rc0n-Pa55-Xq9"


async def _sandbox() -> tuple[Sandbox, int]:
    sb = Sandbox(PASSWORD, tick_rate=0)
    return sb, await sb.start()


async def _fill_storage(rcon: RconClient, entries: int = 20) -> None:
    for i in range(entries):
        await rcon.command(f'data modify storage test:big items append value "{i:03d}é§' + "x" * 600 + '"')


def _check_big(reply: str, entries: int = 20) -> None:
    assert len(reply) > 10_000
    # whole and in order
    assert [int(m) for m in re.findall(r'"(\d{3})é§', reply)] == list(range(entries))
    assert reply.endswith('"]}') and "\ufffd" not in reply


@pytest.mark.parametrize(
    ("chunk_delay", "split_writes"),
    [(0.05, 0), (0.0, 7), (0.02, 1001), (0.0, 1)],
    ids=["gaps-between-chunks", "7-byte-writes", "1001-byte-writes-with-gaps", "1-byte-writes"],
)
def test_long_reply_whole_in_order_and_next_reply_in_sync(chunk_delay: float, split_writes: int) -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=10) as rcon:
                await _fill_storage(rcon)
                sb.rcon.faults.chunk_delay = chunk_delay
                sb.rcon.faults.split_writes = split_writes
                sb.rcon.faults.split_delay = 0.0 if split_writes < 10 else 0.002
                _check_big(await rcon.command("data get storage test:big"))
                assert await rcon.command("list") == "There are 0 of a max of 20 players online: "
                _check_big(await rcon.command("data get storage test:big"))
                assert sb.rcon.closed_connections == 0 and rcon.logins == 1
        finally:
            await sb.stop()

    asyncio.run(main())


def test_two_byte_character_split_across_chunks_and_section_sign_decode() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                # "é" and "§" are 2 bytes each; odd-sized writes cut every one of them in half somewhere
                await rcon.command('data modify storage test:s v set value "' + "é§" * 300 + '"')
                sb.rcon.faults.split_writes = 3
                sb.rcon.faults.split_delay = 0.0
                reply = await rcon.command("data get storage test:s v")
                assert reply == 'Storage test:s has the following contents: "' + "é§" * 300 + '"'
                sb.rcon.faults.split_writes = 0
                # a § byte sequence in an ordinary reply (vanilla keeps legacy codes in replies)
                sb.world.join("Alice")
                assert await rcon.command("tag Alice add x") == "Added tag 'x' to Alice"
                assert "§" in await rcon.command("data get storage test:s v")
        finally:
            await sb.stop()

    asyncio.run(main())


def test_command_over_1446_bytes_is_never_sent() -> None:
    """Text is split into several commands by the builder; anything else is refused with a clear error."""

    async def main() -> None:
        sb, port = await _sandbox()
        sb.world.join("Alice")
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                text = 'Ünïcödé text with "quotes" and § signs. ' * 120  # > 5,000 bytes of UTF-8
                commands = tellraw("Alice", text_component(text))
                assert len(commands) >= 4
                for cmd in commands:
                    assert len(cmd.text.encode()) <= 1446
                    assert await rcon.command(cmd.text) == ""
                shown = "".join(m.text for m in sb.world.player("Alice").chat)
                assert shown == text
                run = sb.rcon.commands_run
                with pytest.raises(ValueError, match="1446-byte RCON limit"):
                    give("Alice", item_stack(Item.CAST_VOTE_PAPER, label="é" * 800))
                with pytest.raises(RconCommandTooLong, match="limit is 1446"):
                    await rcon.command("say " + "é" * 722)
                assert sb.rcon.commands_run == run and sb.rcon.closed_connections == 0
        finally:
            await sb.stop()

    asyncio.run(main())


def test_client_never_pipelines_even_with_many_concurrent_callers_and_slow_replies() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=10) as rcon:
                await _fill_storage(rcon, 10)
                sb.rcon.faults.chunk_delay = 0.01
                sb.rcon.faults.split_writes = 513
                sb.rcon.faults.split_delay = 0.0
                calls = [rcon.command("data get storage test:big" if i % 2 else "list") for i in range(16)]
                replies = await asyncio.gather(*calls)
                for i, reply in enumerate(replies):
                    if i % 2:
                        assert reply.count("x" * 600) == 10
                    else:
                        assert reply.startswith("There are 0")
                # vanilla (and the sandbox) drop a connection whose read holds two packets: none was dropped
                assert sb.rcon.closed_connections == 0 and rcon.logins == 1
        finally:
            await sb.stop()

    asyncio.run(main())


def test_close_mid_reply_is_an_error_fast_then_the_client_recovers() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
                sb.rcon.faults.close_mid_reply = True
                t0 = time.monotonic()
                with pytest.raises(RconUnavailable) as info:
                    await rcon.command("list")
                assert not isinstance(info.value, RconTimeout)
                assert time.monotonic() - t0 < 1.0
                sb.rcon.faults.close_mid_reply = False
                assert (await rcon.command("list")).startswith("There are 0")
                assert rcon.logins == 2
        finally:
            await sb.stop()

    asyncio.run(main())


def test_stall_mid_reply_times_out_within_the_timeout_without_busy_looping() -> None:
    async def main() -> None:
        sb, port = await _sandbox()
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=0.5) as rcon:
                sb.rcon.faults.stall = True
                t0, cpu0 = time.monotonic(), time.process_time()
                with pytest.raises(RconTimeout, match="within 0.5 s"):
                    await rcon.command("list")
                wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
                assert 0.45 < wall < 1.2
                assert cpu < 0.5 * wall  # waiting, not spinning
                sb.rcon.faults.stall = False
                assert (await rcon.command("list")).startswith("There are 0")
        finally:
            await sb.stop()

    asyncio.run(main())


def test_restart_reconnects_with_capped_exponential_backoff(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="bridge.io.rcon")

    async def main() -> None:
        sb, port = await _sandbox()
        try:
            rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=0.25, max_backoff=0.4)
            await rcon.connect()
            restart = asyncio.create_task(sb.restart(downtime=1.6))
            await asyncio.sleep(0.05)
            give_up = time.monotonic() + 5.0
            while True:
                try:
                    reply = await rcon.command("list")
                    break
                except RconUnavailable:  # down; fails fast while the next attempt is not due
                    assert time.monotonic() < give_up
                    await asyncio.sleep(0.02)
            await restart
            assert reply.startswith("There are 0") and rcon.logins == 2
            await rcon.close()
        finally:
            await sb.stop()

    asyncio.run(main())
    waits = [float(m) for m in re.findall(r"retry in ([0-9.]+) s", caplog.text)]
    assert waits[:3] == [0.1, 0.2, 0.4]
    assert max(waits) == 0.4 and len(waits) >= 4  # capped at max_backoff


def test_one_client_shared_by_threads_tasks_and_other_loops() -> None:
    """The owner loop serves its own tasks and forwards calls awaited from other threads' loops."""
    errors: list[BaseException] = []
    results: list[str] = []

    async def main() -> None:
        sb, port = await _sandbox()
        for n in ("Alice", "Bob"):
            sb.world.join(n)
        try:
            rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=5)
            await rcon.connect()

            def worker(k: int) -> None:
                try:

                    async def go() -> None:
                        for i in range(5):
                            results.append(await rcon.command(f"tag Alice add w{k}_{i}"))

                    asyncio.run(go())
                except BaseException as exc:  # reported below
                    errors.append(exc)

            threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
            for t in threads:
                t.start()
            own = await asyncio.gather(*(rcon.command(f"tag Bob add t{i}") for i in range(10)))
            while any(t.is_alive() for t in threads):
                await asyncio.sleep(0.01)
            assert own == [f"Added tag 't{i}' to Bob" for i in range(10)]
            assert rcon.logins == 1 and sb.rcon.closed_connections == 0
            await rcon.close()
        finally:
            await sb.stop()

    asyncio.run(main())
    assert errors == []
    assert sorted(results) == sorted(f"Added tag 'w{k}_{i}' to Alice" for k in range(4) for i in range(5))


def test_client_adopted_by_a_new_loop_after_its_owner_loop_ended() -> None:
    sb = SandboxThread(PASSWORD, tick_rate=0)
    port = sb.start()
    try:
        rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=2)
        assert asyncio.run(rcon.command("list")).startswith("There are 0")
        assert asyncio.run(rcon.command("list")).startswith("There are 0")  # a second asyncio.run
        assert rcon.logins == 2
    finally:
        sb.stop()


def test_blocking_facade_from_many_threads() -> None:
    sb = SandboxThread(PASSWORD, tick_rate=0)
    port = sb.start()
    sb.join("Alice")
    out: list[str] = []
    try:
        with BlockingRcon("127.0.0.1", port, PASSWORD, timeout=2) as rcon:
            assert PASSWORD not in repr(rcon)
            threads = [
                threading.Thread(
                    target=lambda k=k: out.extend(rcon.command(f"tag Alice add b{k}_{i}") for i in range(5))
                )
                for k in range(6)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(10)
            assert rcon.client.logins == 1
        with pytest.raises(RconUnavailable):
            rcon.command("list")
    finally:
        sb.stop()
    assert sorted(out) == sorted(f"Added tag 'b{k}_{i}' to Alice" for k in range(6) for i in range(5))


def test_password_is_never_logged_at_any_level(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, asyncio included

    async def main() -> None:
        sb, port = await _sandbox()
        try:
            with pytest.raises(RconUnavailable) as bad:
                await RconClient("127.0.0.1", port, PASSWORD + "-wrong", timeout=1).connect()
            rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=0.3, max_backoff=0.1)
            await rcon.command("list")
            sb.rcon.faults.stall = True
            with pytest.raises(RconTimeout) as timed_out:
                await rcon.command("list")
            sb.rcon.faults.stall = False
            await sb.restart(downtime=0.2)
            with pytest.raises(RconUnavailable):
                await RconClient("127.0.0.1", 1, PASSWORD, timeout=0.2).connect()
            await rcon.command("list")
            await rcon.close()
            texts = [str(bad.value), str(timed_out.value), repr(rcon)]
            assert not any(PASSWORD in t for t in texts)
        finally:
            await sb.stop()

    asyncio.run(main())
    assert caplog.records  # something was logged at all
    for record in caplog.records:
        assert PASSWORD not in record.getMessage()
        assert PASSWORD not in (record.exc_text or "")
