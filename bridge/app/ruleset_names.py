"""``--ruleset``'s choices: the registry's keys (``engine.rulesets.RULESETS``), read when first asked for.

A light module (the standard library only at import): the choices are read when a ``--ruleset`` value is checked or
the help is shown, so that building the command line's parsers (``traitors --help``) imports no rules.
"""

from __future__ import annotations

from collections.abc import Iterator


class RulesetNames:
    """The registered rulesets' names as an argparse ``choices`` value, in the registry's order.

    Args:
        balanced: only the rulesets the balance lab offers (those whose entry has ``balance`` knobs).
    """

    def __init__(self, *, balanced: bool = False) -> None:
        self.balanced = balanced

    def _names(self) -> list[str]:
        from engine.rulesets import RULESETS

        return [name for name, r in RULESETS.items() if r.balance is not None or not self.balanced]

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())


RULESET_NAMES = RulesetNames()
"""Every registered ruleset: ``--ruleset``'s choices of ``demo``, ``simulate`` and ``scenario``."""

BALANCED_NAMES = RulesetNames(balanced=True)
"""The registered rulesets with balance knobs: ``traitors balance --ruleset``'s choices."""

__all__ = ["BALANCED_NAMES", "RULESET_NAMES", "RulesetNames"]
