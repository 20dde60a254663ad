"""What every club ruleset's registry entry shares (``engine.core.ruleset.Ruleset``): the club game's family, its
settings class, the record's headings for a club hand, and the contestant range of the ruleset's rules table."""

from __future__ import annotations

from engine.core.ruleset import Ruleset
from engine.rulesets.club.game import ClubGame
from engine.rulesets.club.settings import ClubSettings
from engine.rulesets.club.settings_form import club_form


def club_ruleset(
    name: str, title: str, game: type[ClubGame], rulebook: str, columns: tuple[tuple[str, str], ...]
) -> Ruleset:
    """The registry entry of the club ruleset ``name`` played by ``game`` (a ``ClubGame`` subclass with its
    ``RULES``): ``ClubSettings``, family ``"club"``, the contestant range ``RULES.sizes``, the hand's headings
    "Team" and "Role", "Alive at the end" for a contestant still in at the end, the summary ``columns``
    (``(heading, summary key)`` in table order) and the club settings' keys checked against ``game.RULES``."""
    return Ruleset(
        name=name,
        title=title,
        game=game,
        settings=ClubSettings,
        rulebook=rulebook,
        family="club",
        sizes=game.RULES.sizes,
        hand=("Team", "Role"),
        survivor="Alive at the end",
        columns=columns,
        form=club_form(game.RULES),
    )


__all__ = ["club_ruleset"]
