"""``traitors balance``'s options: the ``Search`` they make and the argument parser (``bridge/app/cli.py``).

A light module (the standard library only), so that building the command line's parser for ``traitors --help``
imports neither the rules nor the simulator; ``bridge.app.balance`` runs the search.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass

from bridge.app.ruleset_names import BALANCED_NAMES

STRATEGIES = ("race", "equal")
"""``--strategy``: racing, or equal allocation (the baseline)."""


@dataclass(frozen=True, slots=True)
class Search:
    """The search's options (``bridge.app.balance``'s docstring tells what each does; rates are fractions)."""

    target: float = 0.5
    precision: float = 0.02
    keep: int = 3
    first: int = 200
    batch: int = 200
    max_series: int = 6000
    seed: int = 1
    bots: str | Mapping[str, str] = "smart"
    strategy: str = "race"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``traitors balance``'s options (``bridge/app/cli.py``)."""
    d = Search()
    p.add_argument(
        "--ruleset",
        choices=BALANCED_NAMES,
        default=None,
        metavar="RULESET",
        help="ruleset: %(choices)s (default: the first)",
    )
    p.add_argument("--contestants", type=int, default=12, help="cast size (default 12)")
    p.add_argument("--target", type=float, default=d.target, help="the evil side's win rate wanted (default 0.5)")
    p.add_argument(
        "--precision",
        type=float,
        default=d.precision,
        help="half-width of the interval the best setups must reach (default 0.02)",
    )
    p.add_argument("--keep", type=int, default=d.keep, help="how many best setups to pin down (default 3)")
    p.add_argument("--first", type=int, default=d.first, help="series every setup gets first (default 200)")
    p.add_argument("--batch", type=int, default=d.batch, help="series added per round (default 200)")
    p.add_argument("--max-series", type=int, default=d.max_series, help="series per setup at most (default 6000)")
    p.add_argument("--strategy", choices=STRATEGIES, default="race", help="race (default) or equal allocation")
    p.add_argument(
        "--fix",
        action="append",
        default=[],
        metavar="KNOB=VALUE",
        help="search only setups with this knob value, e.g. drunk=none (repeatable)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the search (default 1)")
    p.add_argument("--bots", default="smart", help="bot kinds, as for simulate (default smart)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1); the result does not change")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a Dask scheduler, e.g. tcp://10.0.0.5:8786 (pip install 'castle-traitors[cluster]')",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON (no progress bar)")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the win rates (pip install 'castle-traitors[plot]')")


__all__ = ["STRATEGIES", "Search", "add_arguments"]
