"""Stand-bys in a season (``bridge/loop/console.py`` house rule 4, ``docs/host.md``): the lobby's sign-ups not drawn
are the series' stand-bys in sign-up order, and "Replace a contestant" in the castle seats the first one on the
server at once, through the real data pack in the sandbox; with none on the server the seat waits for a new
player as outside a season, and the host is told so privately."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.lobby_run import standbys_of
from bridge.loop.season_store import SeasonStore
from bridge.loop.service import SeriesService
from bridge.loop.store import SeriesStore
from bridge.sandbox import Sandbox
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import Settings

PASSWORD = "pw-standby"
SIGNUPS = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Ines", "Bram", "Yuki")
CAST = ("Kai", "Alex", "Zuri", "Steve", "Ari", "Noor")  # the draw's seat order
HOST = "Hosty"


def signed_up(path: Path) -> list[str]:
    """A store whose lobby 1 had ``SIGNUPS`` sign up and started with ``CAST``: its stand-bys."""
    with SeriesStore(path, fresh=True) as store:
        season = SeasonStore(store)
        for name in SIGNUPS:
            season.add_lobby(1, {"action": "sign_up", "player": name})
        season.add_lobby(1, {"action": "draw", "by": HOST, "names": list(CAST)})
        season.add_lobby(1, {"action": "start", "by": HOST, "names": list(CAST)})
        return standbys_of(store, 1, default_castle(), seats=len(CAST), hosts=[HOST])


Body = Callable[[Sandbox, SeriesService], Awaitable[None]]


def run(online: tuple[str, ...], standbys: list[str], body: Body) -> None:
    """The cast, the host and ``online`` on the sandbox; a started service whose console has ``standbys``."""

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*CAST, HOST, *online):
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                settings = Settings(contestants=CAST, traitors=1, hosts=(HOST,), powers=False)
                service = SeriesService(Game(settings, seed=5), rcon, default_castle())
                service.router.console.standbys = tuple(standbys)  # as run_series sets them in a season
                await service.start()
                await body(sb, service)
                assert sb.world.errors == [] and service.failed_commands == []
                service.phase_clock.close()
        finally:
            await sb.stop()

    asyncio.run(main())


def said(sb: Sandbox, name: str) -> list[str]:
    return [m.text for m in sb.world.player(name).chat]


async def press(sb: Sandbox, service: SeriesService, player: str, objective: str, value: int | None = None) -> None:
    sb.world.tick()  # the data pack enables a newcomer's triggers on its next tick
    assert sb.world.press_trigger(player, objective, value).startswith("Triggered")
    sb.world.tick()
    await service.poll_once()


def test_the_lobby_s_sign_ups_not_drawn_are_the_stand_bys_in_sign_up_order(tmp_path: Path) -> None:
    assert signed_up(tmp_path / "series.db") == ["Ines", "Bram", "Yuki"]
    with SeriesStore(tmp_path / "none.db", fresh=True) as store:  # a series with no lobby has none
        assert standbys_of(store, 1, default_castle(), seats=6, hosts=[HOST]) == []


def test_replace_seats_the_first_stand_by_on_the_server(tmp_path: Path) -> None:
    standbys = signed_up(tmp_path / "series.db")

    async def body(sb: Sandbox, service: SeriesService) -> None:
        game = service.game
        sb.world.player("Bram").pos = (4000.0, 64.0, 4000.0)  # anywhere on the server
        await press(sb, service, HOST, "traitors.host", 12)  # "Replace a contestant": the seats
        await press(sb, service, HOST, "traitors.host", 102)  # seat 2, Alex's
        assert game.contestant_of("Bram") == "Alex"  # Ines is not on the server: Bram, the next in order
        assert service.router.console.seat_waiting is None
        assert any("Bram now plays for Alex (seat 2)." in t for t in said(sb, "Kai"))
        assert any("You now play for Alex (seat 2)." in t for t in said(sb, "Bram"))
        assert not any("You now play for" in t for n in (*CAST, HOST, "Yuki") for t in said(sb, n))
        foyer = default_castle().places.foyer  # day zero: the stand-by is put at the seat's place
        assert sb.world.player("Bram").pos == (foyer.x, foyer.y, foyer.z)
        await press(sb, service, HOST, "traitors.host", 103)  # Zuri's seat: Yuki, as Bram plays now
        assert game.contestant_of("Yuki") == "Zuri"

    run(("Bram", "Yuki"), standbys, body)


def test_with_no_stand_by_on_the_server_the_seat_waits_for_a_new_player(tmp_path: Path) -> None:
    standbys = signed_up(tmp_path / "series.db")

    async def body(sb: Sandbox, service: SeriesService) -> None:
        await press(sb, service, HOST, "traitors.host", 102)
        assert service.router.console.seat_waiting == (HOST, "Alex")
        assert said(sb, HOST)[-1].endswith(
            "No stand-by is on the server: seat 2 (Alex) waits for a new player, who "
            "takes it by typing /trigger traitors.console."
        )
        assert not any("No stand-by" in t for n in (*CAST, "Newbie") for t in said(sb, n))
        await press(sb, service, "Newbie", "traitors.console")
        assert service.game.contestant_of("Newbie") == "Alex"

    run(("Newbie",), standbys, body)
