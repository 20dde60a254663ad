"""What each ``traitors`` subcommand does once its options are parsed (``bridge.app.cli.COMMANDS`` pairs each
with its options, ``bridge.app.cli_options``): each function takes the parsed arguments, imports what its command
needs when it runs, and returns the exit code; its failures propagate to ``bridge.app.cli.main``'s one handler.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import ConfigError

if TYPE_CHECKING:  # each command imports what it needs when it runs: `traitors --help` starts fast
    from bridge.config.serve import RecordsConfig
    from bridge.records.db import RecordsDb

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report a command ended by SIGINT."""


def demo_command(args: argparse.Namespace) -> int:
    """Run ``traitors demo`` with its parsed options; return the exit code."""
    from bridge.app.demo import run_demo
    from bridge.minecraft.versions import version_named
    from engine.rulesets import DEFAULT_RULESET

    return run_demo(
        contestants=args.contestants,
        seed=args.seed,
        fmt=args.format,
        quiet=args.quiet,
        ruleset=args.ruleset or DEFAULT_RULESET,
        version=version_named(args.mc_version),
        grimoire=args.grimoire,
        fast_forward=args.fast_forward,
    )


def simulate_command(args: argparse.Namespace) -> int:
    """Run ``traitors simulate`` with its parsed options; return the exit code."""
    from bridge.app.simulate import run_simulate

    return run_simulate(
        ruleset=args.ruleset,
        contestants=args.contestants,
        series=args.series,
        seed=args.seed,
        as_json=args.json,
        settings_file=args.settings,
        jobs=args.jobs,
        bots=args.bots,
        twist_impact=args.twist_impact,
    )


def init_config_command(args: argparse.Namespace) -> int:
    """Run ``traitors init-config`` with its parsed options; return the exit code. Prints one line per sample
    file: ``wrote <path>``, or ``kept <path> (already there)`` for a file it leaves as it was."""
    from bridge.app.serve import init_config

    for path, written in init_config(args.folder):
        print(f"wrote {path}" if written else f"kept {path} (already there)")
    print(
        f"next: edit {args.folder}/serve.toml, then: traitors check-config {args.folder}/*.toml "
        f"{args.folder}/series/*.toml"
    )
    return EXIT_OK


def install_command(args: argparse.Namespace) -> int:
    """Run ``traitors install-datapack`` with its parsed options; return the exit code."""
    from bridge.minecraft.datapack import install, write_resourcepack_zip

    if args.resourcepack and not Path(args.resourcepack).absolute().parent.is_dir():
        raise ConfigError(
            f"--resourcepack {args.resourcepack}: no folder {Path(args.resourcepack).absolute().parent}"
            " to write it into"
        )
    path = install(args.world, as_zip=args.zip)
    print(f"installed the data pack: {path}")
    if args.resourcepack:
        print(f"wrote the resource pack: {write_resourcepack_zip(args.resourcepack)}")
    print("run /reload (or restart the server) to load it")
    return EXIT_OK


def _read_password(path: str) -> str:
    from bridge.config.files import read_secret_file

    password = read_secret_file(path, "password file").strip()
    if not password:
        raise ConfigError(f"{path}: the password file is empty")
    return password


def sandbox_command(args: argparse.Namespace) -> int:
    """Run ``traitors sandbox`` with its parsed options; return the exit code."""
    from bridge.app.demo import run_sandbox_process
    from bridge.config.castle import MAX_SEATS
    from bridge.minecraft.versions import version_named
    from engine.core.cast import check_cast

    if not 0 <= args.bots <= MAX_SEATS:  # more bots than seats were silently cut to the demo's 16 names
        raise ConfigError(f"--bots: {args.bots}; 0-{MAX_SEATS} (a series has at most {MAX_SEATS} contestants)")
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    password = _read_password(args.password_file)
    secret = _read_password(args.msmp_secret_file) if args.msmp_secret_file else None
    names = tuple(n for n in (args.names or "").split(",") if n) or None
    hosts = tuple(n for n in (args.hosts or "").split(",") if n)
    check_cast(names or (), hosts, field="--names", hosts_field="--hosts")
    version = version_named(args.mc_version)
    if args.startup_delay < 0:
        raise ConfigError(f"--startup-delay: {args.startup_delay} is not 0 or more seconds")
    if args.startup_delay > 0 and not version.msmp_answers_before_start:
        raise ConfigError(
            f"--startup-delay: Minecraft {version.name} (MSMP {version.msmp}) answers every call "
            "from the ready line on; a start-up that answers only rpc.discover is 26.2 and later"
        )
    delay = 2.0 if args.upgrade_world and args.startup_delay == 0 else args.startup_delay
    if args.upgrade_world and tuple(int(x) for x in version.msmp.split(".")) < (3, 1):
        raise ConfigError(
            f"--upgrade-world: Minecraft {version.name} (MSMP {version.msmp}) reports no world "
            "upgrade; use --version 26.3"
        )
    return run_sandbox_process(
        args.port,
        password,
        args.bots,
        args.seed,
        args.report,
        msmp_secret=secret,
        msmp_port=args.msmp_port,
        names=names,
        hosts=hosts,
        phases=None if args.quiet else sys.stdout,
        reply_delay=args.reply_delay,
        join_over=args.join_over,
        release={"version": version, "startup_delay": delay, "upgrade_world": args.upgrade_world},
    )


def serve_demo_command(args: argparse.Namespace) -> int:
    """Run ``traitors serve-demo`` with its parsed options; return the exit code."""
    import asyncio

    from bridge.app.demo import serve_stored

    if not args.timeout > 0:
        raise ConfigError(f"--timeout: {args.timeout}; a number of seconds above 0")
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    password = _read_password(args.password_file)
    return asyncio.run(
        serve_stored(
            args.db,
            args.port,
            password,
            contestants=args.contestants,
            seed=args.seed,
            out=sys.stdout,
            phases=None if args.quiet else sys.stdout,
            new=args.new_series,
            web_port=args.web_port,
            timeout=args.timeout,
        )
    )


def serve_command(args: argparse.Namespace) -> int:
    """Run ``traitors serve`` with its parsed options; return the exit code."""
    import asyncio

    from bridge.app.serve import serve, setup_logging
    from bridge.config.serve import load_serve_config
    from bridge.errors import BridgeError

    config = load_serve_config(args.config)
    setup_logging(config.log_format, config.log_level)
    try:
        return asyncio.run(serve(config, os.environ, new=args.new_series, insecure_bind=args.insecure_bind))
    except BridgeError as exc:
        logging.getLogger("castle.serve").error("cannot run the series: %s", exc, extra={"event": "failed"})
        print(f"traitors: {exc}", file=sys.stderr)
        return EXIT_ERROR


def check_config_command(args: argparse.Namespace) -> int:
    """Run ``traitors check-config`` with its parsed options; return the exit code."""
    from bridge.config.loader import check_files

    ok, problems = check_files(args.files)
    for line in ok:
        print(line)
    for line in problems:  # every command-line failure reads "traitors: <file>: <problem>"
        print(f"traitors: {line}", file=sys.stderr)
    return EXIT_BAD_INPUT if problems else EXIT_OK


def export_command(args: argparse.Namespace) -> int:
    """Run ``traitors export`` with its parsed options; return the exit code."""
    from bridge.app.export import format_record, load_record

    print(format_record(load_record(args.source, args.series, reveal=args.reveal), args.format))
    return EXIT_OK


def play_command(args: argparse.Namespace) -> int:
    """Run ``traitors play`` with its parsed options; return the exit code."""
    from bridge.app.export import format_record
    from bridge.config.kinds import require_kind
    from bridge.config.play import play_scenario
    from bridge.config.scenario import load_scenario

    require_kind(args.scenario, "scenario")
    scenario = load_scenario(args.scenario)
    game = play_scenario(scenario)
    print(format_record(game.record, args.format))
    return EXIT_OK


def build_castle_command(args: argparse.Namespace) -> int:
    """Run ``traitors build-castle`` with its parsed options; return the exit code."""
    from bridge.app.build_castle import BuildOptions, run_build_castle

    opts = BuildOptions(
        config=args.config,
        origin=(args.origin[0], args.origin[1], args.origin[2]),
        seats=args.seats,
        out=Path(args.out),
        dry_run=args.dry_run,
        force=args.force,
        remove=args.remove,
        commands=args.commands,
    )
    return run_build_castle(opts, os.environ)


def castle_map_command(args: argparse.Namespace) -> int:
    """Run ``traitors castle-map`` with its parsed options; return the exit code."""
    from bridge.app.castle_map import run_castle_map

    return run_castle_map(args.castle, args.out, args.scale)


def doctor_command(args: argparse.Namespace) -> int:
    """Run ``traitors doctor`` with its parsed options; return the exit code."""
    import asyncio

    from bridge.app.doctor import (
        DoctorOptions,
        format_report,
        load_secrets,
        options_from_properties,
        read_properties,
        run_doctor,
    )
    from bridge.config.serve import load_serve_config

    if not args.timeout > 0:
        raise ConfigError(f"--timeout: {args.timeout}; a number of seconds above 0")
    serve = load_serve_config(args.config) if args.config else None
    secrets = Path(args.secrets_file) if args.secrets_file else (serve.secrets_file if serve else None)
    rcon_password, msmp_secret = load_secrets(os.environ, secrets)
    opts = DoctorOptions(
        rcon_password=rcon_password, msmp_secret=msmp_secret, datapack=args.datapack, fix=args.fix, timeout=args.timeout
    )
    if serve is not None:
        opts.rcon_host, opts.rcon_port = serve.rcon_host, serve.rcon_port
        opts.msmp_url, opts.msmp_ca_file = serve.msmp_url, serve.msmp_ca_file
    if args.server_dir:
        opts.server_dir = Path(args.server_dir)
        props_path = opts.server_dir / "server.properties"
        if props_path.exists() and serve is None:  # the serve config's addresses are the ones Castle uses
            opts.rcon_host, opts.rcon_port, opts.msmp_url = options_from_properties(read_properties(props_path))
    if args.rcon:
        host, sep, port = args.rcon.rpartition(":")
        if not sep or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ConfigError(f"--rcon: {args.rcon!r}; expected HOST:PORT with a port 1..65535")
        opts.rcon_host, opts.rcon_port = host or "127.0.0.1", int(port)
    if args.msmp:
        if not args.msmp.startswith(("ws://", "wss://")):
            raise ConfigError(f"--msmp: {args.msmp!r}; expected ws://HOST:PORT or wss://HOST:PORT")
        opts.msmp_url = args.msmp
    if args.msmp_ca_file:
        opts.msmp_ca_file = Path(args.msmp_ca_file)
    checks = asyncio.run(run_doctor(opts))
    print(format_report(checks))
    return EXIT_ERROR if any(c.status == "FAIL" for c in checks) else EXIT_OK


def rehearse_command(args: argparse.Namespace) -> int:
    """Run ``traitors rehearse`` with its parsed options; return the exit code."""
    from bridge.app.rehearse import run_rehearse

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    return run_rehearse(args.config, os.environ, player=args.player)


def balance_command(args: argparse.Namespace) -> int:
    """Run ``traitors balance`` with its parsed options; return the exit code."""
    from bridge.app.balance import from_arguments

    return from_arguments(args)


def records_command(args: argparse.Namespace) -> int:
    """Run ``traitors records`` with its parsed options; return the exit code."""
    from bridge.app.records import import_stores

    db, records = _records_db(args)
    castle = args.castle or records.castle
    return import_stores(args.stores, db, castle=castle, season=args.season or records.season, out=sys.stdout)


def _records_db(args: argparse.Namespace) -> tuple[RecordsDb, RecordsConfig]:
    """The records database and ``[records]`` section that ``--config`` or ``--records`` name."""
    import socket

    from bridge.app.records import records_db, records_password
    from bridge.config.serve import RecordsConfig, load_serve_config

    if args.config:
        config = load_serve_config(args.config)
        records, secrets_file = config.records, config.secrets_file
    else:
        records = RecordsConfig(url=args.records or "records.db", base=Path.cwd(), castle=socket.gethostname())
        secrets_file = None
    return records_db(records, records_password(os.environ, secrets_file)), records


def stats_command(args: argparse.Namespace) -> int:
    """Run ``traitors stats`` with its parsed options; return the exit code."""
    from bridge.app.stats import run_stats

    if args.lab_series is not None and args.lab_series < 10:
        raise ConfigError(f"--lab-series: {args.lab_series}; at least 10")
    if args.jobs < 1:
        raise ConfigError(f"--jobs: {args.jobs}; at least 1")
    db, records = _records_db(args)
    return run_stats(
        db,
        season=args.season,
        castle=args.castle,
        as_json=args.json,
        lab_series=args.lab_series or records.lab_series,
        lab_seed=records.lab_seed,
        lab=not args.no_lab,
        refresh=args.refresh_lab,
        jobs=args.jobs,
    )
