"""Players, kicks and system messages over MSMP as vanilla handles them (``bridge/sandbox/msmp/players.py``)."""

from __future__ import annotations

from typing import Any

from bridge.io.msmp import MsmpClient
from bridge.sandbox import Sandbox
from bridge.sandbox.uuids import offline_uuid
from tests.bridge.sandbox.msmp.conftest import run


def test_an_overlay_message_goes_to_the_action_bar_not_chat() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        sent = {"message": {"literal": "Night falls"}, "overlay": True}
        assert await client.call("minecraft:server/system_message", [sent]) is True
        alice = sb.world.players["Alice"]
        assert alice.chat == [] and alice.actionbar == {"text": "Night falls"}
        assert [(s.kind, s.text) for s in alice.screen] == [("actionbar", "Night falls")]
        await client.call("minecraft:server/system_message", [{"message": {"literal": "Dawn"}}])
        assert [m.text for m in alice.chat] == ["Dawn"]

    run(body, "Alice")


def test_a_translatable_message_is_rendered_with_its_params_not_shown_as_its_key() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        message = {"translatable": "traitors.banish.result", "translatableParams": ["Alice"]}
        await client.call("minecraft:server/system_message", [{"message": message}])
        shown = sb.world.players["Alice"].chat[-1]
        assert shown.component == {"translate": "traitors.banish.result", "with": ["Alice"]}
        assert shown.text == "Alice is banished."  # the resource pack's en_us string, filled

    run(body, "Alice")


def test_a_receiver_given_only_by_uuid_gets_the_message_and_no_one_else() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        sent = {"message": {"literal": "psst"}, "receivingPlayers": [{"id": offline_uuid("Bob")}]}
        assert await client.call("minecraft:server/system_message", [sent]) is True
        assert [m.text for m in sb.world.players["Bob"].chat] == ["psst"]
        assert sb.world.players["Alice"].chat == []
        empty = {"message": {"literal": "nobody"}, "receivingPlayers": []}
        assert await client.call("minecraft:server/system_message", [empty]) is False
        assert await client.call("minecraft:server/system_message", [{"overlay": True}]) is False

    run(body, "Alice", "Bob")


def test_kicking_by_uuid_kicks_that_player() -> None:
    async def body(sb: Sandbox, client: MsmpClient, notes: list[tuple[str, Any]]) -> None:
        bob = {"id": offline_uuid("Bob"), "name": "Bob"}
        got = await client.call("minecraft:players/kick", [[{"player": {"id": offline_uuid("Bob")}}]])
        assert got == [bob]
        assert set(sb.world.players) == {"Alice"}
        assert await client.call("minecraft:players/kick", [[{"player": {"id": offline_uuid("Nobody")}}]]) == []

    run(body, "Alice", "Bob")
