"""``traitors balance --plot FILE.png``: each setup's win rate against the main knob, with its 95 % interval.

Needs matplotlib (the optional extra ``castle-traitors[plot]``); it is imported only when a plot is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bridge.app.balance_setups import balanced
from engine.errors import ConfigError

GROUP_WIDTH = 0.8
"""The share of the space between two values of the main knob the setups of one value spread over."""


def positions(setups: Sequence[Mapping[str, Any]], knob: str) -> tuple[list[str], list[float]]:
    """The main knob's values (sorted, as numbers when they are) and each setup's x position: the setups of one
    value spread evenly around its tick, lowest rate first, so the intervals of a group do not overlap.

    Args:
        setups: ``to_json``'s ``setups`` (each with ``knobs`` and ``rate``).
        knob: the knob on the x axis.
    """
    values = sorted(
        {s["knobs"][knob] for s in setups}, key=lambda v: (not v.isdigit(), int(v) if v.isdigit() else 0, v)
    )
    xs = [0.0] * len(setups)
    for tick, value in enumerate(values):
        group = sorted((i for i, s in enumerate(setups) if s["knobs"][knob] == value), key=lambda i: setups[i]["rate"])
        for rank, i in enumerate(group):
            xs[i] = tick + GROUP_WIDTH * ((rank + 0.5) / len(group) - 0.5)
    return values, xs


def check_plot_file(path: str) -> None:
    """Refuse a ``--plot`` file before any series is played: matplotlib must be installed, the file's suffix a
    format it writes, and its folder a folder.

    Raises:
        ConfigError: one line naming ``--plot``.
    """
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ConfigError("--plot needs matplotlib: pip install 'castle-traitors[plot]'") from None
    formats = Figure().canvas.get_supported_filetypes()
    suffix = Path(path).suffix.lstrip(".").lower()
    if suffix not in formats:
        raise ConfigError(
            f"--plot: {path}: not an image file name matplotlib writes (e.g. .png; known: {', '.join(sorted(formats))})"
        )
    folder = Path(path).parent
    if not folder.is_dir():
        raise ConfigError(f"--plot: {path}: no folder {folder}")


def plot(data: Mapping[str, Any], path: str) -> None:
    """Draw a ``to_json`` result into ``path`` (PNG): rate and interval per setup against the ruleset's main knob
    (``BalanceKnobs.main_knob``, titled ``axis``), the best ``keep`` in orange and named, the setups still in the
    race in blue, the dropped ones in grey, the target as a dashed line with its ``±precision`` band.

    Raises:
        ConfigError: matplotlib is missing (the ``[plot]`` extra), the ruleset has no balance knobs, or the file
            cannot be written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError("--plot needs matplotlib: pip install 'castle-traitors[plot]'") from None
    knobs = balanced(data["ruleset"])
    knob = knobs.main_knob
    setups = data["setups"]
    values, xs = positions(setups, knob)
    fig, ax = plt.subplots(figsize=(10, 6), layout="constrained")
    target, precision = data["target"], data.get("precision", 0.0)
    ax.axhspan(target - precision, target + precision, color="0.9", zorder=0, label=f"target ±{100 * precision:g} %")
    ax.axhline(target, color="0.3", linestyle="--", linewidth=1, zorder=1, label=f"target {100 * target:g} %")
    kinds = (("dropped", "0.6", "."), ("in the race", "C0", "o"), (f"best {data['keep']}", "C1", "D"))
    for name, color, marker in kinds:
        group = [i for i, s in enumerate(setups) if _kind(i, s, data["keep"]) == name]
        if not group:
            continue
        rates = [setups[i]["rate"] for i in group]
        below = [setups[i]["rate"] - setups[i]["ci95"][0] for i in group]
        above = [setups[i]["ci95"][1] - setups[i]["rate"] for i in group]
        ax.errorbar(
            [xs[i] for i in group],
            rates,
            yerr=[below, above],
            fmt=marker,
            color=color,
            ecolor=color,
            elinewidth=1,
            capsize=2,
            markersize=5 if marker != "." else 6,
            label=name,
            zorder=3,
        )
    for rank, s in enumerate(setups[: data["keep"]], 1):
        ax.annotate(
            str(rank),
            (xs[rank - 1], s["ci95"][1]),
            textcoords="offset points",
            xytext=(0, 4),
            ha="center",
            fontsize=8,
            color="C1",
        )
    ax.set_xticks(range(len(values)), values)
    ax.set_xlim(-0.5, len(values) - 0.5)
    low = min(s["ci95"][0] for s in setups)
    high = max(s["ci95"][1] for s in setups)
    ax.set_ylim(max(0.0, min(low, target - precision) - 0.05), min(1.0, max(high, target + precision) + 0.05))
    ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.grid(axis="y", color="0.92")
    ax.set_xlabel(f"{knobs.axis} (each value's setups spread around its tick, lowest rate first)")
    ax.set_ylabel("evil side's win rate, with its 95 % interval")
    bots = data.get("bots", "")
    ax.set_title(
        f"Balance search: {data['ruleset']}, {data['contestants']} contestants, {len(setups)} setups, "
        f"{bots if isinstance(bots, str) else 'mixed'} bots, {data.get('series_total', 0):,} series"
    )
    ax.legend(loc="upper left", fontsize=8, framealpha=0.9)
    best = "\n".join(
        f"{i}. {100 * s['rate']:.1f} %  " + " ".join(f"{k}={v}" for k, v in s["knobs"].items())
        for i, s in enumerate(setups[: data["keep"]], 1)
    )
    ax.text(
        0.99,
        0.02,
        best,
        transform=ax.transAxes,
        ha="right",
        va="bottom",
        multialignment="left",
        fontsize=8,
        family="monospace",
        bbox={"boxstyle": "round", "facecolor": "white", "edgecolor": "C1", "alpha": 0.9},
    )
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise ConfigError(f"--plot: cannot write {path}: {exc.strerror or exc}") from None
    finally:
        plt.close(fig)


def _kind(index: int, setup: Mapping[str, Any], keep: int) -> str:
    """Which legend entry a setup of the ranked list belongs to (the best few lead the list)."""
    if setup["dropped_in_round"] is not None:
        return "dropped"
    return f"best {keep}" if index < keep else "in the race"


__all__ = ["plot", "positions"]
