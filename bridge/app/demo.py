"""``traitors demo``: a whole series in the built-in sandbox, driven by bot contestants over real loopback RCON.

The pieces are the real ones: the sandbox server (``bridge/sandbox``) on 127.0.0.1, the service
(``bridge/loop/service.py``) talking to it with our RCON client, and one bot per contestant. A bot knows only what
its player was shown: when a dialog is on its screen it presses one of the dialog's buttons; a bot that closes
dialogs (``Bot.closes_dialogs``) answers from the chat fallback instead, clicking a link as a player would. Either
way the input is a ``/trigger`` command; the real data pack's tick function (interpreted by the sandbox) moves
it into the input queue with the player's UUID, and the service polls it.

Phase clocks are shortened so a series finishes in well under a minute. The votes end as soon as everyone has
answered; the night's stages run their whole (short) clocks, as in every series, and bots choose with generators seeded from the series
seed, the contestant and the prompt number. A deadline fires only once the sandbox is quiet (every bot has
answered what it was shown: ``bridge/sandbox/quiet.py``), so however busy the machine, the same seed gives the
same game log run after run.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TextIO

from bridge.app.demo_bots import Bot, drive_bots, join_later
from bridge.app.demo_output import LiveAnnouncements, explain, phase_line, phase_printer
from bridge.app.demo_settings import (  # noqa: F401 - the settings' light home; the names stay importable here
    CLUB_DEMO_DURATIONS,
    DEMO_DURATIONS,
    DEMO_HOST,
    DEMO_NAMES,
    default_traitors,
    demo_settings,
)
from bridge.config.castle import default_castle
from bridge.errors import BridgeError
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.clock import rcon_quiet_gate
from bridge.loop.service import SeriesService
from bridge.minecraft.versions import OLDEST, McVersion
from engine.rulesets import DEFAULT_RULESET, RULESETS, new_game

if TYPE_CHECKING:  # the sandbox (and mecha) is imported only where it runs: `serve-demo` starts fast
    from bridge.sandbox.server import SandboxThread
    from bridge.web.hub import WebHub


async def play_demo(
    contestants: int = 12,
    seed: int = 1,
    *,
    out: TextIO | None = None,
    keep_sandbox: bool = False,
    ruleset: str = DEFAULT_RULESET,
    version: McVersion = OLDEST,
    on_service: Callable[[SeriesService], None] = lambda _service: None,
    fast_forward: bool = False,
    hosts: tuple[str, ...] = (),
) -> tuple[Any, SandboxThread, SeriesService]:
    """Play one demo series to its end.

    Args:
        contestants: 6–16 bots.
        seed: seed of the series and of the bots' choices.
        out: where to print public announcements live (``None``: print nothing).
        keep_sandbox: leave the sandbox running (tests inspect its world); the caller then stops it.
        ruleset: a name of ``engine.rulesets.RULESETS``.
        version: the Minecraft release the sandbox stands in for (the service learns it over RCON).
        on_service: called with the service before it runs (``--grimoire``: the web pages follow it).
        fast_forward: end each phase as soon as every bot has answered instead of at its clock's end
            (``bridge/loop/clock.py`` house rule 4): the same series, without the waits.
        hosts: the series' hosts (``demo --grimoire``: ``DEMO_HOST``); they join the sandbox but are no bots, so
            they act only when someone presses a control for them.

    Returns:
        The finished game, the sandbox thread and the service (``service.bots``: the bots, for tests).

    Raises:
        ConfigError: bad ``contestants``.
        RconUnavailable: the sandbox could not be reached.
    """
    from bridge.sandbox import quiet
    from bridge.sandbox.server import SandboxThread

    settings = demo_settings(contestants, ruleset, hosts)
    game = new_game(settings, seed)
    password = secrets.token_urlsafe(18)
    sandbox = SandboxThread(password, version=version)
    port = sandbox.start()
    try:
        for name in (*settings.contestants, *hosts):
            sandbox.join(name)
        # Every third bot closes its dialogs and answers in chat, so both ways are used in every demo.
        bots = [Bot(name, seed, closes_dialogs=i % 3 == 2) for i, name in enumerate(settings.contestants)]
        sandbox.call(quiet.install, sandbox.world, bots)
        observe = LiveAnnouncements(out, time.monotonic()) if out is not None else None
        async with RconClient("127.0.0.1", port, password, timeout=10.0) as rcon:
            service = SeriesService(
                game,
                rcon,
                default_castle(),
                poll_interval=0.02,
                observer=observe,
                players=PlayerDirectory(sandbox.players()),
                quiet=rcon_quiet_gate(rcon),
                fast_forward=fast_forward,
            )
            service.bots = bots  # type: ignore[attr-defined]
            await _run_service(service, rcon, sandbox, bots, observe, on_service)
    finally:
        if not keep_sandbox:
            sandbox.stop()
    return game, sandbox, service


async def _run_service(
    service: SeriesService,
    rcon: RconClient,
    sandbox: SandboxThread,
    bots: list[Bot],
    observe: LiveAnnouncements | None,
    on_service: Callable[[SeriesService], None],
) -> None:
    """Learn the release, build the castle, then run the series while the bots play (``play_demo``)."""
    from bridge.app.build_castle import build_demo_castle  # here: serve-demo resumes without the builder

    await service.learn_version()  # first: what is built next is built for that release
    await build_demo_castle(rcon.command)  # the castle of world_config/castle.toml, to play in
    stop = asyncio.Event()
    driver = asyncio.create_task(drive_bots(sandbox, bots, stop, 0.02, service.lock))
    on_service(service)
    try:
        await service.run()
    finally:
        stop.set()
        await driver
        if observe is not None:
            observe.flush()


# ---------------------------------------------------------------------------------------------- as processes


def run_sandbox_process(
    port: int,
    password: str,
    contestants: int = 12,
    seed: int = 1,
    report: str | None = None,
    *,
    msmp_secret: str | None = None,
    msmp_port: int = 0,
    names: tuple[str, ...] | None = None,
    hosts: tuple[str, ...] = (),
    phases: TextIO | None = None,
    reply_delay: float = 0.0,
    join_over: float = 0.0,
    release: Mapping[str, Any] | None = None,
) -> int:
    """``traitors sandbox``: the sandbox server plus bot contestants, until SIGTERM or Ctrl-C.

    The "Minecraft side" on its own, so a service process (``traitors serve-demo``) can be killed and
    restarted against it (``docs/recovery.md``). Prints ``sandbox ready 127.0.0.1:<port>`` once listening.

    Args:
        port: RCON port on 127.0.0.1 (0: any free port; the line printed names it).
        password: the RCON password.
        contestants: how many bots join (the demo's names, in seat order).
        seed: seed of the bots' choices (use the series seed to replay the demo exactly).
        report: a file to write at exit: JSON ``{"world": World.snapshot(), "commands": [[text, reply,
            outcome], …]}``.
        msmp_secret: also serve MSMP (``wss://127.0.0.1:<msmp_port>``, a self-signed certificate made at start)
            with this secret; the ready line then ends with `` msmp=wss://127.0.0.1:<port> msmp_ca=<file>``, the
            file being the certificate to trust (``[msmp] ca_file``).
        msmp_port: the MSMP port (0: any free port).
        names: the bots' names in seat order (default: the demo's names).
        hosts: players to join who are not bots (the hosts; tests press their console buttons).
        phases: where to print a ``phase_line`` each time the service starts a phase clock (``None``: nowhere).
        reply_delay: seconds the server waits before answering each command (a slow server; ``RconFaults``).
        join_over: seconds over which the bots join one by one after the ready line (0: all before it), so an
            MSMP client sees ``players/joined`` notifications.
        release: the sandbox's ``version``, ``startup_delay`` and ``upgrade_world`` (``bridge.sandbox.Sandbox``).

    Returns:
        Exit code 0.

    Raises:
        BridgeError: the port is taken (or cannot be bound), with the port in the message.
    """
    from bridge.sandbox import quiet

    names = tuple(names) if names else DEMO_NAMES[:contestants]
    sandbox, bound = _listen(password, port, msmp_secret, msmp_port, reply_delay, release)
    bots = _join_players(sandbox, names, hosts, seed, join_over)
    sandbox.call(quiet.install, sandbox.world, bots)
    extra = sandbox.sandbox.msmp_ready_fields()
    print(f"sandbox ready 127.0.0.1:{bound}{extra}", flush=True)
    try:
        asyncio.run(_run_bots_until_stopped(sandbox, bots, phases))
    finally:
        _write_report(sandbox, report)
        sandbox.stop()
    return 0


def _write_report(sandbox: SandboxThread, report: str | None) -> None:
    """``--report``: the world and the command log as JSON."""
    if report is not None:
        with open(report, "w", encoding="utf-8") as fh:
            json.dump({"world": sandbox.snapshot(), "commands": sandbox.command_log()}, fh, default=str)


def _join_players(
    sandbox: SandboxThread, names: tuple[str, ...], hosts: tuple[str, ...], seed: int, join_over: float
) -> list[Bot]:
    """The hosts join now; the bots (returned) join now too, or one by one over ``join_over`` seconds."""
    for name in (*names, *hosts) if join_over <= 0 else hosts:
        sandbox.join(name)
    bots = [Bot(name, seed) for name in names]
    if join_over > 0:
        join_later(bots, join_over)
    return bots


def _listen(
    password: str,
    port: int,
    msmp_secret: str | None,
    msmp_port: int,
    reply_delay: float,
    release: Mapping[str, Any] | None = None,
) -> tuple[SandboxThread, int]:
    """A started sandbox server, the shipped castle standing in its world, and the RCON port it listens on.

    Raises:
        BridgeError: a port cannot be bound (the message names the option and the reason).
    """
    from bridge.app.build_castle import place_demo_castle
    from bridge.sandbox.server import SandboxThread

    sandbox = SandboxThread(password, msmp_secret=msmp_secret, **(release or {}))
    sandbox.sandbox.rcon.faults.reply_delay = reply_delay
    place_demo_castle(sandbox.world.blocks)  # before the loop starts: serve-demo's teleports land in the castle
    try:
        return sandbox, sandbox.start(port=port, msmp_port=msmp_port)
    except OSError as exc:
        ports = f"--port {port}" + (f" or --msmp-port {msmp_port}" if msmp_secret is not None else "")
        why = os.strerror(exc.errno) if exc.errno else str(exc)
        raise BridgeError(
            f"sandbox: cannot listen on 127.0.0.1 ({ports}): {why}; choose another port, or 0 for any free port"
        ) from None


async def _run_bots_until_stopped(sandbox: SandboxThread, bots: list[Bot], phases: TextIO | None) -> None:
    """Drive the bots (and print the phases to ``phases``) until SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    watch = asyncio.create_task(_print_phases(sandbox, stop, phases)) if phases is not None else None
    await drive_bots(sandbox, bots, stop, 0.02)
    if watch is not None:
        await watch


async def _print_phases(sandbox: SandboxThread, stop: asyncio.Event, out: TextIO, interval: float = 0.1) -> None:
    """Print a ``phase_line`` for every phase clock the service starts: each call of the clock function
    (``bridge.minecraft.render.CLOCK_FUNCTION``) in the sandbox's command log (alone, or in a batch of commands,
    ``bridge.minecraft.batch``), with the name and seconds it was given."""
    import nbtlib

    from bridge.minecraft.batch import unpack
    from bridge.minecraft.render import CLOCK_FUNCTION
    from bridge.sandbox.nbt import to_python
    from bridge.sandbox.text import plain_text

    prefix = f"function {CLOCK_FUNCTION} "
    seen = 0

    def new_calls() -> list[str]:
        nonlocal seen
        log = sandbox.world.command_log
        fresh, seen = log[seen:], len(log)
        calls = [c for r in fresh if r.outcome == "ok" for c in unpack(r.text)]
        return [c[len(prefix) :] for c in calls if c.startswith(prefix)]

    while not stop.is_set():
        for arg in sandbox.call(new_calls):
            try:
                data = to_python(nbtlib.parse_nbt(arg))
                print(phase_line(plain_text(data.get("name")), float(data.get("seconds", 0))), file=out, flush=True)
            except (ValueError, TypeError, AttributeError):  # not the service's own call: nothing to show
                continue
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)


async def serve_stored(
    db: str,
    port: int,
    password: str,
    *,
    contestants: int = 12,
    seed: int = 1,
    out: TextIO | None = None,
    phases: TextIO | None = None,
    new: bool = False,
    web_port: int | None = None,
    timeout: float = 10.0,
) -> int:
    """``traitors serve-demo``: run (or resume) the newest series of a store against the sandbox at ``port``.

    A new store gets a new demo series (``demo_settings(contestants)``, ``seed``); so does an existing file that
    holds none, or whose series is over, only with ``new`` (``--new-series``; ``bridge/loop/store.py`` house rule 6). Prints
    ``ready series=<id> inputs=<n> phase=<phase>`` once resumed and re-synced, then (to ``phases``) a
    ``phase_line`` as each phase clock starts, and the game log at the end (to ``out``). With ``web_port`` (0:
    any free port) the host's grimoire and the spectator page are served on 127.0.0.1 (addresses on stdout).
    ``timeout`` (seconds, ``--timeout``) is how long the RCON client keeps trying to reach the sandbox at start
    (a server still starting refuses connections) and waits for each answer.

    Returns:
        Exit code 0 when the series is over; 130 when Ctrl-C (SIGINT) stopped it first, 1 when anything else did
        (SIGTERM). A stopped series resumes when the command runs again.

    Raises:
        StoreError: the store is locked by another service, not a store, empty without ``new``, or damaged; or
            ``new`` while its series is still running.
        RconUnavailable: the sandbox is not reachable within ``timeout`` at start.
    """
    from bridge.app.stored import open_store, refuse_new_while_running, store_is_there
    from bridge.loop.faults import Fault
    from bridge.loop.runner import run_series

    store = open_store(db, fresh=new) if store_is_there(db) else None
    try:
        if store is not None and new:  # before the sandbox is reached, as serve checks its store
            refuse_new_while_running(store)
        async with (
            RconClient("127.0.0.1", port, password, timeout=timeout) as rcon,
            web_pages(web_port, sys.stdout) as pages,
        ):
            if store is None:
                store = open_store(db, fresh=new)
            series_id = store.latest()
            if series_id is None or (new and store.is_over(series_id)):
                series_id = store.create(demo_settings(contestants), seed).id
            progress = _DemoProgress(series_id, phases, pages.hub if pages is not None else None)
            service = await run_series(
                store,
                series_id,
                rcon,
                default_castle(),
                poll_interval=0.02,
                on_ready=progress.ready,
                observer=progress.observer,
                quiet=rcon_quiet_gate(rcon),
                fault=Fault.from_env(os.environ),
            )
    finally:
        if store is not None:
            store.close()
    game = service.game
    if out is not None and game.outcome is not None:
        from bridge.app.export import format_record  # at the end only: a resume does not wait for it

        print(format_record(game.record, "text"), file=out)
    if game.outcome is not None:
        return 0
    return 130 if service.stopped_by == signal.SIGINT else 1  # Ctrl-C: the shell's 128 + SIGINT


class _DemoProgress:
    """What ``serve-demo`` prints: the ``ready`` line on stdout, and a ``phase_line`` per phase to ``phases``."""

    def __init__(self, series_id: int, phases: TextIO | None, hub: WebHub | None = None) -> None:
        self.series_id = series_id
        self.hub = hub
        self.service: SeriesService | None = None  # once resumed: the phase lines name its day
        self.observer = phase_printer(phases, self.day) if phases else None

    def day(self) -> int | None:
        return self.service.game.day if self.service is not None else None

    def ready(self, service: SeriesService) -> None:
        if self.hub is not None:
            self.hub.attach(service)
        game = service.game
        phase = game.phase.value if game.phase is not None else "none"
        print(f"ready series={self.series_id} inputs={len(game.log)} phase={phase}", flush=True)
        self.service = service


def run_demo(
    contestants: int = 12,
    seed: int = 1,
    fmt: str = "text",
    quiet: bool = False,
    ruleset: str = DEFAULT_RULESET,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    version: McVersion = OLDEST,
    grimoire: int | None = None,
    fast_forward: bool = False,
) -> int:
    """The ``traitors demo`` command: play a series, print its game log, and say who won and why.

    With ``grimoire`` (a port on 127.0.0.1, 0: any free one) the host's grimoire and the spectator page follow
    the series (their addresses go to ``err``) and stay up after it until Ctrl-C. ``fast_forward`` ends each
    phase once every bot has answered (``play_demo``).

    Only the game log, in ``fmt``, goes to ``out`` (stdout), so ``--format json`` output parses; the banner, the
    live announcements and the closing summary (``bridge.app.demo_output.explain``) go to ``err`` (stderr), and
    ``quiet`` leaves them out. The options are checked before anything is printed.

    Returns:
        Exit code 0 when the series finished, 1 otherwise.

    Raises:
        ConfigError: a bad ``contestants`` or ``ruleset`` (nothing printed yet).
    """
    from bridge.app.export import FORMATS, format_record

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    demo_settings(contestants, ruleset)  # raises ConfigError before the banner
    if fmt not in FORMATS:
        from engine.errors import ConfigError

        raise ConfigError(f"--format: {fmt!r} (known: {', '.join(FORMATS)})")
    started = time.monotonic()
    live = None if quiet else err
    if live is not None:
        print(
            f"Castle demo ({RULESETS[ruleset].title}): {contestants} bot contestants, seed {seed}, sandbox server "
            f"on 127.0.0.1 as Minecraft {version.name}\n",
            file=live,
            flush=True,
        )

    def report(game: Any, service: SeriesService) -> int:
        return _report(game, service, format_record(game.record, fmt), started, out=out, err=err, live=live)

    if grimoire is None:
        game, _, service = asyncio.run(
            play_demo(contestants, seed, out=live, ruleset=ruleset, version=version, fast_forward=fast_forward)
        )
        return report(game, service)
    return asyncio.run(
        _with_pages(
            grimoire,
            err,
            report,
            contestants=contestants,
            seed=seed,
            out=live,
            ruleset=ruleset,
            version=version,
            fast_forward=fast_forward,
        )
    )


def _report(
    game: Any, service: SeriesService, record: str, started: float, *, out: TextIO, err: TextIO, live: TextIO | None
) -> int:
    """The end of ``run_demo``: the game log to ``out``, the summary to ``live``; the exit code."""
    if live is not None and out.isatty():  # both on one screen: mark where the game log starts
        print("\n=== Game log ===\n", file=live, flush=True)
    print(record, file=out, flush=True)
    if game.outcome is None:
        print("The series did not finish.", file=err)
        return 1
    if live is not None:
        print("", file=live)
        for line in explain(game.record):
            print(line, file=live)
        print(f"{game.day} days, {len(game.log)} inputs, {time.monotonic() - started:.1f} s.", file=live, flush=True)
    if service.failed_commands:
        print(f"{len(service.failed_commands)} commands were refused by the server.", file=err)
    return 0


def web_pages(port: int | None, out: TextIO, host: str = DEMO_HOST) -> contextlib.AbstractAsyncContextManager[Any]:
    """The host's grimoire and the spectator page on 127.0.0.1:``port`` (0: any free one) for the block, with a
    new token for ``host`` and a one-time login link printed once to ``out`` (``bridge/web/server.py``); without
    ``port``, nothing, and the web stack is not even imported (``serve-demo`` starts fast)."""
    if port is None:
        return contextlib.nullcontext()
    from bridge.app.export import format_record
    from bridge.config.serve import WebConfig
    from bridge.web.auth import HostKeys
    from bridge.web.hub import WebHub
    from bridge.web.server import announce_pages, serving

    hub = WebHub(record_text=lambda record: format_record(record, "text"))
    return serving(WebConfig(port=port), HostKeys.one(host), hub=hub, announce=announce_pages(out))


async def _with_pages(port: int, err: TextIO, report: Callable[[Any, SeriesService], int], **demo: Any) -> int:
    """``demo --grimoire``: the demo with the host's grimoire and the spectator page on 127.0.0.1:``port``; once
    the series is over (and reported) the pages stay up until Ctrl-C."""
    async with web_pages(port, err) as pages:
        game, _, service = await grimoire_demo(pages.hub, **demo)
        code = report(game, service)
        print("The series is over; the pages stay up until Ctrl-C.", file=err, flush=True)
        await asyncio.Event().wait()
    return code


async def grimoire_demo(hub: WebHub, **demo: Any) -> tuple[Any, SandboxThread, SeriesService]:
    """The series of ``demo --grimoire`` (``play_demo`` with ``demo``'s arguments), followed by ``hub``, with
    ``DEMO_HOST`` as its host: the grimoire page's controls press for them."""
    return await play_demo(on_service=hub.attach, hosts=(DEMO_HOST,), **demo)
