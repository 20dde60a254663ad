"""Terms and counted phrases: the values the engine puts inside a message, as messages of their own.

A power's name, an allegiance, a torch, a twist, a drink, a Turret event, a winner or a host action inside a
sentence is never English text: it is a ``Message`` of its own (``term.*`` keys, merged into
``engine.messages.CATALOG``), so the bridge sends it as a nested ``translate`` component and each client shows
the whole sentence in its own language (Minecraft's ``translate`` component takes ``with`` arguments that are
components themselves: https://minecraft.wiki/w/Text_component_format).

A count next to a word is written ``{name:phrase}`` in a catalogue text (``"{count:traitor_actions}"``); the
value is a whole number and ``PLURALS[phrase]`` gives the English phrase for one and for any other count. The
English text picks its form by the English rule (1 → one); the bridge picks one language-file key per count that
every shipped language can decline (``bridge.minecraft.plurals``).
"""

from __future__ import annotations

from engine.ids import Drink, NightEvent, Power, Torch
from engine.outcome import Winner

__all__ = ["NO_POWER", "PLURALS", "TERMS", "english_plural"]

NO_POWER = "no power"
"""The English answer for a contestant without a power (``engine.rulesets.traitors.powers.base.power_title``)."""


TERMS: dict[str, str] = {
    **{f"term.power.{p.value}": p.title for p in Power},
    "term.power.none": NO_POWER,
    "term.power.nothing": "none",
    "term.allegiance.faithful": "Faithful",
    "term.allegiance.traitor": "Traitor",
    "term.allegiance.a_traitor": "a Traitor",
    **{f"term.torch.{t.value}": t.title for t in Torch},
    **{f"term.drink.{d.value}": d.title for d in Drink},
    # a Turret event as a verb ("Alex chooses to murder Sam") and as what the Spy is told ("Sam was targeted: murder")
    **{f"term.event.{e.value}": e.value for e in NightEvent},
    "term.event.ultimatum": "give an ultimatum to",
    **{f"term.action.{e.value}": e.value for e in NightEvent},
    "term.action.guess": "guess",
    "term.action.trial": "trial",
    **{f"term.winner.{w.value}": w.title for w in Winner},
    "term.keep": "keep everyone",
    # the host actions the record names (``HostControls.log_host_action``): moving on here, each host control's by
    # its spec (``engine.core.host_spec.register_host_control``)
    "term.host_action.advance": "advance",
}
"""Term key → English text (no placeholders). A twist's name (``term.twist.<key>``) is its spec's title, added by
the twists' registry (``engine.rulesets.traitors.twists``)."""

PLURALS: dict[str, tuple[str, str]] = {
    "contestants": ("{n} contestant", "{n} contestants"),
    "traitors": ("{n} Traitor", "{n} Traitors"),
    "faithful": ("{n} Faithful", "{n} Faithful"),
    "chests": ("{n} chest", "{n} chests"),
    "chests_hold": ("{n} of its chests holds", "{n} of its chests hold"),
    "traitor_actions": ("{n} Traitor action", "{n} Traitor actions"),
    "characters": ("{n} character", "{n} characters"),
    "seconds": ("{n} second", "{n} seconds"),
    "days": ("{n} day", "{n} days"),
    "ask": ("{n} asks", "{n} ask"),
    "asked": ("{n} asked", "{n} asked"),
}
"""Counted phrase → its English forms (one, other); ``{n}`` is the count. A catalogue text refers to one as
``{placeholder:phrase}``."""


def english_plural(phrase: str, count: str) -> str:
    """The English form of a counted phrase: one for exactly 1, other for any other count (CLDR ``en``).

    Args:
        phrase: a ``PLURALS`` key.
        count: the count as text (a value that is not a whole number takes the other form).

    Raises:
        KeyError: an unknown phrase.
    """
    one, other = PLURALS[phrase]
    return (one if count.strip() == "1" else other).replace("{n}", count)
