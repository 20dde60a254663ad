"""A season in the sandbox for the tests: a sandbox server with bot players who sign up from the lobby (they press
the dialog's button, or click its chat link), a host who draws the cast and starts each series from the lobby
console's triggers, and the service running the season (``bridge.app.season.run_season``) against one records
database."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.app.build_castle import place_demo_castle
from bridge.app.demo_bots import Bot, step_bots
from bridge.app.records import records_db
from bridge.app.season import Records, run_season
from bridge.config.serve import ServeConfig, serve_config_from_data
from bridge.io.rcon import RconClient
from bridge.loop.clock import rcon_quiet_gate
from bridge.loop.lobby_run import Season
from bridge.loop.store import SeriesStore
from bridge.sandbox import quiet
from bridge.sandbox.server import SandboxThread

SERIES_FILE = """ruleset = "traitors"
contestant_count = {seats}
traitors = 1
power_pool = ["analyst", "researcher", "sheriff", "cleanser", "detective", "historian", "mimic", "sober"]
[twists]
1 = ["double_vote"]
[durations]
day_zero = 0.01
breakfast = 0.01
discussion = 0.01
round_table = 0.01
vote = 20.0
revote = 20.0
oath = 0.01
turret = 0.01
offer = 0.01
traitor_powers = 0.01
host_visit = 0.01
torches = 0.01
torch_question = 0.01
"""
"""Clocks as short as the phase clock allows: the quiet gate holds a deadline until every bot has answered what
it was shown (``bridge/sandbox/quiet.py``), so a short clock loses no answer and every night stage still runs
(the night's public shape); a phase ends as soon as the bots are done, as the demo's fast-forward clock does.
The votes end once everyone has voted; their long clocks are only a safety net. ``torch_question`` (the finale's
last changes after the host's question) is a step clock that always runs out, so it is short as well: at its
30 s default every finale waited it out in full."""

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena")


def season_config(folder: Path, records: str, castle: str, *, seats: int = 6) -> ServeConfig:
    """A serve config with no cast (a season), the records at ``records``, this castle's name."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "season.toml").write_text(SERIES_FILE.format(seats=seats))
    data = {
        "series": "season.toml",
        "store": "series.db",
        "hosts": ["Host"],
        "poll_interval": 0.02,
        "records": {"url": records, "castle": castle, "season": "spring", "lab_series": 20},
    }
    return serve_config_from_data(data, folder / "serve.toml")


@dataclass
class Server:
    """One castle: its sandbox, its bots, its config and what its season did."""

    config: ServeConfig
    sandbox: SandboxThread
    password: str
    bots: list[Bot]
    season: Season = field(default_factory=Season)
    lobbies: int = 0

    async def drive(self, stop: asyncio.Event) -> None:
        """The bots play; the host draws the cast once every bot has signed up, and starts the series once the
        lobby has seated the drawn cast (two presses in one tick would leave only the second one's score)."""
        drawn: set[int] = set()
        started: set[int] = set()
        while not stop.is_set():
            step_bots(self.sandbox, self.bots)
            lobby = self.season.lobby
            if lobby is not None and lobby.round not in started:
                state = lobby.state()
                if lobby.round not in drawn and len(state["signups"]) >= len(self.bots):
                    drawn.add(lobby.round)
                    self.lobbies += 1
                    self.sandbox.press_trigger("Host", "traitors.lobby", 2)  # draw the cast
                elif lobby.round in drawn and len(state["cast"]) == state["seats"]:
                    started.add(lobby.round)
                    self.sandbox.press_trigger("Host", "traitors.lobby", 3)  # start the series
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.02)


@contextlib.asynccontextmanager
async def castle(folder: Path, records: str, name: str, *, bots: int = 8, seed: int = 1) -> AsyncIterator[Server]:
    """A sandbox with ``bots`` bot players and a host online, and the season's config."""
    password = secrets.token_urlsafe(12)
    sandbox = SandboxThread(password)
    place_demo_castle(sandbox.world.blocks)
    sandbox.start()
    try:
        sandbox.join("Host")
        players = [Bot(n, seed, closes_dialogs=i % 3 == 2) for i, n in enumerate(NAMES[:bots])]
        for bot in players:
            sandbox.join(bot.name)
        sandbox.call(quiet.install, sandbox.world, players)
        yield Server(season_config(folder, records, name), sandbox, password, players)
    finally:
        sandbox.stop()


async def play(server: Server, series: int) -> Any:
    """Run the server's season until ``series`` series have ended; the last service."""
    config = server.config
    store = SeriesStore(config.store, fresh=True)
    store.lock()
    stop = asyncio.Event()
    driver = asyncio.create_task(server.drive(stop))
    records = Records(store, records_db(config.records), config)
    try:
        async with RconClient("127.0.0.1", server.sandbox.sandbox.port or 0, server.password, timeout=10.0) as rcon:
            records.start()
            return await run_season(
                config, store, rcon, records, quiet=rcon_quiet_gate(rcon), season=server.season, series_limit=series
            )
    finally:
        stop.set()
        await driver
        await records.flush_once()
        await records.close()
        store.close()
