"""The service against the sandbox over loopback RCON: inputs through triggers, illegal inputs, exactly-once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import nbtlib
import pytest

from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.queue import parse_queue
from bridge.loop.service import SeriesService
from bridge.minecraft import snbt
from bridge.sandbox import Sandbox
from engine.actions import Advance
from engine.ids import Allegiance
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings

PASSWORD = "service-test-pw"
NAMES = ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor")
HOST = "Hostess"


def make_game() -> Game:
    deal = tuple(DealEntry(n, Allegiance.TRAITOR if n == "Sunny" else Allegiance.FAITHFUL) for n in NAMES)
    settings = Settings(contestants=NAMES, hosts=(HOST,), deal=deal, powers=False)
    return Game(settings, seed=5)


Body = Callable[[Sandbox, SeriesService], Awaitable[None]]


def run_with(body: Body) -> None:
    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*NAMES, HOST):
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                service = SeriesService(make_game(), rcon, default_castle())
                await service.start()
                try:
                    await body(sb, service)
                finally:
                    await service.stop()
        finally:
            await sb.stop()

    asyncio.run(main())


async def press(sb: Sandbox, service: SeriesService, player: str, objective: str, value: int) -> str:
    """A player runs /trigger; one datapack tick queues it; the service polls and applies it."""
    feedback = sb.world.press_trigger(player, objective, value)
    sb.world.tick()
    await service.poll_once()
    return feedback


def last_private(sb: Sandbox, player: str) -> str:
    return sb.world.player(player).chat[-1].text


async def to_vote(service: SeriesService) -> None:
    while service.game.phase is not Phase.VOTE:
        if service.game.phase is Phase.OATH and service.game.legal_actions("Sunny"):  # else the clock runs on
            await service.apply(service.game.legal_actions("Sunny")[0])
            continue
        await service.apply(Advance(HOST))


def test_illegal_inputs_get_a_private_reason_and_change_nothing() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        game = service.game
        seats = service.ctx.seats
        # a vote before the vote is open
        log_before = list(game.log)
        await press(sb, service, "Kai", "traitors.vote", seats["Alex"])
        assert "The vote is not open." in last_private(sb, "Kai")
        assert game.log == log_before
        # a Traitor action from a Faithful
        await service.apply(Advance(HOST))  # day zero ends: the Oath
        await press(sb, service, "Alex", "traitors.murder", seats["Kai"])
        assert "Only the Traitors can do that." in last_private(sb, "Alex")
        # a host control from a contestant
        await press(sb, service, "Zuri", "traitors.host", 1)
        assert "Only the host can do that." in last_private(sb, "Zuri")
        await to_vote(service)
        # voting for oneself, then twice
        await press(sb, service, "Kai", "traitors.vote", seats["Kai"])
        assert "You cannot vote for yourself." in last_private(sb, "Kai")
        await press(sb, service, "Kai", "traitors.vote", seats["Efe"])
        assert "You wrote Efe on your vote paper." in last_private(sb, "Kai")
        log_before = list(game.log)
        await press(sb, service, "Kai", "traitors.vote", seats["Zuri"])
        assert "already cast your vote" in last_private(sb, "Kai")
        assert game.log == log_before
        for voter in ("Alex", "Zuri", "Sunny", "Efe", "Noor"):
            await press(sb, service, voter, "traitors.vote", seats["Efe" if voter != "Efe" else "Kai"])
        assert not game.players["Efe"].alive
        # a vote after the vote closed, and a banished contestant voting
        await press(sb, service, "Alex", "traitors.vote", seats["Kai"])
        assert "The vote is not open." in last_private(sb, "Alex")
        await press(sb, service, "Efe", "traitors.vote", seats["Kai"])
        assert "You are out of the series." in last_private(sb, "Efe")
        # nobody else heard any of it
        assert not any("already cast" in m.text for m in sb.world.player("Alex").chat)

    run_with(body)


def test_a_spectator_pressing_a_trigger_is_told_only_contestants_can() -> None:
    """Issue 21 point 7: a player who is not a contestant gets a private answer, and nothing changes."""

    async def body(sb: Sandbox, service: SeriesService) -> None:
        game = service.game
        seats = service.ctx.seats
        sb.world.join("Watcher")
        sb.world.tick()  # the data pack enables the triggers of a new player on its next tick
        await to_vote(service)
        log_before, chat_before = list(game.log), {n: len(sb.world.player(n).chat) for n in NAMES}
        for objective, value in (
            ("traitors.vote", seats["Kai"]),
            ("traitors.vote", 99),
            ("traitors.oath", 1),
            ("traitors.confess", 1),
        ):
            await press(sb, service, "Watcher", objective, value)
            assert last_private(sb, "Watcher") == "[Castle, to you] Only contestants can do that.", objective
            assert sb.world.player("Watcher").chat[-1].source == "tellraw"
        for objective, value in (
            ("traitors.host", 1),
            ("traitors.host", 8),
            ("traitors.host", 999),
            ("traitors.twist", 1),
            ("traitors.console", 1),
        ):
            await press(sb, service, "Watcher", objective, value)
            assert last_private(sb, "Watcher") == "[Castle, to you] Only the host can do that.", (objective, value)
        assert game.log == log_before and service.last_seq > 0
        assert {n: len(sb.world.player(n).chat) for n in NAMES} == chat_before  # nobody else heard it
        assert service.failed_commands == []

    run_with(body)


def test_vote_for_the_banished_is_refused() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        seats = service.ctx.seats
        await to_vote(service)
        for voter in NAMES:
            await press(sb, service, voter, "traitors.vote", seats["Noor" if voter != "Noor" else "Kai"])
        while service.game.phase is not Phase.VOTE:
            await service.apply(Advance(HOST))
        log_before = list(service.game.log)
        await press(sb, service, "Kai", "traitors.vote", seats["Noor"])
        assert "Noor is not someone you can vote for." in last_private(sb, "Kai")
        assert service.game.log == log_before

    run_with(body)


def test_each_queued_input_is_applied_once_even_if_the_ack_is_lost() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to_vote(service)
        sb.world.press_trigger("Kai", "traitors.vote", service.ctx.seats["Alex"])
        sb.world.tick()
        reply = await service.rcon.command("data get storage traitors:io queue")
        entries = parse_queue(reply)
        assert [e["input"] for e in entries] == ["vote"]
        assert await service.player_of(entries[0]) == "Kai"  # the entry carries Kai's UUID
        # apply without acking, as if the service died between applying and acking
        await service.apply_entry(entries[0])
        assert service.last_seq == entries[0]["seq"]
        votes_before = dict(service.game.ballot.votes)
        assert await service.poll_once() == 0  # seen again: acked, not applied twice
        assert service.game.ballot.votes == votes_before == {"Kai": "Alex"}
        assert parse_queue(await service.rcon.command("data get storage traitors:io queue")) == []

    run_with(body)


def test_setup_enables_every_trigger_and_items_arrive() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to_vote(service)
        for name in NAMES:
            assert sb.world.player(name).count_items("vote_paper") == 1
        assert sb.world.player("Alex").count_items("notes_book") == 1
        bar = sb.world.bossbars["traitors:clock"]
        assert bar.visible and bar.max == 120

    run_with(body)


def test_setup_is_one_data_pack_call_or_command_by_command_without_the_function() -> None:
    from bridge.minecraft.render import RenderContext, setup_commands
    from bridge.minecraft.triggers import TRIGGERS

    async def main(datapack: bool) -> list[str]:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=datapack)
        port = await sb.start()
        sb.world.join("Alex")
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                service = SeriesService(make_game(), rcon, default_castle())
                await service.setup()
                assert set(TRIGGERS) <= set(sb.world.objectives) and "traitors:clock" in sb.world.bossbars
                assert ("Alex", "traitors.vote") in sb.world.unlocked and service.failed_commands == []
                return [r.text for r in sb.world.command_log]
        finally:
            await sb.stop()

    assert asyncio.run(main(True)) == ["function traitors:setup"]
    one_by_one = [c.text for c in setup_commands(RenderContext(default_castle(), {}))]
    assert asyncio.run(main(False)) == ["function traitors:setup", *one_by_one]


def test_an_unreadable_queue_entry_is_removed_and_blocks_nothing() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to_vote(service)
        sb.world.press_trigger("Kai", "traitors.vote", service.ctx.seats["Alex"])
        sb.world.tick()
        # An entry written by hand, nested deeper than the service's reader takes, between two real votes.
        deep = nbtlib.List([])
        for _ in range(300):
            deep = nbtlib.List([deep])
        sb.world.storage["traitors:io"]["queue"].append(nbtlib.Compound({"seq": nbtlib.Int(900), "junk": deep}))
        sb.world.press_trigger("Zuri", "traitors.vote", service.ctx.seats["Alex"])
        sb.world.tick()
        reply = await service.rcon.command("data get storage traitors:io queue")
        with pytest.raises(snbt.SnbtError):
            parse_queue(reply)
        taken = [await service.poll_once() for _ in range(4)]
        assert sum(taken) == 2
        assert service.game.ballot is not None and service.game.ballot.votes == {"Kai": "Alex", "Zuri": "Alex"}
        assert parse_queue(await service.rcon.command("data get storage traitors:io queue")) == []

    run_with(body)


def test_step_listeners_see_every_step_and_a_failing_one_stops_nothing() -> None:
    """``add_listener`` (house rule 13): each step's effects, with the state after it; a listener that raises is
    logged and the input is still applied and sent."""

    async def body(sb: Sandbox, service: SeriesService) -> None:
        seen: list[tuple[str, int]] = []

        def broken(effects: object) -> None:
            raise RuntimeError("a page's bug")

        service.add_listener(broken)
        service.add_listener(lambda effects: seen.append((service.game.phase.value, len(effects))))  # type: ignore[union-attr, arg-type]
        await service.apply(Advance(HOST))
        assert seen and seen[-1][0] == service.game.phase.value and seen[-1][1] > 0  # type: ignore[union-attr]
        await press(sb, service, "Alex", "traitors.vote", 2)  # refused now: the private reason is a step too
        assert len(seen) == 2 and seen[-1][1] == 1 and last_private(sb, "Alex")

    run_with(body)
