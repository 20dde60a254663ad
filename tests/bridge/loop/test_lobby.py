"""The lobby between series against the sandbox (real RCON, the real data pack): sign-ups from the trigger, the
board and the action bar, the host's draw and start, and every bad input answered privately with nothing
changed: signing up twice, withdrawing without a sign-up, a host signing up, a name not on the server, more
sign-ups than the castle seats, a player pressing the host's controls, starting without a full cast, and
signing up while a series runs. Sign-ups survive a restart of the service."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bridge.app.build_castle import place_demo_castle
from bridge.app.demo_settings import demo_settings
from bridge.config.castle import default_castle
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.lobby_run import LobbyRunner
from bridge.loop.recovery import Handouts
from bridge.loop.route import Router
from bridge.loop.season_store import SeasonStore
from bridge.loop.store import SeriesStore
from bridge.minecraft.inputs import LobbyControl, LobbyPress
from bridge.sandbox.server import SandboxThread
from bridge.sandbox.text import plain_text
from engine.effects import Whisper
from engine.rulesets import new_game

PLAYERS = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny")


@dataclass
class Rig:
    sandbox: SandboxThread
    password: str
    store_path: Path

    def said(self, player: str) -> list[str]:
        return [m.text for m in self.sandbox.chat(player)]

    def board(self) -> list[str]:
        def read(world: Any) -> list[str]:
            return [plain_text(e.data.get("text")) for e in world.entities if "traitors.board" in e.tags]

        return self.sandbox.call(read, self.sandbox.world)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    password = secrets.token_urlsafe(12)
    sandbox = SandboxThread(password)
    place_demo_castle(sandbox.world.blocks)
    sandbox.start()
    for name in (*PLAYERS, "Host"):
        sandbox.join(name)
    try:
        yield Rig(sandbox, password, tmp_path / "series.db")
    finally:
        sandbox.stop()


def lobby_run(rig: Rig, body: Callable[[LobbyRunner, Rig], Any], *, seats: int = 4, castle_seats: int = 16) -> Any:
    """Run a lobby on the rig while ``body`` (a coroutine function) presses; return what ``body`` returns."""

    async def main() -> Any:
        castle = default_castle()
        castle = dataclasses.replace(castle, seats=castle.seats[:castle_seats])
        store = SeriesStore(rig.store_path, fresh=True)
        try:
            async with RconClient("127.0.0.1", rig.sandbox.sandbox.port or 0, rig.password, timeout=10) as rcon:
                runner = LobbyRunner(store, rcon, castle, seats=seats, hosts=["Host"], poll_interval=0.02, refresh=0.5)
                task = asyncio.create_task(runner.run())
                try:
                    return await body(runner, rig)
                finally:
                    runner.request_stop()
                    await task
        finally:
            store.close()

    return asyncio.run(main())


async def until(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def press(rig: Rig, player: str, objective: str, value: int | None = None) -> None:
    """The player runs the trigger (again on the next ticks until the data pack has enabled it for them)."""
    end = time.monotonic() + 5
    while not rig.sandbox.press_trigger(player, objective, value).startswith("Triggered"):
        assert time.monotonic() < end, f"{objective} never enabled for {player}"
        time.sleep(0.05)


def test_a_sign_up_is_announced_shown_on_the_board_and_kept(rig: Rig) -> None:
    async def body(runner: LobbyRunner, rig: Rig) -> None:
        await until(lambda: any("Sign up to play" in t for t in rig.said("Alex")))  # the invitation
        assert "Sign up to play" not in " ".join(rig.said("Host"))  # hosts are not invited
        press(rig, "Alex", "traitors.signup")
        await until(lambda: runner.lobby.signups == ["Alex"])
        await until(lambda: any("Alex" in b for b in rig.board()))
        assert rig.board() == ["Next series: 1 of 4 signed up\nAlex"]
        assert any("Alex signed up for the next series (1 of 4)." in t for t in rig.said("Kai"))  # public
        assert any("You are signed up for the next series (1 of 4)" in t for t in rig.said("Alex"))
        assert not any("You are signed up" in t for t in rig.said("Kai"))  # the confirmation is private
        # the action bar is sent after the board, in the same step's commands: wait for it, do not race it
        await until(
            lambda: (
                "Sign-ups for the next series: 1 of 4"
                in plain_text(rig.sandbox.call(lambda w: w.player("Kai").actionbar, rig.sandbox.world))
            )
        )
        press(rig, "Alex", "traitors.withdraw")
        await until(lambda: runner.lobby.signups == [])
        await until(lambda: rig.board() == ["Next series: 0 of 4 signed up"])

    lobby_run(rig, body)
    with SeriesStore(rig.store_path, create=False) as store:
        kept = [r.entry["action"] for r in SeasonStore(store, writable=False).lobby_rows(1)]
    assert kept == ["sign_up", "withdraw"]


def refused(rig: Rig, runner: LobbyRunner, player: str, objective: str, value: int | None, text: str) -> Any:
    """Press, wait for the private answer; nothing changed, and nobody else was told."""

    async def check() -> None:
        before = (list(runner.lobby.signups), list(runner.lobby.cast))
        rows = len(runner.season.lobby_rows(runner.round))
        others = {p: len(rig.said(p)) for p in (*PLAYERS, "Host") if p != player}
        press(rig, player, objective, value)
        await until(lambda: any(text in t for t in rig.said(player)))
        await asyncio.sleep(0.1)
        assert (runner.lobby.signups, runner.lobby.cast) == before
        assert len(runner.season.lobby_rows(runner.round)) == rows
        for p, n in others.items():
            assert not any(text in t for t in rig.said(p)[n:]), p

    return check()


def test_every_bad_lobby_press_is_private_and_changes_nothing(rig: Rig) -> None:
    async def body(runner: LobbyRunner, rig: Rig) -> None:
        press(rig, "Alex", "traitors.signup")
        await until(lambda: runner.lobby.signups == ["Alex"])
        await refused(rig, runner, "Alex", "traitors.signup", None, "You are already signed up for the next series.")
        await refused(
            rig, runner, "Kai", "traitors.withdraw", None, "You are not signed up, so there is nothing to withdraw."
        )
        await refused(rig, runner, "Host", "traitors.signup", None, "Hosts run the series and do not play in it.")
        await refused(rig, runner, "Kai", "traitors.lobby", 2, "Only the host can do that.")
        await refused(rig, runner, "Kai", "traitors.lobby", 3, "Only the host can do that.")
        await refused(rig, runner, "Host", "traitors.lobby", 3, "Draw the cast first: 0 of 4 seats are filled.")
        await refused(
            rig, runner, "Host", "traitors.lobby", 2, "4 seats but only 1 sign-ups: 3 more must sign up first."
        )
        await refused(rig, runner, "Host", "traitors.lobby", 105, "There is no sign-up number 5 waiting for a seat.")
        await refused(rig, runner, "Kai", "traitors.vote", 1, "You can't do that now.")
        assert await runner.add("Host", "Nobody_Here") is not None
        assert (await runner.add("Host", "Nobody_Here")).text == (  # type: ignore[union-attr]
            "Nobody_Here is not on the server: only a player on the server can sign up."
        )
        assert (await runner.add("Kai", "Zuri")).key == "illegal.not_host"  # type: ignore[union-attr]
        # an entry without the UUID the data pack writes is dropped, whatever name it carries
        told = len(rig.said("Kai"))
        await runner.take({"seq": 999, "player": "Kai", "input": "signup", "value": 1}, 999)
        assert runner.lobby.signups == ["Alex"] and len(rig.said("Kai")) == told

    lobby_run(rig, body)


def test_no_more_sign_ups_than_the_castle_seats(rig: Rig) -> None:
    async def body(runner: LobbyRunner, rig: Rig) -> None:
        for name in PLAYERS[:6]:
            press(rig, name, "traitors.signup")
        await until(lambda: len(runner.lobby.signups) == 6)
        await refused(
            rig,
            runner,
            "Sunny",
            "traitors.signup",
            None,
            "The castle has 6 seats and every one is taken by a sign-up; try again when someone withdraws.",
        )

    lobby_run(rig, body, seats=6, castle_seats=6)


def test_the_host_seats_draws_and_starts_and_the_rest_are_stand_bys(rig: Rig) -> None:
    async def body(runner: LobbyRunner, rig: Rig) -> list[str]:
        for name in PLAYERS[:6]:
            press(rig, name, "traitors.signup")
        await until(lambda: len(runner.lobby.signups) == 6)
        press(rig, "Host", "traitors.console")
        await until(lambda: any(t.startswith("Sign-ups: 6. Cast (0 of 4): nobody.") for t in rig.said("Host")))
        press(rig, "Host", "traitors.lobby", 103)  # seat the third sign-up first
        await until(lambda: runner.lobby.cast == [PLAYERS[2]])
        press(rig, "Host", "traitors.lobby", 2)  # draw the other three seats
        await until(lambda: len(runner.lobby.cast) == 4)
        press(rig, "Host", "traitors.lobby", 3)
        await until(lambda: runner.lobby.started)
        return list(runner.lobby.cast)

    cast = lobby_run(rig, body)
    assert cast[0] == PLAYERS[2] and len(set(cast)) == 4 and set(cast) <= set(PLAYERS[:6])
    standbys = [p for p in PLAYERS[:6] if p not in cast]
    for p in standbys:
        assert any("You are a stand-by for this series" in t for t in rig.said(p))
    assert not any("stand-by" in t for p in cast for t in rig.said(p))
    assert any(f"The contestants, in seat order: {', '.join(cast)}." in t for t in rig.said("Kai"))
    assert rig.board() == []  # the board is taken down when the series starts


def test_sign_ups_survive_a_restart(rig: Rig) -> None:
    async def first(runner: LobbyRunner, rig: Rig) -> None:
        for name in ("Alex", "Kai", "Zuri"):
            press(rig, name, "traitors.signup")
        await until(lambda: len(runner.lobby.signups) == 3)
        press(rig, "Kai", "traitors.withdraw")
        await until(lambda: len(runner.lobby.signups) == 2)

    lobby_run(rig, first)

    async def again(runner: LobbyRunner, rig: Rig) -> list[str]:
        await until(lambda: any("Alex" in b for b in rig.board()))
        press(rig, "Kai", "traitors.signup")
        await until(lambda: len(runner.lobby.signups) == 3)
        return list(runner.lobby.signups)

    assert lobby_run(rig, again) == ["Alex", "Zuri", "Kai"]


def test_signing_up_while_a_series_runs_is_refused_privately() -> None:
    game = new_game(demo_settings(6), 1)
    router = Router(game, None, {}, PlayerDirectory(), Handouts("t"), None)  # type: ignore[arg-type]
    for who, control in (
        ("Alex", LobbyControl.SIGN_UP),
        ("Stranger", LobbyControl.SIGN_UP),
        ("Kai", LobbyControl.WITHDRAW),
        ("Host", LobbyControl.DRAW),
    ):
        reply = asyncio.run(router.route(who, LobbyPress(who, control), {"input": "signup"}))
        assert reply == [Whisper(frozenset({who}), reply[0].message)]  # type: ignore[index, union-attr]
        assert reply[0].message.text == (
            "Sign-ups are closed while a series runs; the lobby opens again when it "  # type: ignore[index, union-attr]
            "is over."
        )
    assert game.log == [] or len(game.log) == 0


def test_the_web_lobby_page_presses_as_the_console_does(rig: Rig) -> None:
    """``/host/lobby``: only with the host cookie; a press from another site is refused; adding a player who is
    not on the server is refused on the page; seating, drawing and starting go as the in-game buttons."""
    import httpx2
    from starlette.applications import Starlette

    from bridge.loop.lobby_run import Season
    from bridge.web.auth import HostKeys
    from bridge.web.lobby_pages import COOKIE, lobby_routes

    keys = HostKeys.one("Host")
    season = Season()

    async def body(runner: LobbyRunner, rig: Rig) -> str:
        season.lobby = runner
        app = Starlette(routes=lobby_routes(season, keys))
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://castle.test") as web:
            assert (await web.get("/host/lobby")).status_code == 403
            web.cookies.set(COOKIE, keys.tokens["Host"])  # the token itself is no session
            assert (await web.get("/host/lobby")).status_code == 403
            web.cookies.set(COOKIE, keys.session("Host"))
            foreign = await web.post("/host/lobby", data={"do": "draw"}, headers={"origin": "http://evil.test"})
            assert foreign.status_code == 403
            said = await web.post("/host/lobby", data={"do": "add", "name": "Nobody_Here"})
            assert "Nobody_Here is not on the server" in (await web.get(said.headers["location"])).text
            for name in ("Alex", "Kai", "Zuri", "Steve", "Ari"):
                await web.post("/host/lobby", data={"do": "add", "name": name})
            assert runner.lobby.signups == ["Alex", "Kai", "Zuri", "Steve", "Ari"]
            assert any("Alex signed up for the next series (1 of 4)." in t for t in rig.said("Noor"))  # as in game
            await web.post("/host/lobby", data={"do": "withdraw", "name": "Ari"})
            await web.post("/host/lobby", data={"do": "pick", "index": "2"})
            assert runner.lobby.cast == ["Kai"]
            said = await web.post("/host/lobby", data={"do": "start"})
            page = (await web.get(said.headers["location"])).text
            assert "Draw the cast first: 1 of 4 seats are filled." in page
            await web.post("/host/lobby", data={"do": "draw"})
            await web.post("/host/lobby", data={"do": "start"})
            assert runner.lobby.started and runner.lobby.cast[0] == "Kai"
            return page

    page = lobby_run(rig, body)
    assert "<script" not in page and " style=" not in page


def test_the_board_is_shown_and_replaced_when_nobody_is_near_the_foyer(rig: Rig) -> None:
    """Everyone far from the foyer (its chunk not loaded): the lobby force-loads the board's chunk, so each change
    replaces the one board (vanilla's ``kill @e[…]`` reaches no entity in a chunk that is not loaded), and
    removes that forceload when the lobby closes; a chunk the operator forced stays forced."""
    for name in (*PLAYERS, "Host"):
        rig.sandbox.call(lambda w, n=name: w.execute(f"tp {n} 4000 64 4000"), rig.sandbox.world)
    foyer_chunk = (88 >> 4, -8 >> 4)

    def forced() -> set[tuple[int, int]]:
        return set(rig.sandbox.call(lambda w: set(w.chunks.forced), rig.sandbox.world))

    def boards() -> list[Any]:
        return rig.sandbox.call(lambda w: [e for e in w.entities if "traitors.board" in e.tags], rig.sandbox.world)

    async def body(runner: LobbyRunner, rig: Rig) -> None:
        await until(lambda: rig.board() == ["Next series: 0 of 4 signed up"])
        assert foyer_chunk in forced()
        press(rig, "Alex", "traitors.signup")
        await until(lambda: runner.lobby.signups == ["Alex"])
        await until(lambda: "Alex" in " ".join(rig.board()))
        assert rig.board() == ["Next series: 1 of 4 signed up\nAlex"]  # one board, not the old one beside it
        assert [b.pos for b in boards()] == [(88.5, 68.0, -7.5)]

    lobby_run(rig, body)
    assert forced() == set()  # released when the lobby closed
    assert len(boards()) == 1  # a stopped lobby leaves its board up; the next lobby replaces it

    rig.sandbox.call(lambda w: w.execute("forceload add 88 -8"), rig.sandbox.world)  # the operator's own

    async def again(runner: LobbyRunner, rig: Rig) -> None:
        await until(lambda: runner.invited)  # the lobby opened
        assert runner.forced is False and len(boards()) == 1

    lobby_run(rig, again)
    assert forced() == {foyer_chunk}
