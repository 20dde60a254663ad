"""``traitors balance``: which setup of a ruleset is fairest for a cast? (``docs/simulate.md#traitors-balance``)

Every setup the settings allow (``bridge.app.balance_setups``) is played by bots (``engine/sim.py``) until the
search knows which are closest to the target win rate of the evil side (the Traitors; a club ruleset's evil
teams together), each rate with its 95 % Wilson interval (``engine.sim.wilson``).

Racing (the default) is a top-k identification with tolerance, in the manner of LUCB (Kalyanakrishnan, Tewari,
Auer and Stone, "PAC subset selection in stochastic multi-armed bandits", ICML 2012), played in batches: every
setup gets ``--first`` series; then, round after round, the best ``--keep`` setups by measured distance to the
target (``kept``) get another ``--batch`` series until their intervals are no wider than ``±--precision``, and
every other setup gets one while its place is in doubt (``in_doubt``: it might be more than ``--precision`` closer
to the target than the worst of the best few). A setup within ``--precision`` of the best few counts as good
enough, so near ties cost no more than the precision asked for. A setup is dropped for good as soon as its
distance's lower bound exceeds the ``--keep``-th best upper bound (it cannot be among the best few).
``--strategy equal`` is the baseline: every setup gets the same series, round after round, until the best few
are that precise. Both stop at ``--max-series`` per setup; ``differences`` says whether two answers agree.

Series ``j`` of every setup plays with the seed ``series_seeds(seed, ...)[j]`` (the same seeds for every setup:
common random numbers, so setups are compared on the same deals), and which setup gets more series depends only
on the counts so far, so the result is the same for any ``--jobs`` or ``--scheduler`` (``bridge.app.balance_run``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from bridge.app.balance_options import STRATEGIES, Search, add_arguments
from bridge.app.balance_plot import check_plot_file, plot
from bridge.app.balance_run import Runner, Task, runner
from bridge.app.balance_setups import Setup, evil_wins, setups_for
from bridge.app.simulate import check_bot_sides, parse_bots
from engine.errors import ConfigError
from engine.rulesets import DEFAULT_RULESET
from engine.sim import series_seeds, wilson

CHUNK = 50
"""Series per task handed to a worker."""


@dataclass(slots=True)
class Arm:
    """One setup in the search: its counts so far, and the round it was dropped in (``None``: still in)."""

    setup: Setup
    series: int = 0
    evil: int = 0
    dropped: int | None = None

    def interval(self) -> tuple[float, float]:
        """The evil side's win rate's 95 % Wilson interval."""
        return wilson(self.evil, self.series)

    def rate(self) -> float:
        """The evil side's win rate so far."""
        return self.evil / self.series if self.series else 0.5

    def distance(self, target: float) -> tuple[float, float, float]:
        """(low, point, high) bounds of ``|rate - target|`` from the interval."""
        lo, hi = self.interval()
        near = 0.0 if lo <= target <= hi else min(abs(lo - target), abs(hi - target))
        return near, abs(self.rate() - target), max(abs(lo - target), abs(hi - target))


def _order(target: float) -> Callable[[Arm], tuple[float, float, str]]:
    """The ranking key: how far from the target a setup may be at worst (its distance's upper bound), then its
    measured distance, then its label (so ties break the same way). A setup known to ±precision near the target
    outranks one that only a few lucky series put nearer: the best few do not churn on the luck of small counts.
    """
    return lambda a: (*a.distance(target)[2:0:-1], a.setup.label)


def kept(arms: Sequence[Arm], opts: Search) -> list[Arm]:
    """The best ``keep`` setups not dropped (``_order``): the search's answer."""
    return sorted((a for a in arms if a.dropped is None), key=_order(opts.target))[: opts.keep]


def precise(arm: Arm, opts: Search) -> bool:
    """Whether the setup's interval is no wider than ``±precision``."""
    lo, hi = arm.interval()
    return (hi - lo) / 2 <= opts.precision


def in_doubt(arm: Arm, best: Sequence[Arm], opts: Search) -> bool:
    """Whether a setup outside the best few might still be more than ``precision`` closer to the target than the
    worst of them (``best``, as measured): its distance's lower bound is below that. A setup within ``precision``
    of the best few counts as good enough, so a near tie is settled once the best few are known to ``±precision``.
    """
    worst = max(a.distance(opts.target)[1] for a in best)
    return arm.distance(opts.target)[0] < worst - opts.precision


def _wanted(arms: Sequence[Arm], opts: Search) -> list[Arm]:
    """The setups that get another batch this round.

    Equal allocation: every setup, until the best few are precise. Racing: each of the best few until it is
    precise, and every other setup still in the race while its place is in doubt (``in_doubt``): a top-k
    identification with tolerance in the manner of LUCB (Kalyanakrishnan, Tewari, Auer and Stone, 2012), played
    in batches, all doubtful setups at once, so the workers stay busy.
    """
    room = [a for a in arms if a.series < opts.max_series]
    best = kept(arms, opts)
    if opts.strategy == "equal":
        return room if not all(precise(a, opts) for a in best) else []
    return [a for a in room if a.dropped is None and (not precise(a, opts) if a in best else in_doubt(a, best, opts))]


def _drop(arms: Sequence[Arm], opts: Search, round_no: int) -> None:
    """Racing: drop for good every setup whose distance's lower bound exceeds the ``keep``-th best upper bound
    (it cannot be among the best few)."""
    alive = [a for a in arms if a.dropped is None]
    if len(alive) <= opts.keep:
        return
    bar = sorted(a.distance(opts.target)[2] for a in alive)[opts.keep - 1]
    for a in alive:
        if a.distance(opts.target)[0] > bar:
            a.dropped = round_no


class Progress(Protocol):
    """What the search reports while it plays (``run_balance``'s progress bar)."""

    def planned(self, round_no: int, series: int, setups: int, alive: int) -> None:
        """Round ``round_no`` (0: the first) plays ``series`` more series over ``setups`` setups; ``alive``
        setups are not dropped."""

    def played(self, series: int) -> None:
        """``series`` more series were played."""


def search(
    setups: Sequence[Setup], opts: Search, run: Runner, progress: Progress | None = None, ruleset: str = DEFAULT_RULESET
) -> list[Arm]:
    """Play the search (the module docstring) and return every setup's counts, in ``setups`` order.

    Args:
        setups: the candidates.
        opts: the search's options.
        run: where the series are played (``bridge.app.balance_run.runner``).
        progress: told each round's plan and the series played.
        ruleset: whose evil side is counted (``bridge.app.balance_setups.evil_wins``).

    Raises:
        ConfigError: an option out of range (the message names it).
    """
    _check(opts)
    seeds = series_seeds(opts.seed, opts.max_series)
    arms = [Arm(s) for s in setups]
    round_no = 0
    while True:
        wanted = [a for a in arms if a.series == 0] if round_no == 0 else _wanted(arms, opts)
        if not wanted:
            return arms
        step = opts.first if round_no == 0 else opts.batch
        tasks: list[Task] = []
        owners: list[Arm] = []
        for a in wanted:
            stop = min(a.series + step, opts.max_series)
            for i in range(a.series, stop, CHUNK):
                tasks.append((a.setup.settings, tuple(seeds[i : min(i + CHUNK, stop)]), opts.bots))
                owners.append(a)
        if progress is not None:
            alive = sum(a.dropped is None for a in arms)
            progress.planned(round_no, sum(len(t[1]) for t in tasks), len(wanted), alive)
        for a, wins, task in zip(owners, run.map(tasks, progress.played if progress else None), tasks, strict=True):
            a.series += len(task[1])
            a.evil += evil_wins(ruleset, wins)
        round_no += 1
        if opts.strategy == "race":
            _drop(arms, opts, round_no)


def _check(opts: Search) -> None:
    if not 0.0 <= opts.target <= 1.0:
        raise ConfigError(f"--target: {opts.target}; a fraction between 0 and 1")
    if not 0.0 < opts.precision < 0.5:
        raise ConfigError(f"--precision: {opts.precision}; a fraction above 0 and below 0.5")
    for name, v in (
        ("--keep", opts.keep),
        ("--first", opts.first),
        ("--batch", opts.batch),
        ("--max-series", opts.max_series),
    ):
        if v < 1:
            raise ConfigError(f"{name}: {v}; at least 1")
    if opts.strategy not in STRATEGIES:
        raise ConfigError(f"--strategy: {opts.strategy!r}; one of {', '.join(STRATEGIES)}")


def ranked(arms: Sequence[Arm], target: float) -> list[Arm]:
    """Setups still in the race first, then by the upper bound of the distance to the target, the measured
    distance and the label (``_order``): the best few lead."""
    key = _order(target)
    return sorted(arms, key=lambda a: (a.dropped is not None, *key(a)))


def differences(race: Sequence[Arm], equal: Sequence[Arm], opts: Search) -> list[str]:
    """Where racing's answer is not equal allocation's, beyond ``precision`` (empty: the same answer).

    The same answer means: every one of racing's best few (``kept``) is, by equal allocation's own measurements,
    within ``precision`` of equal allocation's best few (its distance to the target at most the largest of theirs
    plus ``precision``), and its win rate differs from equal allocation's rate of it by at most ``precision``.
    Both searches must be over the same setups (matched by label).

    Returns:
        One line per difference, naming the setup.
    """
    theirs = {a.setup.label: a for a in equal}
    bar = max(a.distance(opts.target)[1] for a in kept(equal, opts))
    out = []
    for a in kept(race, opts):
        e = theirs[a.setup.label]
        if e.distance(opts.target)[1] > bar + opts.precision:
            out.append(
                f"{a.setup.label}: {100 * e.rate():.1f} % by equal allocation, more than "
                f"{100 * opts.precision:g} points further from the target than its best few"
            )
        if abs(a.rate() - e.rate()) > opts.precision:
            out.append(f"{a.setup.label}: {100 * a.rate():.1f} % racing, {100 * e.rate():.1f} % equal allocation")
    return out


def to_json(arms: Sequence[Arm], opts: Search, *, ruleset: str, contestants: int) -> dict[str, Any]:
    """The ``--json`` output (keys documented in ``docs/simulate.md``); rates rounded to 4 places."""

    def r(x: float) -> float:
        return round(x, 4)

    return {
        "ruleset": ruleset,
        "contestants": contestants,
        "target": opts.target,
        "precision": opts.precision,
        "keep": opts.keep,
        "strategy": opts.strategy,
        "seed": opts.seed,
        "bots": opts.bots if isinstance(opts.bots, str) else dict(opts.bots),
        "series_total": sum(a.series for a in arms),
        "setups": [
            {
                "knobs": dict(a.setup.knobs),
                "series": a.series,
                "evil_wins": a.evil,
                "rate": r(a.rate()),
                "ci95": [r(x) for x in a.interval()],
                "distance": r(a.distance(opts.target)[1]),
                "dropped_in_round": a.dropped,
            }
            for a in ranked(arms, opts.target)
        ],
    }


def format_text(data: Mapping[str, Any], seconds: float) -> str:
    """The ranked table of a ``to_json`` result."""
    lines = [
        f"Balance search: {data['ruleset']}, {data['contestants']} contestants, target {100 * data['target']:.0f} % "
        f"for the evil side, {data['strategy']} ({data['series_total']} series in {seconds:.1f} s, seed {data['seed']})",
        "",
        "rank  evil side wins  [95 % interval]   series  setup",
    ]
    for i, s in enumerate(data["setups"], 1):
        lo, hi = s["ci95"]
        state = "" if s["dropped_in_round"] is None else f"  (dropped in round {s['dropped_in_round']})"
        knobs = " ".join(f"{k}={v}" for k, v in s["knobs"].items())
        lines.append(
            f"{i:>4}  {100 * s['rate']:6.1f} %  [{100 * lo:5.1f}, {100 * hi:5.1f}]  {s['series']:>7}  {knobs}{state}"
        )
    return "\n".join(lines)


class Bar:
    """The progress bar on a terminal (tqdm, on ``err``): series played against series planned so far. Racing
    does not know its total in advance, so the total grows round by round; the bar's note names the round, the
    setups it samples and the setups still in the race."""

    def __init__(self, err: TextIO, setups: int) -> None:
        from tqdm import tqdm  # only on a terminal: the JSON and the tests need no tqdm

        self.tqdm = tqdm(file=err, unit="series", desc=f"{setups} setups", total=0, leave=False)

    def planned(self, round_no: int, series: int, setups: int, alive: int) -> None:
        """See ``Progress``."""
        self.tqdm.total = (self.tqdm.total or 0) + series
        self.tqdm.set_postfix_str(f"round {round_no + 1}: {setups} sampled, {alive} in the race", refresh=False)
        self.tqdm.refresh()

    def played(self, series: int) -> None:
        """See ``Progress``."""
        self.tqdm.update(series)

    def close(self) -> None:
        """Clear the bar."""
        self.tqdm.close()


def run_balance(
    *,
    ruleset: str,
    contestants: int,
    opts: Search,
    jobs: int = 1,
    scheduler: Any = None,
    as_json: bool = False,
    plot_file: str | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
    fixed: Mapping[str, str] | None = None,
) -> int:
    """The ``traitors balance`` command; returns 0 when the table was printed.

    Raises:
        ConfigError: bad options (the CLI turns it into exit code 2).
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    setups = setups_for(ruleset, contestants, fixed)
    if plot_file:
        check_plot_file(plot_file)  # now, not after hours of series
    if isinstance(opts.bots, str):
        opts = dataclasses.replace(opts, bots=check_bot_sides(parse_bots(opts.bots), setups[0].settings))
    bar = Bar(err, len(setups)) if not as_json and err.isatty() else None
    started = time.perf_counter()
    run = runner(jobs, scheduler)
    try:
        arms = search(setups, opts, run, bar, ruleset)
    finally:
        run.close()
        if bar is not None:
            bar.close()
    data = to_json(arms, opts, ruleset=ruleset, contestants=contestants)
    out.write(json.dumps(data, indent=2) + "\n" if as_json else format_text(data, time.perf_counter() - started) + "\n")
    if plot_file:  # after the table: a plot that fails to write loses no result
        plot(data, plot_file)
    return 0


def from_arguments(args: argparse.Namespace) -> int:
    """Run ``traitors balance`` from parsed ``add_arguments`` options."""
    opts = Search(
        target=args.target,
        precision=args.precision,
        keep=args.keep,
        first=args.first,
        batch=args.batch,
        max_series=args.max_series,
        seed=args.seed,
        bots=args.bots,
        strategy=args.strategy,
    )
    fixed = {}
    for pair in args.fix:
        knob, sep, value = pair.partition("=")
        if not sep:
            raise ConfigError(f"--fix: {pair!r}; expected KNOB=VALUE")
        fixed[knob.strip()] = value.strip()
    return run_balance(
        ruleset=args.ruleset or DEFAULT_RULESET,
        contestants=args.contestants,
        opts=opts,
        jobs=args.jobs,
        scheduler=args.scheduler,
        as_json=args.json,
        plot_file=args.plot,
        fixed=fixed,
    )


__all__ = [
    "Arm",
    "Bar",
    "Progress",
    "STRATEGIES",
    "Search",
    "add_arguments",
    "differences",
    "format_text",
    "from_arguments",
    "in_doubt",
    "kept",
    "plot",
    "precise",
    "ranked",
    "run_balance",
    "search",
    "to_json",
]
