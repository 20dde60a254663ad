"""How a series ended (rulebook §9; python-chess ``Outcome`` style): a value, never an exception."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Winner(enum.Enum):
    """The winning side."""

    FAITHFUL = "faithful"
    TRAITORS = "traitors"
    JOKER = "joker"
    NOBODY = "nobody"
    """The host ended the series before its end (docs/house-rules.md)."""

    @property
    def title(self) -> str:
        """``"Faithful win"``, ``"Traitors win"``, ``"The Joker wins"`` or ``"No winner"``."""
        return {"faithful": "Faithful win", "traitors": "Traitors win", "joker": "The Joker wins",
                "nobody": "No winner"}[self.value]  # fmt: skip


class Termination(enum.Enum):
    """Why the series ended."""

    FINALE_AGREED = "finale_agreed"
    """Every finalist held up the end-game torch (rulebook §9)."""
    TWO_LEFT = "two_left"
    """Only two finalists remain (rulebook §9)."""
    NO_TRAITORS = "no_traitors"
    """At breakfast no Traitor is left and none can be recruited ([house] §9)."""
    JOKER_BANISHED = "joker_banished"
    """The Joker was banished (rulebook §6)."""
    HOST_ENDED = "host_ended"
    """The host ended the series (``EndSeries``): nobody wins ([house], docs/house-rules.md)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a series.

    Args:
        winner: the winning side.
        termination: why it ended.
        winners: the contestants who win, in seat order.
    """

    winner: Winner
    termination: Termination
    winners: tuple[str, ...]
