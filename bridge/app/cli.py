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

This module is the table of subcommands (``COMMANDS``) and ``main``; each subcommand's options are in
``bridge.app.cli_options``, what it does in ``bridge.app.cli_commands``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bridge.app.cli_commands import (
    EXIT_BAD_INPUT,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    balance_command,
    build_castle_command,
    castle_map_command,
    check_config_command,
    demo_command,
    doctor_command,
    export_command,
    init_config_command,
    install_command,
    play_command,
    records_command,
    rehearse_command,
    sandbox_command,
    serve_command,
    serve_demo_command,
    simulate_command,
    stats_command,
)
from bridge.app.cli_options import (
    Arguments,
    Parser,
    VersionAction,
    balance_arguments,
    build_castle_arguments,
    castle_map_arguments,
    check_arguments,
    demo_arguments,
    doctor_arguments,
    export_arguments,
    init_arguments,
    install_arguments,
    play_arguments,
    records_arguments,
    rehearse_arguments,
    sandbox_arguments,
    serve_arguments,
    serve_demo_arguments,
    simulate_arguments,
    stats_arguments,
)
from bridge.app.ruleset_names import RULESET_NAMES
from engine.errors import ConfigError

__all__ = [
    "COMMANDS",
    "EXIT_BAD_INPUT",
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "RULESET_NAMES",
    "Command",
    "main",
    "os_error_text",
]


def _parser() -> Parser:
    """The ``traitors`` parser: one subcommand per row of ``COMMANDS``, in its order."""
    parser = Parser(prog="traitors", description="Run The Traitors inside a Minecraft castle.")
    parser.add_argument("--version", action=VersionAction, nargs=0, help="show program's version number and exit")
    parser.add_argument("--debug", action="store_true", help="show the traceback of a failure")
    # Also accepted after the subcommand; SUPPRESS keeps a subcommand from resetting a --debug given before it.
    common = Parser(add_help=False)
    common.add_argument(
        "--debug", action="store_true", default=argparse.SUPPRESS, help="show the traceback of a failure"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for c in COMMANDS.values():
        # --help starts with the one-line help, then the description
        text = c.help[0].upper() + c.help[1:] + "." + (f" {c.description}" if c.description else "")
        parser.subcommands[c.name] = sub.add_parser(c.name, help=c.help, description=text, parents=[common])
        c.arguments(parser.subcommands[c.name])
    return parser


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
        parser.subcommands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
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


@dataclass(frozen=True, slots=True)
class Command:
    """One subcommand: its name, its one-line ``help`` and longer ``description`` (``--help``), the function
    that adds its options, and the function that runs it (returns the exit code)."""

    name: str
    help: str
    description: str
    arguments: Arguments
    run: Callable[[argparse.Namespace], int]


COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command(
            "demo",
            "play a whole series with bot contestants in the built-in sandbox server",
            "The live announcements and the closing summary go to stderr; stdout carries only the game log in the "
            "chosen --format. --seed N repeats a series.",
            demo_arguments,
            demo_command,
        ),
        Command(
            "sandbox",
            "run the built-in sandbox server with bot contestants (the Minecraft side) until stopped",
            "Prints 'sandbox ready 127.0.0.1:PORT' once listening, then each phase as its clock starts. Pair it "
            "with `traitors serve-demo` (docs/recovery.md). SIGTERM or Ctrl-C stops it.",
            sandbox_arguments,
            sandbox_command,
        ),
        Command(
            "serve",
            "run (or resume) the series configured in --config against a Minecraft server",
            "Secrets come from CASTLE_RCON_PASSWORD / CASTLE_MSMP_SECRET or the config's secrets_file (chmod 600), "
            "never from the command line or the config. SIGTERM stops cleanly; run again to resume.",
            serve_arguments,
            serve_command,
        ),
        Command(
            "init-config",
            "write a sample castle, series files and serve.toml into a folder",
            "Existing files are kept. Then edit serve.toml and run `traitors check-config`.",
            init_arguments,
            init_config_command,
        ),
        Command(
            "check-config",
            "check castle, series, serve and scenario files",
            "Each file's kind comes from its keys; every problem names the file and the key. Exit code 2 when any "
            "file has a problem.",
            check_arguments,
            check_config_command,
        ),
        Command(
            "export",
            "print a series record from a store (series.db) or a scenario file",
            "The record names every allegiance and power: a series that is still running is printed only with "
            "--reveal (docs/game-log.md).",
            export_arguments,
            export_command,
        ),
        Command(
            "serve-demo",
            "run or resume the series stored in --db against a running `traitors sandbox`",
            "Prints 'ready series=… inputs=… phase=…' once resumed, each phase as its clock starts, and the game "
            "log at the end. Kill it at any moment and run it again: the series carries on (docs/recovery.md).",
            serve_demo_arguments,
            serve_demo_command,
        ),
        Command(
            "play",
            "play a scripted scenario through the engine and print the game log",
            "A scenario file (docs/scenarios.md) holds the settings, the deal and every input; no server is "
            "involved. Examples: tests/scenarios/*.toml.",
            play_arguments,
            play_command,
        ),
        Command(
            "doctor",
            "check a server's settings over RCON and MSMP",
            "Secrets come from CASTLE_RCON_PASSWORD / CASTLE_MSMP_SECRET or --secrets-file, never from the command "
            "line. Exit code 1 when a check fails.",
            doctor_arguments,
            doctor_command,
        ),
        Command(
            "rehearse",
            "run every kind of command Castle sends on the server of --config and print a table",
            "Run it before the first series: it checks the version, the data pack, storage, scoreboard, bossbar, "
            "function, chat and, with --player, a dialog, a book, a title, items and the castle's seats; then it "
            "cleans up. Exit code 1 when a check fails: report the table.",
            rehearse_arguments,
            rehearse_command,
        ),
        Command(
            "simulate",
            "the balance lab: play many series with bot contestants through the engine and print win rates",
            "Plays --series series with bot contestants through the engine alone and prints each "
            "side's win rate (95 % Wilson interval), the average series length, how often each power or role was "
            "on the winning side and which twists changed the outcome. See docs/simulate.md.",
            simulate_arguments,
            simulate_command,
        ),
        Command(
            "balance",
            "search a ruleset's setups for the ones whose win rate is closest to a target",
            "Plays every setup the settings allow (number of Traitors, drunk, Joker, twists, first-night murder; "
            "the club rulesets' deal and day vote) with bots, racing: a setup is dropped once its interval rules it "
            "out, so series go to the close ones. See docs/simulate.md.",
            balance_arguments,
            balance_command,
        ),
        Command(
            "install-datapack",
            "copy the data pack into a world's datapacks/ folder",
            "Then run /reload (or restart the server). --resourcepack also writes the language resource pack as a "
            "zip (docs/datapack.md).",
            install_arguments,
            install_command,
        ),
        Command(
            "build-castle",
            "build the castle on the server and write the castle file of what was built",
            "Over RCON (--config serve.toml). Reads the area first and refuses to build over blocks that are not air "
            "unless --force; --remove takes down exactly what it built. See docs/operator.md#the-castle.",
            build_castle_arguments,
            build_castle_command,
        ),
        Command(
            "castle-map",
            "draw a castle file's plan from above (rooms, seats, homes) as a PNG",
            "Needs Pillow: pip install 'castle-traitors[map]'.",
            castle_map_arguments,
            castle_map_command,
        ),
        Command(
            "records",
            "record the finished series of existing series stores in the records database",
            "`records import STORE…` replays every finished series of each store and writes it once (a series "
            "already recorded is left as it is; one still running is not recorded). See docs/seasons.md.",
            records_arguments,
            records_command,
        ),
        Command(
            "stats",
            "the records' figures: players, leaderboard, powers, twists, setups against the balance lab",
            "Reads the records database ([records] of --config, or --records). Each recorded setup is also played by "
            "the balance lab (traitors simulate, cached in the database) to set its predicted win rates beside the "
            "real ones. See docs/seasons.md.",
            stats_arguments,
            stats_command,
        ),
    )
}
"""Every subcommand, in the order ``--help`` lists them."""


if __name__ == "__main__":
    raise SystemExit(main())
