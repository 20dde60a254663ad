"""``traitors simulate``: the balance lab (``docs/simulate.md``).

Plays many series with bot contestants through the engine alone (``engine/sim.py``: no server, no sockets, no
clock) and prints what a host wants to know before running a setup: each side's win rate with its 95 % Wilson
interval, the average series length in days, how often each power or role ended on the winning side, and (with
``--twist-impact``) how often each twist changed the outcome.

Determinism: series ``i`` of a run with ``--seed S`` plays with the seed ``series_seeds(S, K)[i]``; with
``--jobs J`` the seeds are cut into consecutive chunks, played in worker processes
(``concurrent.futures.ProcessPoolExecutor``) and the counts added up, so the result is the same for any ``J``.
The progress bar (tqdm) goes to standard error, and only when it is a terminal and ``--json`` is off.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from bridge.app.demo_settings import DEMO_NAMES, demo_settings
from engine.errors import ConfigError
from engine.rulesets import DEFAULT_RULESET, RULESETS, ruleset_of
from engine.sim import BOTS, SIDE_WINS, Tally, series_seeds, sides_of, simulate, summary, twists_of

CHUNKS_PER_JOB = 8
"""With ``--jobs J`` the seeds are cut into about ``8 J`` chunks, so the progress bar moves and the workers
stay busy to the end."""


def parse_bots(text: str) -> str | dict[str, str]:
    """``--bots``: one kind for everyone (``smart``), or side=kind pairs (``faithful=smart,traitor=random``).

    Raises:
        ConfigError: an unknown kind, a malformed pair, or one side given two kinds (the message names ``--bots``).
    """
    if "=" not in text:
        if text not in BOTS:
            raise ConfigError(f"--bots: unknown bot kind {text!r} (known: {', '.join(BOTS)})")
        return text
    out: dict[str, str] = {}
    for pair in text.split(","):
        side, sep, kind = pair.partition("=")
        if not sep or not side.strip() or kind.strip() not in BOTS:
            raise ConfigError(f"--bots: {pair!r}; expected SIDE=KIND with KIND one of {', '.join(BOTS)}")
        side, kind = side.strip(), kind.strip()
        if out.get(side, kind) != kind:
            raise ConfigError(f"--bots: side {side!r} given twice, as {out[side]} and as {kind}")
        out[side] = kind
    return out


def check_bot_sides(kinds: str | dict[str, str], settings: Any) -> str | dict[str, str]:
    """``--bots`` side=kind pairs checked against the sides of the settings' ruleset (``engine.sim.sides_of``). A
    side may also be named as it wins in the report (``traitors``, ``mad_knight``, ``loners``).

    Returns:
        ``kinds`` with every side as ``play_series`` names it.

    Raises:
        ConfigError: a side the ruleset does not have (the message names ``--bots`` and lists the sides), or one
            side given two different kinds under its two names.
    """
    if isinstance(kinds, str):
        return kinds
    sides = sides_of(settings)
    as_won = {SIDE_WINS.get(s, s): s for s in sides}
    out: dict[str, str] = {}
    for side, kind in kinds.items():
        known = side if side in sides else as_won.get(side)
        if known is None:
            raise ConfigError(f"--bots: no side {side!r} in {ruleset_of(settings).name} (sides: {', '.join(sides)})")
        if out.get(known, kind) != kind:
            raise ConfigError(f"--bots: side {known!r} given twice, as {out[known]} and as {kind}")
        out[known] = kind
    return out


def load_settings(path: str | None, ruleset: str | None, contestants: int | None) -> Any:
    """The series settings to simulate.

    Args:
        path: a series file (``bridge/config/series.py``: the format ``serve`` takes, e.g. ``world_config/series/*.toml``),
            or ``None`` for the demo's settings of ``ruleset`` (``bridge.app.demo_settings.demo_settings``).
        ruleset: ``--ruleset`` (must match the file's when both are given); default ``engine.rulesets.DEFAULT_RULESET``.
        contestants: ``--contestants``: with a file, the series is played with this many demo names instead of
            the file's contestants (or its ``contestant_count``).

    Raises:
        ConfigError: an unreadable or invalid file, a ruleset mismatch, or a bad contestant count (the message
            names the file or option).
    """
    from bridge.config.kinds import require_kind
    from bridge.config.series import load_series

    if path is None:
        return demo_settings(12 if contestants is None else contestants, ruleset or DEFAULT_RULESET)
    require_kind(path, "series")
    series = load_series(path)
    settings = series.settings
    found = ruleset_of(settings).name
    if ruleset is not None and ruleset != found:
        raise ConfigError(f"{path}: ruleset {found!r}, but --ruleset {ruleset!r}")
    if contestants is not None:
        if not 1 <= contestants <= len(DEMO_NAMES):
            raise ConfigError(f"--contestants: {contestants}; at most {len(DEMO_NAMES)}")
        settings = dataclasses.replace(settings, contestants=tuple(DEMO_NAMES[:contestants]))
    elif not series.named:  # the file gives only contestant_count: bots play under the demo's names
        settings = dataclasses.replace(settings, contestants=tuple(DEMO_NAMES[: series.contestant_count]))
    try:
        RULESETS[found].game(settings, 0)  # validates (raises ConfigError naming the field)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return settings


def _leave_ctrl_c_to_the_parent() -> None:
    """Worker initializer: a worker ignores SIGINT (Ctrl-C reaches the whole process group); the parent stops it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _chunk(settings: Any, seeds: Sequence[int], bots: Any, twist_impact: bool) -> Tally:
    """One worker's share (a module-level function, so it pickles)."""
    return simulate(settings, seeds, bots=bots, twist_impact=twist_impact)


def run(
    settings: Any,
    seeds: Sequence[int],
    *,
    bots: str | Mapping[str, str] = "smart",
    twist_impact: bool = False,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Play every seed, in ``jobs`` processes when ``jobs > 1``; the counts are the same for any ``jobs``.

    Args:
        settings: the series settings.
        seeds: one series per seed.
        bots: as for ``engine.sim.play_series``.
        twist_impact: also play each series without each twist (``engine.sim.simulate``).
        jobs: worker processes (1: this process).
        progress: called with the number of series just finished.

    Returns:
        The merged tally.
    """
    if jobs <= 1 or len(seeds) <= 1:
        return simulate(settings, seeds, bots=bots, twist_impact=twist_impact, progress=progress)
    size = max(1, -(-len(seeds) // (jobs * CHUNKS_PER_JOB)))
    chunks = [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]
    results: list[Tally | None] = [None] * len(chunks)
    pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs, initializer=_leave_ctrl_c_to_the_parent)
    try:
        futures = {pool.submit(_chunk, settings, c, bots, twist_impact): i for i, c in enumerate(chunks)}
        for fut in concurrent.futures.as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            if progress is not None:
                progress(len(chunks[i]))
    except BaseException:
        # Ctrl-C (or a failed chunk): stop the workers now rather than after every chunk already handed out.
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()
        pool.shutdown(wait=True, cancel_futures=True)  # quick: the workers are gone; the pool is joined before exit
        raise
    pool.shutdown()
    total = Tally()
    for t in results:  # in seed order, whatever order the workers finished in
        assert t is not None
        total.merge(t)
    return total


def _pct(x: float) -> str:
    return f"{100 * x:5.1f} %"


def format_text(data: Mapping[str, Any], twists: Sequence[str]) -> str:
    """The human-readable report of a ``summary``."""
    lines = [
        f"Balance lab: {data['ruleset']}, {data['contestants']} contestants, {data['series']} series "
        f"(seed {data['seed']}, bots {data['bots']})",
        "",
        "Win rates (95 % Wilson interval):",
    ]
    for side, w in data["win_rates"].items():
        lo, hi = w["ci95"]
        lines.append(f"  {side:<14} {_pct(w['rate'])}  [{_pct(lo)}, {_pct(hi)}]  {w['wins']} series")
    lines += [
        "",
        f"Average series length: {data['average_days']:.2f} days ({data['average_inputs']:.1f} inputs)",
        "",
        "On the winning side at the end (holders / holders dealt):",
    ]
    for role, r in sorted(data["on_winning_side"].items(), key=lambda kv: (-kv[1]["rate"], kv[0])):
        lines.append(f"  {role:<24} {_pct(r['rate'])}  {r['won']} of {r['dealt']}")
    lines.append("")
    if data["twists"]:
        lines.append("Twists: paired runs, the same series seed and bots without the twist (docs/simulate.md):")
        lines.append("  twist          winning side changed                   win rates without the twist")
        for t, r in data["twists"].items():
            lo, hi = r["ci95"]
            without = ", ".join(f"{side} {_pct(x).strip()}" for side, x in r["win_rates_without"].items())
            lines.append(
                f"  {t:<14} {_pct(r['rate'])}  [{_pct(lo)}, {_pct(hi)}]  {r['changed']:>5} of {r['runs']:<5}  {without}"
            )
    elif twists:
        lines.append(
            f"Twists in this setup: {', '.join(twists)} (add --twist-impact to measure whether each "
            "changed the outcome; it plays every series once more per twist)"
        )
    else:
        lines.append("Twists in this setup: none")
    return "\n".join(lines)


def run_simulate(
    *,
    ruleset: str | None,
    contestants: int | None,
    series: int,
    seed: int,
    as_json: bool,
    settings_file: str | None,
    jobs: int,
    bots: str,
    twist_impact: bool,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """The ``traitors simulate`` command.

    Returns:
        0 when the report was printed.

    Raises:
        ConfigError: bad options or settings (the CLI turns it into exit code 2).
    """
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if series < 1:
        raise ConfigError(f"--series: {series}; at least 1")
    if jobs < 1:
        raise ConfigError(f"--jobs: {jobs}; at least 1")
    settings = load_settings(settings_file, ruleset, contestants)
    kinds = check_bot_sides(parse_bots(bots), settings)
    seeds = series_seeds(seed, series)
    show = not as_json and err.isatty()
    bar: Any = None
    if show:
        from tqdm import tqdm

        bar = tqdm(total=series, file=err, unit="series", desc="simulating", leave=False)
    try:
        tally = run(
            settings,
            seeds,
            bots=kinds,
            twist_impact=twist_impact,
            jobs=jobs,
            progress=bar.update if bar is not None else None,
        )
    finally:
        if bar is not None:
            bar.close()
    data = summary(
        tally, ruleset=ruleset_of(settings).name, contestants=len(settings.contestants), seed=seed, bots=bots
    )
    data["twist_impact"] = twist_impact
    data["twists_in_setup"] = list(twists_of(settings))
    if as_json:
        out.write(json.dumps(data, indent=2, sort_keys=False) + "\n")
    else:
        out.write(format_text(data, twists_of(settings)) + "\n")
    return 0


__all__ = ["check_bot_sides", "format_text", "load_settings", "parse_bots", "run", "run_simulate"]
