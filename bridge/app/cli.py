"""The ``traitors`` command line (README.md, "Other commands").

Subcommands:
    demo   the built-in sandbox server, the service over loopback RCON and bot contestants: a whole series.
    play   a scripted series (``docs/scenarios.md``) through the engine alone; prints the game log.
    doctor checks a server's settings over RCON and MSMP and says how to fix each (``docs/operator.md``).
    rehearse    runs every kind of command Castle sends on the real server and prints a table (``docs/operator.md``).
    install-datapack   copy the data pack into a world's ``datapacks/`` (``docs/datapack.md``).
    sandbox     the sandbox server with bot contestants as a process of its own (the "Minecraft side").
    serve-demo  the service for the series in a store (``--db``), against ``traitors sandbox``; resumable.
    serve       the service for a real series: ``--config serve.toml`` (``docs/operator.md``); resumable.
    init-config    write a sample castle, the shipped series files and a serve config into a folder.
    check-config   check castle, series, serve and scenario files; every problem names file and key.
    export      a stored (or scripted) series' record as text, MediaWiki or JSON (``docs/game-log.md``).
    simulate    the balance lab: many series with bot contestants through the engine alone (docs/simulate.md).
    build-castle   build the castle on the server over RCON and write its castle file; ``--remove`` takes it down.
    castle-map     draw a castle file's plan from above as a PNG (needs Pillow: the ``map`` extra).
    records     ``records import STORE…``: record the finished series of existing stores (``docs/seasons.md``).
    stats       the records' figures and each setup's balance-lab check, as text or ``--json``.
    balance     search a ruleset's setups for the fairest one for a cast (docs/simulate.md).

Exit codes: 0 ok, 2 bad input (the message names the file and field), 1 anything else, 130 Ctrl-C; ``serve`` and
``sandbox`` stop cleanly on Ctrl-C or SIGTERM and exit 0, ``serve-demo`` exits 130 on Ctrl-C and 1 on SIGTERM
before its series is over. Every failure is a one-line ``traitors: …`` message on stderr (``main``); ``--debug``
prints the traceback before it and keeps the exit code.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from bridge.app.ruleset_names import RULESET_NAMES
from engine.errors import ConfigError

if TYPE_CHECKING:  # each command imports what it needs when it runs: `traitors --help` starts fast
    from bridge.config.serve import RecordsConfig
    from bridge.records.db import RecordsDb

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C: 128 + SIGINT, as shells report a command ended by SIGINT."""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("castle-traitors")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class _VersionAction(argparse.Action):
    """``--version``: prints ``traitors <version>`` and exits 0. The version is read only when asked for: reading
    the package metadata costs every other command's start-up time."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:  # fmt: skip
        print(f"traitors {_version()}")
        parser.exit()


def _port(text: str) -> int:
    """An ``argparse`` type: a TCP port number, 0-65535 (0: any free port).

    Raises:
        argparse.ArgumentTypeError: not a whole number in that range (argparse then exits 2).
    """
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0-65535)")
    return port


Arguments = Callable[[argparse.ArgumentParser], None]
"""Adds one subcommand's options to its parser."""


def _release_argument(p: argparse.ArgumentParser) -> None:
    """``--version NAME``: the Minecraft release the sandbox stands in for (the versions table)."""
    from bridge.minecraft.versions import OLDEST, names

    p.add_argument("--version", dest="mc_version", default=OLDEST.name, choices=names(), metavar="RELEASE",
                   help=f"the Minecraft release the sandbox stands in for: {', '.join(names())} (default "
                   f"{OLDEST.name}, the oldest: what every supported server accepts)")  # fmt: skip


def _demo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", choices=RULESET_NAMES, metavar="RULESET",
                   help="ruleset: %(choices)s (default: the first)")  # fmt: skip
    p.add_argument("--contestants", type=int, default=12,
                   help="number of bot contestants, within the ruleset's range; default 12")  # fmt: skip
    p.add_argument("--seed", type=int, default=1, help="seed of the series and the bots (default 1)")
    p.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="game log format (default text)")
    p.add_argument("--quiet", action="store_true", help="print only the game log: no announcements, no summary")
    p.add_argument("--fast-forward", action="store_true",
                   help="end each phase as soon as every bot has answered, not at its clock's end: the same series, "
                   "without the waits")  # fmt: skip
    _release_argument(p)
    p.add_argument("--grimoire", type=_port, nargs="?", const=8765, metavar="PORT",
                   help="also serve the host's web grimoire and the spectator page on 127.0.0.1:PORT (default "
                   "8765; 0: any free port); they stay up after the series until Ctrl-C (docs/host.md)")  # fmt: skip


def _sandbox_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=_port, default=0, help="RCON port on 127.0.0.1 (default: any free port)")
    p.add_argument("--password-file", required=True, help="file holding the RCON password")
    p.add_argument("--bots", type=int, default=12, help="bot contestants to join: 0-16 (default 12)")
    p.add_argument("--seed", type=int, default=1, help="seed of the bots' choices (default 1)")
    p.add_argument("--report", help="write the world and the command log as JSON here at exit")
    p.add_argument("--msmp-secret-file", metavar="FILE",
                   help="also serve MSMP (wss://127.0.0.1, a self-signed certificate made at start) "
                   "with the secret in this file")  # fmt: skip
    p.add_argument("--msmp-port", type=_port, default=0, help="MSMP port (default: any free port)")
    p.add_argument("--names", metavar="A,B,…", help="the bots' names in seat order (default: the demo's)")
    p.add_argument("--hosts", metavar="A,B,…", help="also join these players (hosts; not bots)")
    p.add_argument("--quiet", action="store_true", help="print only the ready line, not the phases")
    p.add_argument("--reply-delay", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long before answering each command (a slow server; default 0)")  # fmt: skip
    p.add_argument("--join-over", type=float, default=0.0, metavar="SECONDS",
                   help="bots join one by one over this many seconds after the ready line (default 0: before it)")  # fmt: skip
    _release_argument(p)
    p.add_argument("--startup-delay", type=float, default=0.0, metavar="SECONDS",
                   help="26.2 and later: MSMP answers only rpc.discover for this long after the ready line, as a "
                   "starting server does (default 0)")  # fmt: skip
    p.add_argument("--upgrade-world", action="store_true",
                   help="26.3: the start-up is a world upgrade, reported by MSMP world/upgrade_* notifications "
                   "(over --startup-delay seconds, 2 by default)")  # fmt: skip


def _serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="serve config (TOML; see docs/operator.md)")
    p.add_argument("--new-series", action="store_true", help="start the next series after a finished one")
    p.add_argument("--insecure-bind", action="store_true",
                   help="serve the web pages on the [web] bind address without TLS (docs/host.md)")  # fmt: skip


def _init_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", help="where to write them (created; existing files are kept)")


def _check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="TOML files (castle.toml, series/*.toml, serve.toml)")


def _export_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", metavar="FILE", help="a series store (series.db) or a scenario file (.toml)")
    p.add_argument("--series", type=int, metavar="N", help="which series of the store (default: the newest)")
    p.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="output format")
    p.add_argument("--reveal", action="store_true",
                   help="print the record of a series that is still running (its Traitors and powers)")  # fmt: skip


def _serve_demo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", required=True, help="series store (SQLite; created if missing)")
    p.add_argument("--port", type=_port, required=True, help="the sandbox's RCON port on 127.0.0.1")
    p.add_argument("--password-file", required=True, help="file holding the RCON password")
    p.add_argument("--contestants", type=int, default=12, help="for a new series: contestants (6-16)")
    p.add_argument("--seed", type=int, default=1, help="for a new series: its seed (default 1)")
    p.add_argument("--new-series", action="store_true",
                   help="start a new series in an existing store that holds none, or whose series is over")  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="print only the ready line and the game log")
    p.add_argument("--web-port", type=_port, metavar="PORT",
                   help="also serve the host's web grimoire and the spectator page on 127.0.0.1:PORT (0: any free)")  # fmt: skip


def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("scenario", help="scenario file (TOML, see docs/scenarios.md)")
    p.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="output format")


def _doctor_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", metavar="FILE", help="a serve config (TOML): its [rcon], [msmp] and secrets_file "
                   "(the options below override them)")  # fmt: skip
    p.add_argument("--rcon", metavar="HOST:PORT", help="RCON address (default from server.properties, "
                   "else 127.0.0.1:25575)")  # fmt: skip
    p.add_argument("--msmp", metavar="URL", help="MSMP address, wss://HOST:PORT (TLS) or ws://HOST:PORT")
    p.add_argument("--msmp-ca-file", metavar="FILE", help="PEM certificate to trust for wss:// (the server's "
                   "self-signed certificate or its CA; default: the system's trust store)")  # fmt: skip
    p.add_argument("--server-dir", metavar="DIR", help="the server's folder, to read server.properties")
    p.add_argument("--secrets-file", metavar="FILE", help="KEY=value lines (CASTLE_RCON_PASSWORD, "
                   "CASTLE_MSMP_SECRET); chmod 600")  # fmt: skip
    p.add_argument("--datapack", default="file/traitors", help="the castle's data pack id (default file/traitors)")
    p.add_argument("--fix", action="store_true", help="set send_command_feedback and log_admin_commands off")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per connection and request")


def _rehearse_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", required=True, help="serve config (TOML; the server it names is rehearsed)")
    p.add_argument("--player", metavar="NAME", help="an online player to show a dialog, a book, a title, items "
                   "and the castle's seats to (put back where they stood afterwards)")  # fmt: skip


def _simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ruleset", choices=RULESET_NAMES, metavar="RULESET",
                   help="ruleset: %(choices)s (default: the first, or the settings file's)")  # fmt: skip
    p.add_argument("--contestants", type=int, help="bot contestants (default 12, or the settings file's)")
    p.add_argument("--series", type=int, required=True, help="how many series to play")
    p.add_argument("--seed", type=int, default=1, help="seed of the run (default 1); the same seed, the same result")
    p.add_argument("--json", action="store_true", help="print the result as JSON (no progress bar)")
    p.add_argument("--settings", metavar="FILE", help="a series file (TOML, as serve takes: world_config/series/*.toml)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1); the result does not change")
    p.add_argument("--bots", default="smart", help="bot kind: smart (default), opportunist, simple, random, or "
                   "per side, e.g. faithful=smart,traitor=random")  # fmt: skip
    p.add_argument("--twist-impact", action="store_true",
                   help="also play every series without each twist, to count how often it changed the outcome "
                   "(costs one more series per twist)")  # fmt: skip


def _build_castle_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="serve config (TOML) giving the RCON address and secrets; not needed with --dry-run")
    p.add_argument("--origin", type=int, nargs=3, metavar=("X", "Y", "Z"), default=[64, 64, -64],
                   help="the castle's north-west bottom corner: Y is its floor, one above the ground (default 64 64 -64)")  # fmt: skip
    p.add_argument("--seats", type=int, default=16, help="round-table seats and homes, 1-16 (default 16)")
    p.add_argument("--out", default="castle.toml", help="the castle file to write (default castle.toml); the build "
                   "record goes beside it (castle.build.json)")  # fmt: skip
    p.add_argument("--dry-run", action="store_true", help="print the plan's size and send nothing")
    p.add_argument("--commands", action="store_true", help="with --dry-run: print every command of the build")
    p.add_argument("--force", action="store_true", help="build even where the area holds blocks that are not air")
    p.add_argument("--remove", action="store_true", help="take down the castle recorded beside --out (restores air)")


def _castle_map_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("castle", metavar="CASTLE.toml", help="a castle file (one written by build-castle shows its walls)")
    p.add_argument("--out", default="castle.png", help="the picture to write (default castle.png)")
    p.add_argument("--scale", type=int, default=6, help="pixels per block (2-16, default 6)")


def _balance_arguments(p: argparse.ArgumentParser) -> None:
    from bridge.app.balance_options import add_arguments

    add_arguments(p)


def _balance(args: argparse.Namespace) -> int:
    from bridge.app.balance import from_arguments

    return from_arguments(args)


def _records_source(p: argparse.ArgumentParser) -> None:
    """``--config`` / ``--records``: which records database (docs/seasons.md)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--config", metavar="FILE", help="a serve config: its [records] database, castle and season")
    where.add_argument("--records", metavar="URL", help="the records database: a file (SQLite) or "
                       "postgresql://user@host:port/db (default: records.db here)")  # fmt: skip


def _records_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=["import"], help="import: record the finished series of existing stores")
    p.add_argument("stores", nargs="+", metavar="STORE", help="series stores (series.db)")
    _records_source(p)
    p.add_argument("--castle", help="the castle they were played in (default: [records] castle, or this machine)")
    p.add_argument("--season", help="their season label (default: [records] season, or none)")


def _records(args: argparse.Namespace) -> int:
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


def _stats_arguments(p: argparse.ArgumentParser) -> None:
    _records_source(p)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--season", help="only this season's series (the label of [records] season)")
    p.add_argument("--castle", help="only this castle's series")
    p.add_argument("--no-lab", action="store_true", help="play no series: use the lab predictions already cached")
    p.add_argument("--refresh-lab", action="store_true", help="make every setup's lab prediction again")
    p.add_argument("--lab-series", type=int, help="series per setup for the lab (default: [records] lab_series, 1000)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for the lab (default 1)")


def _stats(args: argparse.Namespace) -> int:
    from bridge.app.stats import run_stats

    if args.lab_series is not None and args.lab_series < 10:
        raise ConfigError(f"--lab-series: {args.lab_series}; at least 10")
    if args.jobs < 1:
        raise ConfigError(f"--jobs: {args.jobs}; at least 1")
    db, records = _records_db(args)
    return run_stats(db, season=args.season, castle=args.castle, as_json=args.json,
                     lab_series=args.lab_series or records.lab_series, lab_seed=records.lab_seed, lab=not args.no_lab,
                     refresh=args.refresh_lab, jobs=args.jobs)  # fmt: skip


def _install_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--world", required=True, help="the world folder (it holds level.dat)")
    p.add_argument("--zip", action="store_true", help="install as castle-traitors.zip instead of a folder")
    p.add_argument("--resourcepack", metavar="FILE", help="also write the resource pack (languages) as a zip")


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``traitors demo: argument --seed: …``) and exit 2, as
    every other failure of the command line; ``--help`` still prints the whole usage. Subparsers are made of the
    same class (argparse's ``add_subparsers`` defaults ``parser_class`` to the parent's type)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")


def _parser() -> argparse.ArgumentParser:
    """The ``traitors`` parser: one subcommand per row of ``COMMANDS``, in its order."""
    parser = _Parser(prog="traitors", description="Run The Traitors inside a Minecraft castle.")
    parser.add_argument("--version", action=_VersionAction, nargs=0, help="show program's version number and exit")
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failure")
    # Also accepted after the subcommand; SUPPRESS keeps a subcommand from resetting a --debug given before it.
    common = _Parser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show the traceback of a failure")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for c in COMMANDS.values():
        # --help starts with the one-line help, then the description
        text = c.help[0].upper() + c.help[1:] + "." + (f" {c.description}" if c.description else "")
        c.arguments(sub.add_parser(c.name, help=c.help, description=text, parents=[common]))
    return parser


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of subcommand ``name`` in ``parser`` (``_parser``'s)."""
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub: argparse.ArgumentParser = action.choices[name]
    return sub


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``traitors`` console script: every failure ends as one message and an exit code.

    Known failures print ``traitors: <message>`` on stderr (a config problem may print one line per problem,
    each naming file and field); an unexpected one prints its type and text. ``--debug`` prints the traceback
    too, with the same exit code. Ctrl-C exits 130 with nothing printed; a reader that closes stdout early (``| head``) ends the
    command quietly with exit code 1, as the Python docs' "Note on SIGPIPE" recommends.

    Args:
        argv: arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 0 ok, 2 bad input, 1 anything else, 130 interrupted (Ctrl-C).
    """
    from bridge.errors import BridgeError

    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # the subcommand's parser says it, so the message points to that command's --help
        _subcommand(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        code = _dispatch(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handler, not at interpreter exit
        return code
    except BrokenPipeError:
        # Python docs, signal module, "Note on SIGPIPE": stdout goes to devnull so the final flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR
    except KeyboardInterrupt as exc:
        if args.debug:
            _print_traceback(exc)
        return EXIT_INTERRUPTED
    except ConfigError as exc:
        return _fail(args, exc, str(exc), EXIT_BAD_INPUT)
    except OSError as exc:
        return _fail(args, exc, os_error_text(exc), EXIT_ERROR)
    except BridgeError as exc:
        return _fail(args, exc, str(exc), EXIT_ERROR)
    except Exception as exc:  # every command, every failure: a message, never a traceback (unless --debug)
        return _fail(args, exc, f"unexpected {type(exc).__name__}: {exc} (run with --debug to see where)", EXIT_ERROR)


def _fail(args: argparse.Namespace, exc: BaseException, message: str, code: int) -> int:
    """Print ``traitors: message`` on stderr and return ``code``; ``--debug`` prints ``exc``'s traceback first and
    keeps the exit code (a script's check of bad input, 2, holds while it is debugged)."""
    if args.debug:
        _print_traceback(exc)
    for line in message.splitlines() or [""]:  # a config error names each problem on a line of its own
        print(f"traitors: {line}", file=sys.stderr)
    return code


def _print_traceback(exc: BaseException) -> None:
    """``--debug``: the traceback of ``exc`` on stderr, as Python prints an uncaught exception."""
    import traceback

    traceback.print_exception(exc, file=sys.stderr)


def os_error_text(exc: OSError) -> str:
    """One line for an ``OSError``: ``"<file>: <reason>"`` (``"out/series: Not a directory"``), or its text."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    if exc.filename2 is not None:
        return f"{exc.filename} -> {exc.filename2}: {reason}"
    return f"{exc.filename}: {reason}"


def _dispatch(args: argparse.Namespace) -> int:
    """Run the chosen subcommand; its errors propagate to ``main``'s one handler."""
    return COMMANDS[args.command].run(args)


def _demo(args: argparse.Namespace) -> int:
    from bridge.app.demo import run_demo
    from bridge.minecraft.versions import version_named
    from engine.rulesets import DEFAULT_RULESET

    return run_demo(contestants=args.contestants, seed=args.seed, fmt=args.format, quiet=args.quiet,
                    ruleset=args.ruleset or DEFAULT_RULESET, version=version_named(args.mc_version),
                    grimoire=args.grimoire, fast_forward=args.fast_forward)  # fmt: skip


def _simulate(args: argparse.Namespace) -> int:
    from bridge.app.simulate import run_simulate

    return run_simulate(
        ruleset=args.ruleset, contestants=args.contestants, series=args.series, seed=args.seed,
        as_json=args.json, settings_file=args.settings, jobs=args.jobs, bots=args.bots,
        twist_impact=args.twist_impact,
    )  # fmt: skip


def _init_config(args: argparse.Namespace) -> int:
    from bridge.app.serve import init_config

    for path in init_config(args.folder):
        print(f"wrote {path}")
    print(f"next: edit {args.folder}/serve.toml, then: traitors check-config {args.folder}/*.toml "
          f"{args.folder}/series/*.toml")  # fmt: skip
    return EXIT_OK


def _install(args: argparse.Namespace) -> int:
    from bridge.minecraft.datapack import install, write_resourcepack_zip

    if args.resourcepack and not Path(args.resourcepack).absolute().parent.is_dir():
        raise ConfigError(f"--resourcepack {args.resourcepack}: no folder {Path(args.resourcepack).absolute().parent}"
                          " to write it into")  # fmt: skip
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


def _sandbox(args: argparse.Namespace) -> int:
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
        raise ConfigError(f"--startup-delay: Minecraft {version.name} (MSMP {version.msmp}) answers every call "
                          "from the ready line on; a start-up that answers only rpc.discover is 26.2 and later")  # fmt: skip
    delay = 2.0 if args.upgrade_world and args.startup_delay == 0 else args.startup_delay
    if args.upgrade_world and tuple(int(x) for x in version.msmp.split(".")) < (3, 1):
        raise ConfigError(f"--upgrade-world: Minecraft {version.name} (MSMP {version.msmp}) reports no world "
                          "upgrade; use --version 26.3")  # fmt: skip
    return run_sandbox_process(args.port, password, args.bots, args.seed, args.report, msmp_secret=secret,
                               msmp_port=args.msmp_port, names=names, hosts=hosts,
                               phases=None if args.quiet else sys.stdout, reply_delay=args.reply_delay,
                               join_over=args.join_over, release={"version": version, "startup_delay": delay,
                                                                  "upgrade_world": args.upgrade_world})  # fmt: skip


def _serve_demo(args: argparse.Namespace) -> int:
    import asyncio

    from bridge.app.demo import serve_stored

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    password = _read_password(args.password_file)
    return asyncio.run(serve_stored(args.db, args.port, password, contestants=args.contestants, seed=args.seed,
                                    out=sys.stdout, phases=None if args.quiet else sys.stdout, new=args.new_series,
                                    web_port=args.web_port))  # fmt: skip


def _serve(args: argparse.Namespace) -> int:
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


def _check_config(args: argparse.Namespace) -> int:
    from bridge.config.loader import check_files

    ok, problems = check_files(args.files)
    for line in ok:
        print(line)
    for line in problems:  # every command-line failure reads "traitors: <file>: <problem>"
        print(f"traitors: {line}", file=sys.stderr)
    return EXIT_BAD_INPUT if problems else EXIT_OK


def _export(args: argparse.Namespace) -> int:
    from bridge.app.export import format_record, load_record

    print(format_record(load_record(args.source, args.series, reveal=args.reveal), args.format))
    return EXIT_OK


def _play(args: argparse.Namespace) -> int:
    from bridge.app.export import format_record
    from bridge.config.kinds import require_kind
    from bridge.config.play import play_scenario
    from bridge.config.scenario import load_scenario

    require_kind(args.scenario, "scenario")
    scenario = load_scenario(args.scenario)
    game = play_scenario(scenario)
    print(format_record(game.record, args.format))
    return EXIT_OK


def _build_castle(args: argparse.Namespace) -> int:
    from bridge.app.build_castle import BuildOptions, run_build_castle

    opts = BuildOptions(config=args.config, origin=(args.origin[0], args.origin[1], args.origin[2]), seats=args.seats,
                        out=Path(args.out), dry_run=args.dry_run, force=args.force, remove=args.remove,
                        commands=args.commands)  # fmt: skip
    return run_build_castle(opts, os.environ)


def _castle_map(args: argparse.Namespace) -> int:
    from bridge.app.castle_map import run_castle_map

    return run_castle_map(args.castle, args.out, args.scale)


def _doctor(args: argparse.Namespace) -> int:
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
    opts = DoctorOptions(rcon_password=rcon_password, msmp_secret=msmp_secret, datapack=args.datapack,
                         fix=args.fix, timeout=args.timeout)  # fmt: skip
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


def _rehearse(args: argparse.Namespace) -> int:
    from bridge.app.rehearse import run_rehearse

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    return run_rehearse(args.config, os.environ, player=args.player)


@dataclass(frozen=True, slots=True)
class Command:
    """One subcommand: its name, its one-line ``help`` and longer ``description`` (``--help``), the function
    that adds its options, and the function that runs it (returns the exit code)."""

    name: str
    help: str
    description: str
    arguments: Arguments
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {c.name: c for c in (
    Command("demo", "play a whole series with bot contestants in the built-in sandbox server",
            "The live announcements and the closing summary go to stderr; stdout carries only the game log in the "
            "chosen --format. --seed N repeats a series.", _demo_arguments, _demo),
    Command("sandbox", "run the built-in sandbox server with bot contestants (the Minecraft side) until stopped",
            "Prints 'sandbox ready 127.0.0.1:PORT' once listening, then each phase as its clock starts. Pair it "
            "with `traitors serve-demo` (docs/recovery.md). SIGTERM or Ctrl-C stops it.", _sandbox_arguments,
            _sandbox),
    Command("serve", "run (or resume) the series configured in --config against a Minecraft server",
            "Secrets come from CASTLE_RCON_PASSWORD / CASTLE_MSMP_SECRET or the config's secrets_file (chmod 600), "
            "never from the command line or the config. SIGTERM stops cleanly; run again to resume.",
            _serve_arguments, _serve),
    Command("init-config", "write a sample castle, series files and serve.toml into a folder",
            "Existing files are kept. Then edit serve.toml and run `traitors check-config`.", _init_arguments,
            _init_config),
    Command("check-config", "check castle, series, serve and scenario files",
            "Each file's kind comes from its keys; every problem names the file and the key. Exit code 2 when any "
            "file has a problem.", _check_arguments, _check_config),
    Command("export", "print a series record from a store (series.db) or a scenario file",
            "The record names every allegiance and power: a series that is still running is printed only with "
            "--reveal (docs/game-log.md).", _export_arguments, _export),
    Command("serve-demo", "run or resume the series stored in --db against a running `traitors sandbox`",
            "Prints 'ready series=… inputs=… phase=…' once resumed, each phase as its clock starts, and the game "
            "log at the end. Kill it at any moment and run it again: the series carries on (docs/recovery.md).",
            _serve_demo_arguments, _serve_demo),
    Command("play", "play a scripted scenario through the engine and print the game log",
            "A scenario file (docs/scenarios.md) holds the settings, the deal and every input; no server is "
            "involved. Examples: tests/scenarios/*.toml.", _play_arguments, _play),
    Command("doctor", "check a server's settings over RCON and MSMP",
            "Secrets come from CASTLE_RCON_PASSWORD / CASTLE_MSMP_SECRET or --secrets-file, never from the command "
            "line. Exit code 1 when a check fails.", _doctor_arguments, _doctor),
    Command("rehearse", "run every kind of command Castle sends on the server of --config and print a table",
            "Run it before the first series: it checks the version, the data pack, storage, scoreboard, bossbar, "
            "function, chat and, with --player, a dialog, a book, a title, items and the castle's seats; then it "
            "cleans up. Exit code 1 when a check fails: report the table.", _rehearse_arguments, _rehearse),
    Command("simulate", "the balance lab: play many series with bot contestants through the engine and print "
            "win rates", "Plays --series series with bot contestants through the engine alone and prints each "
            "side's win rate (95 % Wilson interval), the average series length, how often each power or role was "
            "on the winning side and which twists changed the outcome. See docs/simulate.md.",
            _simulate_arguments, _simulate),
    Command("balance", "search a ruleset's setups for the ones whose win rate is closest to a target",
            "Plays every setup the settings allow (number of Traitors, drunk, Joker, twists, first-night murder; "
            "the club rulesets' deal and day vote) with bots, racing: a setup is dropped once its interval rules it "
            "out, so series go to the close ones. See docs/simulate.md.", _balance_arguments, _balance),
    Command("install-datapack", "copy the data pack into a world's datapacks/ folder",
            "Then run /reload (or restart the server). --resourcepack also writes the language resource pack as a "
            "zip (docs/datapack.md).", _install_arguments, _install),
    Command("build-castle", "build the castle on the server and write the castle file of what was built",
            "Over RCON (--config serve.toml). Reads the area first and refuses to build over blocks that are not air "
            "unless --force; --remove takes down exactly what it built. See docs/operator.md#the-castle.",
            _build_castle_arguments, _build_castle),
    Command("castle-map", "draw a castle file's plan from above (rooms, seats, homes) as a PNG",
            "Needs Pillow: pip install 'castle-traitors[map]'.", _castle_map_arguments, _castle_map),
    Command("records", "record the finished series of existing series stores in the records database",
            "`records import STORE…` replays every finished series of each store and writes it once (a series "
            "already recorded is left as it is; one still running is not recorded). See docs/seasons.md.",
            _records_arguments, _records),
    Command("stats", "the records' figures: players, leaderboard, powers, twists, setups against the balance lab",
            "Reads the records database ([records] of --config, or --records). Each recorded setup is also played by "
            "the balance lab (traitors simulate, cached in the database) to set its predicted win rates beside the "
            "real ones. See docs/seasons.md.", _stats_arguments, _stats),
)}  # fmt: skip
"""Every subcommand, in the order ``--help`` lists them."""


if __name__ == "__main__":
    raise SystemExit(main())
