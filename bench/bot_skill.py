"""The bots' skill, measured as the balance lab measures a setup: each side's bots against the other side's, with
fixed seeds and 95 % Wilson intervals (``docs/simulate.md#bots``).

For every ruleset's demo series of 12 contestants, the evil side's win rate (Traitors, or the club rulesets' evil
teams together) with every pairing of {random, simple, smart} for the good side against {random, simple, smart} for
the evil side; and how many series ran into the day limit (``nobody``). Where the evil side is several teams
playing against each other as well (Mafia & Yakuza: the Mafia, the Yakuza, the Loners), also each team's own
win rate when it alone plays smart and everyone else random, against its rate when all play random.

Usage: python bench/bot_skill.py [--series 1000] [--seed 5] [--jobs 2] [--ruleset traitors] [--contestants 12]
                            [--kinds random,smart] [--pairs random:smart,opportunist:smart]
"""

from __future__ import annotations

import argparse
import time

import checkout  # noqa: F401 - this checkout's engine and bridge, not an installed copy
from bridge.app.balance_setups import evil_wins
from bridge.app.demo import demo_settings
from bridge.app.simulate import run
from engine.rulesets import RULESETS
from engine.sim import SIDE_WINS, series_seeds, sides_of, wilson

KINDS = ("random", "simple", "smart")


def evil_rate(wins: dict[str, int], n: int, ruleset: str) -> tuple[float, float, float]:
    """(rate, low, high) of the evil side's wins (``bridge.app.balance_setups.evil_wins``)."""
    evil = evil_wins(ruleset, wins)
    lo, hi = wilson(evil, n)
    return evil / n, lo, hi


def main() -> None:
    """Print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--series", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--contestants", type=int, default=12)
    ap.add_argument("--ruleset", action="append", choices=sorted(RULESETS))
    ap.add_argument("--kinds", default=",".join(KINDS), help="bot kinds to pair (default random,simple,smart)")
    ap.add_argument("--pairs", help="only these pairings, GOOD:EVIL,... (e.g. random:smart,smart:smart)")
    args = ap.parse_args()
    seeds = series_seeds(args.seed, args.series)
    print(
        f"{args.series} series each, seed {args.seed}, {args.contestants} contestants; evil side's win rate [95 % CI]"
    )
    print("| ruleset | good bots | evil bots | evil side wins | good side wins | nobody | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for ruleset in args.ruleset or sorted(RULESETS):
        settings = demo_settings(args.contestants, ruleset)
        good = (RULESETS[ruleset].good_side,)  # the side that must find the hidden enemies
        evil = [s for s in sides_of(settings) if s not in good]
        kinds = args.kinds.split(",")
        pairs = [(gk, ek) for gk in kinds for ek in kinds]
        if args.pairs:
            pairs = [(p.partition(":")[0], p.partition(":")[2]) for p in args.pairs.split(",")]
        for gk, ek in pairs:
            bots = {**dict.fromkeys(good, gk), **dict.fromkeys(evil, ek)}
            t0 = time.perf_counter()
            tally = run(settings, seeds, bots=bots, jobs=args.jobs)
            dt = time.perf_counter() - t0
            n = tally.series
            rate, lo, hi = evil_rate(tally.wins, n, ruleset)
            gw = tally.wins.get(good[0], 0)
            print(
                f"| {ruleset} | {gk} | {ek} | {100 * rate:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] "
                f"| {100 * gw / n:.1f} % | {100 * tally.wins.get('nobody', 0) / n:.1f} % | {dt:.1f} |",
                flush=True,
            )
        if len(evil) > 1:
            team_rows(settings, seeds, evil, args.jobs)


def team_rows(settings: object, seeds: list[int], evil: list[str], jobs: int) -> None:
    """Each evil team smart alone against random others: its own win rate, and its rate when all play random."""
    sides = sides_of(settings)
    plain = run(settings, seeds, bots=dict.fromkeys(sides, "random"), jobs=jobs).wins
    print("| team (smart alone) | its wins [95 % CI] | its wins, all random | nobody |")
    print("| --- | --- | --- | --- |")
    for side in evil:
        tally = run(settings, seeds, bots={**dict.fromkeys(sides, "random"), side: "smart"}, jobs=jobs)
        won = SIDE_WINS.get(side, side)
        n, w = tally.series, tally.wins.get(won, 0)
        lo, hi = wilson(w, n)
        print(
            f"| {side} | {100 * w / n:.1f} % [{100 * lo:.1f}, {100 * hi:.1f}] | {100 * plain.get(won, 0) / n:.1f} % "
            f"| {100 * tally.wins.get('nobody', 0) / n:.1f} % |",
            flush=True,
        )


if __name__ == "__main__":
    main()
