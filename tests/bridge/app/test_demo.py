"""``traitors demo`` end to end: sandbox server + service over loopback RCON + bot contestants."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys
from typing import Any

import pytest

from bridge.app.demo import play_demo, run_demo
from bridge.minecraft.batch import unpack
from bridge.minecraft.syntax import check_command
from bridge.minecraft.versions import OLDEST, names, version_named
from engine.record import RoundTableRecord
from engine.rulesets import RULESETS


def _commands(log):
    """The sandbox's command log with every batch opened: the commands as the server ran them, in order."""
    return [(inner, reply, outcome) for text, reply, outcome in log for inner in unpack(text)]


@pytest.fixture(scope="module")
def demo12():
    out = io.StringIO()
    game, sandbox, service = asyncio.run(play_demo(12, seed=3, out=out, keep_sandbox=True, fast_forward=True))
    try:
        log = _commands(sandbox.command_log())
        chats = {n: [m.text for m in sandbox.chat(n)] for n in game.contestants()}
        dialogs = sandbox.call(lambda: {n: len(p.dialogs) for n, p in sandbox.world.players.items()})
        errors = sandbox.snapshot()["errors"]
        landings = sandbox.call(lambda: list(sandbox.world.bad_landings))
    finally:
        sandbox.stop()
    service.bad_landings = landings
    service.dialogs_shown = dialogs
    service.sandbox_errors = errors
    return game, log, chats, service, out.getvalue()


@pytest.mark.slow(reason="a whole 12-contestant series in the sandbox (the module's shared demo12)")
def test_demo_plays_a_whole_series(demo12):
    game, _, _, _, printed = demo12
    assert game.outcome is not None
    tables = [e for e in game.record.events if isinstance(e, RoundTableRecord)]
    assert tables and all(t.banished for t in tables)
    assert "Winners:" in printed or "win!" in printed


def test_every_teleport_lands_on_a_standable_spot_of_the_built_castle(demo12):
    game, log, _, service, _ = demo12
    assert sum(text.startswith(("fill ", "setblock ")) for text, _, _ in log) > 400  # the castle was built first
    teleports = [text for text, _, _ in log if text.startswith("tp ")]
    assert len(teleports) > len(game.contestants())
    assert service.bad_landings == []


def test_every_command_sent_parses_with_mecha(demo12):
    _, log, _, service, _ = demo12
    assert len(log) > 500
    for text, reply, outcome in log:
        check_command(text)  # raises on a syntax error
        assert outcome in ("ok", "failed"), (text, reply)
    assert service.failed_commands == []


def test_the_end_is_announced_once(demo12):
    """Issue 21 point 5: one chat line and one title say who won."""
    _, log, _, _, _ = demo12
    assert sum('translate:"traitors.series.over' in text for text, _, _ in log) == 1
    assert sum(text.startswith("title @a title ") and "series_over" in text for text, _, _ in log) == 1


def test_secrets_reach_only_their_holder(demo12):
    game, log, chats, _, _ = demo12
    traitors = (
        {p.name for p in game.players.values() if p.record_allegiance == "traitor"}
        if False
        else {c.name for c in game.record.contestants if c.allegiance == "traitor"}
    )
    for name, lines in chats.items():
        told_traitor = any("You have been chosen as a Traitor" in line for line in lines)
        assert told_traitor == (name in traitors)
        if name not in traitors and game.players[name].recruited_day is None:
            assert not any(line.startswith("[Castle, to you] The Traitors:") for line in lines)
    for text, _, _ in log:
        if text.startswith("tellraw @a"):
            assert "You have been chosen" not in text and "Your power" not in text


@pytest.fixture(scope="module")
def releases():
    """The 6-contestant series of the demo's default seed (1), fast-forwarded, on a sandbox of every supported
    release, all at once (a demo mostly waits for its phase clocks): {release name: (game, service, command log,
    sandbox errors)}. A short series (two days) with every kind of input a 6-contestant demo gives."""

    async def every_release():
        return await asyncio.gather(
            *(play_demo(6, seed=1, version=version_named(n), keep_sandbox=True, fast_forward=True) for n in names())
        )

    played = {}
    for name, (game, sandbox, service) in zip(names(), asyncio.run(every_release()), strict=True):
        try:
            played[name] = (game, service, sandbox.command_log(), sandbox.snapshot()["errors"])
        finally:
            sandbox.stop()
    return played


BUSY = "import time\nend = time.monotonic() + 120\nwhile time.monotonic() < end:\n    pass\n"
"""A process that keeps one core busy for at most two minutes (it ends by itself if the test dies)."""


@pytest.mark.slow(reason="a demo series beside three busy processes")
def test_same_seed_same_game_log_on_a_busy_machine(releases):
    """Issue 21 point 8: the series runs a second time sharing the cores with three busy processes; the phase clock
    waits for the bots (the quiet gate) and the bots answer only in a settled world (``test_demo_bots.py``), so
    the series and the order of its inputs are the same as on the idle machine (the oldest release's run of the
    module's ``releases``). The busy processes start as the series starts, once the sandbox is up and the castle
    built: the bots and the phase clock are what the load is for. Both runs fast-forward: every deadline is due at
    once, so the quiet gate alone keeps the clock from overtaking a slowed bot (the hardest case for it; the
    fast-forwarded series is the wall clock's: ``test_clock.py``). A short series suffices: its 41 inputs over two
    days give many phases in which several bots answer at once, where the order could differ."""
    a, _, _, _ = releases[OLDEST.name]
    busy: list[subprocess.Popen[bytes]] = []

    def load(_service: object) -> None:
        busy.extend(subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(3))

    try:
        b, _, service = asyncio.run(asyncio.wait_for(play_demo(6, seed=1, fast_forward=True, on_service=load), 120))
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert len(busy) == 3
    assert a.record.to_dict() == b.record.to_dict()
    assert a.outcome == b.outcome
    assert [e["action"] for e in a.log] == [e["action"] for e in b.log]
    assert service.phase_clock.rescued == 0


def test_run_demo_prints_log_and_winner(capsys, releases):
    """``traitors demo``'s series is the one ``play_demo`` plays for the same seed (the oldest release, the default,
    in the module's ``releases``); its game log goes to stdout, the banner and the summary to stderr."""
    from bridge.app.export import format_record

    assert run_demo(contestants=6, seed=1, fast_forward=True) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("# The Traitors") and "Winners:" in printed.out
    assert printed.out == format_record(releases[OLDEST.name][0].record, "text") + "\n"
    assert "Castle demo" in printed.err and "Why: " in printed.err


def test_every_input_goes_through_dialogs_and_triggers(demo12):
    game, _, _, service, _ = demo12
    bots = service.bots
    inputs = [e for e in game.log if e["action"] not in ("start_series", "timer_expired")]
    assert inputs, "the bots sent no input"
    # every accepted contestant input was a bot pressing a dialog button or clicking a chat link (a /trigger),
    # read by the data pack's tick function and the service; nothing else feeds the engine in the demo
    assert len(inputs) <= sum(b.answered + b.clicked for b in bots)
    assert sum(b.answered for b in bots) > 0 and sum(b.clicked for b in bots) > 0
    assert all(b.clicked == 0 for b in bots if not b.closes_dialogs)
    assert all(b.answered == 0 for b in bots if b.closes_dialogs)
    assert sum(service.dialogs_shown.values()) >= len(inputs)
    assert service.sandbox_errors == []


@pytest.mark.slow(reason="a demo series on the sandbox of each release, all at once (the module's releases)")
def test_a_short_series_plays_on_the_sandbox_of_every_release(releases):
    """Issue 18: the demo plays a whole series on a sandbox of each supported release: 6 contestants each, all at
    once (the module's ``releases``); each release learns its version over RCON and refuses nothing."""
    for name, (game, service, log, errors) in releases.items():
        version = version_named(name)
        assert game.outcome is not None, name
        assert service.mc_version is version and service.server_version.source == "rcon"
        assert log[0][0] == "version" and f"protocol = {version.protocol} " in log[0][1]
        assert service.failed_commands == [] and errors == [], name
    logs = [game.record.to_dict() for game, _, _, _ in releases.values()]
    assert all(log == logs[0] for log in logs)  # no command builder differs by release yet: the same series
    assert list(releases) == list(names())


@pytest.mark.parametrize("ruleset", [name for name, r in RULESETS.items() if r.family == "club"])
def test_club_demo_plays_a_whole_series(ruleset):
    """Each club ruleset runs in the castle: sandbox + service over loopback RCON + bots clicking prompts."""
    game, sandbox, service = asyncio.run(play_demo(8, seed=4, ruleset=ruleset, keep_sandbox=True, fast_forward=True))
    try:
        log = _commands(sandbox.command_log())
        errors = sandbox.snapshot()["errors"]
    finally:
        sandbox.stop()
    assert game.outcome is not None and game.ruleset == ruleset
    assert service.failed_commands == [] and errors == []
    for text, _, _ in log:
        check_command(text)
        if text.startswith("tellraw @a"):
            assert "Your card" not in text and "Your role" not in text
    inputs = [e for e in game.log if e["action"] not in ("start_series", "timer_expired")]
    assert inputs and len(inputs) <= sum(b.answered + b.clicked for b in service.bots)


def test_a_series_survives_a_contestant_kicked_mid_night() -> None:
    """``kick`` at the Turret: the service hears the leave over MSMP (``ContestantLeft``), the bot rejoins
    (``ContestantReturned``), the night resolves without waiting for the absent contestant, and the series ends.
    Six contestants, the fewest a series has: the first night already has a Turret with a Faithful to kick."""
    from bridge.app.demo import demo_settings
    from bridge.app.demo_bots import Bot, step_bots
    from bridge.config.castle import default_castle
    from bridge.io.msmp import MsmpClient
    from bridge.io.players import PlayerDirectory
    from bridge.io.rcon import RconClient
    from bridge.loop.clock import rcon_quiet_gate
    from bridge.loop.service import SeriesService
    from bridge.sandbox import quiet
    from bridge.sandbox.server import SandboxThread
    from engine.rulesets import new_game
    from engine.rulesets.traitors.phases import Phase

    settings = demo_settings(6)
    game = new_game(settings, 4)
    secret = "S" * 40
    sandbox = SandboxThread("pw", msmp_secret=secret)
    port = sandbox.start()
    kicked: list[tuple[str, Phase]] = []

    async def drive(service: SeriesService, bots: list[Bot], done: asyncio.Event) -> None:
        while not done.is_set():
            faithful = [n for n in game.present() if n in game.living_faithful()]
            if not kicked and game.phase is Phase.TURRET and faithful:
                kicked.append((faithful[0], game.phase))
                assert sandbox.call(sandbox.world.execute, f"kick {faithful[0]}").startswith("Kicked")
            step_bots(sandbox, bots)
            await asyncio.sleep(0.02)

    async def main() -> None:
        for name in settings.contestants:
            sandbox.join(name)
        bots = [Bot(name, 4) for name in settings.contestants]
        sandbox.call(quiet.install, sandbox.world, bots)
        msmp = MsmpClient(sandbox.sandbox.msmp_url or "", secret, timeout=5, ca_file=sandbox.sandbox.msmp_cert_file)
        async with RconClient("127.0.0.1", port, "pw", timeout=10.0) as rcon:
            service = SeriesService(
                game,
                rcon,
                default_castle(),
                poll_interval=0.02,
                players=PlayerDirectory(sandbox.players()),
                quiet=rcon_quiet_gate(rcon),
                fast_forward=True,
            )
            service.attach_msmp(msmp)
            await msmp.start()
            done = asyncio.Event()
            driver = asyncio.create_task(drive(service, bots, done))
            series = asyncio.create_task(service.run())
            try:
                await asyncio.wait({series, driver}, timeout=240, return_when=asyncio.FIRST_COMPLETED)
                assert series.done(), "the series ended"
                series.result()
            finally:
                done.set()
                series.cancel()
                await driver
                await msmp.close()
                await service.stop()

    try:
        asyncio.run(main())
    finally:
        sandbox.stop()
    assert kicked, "the series reached a Turret"
    name = kicked[0][0]
    actions = [(e["action"], e.get("contestant")) for e in game.log]
    left = actions.index(("contestant_left", name))
    assert ("contestant_returned", name) in actions[left:]
    assert game.outcome is not None
    assert game.players[name].present


def test_the_grimoire_follows_a_demo_series() -> None:
    """``demo --grimoire``: the pages are up while the bots play; at the end the host page's grimoire shows the
    series over and the spectator page holds the full record with its game log."""
    import json
    import urllib.request

    from bridge.app.cli import _parser
    from bridge.app.demo import grimoire_demo, web_pages

    assert _parser().parse_args(["demo", "--grimoire"]).grimoire == 8765
    assert _parser().parse_args(["demo", "--grimoire", "0"]).grimoire == 0
    printed = io.StringIO()

    async def run() -> tuple[list[dict[str, object]], str]:
        async with web_pages(0, printed) as pages:
            host = pages.hub.open_host()
            await grimoire_demo(pages.hub, contestants=6, seed=1, fast_forward=True)
            page = await asyncio.to_thread(lambda: urllib.request.urlopen(pages.base + "/spectate", timeout=5).read())
            record = pages.hub.spectator.history[-1]
            assert record["type"] == "record" and "## Result" in record["text"]
            return [json.loads(host.get_nowait()) for _ in range(host.qsize())], page.decode()

    messages, page = asyncio.run(run())
    clock = [m["set"]["clock"] for m in messages if m["type"] == "diff" and "clock" in m["set"]]
    assert clock[-1]["over"] and clock[-1]["winner"]
    assert "grimoire: http://127.0.0.1:" in printed.getvalue() and "watch the series" in page


def test_the_grimoire_demo_has_a_host_whose_controls_the_page_uses() -> None:
    """``demo --grimoire``: the series has a host (``DEMO_HOST``) with a token, so the page's controls work: the
    host ends the series from the page, and the record says so."""
    from bridge.app.demo import DEMO_HOST, grimoire_demo, web_pages
    from engine.outcome import Termination

    async def run() -> Any:
        async with web_pages(0, io.StringIO()) as pages:
            assert pages.keys.hosts == [DEMO_HOST]

            async def press_when_started() -> None:
                while pages.hub.service is None or pages.hub.service.game.phase is None:
                    await asyncio.sleep(0.01)
                await pages.hub.control(DEMO_HOST, {"control": "end_series"})

            pressing = asyncio.create_task(press_when_started())
            game, _, _ = await grimoire_demo(pages.hub, contestants=6, seed=2)
            await pressing
            return game

    game = asyncio.run(run())
    assert game.outcome.termination is Termination.HOST_ENDED
    assert [(a["host"], a["action"]) for a in game.record.host_actions] == [(DEMO_HOST, "end_series")]


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_demo_host_changes_nothing_until_pressed(ruleset: str) -> None:
    """The demo's host (``demo --grimoire``) answers nothing: the same seed plays the same series, round for
    round, as without a host."""
    from bridge.app.demo_settings import DEMO_HOST, demo_settings
    from engine.sim import play_series

    def played(hosts: tuple[str, ...]) -> dict[str, Any]:
        game, _ = play_series(demo_settings(12, ruleset, hosts), 3)
        record = game.record.to_dict()
        assert record.pop("settings")["hosts"] == list(hosts)
        return record

    assert played((DEMO_HOST,)) == played(())
