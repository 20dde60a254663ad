"""What the balance lab (``traitors balance``) varies for a ruleset: its knobs, declared with the ruleset
(``engine.core.ruleset.Ruleset.balance``) so the lab reads them instead of keeping a table per ruleset."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Knobs = tuple[tuple[str, str], ...]
"""A setup's knobs in print order: ``(name, value)``, each value as printed (``("traitors", "3")``, ``("joker",
"on")``)."""


@dataclass(frozen=True, slots=True)
class BalanceKnobs:
    """A ruleset's setups for the balance lab.

    Args:
        setups: ``setups(base, n)``: every combination of the knobs for a cast of ``n``, as ``(knobs, settings)``
            pairs, each settings value ``base`` (the demo's series for the cast, the ruleset's settings class)
            with only its knobs changed; the lab leaves out those the rules refuse.
        main_knob: the knob ``--plot`` puts on the x axis (one of the setups' knob names).
        axis: the x axis's label for ``main_knob`` (``"number of Traitors"``).
        evil_sides: the winning sides (``engine.outcome.Winner`` values) counted as the evil side's wins; ``()``:
            every side but the ruleset's good side (``Ruleset.good_side``) and ``"nobody"``.
    """

    setups: Callable[[Any, int], list[tuple[Knobs, Any]]]
    main_knob: str
    axis: str
    evil_sides: tuple[str, ...] = ()


def on_off(flag: bool) -> str:
    """A switch knob's printed value: ``"on"`` or ``"off"``."""
    return "on" if flag else "off"


def swap_roles(roles: tuple[str, ...], role: str, by: str, count: int = 1) -> tuple[str, ...]:
    """``roles`` (a deal's role codes) with ``count`` of ``role`` replaced by ``by``, from the end.

    Raises:
        ValueError: ``roles`` holds fewer than ``count`` of ``role``.
    """
    out = list(roles)
    for _ in range(count):
        i = len(out) - 1 - out[::-1].index(role)
        out[i] = by
    return tuple(out)


__all__ = ["BalanceKnobs", "Knobs", "on_off", "swap_roles"]
