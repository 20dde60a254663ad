"""A series against the built-in sandbox with its web pages up: for rehearsing the grimoire, the browser tests,
the screenshots and the figures (``bench/grimoire_*.py``).

Every contestant and a host (``Host``) join the sandbox; nobody answers unless told to (``press``), and the phase
clocks are the series' real ones (minutes), so a test or a rehearsing host drives the series by hand.
"""

from __future__ import annotations

import asyncio
import functools
import secrets
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from bridge.config.castle import default_castle
from bridge.config.serve import WebConfig
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.service import SeriesService
from bridge.sandbox.server import SandboxThread
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from bridge.web.server import WebServer
from engine.rulesets import DEFAULT_RULESET, RULESETS, AnySettings, new_game

__all__ = ["HOST", "NAMES", "SandboxRig", "rig_settings"]

HOST = "Host"
NAMES = (
    "Alex",
    "Kai",
    "Zuri",
    "Steve",
    "Ari",
    "Noor",
    "Sunny",
    "Efe",
    "Makena",
    "Lena",
    "Omar",
    "Rhea",
    "Tomas",
    "Ines",
    "Yuki",
    "Bram",
)


def rig_settings(
    contestants: int = 12, ruleset: str = DEFAULT_RULESET, hosts: tuple[str, ...] = (HOST,)
) -> AnySettings:
    """A series of ``contestants`` (6-16) of ``ruleset`` with ``hosts`` (default ``HOST``), the ruleset's usual
    settings for that cast (``SettingsForm.sample``) and the real phase clocks.

    Raises:
        KeyError: ``ruleset`` is not registered.
    """
    return RULESETS[ruleset].form.sample(ruleset, NAMES[:contestants], hosts)  # type: ignore[no-any-return]


class SandboxRig:
    """``async with SandboxRig() as rig``: the sandbox, the service (a task) and the web pages on a free port.

    Args:
        contestants: 6-16.
        seed: the series' seed.
        ruleset: a name of ``engine.rulesets.RULESETS``.
        delay: the spectator page's delay (seconds).
        token: ``HOST``'s token (default: a new one); ``web.host_url()`` makes one-time login links.
        web_port: the pages' port (0: any free one).
        hosts: the series' hosts (default ``HOST``); each joins the sandbox and has a token (``keys``).
    """

    def __init__(
        self,
        contestants: int = 12,
        seed: int = 1,
        ruleset: str = DEFAULT_RULESET,
        *,
        delay: float = 0.0,
        token: str | None = None,
        web_port: int = 0,
        hosts: tuple[str, ...] = (HOST,),
    ) -> None:
        self.settings = rig_settings(contestants, ruleset, hosts)
        self.seed = seed
        self.token = token or secrets.token_hex(16)
        self.hub = WebHub(delay=delay)
        self.keys = HostKeys({h: self.token if h == HOST else secrets.token_hex(16) for h in hosts})
        self.web = WebServer(self.hub, WebConfig(port=web_port, spectator_delay=delay), self.keys)
        self.password = secrets.token_urlsafe(18)
        self.sandbox = SandboxThread(self.password)
        self.service: SeriesService | None = None
        self._rcon: RconClient | None = None
        self._task: asyncio.Task[Any] | None = None

    async def __aenter__(self) -> SandboxRig:
        port = self.sandbox.start()
        for name in (*self.settings.contestants, *self.settings.hosts):
            self.sandbox.join(name)
        await self.web.start()
        self._rcon = RconClient("127.0.0.1", port, self.password, timeout=10.0)
        game = new_game(self.settings, self.seed)
        self.service = SeriesService(
            game, self._rcon, default_castle(), poll_interval=0.01, players=PlayerDirectory(self.sandbox.players())
        )
        ready = asyncio.Event()
        self.hub.attach(self.service)
        self._task = asyncio.create_task(self.service.run(on_ready=ready.set))
        await asyncio.wait_for(ready.wait(), 30)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.service is not None:
            self.service.request_stop()
        if self._task is not None:
            await asyncio.wait_for(self._task, 30)
        await self.web.stop()
        if self._rcon is not None:
            await self._rcon.close()
        self.sandbox.stop()

    @property
    def game(self) -> Any:
        """The series (any ruleset)."""
        assert self.service is not None
        return self.service.game

    async def press(self, player: str, objective: str, value: int | None = None) -> str:
        """``player`` runs ``/trigger objective set value`` in the sandbox; the feedback they saw."""
        return await asyncio.to_thread(self.sandbox.press_trigger, player, objective, value)

    async def until(self, done: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until ``done()`` (polled every 10 ms).

        Raises:
            TimeoutError: not within ``timeout`` seconds.
        """
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise TimeoutError("the series did not get there in time")
            await asyncio.sleep(0.01)

    async def advance_to(self, phase: str, limit: int = 60) -> None:
        """Let the host move on (the console's button in the sandbox) until the series is in ``phase``."""
        for _ in range(limit):
            if self.game.phase is not None and self.game.phase.value == phase:
                return
            before = len(self.game.log)
            await self.press(HOST, "traitors.host", 1)
            await self.until(functools.partial(self._grown, before))
        raise TimeoutError(f"no phase {phase!r} after {limit} moves")

    def _grown(self, before: int) -> bool:
        return len(self.game.log) > before
