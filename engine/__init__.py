"""Castle's rules engine: pure, standard library only.

The engine owns the truth of a series. It takes inputs (``engine.actions``) and returns what happens
(``engine.effects``); it never reads a clock, never does I/O and never knows Minecraft syntax. See
``engine.rulesets.traitors.game.Game`` for the entry point and ``docs/design.md`` for the data flow.
"""
