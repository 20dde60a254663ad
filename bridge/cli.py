"""The ``traitors`` command line (``shared/DESIGN.md``, "Command line").

Subcommands:
    demo   the built-in sandbox server, the service over loopback RCON and bot contestants: a whole series.
    play   a scripted series (``docs/scenarios.md``) through the engine alone; prints the game log.
    install-datapack   copy the data pack into a world's ``datapacks/`` (``docs/datapack.md``).

Exit codes: 0 ok, 2 bad input (the message names the file and field), 1 anything else.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine.errors import ConfigError

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_BAD_INPUT = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="traitors", description="Run The Traitors inside a Minecraft castle.")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play a whole series with bot contestants in the built-in sandbox server")
    demo.add_argument("--ruleset", default="traitors", choices=["traitors"], help="ruleset (default: traitors)")
    demo.add_argument("--contestants", type=int, default=12, help="number of bot contestants, 6-16 (default 12)")
    demo.add_argument("--seed", type=int, default=1, help="seed of the series and the bots (default 1)")
    demo.add_argument(
        "--format", default="text", choices=["text", "wiki", "json"], help="game log format (default text)"
    )
    demo.add_argument("--quiet", action="store_true", help="print only the game log, not the live announcements")

    play = sub.add_parser("play", help="play a scripted scenario through the engine and print the game log")
    play.add_argument("scenario", help="scenario file (TOML, see docs/scenarios.md)")
    play.add_argument("--format", default="text", choices=["text", "wiki", "json"], help="output format")

    install = sub.add_parser("install-datapack", help="copy the data pack into a world's datapacks/ folder")
    install.add_argument("--world", required=True, help="the world folder (it holds level.dat)")
    install.add_argument("--zip", action="store_true", help="install as castle-traitors.zip instead of a folder")
    install.add_argument("--resourcepack", metavar="FILE", help="also write the resource pack (languages) as a zip")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``traitors`` console script.

    Args:
        argv: arguments without the program name (default: ``sys.argv[1:]``).

    Returns:
        The exit code: 0 ok, 2 bad input, 1 anything else.
    """
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "install-datapack":
            return _install(args)
        if args.command == "demo":
            from bridge.demo import run_demo

            return run_demo(
                contestants=args.contestants, seed=args.seed, fmt=args.format, quiet=args.quiet
            )
    except ConfigError as exc:
        print(f"traitors: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_ERROR
    return EXIT_ERROR


def _install(args: argparse.Namespace) -> int:
    from bridge.datapack import install, write_resourcepack_zip

    path = install(args.world, as_zip=args.zip)
    print(f"installed the data pack: {path}")
    if args.resourcepack:
        print(f"wrote the resource pack: {write_resourcepack_zip(args.resourcepack)}")
    print("run /reload (or restart the server) to load it")
    return EXIT_OK


def _play(args: argparse.Namespace) -> int:
    from bridge.export import format_record
    from bridge.scenario import load_scenario, play_scenario

    scenario = load_scenario(args.scenario)
    game = play_scenario(scenario)
    print(format_record(game.record, args.format))
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
