"""Series settings for the ruleset ``traitors`` and the deal (rulebook §1, [house] settings).

Settings are plain frozen dataclasses; ``KEYS`` says how each settings key of a series file and of the store's JSON
is read into them and written back (``engine.core.settings_form``). ``Settings.validate()`` raises ``ConfigError``
naming the field, so a bad series file never starts a series.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.cast import check_cast
from engine.core.durations import check_duration
from engine.core.settings_form import (
    Key,
    by_number,
    choice,
    codes,
    durations,
    flag,
    listed,
    names,
    numbered,
    plain,
    raw,
    seconds,
    whole,
)
from engine.errors import ConfigError
from engine.ids import FAITHFUL_POWERS, Allegiance, Power, Twist

DRUNK_SETTINGS = ("none", "possible", "always")
JOKER_OUTCOMES = ("joker_wins", "traitors_win")
"""Rulebook §6 [house]: who wins when the Joker is banished."""
NO_VOTES = ("revote", "deadlock")
"""[house] §4: a first vote in which nobody voted is voted again by everyone (``revote``, once per round table,
as when everyone is tied on one vote) or goes straight to the deadlock draw among everyone (``deadlock``)."""
SIZES: tuple[int, int] = (6, 16)
"""[house] rulebook §1: a series has 6 to 16 contestants (fewest, most)."""

DEFAULT_DURATIONS: dict[str, float] = {
    "day_zero": 300.0,
    "breakfast": 60.0,
    "discussion": 600.0,
    "round_table": 300.0,
    "vote": 120.0,
    "revote": 45.0,
    "oath": 90.0,
    "turret": 180.0,
    "offer": 90.0,
    "traitor_powers": 90.0,
    "host_visit": 120.0,
    "torches": 120.0,
}
"""Seconds per phase ([house] rulebook §3). ``revote`` is the "little extra time" before an everyone-on-one
vote is voted again (rulebook §4)."""

TWIST_DURATIONS: dict[str, float] = {
    "nomination": 90.0,
    "nominee": 120.0,
}
"""Seconds for the twists' phases ([house] §8): the Faithful's nomination vote, the nominee's Guess/Seer visit."""

STEP_DURATIONS: dict[str, float] = {
    "torch_question": 30.0,
}
"""Seconds for steps inside a phase ([house] §9): ``torch_question``, the finale vote's last changes after the host
asks whether everybody is happy with their decision, before the clock locks the vote."""

_EVERY_DURATION: dict[str, float] = {**DEFAULT_DURATIONS, **TWIST_DURATIONS, **STEP_DURATIONS}

CONFLICTS: tuple[tuple[str, str, str], ...] = (
    ("murder", "trial", "both decide that night's murder"),
    ("guess", "seer", "both need the Faithful's one nominee"),
)
"""Twists that cannot share a day ([house] §8), by key (``Twist.value``), with the reason."""


@dataclass(frozen=True, slots=True)
class DealEntry:
    """One contestant's hand in an explicit deal (scenario files; rulebook §1 example deal).

    Args:
        name: the contestant.
        allegiance: Faithful or Traitor.
        power: their unique power (a Traitor power for a Traitor, or ``None`` when they hold none).
        false_power: a Traitor's false power (a Faithful power nobody holds), else ``None``.
        drunk: whether this Faithful is drunk.
    """

    name: str
    allegiance: Allegiance
    power: Power | None = None
    false_power: Power | None = None
    drunk: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything that shapes one series of ``traitors``.

    Args:
        contestants: names in seat order (seat 1 first); 6–16 ([house] §1).
        traitors: number of Traitors, ≥ 1 and at most a third of contestants ([house] §1: the rulebook's
            example deal has 3 Traitors among 9).
        hosts: who may use host controls (``Advance``); never contestants.
        drunk: ``none`` | ``possible`` (50 %) | ``always`` (rulebook §1).
        powers: deal powers at all. With more than 12 contestants the default pool is too small for unique
            powers; a series may then turn powers off.
        power_pool: the dealt Faithful powers.
        first_night_murder: whether the Traitors murder on the night after day zero. [house] default False:
            that night is for the Oath and nominations, which is what the rulebook's Day One table needs
            (all nine contestants still vote on day one).
        no_reveal_from: banished contestants stop revealing when this many or fewer remain at the round table
            (rulebook §4, §9: five).
        finalists: the finale begins when a round table leaves this many or fewer (rulebook §9: four).
        twists: day number → the twists scheduled for that day (rulebook §8; ``docs/twists.md`` says what "on day d"
            means for each).
        durations: seconds per phase; missing keys take ``DEFAULT_DURATIONS``.
        deal: an explicit deal (scenarios) instead of the seeded random one; checked for consistency only.
        joker_night: the night on which the host offers the Joker (rulebook §6 [house], default 2); ``None``
            or 0: never offered.
        joker_outcome: ``joker_wins`` (the Joker wins alone) or ``traitors_win`` when the Joker is banished.
        confession_shields: confession chests holding a murder shield (rulebook §8 Confession [house], default 2).
        trial_contestants: contestants put on trial by the Trial twist, one of them draws the death card
            (rulebook §8 Trial [house], default 3: two life cards, one death card).
        no_votes: what a round table's first vote with no vote at all leads to (``NO_VOTES``; [house] §4,
            default ``revote``: everyone votes again, once; a table that still has no vote goes to deadlock).
        end_when_no_traitors: end the series at breakfast when no Traitor is left (the Faithful win). [house]
            default False: rulebook §9 "A series will end only when all players are in agreement, or when only
            two players remain", so the series plays on to the finale.
        night_fixed_length: every night stage runs its whole clock, and every stage a night may have runs (one
            Oath clock on every night after night zero, the Traitor powers, the offer, the host's visit), so the
            night's public clocks tell nothing of what happened in it ([house], phases house rule 9; default
            True). False: a stage ends when everyone in it has answered and is left out when nobody acts there.
    """

    contestants: tuple[str, ...]
    traitors: int = 3
    hosts: tuple[str, ...] = ()
    drunk: str = "none"
    powers: bool = True
    power_pool: tuple[Power, ...] = FAITHFUL_POWERS
    first_night_murder: bool = False
    no_reveal_from: int = 5
    finalists: int = 4
    twists: Mapping[int, tuple[Twist, ...]] = field(default_factory=dict)
    durations: Mapping[str, float] = field(default_factory=dict)
    deal: tuple[DealEntry, ...] | None = None
    joker_night: int | None = 2
    joker_outcome: str = "joker_wins"
    confession_shields: int = 2
    trial_contestants: int = 3
    no_votes: str = "revote"
    end_when_no_traitors: bool = False
    night_fixed_length: bool = True

    def duration(self, phase: str) -> float:
        """Seconds for a phase clock (``DEFAULT_DURATIONS``, ``TWIST_DURATIONS`` or ``STEP_DURATIONS`` keys)."""
        default = _EVERY_DURATION[phase]
        return float(self.durations.get(phase, default))

    def twists_on(self, day: int) -> tuple[Twist, ...]:
        """The twists scheduled for ``day``'s round table."""
        return tuple(self.twists.get(day, ()))

    def validate(self) -> None:
        """Check every field.

        Raises:
            ConfigError: the message starts with the field name, e.g. ``traitors: 4 Traitors …``.
        """
        n = len(self.contestants)
        check_cast(self.contestants, self.hosts)
        if self.joker_outcome not in JOKER_OUTCOMES:
            raise ConfigError(f"joker_outcome: {self.joker_outcome!r} is not one of {', '.join(JOKER_OUTCOMES)}")
        if self.joker_night is not None and (not isinstance(self.joker_night, int) or self.joker_night < 0):
            raise ConfigError(f"joker_night: {self.joker_night!r} must be a night number (0 = never)")
        if self.no_votes not in NO_VOTES:
            raise ConfigError(f"no_votes: {self.no_votes!r} is not one of {', '.join(NO_VOTES)}")
        if not isinstance(self.end_when_no_traitors, bool):
            raise ConfigError(f"end_when_no_traitors: {self.end_when_no_traitors!r} must be true or false")
        if not isinstance(self.night_fixed_length, bool):
            raise ConfigError(f"night_fixed_length: {self.night_fixed_length!r} must be true or false")
        if self.drunk not in DRUNK_SETTINGS:
            raise ConfigError(f"drunk: {self.drunk!r} is not one of {', '.join(DRUNK_SETTINGS)}")
        self._validate_durations()
        self._validate_twists()
        if not isinstance(self.confession_shields, int) or not 1 <= self.confession_shields <= 16:
            raise ConfigError(f"confession_shields: {self.confession_shields!r} must be 1-16 chests with a shield")
        if not isinstance(self.trial_contestants, int) or not 2 <= self.trial_contestants <= 5:
            raise ConfigError(f"trial_contestants: {self.trial_contestants!r} must be 2-5 (one draws the death card)")
        self._validate_finale(n)
        if len(set(self.power_pool)) != len(self.power_pool):
            raise ConfigError("power_pool: a power is listed twice")
        for p in self.power_pool:
            if p not in FAITHFUL_POWERS:
                raise ConfigError(f"power_pool: {p.title} is not a dealt Faithful power")
        if self.deal is not None:
            self._validate_deal()
            return
        self._validate_numbers(n)

    def _validate_finale(self, n: int) -> None:
        """The finalists and the no-reveal threshold, counted against a cast of ``n`` (whose size a random deal
        checks first, so a cast too small is named as such)."""
        if self.deal is None:  # before the finalists, which are counted against the cast
            self._validate_cast_size(n)
        if not 2 <= self.finalists < n:
            raise ConfigError(f"finalists: {self.finalists} must be at least 2 and fewer than the contestants")
        if self.no_reveal_from < self.finalists:
            raise ConfigError(f"no_reveal_from: {self.no_reveal_from} must be at least finalists ({self.finalists})")

    def _validate_durations(self) -> None:
        """Every duration names a phase clock and is a positive number of seconds."""
        for key, value in self.durations.items():
            if key not in _EVERY_DURATION:
                known = list(_EVERY_DURATION)
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise ConfigError(f"durations.{key}: unknown phase{hint} (known: {', '.join(known)})")
            check_duration(key, value)

    def _validate_twists(self) -> None:
        """Every scheduled twist day, twist and combination (rulebook §8)."""
        for day, twists in self.twists.items():
            if not isinstance(day, int) or day < 1:
                raise ConfigError(f"twists: day {day!r} must be a day number from 1 (no round table on day 0)")
            for t in twists:
                if not isinstance(t, Twist):  # every declared twist runs (all of rulebook §8)
                    raise ConfigError(f"twists.{day}: the {t} twist is not available in this version")
            if len(set(twists)) != len(twists):
                raise ConfigError(f"twists.{day}: a twist is listed twice")
            keys = {t.value for t in twists}
            for a, b, why in CONFLICTS:
                if a in keys and b in keys:
                    raise ConfigError(f"twists.{day}: {a} and {b} cannot share a day ({why})")
            if "guess" in keys and not self.powers:
                raise ConfigError(f"twists.{day}: the guess twist needs powers = true (rulebook §8 Guess)")
            if "guess" in keys and day < 2 and not self.first_night_murder:
                raise ConfigError(
                    f"twists.{day}: the Traitors guess on the night before, and night 0 has no powers "
                    "(first_night_murder = false); schedule the guess from day 2"
                )

    @staticmethod
    def _validate_cast_size(n: int) -> None:
        """The cast size of a random deal: ``SIZES`` ([house] rulebook §1)."""
        lo, hi = SIZES
        if not lo <= n <= hi:
            raise ConfigError(f"contestants: {n} contestants; a series has {lo}-{hi} ([house] rulebook §1)")

    def _validate_numbers(self, n: int) -> None:
        """The Traitor count and power pool of a random deal, whose cast size is checked (rulebook §1)."""
        if not self.traitors >= 1 or not 3 * self.traitors <= n:
            raise ConfigError(
                f"traitors: {self.traitors} Traitors with {n} contestants; need at least 1 and at most a third "
                f"({n // 3} at most)"
            )
        if self.powers:
            need = n  # every Faithful holds one, every Traitor has a false one, all distinct
            if len(self.power_pool) < need:
                raise ConfigError(
                    f"power_pool: {len(self.power_pool)} Faithful powers cannot deal {n - self.traitors} Faithful "
                    f"powers plus {self.traitors} false powers ({need - len(self.power_pool)} short); "
                    "use fewer contestants or set powers = false"
                )

    def _validate_deal(self) -> None:
        deal = self.deal or ()
        if tuple(e.name for e in deal) != self.contestants:
            raise ConfigError("deal: must list exactly the contestants, in seat order")
        if not 4 <= len(deal) <= 16:
            raise ConfigError(f"deal: {len(deal)} contestants; an explicit deal needs 4-16")
        traitors = [e for e in deal if e.allegiance is Allegiance.TRAITOR]
        if not traitors:
            raise ConfigError("deal: at least one contestant must be a Traitor")
        if len(traitors) * 2 >= len(deal):
            raise ConfigError("deal: the Traitors must be fewer than the Faithful")
        held: list[Power] = []
        for i, e in enumerate(deal):
            _check_dealt(f"deal[{i}] ({e.name})", e)
            if e.power is not None:
                held.append(e.power)
        if len(set(held)) != len(held):
            raise ConfigError("deal: every power is unique; a power is dealt twice")
        falses = [e.false_power for e in deal if e.false_power is not None]
        if len(set(falses)) != len(falses):
            raise ConfigError("deal: two Traitors share a false power")
        for f in falses:
            if f in held:
                raise ConfigError(f"deal: false power {f.title} is held by a contestant (rulebook §1: nobody holds it)")
        if sum(1 for e in deal if e.drunk) > 1:
            raise ConfigError("deal: at most one contestant is drunk")


def _check_dealt(where: str, e: DealEntry) -> None:
    """One hand of an explicit deal on its own (``where``: ``deal[i] (name)``, the message's start): a Traitor
    holds a Traitor power and a Faithful false power and is never drunk; a Faithful holds a dealt Faithful power,
    no false power, and is not drunk as The Sober ([house] rulebook §1).

    Raises:
        ConfigError: the first rule the hand breaks.
    """
    if e.allegiance is Allegiance.TRAITOR:
        if e.power is not None and not e.power.is_traitor_power:
            raise ConfigError(f"{where}: a Traitor's power must be a Traitor power, not {e.power.title}")
        if e.false_power is not None and e.false_power not in FAITHFUL_POWERS:
            raise ConfigError(f"{where}: a false power must be a Faithful power")
        if e.drunk:
            raise ConfigError(f"{where}: Traitors are never drunk ([house] rulebook §1)")
        return
    if e.power is not None and e.power not in FAITHFUL_POWERS:
        raise ConfigError(f"{where}: {e.power.title} is not a dealt Faithful power")
    if e.false_power is not None:
        raise ConfigError(f"{where}: only Traitors have a false power")
    if e.drunk and e.power is Power.SOBER:
        raise ConfigError(f"{where}: The Sober is never drunk ([house] rulebook §1)")


def _deal_entry(e: DealEntry) -> dict[str, Any]:
    return {
        "name": e.name,
        "allegiance": e.allegiance.value,
        "power": e.power.value if e.power is not None else None,
        "false_power": e.false_power.value if e.false_power is not None else None,
        "drunk": e.drunk,
    }


def _deal(value: tuple[DealEntry, ...] | None) -> list[dict[str, Any]] | None:
    return None if value is None else [_deal_entry(e) for e in value]


KEYS: dict[str, Key] = {
    "contestants": Key(names, list),
    "traitors": Key(whole, plain),
    "hosts": Key(names, list),
    "drunk": Key(choice(*DRUNK_SETTINGS), plain),
    "powers": Key(flag, plain),
    "power_pool": Key(codes(Power), listed),
    "first_night_murder": Key(flag, plain),
    "joker_night": Key(whole, lambda v: v if v is not None else 0),  # 0: never offered
    "joker_outcome": Key(choice(*JOKER_OUTCOMES), plain),
    "no_reveal_from": Key(whole, plain),
    "finalists": Key(whole, plain),
    "confession_shields": Key(whole, plain),
    "trial_contestants": Key(whole, plain),
    "no_votes": Key(choice(*NO_VOTES), plain),
    "end_when_no_traitors": Key(flag, plain),
    "night_fixed_length": Key(flag, plain),
    "twists": Key(numbered("day number", 'twists = { 1 = ["double_vote"] }', codes(Twist)), by_number),
    "durations": Key(seconds, durations),
    "deal": Key(raw, _deal),
}
"""Every settings key of The Traitors, in the JSON form's order, with how it is read and written (a new setting
gets its row here; the rest of the settings form, ``settings_form.py``, passes it to ``Settings`` as read)."""
