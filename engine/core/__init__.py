"""Mechanics shared by every ruleset (``engine.core.night``: the night-resolution core)."""
