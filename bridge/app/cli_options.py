"""The ``traitors`` command line's options: each subcommand's function that adds its options to its parser
(``bridge.app.cli.COMMANDS`` pairs it with the function that runs the command, ``bridge.app.cli_commands``), the
option types they share, and the parser class whose usage errors are one line.

Building the parsers imports no rules and no I/O: ``traitors --help`` starts fast (``--ruleset``'s choices and
``balance``'s options are read when first asked for).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn

from bridge.app.ruleset_names import RULESET_NAMES


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("castle-traitors")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class VersionAction(argparse.Action):
    """``--version``: prints ``traitors <version>`` and exits 0. The version is read only when asked for: reading
    the package metadata costs every other command's start-up time."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        _namespace: argparse.Namespace,
        _values: object,
        _option_string: str | None = None,
    ) -> None:
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

    p.add_argument(
        "--version",
        dest="mc_version",
        default=OLDEST.name,
        choices=names(),
        metavar="RELEASE",
        help=f"the Minecraft release the sandbox stands in for: {', '.join(names())} (default "
        f"{OLDEST.name}, the oldest: what every supported server accepts)",
    )


def demo_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors demo``'s options to its parser."""
    p.add_argument(
        "--ruleset", choices=RULESET_NAMES, metavar="RULESET", help="ruleset: %(choices)s (default: the first)"
    )
    p.add_argument(
        "--contestants", type=int, default=12, help="number of bot contestants, within the ruleset's range; default 12"
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the series and the bots (default 1)")
    p.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="game log format (default text)")
    p.add_argument("--quiet", action="store_true", help="print only the game log: no announcements, no summary")
    p.add_argument(
        "--fast-forward",
        action="store_true",
        help="end each phase as soon as every bot has answered, not at its clock's end: the same series, "
        "without the waits",
    )
    _release_argument(p)
    p.add_argument(
        "--grimoire",
        type=_port,
        nargs="?",
        const=8765,
        metavar="PORT",
        help="also serve the host's web grimoire and the spectator page on 127.0.0.1:PORT (default "
        "8765; 0: any free port); they stay up after the series until Ctrl-C (docs/host.md)",
    )


def sandbox_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors sandbox``'s options to its parser."""
    p.add_argument("--port", type=_port, default=0, help="RCON port on 127.0.0.1 (default: any free port)")
    p.add_argument("--password-file", required=True, help="file holding the RCON password")
    p.add_argument("--bots", type=int, default=12, help="bot contestants to join: 0-16 (default 12)")
    p.add_argument("--seed", type=int, default=1, help="seed of the bots' choices (default 1)")
    p.add_argument("--report", help="write the world and the command log as JSON here at exit")
    p.add_argument(
        "--msmp-secret-file",
        metavar="FILE",
        help="also serve MSMP (wss://127.0.0.1, a self-signed certificate made at start) with the secret in this file",
    )
    p.add_argument("--msmp-port", type=_port, default=0, help="MSMP port (default: any free port)")
    p.add_argument("--names", metavar="A,B,…", help="the bots' names in seat order (default: the demo's)")
    p.add_argument("--hosts", metavar="A,B,…", help="also join these players (hosts; not bots)")
    p.add_argument("--quiet", action="store_true", help="print only the ready line, not the phases")
    p.add_argument(
        "--reply-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long before answering each command (a slow server; default 0)",
    )
    p.add_argument(
        "--join-over",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="bots join one by one over this many seconds after the ready line (default 0: before it)",
    )
    _release_argument(p)
    p.add_argument(
        "--startup-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="26.2 and later: MSMP answers only rpc.discover for this long after the ready line, as a "
        "starting server does (default 0)",
    )
    p.add_argument(
        "--upgrade-world",
        action="store_true",
        help="26.3: the start-up is a world upgrade, reported by MSMP world/upgrade_* notifications "
        "(over --startup-delay seconds, 2 by default)",
    )


def serve_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors serve``'s options to its parser."""
    p.add_argument("--config", required=True, help="serve config (TOML; see docs/operator.md)")
    p.add_argument("--new-series", action="store_true", help="start the next series after a finished one")
    p.add_argument(
        "--insecure-bind",
        action="store_true",
        help="serve the web pages on the [web] bind address without TLS (docs/host.md)",
    )


def init_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors init-config``'s options to its parser."""
    p.add_argument("folder", help="where to write them (created; existing files are kept)")


def check_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors check-config``'s options to its parser."""
    p.add_argument("files", nargs="+", metavar="FILE", help="TOML files (castle.toml, series/*.toml, serve.toml)")


def export_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors export``'s options to its parser."""
    p.add_argument("source", metavar="FILE", help="a series store (series.db) or a scenario file (.toml)")
    p.add_argument("--series", type=int, metavar="N", help="which series of the store (default: the newest)")
    p.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="output format")
    p.add_argument(
        "--reveal",
        action="store_true",
        help="print the record of a series that is still running (its Traitors and powers)",
    )


def serve_demo_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors serve-demo``'s options to its parser."""
    p.add_argument("--db", required=True, help="series store (SQLite; created if missing)")
    p.add_argument("--port", type=_port, required=True, help="the sandbox's RCON port on 127.0.0.1")
    p.add_argument("--password-file", required=True, help="file holding the RCON password")
    p.add_argument("--contestants", type=int, default=12, help="for a new series: contestants (6-16)")
    p.add_argument("--seed", type=int, default=1, help="for a new series: its seed (default 1)")
    p.add_argument(
        "--new-series",
        action="store_true",
        help="start a new series in an existing store that holds none, or whose series is over",
    )
    p.add_argument("--quiet", action="store_true", help="print only the ready line and the game log")
    p.add_argument(
        "--web-port",
        type=_port,
        metavar="PORT",
        help="also serve the host's web grimoire and the spectator page on 127.0.0.1:PORT (0: any free)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="how long to keep trying to reach the sandbox at start, and to wait for each answer (default 10)",
    )


def play_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors play``'s options to its parser."""
    p.add_argument("scenario", help="scenario file (TOML, see docs/scenarios.md)")
    p.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="output format")


def doctor_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors doctor``'s options to its parser."""
    p.add_argument(
        "--config",
        metavar="FILE",
        help="a serve config (TOML): its [rcon], [msmp] and secrets_file (the options below override them)",
    )
    p.add_argument(
        "--rcon", metavar="HOST:PORT", help="RCON address (default from server.properties, else 127.0.0.1:25575)"
    )
    p.add_argument("--msmp", metavar="URL", help="MSMP address, wss://HOST:PORT (TLS) or ws://HOST:PORT")
    p.add_argument(
        "--msmp-ca-file",
        metavar="FILE",
        help="PEM certificate to trust for wss:// (the server's "
        "self-signed certificate or its CA; default: the system's trust store)",
    )
    p.add_argument("--server-dir", metavar="DIR", help="the server's folder, to read server.properties")
    p.add_argument(
        "--secrets-file", metavar="FILE", help="KEY=value lines (CASTLE_RCON_PASSWORD, CASTLE_MSMP_SECRET); chmod 600"
    )
    p.add_argument("--datapack", default="file/traitors", help="the castle's data pack id (default file/traitors)")
    p.add_argument("--fix", action="store_true", help="set send_command_feedback and log_admin_commands off")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per connection and request")


def rehearse_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors rehearse``'s options to its parser."""
    p.add_argument("--config", required=True, help="serve config (TOML; the server it names is rehearsed)")
    p.add_argument(
        "--player",
        metavar="NAME",
        help="an online player to show a dialog, a book, a title, items "
        "and the castle's seats to (put back where they stood afterwards)",
    )


def simulate_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors simulate``'s options to its parser."""
    p.add_argument(
        "--ruleset",
        choices=RULESET_NAMES,
        metavar="RULESET",
        help="ruleset: %(choices)s (default: the first, or the settings file's)",
    )
    p.add_argument("--contestants", type=int, help="bot contestants (default 12, or the settings file's)")
    p.add_argument("--series", type=int, required=True, help="how many series to play")
    p.add_argument("--seed", type=int, default=1, help="seed of the run (default 1); the same seed, the same result")
    p.add_argument("--json", action="store_true", help="print the result as JSON (no progress bar)")
    p.add_argument(
        "--settings", metavar="FILE", help="a series file (TOML, as serve takes: world_config/series/*.toml)"
    )
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1); the result does not change")
    p.add_argument(
        "--bots",
        default="smart",
        help="bot kind: smart (default), opportunist, simple, random, or per side, e.g. faithful=smart,traitor=random",
    )
    p.add_argument(
        "--twist-impact",
        action="store_true",
        help="also play every series without each twist, to count how often it changed the outcome "
        "(costs one more series per twist)",
    )


def build_castle_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors build-castle``'s options to its parser."""
    p.add_argument(
        "--config", help="serve config (TOML) giving the RCON address and secrets; not needed with --dry-run"
    )
    p.add_argument(
        "--origin",
        type=int,
        nargs=3,
        metavar=("X", "Y", "Z"),
        default=[64, 64, -64],
        help="the castle's north-west bottom corner: Y is its floor, one above the ground (default 64 64 -64)",
    )
    p.add_argument("--seats", type=int, default=16, help="round-table seats and homes, 1-16 (default 16)")
    p.add_argument(
        "--out",
        default="castle.toml",
        help="the castle file to write (default castle.toml); the build record goes beside it (castle.build.json)",
    )
    p.add_argument("--dry-run", action="store_true", help="print the plan's size and send nothing")
    p.add_argument("--commands", action="store_true", help="with --dry-run: print every command of the build")
    p.add_argument("--force", action="store_true", help="build even where the area holds blocks that are not air")
    p.add_argument("--remove", action="store_true", help="take down the castle recorded beside --out (restores air)")


def castle_map_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors castle-map``'s options to its parser."""
    p.add_argument("castle", metavar="CASTLE.toml", help="a castle file (one written by build-castle shows its walls)")
    p.add_argument("--out", default="castle.png", help="the picture to write (default castle.png)")
    p.add_argument("--scale", type=int, default=6, help="pixels per block (2-16, default 6)")


def balance_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors balance``'s options to its parser."""
    from bridge.app.balance_options import add_arguments

    add_arguments(p)


def _records_source(p: argparse.ArgumentParser) -> None:
    """``--config`` / ``--records``: which records database (docs/seasons.md)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument("--config", metavar="FILE", help="a serve config: its [records] database, castle and season")
    where.add_argument(
        "--records",
        metavar="URL",
        help="the records database: a file (SQLite) or postgresql://user@host:port/db (default: records.db here)",
    )


def records_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors records``'s options to its parser."""
    p.add_argument("action", choices=["import"], help="import: record the finished series of existing stores")
    p.add_argument("stores", nargs="+", metavar="STORE", help="series stores (series.db)")
    _records_source(p)
    p.add_argument("--castle", help="the castle they were played in (default: [records] castle, or this machine)")
    p.add_argument("--season", help="their season label (default: [records] season, or none)")


def stats_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors stats``'s options to its parser."""
    _records_source(p)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--season", help="only this season's series (the label of [records] season)")
    p.add_argument("--castle", help="only this castle's series")
    p.add_argument("--no-lab", action="store_true", help="play no series: use the lab predictions already cached")
    p.add_argument("--refresh-lab", action="store_true", help="make every setup's lab prediction again")
    p.add_argument("--lab-series", type=int, help="series per setup for the lab (default: [records] lab_series, 1000)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes for the lab (default 1)")


def install_arguments(p: argparse.ArgumentParser) -> None:
    """Add ``traitors install-datapack``'s options to its parser."""
    p.add_argument("--world", required=True, help="the world folder (it holds level.dat)")
    p.add_argument("--zip", action="store_true", help="install as castle-traitors.zip instead of a folder")
    p.add_argument("--resourcepack", metavar="FILE", help="also write the resource pack (languages) as a zip")


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line (``traitors demo: argument --seed: …``) and exit 2, as
    every other failure of the command line; ``--help`` still prints the whole usage. Subparsers are made of the
    same class (argparse's ``add_subparsers`` defaults ``parser_class`` to the parent's type)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.subcommands: dict[str, argparse.ArgumentParser] = {}
        """Subcommand name → its parser (filled by ``bridge.app.cli``; empty on a subcommand's own parser)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} --help')\n")
