"""The club rulesets (Black Knights, Mafia & Yakuza): one state machine (``game.py``, ``night.py``, ``day.py``) read
from each ruleset's rules table (``black_knights.py``, ``mafia_yakuza.py``)."""

from __future__ import annotations

from engine.rulesets.club import black_knights, mafia_yakuza
from engine.rulesets.club.settings import ClubRules

CLUB_RULES: dict[str, ClubRules] = {"black_knights": black_knights.RULES, "mafia_yakuza": mafia_yakuza.RULES}
"""Each club ruleset's rules table by its registry name (``engine.rulesets.RULESETS``): the contestant range
(``sizes``), the roles, the wake order and the switches."""

__all__ = ["CLUB_RULES"]
