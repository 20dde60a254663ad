"""The Traitors: one series, from the deal to the winner (rulebook §1, §3, §4, §7, §9; the twists of §8).

``Game.handle(action, now=…)`` is the whole contract: validate first, then apply, and return the effects.
An illegal input raises ``IllegalAction`` (or ``InvalidCommand``) and changes nothing. Time comes in as
``now`` (seconds, any epoch the caller keeps consistent); randomness comes from one ``random.Random(seed)``
drawn in a fixed order, so ``Game.replay`` rebuilds a series exactly from its input log.

Powers (rulebook §5, §6; ``engine.rulesets.traitors.powers``): Traitor powers are chosen in the Turret after the night's event,
Faithful powers when the host visits; every use is collected and the night resolves in
``engine.rulesets.traitors.powers.NIGHT_ORDER``. Drunk and intoxicated contestants get false answers in the same form and at the
same moment as everyone else (rulebook §2). Round-table events (rulebook §4): the Silencer's silence, the
Sheriff's accusation, the Judge's protection, the Survivor's delayed murder and the Joker's banishment.

Twists (rulebook §8, §10; ``engine.rulesets.traitors.twists``, one module per twist): called only from the hooks marked
``TWIST HOOK`` in the phase modules; the twists' state is ``Game.twist_state``.

This module holds the series state and the public API; the rules live by phase of play in ``night`` (Oath,
Turret, offer, the night's end), ``visit`` (Traitor powers, host visiting, the night's resolution), ``round_table``
(breakfast to banishment), ``finale`` (torches), ``presence`` (leaving and returning) and ``host`` (host
controls), read through the tables of ``rules`` (the phase graph; each input's check, application and listing).
Those modules, the powers and the twists see the game only through ``context`` (``Table``, ``Context``), which
``Game`` implements.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.actions import (
    Action,
    Advance,
)
from engine.core.host import HostControls
from engine.core.step import InputLog, fed_log
from engine.effects import (
    ClockStarted,
    Effect,
    GiveItem,
    MoveTo,
    SeriesOver,
    ShowTitle,
    Whisper,
    announce,
    msg,
    whisper,
)
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import TRAITOR_POWERS, Allegiance, Item, Place, Power, Torch, Twist
from engine.outcome import Outcome, Termination, Winner
from engine.record import (
    ContestantRecord,
    RoundTableRecord,
    SeriesRecord,
)
from engine.rulesets.traitors import heads, twists
from engine.rulesets.traitors.host import reprompt, tell_hand
from engine.rulesets.traitors.phases import Node, Phase, clock_label
from engine.rulesets.traitors.powers import POWERS, TURRET
from engine.rulesets.traitors.rules import CONTESTANT, LISTERS, PHASES, rule_of
from engine.rulesets.traitors.settings import DEFAULT_DURATIONS, DealEntry, Settings
from engine.rulesets.traitors.state import Ballot, NightState, PlayerState, PowerState, TwistState, Use
from engine.rulesets.traitors.views import lazy_view, public_view, view_for
from engine.terms import power_term, term
from engine.tracking import WorldState
from engine.views import LazyView, PlayerView, PublicView

RULESET = "traitors"
_REPLAYED_STATE: tuple[str, ...] = (
    "settings",
    "seed",
    "rng",
    "players",
    "hosts",
    "phase",
    "phase_seq",
    "deadline",
    "day",
    "started",
    "ballot",
    "table",
    "revote_used",
    "double_vote_holder",
    "double_vote_next",
    "night",
    "news",
    "torches",
    "outcome",
    "log",
    "record",
    "powers",
    "guarded",
    "last_removed",
    "twist_state",
    "paused",
    "clock_label",
    "stand_ins",
    "_inbox",
    "_items",
    "_places",
    "_placed",
    "_untracked",
    "heads",
    "torches_asked",
)
"""Every attribute of a ``Game`` that an undo takes from the replayed game: all but the effects being gathered
(``_fx``), the time (``_now``) and the pending item reset (a test keeps this list whole). Named, not read off
``__dict__``, so that every new attribute is put on one side of an undo on purpose."""


def announced_drunk(setting: str, dealt: bool) -> str:
    """What the series' opening says about the drunk (rule T1.6), never false of the deal.

    Args:
        setting: ``Settings.drunk`` (``none`` | ``possible`` | ``always``).
        dealt: whether the deal made a Faithful drunk.

    Returns:
        ``possible`` as set (true either way); otherwise ``always`` exactly when a drunk was dealt, else ``none``
        ([house] §1 Drunk announcement: a scripted deal, or ``always`` with powers off, overrides the setting).
    """
    if setting == "possible":
        return setting
    return "always" if dealt else "none"


class Game(HostControls):
    """One series of The Traitors.

    Args:
        settings: the series settings; validated here.
        seed: the seed of the series' one random generator. It is a secret: never in a view.

    Raises:
        ConfigError: the settings are invalid (the message names the field).
    """

    REPLAYED_STATE = _REPLAYED_STATE
    PHASES = PHASES
    """The phase graph (``rules.PHASES``): what the end of each phase's clock does (``engine.core.step``)."""

    def __init__(self, settings: Settings, seed: int) -> None:
        settings.validate()
        self.settings = settings
        self.seed = seed
        self.rng = random.Random(seed)
        self.players: dict[str, PlayerState] = {}
        self.hosts = frozenset(settings.hosts)
        self.phase: Phase | None = None
        self.phase_seq = 0
        self.deadline: float | None = None
        self.day = 0
        self.started = False
        self.ballot: Ballot | None = None
        self.table: RoundTableRecord | None = None
        self.revote_used = False
        self.double_vote_holder: str | None = None
        """Holder of the double vote paper at today's round table."""
        self.double_vote_next: str | None = None
        """Named by the Traitors tonight for tomorrow's round table."""
        self.night: NightState | None = None
        self.news: list[str] = []
        """Murders of the last night, announced at the next breakfast."""
        self.torches: dict[str, Torch | None] = {}
        """Each finalist's finale vote while it is open (``None``: not voted yet)."""
        self.torches_asked = False
        """Whether the host has asked whether everybody is happy with their decision (the finale vote, §9)."""
        self.heads: dict[str, int] = {}
        """Contestant → seat of the player head set at their breakfast place today (§10; ``heads``)."""
        self.outcome: Outcome | None = None
        self._init_tracker()
        """``inbox``, ``items`` and ``places`` (``engine.tracking.CastleTracker``)."""
        self.log = InputLog()
        """The input log: every accepted input with its ``now``; ``Game.replay`` consumes it."""
        self.record = SeriesRecord(ruleset=RULESET, seed=seed, contestants=[], settings=_settings_dict(settings))
        self.powers = PowerState()
        """Everything the powers keep between nights (``engine.rulesets.traitors.powers.base.PowerState``)."""
        self.guarded: set[str] = set()
        """Protected by The Guardian tonight; cleared at the end of the night."""
        self.last_removed: str | None = None
        """The most recently murdered or banished contestant (The Historian)."""
        self.twist_state = TwistState.from_settings(dict(settings.twists))
        """Everything the twists keep (``engine.rulesets.traitors.twists.TwistState``): the live schedule, swords, shields…"""
        self._init_host_controls()
        """``paused``, ``clock_label`` and ``stand_ins`` (``engine.core.host.HostControls``)."""
        self._fx: list[Effect] = []
        self._now = 0.0

    # ------------------------------------------------------------------ public API

    def handle(self, action: Action, *, now: float) -> list[Effect]:
        """Apply one input and return the effects it causes.

        Args:
            action: any input of ``engine.actions``.
            now: the current time in seconds (monotonic within a series).

        Returns:
            The effects, in order. A stale or repeated ``TimerExpired`` returns ``[]``.

        Raises:
            InvalidCommand: the action names an unknown contestant.
            IllegalAction: the rules forbid it now; the state is unchanged. ``reason`` is the message key.
        """
        return self._handle(action, now)  # engine.core.host: the input step with stand-ins

    def legal_actions(self, player: str) -> list[Action]:
        """Every input ``player`` may send now (concrete: one per choice).

        Args:
            player: a contestant or host name.

        Returns:
            The legal inputs, in a stable order; ``[]`` when there is nothing to do.
        """
        out: list[Action] = []
        phase = self.phase
        if phase is None or phase is Phase.OVER:
            return out
        if player in self.hosts:
            out.append(Advance(player))
        p = self.players.get(player)
        if p is None or not p.alive:
            return out
        if self.night is not None and self.night.confessing:
            return out  # rule T8.4: at the Confession the only input is the response, free text (not listed)
        if twists.LISTED_IN[phase]:  # TWIST HOOK: only phases in which a twist takes inputs
            out += twists.legal_actions(self, player)
        for lister in LISTERS[phase]:
            out += lister(self, player)
        return out

    @classmethod
    def replay(cls, settings: Settings, seed: int, log: Iterable[dict[str, Any]]) -> Game:
        """Rebuild a series from its input log (``Game.log``): the same state, views and record.

        Raises:
            InvalidCommand, IllegalAction: the log does not fit these settings and seed.
        """
        return fed_log(cls(settings, seed), log)

    @property
    def is_over(self) -> bool:
        """True once the series has ended."""
        return self.phase is Phase.OVER

    def seats(self) -> dict[str, int]:
        """Contestant → seat number (public: the seating is public)."""
        return {p.name: p.seat for p in self.players.values()}

    def contestants(self) -> list[str]:
        """Every contestant in seat order (including those who are out)."""
        return list(self.players)

    ruleset = RULESET
    """The ruleset's name in ``engine.rulesets.RULESETS`` (the common game interface)."""

    def view_for(self, name: str) -> PlayerView:
        """What contestant ``name`` may know now (``engine.rulesets.traitors.views.view_for``; the common game
        interface).

        Raises:
            KeyError: ``name`` is not a contestant.
        """
        return view_for(self, name)

    def lazy_view(self, name: str) -> LazyView:
        """``view_for``, each field worked out when first read (``engine.rulesets.traitors.views.lazy_view``; the
        common game interface: what the balance lab hands a bot).

        Raises:
            KeyError: ``name`` is not a contestant.
        """
        return lazy_view(self, name)

    def public_view(self) -> PublicView:
        """What everyone in the castle knows (``engine.rulesets.traitors.views.public_view``)."""
        return public_view(self)

    # ------------------------------------------------------------------ validation

    def _validate(self, action: Action) -> Callable[[], None]:
        """Check ``action`` against its rule (``rules.rule_of``) and return the function that applies it.

        A contestant's input is refused first when its actor is unknown (``InvalidCommand``) or out; an input of
        another ruleset is refused as ``invalid.action.kind`` after those checks. Mutates nothing.
        """
        rule = rule_of(type(action))
        if rule is None or rule.by is CONTESTANT:
            actor = action.actor
            if actor is None or actor not in self.players:
                raise InvalidCommand("illegal.unknown_player", player=str(actor))
            if not self.players[actor].alive:
                raise IllegalAction("illegal.out")
            if rule is None:
                raise InvalidCommand("invalid.action.kind", kind=action.kind)
        applied = rule.check(self, action)
        if rule.apply is None:  # a shared host control: its check returns its application
            assert applied is not None
            return applied
        return functools.partial(_apply, rule.apply, self, action)

    # ------------------------------------------------------------------ helpers

    def twist_on(self, day: int, twist: Twist) -> bool:
        """Whether ``twist`` is scheduled for ``day`` (series settings plus the host's live changes)."""
        return twists.is_on(self, day, twist)

    def living(self) -> list[str]:
        """The contestants still in the series, in seat order."""
        return [p.name for p in self.players.values() if p.alive]

    def living_traitors(self) -> list[str]:
        return [p.name for p in self.players.values() if p.alive and p.allegiance is Allegiance.TRAITOR]

    def living_faithful(self) -> list[str]:
        return [p.name for p in self.players.values() if p.alive and p.allegiance is Allegiance.FAITHFUL]

    def emit(self, *effects: Effect) -> None:
        self._fx.extend(effects)

    def announce(self, key: str, **params: object) -> None:
        self._fx.append(announce(key, **params))

    def whisper(self, to: Iterable[str], key: str, **params: object) -> None:
        if type(to) is list and len(to) == 1:
            self._fx.append(whisper(to[0], key, **params))
            return
        recipients = frozenset(to)
        if recipients:
            self._fx.append(Whisper(recipients, msg(key, **params)))

    def move(self, players: Sequence[str], place: Place) -> None:
        if not players:
            return
        per_seat = place is Place.ROUND_TABLE or place is Place.HOME
        seats = tuple([self.players[n].seat for n in players]) if per_seat else ()
        self._fx.append(MoveTo(tuple(players), place, seats))

    def start_clock(self, phase: Phase, duration_key: str, label: str) -> None:
        self.phase = phase
        self.paused = None
        label = clock_label(phase, label)  # phases.py house rule 7: the night is one public stage
        self.clock_label = label
        self.phase_seq += 1
        seconds = self.settings.duration(duration_key)
        self.deadline = self._now + seconds
        self._fx.append(ClockStarted(self.phase_seq, msg(label), seconds, self.deadline))

    def draw(self, options: Sequence[str]) -> str:
        """One seeded draw among ``options`` (sorted first, so the draw never depends on dict order)."""
        return self.rng.choice(sorted(options))

    @property
    def now(self) -> float:
        """The time of the input being applied (seconds; ``handle``'s ``now``)."""
        return self._now

    def go(self, node: Node) -> None:
        """Move the series on to ``node`` of the phase graph now (``rules.PHASES``; ``context.Context.go``)."""
        PHASES.run(self, node)

    # ------------------------------------------------------------------ the deal and day zero

    def _start(self) -> None:
        self.started = True
        deal = self.settings.deal or self._random_deal()
        for seat, entry in enumerate(deal, start=1):
            self.players[entry.name] = PlayerState(
                entry.name, seat, entry.allegiance, entry.power, entry.false_power, entry.drunk
            )
            self.record.contestants.append(
                ContestantRecord(
                    name=entry.name,
                    seat=seat,
                    allegiance=entry.allegiance.value,
                    power=_power_name(entry.power, entry.drunk),
                    false_power=entry.false_power.title if entry.false_power else None,
                )
            )
        names = list(self.players)
        traitors = self.living_traitors()
        self.announce("series.welcome", count=len(names), traitors=len(traitors))
        self.announce(f"series.drunk.{announced_drunk(self.settings.drunk, any(e.drunk for e in deal))}")
        for n in names:
            self.emit(GiveItem(frozenset({n}), Item.NOTES_BOOK))
        for p in self.players.values():
            if p.allegiance is Allegiance.TRAITOR:
                self.emit(ShowTitle(msg("title.traitor"), None, frozenset({p.name})))
                self.whisper([p.name], "deal.traitor")
            else:
                self.emit(ShowTitle(msg("title.faithful"), None, frozenset({p.name})))
                if p.power is None:
                    self.whisper([p.name], "deal.faithful.no_power")
                else:
                    self.whisper([p.name], "deal.faithful", power=power_term(p.power))
        self.move(names, Place.FOYER)
        self.announce("phase.day_zero")
        self.start_clock(Phase.DAY_ZERO, "day_zero", "clock.day_zero")

    def _random_deal(self) -> tuple[DealEntry, ...]:
        """Rulebook §1: allegiances, unique powers, false powers, drunk; all from the seeded generator."""
        s = self.settings
        names = list(s.contestants)
        traitors = set(self.rng.sample(names, s.traitors))
        t_seated = [n for n in names if n in traitors]
        f_seated = [n for n in names if n not in traitors]
        power: dict[str, Power | None] = dict.fromkeys(names)
        false: dict[str, Power | None] = dict.fromkeys(names)
        drunk: str | None = None
        if s.powers:
            t_powers = self.rng.sample(TRAITOR_POWERS, min(len(t_seated), len(TRAITOR_POWERS)))
            for n, pw in zip(t_seated, t_powers, strict=False):
                power[n] = pw
            pool = list(s.power_pool)
            self.rng.shuffle(pool)
            for n in f_seated:
                power[n] = pool.pop(0)
            for n in t_seated:
                false[n] = pool.pop(0)
            could_be_drunk = [n for n in f_seated if power[n] is not Power.SOBER]
            if s.drunk == "always" or (s.drunk == "possible" and self.rng.random() < 0.5):
                drunk = self.rng.choice(could_be_drunk) if could_be_drunk else None
        return tuple(
            DealEntry(
                n,
                Allegiance.TRAITOR if n in traitors else Allegiance.FAITHFUL,
                power[n],
                false[n],
                n == drunk,
            )
            for n in names
        )

    # ------------------------------------------------------------------ the night (rulebook §7)

    # ------------------------------------------------------------------ powers (rulebook §5, §6, §7.4)

    def active_power(self, name: str) -> Power | None:
        """The power ``name`` can use now: a Mimic's copy from the night after copying; none for a Joker
        holder (their Faithful power is a false power while they hold the Joker, rulebook §6)."""
        p = self.players[name]
        if name in self.powers.jokers:
            return None
        copy = self._active_copy(name)
        if copy is not None:
            return copy[0]
        return p.power

    def _active_copy(self, name: str) -> tuple[Power | None, int, bool] | None:
        copy = self.powers.copied.get(name)
        if copy is not None and self.day > copy[1]:
            return copy
        return None

    def held_power(self, name: str) -> Power | None:
        """The power that is truly ``name``'s (The Researcher, The Historian): a Traitor's Traitor power (never
        the false power), The Joker for a Joker holder, else the dealt power (drunk shown plain)."""
        p = self.players[name]
        if p.allegiance is Allegiance.FAITHFUL and name in self.powers.jokers:
            return Power.JOKER
        return p.power

    def impaired(self, name: str) -> bool:
        """Drunk or intoxicated right now, and not sobered (rulebook §2); a Mimic's copy of a Traitor's false
        power behaves as drunk. The Sober is never impaired."""
        copy = self._active_copy(name)
        if copy is not None and copy[2]:
            return True
        p = self.players[name]
        if name in self.powers.sobered or p.allegiance is Allegiance.TRAITOR:
            return False
        if self.active_power(name) is Power.SOBER:
            return False
        return p.drunk or name in self.powers.intoxicated

    def registers_as(self, name: str) -> Allegiance:
        """What information powers and the Sheriff see (rulebook §5): the truth, flipped when falsified."""
        truth = self.players[name].allegiance
        if name in self.powers.falsified:
            return Allegiance.FAITHFUL if truth is Allegiance.TRAITOR else Allegiance.TRAITOR
        return truth

    def murdered_tonight(self, name: str) -> bool:
        """True for a contestant murdered tonight (after the murder step): their ability does not succeed."""
        return bool(self.night and self.night.settled and name in self.night.victims)

    def traitor_actions(self) -> list[tuple[str, str]]:
        """Tonight's Traitor actions as (target, action): the event, each Traitor power used, each guess."""
        out: list[tuple[str, str]] = []
        if self.night is None:
            return out
        if self.night.record.event and self.night.record.target:
            out.append((self.night.record.target, self.night.record.event))
        for u in self.night.uses:
            if POWERS[u.power].stage == TURRET:
                out += [(t, u.power.title) for t in u.targets]
        out += twists.traitor_actions(self)  # TWIST HOOK: every guess tonight, right or wrong
        return out

    def tell(self, use: Use, key: str, **params: object) -> None:
        """Give a power's answer to its user only (a private message), and keep it in the night record."""
        self._fx.append(whisper(use.actor, key, **params))
        if self.night is not None:
            for entry in reversed(self.night.record.powers):  # the latest entry first
                if entry["contestant"] == use.actor and entry["power"] == use.power.value:
                    entry["result"] = msg(key, **params).text
                    break

    # ------------------------------------------------------------------ the day (rulebook §3)

    # ------------------------------------------------------------------ the finale (rulebook §9)

    # ------------------------------------------------------------------ presence (players leaving and returning)

    def present(self) -> list[str]:
        """Contestants still in the series whose players are on the server, in seat order."""
        return [p.name for p in self.players.values() if p.alive and p.present]

    # ------------------------------------------------------------------ the end

    def record_out(self, name: str) -> None:
        """``name`` is out of the series: the record says how and when; their breakfast head goes (``heads``)."""
        heads.leave(self, name)
        p = self.players[name]
        for c in self.record.contestants:
            if c.name == name:
                c.out = p.out
                c.out_day = p.out_day

    def end_series(self, termination: Termination, joker: str | None = None, *, nobody: bool = False) -> None:
        """Rulebook §9: if any Traitor reaches the end the Traitors win; otherwise the surviving Faithful.
        Rulebook §6: a banished Joker wins alone (``joker_outcome = "joker_wins"``) or the Traitors win.
        [house] A series the host ends (``nobody``) has no winner."""
        traitors = self.living_traitors()
        if nobody:
            winner, winners = Winner.NOBODY, []
        elif joker is not None and self.settings.joker_outcome == "joker_wins":
            winner, winners = Winner.JOKER, [joker]
        elif joker is not None or traitors:
            winner, winners = Winner.TRAITORS, traitors
        else:
            winner, winners = Winner.FAITHFUL, self.living_faithful()
        self.outcome = Outcome(winner, termination, tuple(winners))
        self.record.winner = winner.value
        self.record.termination = termination.value
        for c in self.record.contestants:
            c.winner = c.name in winners
        self.phase = Phase.OVER
        self.deadline = None
        self.paused = None
        self.ballot = None
        self.night = None
        heads.clear(self)
        if winner is Winner.NOBODY:
            self.announce("series.over.host")
        elif winners:
            self.announce("series.over", winner=term(f"term.winner.{winner.value}"), winners=", ".join(winners))
        else:
            self.announce("series.over.nobody", winner=term(f"term.winner.{winner.value}"))
        self.emit(ShowTitle(msg("title.series_over", winner=term(f"term.winner.{winner.value}"))))
        self.emit(SeriesOver(self.outcome))

    # ------------------------------------------------------------------ host controls (engine.core.host)

    def _tell_hand(self, contestant: str) -> None:
        tell_hand(self, contestant)

    def _reprompt(self, only: list[str] | None) -> None:
        reprompt(self, only)

    def _end_by_host(self) -> None:
        self.end_series(Termination.HOST_ENDED, nobody=True)


def _apply(apply: Callable[[Game, Action], Node | None], game: Game, action: Action) -> None:
    """Apply an accepted input and follow the phase graph from the node it leads to (``rules.PHASES``)."""
    PHASES.run(game, apply(game, action))


def _power_name(power: Power | None, drunk: bool) -> str | None:
    if power is None:
        return None
    return power.drunk_title() if drunk else power.title


def _settings_dict(s: Settings) -> dict[str, Any]:
    return {
        "contestants": list(s.contestants),
        "hosts": list(s.hosts),
        "power_pool": [p.value for p in s.power_pool],
        "traitors": s.traitors if s.deal is None else sum(e.allegiance is Allegiance.TRAITOR for e in s.deal),
        "drunk": s.drunk,
        "powers": s.powers,
        "first_night_murder": s.first_night_murder,
        "no_reveal_from": s.no_reveal_from,
        "finalists": s.finalists,
        "twists": {str(d): [t.value for t in ts] for d, ts in sorted(s.twists.items())},
        "durations": {k: s.duration(k) for k in DEFAULT_DURATIONS},
        "joker_night": s.joker_night,
        "joker_outcome": s.joker_outcome,
        # Twist options and no_votes only when they differ from the defaults (older game logs stay byte-identical).
        **({"confession_shields": s.confession_shields} if s.confession_shields != 2 else {}),
        **({"trial_contestants": s.trial_contestants} if s.trial_contestants != 3 else {}),
        **({"no_votes": s.no_votes} if s.no_votes != "revote" else {}),
        **({"end_when_no_traitors": True} if s.end_when_no_traitors else {}),
        **({"night_fixed_length": False} if not s.night_fixed_length else {}),
    }


__all__ = ["Ballot", "Game", "NightState", "PlayerState", "RULESET", "WorldState"]
