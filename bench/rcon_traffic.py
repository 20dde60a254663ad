"""RCON round trips and bytes per round table (12 and 16 contestants) and per whole series.

Plays demo series (``traitors demo``: the sandbox, the service over loopback RCON, bot contestants pressing the
dialogs' buttons) and counts every command the service sends, with its bytes on the wire both ways (RCON framing:
14 bytes per packet plus the UTF-8 payload). Each command is filed under the phase whose clock was shown last
(``ClockStarted``), so a round table is everything from its clock through the vote, the reveals and the
banishment, up to the announcement that night falls (or the finale begins). A command that carries the effects
of several phases (a batch of one step's commands, ``bridge.minecraft.batch``) counts in a round table when any of
them is in one. The service's queue polls and acks are time-driven, not game-driven: they are counted apart.

``--compare COMMIT`` runs this same script, with the same arguments, on a temporary worktree of COMMIT too and
prints both side by side. The last line is the figure alone: round trips per 12-contestant round table (or per
round table of the first cast size).

Usage: python bench/rcon_traffic.py [--contestants 12 16] [--seeds 1 2 3] [--top 12] [--compare COMMIT]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import secrets
import statistics
from typing import Any

import checkout  # noqa: I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import demo_settings
from bridge.config.castle import default_castle
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient
from bridge.loop.service import SeriesService
from bridge.sandbox.server import SandboxThread
from engine.effects import Announce, ClockStarted, Effect
from engine.rulesets import new_game

try:
    from bridge.app.demo_bots import Bot, drive_bots
except ImportError:  # a commit before the demo's bots had their own module (``--compare 85c18ad``)
    from bridge.app.demo import Bot
    from bridge.app.demo import _drive_bots as drive_bots

FRAME = 14
"""RCON framing per packet: length, request id and type (4 bytes each) and two NUL bytes."""
POLLS = ("data get storage traitors:io", "data remove storage traitors:io")
ROUND_TABLE = ("clock.round_table", "clock.vote")
NIGHT_FALLS = ("phase.night", "phase.finale")
"""Announcements that end a round table (the next clock starts later, in the same input's effects)."""


async def _play(contestants: int, seed: int) -> list[tuple[int, str, str, str]]:
    """One demo series; every command sent as (round-table number or 0, phase label, text, reply)."""
    settings = demo_settings(contestants)
    game = new_game(settings, seed)
    password = secrets.token_urlsafe(12)
    sandbox = SandboxThread(password)
    port = sandbox.start()
    sent: list[tuple[int, str, str, str]] = []
    label = ["setup"]
    table = [0]
    try:
        for name in settings.contestants:
            sandbox.join(name)
        bots = [Bot(name, seed, closes_dialogs=False) for name in settings.contestants]

        seen = [0]  # the round table any effect since the last command was in (0: none)

        def observe(effect: Effect) -> None:
            if isinstance(effect, Announce) and effect.message.key in NIGHT_FALLS:
                label[0] = "night"  # the banishment is over: the rest of this input's effects start the night
            if isinstance(effect, ClockStarted):
                key = effect.label.key
                if key == "clock.round_table":
                    table[0] += 1
                label[0] = key
            if label[0] in ROUND_TABLE:
                seen[0] = table[0]

        async with RconClient("127.0.0.1", port, password, timeout=10.0) as rcon:
            original = rcon.command

            async def counting(text: str) -> str:
                reply = await original(text)
                in_table = table[0] if label[0] in ROUND_TABLE else seen[0]
                seen[0] = 0
                sent.append((in_table, label[0], text, reply))
                return reply

            rcon.command = counting  # type: ignore[method-assign]
            service = SeriesService(
                game,
                rcon,
                default_castle(),
                poll_interval=0.02,
                observer=observe,
                players=PlayerDirectory(sandbox.players()),
            )
            stop = asyncio.Event()
            driver = asyncio.create_task(drive_bots(sandbox, bots, stop, 0.02))
            try:
                await service.run()
            finally:
                stop.set()
                await driver
    finally:
        sandbox.stop()
    return sent


def wire(text: str, reply: str) -> int:
    """Bytes on the wire for one command and its (single-packet) reply."""
    return 2 * FRAME + len(text.encode("utf-8")) + len(reply.encode("utf-8"))


def report(contestants: int, seeds: list[int], top: int) -> dict[str, Any]:
    tables_n: list[int] = []
    tables_b: list[int] = []
    series_n: list[int] = []
    series_b: list[int] = []
    kinds: collections.Counter[str] = collections.Counter()
    for seed in seeds:
        sent = asyncio.run(_play(contestants, seed))
        game_cmds = [s for s in sent if not s[2].startswith(POLLS)]
        series_n.append(len(game_cmds))
        series_b.append(sum(wire(t, r) for _, _, t, r in game_cmds))
        per: dict[int, list[tuple[str, str]]] = collections.defaultdict(list)
        for n, _, t, r in game_cmds:
            if n:
                per[n].append((t, r))
        for cmds in per.values():
            tables_n.append(len(cmds))
            tables_b.append(sum(wire(t, r) for t, r in cmds))
            kinds.update(_verb(t) for t, _ in cmds)
    out = {
        "contestants": contestants,
        "series": len(seeds),
        "round_tables": len(tables_n),
        "per_round_table": (statistics.mean(tables_n), statistics.mean(tables_b)),
        "per_series": (statistics.mean(series_n), statistics.mean(series_b)),
    }
    out["tables"] = len(tables_n)
    out["kinds"] = {k: v / len(tables_n) for k, v in kinds.most_common(top)}
    return out


def _verb(text: str) -> str:
    """A command's verb, ``run`` for a batch of several commands (``bridge.minecraft.batch``)."""
    try:
        from bridge.minecraft.batch import unpack  # absent from a commit before batches
    except ImportError:
        return text.split(" ", 1)[0]
    inner = unpack(text)
    if len(inner) == 1:
        return text.split(" ", 1)[0]
    return "run"


def show(name: str, out: dict[str, Any]) -> None:
    n = out["tables"]
    print(f"{name}: {out['contestants']} contestants, {out['series']} series, {n} round tables:")
    print(
        f"  per round table: {out['per_round_table'][0]:7.1f} round trips, {out['per_round_table'][1] / 1000:7.1f} kB"
    )
    print(
        f"  per series:      {out['per_series'][0]:7.1f} round trips, {out['per_series'][1] / 1000:7.1f} kB"
        "  (queue polls and acks not counted)"
    )
    print(
        "  round-table commands by verb (mean per round table): "
        + ", ".join(f"{k} {v:.1f}" for k, v in out["kinds"].items())
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contestants", type=int, nargs="*", default=[12, 16])
    parser.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--compare", metavar="COMMIT", help="also measure COMMIT (a temporary worktree of it)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    argv = ["--contestants", *map(str, args.contestants), "--seeds", *map(str, args.seeds), "--top", str(args.top)]
    before = (
        json.loads(checkout.run_on_commit(args.compare, __file__, [*argv, "--json"]).splitlines()[-1])
        if args.compare
        else None
    )
    now = [report(c, args.seeds, args.top) for c in args.contestants]
    if args.json:
        print(json.dumps(now))
        return
    for i, out in enumerate(now):
        if before is not None:
            show(f"{args.compare}", before[i])
            show("this checkout", out)
            a, b = before[i], out
            print(
                f"  change: round trips per round table {a['per_round_table'][0]:.1f} -> {b['per_round_table'][0]:.1f}, "
                f"per series {a['per_series'][0]:.0f} -> {b['per_series'][0]:.0f} "
                f"({100 * b['per_series'][0] / a['per_series'][0]:.0f} %), bytes per round table "
                f"{a['per_round_table'][1] / 1000:.1f} -> {b['per_round_table'][1] / 1000:.1f} kB"
            )
        else:
            show("this checkout", out)
    print(f"{now[0]['per_round_table'][0]:.1f}")


if __name__ == "__main__":
    main()
