"""The service re-syncs the castle from the engine's state after a server restart (service house rule 7)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.service import SeriesService
from bridge.minecraft.render import CLOCK_BAR
from bridge.sandbox import Sandbox
from engine.actions import Advance
from engine.ids import Place
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import Settings

PASSWORD = "resync-Pw-1"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")


def _held(sb: Sandbox, name: str) -> list[str]:
    """The castle items a player holds, sorted (their ``custom_data`` item values)."""
    out = []
    for stack in sb.world.player(name).inventory:
        tr = stack.custom_data.get("traitors")
        if isinstance(tr, dict):
            out += [str(tr["item"])] * stack.count
    return sorted(out)


def _expected(game: Game, name: str) -> list[str]:
    return sorted(item.value for item, _ in game.items.get(name, []))


def test_restart_with_lost_world_state_is_resynced_from_the_engine() -> None:
    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for n in NAMES:
            sb.world.join(n)
        now = [1000.0]
        game = Game(Settings(contestants=NAMES, traitors=1, hosts=("Host",), powers=False), seed=5)
        rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=10, max_backoff=0.1)
        service = SeriesService(game, rcon, default_castle(), clock=lambda: now[0])
        try:
            await service.start()
            while game.phase is not Phase.VOTE:  # the host moves on to day one's vote (papers handed out)
                await service.apply(Advance("Host"))
            assert all(_held(sb, n) == _expected(game, n) for n in NAMES)
            assert {"vote_paper"} <= set(_held(sb, "Kai"))
            # the server restarts and comes back with stale state (e.g. crashed before saving)
            await sb.restart()
            for p in sb.world.players.values():
                p.inventory.clear()
                p.pos = (999.5, 70.0, 999.5)
            sb.world.bossbars.clear()
            now[0] += 10
            assert await service.poll_once() == 0
            assert service.resyncs == 1 and rcon.logins == 2
            castle = default_castle()
            for n in NAMES:
                assert _held(sb, n) == _expected(game, n)
                place, seat = game.places[n]
                assert place is Place.ROUND_TABLE
                loc = castle.location(place, seat)
                assert sb.world.player(n).pos == (loc.x, loc.y, loc.z)
            bar = sb.world.bossbars[CLOCK_BAR]
            assert bar.visible and bar.players == set(NAMES)
            assert bar.value == int(game.deadline - now[0] + 0.999) and bar.name["fallback"] == "Vote"
            # in sync now: a further poll does not re-sync, and a manual re-sync never gives twice
            await service.poll_once()
            assert service.resyncs == 1
            await service.resync()
            assert all(_held(sb, n) == _expected(game, n) for n in NAMES)
            assert sb.world.errors == []
        finally:
            await service.stop()
            await rcon.close()
            await sb.stop()

    asyncio.run(main())


@contextlib.asynccontextmanager
async def _series_at_vote() -> AsyncIterator[tuple[Sandbox, Game, SeriesService]]:
    """A sandbox with the six contestants online and a service whose series the host moved on to day one's vote
    (ballot papers handed out)."""
    sb = Sandbox(PASSWORD, tick_rate=0)
    port = await sb.start()
    for n in NAMES:
        sb.world.join(n)
    game = Game(Settings(contestants=NAMES, traitors=1, hosts=("Host",), powers=False), seed=5)
    rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=10)
    service = SeriesService(game, rcon, default_castle(), clock=lambda: 50.0)
    try:
        await service.start()
        while game.phase is not Phase.VOTE:
            await service.apply(Advance("Host"))
        yield sb, game, service
    finally:
        await service.stop()
        await rcon.close()
        await sb.stop()


def test_returning_contestant_is_back_in_and_resynced() -> None:
    async def main() -> None:
        async with _series_at_vote() as (sb, game, service):
            sb.world.leave("Kai")
            await service.on_player_left("Kai")
            await service.on_player_left("Stranger")  # not a contestant: ignored
            assert not game.players["Kai"].present
            sb.world.join("Kai")
            sb.world.player("Kai").inventory.clear()
            await service.on_player_joined("Kai")
            assert game.players["Kai"].present
            assert _held(sb, "Kai") == _expected(game, "Kai")
            chat = [m.text for m in sb.world.player("Kai").chat]
            # the open vote, offered again: its question, then a clickable line per candidate
            asked = max(i for i, line in enumerate(chat) if line.startswith("[Castle, to you] Who do you banish?"))
            welcomed = max(i for i, line in enumerate(chat) if "Welcome back" in line)
            assert asked > welcomed

    asyncio.run(main())


def test_msmp_leave_and_join_reach_the_engine_through_the_service() -> None:
    from bridge.io.msmp import MsmpClient

    secret = "A" * 40

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=secret, msmp_tls=False)
        port = await sb.start()
        for n in NAMES:
            sb.world.join(n)
        game = Game(Settings(contestants=NAMES, traitors=1, hosts=("Host",), powers=False), seed=5)
        rcon = RconClient("127.0.0.1", port, PASSWORD, timeout=10)
        msmp = MsmpClient(f"ws://127.0.0.1:{sb.msmp_port}", secret, timeout=10)
        service = SeriesService(game, rcon, default_castle(), clock=lambda: 50.0)
        service.attach_msmp(msmp)
        try:
            await msmp.start()
            await service.start()
            sb.world.leave("Zuri")
            for _ in range(300):
                if not game.players["Zuri"].present:
                    break
                await asyncio.sleep(0.01)
            assert not game.players["Zuri"].present
            sb.world.join("Zuri")
            for _ in range(300):
                if game.players["Zuri"].present:
                    break
                await asyncio.sleep(0.01)
            assert game.players["Zuri"].present
            assert [e["action"] for e in game.log[-2:]] == ["contestant_left", "contestant_returned"]
        finally:
            await msmp.close()
            await service.stop()
            await rcon.close()
            await sb.stop()

    asyncio.run(main())


def test_a_resync_reads_inventories_and_gives_only_what_is_missing() -> None:
    """Items seen in a player's inventory are not given again; the rest still go through ``give_once``."""

    async def main() -> None:
        async with _series_at_vote() as (sb, game, service):
            holders = [n for n in NAMES if _expected(game, n)]
            assert "Kai" in holders
            kai = sb.world.player("Kai")
            lost = kai.inventory.pop()  # Kai lost one item (a rollback); everyone else holds theirs
            before = len(sb.world.command_log)
            await service.resync()
            sent = [r.text for r in sb.world.command_log[before:]]
            assert sorted(t.split()[3] for t in sent if t.startswith("data get entity")) == sorted(holders)
            gives = [t for t in sent if t.startswith("execute unless items")]
            assert len(gives) == 1 and lost.custom_data["traitors"]["give"] in gives[0]
            assert all(_held(sb, n) == _expected(game, n) for n in NAMES)
            # a player the server does not know (offline): every item through give_once, nothing twice
            sb.world.leave("Kai")
            before = len(sb.world.command_log)
            await service.resync(["Kai"])
            sent = [r.text for r in sb.world.command_log[before:]]
            assert sum(t.startswith("execute unless items") for t in sent) == len(_expected(game, "Kai"))
            sb.world.join("Kai")
            assert _held(sb, "Kai") == _expected(game, "Kai") and sb.world.errors == []

    asyncio.run(main())


def _papers(sb: Sandbox, name: str) -> list[dict[str, object]]:
    """The components of every vote paper ``name`` holds."""
    out = []
    for stack in sb.world.player(name).inventory:
        tr = stack.custom_data.get("traitors")
        if isinstance(tr, dict) and tr.get("item") == "vote_paper":
            out += [stack.components] * stack.count
    return out


def test_resync_gives_only_what_is_missing_and_clears_nothing() -> None:
    """``docs/recovery.md`` step 4 and ``docs/operator.md``: after a restart an item is given back only to a
    contestant who lacks it, and nothing is cleared (a paper with a name written on it stays as it is)."""

    async def main() -> None:
        async with _series_at_vote() as (sb, game, service):
            (kai_paper,) = _papers(sb, "Kai")
            kai_paper["minecraft:custom_name"] = {"text": "Zuri"}
            zuri = sb.world.player("Zuri").inventory
            zuri[:] = [s for s in zuri if s.custom_data.get("traitors", {}).get("item") != "vote_paper"]
            await sb.restart()
            sent_before = len(sb.world.command_log)
            await service.poll_once()
            assert service.resyncs == 1
            resync = [r.text for r in sb.world.command_log[sent_before:]]
            assert not [c for c in resync if c.startswith("clear ") or " run clear " in c], resync
            assert _papers(sb, "Kai") == [kai_paper] and len(_papers(sb, "Zuri")) == 1
            await service.resync()
            assert len(_papers(sb, "Kai")) == 1 and len(_papers(sb, "Zuri")) == 1
            assert sb.world.errors == []

    asyncio.run(main())
