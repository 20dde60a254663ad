"""The sandbox facade: an RCON stand-in server on loopback plus its world, ticking at 20 Hz.

``Sandbox`` lives on an asyncio loop (tests use it inside ``asyncio.run``); ``SandboxThread`` runs one in a
daemon thread for the demo and gives thread-safe helpers. It is not Minecraft and never claims to be.

Each sandbox stands in for one supported release (``version``, ``bridge.minecraft.versions``): its MSMP version,
schema and start-up order (``bridge.sandbox.msmp_server`` house rule 6), the protocol ``server/status`` and the
``version`` command report (``bridge.sandbox.versioned``), and the data pack as that release reads it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import logging
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from bridge.minecraft.versions import OLDEST, McVersion
from bridge.sandbox.datapack import Datapack, project_pack
from bridge.sandbox.model import ChatMessage
from bridge.sandbox.msmp_server import MsmpServer
from bridge.sandbox.rcon_server import RconServer
from bridge.sandbox.tls import self_signed
from bridge.sandbox.versioned import commands_for
from bridge.sandbox.world import World

log = logging.getLogger(__name__)

__all__ = ["Sandbox", "SandboxThread"]

T = TypeVar("T")


class Sandbox:
    """A stand-in server: vanilla RCON framing (``docs/minecraft.md#rcon``) in front of a small :class:`World`.

    Args:
        password: the RCON password (never shown in ``repr``).
        tick_rate: game ticks per second; the world (and the data pack's tick function) ticks this often.
            ``0`` means no automatic ticks: call ``world.tick()`` yourself (handy in tests).
        datapack: load the project's data pack (``True``, the default), another pack directory, or none
            (``False``). Its functions are interpreted by the world (``bridge/sandbox/datapack.py``).
        msmp_secret: when given, also serve MSMP (``bridge.sandbox.msmp_server``) with this secret.
        msmp_tls: serve MSMP as ``wss://`` with a self-signed certificate made now (the default, as vanilla's
            ``management-server-tls-enabled=true``); its PEM is at ``msmp_cert_file`` for clients to trust.
            ``False``: plain ``ws://``.
        version: the release to stand in for (default 1.21.11, the oldest supported).
        startup_delay: seconds a 3.x release (26.2, 26.3) takes to start its game after its MSMP socket is up
            (only ``rpc.discover`` is answered meanwhile); ignored on 2.x, whose socket opens once started.
        upgrade_world: on 26.3 (MSMP 3.1.0), the start-up is a world upgrade with ``world/upgrade_*``
            notifications (over ``startup_delay`` seconds).

    RCON answers at once, even while a 3.x start-up runs (a simplification: vanilla opens RCON once the game has
    started); only MSMP shows the start-up.

    Raises:
        ValueError: ``upgrade_world`` on a release whose MSMP reports no world upgrade, or a negative delay.
    """

    def __init__(
        self,
        password: str,
        *,
        tick_rate: float = 20.0,
        datapack: bool | str | Path = True,
        msmp_secret: str | None = None,
        msmp_tls: bool = True,
        version: McVersion = OLDEST,
        startup_delay: float = 0.0,
        upgrade_world: bool = False,
    ) -> None:
        if startup_delay < 0:
            raise ValueError(f"startup_delay must be 0 or more seconds, not {startup_delay}")
        if upgrade_world and tuple(int(x) for x in version.msmp.split(".")) < (3, 1):
            raise ValueError(
                f"Minecraft {version.name} (MSMP {version.msmp}) reports no world upgrade; "
                "--upgrade-world needs 26.3 or later"
            )
        self.version = version
        self.startup_delay = startup_delay if version.msmp_answers_before_start else 0.0
        self.upgrade_world = upgrade_world
        self.world = World()
        self.world.commands = commands_for(version, self.world.commands)
        self.msmp: MsmpServer | None = None
        self.msmp_cert_file: Path | None = None
        """The PEM certificate of the ``wss://`` socket (a client's CA file), or ``None``."""
        self._cert_dir: tempfile.TemporaryDirectory[str] | None = None
        if msmp_secret is not None:
            context = None
            if msmp_tls:
                cert = self_signed()
                self._cert_dir = tempfile.TemporaryDirectory(prefix="castle-sandbox-")
                self.msmp_cert_file = cert.write_cert(Path(self._cert_dir.name, "msmp-cert.pem"))
                context = cert.server_context()
            self.msmp = MsmpServer(self.world, msmp_secret, context, version)
        self.msmp_port: int | None = None
        if datapack is not False:
            self.world.load_datapack(_load_pack(datapack, version))
        self.tick_rate = tick_rate
        self._rcon = RconServer(password, self.world.execute)
        self._ticker: asyncio.Task[None] | None = None
        self._booting: asyncio.Task[None] | None = None
        self.host = "127.0.0.1"
        self.port: int | None = None

    def __repr__(self) -> str:
        return f"<Sandbox {self.host}:{self.port}>"

    @property
    def msmp_url(self) -> str | None:
        """``wss://host:port`` (or ``ws://`` without TLS) of the MSMP socket once started, else ``None``."""
        if self.msmp is None or self.msmp_port is None:
            return None
        return f"{'wss' if self.msmp.tls else 'ws'}://{self.host}:{self.msmp_port}"

    def msmp_ready_fields(self) -> str:
        """What a ready line adds for MSMP: `` msmp=<url>`` and, over TLS, `` msmp_ca=<certificate file>``;
        empty without MSMP."""
        if self.msmp_url is None:
            return ""
        return f" msmp={self.msmp_url}" + (f" msmp_ca={self.msmp_cert_file}" if self.msmp_cert_file else "")

    @property
    def rcon(self) -> RconServer:
        """The RCON listener (``closed_connections`` counts framing drops)."""
        return self._rcon

    async def start(self, host: str = "127.0.0.1", port: int = 0, msmp_port: int = 0) -> int:
        """Listen for RCON on ``host:port`` (and MSMP on ``msmp_port`` when enabled; loopback only) and tick.

        Args:
            host: a loopback address.
            port: TCP port; 0 picks a free one.
            msmp_port: TCP port of the MSMP websocket; 0 picks a free one (see ``msmp_port`` after start).

        Returns:
            The bound port.

        Raises:
            ValueError: ``host`` is not a loopback address.
            OSError: the port cannot be bound.
        """
        if not (host.startswith("127.") or host in ("localhost", "::1")):
            raise ValueError("the sandbox listens on loopback only")
        self.host = host
        self.world.warm_up()
        self.port = await self._rcon.start(host, port)
        if self.msmp is not None:
            self.msmp_port = await self.msmp.start(host, msmp_port)
            if self.startup_delay > 0 or self.upgrade_world:
                self._booting = asyncio.create_task(
                    self.msmp.boot(self.startup_delay, upgrade_world=self.upgrade_world)
                )
            else:
                self.msmp.mark_started()
        if self.tick_rate > 0 and self._ticker is None:
            self._ticker = asyncio.create_task(self._tick_loop())
        return self.port

    async def stop(self) -> None:
        """Stop ticking, stop listening and close every RCON connection. The world is kept."""
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
        if self._booting is not None:
            self._booting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._booting
            self._booting = None
        if self.msmp is not None and self.msmp.port is not None:
            await self.msmp.stop()
        await self._rcon.stop()

    async def restart(self, downtime: float = 0.0) -> None:
        """Stop and start again on the same port(s), as a server restart does (the world is kept).

        Args:
            downtime: seconds to stay down in between.
        """
        host, port, msmp_port = self.host, self.port, self.msmp_port
        await self.stop()
        if downtime > 0:
            await asyncio.sleep(downtime)
        await self.start(host, port or 0, msmp_port or 0)

    async def __aenter__(self) -> Sandbox:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _tick_loop(self) -> None:
        loop = asyncio.get_running_loop()
        period = 1.0 / self.tick_rate
        next_at = loop.time()
        while True:
            self.world.advance()
            next_at += period
            delay = next_at - loop.time()
            if delay < -1.0:  # fell far behind (a paused process): skip ahead, as vanilla does
                next_at = loop.time()
                delay = 0.0
            await asyncio.sleep(max(0.0, delay))


_PACK_CACHE: dict[tuple[Path, str], Datapack] = {}


def _load_pack(which: bool | str | Path, version: McVersion = OLDEST) -> Datapack:
    """The parsed data pack as ``version`` reads it (its overlays for that release), parsed once per process and
    release (a world never changes a pack). What vanilla would warn about or refuse at load goes to the log, as a
    server's log shows it (``Datapack.warnings`` / ``Datapack.errors``)."""
    if which is True:  # the project's pack as install-datapack writes it
        return project_pack(version)
    root = Path(which).resolve()  # type: ignore[arg-type]
    pack = _PACK_CACHE.get((root, version.name))
    if pack is None:
        pack = _PACK_CACHE[root, version.name] = Datapack.load(root, version)
        for line in pack.warnings:
            log.warning("%s", line)
        for line in pack.errors:
            log.error("%s", line)
    return pack


class SandboxThread:
    """A :class:`Sandbox` on its own event loop in a daemon thread, for the demo.

    Every helper hands its work to the sandbox loop (``call_soon_threadsafe``), so the world is only ever
    touched by that one thread, like vanilla's main thread.

    Example::

        sb = SandboxThread("secret")
        port = sb.start()
        sb.join("Alice")
        ...  # connect an RconClient to 127.0.0.1:port
        sb.press_trigger("Alice", "traitors.vote", 3)
        sb.stop()

    Args:
        password: the RCON password.
        tick_rate: ticks per second (see :class:`Sandbox`).
        datapack, msmp_secret, version, startup_delay, upgrade_world: as for :class:`Sandbox`.
    """

    def __init__(
        self,
        password: str,
        *,
        tick_rate: float = 20.0,
        datapack: bool | str | Path = True,
        msmp_secret: str | None = None,
        version: McVersion = OLDEST,
        startup_delay: float = 0.0,
        upgrade_world: bool = False,
    ) -> None:
        self.sandbox = Sandbox(
            password,
            tick_rate=tick_rate,
            datapack=datapack,
            msmp_secret=msmp_secret,
            version=version,
            startup_delay=startup_delay,
            upgrade_world=upgrade_world,
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def world(self) -> World:
        """The world; read it only through :meth:`call` from other threads."""
        return self.sandbox.world

    def start(self, host: str = "127.0.0.1", port: int = 0, *, timeout: float = 10.0, msmp_port: int = 0) -> int:
        """Start the loop thread and the sandbox; returns the bound RCON port (``sandbox.msmp_port``: MSMP's).

        Raises:
            RuntimeError: already started.
            OSError/ValueError: from :meth:`Sandbox.start`.
        """
        if self._thread is not None:
            raise RuntimeError("sandbox thread already started")
        ready: concurrent.futures.Future[asyncio.AbstractEventLoop] = concurrent.futures.Future()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            ready.set_result(loop)
            try:
                loop.run_forever()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="castle-sandbox", daemon=True)
        self._thread.start()
        self._loop = ready.result(timeout)
        return asyncio.run_coroutine_threadsafe(self.sandbox.start(host, port, msmp_port), self._loop).result(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the sandbox and its loop thread (idempotent)."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self.sandbox.stop(), loop).result(timeout)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout)
            self._loop = self._thread = None

    def take_down(self, timeout: float = 10.0) -> None:
        """The server goes away (a restart, a crash): stop ticking and listening, drop every RCON connection.

        The world is kept, as a real server keeps its saved world; ``bring_back`` starts it again.
        """
        if self._loop is None:
            raise RuntimeError("sandbox thread not started")
        asyncio.run_coroutine_threadsafe(self.sandbox.stop(), self._loop).result(timeout)

    def bring_back(self, timeout: float = 10.0) -> int:
        """The server is back on the same address and port after ``take_down``; returns the port."""
        if self._loop is None or self.sandbox.port is None:
            raise RuntimeError("sandbox thread not started")
        coro = self.sandbox.start(self.sandbox.host, self.sandbox.port)
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def call(self, fn: Callable[..., T], *args: Any, timeout: float = 10.0, **kwargs: Any) -> T:
        """Run ``fn(*args, **kwargs)`` on the sandbox thread and return its result (or raise its error)."""
        if self._loop is None:
            raise RuntimeError("sandbox thread not started")
        fut: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                fut.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to the caller
                fut.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        return fut.result(timeout)

    def join(self, name: str) -> None:
        """A player comes online. Raises ``ValueError`` for a bad or duplicate name."""
        self.call(self.sandbox.world.join, name)

    def leave(self, name: str) -> None:
        """A player goes offline. Raises ``KeyError`` when not online."""
        self.call(self.sandbox.world.leave, name)

    def press_trigger(self, player: str, objective: str, value: int | None = None) -> str:
        """The player runs ``/trigger <objective> set <value>``; returns the feedback they saw."""
        return self.call(self.sandbox.world.press_trigger, player, objective, value)

    def click(self, player: str, event: dict[str, Any]) -> str:
        """The player clicks a chat ``click_event`` (``run_command`` ``/trigger …`` only)."""
        return self.call(self.sandbox.world.click, player, event)

    def click_dialog(self, player: str, index: int) -> str:
        """The player presses button ``index`` of the dialog on screen; returns the trigger feedback."""
        return self.call(self.sandbox.world.click_dialog, player, index)

    def players(self) -> list[dict[str, str]]:
        """The online players as MSMP ``minecraft:players`` lists them: ``[{"id": uuid, "name": name}]``."""
        return self.call(lambda: [{"id": p.uuid, "name": p.name} for p in self.world.players.values()])

    def chat(self, player: str) -> list[ChatMessage]:
        """Copies of the chat messages ``player`` has received, oldest first."""
        return self.call(lambda: copy.deepcopy(self.world.player(player).chat))

    def command_log(self) -> list[tuple[str, str, str]]:
        """Every command received so far as ``(text, reply, outcome)``."""
        return self.call(lambda: [(r.text, r.reply, r.outcome) for r in self.world.command_log])

    def snapshot(self) -> dict[str, Any]:
        """A plain copy of the world state (see :meth:`World.snapshot`)."""
        return self.call(self.world.snapshot)
