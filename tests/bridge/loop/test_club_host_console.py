"""The host console of a club series through the castle: the host presses the console's buttons in the sandbox
(data pack triggers → queue → the service → the club engine), as in a series of The Traitors (docs/host.md)."""

from __future__ import annotations

import asyncio

import pytest

from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.service import SeriesService
from bridge.sandbox import Sandbox
from engine.rulesets import new_game
from engine.rulesets.club.settings import ClubSettings

PASSWORD = "pw-club-console"
HOST = "Hosty"
DEALS = {
    "black_knights": (
        ("Alex", "courtesan"),
        ("Kai", "grey_cardinal"),
        ("Zuri", "black_knight"),
        ("Steve", "mad_knight"),
        ("Ari", "lord"),
        ("Noor", "heir"),
        ("Sunny", "healer"),
        ("Efe", "white_knight"),
    ),
    "mafia_yakuza": (
        ("Alex", "don"),
        ("Kai", "oyabun"),
        ("Zuri", "commissar"),
        ("Steve", "doctor"),
        ("Ari", "mistress"),
        ("Noor", "maniac"),
        ("Sunny", "citizen"),
        ("Efe", "citizen"),
    ),
}


def chat_texts(sb: Sandbox, name: str) -> list[str]:
    return [m.text for m in sb.world.player(name).chat]


@pytest.mark.parametrize("ruleset", sorted(DEALS))
def test_the_host_pauses_resumes_extends_undoes_replaces_and_ends_a_club_series_from_the_console(ruleset: str) -> None:
    deal = DEALS[ruleset]
    names = tuple(n for n, _ in deal)

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*names, HOST):
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                game = new_game(ClubSettings(ruleset, names, hosts=(HOST,), deal=deal), 5)
                service = SeriesService(game, rcon, default_castle())
                await service.start()

                async def press(player: str, value: int) -> None:
                    sb.world.press_trigger(player, "traitors.host", value)
                    sb.world.tick()
                    await service.poll_once()

                assert service.phase_clock.armed is not None
                await press(HOST, 8)  # pause
                assert game.deadline is None and game.paused is not None and service.phase_clock.armed is None
                assert chat_texts(sb, "Alex")[-1].endswith("The host has paused the clock.")
                await press("Alex", 9)  # not a host: refused, nothing changes
                assert game.paused is not None and chat_texts(sb, "Alex")[-1].endswith("Only the host can do that.")
                await press(HOST, 9)  # resume
                assert game.paused is None and service.phase_clock.armed == (game.phase_seq, game.deadline)
                deadline = game.deadline
                assert deadline is not None
                await press(HOST, 11)  # add a minute
                assert game.deadline == deadline + 60
                await press(HOST, 13)  # undo the extension
                assert game.deadline is not None and game.deadline < deadline + 60
                assert [(a["action"], a["undone"]) for a in game.record.host_actions] == [
                    ("pause_clock", False),
                    ("resume_clock", False),
                    ("extend_phase", True),
                    ("undo_host_action", False),
                ]
                # replace: the host picks the seat, the new player opens the console and takes it
                await press(HOST, 12)
                leaver = names[1]
                sb.world.leave(leaver)
                await service.on_player_left(leaver)
                await press(HOST, 100 + 2)
                sb.world.join("Newbie")
                sb.world.tick()  # the data pack enables the triggers of a new player on its next tick
                sb.world.press_trigger("Newbie", "traitors.console", None)
                sb.world.tick()
                await service.poll_once()
                assert game.contestant_of("Newbie") == leaver and game.players[leaver].seat == 2
                assert any(f"You now play for {leaver} (seat 2)" in t for t in chat_texts(sb, "Newbie"))
                assert not any("You now play for" in t for n in names if n != leaver for t in chat_texts(sb, n))
                await press(HOST, 10)  # end the series
                assert game.outcome is not None and game.outcome.winner.value == "nobody"
                assert any("The series has ended without a winner." in t for t in chat_texts(sb, "Alex"))
                assert sb.world.errors == [] and service.failed_commands == []
                service.phase_clock.close()
        finally:
            await sb.stop()

    asyncio.run(main())
