"""The setups ``traitors balance`` compares: every combination of the knobs a ruleset's settings allow.

For ``traitors`` (rulebook §1, §2, §6, §7, §8): the number of Traitors (1 to fewer than a third of the
contestants; the settings also allow exactly a third, which the search leaves out), drunk (``none``/``possible``/``always``), the Joker offered on night 2 or not, the Double Vote on day
one or not, a murder on the first night or not. For ``black_knights``: the number of Black Knights (1-3 in place
of White Knights), the Mad Knight dealt or not, the day's gallows on or off. For ``mafia_yakuza``: the Mafioso, the
Yakuza and the Maniac dealt or not (each replaced by a Citizen), the day's vote on or off. The starting point is the
demo's series for the cast (``bridge.app.demo_settings.demo_settings``); each setup changes only its knobs.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bridge.app.balance_options import GOOD_SIDE
from bridge.app.demo_settings import demo_settings
from engine.errors import ConfigError
from engine.ids import Twist
from engine.rulesets import RULESETS
from engine.rulesets.club.black_knights import default_deal as bk_deal
from engine.rulesets.club.mafia_yakuza import default_deal as my_deal


def evil_wins(ruleset: str, wins: dict[str, int]) -> int:
    """The evil side's wins among ``wins`` (winning side → series): the Traitors' (not the Joker's, who wins
    alone, rulebook §6), or a club ruleset's every win but the good side's and ``nobody``'s."""
    if ruleset == "traitors":
        return wins.get("traitors", 0)
    return sum(w for side, w in wins.items() if side not in (GOOD_SIDE[ruleset], "nobody"))
MAIN_KNOB = {"traitors": "traitors", "black_knights": "black_knights", "mafia_yakuza": "mafioso"}
"""The knob ``--plot`` puts on the x axis."""


@dataclass(frozen=True, slots=True)
class Setup:
    """One setup: its knobs (name → value, as printed) and the series settings they give."""

    knobs: tuple[tuple[str, str], ...]
    settings: Any

    @property
    def label(self) -> str:
        """``traitors=3 drunk=possible ...``."""
        return " ".join(f"{k}={v}" for k, v in self.knobs)


def _traitors(n: int) -> list[Setup]:
    base: Any = demo_settings(n, "traitors")
    out = []
    for t, drunk, joker, dv, fnm in itertools.product(
        range(1, (n - 1) // 3 + 1), ("none", "possible", "always"), (True, False), (True, False), (False, True)
    ):
        if drunk != "none" and not base.powers:  # with powers off nobody can be drunk
            continue
        s = dataclasses.replace(base, traitors=t, drunk=drunk, joker_night=2 if joker else None,
                                twists={1: (Twist.DOUBLE_VOTE,)} if dv else {}, first_night_murder=fnm)  # fmt: skip
        knobs = (("traitors", str(t)), ("drunk", drunk), ("joker", _on(joker)), ("double_vote", _on(dv)),
                 ("first_night_murder", _on(fnm)))  # fmt: skip
        out.append(Setup(knobs, s))
    return out


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def _swap(roles: tuple[str, ...], role: str, by: str, count: int = 1) -> tuple[str, ...]:
    """``roles`` with ``count`` of ``role`` replaced by ``by`` (from the end)."""
    out = list(roles)
    for _ in range(count):
        i = len(out) - 1 - out[::-1].index(role)
        out[i] = by
    return tuple(out)


def _black_knights(n: int) -> list[Setup]:
    base: Any = demo_settings(n, "black_knights")
    deal = bk_deal(n)
    have = deal.count("black_knight")
    out = []
    for black, mad, gallows in itertools.product((1, 2, 3), (True, False), (True, False)):
        roles = deal
        if black < have:
            roles = _swap(roles, "black_knight", "white_knight", have - black)
        elif black > have:
            if roles.count("white_knight") < black - have + 1:
                continue
            roles = _swap(roles, "white_knight", "black_knight", black - have)
        if not mad:
            roles = _swap(roles, "mad_knight", "white_knight")
        s = dataclasses.replace(base, deal_table={n: roles}, day_execution=gallows)
        out.append(Setup((("black_knights", str(black)), ("mad_knight", _on(mad)), ("gallows", _on(gallows))), s))
    return out


def _mafia_yakuza(n: int) -> list[Setup]:
    base: Any = demo_settings(n, "mafia_yakuza")
    deal = my_deal(n)
    out = []
    # No day-vote knob: Mafia & Yakuza's day always ends in the vote (``day_execution`` acts only on Black Knights'
    # nominations, engine/rulesets/club/day.py).
    for mafioso, yakuza, maniac in itertools.product((True, False), repeat=3):
        roles = deal
        for role, on in (("mafioso", mafioso), ("yakuza", yakuza), ("maniac", maniac)):
            if not on and role in roles:
                roles = _swap(roles, role, "citizen")
        s = dataclasses.replace(base, deal_table={n: roles})
        out.append(Setup((("mafioso", _on(mafioso)), ("yakuza", _on(yakuza)), ("maniac", _on(maniac))), s))
    return out


SETUPS: dict[str, Callable[[int], list[Setup]]] = {
    "traitors": _traitors, "black_knights": _black_knights, "mafia_yakuza": _mafia_yakuza,
}  # fmt: skip
"""Ruleset → the setups for a cast of ``n``."""


def setups_for(ruleset: str, contestants: int, fixed: Mapping[str, str] | None = None) -> list[Setup]:
    """Every valid setup of ``ruleset`` for ``contestants`` (a setup the rules refuse is left out, and of setups
    with the same settings only the first is kept: a knob whose role the deal for this cast lacks changes nothing),
    keeping only those whose knobs have the values ``fixed`` gives (``--fix drunk=none``).

    Raises:
        ConfigError: an unknown ruleset, a cast size the ruleset does not allow, or a ``fixed`` knob or value the
            ruleset does not have (the message names the option).
    """
    if ruleset not in SETUPS:
        raise ConfigError(f"--ruleset: {ruleset!r} (known: {', '.join(SETUPS)})")
    every = SETUPS[ruleset](contestants)
    for knob, value in (fixed or {}).items():
        values = {v for s in every for k, v in s.knobs if k == knob}
        if value not in values:
            if not values:
                raise ConfigError(f"--fix: {knob}={value}; {ruleset} has no knob {knob!r} (its knobs: "
                                  f"{', '.join(k for k, _ in every[0].knobs)})")  # fmt: skip
            raise ConfigError(f"--fix: {knob}={value}; values: {', '.join(sorted(values))}")
        every = [s for s in every if dict(s.knobs)[knob] == value]
    out: list[Setup] = []
    for setup in every:
        if any(setup.settings == kept.settings for kept in out):
            continue
        try:
            RULESETS[ruleset].game(setup.settings, 0)
        except ConfigError:
            continue
        out.append(setup)
    return out


__all__ = ["GOOD_SIDE", "MAIN_KNOB", "SETUPS", "Setup", "evil_wins", "setups_for"]
