"""How a series ended (rulebook §9; python-chess ``Outcome`` style): a value, never an exception."""

from __future__ import annotations

from dataclasses import dataclass

from engine.ids import Enum


class Winner(Enum):
    """The winning side."""

    FAITHFUL = "faithful"
    TRAITORS = "traitors"
    JOKER = "joker"
    # Black Knights (docs/rules/black-knights.md, "How the series ends")
    WHITE_ORDER = "white_order"
    BLACK_ORDER = "black_order"
    MAD_KNIGHT = "mad_knight"
    # Mafia & Yakuza (docs/rules/mafia-yakuza.md, "Factions and how they win")
    MAFIA = "mafia"
    YAKUZA = "yakuza"
    TOWN = "town"
    LONERS = "loners"
    NOBODY = "nobody"
    """Nobody wins: everyone died the same night, the series hit its day limit, or the host ended it
    ([house], docs/house-rules.md)."""

    @property
    def title(self) -> str:
        """``"Faithful win"``, ``"Traitors win"``, ``"The Joker wins"``, ``"The White Order wins"`` …"""
        return _WINNER_TITLES[self.value]


_WINNER_TITLES: dict[str, str] = {
    "faithful": "Faithful win",
    "traitors": "Traitors win",
    "joker": "The Joker wins",
    "white_order": "The White Order wins",
    "black_order": "The Black Order wins",
    "mad_knight": "The Mad Knight wins",
    "mafia": "The Mafia wins",
    "yakuza": "The Yakuza wins",
    "town": "The Commissars and Citizens win",
    "loners": "The Loners win",
    "nobody": "Nobody wins",
}


class Termination(Enum):
    """Why the series ended."""

    FINALE_AGREED = "finale_agreed"
    """Every finalist voted end game (rulebook §9)."""
    TWO_LEFT = "two_left"
    """Only two finalists remain (rulebook §9)."""
    NO_TRAITORS = "no_traitors"
    """At breakfast no Traitor is left and none can be recruited ([house] §9)."""
    JOKER_BANISHED = "joker_banished"
    """The Joker was banished (rulebook §6)."""
    FACTION_WON = "faction_won"
    """A club ruleset's win check found a winner (after a night or a day)."""
    ALL_DEAD = "all_dead"
    """A club ruleset: nobody is left alive."""
    DAY_LIMIT = "day_limit"
    """A club ruleset reached its ``max_days`` without a winner ([house])."""
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
