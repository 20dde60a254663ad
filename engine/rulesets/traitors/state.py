"""The state of a Traitors series, as data: each contestant's truth, the ballot, the night in progress and what
the powers keep between nights (rulebook §1, §4, §5, §7). The game (``engine.rulesets.traitors.game``) holds one
of each; the phase modules, powers and twists read and change them through ``engine.rulesets.traitors.context``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine.effects import Choice
from engine.ids import Allegiance, Item, NightEvent, Twist
from engine.ids import Power as PowerName
from engine.record import NightRecord
from engine.rulesets.traitors.choices import VotePaper


@dataclass(slots=True)
class PlayerState:
    """One contestant's truth. Never leaves the engine except through views and the finished record."""

    name: str
    seat: int
    """1-based seat at the round table; also the number of their home."""
    allegiance: Allegiance
    power: PowerName | None
    false_power: PowerName | None = None
    drunk: bool = False
    alive: bool = True
    """False from the moment of banishment or murder (a murder becomes public only at breakfast)."""
    publicly_out: bool = False
    """True once everyone knows the contestant is out (banishment, or the breakfast after a murder)."""
    sworn: bool = False
    """A Traitor who has taken the Oath (rulebook §7.1). Set at the Oath; recruits start unsworn."""
    recruited_day: int | None = None
    out: str | None = None
    out_day: int | None = None
    present: bool = True
    """False while the contestant's player is off the server (``ContestantLeft`` until ``ContestantReturned``).
    Absent contestants are skipped where the rules wait for everyone (the vote; host visiting)."""


@dataclass(slots=True)
class Ballot:
    """The vote in progress at a round table or finale banishment."""

    kind: str
    """``"first"``, ``"revote"`` or ``"second"``."""
    voters: tuple[str, ...]
    candidates: tuple[str, ...]
    weights: dict[str, int]
    votes: dict[str, str] = field(default_factory=dict)
    papers: dict[str, VotePaper] = field(default_factory=dict)
    """Voter → their vote paper (every candidate but themself), made when the ballot opens: the prompt shows its
    options and ``Game.legal_actions`` lists its inputs."""


@dataclass(frozen=True, slots=True)
class Use:
    """One use of a power tonight: ``actor`` used ``power`` on ``targets`` (empty for automatic powers)."""

    actor: str
    power: PowerName
    targets: tuple[str, ...]


@dataclass(slots=True)
class NightState:
    """The night in progress (rulebook §7)."""

    record: NightRecord
    oath_queue: list[str] = field(default_factory=list)
    oath_step: int = 0
    traitors: tuple[str, ...] = ()
    """The sworn living Traitors in the Turret tonight."""
    events: frozenset[NightEvent] = frozenset()
    """Events the Traitors may choose tonight (empty: no event)."""
    nominate: bool = False
    """Whether the Traitors name a double vote holder tonight."""
    picks: dict[str, tuple[NightEvent, str]] = field(default_factory=dict)
    nominations: dict[str, str] = field(default_factory=dict)
    offer: tuple[NightEvent, str] | None = None
    cloaked: list[str] = field(default_factory=list)
    confessing: bool = False
    """True while the Traitors are at the Confession, before the night's decisions (rule T8.4)."""
    """The Traitors given their cloak tonight (at the Oath or in the Turret), until they go home (rulebook §10)."""
    victims: list[str] = field(default_factory=list)
    """Murdered tonight: settled at the murder step of the night order (``visit.settle_murder``)."""
    attack: tuple[str, bool] | None = None
    """The Traitors' attack tonight: (target, is an ultimatum). Set when the event is decided or declined."""
    powers_on: bool = False
    """Whether powers act tonight (nights that may have an event)."""
    pending: list[str] = field(default_factory=list)
    """Contestants still to choose in the Traitor-power phase or the host visit."""
    options: dict[str, list[Choice]] = field(default_factory=dict)
    """Contestant → the uses offered at their power prompt (``visit.choosable``), listed again by
    ``Game.legal_actions`` while they are pending. They stay valid while the phase lasts: nothing a power's
    validator reads (who is alive, allegiances, the day, the chooser's own uses and last targets, Jokers and
    copies) changes until the night resolves. An accepted use or pass changes only the chooser's own entries and
    ends their turn, as does an accepted Joker; no twist accepts an input in these phases; presence,
    replacements, the clock and twist scheduling touch nothing a validator reads. An undo replaces the whole
    night state by the replayed one (``docs/performance.md``)."""
    uses: list[Use] = field(default_factory=list)
    """Every power use chosen tonight, in the order chosen."""
    joker: str | None = None
    """The Faithful offered the Joker tonight, until they answer."""
    settled: bool = False
    """True once the murder step has run (``murdered_tonight`` is then final)."""


@dataclass(slots=True)
class PowerState:
    """Per-series state of the powers. Every field says when it is set and cleared."""

    intoxicated: set[str] = field(default_factory=set)
    """Set by The Bartender at tonight's resolution; cleared when the next night begins."""
    falsified: set[str] = field(default_factory=set)
    """Set by The Falsifier at tonight's resolution; cleared when the next night begins."""
    sobered: set[str] = field(default_factory=set)
    """Set by The Sober at tonight's resolution; cleared when the next night begins."""
    silenced: set[str] = field(default_factory=set)
    """Set by The Silencer; no vote paper at the next round table; cleared when the next night begins."""
    cleansed: set[str] = field(default_factory=set)
    """Set by The Cleanser at tonight's resolution; cleared at the end of the night."""
    shields: set[str] = field(default_factory=set)
    """Murder shield holders protected tonight (filled by the Confession twist); a used shield is removed and
    every shield is cleared at the end of the night (rulebook §8: the following night only)."""
    guessed: set[str] = field(default_factory=set)
    """Contestants rightly guessed by the Traitors tonight (filled by the Guess twist); cleared at night's end.
    A guessed contestant loses their power for the series, except a Cleanser who cleanses themself."""
    used: Counter[tuple[str, PowerName]] = field(default_factory=Counter)
    """(contestant, power) → uses so far this series (a use while impaired counts, [house] §2)."""
    last_target: dict[tuple[str, PowerName], tuple[int, str]] = field(default_factory=dict)
    """(contestant, power) → (night, target) of their last use (the "not the same … running" rules)."""
    judge_self: set[str] = field(default_factory=set)
    """Judges who have protected themselves (at most once, rulebook §5)."""
    protected: str | None = None
    """The Judge's protection for the next round table (set at night, cleared after that round table)."""
    accusation: str | None = None
    """The Sheriff's accused for the next round table (``None`` when none, or the Sheriff was impaired or
    murdered: announced then failing silently is modelled by ``accusation_fails``)."""
    accusation_fails: bool = False
    """True when the accusation is announced but fails whatever the accused registers as (impaired Sheriff)."""
    alerted: str | None = None
    """The Survivor alerted instead of murdered; murdered after the next round table unless it banishes a
    Traitor (rulebook §5). Cleared after that round table."""
    copied: dict[str, tuple[PowerName | None, int, bool]] = field(default_factory=dict)
    """Mimic → (copied power, night copied, behaves as drunk). Active from the next night on."""
    removed_seen: dict[str, str | None] = field(default_factory=dict)
    """Historian → the removed contestant they were last told about."""
    jokers: set[str] = field(default_factory=set)
    """Holders of the Joker (rulebook §6); a holder's Faithful power is a false power while they hold it."""
    joker_offered: bool = False
    """True once the Joker has been offered this series."""


@dataclass(slots=True)
class TwistState:
    """Per-series state of the twists. Every field says when it is set."""

    schedule: dict[int, set[Twist]] = field(default_factory=dict)
    """Day → twists; from ``Settings.twists``, changed by ``StartTwist`` / ``CancelTwist``."""
    begun: set[tuple[int, Twist]] = field(default_factory=set)
    """(day, twist) whose first step has happened (or lapsed): it can no longer be cancelled."""
    # Murder twist
    bearer_picks: dict[str, str] = field(default_factory=dict)
    """Tonight's Traitor → the Traitor they name for the Sacred Sword (cleared at the Turret's close)."""
    bearers: dict[int, str] = field(default_factory=dict)
    """Day → the Traitor who receives the Sacred Sword at that day's discussion."""
    sword: tuple[int, str] | None = None
    """(day, holder) while the Sacred Sword is out (discussion); ``None`` otherwise."""
    sword_used: bool = False
    quiet_nights: set[int] = field(default_factory=set)
    """Nights without an event: the night of a Murder-twist day (rulebook §8 [house])."""
    # Confession twist
    chests: tuple[int, int] = (0, 0)
    """(closed chests left, shields among them) during a confession discussion."""
    confession_day: int | None = None
    """The day whose discussion has the confession chests open (until the round table)."""
    opened: set[str] = field(default_factory=set)
    shield_finders: list[str] = field(default_factory=list)
    confessions: dict[str, str] = field(default_factory=dict)
    response: str | None = None
    """The Traitors' reply on a confession night; delivered at the next breakfast, then cleared."""
    response_due: bool = False
    """True from a confession night until the next breakfast."""
    # Guess and Seer twists
    guess_pending: dict[str, str] = field(default_factory=dict)
    """Guesser → the target picked, waiting for the power (two-step guess)."""
    guess_picks: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Tonight's Traitor → (target, power value) guessed."""
    guessed_tonight: list[str] = field(default_factory=list)
    """Targets of tonight's guess (right or wrong; The Detective and The Spy count it)."""
    nomination: dict[str, str] = field(default_factory=dict)
    """Tonight's Faithful votes for the nominee (voter → target) while the nomination is open."""
    nominators: tuple[str, ...] = ()
    nomination_night: int | None = None
    """The night whose nomination has been held (it is held once)."""
    nominees: dict[int, tuple[Twist, str]] = field(default_factory=dict)
    """Day → (GUESS or SEER, the nominee)."""
    nominee_done: set[int] = field(default_factory=set)
    """Days whose nominee step is over (or was skipped)."""
    # Trial
    trial_picks: dict[str, list[str]] = field(default_factory=dict)
    trial_night: int | None = None
    """The night whose event is replaced by the Trial."""
    on_trial: list[str] = field(default_factory=list)
    """Who the Traitors put on trial tonight, from the Turret's close until the Traitors go home (the Trial then
    begins, rulebook §7.3)."""
    trial_news: list[str] = field(default_factory=list)
    """Who was on trial last night: announced at breakfast."""
    # the day's end and the bar
    discussion_closed: int | None = None
    """The day whose discussion items were collected (the round table may be opened twice: nominee step)."""
    drinks: set[str] = field(default_factory=set)
    """Contestants who have had their drink this series (rulebook §10)."""
    glasses: list[Item] = field(default_factory=list)
    """Glasses handed out at the bar since glasses were last collected (each is held until discussion ends)."""
    # twists registered with a state of their own
    own: dict[Twist, Any] = field(default_factory=dict)
    """Twist → its own per-series state, made by its spec's ``state`` on first use (``twists.state_of``)."""

    @classmethod
    def from_settings(cls, schedule: dict[int, tuple[Twist, ...]]) -> TwistState:
        """The state at the start of a series (a copy of the schedule)."""
        return cls(schedule={d: set(ts) for d, ts in schedule.items()})

    def is_on(self, day: int, twist: Twist) -> bool:
        """Whether ``twist`` is scheduled for ``day`` (settings plus the host's live changes)."""
        on = self.schedule.get(day)
        return on is not None and twist in on


__all__ = ["Ballot", "NightState", "PlayerState", "PowerState", "TwistState", "Use"]
