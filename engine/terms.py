"""Terms as message values: a power's name, a twist, a host action inside a sentence is a ``Message`` of its own
(a ``term.*`` key of ``engine.messages_terms.TERMS``), so each client translates it inside the sentence.
"""

from __future__ import annotations

from engine.effects import Message, msg
from engine.ids import Allegiance, Power, Twist
from engine.messages_terms import NO_POWER, TERMS

_BY_TITLE: dict[str, str] = {p.title: p.value for p in Power} | {NO_POWER: "none"}


def term(key: str) -> Message:
    """The term ``key`` (a ``TERMS`` key) as a message value: ``msg("deal.faithful", power=term(...))``.

    Raises:
        KeyError: not a term key.
    """
    if key not in TERMS:
        raise KeyError(key)
    return msg(key)


def power_term(power: Power | str | None) -> Message | str:
    """A power's name as a term: a ``Power``, its title (``"The Analyst"``), ``"no power"`` or ``None`` (both
    "no power"), or ``"none"``.

    Any other text (a Spy's answer naming a Turret event: ``"murder"``, ``"guess"``) becomes its
    ``term.action.*`` term; text that names nothing known is returned unchanged.
    """
    if power is None:
        return term("term.power.none")
    if power == "none":
        return term("term.power.nothing")
    if isinstance(power, Power):
        return term(f"term.power.{power.value}")
    code = _BY_TITLE.get(power)
    if code is not None:
        return term(f"term.power.{code}")
    if f"term.action.{power}" in TERMS:
        return term(f"term.action.{power}")
    return power


def allegiance_term(allegiance: Allegiance) -> Message:
    """An allegiance as said of a contestant ("Alex was Faithful", "Alex was a Traitor"): a term."""
    return term("term.allegiance.a_traitor" if allegiance is Allegiance.TRAITOR else "term.allegiance.faithful")


def twist_term(twist: Twist) -> Message:
    """A twist's name as a term (``"The Trial"``)."""
    return term(f"term.twist.{twist.value}")


def host_action_term(kind: str) -> Message | str:
    """A host action of the game record (``"pause_clock"``) as a term; an unknown kind as its words."""
    key = f"term.host_action.{kind}"
    return term(key) if key in TERMS else kind.replace("_", " ")


__all__ = ["host_action_term", "power_term", "term", "twist_term"]
