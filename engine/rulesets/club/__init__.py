"""The club rulesets (Black Knights, Mafia & Yakuza): one state machine (``game.py``, ``night.py``, ``day.py``) read
from each ruleset's rules table (``black_knights.py``, ``mafia_yakuza.py``); each ruleset's ``RULESET`` is its
registry entry (``engine.rulesets.RULESETS``)."""
