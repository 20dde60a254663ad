"""``traitors build-castle``: build the castle on the server over RCON, write the castle file of what was built,
and take it down again with ``--remove`` (docs/operator.md#the-castle).

The plan and its commands come from ``bridge.minecraft.castle`` (sans-I/O); this module sends them one by one
(vanilla RCON takes one command at a time), shows a progress bar on a terminal, and keeps a record of the build
(``castle.build.json`` beside the castle file, written atomically) that ``--remove`` reads.

Safety: before building, the chunks are force-loaded and every block of the castle's areas is read (the probe of
``bridge.minecraft.castle.survey``); if any is not air the build is refused, unless ``--force``. ``--remove``
fills the recorded areas with air, so it restores air where the castle stood (what ``--force`` overwrote is not
brought back).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from tqdm import tqdm

from bridge.app.doctor import load_secrets
from bridge.config.castle import write_castle, write_text_atomically
from bridge.config.model import read_toml, validate
from bridge.config.serve import ServeModel
from bridge.errors import BridgeError
from bridge.io.rcon import RconClient
from bridge.minecraft.castle.blueprint import BLUEPRINT, CastlePlan, plan_castle
from bridge.minecraft.castle.geometry import Box, Pos
from bridge.minecraft.castle.survey import (
    BuildRecord,
    forceload_commands,
    probe_pieces,
    remove_commands,
    reply_ok,
)
from bridge.sandbox.blocks import Blocks
from engine.errors import ConfigError

__all__ = [
    "DEFAULT_ORIGIN",
    "DEFAULT_SEATS",
    "build",
    "build_demo_castle",
    "place_demo_castle",
    "record_path",
    "remove",
    "run_build_castle",
]

DEFAULT_ORIGIN: Pos = (64, 64, -64)
"""Where the shipped castle (``world_config/castle.toml``) stands: its north-west bottom corner."""
DEFAULT_SEATS = 16

NOT_LOADED_RETRIES = 8
"""How often a probe that meets a chunk not loaded yet is tried again (0.25 s, doubling, capped at 2 s)."""

Send = Callable[[str], Awaitable[str]]
"""Sends one command and returns the server's reply (``RconClient.command``)."""


class _Progress(Protocol):
    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


class CastleRefused(BridgeError):
    """The castle's area is not empty (and ``--force`` was not given), or the server refused a build command."""


@dataclass(frozen=True, slots=True)
class BuildReport:
    """A finished build or removal: ``commands`` sent (the probe and force-loading included), ``seconds`` it
    took, and ``not_air`` blocks found in the area before it (overwritten with ``--force``)."""

    commands: int
    seconds: float
    not_air: int = 0


def record_path(castle_file: str | Path) -> Path:
    """The build record beside a castle file: ``castle.toml`` → ``castle.build.json``."""
    path = Path(castle_file)
    return path.with_name(path.stem + ".build.json")


async def _send_all(send: Send, commands: Sequence[str], bar: _Progress | None, what: str) -> None:
    for cmd in commands:
        reply = await send(cmd)
        if not reply_ok(reply):
            raise CastleRefused(f"{what}: the server refused `{cmd}`: {reply.strip() or 'no reply'}")
        if bar is not None:
            bar.update(1)


async def probe(send: Send, areas: Sequence[Box]) -> tuple[int, int]:
    """Count the blocks of ``areas`` that are not air, leaving the world as it was.

    Returns:
        ``(not_air, commands_sent)``.

    Raises:
        CastleRefused: a probe reply is an error that retrying does not clear (the message quotes it).
    """
    not_air, sent = 0, 0
    for piece in probe_pieces(areas):
        wait = 0.25
        for attempt in range(NOT_LOADED_RETRIES + 1):
            reply = await send(piece.mark)
            sent += 1
            found = piece.not_air(reply)
            if found is not None:
                not_air += found
                break
            if attempt == NOT_LOADED_RETRIES or "not loaded" not in reply:
                raise CastleRefused(f"cannot read the area {piece.box.text()}: {reply.strip() or 'no reply'}")
            await asyncio.sleep(wait)  # force-loaded chunks load over the next ticks
            wait = min(wait * 2, 2.0)
        await send(piece.unmark)
        sent += 1
    return not_air, sent


async def build(send: Send, plan: CastlePlan, *, force: bool = False, err: TextIO | None = None) -> BuildReport:
    """Build ``plan`` through ``send``: force-load, probe, every command of the plan, release the chunks.

    Args:
        send: sends one command, returns the reply.
        plan: from ``plan_castle``.
        force: build over blocks that are not air.
        err: where the progress bar goes (shown only on a terminal); ``None``: no bar.

    Raises:
        CastleRefused: the area is not empty and not ``force``, or the server refused a command.
        BridgeError: the connection failed (from ``send``).
    """
    started = time.monotonic()
    loads, frees = forceload_commands(plan.areas), forceload_commands(plan.areas, add=False)
    for cmd in loads:
        await send(cmd)
    try:
        not_air, probed = await probe(send, plan.areas)
        if not_air and not force:
            first = plan.areas[0]
            raise CastleRefused(
                f"{not_air} blocks that are not air are where the castle would stand (from "
                f"{first.x1} {first.y1} {first.z1}); choose another --origin, or add --force"
            )
        commands = plan.commands()
        bar = _bar(len(commands), err, "building")
        try:
            await _send_all(send, commands, bar, "build")
        finally:
            if bar is not None:
                bar.close()
    finally:
        for cmd in frees:
            await send(cmd)
    sent = len(loads) + probed + len(commands) + len(frees)
    return BuildReport(sent, time.monotonic() - started, not_air)


async def remove(send: Send, record: BuildRecord, err: TextIO | None = None) -> BuildReport:
    """Fill every area of ``record`` with air (force-loading its chunks meanwhile).

    Raises:
        CastleRefused: the server refused a command.
    """
    started = time.monotonic()
    loads, frees = forceload_commands(record.areas), forceload_commands(record.areas, add=False)
    commands = remove_commands(record.areas)
    for cmd in loads:
        await send(cmd)
    bar = _bar(len(commands), err, "removing")
    try:
        await _send_all(send, commands, bar, "remove")
    finally:
        if bar is not None:
            bar.close()
        for cmd in frees:
            await send(cmd)
    return BuildReport(len(loads) + len(commands) + len(frees), time.monotonic() - started)


def _bar(total: int, err: TextIO | None, what: str) -> _Progress | None:
    if err is None or not err.isatty():
        return None
    bar: _Progress = tqdm(total=total, file=err, unit="cmd", desc=what, leave=False)
    return bar


async def build_demo_castle(send: Send) -> CastlePlan:
    """Build the shipped castle (``DEFAULT_ORIGIN``, 16 seats; ``world_config/castle.toml`` is its castle file)
    in a fresh sandbox, for the demo.

    Raises:
        CastleRefused: the sandbox refused a command (a bug: the tests build it).
    """
    plan = plan_castle(DEFAULT_ORIGIN, DEFAULT_SEATS)
    await build(send, plan)
    return plan


def place_demo_castle(blocks: Blocks) -> CastlePlan:
    """Put the shipped castle straight into a sandbox's block model, without commands (``traitors sandbox``: its
    world starts with the castle of ``world_config/castle.toml`` standing)."""
    plan = plan_castle(DEFAULT_ORIGIN, DEFAULT_SEATS)
    blocks.apply(plan.ops)
    return plan


def record_for(plan: CastlePlan, report: BuildReport) -> BuildRecord:
    """The record of a finished build of ``plan``."""
    return BuildRecord(BLUEPRINT, plan.origin, plan.seats, plan.areas, report.commands, report.not_air)


# ------------------------------------------------------------------------------------------ the command line


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """``traitors build-castle``'s options (see ``bridge.app.cli``)."""

    config: str | None
    origin: Pos
    seats: int
    out: Path
    dry_run: bool = False
    force: bool = False
    remove: bool = False
    commands: bool = False


def _connection(opts: BuildOptions, env: Mapping[str, str]) -> tuple[str, int, str]:
    """The RCON address and password from the serve config's ``[rcon]`` and ``secrets_file`` (the rest of the
    file is checked for its shape only: its castle file may be the one this command is about to write)."""
    if opts.config is None:
        raise ConfigError("--config: the serve config (for the RCON address) is needed unless --dry-run")
    path = Path(opts.config)
    model = validate(ServeModel, read_toml(path), str(path))
    secrets = None
    if model.secrets_file:
        secrets = Path(model.secrets_file).expanduser()
        secrets = secrets if secrets.is_absolute() else path.parent / secrets
    password, _ = load_secrets(env, secrets)
    if password is None:
        raise ConfigError(
            f"{path}: no RCON password: set CASTLE_RCON_PASSWORD in the environment"
            + (f" or in {secrets}" if secrets else " or use secrets_file")
        )
    return model.rcon.host, model.rcon.port, password


def run_build_castle(
    opts: BuildOptions, env: Mapping[str, str], out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run ``traitors build-castle``; returns the exit code (0).

    Raises:
        ConfigError: bad options, a bad serve config, no password, an unreadable record (exit 2).
        CastleRefused: the area is not empty (without ``--force``) or the server refused a command (exit 1).
        BridgeError: the server cannot be reached (exit 1).
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if opts.remove:
        return _run_remove(opts, env, out, err)
    try:
        plan = plan_castle(opts.origin, opts.seats)
    except ValueError as exc:
        raise ConfigError(f"--origin/--seats: {exc}") from None
    commands = plan.commands()
    if opts.dry_run:
        if opts.commands:
            print("\n".join(commands), file=out)
        print(
            f"the castle: {len(commands)} commands ({sum(op.box.volume for op in plan.ops)} blocks set) in "
            f"{len(plan.areas)} areas from {' '.join(map(str, plan.origin))}, {plan.seats} seats; nothing sent",
            file=out if not opts.commands else err,
        )
        return 0
    if not opts.out.parent.is_dir():  # found out before the build, not after it, when nothing would record it
        raise ConfigError(f"--out {opts.out}: the folder {opts.out.parent} does not exist")
    host, port, password = _connection(opts, env)
    report = asyncio.run(_build_over_rcon(host, port, password, plan, opts.force, err))
    write_castle(opts.out, plan.castle, f"Built by `traitors build-castle` ({len(commands)} commands).")
    write_text_atomically(record_path(opts.out), record_for(plan, report).to_json())
    over = f"; {report.not_air} blocks that were not air overwritten" if report.not_air else ""
    print(f"built the castle: {report.commands} commands in {report.seconds:.1f} s{over}", file=out)
    print(
        f"wrote {opts.out} and {record_path(opts.out)} (traitors build-castle --remove --out {opts.out} takes it down)",
        file=out,
    )
    return 0


async def _build_over_rcon(
    host: str, port: int, password: str, plan: CastlePlan, force: bool, err: TextIO
) -> BuildReport:
    async with RconClient(host, port, password, timeout=10.0) as rcon:
        return await build(rcon.command, plan, force=force, err=err)


def _run_remove(opts: BuildOptions, env: Mapping[str, str], out: TextIO, err: TextIO) -> int:
    path = record_path(opts.out)
    try:
        record = BuildRecord.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no build record (build-castle writes it beside --out {opts.out})") from None
    except ValueError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    if opts.dry_run:
        print(f"removing the castle: {len(remove_commands(record.areas))} commands; nothing sent", file=out)
        return 0
    host, port, password = _connection(opts, env)

    async def run() -> BuildReport:
        async with RconClient(host, port, password, timeout=10.0) as rcon:
            return await remove(rcon.command, record, err)

    report = asyncio.run(run())
    os.replace(path, path.with_name(path.name + ".removed"))
    print(
        f"removed the castle: {report.commands} commands in {report.seconds:.1f} s; air restored in its "
        f"{len(record.areas)} areas ({path} kept as {path.name}.removed)",
        file=out,
    )
    return 0
