"""MSMP client against the sandbox's MSMP server over real loopback websockets (``docs/minecraft.md#msmp``; schema
2.0.0)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from bridge.errors import ClientMessageError, MsmpAuthError, MsmpError, MsmpUnavailable
from bridge.io.msmp import JOINED, LEFT, RECONNECTED, STARTED, STOPPING, MsmpClient, check_schema
from bridge.minecraft.versions import version_named
from bridge.sandbox import Sandbox, msmp_server
from bridge.sandbox.msmp_server import schema_document
from bridge.sandbox.world import offline_uuid

SECRET = "Sx7Qp2Lm9Vb4Nc8Zr1Tk6Hf3Jd5Wg0Ya2Ue4Io7P"  # 40 characters [A-Za-z0-9], like vanilla's
assert len(SECRET) == 40


async def _sandbox() -> Sandbox:
    sb = Sandbox("rcon-pw", tick_rate=0, msmp_secret=SECRET, msmp_tls=False)  # plain ws://: the transport tests
    await sb.start()
    return sb


def _url(sb: Sandbox) -> str:
    return f"ws://127.0.0.1:{sb.msmp_port}"


async def _until(done: Callable[[], bool], timeout: float = 3.0) -> None:
    """Return once ``done()`` is true, looking every 10 ms, or after ``timeout`` seconds (the caller asserts)."""
    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        await asyncio.sleep(0.01)


class Recorder:
    """Records every event a handler gets (to check nothing is delivered twice)."""

    def __init__(self, client: MsmpClient, *events: str) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []
        for event in events:
            client.on(event, lambda params, e=event: self.seen.append((e, params)))

    async def wait(self, n: int, timeout: float = 3.0) -> None:
        end = time.monotonic() + timeout
        while len(self.seen) < n:
            assert time.monotonic() < end, f"only {self.seen}"
            await asyncio.sleep(0.01)


PUBLISHED_SCHEMA_SHA256 = "0c9cdf50c29b31e21e1bcb2db771d330c766bf96c57c05e92592e99ae766dbaa"
"""sha256 of ``schema.json`` in github.com/Xaeroxe/mc-rpc (commit 265fb67): the 2.0.0 document a live 1.21.11
server returned to ``rpc.discover`` (``docs/minecraft.md#msmp``)."""


def test_shipped_schema_is_the_published_one() -> None:
    path = Path(msmp_server.__file__).with_name(msmp_server.SCHEMA_FILE)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == PUBLISHED_SCHEMA_SHA256
    assert schema_document()["info"]["version"] == "2.0.0"
    assert schema_document()["info"]["title"] == "Minecraft Server JSON-RPC"


def test_discover_players_and_both_param_forms() -> None:
    async def main() -> None:
        sb = await _sandbox()
        sb.world.join("Alice")
        try:
            async with MsmpClient(_url(sb), SECRET, timeout=2) as client:
                assert client.version == "2.0.0" and not client.tls
                assert client.discovered["info"]["title"] == "Minecraft Server JSON-RPC"
                assert await client.call("minecraft:players") == [{"id": offline_uuid("Alice"), "name": "Alice"}]
                assert set(client.players) == {"Alice"}
                # by-name form
                rule = {"key": "send_command_feedback", "value": False}
                assert await client.call("minecraft:gamerules/update", {"gamerule": rule}) == {
                    "key": "minecraft:send_command_feedback",
                    "type": "boolean",
                    "value": False,
                }
                # positional (array) form
                rule = {"key": "log_admin_commands", "value": False}
                assert (await client.call("minecraft:gamerules/update", [rule]))["value"] is False
                rules = {r["key"]: r["value"] for r in await client.call("minecraft:gamerules")}
                assert rules["minecraft:send_command_feedback"] is False
                assert rules["minecraft:log_admin_commands"] is False
                assert sb.world.gamerules["send_command_feedback"] == "false"
                assert [r["params"] for r in sb.msmp.requests if r["method"] == "minecraft:gamerules/update"] == [
                    {"gamerule": {"key": "send_command_feedback", "value": False}},
                    [{"key": "log_admin_commands", "value": False}],
                ]
                status = await client.call("minecraft:server/status")
                assert status["started"] is True and status["players"][0]["name"] == "Alice"
        finally:
            await sb.stop()

    asyncio.run(main())


def test_errors_unknown_method_bad_params() -> None:
    async def main() -> None:
        sb = await _sandbox()
        try:
            async with MsmpClient(_url(sb), SECRET, timeout=2) as client:
                with pytest.raises(MsmpError) as info:
                    await client.call("minecraft:chat/send", ["hi"])
                assert info.value.code == -32601
                with pytest.raises(MsmpError) as info:
                    await client.call("minecraft:gamerules/update", {"rule": 1})
                assert info.value.code == -32602
                with pytest.raises(MsmpError) as info:
                    await client.call("minecraft:gamerules/update", [{"key": 5, "value": "x"}])
                assert info.value.code == -32602
                assert await client.call("minecraft:players") == []  # still fine
        finally:
            await sb.stop()

    asyncio.run(main())


def test_result_not_fitting_the_declared_schema_is_rejected() -> None:
    doc = schema_document()
    players = next(m for m in doc["methods"] if m["name"] == "minecraft:players")["result"]["schema"]
    check_schema([{"id": "u", "name": "Alice"}], players, doc)
    with pytest.raises(ClientMessageError, match=r"result\[0\]\.name"):
        check_schema([{"id": "u", "name": 7}], players, doc)
    with pytest.raises(ClientMessageError, match="expected array"):
        check_schema({"name": "x"}, players, doc)
    rule = next(m for m in doc["methods"] if m["name"] == "minecraft:gamerules")["result"]["schema"]
    with pytest.raises(ClientMessageError, match="not one of"):
        check_schema([{"key": "k", "type": "float", "value": 1}], rule, doc)


def test_bad_secret_is_refused_with_401_before_the_upgrade(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = SECRET[::-1]

    async def main() -> None:
        sb = await _sandbox()
        try:
            t0 = time.monotonic()
            client = MsmpClient(_url(sb), wrong, timeout=2)
            with pytest.raises(MsmpAuthError, match="401") as info:
                await client.start()
            assert time.monotonic() - t0 < 1.0  # not retried
            assert wrong not in str(info.value) and wrong not in repr(client)
            with pytest.raises(InvalidStatus) as raw:
                await connect(_url(sb))  # no Authorization header at all
            assert raw.value.response.status_code == 401
            assert json.loads(raw.value.response.body)["error"] == "Unauthorized"
            assert sb.msmp.rejected == 2 and sb.msmp.connections == 0
            async with MsmpClient(_url(sb), SECRET, timeout=2) as ok:
                assert ok.version == "2.0.0"
        finally:
            await sb.stop()

    asyncio.run(main())
    assert any("Authorization" in r.getMessage() for r in caplog.records)  # the header was logged, redacted
    for record in caplog.records:
        assert SECRET not in record.getMessage() and wrong not in record.getMessage()


@pytest.mark.parametrize("form", ["array", "object"])
def test_notifications_joined_left_started_stopping(form: str) -> None:
    async def main() -> None:
        sb = await _sandbox()
        sb.msmp.notification_form = form
        try:
            client = MsmpClient(_url(sb), SECRET, timeout=2)
            rec = Recorder(client, JOINED, LEFT, STARTED, STOPPING)
            await client.start()
            sb.world.join("Alice")
            sb.world.join("Bob")
            sb.world.leave("Alice")
            sb.msmp.notify("server/started", {})
            await rec.wait(4)
            assert rec.seen == [
                (JOINED, {"player": {"id": offline_uuid("Alice"), "name": "Alice"}}),
                (JOINED, {"player": {"id": offline_uuid("Bob"), "name": "Bob"}}),
                (LEFT, {"player": {"id": offline_uuid("Alice"), "name": "Alice"}}),
                (STARTED, {}),
            ]
            assert set(client.players) == {"Bob"}
            await sb.msmp.stop()  # the server says it is stopping, then goes
            await rec.wait(5)
            assert rec.seen[4] == (STOPPING, {})
            await client.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_reconnect_recovers_missed_events_and_never_binds_handlers_twice() -> None:
    async def main() -> None:
        sb = await _sandbox()
        for n in ("Alice", "Bob"):
            sb.world.join(n)
        try:
            client = MsmpClient(_url(sb), SECRET, timeout=2, max_backoff=0.2)
            rec = Recorder(client, JOINED, LEFT, RECONNECTED)
            await client.start()
            host, port, mport = sb.host, sb.port, sb.msmp_port
            await sb.stop()
            # while the client is disconnected: Bob leaves, Carol joins (no one is told)
            sb.world.leave("Bob")
            sb.world.join("Carol")
            await _until(lambda: not client.is_connected)  # the client has seen the connection close
            assert not client.is_connected
            await sb.start(host, port, mport)
            await rec.wait(3)
            assert rec.seen == [
                (LEFT, {"player": {"id": offline_uuid("Bob"), "name": "Bob"}, "synthetic": True}),
                (JOINED, {"player": {"id": offline_uuid("Carol"), "name": "Carol"}, "synthetic": True}),
                (RECONNECTED, {"players": [{"id": offline_uuid(n), "name": n} for n in ("Alice", "Carol")]}),
            ]
            assert client.connections == 2 and set(client.players) == {"Alice", "Carol"}
            # a second restart, then a live event: delivered exactly once
            await sb.restart(downtime=0.1)
            await rec.wait(4)
            sb.world.join("Dave")
            await rec.wait(5)
            await asyncio.sleep(0.1)
            counts = Counter((e, p.get("player", {}).get("name")) for e, p in rec.seen)
            assert counts[(JOINED, "Dave")] == 1 and counts[(RECONNECTED, None)] == 2
            assert max(counts.values()) <= 2
            assert client.connections == 3
            await client.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_half_open_connection_is_detected_by_ping_timeout() -> None:
    async def main() -> None:
        sb = await _sandbox()
        try:
            client = MsmpClient(_url(sb), SECRET, timeout=2, ping_interval=0.2, ping_timeout=0.3, max_backoff=0.2)
            rec = Recorder(client, JOINED, RECONNECTED)
            await client.start()
            sb.msmp.freeze()  # TCP stays up, the server stops answering (pings included)
            t0 = time.monotonic()
            await rec.wait(1, timeout=4.0)
            assert rec.seen[0][0] == RECONNECTED
            assert time.monotonic() - t0 < 3.0
            sb.world.join("Eve")
            await rec.wait(2)
            assert rec.seen[1] == (JOINED, {"player": {"id": offline_uuid("Eve"), "name": "Eve"}})
            await client.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_calls_while_down_fail_cleanly_and_start_gives_up_within_timeout() -> None:
    async def main() -> None:
        sb = await _sandbox()
        url = _url(sb)
        await sb.stop()
        t0 = time.monotonic()
        with pytest.raises(MsmpUnavailable):
            await MsmpClient(url, SECRET, timeout=0.5).start()
        assert time.monotonic() - t0 < 1.5
        client = MsmpClient(url, SECRET, timeout=0.5)
        with pytest.raises(MsmpUnavailable):
            await client.call("minecraft:players")

    asyncio.run(main())


def test_a_handler_may_call_the_server_and_a_failing_handler_does_not_stop_others() -> None:
    async def main() -> None:
        sb = await _sandbox()
        try:
            client = MsmpClient(_url(sb), SECRET, timeout=2)
            got: list[Any] = []

            async def lookup(params: dict[str, Any]) -> None:
                got.append(await client.call("minecraft:players"))

            def broken(params: dict[str, Any]) -> None:
                raise RuntimeError("handler bug")

            client.on(JOINED, broken)
            client.on("minecraft:notification/players/joined", lookup)
            await client.start()
            sb.world.join("Alice")
            end = time.monotonic() + 3
            while not got:
                assert time.monotonic() < end
                await asyncio.sleep(0.01)
            assert got == [[{"id": offline_uuid("Alice"), "name": "Alice"}]]
            await client.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_message_without_jsonrpc_2_is_a_protocol_error_never_a_crash(caplog: pytest.LogCaptureFixture) -> None:
    """JSON-RPC 2.0 §4-§5: every message carries "jsonrpc": "2.0". A server that leaves it out (here a
    stand-in on loopback) gets its message dropped and logged; a call it answers that way fails at once."""
    from websockets.asyncio.server import serve

    doc = schema_document()

    async def server(ws: Any) -> None:
        async for raw in ws:
            request = json.loads(raw)
            method, rid = request["method"], request["id"]
            if method == "rpc.discover":
                await ws.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": doc}))
            elif method == "minecraft:players":
                await ws.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": []}))
            elif method == "minecraft:server/status":
                player = {"id": offline_uuid("Mallory"), "name": "Mallory"}
                await ws.send(json.dumps({"method": "minecraft:notification/players/joined", "params": [player]}))
                await ws.send(
                    json.dumps(
                        {"jsonrpc": "1.0", "method": "minecraft:notification/players/joined", "params": [player]}
                    )
                )
                await ws.send(json.dumps(["not", "an", "object"]))
                await ws.send(json.dumps({"jsonrpc": "2.0", "id": 999, "result": 1}))  # nobody asked
                await ws.send(json.dumps({"id": rid, "result": {"started": True, "version": {}}}))
            elif method == "minecraft:gamerules":
                alice = {"id": offline_uuid("Alice"), "name": "Alice"}
                await ws.send(
                    json.dumps({"jsonrpc": "2.0", "method": "minecraft:notification/players/joined", "params": [alice]})
                )
                await ws.send(json.dumps({"jsonrpc": "2.0", "id": rid, "result": []}))

    async def main() -> None:
        async with serve(server, "127.0.0.1", 0) as srv:
            port = srv.sockets[0].getsockname()[1]
            async with MsmpClient(f"ws://127.0.0.1:{port}", SECRET, timeout=30) as client:
                joined: list[str] = []
                client.on(JOINED, lambda params: joined.append(params["player"]["name"]))
                with pytest.raises(ClientMessageError, match='minecraft:server/status.*"jsonrpc": "2.0"'):
                    await client.call("minecraft:server/status")
                assert await client.call("minecraft:gamerules") == []  # the connection carries on
                await _until(lambda: bool(joined), timeout=1.0)
                assert joined == ["Alice"] and set(client.players) == {"Alice"}
                assert client.is_connected and client.connections == 1

    caplog.set_level(logging.WARNING, logger="bridge.io.msmp")
    asyncio.run(main())
    warnings = [r.getMessage() for r in caplog.records if r.name == "bridge.io.msmp"]
    assert sum("notification without" in w for w in warnings) == 2
    assert any("not a JSON-RPC object" in w for w in warnings)
    assert any("minecraft:server/status without" in w for w in warnings)
    assert not any("Mallory" in w for w in warnings)


# -- MSMP 3.x: the socket answers before the game has started (bridge/io/msmp.py house rule 8) ----------------


async def _starting(name: str, delay: float, **kw: Any) -> Sandbox:
    sb = Sandbox(
        "rcon-pw",
        tick_rate=0,
        msmp_secret=SECRET,
        msmp_tls=False,
        datapack=False,
        version=version_named(name),
        startup_delay=delay,
        **kw,
    )
    await sb.start()
    return sb


@pytest.mark.parametrize("name", ["26.2", "26.3"])
def test_a_3x_client_waits_for_the_game_to_start_before_calling_methods(name: str) -> None:
    async def main() -> None:
        sb = await _starting(name, 0.6)
        try:
            began = time.monotonic()
            client = MsmpClient(_url(sb), SECRET, timeout=2)
            await client.start()
            assert time.monotonic() - began >= 0.5 and client.started and client.major == 3
            methods = [r["method"] for r in sb.msmp.requests]
            assert methods[0] == "rpc.discover" and methods[1] == "minecraft:server/status"
            # every call before the start was refused with -32600 and retried; the player list came after it
            assert methods.index("minecraft:players") > methods.index("minecraft:server/status")
            assert (await client.call("minecraft:server/status"))["started"] is True
            await client.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_2x_client_does_not_wait() -> None:
    async def main() -> None:
        sb = await _sandbox()
        try:
            async with MsmpClient(_url(sb), SECRET, timeout=2) as client:
                assert client.started and client.version == "2.0.0"
                assert "minecraft:server/status" not in [r["method"] for r in sb.msmp.requests]
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_server_that_never_starts_is_unavailable_after_the_startup_timeout() -> None:
    async def main() -> None:
        sb = await _starting("26.2", 30.0)
        try:
            client = MsmpClient(_url(sb), SECRET, timeout=0.5, startup_timeout=0.4)
            with pytest.raises(MsmpUnavailable, match="has not started within 0.4 s"):
                await client.start()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_world_upgrade_progress_is_shown_to_the_operator(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        sb = await _starting("26.3", 0.5, upgrade_world=True)
        try:
            with caplog.at_level(logging.INFO, logger="bridge.io.msmp"):
                async with MsmpClient(_url(sb), SECRET, timeout=2) as client:
                    assert client.upgrade == {"state": "finished"} and client.started
        finally:
            await sb.stop()

    asyncio.run(main())
    said = [r.getMessage() for r in caplog.records if r.name == "bridge.io.msmp"]
    upgrade = [m for m in said if m.startswith("world upgrade")]
    assert upgrade == [
        "world upgrade started",
        "world upgrade: 25 % done",
        "world upgrade: 50 % done",
        "world upgrade: 75 % done",
        "world upgrade: 100 % done",
        "world upgrade finished",
    ]


def test_a_failed_world_upgrade_is_logged_as_an_error(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        sb = await _starting("26.3", 30.0)
        try:
            # short timeouts: the server never starts, and start() tries again within ``timeout`` before it gives up
            client = MsmpClient(_url(sb), SECRET, timeout=1, startup_timeout=0.4)
            starting = asyncio.create_task(client.start())
            await _until(lambda: client.is_connected)  # connected: the notification reaches the client
            sb.msmp.notify("world/upgrade_failed", {"reason": "chunk 3,4 is corrupt"})
            with pytest.raises(MsmpUnavailable):
                await starting
            assert client.upgrade == {"state": "failed", "reason": "chunk 3,4 is corrupt"}
        finally:
            await sb.stop()

    with caplog.at_level(logging.INFO, logger="bridge.io.msmp"):
        asyncio.run(main())
    assert any(r.levelno == logging.ERROR and "chunk 3,4 is corrupt" in r.getMessage() for r in caplog.records)


def test_an_unknown_notification_is_ignored_and_logged_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        sb = await _sandbox()
        try:
            async with MsmpClient(_url(sb), SECRET, timeout=2) as client:
                with caplog.at_level(logging.DEBUG, logger="bridge.io.msmp"):
                    sb.msmp.notify("castle/not_a_notification", {"x": 1})
                    await _until(
                        lambda: any("castle/not_a_notification" in r.getMessage() for r in caplog.records), timeout=1.0
                    )
                assert isinstance(await client.call("minecraft:players"), list)  # the connection carries on
        finally:
            await sb.stop()

    asyncio.run(main())
    hits = [r for r in caplog.records if "castle/not_a_notification" in r.getMessage()]
    assert hits and all(r.levelno == logging.DEBUG for r in hits)


def test_after_a_3x_restart_the_client_waits_again_and_calls_fail_fast_meanwhile() -> None:
    async def main() -> None:
        sb = await _starting("26.2", 0.4)
        try:
            client = MsmpClient(_url(sb), SECRET, timeout=2, max_backoff=0.2)
            await client.start()
            await sb.restart(downtime=0.3)  # the game starts 0.4 s after the socket is back
            began = time.monotonic()
            with pytest.raises(MsmpUnavailable):
                await client.call("minecraft:players")  # not connected (or starting): never a 10-minute wait
            assert time.monotonic() - began < 1.5
            await _until(lambda: client.connections == 2)
            assert client.connections == 2 and client.started and sb.msmp.started
            assert isinstance(await client.call("minecraft:players"), list)
            await client.close()
        finally:
            await sb.stop()

    asyncio.run(main())
