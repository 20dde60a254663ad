"""Mechanics shared by every ruleset (``engine.core.night``: the night-resolution core; ``engine.core.step``: the
input step, legal-then-apply)."""
