"""A club ruleset as data and a club series' settings (``docs/rulesets.md``): the phases, the phase clocks, the
roles, the night's wake order, the rules (``ClubRules``) and the settings (``ClubSettings``).

``black_knights.py`` and ``mafia_yakuza.py`` fill ``ClubRules`` in; ``engine.rulesets.club.game`` plays them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.cast import check_cast
from engine.core.durations import check_duration
from engine.errors import ConfigError
from engine.ids import Enum
from engine.outcome import Winner
from engine.record import KEEP

MORNING_NEWS: tuple[str, ...] = ("named", "unnamed", "dead_only")
"""The values of the setting ``morning_news``."""

MORNING_NEWS_DEFAULT = "named"
"""The default of ``morning_news`` (``engine.rulesets.club.morning``)."""


def check_morning_news(value: object) -> None:
    """Check the setting ``morning_news``.

    Raises:
        ConfigError: ``value`` is not one of ``MORNING_NEWS``; the message starts with the field name.
    """
    if value not in MORNING_NEWS:
        raise ConfigError(f"morning_news: {value!r} (known: {', '.join(MORNING_NEWS)})")


class ClubPhase(Enum):
    """Where a club series is."""

    NIGHT = "night"
    MORNING = "morning"
    SPEECH = "speech"
    DISCUSSION = "discussion"
    VOTE = "vote"
    LAST_WORD = "last_word"
    REPEAT = "repeat"
    OVER = "over"


class ClubStage(Enum):
    """A node of the club phase graph between phases (``engine.rulesets.club.game.PHASES``)."""

    NIGHT = "night"
    """The day is over without a winner (or the series starts): the night begins (house rule 1)."""


ClubNode = ClubPhase | ClubStage
"""A node of the club phase graph."""


CLUB_DURATIONS: dict[str, float] = {
    "night_step": 60.0,
    "morning": 30.0,
    "speech": 60.0,
    "discussion": 60.0,
    "vote": 60.0,
    "revote": 45.0,
    "last_word": 60.0,
    "repeat": 30.0,
}
"""Seconds per phase clock. ``speech`` and ``last_word`` are one minute each (Black Knights, Day [rule]);
``discussion`` is each contestant's turn to speak in Mafia & Yakuza's discussion ([house] one minute, MY9)."""

MEET = "meet"
"""The kind of an introduction step (``ClubRules.intro``): nobody acts; the host meets the step's role holders."""


@dataclass(frozen=True, slots=True)
class Role:
    """One role of a club ruleset.

    Args:
        code: the stable English code (``"grey_cardinal"``).
        team: the faction code (``"black_order"``, ``"mafia"``, ``"loner"`` …).
        title: the English display name (message key ``<prefix>.role.<code>`` carries the translations).
        cures_poison: a heal by this role removes poison (the Doctor).
        demines: a visit by this role de-mines (the Commissar).
        mine_immune: a mine never takes this role along (commissars, K).
    """

    code: str
    team: str
    title: str
    cures_poison: bool = False
    demines: bool = False
    mine_immune: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the wake order.

    Args:
        name: stable name (message key ``<prefix>.prompt.<name>``).
        roles: the roles woken; for a team kill in leader order.
        kind: the core visit kind (``engine.core.night``).
        team: for a team kill, the faction choosing together; else ``None``.
        self_ok: the actor may target themself.
        no_repeat: "a new one each night".
        once: once per game.
        watchers: roles told the result too (the Heir watches the Lord's check).
    """

    name: str
    roles: tuple[str, ...]
    kind: str
    team: str | None = None
    self_ok: bool = False
    no_repeat: bool = False
    once: bool = False
    watchers: tuple[str, ...] = ()


WinCheck = Callable[[Mapping[str, str], "ClubSettings"], tuple[Winner, tuple[str, ...]] | None]
"""(alive contestant → current role code, the series settings)  →  (winner, winning contestants) or ``None`` (the
series goes on)."""
CheckAnswer = Callable[[str, str, str], str]
"""(step name, checker's role code, target's role code) → the answer's message key."""


@dataclass(frozen=True, slots=True)
class ClubRules:
    """A club ruleset as data (see ``docs/rulesets.md``)."""

    name: str
    prefix: str
    """Message key prefix (``bk``, ``my``)."""
    roles: Mapping[str, Role]
    steps: tuple[Step, ...]
    knows: tuple[frozenset[str], ...]
    """Groups of roles whose holders know each other from the first night."""
    check_answer: CheckAnswer
    win: WinCheck
    default_deal: Callable[[int], tuple[str, ...]]
    sizes: tuple[int, int]
    intro: tuple[Step, ...]
    """The first night's introduction steps (kind ``MEET``: the host meets each holder privately), in place of
    the wake order; empty: the first night is a night like the others (Black Knights BK2 "no kills" vs Mafia &
    Yakuza)."""
    first_night: int
    reveal_role: bool
    """The role is announced when a contestant leaves (Black Knights: the card is turned)."""
    nominations: bool
    """Black Knights' day (speeches, one nomination each, last word, repeat vote) vs Mafia & Yakuza's (turns to
    speak, then the vote among everyone)."""
    keep_option: bool
    """The vote may keep everyone (Mafia & Yakuza)."""
    successors: Mapping[str, str] = field(default_factory=dict)
    """role → role that takes it over when its holder leaves (the Heir becomes the Lord)."""
    poison_delay: int = 2


@dataclass(frozen=True, slots=True)
class ClubSettings:
    """Series settings of a club ruleset.

    Args:
        ruleset: ``"black_knights"`` or ``"mafia_yakuza"``.
        contestants: names in seat order.
        hosts: who may use host controls.
        deal: an explicit deal, ``(name, role code)`` in seat order (scenarios); ``None``: the seeded deal.
        deal_table: setting ``deal``: contestant count → role codes, overriding the ruleset's default deal.
        day_execution: whether the day ends with a vote (Black Knights [rule] "Start", default true).
        morning_news: what the morning tells beyond the dead (``engine.rulesets.club.morning``; default ``"named"``).
        mad_knight_solo_win: Black Knights [house]: the Mad Knight also wins alone when at most one other
            contestant is alive with him (default false: his own win is not in the rulebook, BK12).
        durations: seconds per phase (``CLUB_DURATIONS`` keys).
        max_days: the series ends with nobody winning after this many days ([house]).
    """

    ruleset: str
    contestants: tuple[str, ...]
    hosts: tuple[str, ...] = ()
    deal: tuple[tuple[str, str], ...] | None = None
    deal_table: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    day_execution: bool = True
    morning_news: str = MORNING_NEWS_DEFAULT
    mad_knight_solo_win: bool = False
    durations: Mapping[str, float] = field(default_factory=dict)
    max_days: int = 30

    def duration(self, key: str) -> float:
        """Seconds for a phase clock."""
        return float(self.durations.get(key, CLUB_DURATIONS[key]))

    def validate(self, rules: ClubRules) -> None:
        """Check every field against ``rules``.

        Raises:
            ConfigError: the message starts with the field name.
        """
        names = self.contestants
        check_cast(names, self.hosts)
        check_morning_news(self.morning_news)
        for key, value in self.durations.items():
            if key not in CLUB_DURATIONS:
                raise ConfigError(f"durations.{key}: unknown phase (known: {', '.join(CLUB_DURATIONS)})")
            check_duration(key, value)
        if self.max_days < 1:
            raise ConfigError(f"max_days: {self.max_days} must be at least 1")
        if self.mad_knight_solo_win and "mad_knight" not in rules.roles:
            raise ConfigError(f"mad_knight_solo_win: {rules.name} has no Mad Knight")
        self._validate_deal_table(rules)
        if self.deal is not None:
            self._validate_deal(rules)
            return
        lo, hi = rules.sizes
        if not lo <= len(names) <= hi and len(names) not in self.deal_table:
            raise ConfigError(f"contestants: {len(names)} contestants; {rules.name} allows {lo}-{hi}")

    def _validate_deal_table(self, rules: ClubRules) -> None:
        """``deal.N``: N roles of ``rules`` for N contestants. Raises ``ConfigError``."""
        for count, roles in self.deal_table.items():
            if len(roles) != count:
                raise ConfigError(f"deal.{count}: lists {len(roles)} roles for {count} contestants")
            for r in roles:
                if r not in rules.roles:
                    raise ConfigError(f"deal.{count}: unknown role {r!r} (known: {', '.join(rules.roles)})")

    def _validate_deal(self, rules: ClubRules) -> None:
        """The explicit ``deal``: every contestant in seat order, each with a role of ``rules``, 2 to 16 of them.
        Raises ``ConfigError``."""
        names = self.contestants
        deal = self.deal or ()
        if tuple(n for n, _ in deal) != names:
            raise ConfigError("deal: must list exactly the contestants, in seat order")
        for i, (n, r) in enumerate(deal):
            if r not in rules.roles:
                raise ConfigError(f"deal[{i}] ({n}): unknown role {r!r} (known: {', '.join(rules.roles)})")
        if not 2 <= len(names) <= 16:
            raise ConfigError(f"deal: {len(names)} contestants; an explicit deal needs 2-16")


def faction_members(alive: Mapping[str, str], roles: Mapping[str, Role], team: str) -> tuple[str, ...]:
    """The living contestants of ``team`` (in the order of ``alive``, seat order)."""
    return tuple(n for n, r in alive.items() if roles[r].team == team)


def settings_dict(s: ClubSettings) -> dict[str, Any]:
    """The settings as the record keeps them (``SeriesRecord.settings``): every duration filled in."""
    return {
        "ruleset": s.ruleset,
        "contestants": list(s.contestants),
        "hosts": list(s.hosts),
        "day_execution": s.day_execution,
        "morning_news": s.morning_news,
        "mad_knight_solo_win": s.mad_knight_solo_win,
        "deal": {str(k): list(v) for k, v in sorted(s.deal_table.items())},
        "durations": {k: s.duration(k) for k in CLUB_DURATIONS},
        "max_days": s.max_days,
    }


__all__ = [
    "CLUB_DURATIONS",
    "MEET",
    "KEEP",
    "MORNING_NEWS",
    "MORNING_NEWS_DEFAULT",
    "CheckAnswer",
    "ClubNode",
    "ClubPhase",
    "ClubStage",
    "ClubRules",
    "ClubSettings",
    "Role",
    "Step",
    "WinCheck",
    "check_morning_news",
    "faction_members",
    "settings_dict",
]
