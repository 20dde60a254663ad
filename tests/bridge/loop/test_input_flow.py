"""Input end to end through the real data pack in the sandbox: dialogs and triggers → tick function → queue with
UUIDs → the service → the engine. Exactly once across a crash; host controls only from hosts."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from bridge.config.castle import default_castle
from bridge.errors import RconUnavailable
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.queue import parse_queue
from bridge.loop.service import SeriesService
from bridge.sandbox import Sandbox
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import Settings

PASSWORD = "pw-input-flow"
CONTESTANTS = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor")
HOST = "Hosty"
SETTINGS = Settings(contestants=CONTESTANTS, traitors=1, hosts=(HOST,), powers=False)


class CrashOnce:
    """The real loopback RCON client, except that one chosen command "crashes" the bridge once.

    ``when="before"`` raises before sending it (the server never sees it); ``"after"`` sends it and raises
    instead of returning the reply (the server did it, the bridge never learns).
    """

    def __init__(self, rcon: RconClient, prefix: str, when: str) -> None:
        self.rcon, self.prefix, self.when, self.armed = rcon, prefix, when, False

    @property
    def logins(self) -> int:
        """Logins so far (the service re-syncs the world after a reconnect)."""
        return self.rcon.logins

    async def command(self, text: str) -> str:
        if self.armed and text.startswith(self.prefix):
            self.armed = False
            if self.when == "after":
                await self.rcon.command(text)
            raise RconUnavailable("simulated crash")
        return await self.rcon.command(text)


Body = Callable[[Sandbox, RconClient, SeriesService], Awaitable[None]]


def run_series(body: Body) -> None:
    """A sandbox with the data pack (manual ticks), the cast and the host online, a started service."""

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*CONTESTANTS, HOST):
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                service = SeriesService(Game(SETTINGS, seed=5), rcon, default_castle())
                await service.start()
                await body(sb, rcon, service)
                assert sb.world.errors == []
                assert service.failed_commands == []
                service.phase_clock.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def chat_texts(sb: Sandbox, name: str) -> list[str]:
    return [m.text for m in sb.world.player(name).chat]


async def queue(rcon: RconClient) -> list[dict]:
    return parse_queue(await rcon.command("data get storage traitors:io queue"))


def test_a_trigger_reaches_the_engine_once_with_the_uuid_resolved() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        assert service.game.phase is Phase.DAY_ZERO
        sb.world.tick()
        assert sb.world.press_trigger(HOST, "traitors.host", 1).startswith("Triggered")
        sb.world.tick()
        (entry,) = await queue(rcon)
        assert entry["input"] == "host" and len(entry["uuid"]) == 4
        assert await service.poll_once() == 1
        assert service.game.phase is Phase.OATH  # day zero ended: the night's Oath
        assert service.players.name_for(entry["uuid"]) == HOST  # learnt from RCON "list uuids"
        assert await queue(rcon) == []
        assert await service.poll_once() == 0

    run_series(body)


def test_a_crash_between_reading_and_acking_loses_and_repeats_nothing() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        sb.world.tick()
        sb.world.press_trigger(HOST, "traitors.host", 1)
        sb.world.tick()
        crashing = CrashOnce(rcon, "data remove storage traitors:io queue", when="before")
        service.rcon = crashing  # type: ignore[assignment]
        crashing.armed = True
        try:
            await service.poll_once()
        except RconUnavailable:
            pass
        else:
            raise AssertionError("the ack should have crashed")
        applied = len(service.game.log)
        assert service.game.phase is Phase.OATH and len(await queue(rcon)) == 1  # applied, not acked
        # restart: the game is rebuilt from its log, last_seq comes from where the log is stored
        restarted = SeriesService(
            Game.replay(SETTINGS, 5, service.game.log),
            rcon,
            default_castle(),
            last_seq=service.last_seq,
            players=PlayerDirectory(),
        )
        assert await restarted.poll_once() == 0  # seen again: acked, not applied again
        assert len(restarted.game.log) == applied and restarted.game.phase is Phase.OATH
        assert await queue(rcon) == []

    run_series(body)


def test_a_crash_after_reading_before_applying_loses_nothing() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        sb.world.tick()
        sb.world.press_trigger(HOST, "traitors.host", 1)
        sb.world.tick()
        before = len(service.game.log)
        crashing = CrashOnce(rcon, "data get storage traitors:io queue", when="after")
        service.rcon = crashing  # type: ignore[assignment]
        crashing.armed = True
        with contextlib.suppress(RconUnavailable):
            await service.poll_once()
        assert len(service.game.log) == before and service.game.phase is Phase.DAY_ZERO
        restarted = SeriesService(
            Game.replay(SETTINGS, 5, service.game.log),
            rcon,
            default_castle(),
            last_seq=service.last_seq,
        )
        assert await restarted.poll_once() == 1
        assert restarted.game.phase is Phase.OATH and len(restarted.game.log) == before + 1
        assert await restarted.poll_once() == 0

    run_series(body)


def test_a_non_host_pressing_the_host_trigger_changes_nothing() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        log_before = list(service.game.log)
        sb.world.tick()
        for value in (1, 3, 8):
            assert sb.world.press_trigger("Alex", "traitors.host", value).startswith("Triggered")
            sb.world.tick()
            await service.poll_once()
        sb.world.press_trigger("Alex", "traitors.console")
        sb.world.tick()
        await service.poll_once()
        assert service.game.log == log_before and service.game.phase is Phase.DAY_ZERO
        told = [t for t in chat_texts(sb, "Alex") if t.endswith("Only the host can do that.")]
        assert len(told) == 4
        assert sb.world.player("Alex").dialog is None  # no console for a contestant
        assert not any("Only the host" in t for n in CONTESTANTS[1:] for t in chat_texts(sb, n))

    run_series(body)


def test_the_host_console_dialog_and_its_controls() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        world = sb.world
        world.tick()
        world.press_trigger(HOST, "traitors.console")
        world.tick()
        await service.poll_once()
        console = world.player(HOST).dialog
        assert console is not None and console["title"]["translate"] == "traitors.console.title"
        labels = [a["label"]["fallback"] for a in console["actions"]]
        assert labels[:3] == ["Start the day / move on", "Open the round table", "Open the vote"]
        # "open the vote" during day zero: wrong phase, nothing changes
        world.click_dialog(HOST, 2)
        world.tick()
        await service.poll_once()
        assert service.game.phase is Phase.DAY_ZERO
        assert chat_texts(sb, HOST)[-1].endswith("You can't do that now.")
        # start a twist: the host is shown the list of twists (the engine checks the chosen one)
        world.press_trigger(HOST, "traitors.host", 6)
        world.tick()
        await service.poll_once()
        assert any("Start which twist?" in line for line in chat_texts(sb, HOST)[-8:])
        # move on from the console: day zero ends
        world.press_trigger(HOST, "traitors.console")
        world.tick()
        await service.poll_once()
        world.click_dialog(HOST, 0)
        world.tick()
        await service.poll_once()
        assert service.game.phase is Phase.OATH

    run_series(body)


def test_the_oath_is_sworn_through_its_dialog() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        world = sb.world
        world.tick()
        world.press_trigger(HOST, "traitors.host", 1)
        world.tick()
        await service.poll_once()
        (traitor,) = [n for n in CONTESTANTS if world.player(n).dialog is not None]
        for q in (1, 2, 3):
            dialog = world.player(traitor).dialog
            assert dialog["title"]["translate"] == "traitors.dialog.title.oath"
            assert [a["action"]["command"] for a in dialog["actions"]] == ["/trigger traitors.oath set 1"]
            assert [a["label"]["translate"] for a in dialog["actions"]] == [f"traitors.oath.answer.{q}"]
            world.click_dialog(traitor, 0)
            world.tick()
            await service.poll_once()
        assert any("Then you are now, officially, a Traitor." in t for t in chat_texts(sb, traitor))
        assert service.game.phase is Phase.OATH and service.game.legal_actions(traitor) == []  # the clock runs on
        # nobody else was shown a dialog (secrets go to one named player)
        assert all(world.player(n).dialogs == [] for n in CONTESTANTS if n != traitor)

    run_series(body)


def test_console_pause_resume_extend_undo_and_replace_through_the_castle() -> None:
    async def body(sb: Sandbox, rcon: RconClient, service: SeriesService) -> None:
        world = sb.world
        game = service.game

        async def press(player: str, objective: str, value: int | None = None) -> None:
            world.press_trigger(player, objective, value)
            world.tick()
            await service.poll_once()

        assert service.phase_clock.armed is not None
        await press(HOST, "traitors.host", 8)  # pause
        assert game.deadline is None and game.paused is not None
        assert service.phase_clock.armed is None
        assert chat_texts(sb, CONTESTANTS[0])[-1].endswith("The host has paused the clock.")
        await press(CONTESTANTS[0], "traitors.host", 9)  # not a host: refused, nothing changes
        assert game.paused is not None and chat_texts(sb, CONTESTANTS[0])[-1].endswith("Only the host can do that.")
        await press(HOST, "traitors.host", 9)  # resume
        armed = service.phase_clock.armed
        assert game.paused is None and armed == (game.phase_seq, game.deadline)
        deadline = game.deadline
        await press(HOST, "traitors.host", 11)  # add a minute
        assert game.deadline == deadline + 60
        await press(HOST, "traitors.host", 13)  # undo the extension
        assert game.deadline is not None and game.deadline < deadline + 60
        # replace: the host picks the seat, the new player opens the console and takes it
        await press(HOST, "traitors.host", 12)
        assert world.player(HOST).dialog is not None
        seat = 2
        leaver = CONTESTANTS[seat - 1]
        world.leave(leaver)
        await service.on_player_left(leaver)
        await press(HOST, "traitors.host", 100 + seat)
        world.join("Newbie")
        world.tick()  # the data pack enables the triggers of a new player on its next tick
        await press("Newbie", "traitors.console")
        assert game.contestant_of("Newbie") == leaver, (
            chat_texts(sb, HOST)[-3:],
            chat_texts(sb, "Newbie"),
            service.router.console.seat_waiting,
        )
        texts = chat_texts(sb, "Newbie")
        assert any(f"You now play for {leaver} (seat {seat})" in t for t in texts)
        assert any("Newbie now plays for" in t for t in chat_texts(sb, CONTESTANTS[0]))
        # the hand went to the new player only
        assert not any("You now play for" in t for n in CONTESTANTS if n != leaver for t in chat_texts(sb, n))
        foyer = default_castle().places.foyer  # day zero: the seat's place; the new player is put there
        assert world.player("Newbie").pos == (foyer.x, foyer.y, foyer.z)
        await press(HOST, "traitors.host", 10)  # end the series
        assert game.outcome is not None and game.outcome.winner.value == "nobody"

    run_series(body)
