"""The allowlist, operators, bans and IP bans over MSMP, as vanilla answers them (``bridge/sandbox/msmp/lists.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from bridge.errors import MsmpError
from bridge.io.msmp import MsmpClient
from bridge.sandbox import Sandbox
from bridge.sandbox.msmp.lists import BAN_REASON, BAN_SOURCE
from bridge.sandbox.uuids import offline_uuid
from tests.bridge.sandbox.msmp.conftest import run, settle


def _p(name: str) -> dict[str, str]:
    return {"id": offline_uuid(name), "name": name}


def test_allowlist_add_remove_set_clear_answer_the_whole_list_and_notify() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        assert await client.call("minecraft:allowlist") == []
        assert await client.call("minecraft:allowlist/add", [[{"name": "Alice"}, {"name": "Bob"}]]) == [
            _p("Alice"),
            _p("Bob"),
        ]
        # by id: a known profile; an unknown id or a bad name is skipped, as a failed profile lookup is
        assert await client.call("minecraft:allowlist/remove", [[{"id": offline_uuid("Bob")}]]) == [_p("Alice")]
        assert await client.call("minecraft:allowlist/add", [[{"id": "0000"}, {"name": "a b"}]]) == [_p("Alice")]
        assert await client.call("minecraft:allowlist/set", [[{"name": "Cara"}]]) == [_p("Cara")]
        assert await client.call("minecraft:allowlist/clear") == []
        await settle()
        assert notes == [
            ("allowlist/added", {"player": _p("Alice")}),
            ("allowlist/added", {"player": _p("Bob")}),
            ("allowlist/removed", {"player": _p("Bob")}),
            ("allowlist/removed", {"player": _p("Alice")}),
            ("allowlist/added", {"player": _p("Cara")}),
            ("allowlist/removed", {"player": _p("Cara")}),
        ]

    run(body)


def test_an_enforced_allowlist_disconnects_players_taken_off_it() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        await client.call("minecraft:allowlist/set", [[{"name": "Alice"}, {"name": "Bob"}]])
        assert await client.call("minecraft:serversettings/use_allowlist/set", [True]) is True
        assert await client.call("minecraft:serversettings/enforce_allowlist/set", [True]) is True
        await client.call("minecraft:allowlist/remove", [[{"name": "Bob"}]])
        assert set(sb.world.players) == {"Alice"}

    run(body, "Alice", "Bob")


def test_operators_take_the_default_level_and_refuse_a_level_over_4() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        alice = {"player": _p("Alice"), "permissionLevel": 4, "bypassesPlayerLimit": False}
        assert await client.call("minecraft:operators/add", [[{"player": {"name": "Alice"}}]]) == [alice]
        bob = {"player": _p("Bob"), "permissionLevel": 2, "bypassesPlayerLimit": True}
        got = await client.call(
            "minecraft:operators/add",
            [[{"player": {"name": "Bob"}, "permissionLevel": 2, "bypassesPlayerLimit": True}]],
        )
        assert got == [alice, bob]
        with pytest.raises(MsmpError) as info:
            await client.call("minecraft:operators/add", [[{"player": {"name": "Cara"}, "permissionLevel": 5}]])
        assert info.value.code == -32602
        assert await client.call("minecraft:operators/remove", [[{"name": "Alice"}]]) == [bob]
        assert await client.call("minecraft:operators/set", [[alice]]) == [alice]
        assert await client.call("minecraft:operators/clear") == []
        await settle()
        assert [n[0] for n in notes] == [
            "operators/added",
            "operators/added",
            "operators/removed",
            "operators/removed",
            "operators/added",
            "operators/removed",
        ]
        assert notes[0][1] == {"player": alice}

    run(body)


def test_a_ban_disconnects_the_player_and_fills_in_vanillas_reason_and_source() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        got = await client.call("minecraft:bans/add", [[{"player": {"name": "Alice"}}]])
        assert got == [{"player": _p("Alice"), "reason": BAN_REASON, "source": BAN_SOURCE}]
        assert "Alice" not in sb.world.players and "Bob" in sb.world.players
        ban = {
            "player": {"name": "Bob"},
            "reason": "griefing",
            "source": "host",
            "expires": "2027-01-01 00:00:00 +0000",
        }
        got = await client.call("minecraft:bans/add", [[ban]])
        assert got[1] == {**ban, "player": _p("Bob")}
        with pytest.raises(MsmpError) as info:
            await client.call("minecraft:bans/add", [[{"player": {"name": "Cara"}, "expires": "tomorrow"}]])
        assert info.value.code == -32602
        assert [b["player"]["name"] for b in await client.call("minecraft:bans/remove", [[_p("Alice")]])] == ["Bob"]
        assert await client.call("minecraft:bans/set", [[]]) == []
        assert await client.call("minecraft:bans/clear") == []
        await settle()
        assert [n[0] for n in notes] == ["bans/added", "bans/added", "bans/removed", "bans/removed"]
        assert notes[2][1] == {"player": _p("Alice")}

    run(body, "Alice", "Bob")


def test_ip_bans_refuse_a_bad_address_and_ban_an_online_players_address() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        got = await client.call("minecraft:ip_bans/add", [[{"ip": "203.0.113.7", "reason": "spam"}]])
        assert got == [{"ip": "203.0.113.7", "reason": "spam", "source": BAN_SOURCE}]
        with pytest.raises(MsmpError) as info:
            await client.call("minecraft:ip_bans/add", [[{"ip": "300.1.1.1"}]])
        assert info.value.code == -32602
        assert await client.call("minecraft:ip_bans/remove", [["203.0.113.7"]]) == []
        got = await client.call("minecraft:ip_bans/add", [[{"player": {"name": "Alice"}}]])
        assert [b["ip"] for b in got] == ["127.0.0.1"] and sb.world.players == {}
        assert await client.call("minecraft:ip_bans/set", [[{"ip": "::1"}]]) == [
            {"ip": "::1", "reason": BAN_REASON, "source": BAN_SOURCE}
        ]
        assert await client.call("minecraft:ip_bans/clear") == []
        await settle()
        assert ("ip_bans/removed", {"player": "203.0.113.7"}) in notes
        assert [n[0] for n in notes].count("ip_bans/added") == 3

    run(body, "Alice")


def test_a_null_field_reads_as_absent_as_vanillas_json_reader_takes_it() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        ban = {"player": {"name": "Alice", "id": None}, "reason": None, "source": None, "expires": None}
        got = await client.call("minecraft:bans/add", [[ban]])
        assert got == [{"player": _p("Alice"), "reason": BAN_REASON, "source": BAN_SOURCE}]

    run(body)
