"""The demo's series settings: names, shortened phase clocks, and ``demo_settings`` for a cast and ruleset.

Each ruleset's range and settings class come from its registry entry (``engine.rulesets.RULESETS``), its demo
series from its game family (``DEMO_SERIES``). A light module (the engine's settings only): ``traitors simulate`` and ``traitors balance`` build their series
from it without importing the sandbox, the castle builder or the server loop that ``bridge/app/demo.py`` needs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import ConfigError
from engine.ids import Twist
from engine.rulesets import DEFAULT_RULESET, RULESETS, Ruleset

DEMO_NAMES = (
    "Alex",
    "Kai",
    "Zuri",
    "Steve",
    "Ari",
    "Noor",
    "Sunny",
    "Efe",
    "Makena",
    "Lena",
    "Omar",
    "Rhea",
    "Tomas",
    "Ines",
    "Yuki",
    "Bram",
)
"""Contestant names in seat order (the rulebook's example names first)."""

DEMO_HOST = "Host"
"""The host of ``demo --grimoire``: a player who joins the sandbox, plays no seat and answers nothing, so the series
plays exactly as without them until someone presses a control on the grimoire page."""

DEMO_DURATIONS: dict[str, float] = {
    "day_zero": 0.3,
    "breakfast": 0.2,
    "discussion": 0.2,
    "round_table": 0.2,
    "vote": 20.0,
    "revote": 20.0,
    "oath": 0.5,
    "turret": 0.5,
    "offer": 0.5,
    "traitor_powers": 0.5,
    "host_visit": 0.5,
    "torches": 1.5,
    "torch_question": 1.5,
}
"""Seconds per phase in the demo. The votes end when everyone has voted; their long clocks are only a safety net.
The night stages run their whole clocks (``engine.rulesets.traitors.phases`` house rule 9), so theirs are short:
a deadline fires only once every bot has answered what it was shown (``bridge/sandbox/quiet.py``), so however slow
the machine, a short clock never turns a bot's answer into a pass."""

CLUB_DEMO_DURATIONS: dict[str, float] = {
    "night_step": 0.5,
    "morning": 0.2,
    "speech": 20.0,
    "discussion": 0.05,
    "vote": 20.0,
    "revote": 20.0,
    "last_word": 0.2,
    "repeat": 20.0,
}
"""Seconds per phase in a club demo: speeches end at the speaker's nomination, votes when everyone voted; a turn
of Mafia & Yakuza's discussion, where the bots have nothing to say, is short. Every night step runs its whole
clock (the night's shape is public), so it is short too: the quiet gate holds a clock until every bot has
answered, so no answer is cut off."""


def default_traitors(n: int) -> int:
    """About a quarter of the contestants, at least 1 and fewer than a third (within [house] rulebook §1's limit of a
    third)."""
    return max(1, min(n // 4, (n - 1) // 3))


def _traitors_demo(spec: Ruleset, names: tuple[str, ...], hosts: tuple[str, ...]) -> Any:
    """The Traitors' demo series: a quarter of the cast Traitors, the Double Vote on day one; powers (and the Drunk)
    only up to 12 contestants, where the power pool still deals unique powers."""
    return spec.settings(
        contestants=names,
        hosts=hosts,
        traitors=default_traitors(len(names)),
        powers=len(names) <= 12,
        drunk="possible" if len(names) <= 12 else "none",
        twists={1: (Twist.DOUBLE_VOTE,)},
        durations=DEMO_DURATIONS,
    )


def _club_demo(spec: Ruleset, names: tuple[str, ...], hosts: tuple[str, ...]) -> Any:
    """A club ruleset's demo series: its default deal, the club demo's clocks."""
    return spec.settings(spec.name, names, hosts=hosts, durations=CLUB_DEMO_DURATIONS)


DEMO_SERIES: dict[str, Callable[[Ruleset, tuple[str, ...], tuple[str, ...]], Any]] = {
    "traitors": _traitors_demo,
    "club": _club_demo,
}
"""Game family (``engine.core.ruleset.Ruleset.family``) → the demo series of one of its rulesets for the names
in seat order and the hosts."""


def demo_settings(contestants: int, ruleset: str = DEFAULT_RULESET, hosts: tuple[str, ...] = ()) -> Any:
    """The demo's series: ``contestants`` bots, shortened clocks; for The Traitors the Double Vote on day one; the
    ``hosts`` (``demo --grimoire``: ``DEMO_HOST``), who only ever act by pressing a control.

    Args:
        contestants: how many bots, within the ruleset's range (``Ruleset.sizes``: 6–16 for The Traitors, 8–16
            for the club rulesets).
        ruleset: a key of ``engine.rulesets.RULESETS``.
        hosts: player names.

    Returns:
        The ruleset's settings (``Ruleset.settings``). With more than 12 contestants the Traitors' power pool is
        too small for unique powers, so powers are off. The club rulesets use their default deal.

    Raises:
        ConfigError: ``contestants`` is outside the ruleset's range, or an unknown ruleset.
    """
    if ruleset not in RULESETS:
        raise ConfigError(f"--ruleset: {ruleset!r} (known: {', '.join(RULESETS)})")
    spec = RULESETS[ruleset]
    lo, hi = spec.sizes
    if not lo <= contestants <= hi:
        raise ConfigError(f"--contestants: {contestants}; a series has {lo}-{hi} contestants")
    return DEMO_SERIES[spec.family](spec, DEMO_NAMES[:contestants], hosts)


__all__ = [
    "CLUB_DEMO_DURATIONS",
    "DEMO_DURATIONS",
    "DEMO_HOST",
    "DEMO_NAMES",
    "DEMO_SERIES",
    "default_traitors",
    "demo_settings",
]
