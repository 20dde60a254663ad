"""Charts of the stats pages as inline SVG, drawn on the server (no script, no library): bars with their 95 %
intervals, as the figures give them (``bridge/records/stats.py``).

Every chart scales to its container (``viewBox``, ``width="100%"``), so it reads on a phone (390 px) as on a
desktop. Colours are presentation attributes, never ``style`` attributes (the pages' content security policy
may forbid inline styles); every text is escaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

__all__ = ["Bar", "SIDE_COLOURS", "bar_chart", "side_colour"]

SIDE_COLOURS: dict[str, str] = {
    "faithful": "#8fd3ff",
    "traitors": "#ff6b6b",
    "traitor": "#ff6b6b",
    "joker": "#f5c542",
    "white_order": "#8fd3ff",
    "black_order": "#ff6b6b",
    "mad_knight": "#f5c542",
    "town": "#8fd3ff",
    "mafia": "#ff6b6b",
    "yakuza": "#ff9f6b",
    "loners": "#f5c542",
    "nobody": "#999999",
}
"""A side's colour (the grimoire's: Faithful blue, Traitors red); any other side gets one from ``_MORE``."""

_MORE = ("#b39ddb", "#80cbc4", "#ffcc80", "#a5d6a7", "#f48fb1")
LAB_COLOUR = "#6d6480"


def side_colour(side: str) -> str:
    """The colour of a side (or of any label: a stable pick from a small palette)."""
    return SIDE_COLOURS.get(side) or _MORE[sum(map(ord, side)) % len(_MORE)]


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: a rate in [0, 1] with its 95 % interval, a label, and a colour."""

    label: str
    rate: float
    low: float
    high: float
    colour: str
    note: str = ""
    """Text at the bar's end (default: the rate in per cent)."""

    @classmethod
    def of(cls, label: str, figure: Mapping[str, Any], colour: str, note: str = "") -> Bar:
        """A bar from a figure ``{"rate", "ci95": [low, high]}`` (``bridge.records.stats.rate``)."""
        low, high = figure["ci95"]
        return cls(label, float(figure["rate"]), float(low), float(high), colour, note)


def bar_chart(
    groups: Sequence[tuple[str, Sequence[Bar]]],
    *,
    title: str,
    width: int = 640,
    marker: Mapping[str, float] | None = None,
) -> str:
    """Horizontal bars with interval whiskers, in labelled groups (a side: the real rate and the lab's).

    Args:
        groups: (group label, its bars) in order.
        title: the chart's accessible title.
        width: the drawing's width in SVG units (it scales to its container).
        marker: a vertical line per name at that rate (e.g. ``{"even": 0.5}``), or ``None``.

    Returns:
        An ``<svg>`` element.
    """
    label_w, bar_h, gap, pad = 130, 16, 4, 8
    plot_w = width - label_w - 130  # room for the note at the bar's end
    rows = sum(len(bars) for _, bars in groups) + sum(1 for g, _ in groups if g)
    height = pad * 2 + rows * (bar_h + gap) + 18
    out = [
        f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="100%" '
        f'preserveAspectRatio="xMinYMin meet" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>'
    ]
    y = pad
    x0 = label_w

    def px(v: float) -> float:
        return round(x0 + max(0.0, min(1.0, v)) * plot_w, 1)

    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        out.append(
            f'<line x1="{px(tick)}" y1="{pad}" x2="{px(tick)}" y2="{height - 18}" stroke="#444" '
            f'stroke-width="1"/><text x="{px(tick)}" y="{height - 4}" font-size="11" fill="#aaa" '
            f'text-anchor="middle">{round(tick * 100)} %</text>'
        )
    for name, value in (marker or {}).items():
        out.append(
            f'<line x1="{px(value)}" y1="{pad}" x2="{px(value)}" y2="{height - 18}" stroke="#f5c542" '
            f'stroke-dasharray="4 3"><title>{escape(name)}</title></line>'
        )
    for group, bars in groups:
        if group:
            out.append(
                f'<text x="4" y="{y + bar_h - 3}" font-size="13" font-weight="bold" fill="#eee">{escape(group)}</text>'
            )
            y += bar_h + gap
        for bar in bars:
            mid = y + bar_h / 2
            note = bar.note or f"{bar.rate * 100:.1f} %"
            out.append(
                f"<g><title>{escape(bar.label)}: {bar.rate * 100:.1f} % (95 % interval {bar.low * 100:.1f}–"
                f"{bar.high * 100:.1f} %)</title>"
                f'<text x="{x0 - 6}" y="{mid + 4}" font-size="12" fill="#ddd" text-anchor="end">{escape(bar.label)}</text>'
                f'<rect x="{x0}" y="{y}" width="{round(px(bar.rate) - x0, 1)}" height="{bar_h}" fill="{bar.colour}" rx="2"/>'
                f'<line x1="{px(bar.low)}" y1="{mid}" x2="{px(bar.high)}" y2="{mid}" stroke="#eee" stroke-width="2"/>'
                f'<line x1="{px(bar.low)}" y1="{mid - 5}" x2="{px(bar.low)}" y2="{mid + 5}" stroke="#eee" stroke-width="2"/>'
                f'<line x1="{px(bar.high)}" y1="{mid - 5}" x2="{px(bar.high)}" y2="{mid + 5}" stroke="#eee" stroke-width="2"/>'
                f'<text x="{px(1.0) + 6}" y="{mid + 4}" font-size="11" fill="#ccc">{escape(note)}</text></g>'
            )
            y += bar_h + gap
    out.append("</svg>")
    return "".join(out)
