"""The phase graph every ruleset's game runs on, and the one driver that walks it (h11's ``_state.py`` style: the
transitions are a table, not methods calling each other).

A ruleset declares its graph as one table, ``{node: step}``. A node is a phase of play (its step runs when the
phase's clock runs out or the host moves on: ``engine.core.step`` house rule 2) or a named stage between phases
(the night ends, a new day begins, ...). A step changes the series and returns the node that follows at once, or
``None`` when the series now waits: a phase clock has started (the next ``TimerExpired`` or input moves it on) or
the series is over. An input's application returns a node the same way. The driver runs the steps until one
returns ``None``; a step never calls a step of another phase module: it names it.

Reading a graph: the table lists every node and the function that runs there; the nodes a step can go to are
the ones it returns. Extending one: add the node to the ruleset's phase (or stage) enum, write its step, and add
the row; a step elsewhere reaches it by returning the node.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

G = TypeVar("G", contravariant=True)
K = TypeVar("K", bound=Hashable)

Step = Callable[[G], K | None]
"""``(game) -> the node that follows at once, or None: the series waits for a clock or an input``."""


@dataclass(frozen=True, slots=True)
class PhaseGraph(Generic[G, K]):
    """A ruleset's phase graph: every node with its step (module docstring).

    Args:
        steps: node (a phase or a stage between phases) → its step.
    """

    steps: Mapping[K, Callable[[G], K | None]]

    def run(self, game: G, node: K | None) -> None:
        """Enter ``node`` (``None``: nothing) and follow the nodes its steps return until the series waits.

        Args:
            game: the series; each step changes it and emits its effects.
            node: the first node to run, e.g. the current phase when its clock ran out, or the node an input's
                application returned.

        Raises:
            KeyError: a step returned a node the graph does not have (a bug in the ruleset's table).
        """
        steps = self.steps
        while node is not None:
            node = steps[node](game)


__all__ = ["PhaseGraph", "Step"]
