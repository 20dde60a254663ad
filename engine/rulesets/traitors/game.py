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
``TWIST HOOK`` below; the twists' state is ``Game.twist_state``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.actions import (
    HOST_TWIST_ACTIONS,
    TWIST_ACTIONS,
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    ContestantLeft,
    ContestantReturned,
    EndSeries,
    ExtendPhase,
    NominateDoubleVote,
    PauseClock,
    ReplaceContestant,
    ResumeClock,
    SkipPower,
    SwearOath,
    UndoHostAction,
    UsePower,
    action_from_dict,
)
from engine.core.night import settle_attack
from engine.core.step import InputLog, InputStep
from engine.effects import (
    Choice,
    ClockChanged,
    ClockStarted,
    Effect,
    Eliminated,
    GiveItem,
    MoveTo,
    Prompt,
    Revealed,
    SeriesOver,
    ShowTitle,
    TakeItem,
    Whisper,
    announce,
    choice,
    give,
    msg,
    take,
    whisper,
)
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import TORCHES, TRAITOR_POWERS, Allegiance, Item, NightEvent, Place, Power, Torch, Twist
from engine.messages_terms import host_action_term, power_term, term
from engine.outcome import Outcome, Termination, Winner
from engine.record import (
    BreakfastRecord,
    ContestantRecord,
    NightRecord,
    RoundTableRecord,
    SeriesRecord,
    TorchRound,
    VoteRound,
)
from engine.rulesets.traitors import twists
from engine.rulesets.traitors.choices import (
    Offer,
    event_offer,
    most_picked,
    nomination_offer,
    skip_power,
    torch_inputs,
    use_choice,
    vote_paper,
)
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.powers import GUESS, MURDER, NIGHT_ORDER, POWERS, TURRET, VISIT, VISIT_ORDER
from engine.rulesets.traitors.settings import DEFAULT_DURATIONS, NAME_RE, DealEntry, Settings, same_player
from engine.rulesets.traitors.state import Ballot, NightState, PlayerState, PowerState, TwistState, Use
from engine.rulesets.traitors.views import public_view, view_for
from engine.tracking import WorldState
from engine.views import PlayerView, PublicView

RULESET = "traitors"
OATH_QUESTIONS = 3
"""Rulebook §7.1: lie and deceive? murder every night? keep the identities secret?"""
MAX_EXTENSION = 3600
"""The most seconds one ``ExtendPhase`` may add."""
UNDOABLE = frozenset({"advance", "pause_clock", "resume_clock", "extend_phase"})
"""Host inputs ``UndoHostAction`` can take back (docs/host.md): a replacement cannot (the new player already
knows the hand: replace again instead), nor can the end of the series (the service has stopped)."""
_ACTOR_FIELDS = ("voter", "traitor", "contestant", "finalist")
"""Fields of an input that name the contestant acting (translated from a stand-in player's name)."""
_REPLAYED_STATE = (
    "settings", "seed", "rng", "players", "hosts", "phase", "phase_seq", "deadline", "day", "started", "ballot",
    "table", "revote_used", "double_vote_holder", "double_vote_next", "night", "news", "torches", "outcome", "log",
    "record", "powers", "guarded", "last_removed", "twist_state", "paused", "clock_label", "stand_ins", "_inbox",
    "_items", "_places", "_untracked",
)
"""Every attribute of a ``Game`` that an undo takes from the replayed game: all but the effects being gathered
(``_fx``), the time (``_now``) and the pending item reset (a test keeps this list whole). Named, not read off
``__dict__``: a compiled engine's classes have none."""


class Game(InputStep):
    """One series of The Traitors.

    Args:
        settings: the series settings; validated here.
        seed: the seed of the series' one random generator. It is a secret: never in a view.

    Raises:
        ConfigError: the settings are invalid (the message names the field).
    """

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
        self.paused: float | None = None
        """Seconds the phase clock had left when the host paused it; ``None`` while it runs (or no clock)."""
        self.clock_label = ""
        """Message key of the running phase clock's label (``clock.*``)."""
        self.stand_ins: dict[str, str] = {}
        """Contestant → the player who now plays the seat (``ReplaceContestant``); absent: the contestant's own."""
        self._fx: list[Effect] = []
        self._now = 0.0
        self._reset_items: dict[str, list[tuple[Item, str | None]]] | None = None

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
        effects = self._take_input(self._as_contestant(action), now, action)  # engine.core.step
        if self._reset_items is not None:
            self.items, self._reset_items = self._reset_items, None
        return self._to_players(effects) if self.stand_ins else effects

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
        if twists.LISTED_IN[phase]:  # TWIST HOOK: only phases in which a twist takes inputs
            out += twists.legal_actions(self, player)
        night = self.night
        if phase is Phase.VOTE:
            b = self.ballot
            if b and player in b.papers and player not in b.votes:  # the voters are the papers' holders
                out += b.papers[player].inputs
        elif phase is Phase.OATH and night and night.oath_queue[:1] == [player]:
            out.append(SwearOath(player))
        elif phase is Phase.TURRET and night and player in night.traitors:
            if night.events and player not in night.picks:
                out += self._event_offer(player).inputs
            if night.nominate and player not in night.nominations:
                out += nomination_offer(player, tuple(self.living())).inputs
        elif phase is Phase.OFFER and night and night.offer and night.offer[1] == player:
            out += [AnswerOffer(player, True), AnswerOffer(player, False)]
        elif phase is Phase.HOST_VISIT and night and night.joker == player:
            out += [AnswerJoker(player, True), AnswerJoker(player, False)]
        elif (phase is Phase.TRAITOR_POWERS or phase is Phase.HOST_VISIT) and night and player in night.pending:
            out += [c.action for c in night.options[player]]
            out.append(skip_power(player))
        elif phase is Phase.TORCHES and player in self.torches:
            out += torch_inputs(player, self.torches[player])
        return out

    @classmethod
    def replay(cls, settings: Settings, seed: int, log: Iterable[dict[str, Any]]) -> Game:
        """Rebuild a series from its input log (``Game.log``): the same state, views and record.

        Raises:
            InvalidCommand, IllegalAction: the log does not fit these settings and seed.
        """
        game = cls(settings, seed)
        for entry in log:
            data = dict(entry)
            now = float(data.pop("now"))
            game.handle(action_from_dict(data), now=now)
        return game

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

    def public_view(self) -> PublicView:
        """What everyone in the castle knows (``engine.rulesets.traitors.views.public_view``)."""
        return public_view(self)

    # ------------------------------------------------------------------ validation

    def _validate(self, action: Action) -> Callable[[], None]:
        """Check ``action`` against the rules and return the function that applies it. Mutates nothing."""
        if type(action) not in _CONTESTANT_INPUTS:  # a contestant's input is none of the host's or the server's
            if isinstance(action, Advance):
                if action.host not in self.hosts:
                    raise IllegalAction("illegal.not_host")
                return lambda: self._on_clock()  # not the bound method itself (a compiled engine)
            if isinstance(action, HOST_TWIST_ACTIONS):  # TWIST HOOK: the host starts or cancels a twist
                return twists.validate_host(self, action)  # type: ignore[arg-type]
            if isinstance(action, (PauseClock, ResumeClock, ExtendPhase, ReplaceContestant, UndoHostAction, EndSeries)):
                return self._check_host_action(action)
            if isinstance(action, (ContestantLeft, ContestantReturned)):
                return self._check_presence(action)
        actor = action.actor
        if actor is None or actor not in self.players:
            raise InvalidCommand("illegal.unknown_player", player=str(actor))
        p = self.players[actor]
        if not p.alive:
            raise IllegalAction("illegal.out")
        if isinstance(action, CastVote):
            self._check_vote(action)
            return lambda: self._apply_vote(action)
        if isinstance(action, SwearOath):
            if self.phase is not Phase.OATH or not self.night:
                raise IllegalAction("illegal.phase")
            if self.night.oath_queue[:1] != [actor]:
                raise IllegalAction("illegal.oath.not_you")
            return lambda: self._apply_oath_answer()  # not the bound method itself (a compiled engine)
        if isinstance(action, ChooseEvent):
            self.check_turret(actor)
            assert self.night
            if not self.night.events:
                raise IllegalAction("illegal.turret.event", event=term(f"term.event.{action.event.value}"))
            if actor in self.night.picks:
                raise IllegalAction("illegal.turret.already")
            if action.event not in self.night.events:
                raise IllegalAction("illegal.turret.event", event=term(f"term.event.{action.event.value}"))
            # Tonight's event is against a living Faithful (rulebook §7.2).
            target = self.players.get(action.target)  # not a name at all: house rule 5 of engine.core.step
            if target is None or not target.alive or target.allegiance is not Allegiance.FAITHFUL:
                raise IllegalAction("illegal.turret.target", target=action.target)
            return lambda: self._apply_event_pick(action)
        if isinstance(action, NominateDoubleVote):
            self.check_turret(actor)
            assert self.night
            if not self.night.nominate:
                raise IllegalAction("illegal.turret.no_twist")
            if actor in self.night.nominations:
                raise IllegalAction("illegal.turret.already")
            if action.target not in self.living():
                raise IllegalAction("illegal.turret.target", target=action.target)
            return lambda: self._apply_nomination(action)
        if isinstance(action, AnswerOffer):
            if self.phase is not Phase.OFFER or not self.night or not self.night.offer:
                raise IllegalAction("illegal.offer.none")
            if self.night.offer[1] != actor:
                raise IllegalAction("illegal.offer.none")
            return lambda: self._apply_offer_answer(action.accept)
        if isinstance(action, (UsePower, SkipPower)):
            if self.phase not in (Phase.TRAITOR_POWERS, Phase.HOST_VISIT) or not self.night:
                raise IllegalAction("illegal.power.closed")
            if actor == self.night.joker:
                raise IllegalAction("illegal.joker.first")
            if actor not in self.night.pending:
                raise IllegalAction("illegal.power.none")
            if isinstance(action, SkipPower):
                return lambda: self._apply_power(actor, None)
            power = self.active_power(actor)
            assert power is not None
            targets = tuple(t for t in (action.target, action.second) if t is not None)
            POWERS[power].validate(self, actor, targets)
            return lambda: self._apply_power(actor, Use(actor, power, targets))
        if isinstance(action, AnswerJoker):
            if self.phase is not Phase.HOST_VISIT or not self.night or self.night.joker != actor:
                raise IllegalAction("illegal.joker.none")
            return lambda: self._apply_joker(actor, action.accept)
        if isinstance(action, ChooseTorch):
            if self.phase is not Phase.TORCHES:
                raise IllegalAction("illegal.torch.closed")
            if actor not in self.torches:
                raise IllegalAction("illegal.torch.not_finalist")
            return lambda: self._apply_torch(action)
        if isinstance(action, TWIST_ACTIONS):  # TWIST HOOK
            return twists.validate(self, action)
        raise InvalidCommand("invalid.action.kind", kind=action.kind)

    def _check_vote(self, action: CastVote) -> None:
        b = self.ballot
        if self.phase is not Phase.VOTE or b is None:
            raise IllegalAction("illegal.vote.not_open")
        if action.voter not in b.voters:
            raise IllegalAction("illegal.vote.not_eligible")
        if action.voter in b.votes:
            raise IllegalAction("illegal.vote.twice")
        if action.target == action.voter:
            raise IllegalAction("illegal.vote.self")
        if action.target not in b.candidates:
            raise IllegalAction("illegal.vote.target", target=action.target)

    def check_turret(self, actor: str) -> None:
        p = self.players[actor]
        if p.allegiance is not Allegiance.TRAITOR:
            raise IllegalAction("illegal.not_traitor")
        if self.phase is not Phase.TURRET or not self.night:
            raise IllegalAction("illegal.turret.closed")
        if actor not in self.night.traitors:
            raise IllegalAction("illegal.turret.unsworn")

    # ------------------------------------------------------------------ helpers

    def twist_on(self, day: int, twist: Twist) -> bool:
        """Whether ``twist`` is scheduled for ``day`` (series settings plus the host's live changes)."""
        return twists.is_on(self, day, twist)

    def _close_nomination(self) -> None:
        twists.close_nomination(self)  # TWIST HOOK (phases.ON_CLOCK)

    def _close_nominee(self) -> None:
        twists.close_nominee(self)  # TWIST HOOK (phases.ON_CLOCK)

    def living(self) -> list[str]:
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

    def _move(self, players: Sequence[str], place: Place) -> None:
        if not players:
            return
        per_seat = place is Place.ROUND_TABLE or place is Place.HOME
        seats = tuple([self.players[n].seat for n in players]) if per_seat else ()
        self._fx.append(MoveTo(tuple(players), place, seats))

    def start_clock(self, phase: Phase, duration_key: str, label: str) -> None:
        self.phase = phase
        self.paused = None
        self.clock_label = label
        self.phase_seq += 1
        seconds = self.settings.duration(duration_key)
        self.deadline = self._now + seconds
        self._fx.append(ClockStarted(self.phase_seq, msg(label), seconds, self.deadline))

    def draw(self, options: Sequence[str]) -> str:
        """One seeded draw among ``options`` (sorted first, so the draw never depends on dict order)."""
        return self.rng.choice(sorted(options))

    def world_state(self) -> WorldState:
        """``CastleTracker.world_state`` keyed by the player who now plays each seat (``ReplaceContestant``).

        Returns:
            Each seat's player's last place (with seat) and items, and the running phase clock.
        """
        who = self.stand_ins.get
        return WorldState(
            places={who(n, n): at for n, at in self.places.items()},
            items={who(n, n): list(held) for n, held in self.items.items()},
            phase_seq=self.phase_seq,
            deadline=self.deadline,
        )

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
        self.announce(f"series.drunk.{self.settings.drunk}")
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
        self._move(names, Place.FOYER)
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
            for n, pw in zip(t_seated, t_powers):
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

    # ------------------------------------------------------------------ clock

    def _on_clock(self) -> None:
        assert self.phase is not None
        ON_CLOCK[self.phase](self)

    # ------------------------------------------------------------------ the night (rulebook §7)

    def _begin_night(self) -> None:
        living = self.living()
        self.night = NightState(NightRecord(day=self.day))
        self.night.powers_on = self.settings.powers and (self.day > 0 or self.settings.first_night_murder)
        # "Until the next night" ends now (rulebook §5): intoxication, falsification, sobering, silence, and
        # the round-table powers chosen last night have been used.
        pw = self.powers
        pw.intoxicated.clear()
        pw.falsified.clear()
        pw.sobered.clear()
        pw.silenced.clear()
        pw.protected = None
        pw.accusation = None
        pw.accusation_fails = False
        pw.alerted = None
        twists.begin_night(self)  # TWIST HOOK: confession shields protect tonight
        self.record.events.append(self.night.record)
        self.announce("phase.night", day=self.day)
        self._move(living, Place.HOME)
        self.night.oath_queue = [
            n for n in self.living_traitors() if not self.players[n].sworn
        ]
        if self.night.oath_queue:
            self._start_oath()
        else:
            self._open_turret()

    def _start_oath(self) -> None:
        assert self.night
        taker = self.night.oath_queue[0]
        self.night.oath_step = 0
        self._move([taker], Place.OATH_SPOT)
        self.start_clock(Phase.OATH, "oath", "clock.oath")
        self._ask_oath()

    def _ask_oath(self) -> None:
        assert self.night
        taker = self.night.oath_queue[0]
        q = self.night.oath_step + 1
        self.emit(
            Prompt(
                frozenset({taker}),
                msg(f"oath.question.{q}"),
                (Choice(msg(f"oath.answer.{q}").text, SwearOath(taker)),),
            )
        )

    def _apply_oath_answer(self) -> None:
        assert self.night
        self.night.oath_step += 1
        if self.night.oath_step < OATH_QUESTIONS:
            self._ask_oath()
        else:
            self._finish_oath()

    def _finish_oath(self) -> None:
        """The current Traitor is sworn (after the third answer, or when the host moves on)."""
        assert self.night
        taker = self.night.oath_queue.pop(0)
        p = self.players[taker]
        p.sworn = True
        if p.recruited_day is not None and p.power is None and self.settings.powers:
            p.power = self._free_traitor_power()
        self.night.record.sworn.append(taker)
        if p.power is not None and p.false_power is not None:
            self.whisper([taker], "oath.sworn", power=power_term(p.power), false_power=power_term(p.false_power))
        elif p.false_power is not None:
            self.whisper([taker], "oath.sworn.no_power", false_power=power_term(p.false_power))
        elif p.power is not None:
            self.whisper([taker], "oath.sworn.no_false", power=power_term(p.power))
        else:
            self.whisper([taker], "oath.sworn.no_false", power=power_term("none"))
        self._move([taker], Place.HOME)
        if self.night.oath_queue:
            self._start_oath()
        else:
            self._open_turret()

    def _free_traitor_power(self) -> Power | None:
        """Rulebook §7.6 [house]: a recruit receives the Traitor power of a banished Traitor, if one is free."""
        held = {p.power for p in self.players.values() if p.alive and p.allegiance is Allegiance.TRAITOR}
        freed = [
            p.power
            for p in self.players.values()
            if not p.alive and p.allegiance is Allegiance.TRAITOR and p.power in TRAITOR_POWERS
        ]
        for pw in freed:
            if pw not in held:
                return pw
        return None

    def _open_turret(self) -> None:
        assert self.night
        night = self.night
        traitors = tuple(n for n in self.living_traitors() if self.players[n].sworn)
        night.traitors = traitors
        if not traitors:
            self._after_turret()
            return
        living = self.living()
        events: frozenset[NightEvent] = frozenset()
        if (self.day > 0 or self.settings.first_night_murder) and len(living) > self.settings.finalists + 1:
            if self.living_faithful():
                if len(traitors) == 1:
                    events = frozenset({NightEvent.ULTIMATUM})
                elif len(traitors) == 2:
                    events = frozenset({NightEvent.MURDER, NightEvent.SEDUCE})
                else:
                    events = frozenset({NightEvent.MURDER})
        events = twists.turret_events(self, events)  # TWIST HOOK: the Murder twist's quiet night, the Trial
        night.events = events
        night.nominate = self.twist_on(self.day + 1, Twist.DOUBLE_VOTE)
        self._move(traitors, Place.TURRET)
        twists.enter_turret(self)  # TWIST HOOK: cloak and lantern; the confessions
        self.whisper(traitors, "turret.traitors", players=", ".join(self.living_traitors()))
        if not events and not twists.replaces_event(self):
            self.whisper(traitors, "turret.no_event")
        twist_work = twists.turret_work(self)  # TWIST HOOK
        if not events and not night.nominate and not twist_work:
            self._after_turret()
            return
        self.start_clock(Phase.TURRET, "turret", "clock.turret")
        for t in traitors:
            if events:
                key = (
                    "turret.choose.ultimatum"
                    if NightEvent.ULTIMATUM in events
                    else "turret.choose.seduce_or_murder"
                    if NightEvent.SEDUCE in events
                    else "turret.choose.murder"
                )
                self.emit(
                    Prompt(
                        frozenset({t}),
                        msg(key),
                        self._event_choices(t),
                    )
                )
            if night.nominate:
                self.emit(
                    Prompt(
                        frozenset({t}),
                        msg("turret.nominate.double_vote"),
                        self._nomination_choices(t),
                    )
                )
        twists.prompt_turret(self)  # TWIST HOOK

    def _event_offer(self, traitor: str) -> Offer:
        """``traitor``'s choices of tonight's event and target, as offered in the Turret: every allowed event against
        every living Faithful."""
        assert self.night
        return event_offer(traitor, self.night.events, tuple(self.living_faithful()))

    def _event_choices(self, traitor: str) -> tuple[Choice, ...]:
        """``_event_offer(traitor).choices``."""
        return self._event_offer(traitor).choices

    def _nomination_choices(self, traitor: str) -> tuple[Choice, ...]:
        """``traitor``'s choices of tomorrow's double vote holder: every living contestant."""
        return nomination_offer(traitor, tuple(self.living())).choices

    def _apply_event_pick(self, action: ChooseEvent) -> None:
        assert self.night
        self.night.picks[action.traitor] = (action.event, action.target)
        self.whisper(self.night.traitors, "turret.choice", traitor=action.traitor, event=term(f"term.event.{action.event.value}"), target=action.target)
        self.turret_maybe_done()

    def _apply_nomination(self, action: NominateDoubleVote) -> None:
        assert self.night
        self.night.nominations[action.traitor] = action.target
        self.turret_maybe_done()

    def turret_maybe_done(self) -> None:
        assert self.night
        n = self.night
        picked = not n.events or all(t in n.picks for t in n.traitors)
        named = not n.nominate or all(t in n.nominations for t in n.traitors)
        if picked and named and twists.turret_done(self):  # TWIST HOOK
            self._close_turret()

    def _close_turret(self) -> None:
        """Rulebook §7.2 [house]: the most picks wins; a tie is broken by the seeded draw."""
        assert self.night
        night = self.night
        twists.close_turret(self)  # TWIST HOOK: sword bearer, guess, Trial
        if night.nominate and night.nominations:
            holder = most_picked(list(night.nominations.values()), self.draw)
            self.double_vote_next = holder
            night.record.double_vote = holder
            self.whisper(night.traitors, "turret.nominated", player=holder)
        if not night.picks:
            if night.events:
                self.whisper(night.traitors, "turret.no_event")
            self._after_turret()
            return
        keys = [f"{e.value}|{t}" for e, t in night.picks.values()]
        event_name, target = most_picked(keys, self.draw).split("|")
        event = NightEvent(event_name)
        night.record.event = event.value
        night.record.target = target
        self.whisper(night.traitors, "turret.decided", event=term(f"term.event.{event.value}"), target=target)
        if event is NightEvent.MURDER:
            night.attack = (target, False)
        else:
            night.offer = (event, target)
        self._after_turret()

    def _open_offer(self) -> None:
        """Rulebook §7.2: the seduced contestant (or the one given an ultimatum) answers in the diary room."""
        assert self.night and self.night.offer
        event, target = self.night.offer
        self._move([target], Place.DIARY_ROOM)
        self.emit(GiveItem(frozenset({target}), Item.DIARY_BOOK, None))
        self.start_clock(Phase.OFFER, "offer", "clock.offer")
        self._prompt_offer()

    def _prompt_offer(self) -> None:
        """Ask the seduced contestant (or the one given an ultimatum) to answer the offer."""
        assert self.night and self.night.offer
        event, target = self.night.offer
        self.emit(
            Prompt(
                frozenset({target}),
                msg("offer.seduce" if event is NightEvent.SEDUCE else "offer.ultimatum"),
                (
                    Choice(msg("offer.accept").text, AnswerOffer(target, True)),
                    Choice(msg("offer.decline").text, AnswerOffer(target, False)),
                ),
            )
        )

    def _apply_offer_answer(self, accept: bool) -> None:
        assert self.night and self.night.offer
        event, target = self.night.offer
        self.night.offer = None
        self.emit(TakeItem(Item.DIARY_BOOK, (target,)))
        if accept:
            p = self.players[target]
            p.allegiance = Allegiance.TRAITOR
            p.false_power = p.power if p.power is not None and not p.power.is_traitor_power else p.false_power
            p.power = None
            p.drunk = False
            p.sworn = False
            p.recruited_day = self.day
            for c in self.record.contestants:
                if c.name == target:
                    c.recruited_day = self.day
            self.night.record.result = "recruited"
            self.powers.jokers.discard(target)
            self.whisper(self.night.traitors, "offer.accepted", player=target)
            self.whisper([target], "recruit.welcome")
        else:
            self.whisper(self.night.traitors, "offer.declined", player=target)
            if event is NightEvent.ULTIMATUM:
                self.night.attack = (target, True)
            else:
                self.night.record.result = "declined"
        self._move([target], Place.HOME)
        self.open_host_visit()

    def _offer_lapses(self) -> None:
        """No answer by the end of the offer's clock counts as a decline ([house])."""
        self._apply_offer_answer(False)

    def _end_night(self) -> None:
        """Rulebook §7.5: a murdered Faithful is sent to the diary room and told; then day breaks."""
        assert self.night
        for victim in self.night.victims:
            self.murder(victim)
            self.news.append(victim)
        twists.end_night(self)  # TWIST HOOK: unused murder shields taken back
        self.powers.cleansed.clear()
        self.powers.shields.clear()
        self.powers.guessed.clear()
        self.guarded.clear()
        self.night = None
        self._begin_breakfast()

    def murder(self, victim: str) -> None:
        """The victim is out, sent to the diary room with a diary-room book and told (rulebook §7.5)."""
        p = self.players[victim]
        p.alive = False
        p.out = "murdered"
        p.out_day = self.day
        self.last_removed = victim
        self.powers.jokers.discard(victim)
        self._move([victim], Place.DIARY_ROOM)
        self.emit(GiveItem(frozenset({victim}), Item.DIARY_BOOK, None))
        self.whisper([victim], "diary.murdered")
        self.emit(Eliminated(victim, "murdered", frozenset({victim})))

    # ------------------------------------------------------------------ powers (rulebook §5, §6, §7.4)

    def active_power(self, name: str) -> Power | None:
        """The power ``name`` can use now: a Mimic's copy from the night after copying; none for a Joker
        holder (their Faithful power is a false power while they hold the Joker, rulebook §6)."""
        p = self.players[name]
        if name in self.powers.jokers:
            return None
        copy = self.powers.copied.get(name)  # _active_copy, inline: this runs for every prompt and option list
        if copy is not None and self.day > copy[1]:
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

    def _choosable(self, name: str, stage: str) -> list[Choice]:
        """The uses ``name`` may choose at this stage tonight (``_power_choices``); ``[]`` when their power does
        not act at this stage, names nobody, or is used up."""
        power = self.active_power(name)
        if power is None:
            return []
        spec = POWERS[power]
        if spec.stage != stage or spec.targets == 0:
            return []
        if spec.uses is not None and self.powers.used[(name, power)] >= spec.uses:
            return []
        return self._power_choices(name)

    def _power_choices(self, name: str) -> list[Choice]:
        """Every ``UsePower`` ``name`` may send now, as offered (validated; the validators never look at secrets)."""
        power = self.active_power(name)
        if power is None:
            return []
        spec = POWERS[power]
        living = self.living()
        if spec.options is not None:  # the power's own list of what validate accepts (engine.rulesets.traitors.powers.base.Power)
            return [use_choice(name, t, second) for t, second in spec.options(self, name, living)]
        validate = spec.validate
        out: list[Choice] = []
        if spec.targets == 1:
            for t in living:
                try:
                    validate(self, name, (t,))
                except IllegalAction:
                    continue
                out.append(use_choice(name, t, None))
        elif spec.targets == 2:
            for i, a in enumerate(living):
                for b in living[i + 1 :]:
                    try:
                        validate(self, name, (a, b))
                    except IllegalAction:
                        continue
                    out.append(use_choice(name, a, b))
        return out

    def _prompt_power(self, name: str, options: list[Choice]) -> None:
        """Ask ``name`` to choose among ``options`` (their ``_power_choices`` now) or to pass."""
        power = self.active_power(name)
        assert power is not None
        choices = (*options, choice(msg("power.skip").text, SkipPower, name))
        self.emit(Prompt(frozenset({name}), msg(f"prompt.{power.value}"), choices))

    def _after_turret(self) -> None:
        """Rulebook §5: the Traitor powers are used in the Turret after the night's event is chosen."""
        assert self.night
        night = self.night
        if night.powers_on:
            night.options = {t: self._choosable(t, TURRET) for t in night.traitors}
            night.pending = [t for t in night.traitors if night.options[t]]
        if night.pending:
            self.start_clock(Phase.TRAITOR_POWERS, "traitor_powers", "clock.traitor_powers")
            for t in night.pending:
                self._prompt_power(t, night.options[t])
            return
        self._after_traitor_powers()

    def _close_traitor_powers(self) -> None:
        assert self.night
        self.night.pending = []
        self._after_traitor_powers()

    def _after_traitor_powers(self) -> None:
        assert self.night
        twists.leave_turret(self)  # TWIST HOOK: cloak, lantern and response draft taken back
        if self.night.offer:
            self._open_offer()
        else:
            self.open_host_visit()

    def open_host_visit(self) -> None:
        """Rulebook §7.4: each Faithful with something to do is visited, in the night order; a guessed
        Faithful learns it first (the Cleanser excepted); a Faithful offered the Joker decides first."""
        assert self.night
        night = self.night
        if twists.before_host_visit(self):  # TWIST HOOK: the Faithful's Guess/Seer nomination comes first
            return
        if not night.powers_on:
            self._resolve_night()
            return
        faithful = self.living_faithful()
        # Absent contestants (their player left the server) are skipped at host visiting.
        here = [n for n in faithful if self.players[n].present]
        for g in sorted(self.powers.guessed):
            if g in faithful and self.players[g].power is not Power.CLEANSER:
                self.lose_power(g)
        jn = self.settings.joker_night
        if jn and self.day == jn and not self.powers.joker_offered and here:
            self.powers.joker_offered = True
            night.joker = self.draw(here)
        rank = {p: i for i, p in enumerate(VISIT_ORDER)}
        options = night.options = {n: self._choosable(n, VISIT) for n in here}
        visited = [n for n in here if options[n] or n == night.joker]
        visited.sort(key=lambda n: (rank.get(self.active_power(n), len(rank)), self.players[n].seat))  # type: ignore[arg-type]
        night.pending = [n for n in visited if options[n]]
        if not night.pending and night.joker is None:
            self._resolve_night()
            return
        self.start_clock(Phase.HOST_VISIT, "host_visit", "clock.host_visit")
        self.announce("phase.host_visit", day=self.day)
        for n in visited:
            if n == night.joker:
                self.emit(
                    Prompt(
                        frozenset({n}),
                        msg("joker.offer"),
                        (
                            Choice(msg("joker.accept").text, AnswerJoker(n, True)),
                            Choice(msg("joker.decline").text, AnswerJoker(n, False)),
                        ),
                    )
                )
            else:
                self._prompt_power(n, options[n])

    def _apply_joker(self, name: str, accept: bool) -> None:
        assert self.night
        self.night.joker = None
        self.night.record.joker = {"contestant": name, "accepted": accept}
        if accept:
            self.powers.jokers.add(name)
            if name in self.night.pending:
                self.night.pending.remove(name)
            self.whisper([name], "joker.accepted")
        else:
            self.whisper([name], "joker.declined")
            if name in self.night.pending:
                self._prompt_power(name, self.night.options[name])
        self._visit_maybe_done()

    def _apply_power(self, name: str, use: Use | None) -> None:
        """Note a chosen use (or a pass); the night resolves when every prompted contestant has chosen."""
        assert self.night
        self.night.pending.remove(name)
        if use is None:
            self._fx.append(whisper(name, "power.skipped"))
        else:
            self.night.uses.append(use)
            self.powers.used[(name, use.power)] += 1
            if use.targets:
                self.powers.last_target[(name, use.power)] = (self.day, use.targets[0])
            self._fx.append(whisper(name, "power.noted"))
        if self.phase is Phase.TRAITOR_POWERS:
            if not self.night.pending:
                self._after_traitor_powers()
        else:
            self._visit_maybe_done()

    def _visit_maybe_done(self) -> None:
        assert self.night
        if not self.night.pending and self.night.joker is None:
            self._resolve_night()

    def _close_host_visit(self) -> None:
        """The host visit's clock ran out: an unanswered Joker offer is declined; unused powers pass."""
        assert self.night
        if self.night.joker is not None:
            self.night.record.joker = {"contestant": self.night.joker, "accepted": False}
            self.night.joker = None
        self.night.pending = []
        self._resolve_night()

    def lose_power(self, name: str) -> None:
        """The Guess twist's right guess (rulebook §8): ``name`` loses their power for the series and is told."""
        p = self.players[name]
        p.power = None
        self.powers.copied.pop(name, None)
        self.whisper([name], "guess.lost")

    def _resolve_night(self) -> None:
        """Resolve every use of tonight in ``NIGHT_ORDER``, then end the night (rulebook §5, §7.4, §7.5)."""
        assert self.night
        night = self.night
        uses = list(night.uses)
        if night.powers_on:
            for n in self.living_faithful():
                power = self.active_power(n)
                if power is not None and POWERS[power].stage == VISIT and POWERS[power].targets == 0:
                    uses.append(Use(n, power, ()))
        seat = {n: p.seat for n, p in self.players.items()}
        by_power: dict[Power | str, list[Use]] = {}
        for u in sorted(uses, key=lambda u: seat[u.actor]):
            by_power.setdefault(u.power, []).append(u)
        for step in NIGHT_ORDER:
            if step == MURDER:
                self._settle_murder()
                continue
            if step == GUESS:
                for g in sorted(self.powers.guessed):
                    p = self.players[g]
                    if p.alive and p.power is Power.CLEANSER and g not in self.powers.cleansed:
                        self.lose_power(g)
                continue
            for use in by_power.get(step, ()):
                night.record.powers.append(
                    {
                        "contestant": use.actor,
                        "power": use.power.value,
                        "drunk": self.impaired(use.actor),
                        "targets": list(use.targets),
                        "result": None,
                    }
                )
                POWERS[use.power].resolve(self, use)
        if not night.settled:
            self._settle_murder()
        self._end_night()

    def _settle_murder(self) -> None:
        """Rulebook §7.5: murder is prevented by a murder shield, The Guardian, the Survivor's alert (in that
        order) — never for an ultimatum."""
        assert self.night
        night = self.night
        night.settled = True
        if night.attack is None:
            return
        target, ultimatum = night.attack
        p = self.players[target]
        if not p.alive or p.allegiance is Allegiance.TRAITOR:
            return
        # The shared night core settles the attack: the first protection that holds, unless an ultimatum.
        survivor = (
            self.active_power(target) is Power.SURVIVOR
            and not self.impaired(target)
            and self.powers.used[(target, Power.SURVIVOR)] == 0
        )
        saved_by = settle_attack(
            ultimatum,
            (("shielded", target in self.powers.shields), ("guarded", target in self.guarded), ("alerted", survivor)),
        )
        if saved_by == "shielded":
            self.powers.shields.discard(target)
            self.emit(TakeItem(Item.MURDER_SHIELD, (target,)))
            self.whisper([target], "shield.used")
        elif saved_by == "alerted":
            self.powers.used[(target, Power.SURVIVOR)] += 1
            self.powers.alerted = target
            self._move([target], Place.DIARY_ROOM)
            self.emit(GiveItem(frozenset({target}), Item.DIARY_BOOK, "survivor"))
            self.whisper([target], "survivor.alerted")
        if saved_by is not None:
            night.record.result = saved_by
            return
        night.victims.append(target)
        night.record.result = "murdered"

    # ------------------------------------------------------------------ the day (rulebook §3)

    def _begin_breakfast(self) -> None:
        self.day += 1
        self.double_vote_holder = self.double_vote_next if self.twist_on(self.day, Twist.DOUBLE_VOTE) else None
        self.double_vote_next = None
        if self.double_vote_holder is not None and not self.players[self.double_vote_holder].alive:
            self.double_vote_holder = None
        arrivals = self.living()
        self.rng.shuffle(arrivals)
        self.announce("phase.breakfast", day=self.day)
        self._move(arrivals, Place.BREAKFAST_ROOM)
        self._fx += [announce("breakfast.arrives", player=n) for n in arrivals]
        murdered = list(self.news)
        self.news.clear()
        for victim in murdered:
            self.players[victim].publicly_out = True
            self.announce("breakfast.murdered", player=victim)
            self.emit(Eliminated(victim, "murdered"))
            self.record_out(victim)
        if not murdered:
            self.announce("breakfast.no_murder")
        self.record.events.append(BreakfastRecord(self.day, arrivals, murdered))
        if not self.living_traitors():
            self.announce("series.no_traitors")
            self._end_series(Termination.NO_TRAITORS)
            return
        twists.breakfast(self)  # TWIST HOOK: the Trial's news, the Traitors' Response book
        if self.double_vote_holder is not None:
            self.whisper([self.double_vote_holder], "diary.double_vote")
        self.start_clock(Phase.BREAKFAST, "breakfast", "clock.breakfast")

    def _begin_discussion(self) -> None:
        self.announce("phase.discussion", day=self.day)
        self._move(self.living(), Place.FOYER)
        self.start_clock(Phase.DISCUSSION, "discussion", "clock.discussion")
        twists.begin_discussion(self)  # TWIST HOOK: the Sacred Sword, the confession chests

    def begin_round_table(self) -> None:
        if twists.before_round_table(self):  # TWIST HOOK: discussion items collected; the Guess/Seer nominee
            return
        living = self.living()
        self.table = RoundTableRecord(day=self.day, present=living, double_vote=self.double_vote_holder)
        self.record.events.append(self.table)
        self.revote_used = False
        self.announce("phase.round_table", day=self.day)
        self._move(living, Place.ROUND_TABLE)
        pw = self.powers
        if len(living) <= self.settings.finalists + 1:
            # Rulebook §6, §9: at the final round table the Joker returns to their Faithful power.
            for j in sorted(pw.jokers):
                self.whisper([j], "joker.returned")
            pw.jokers.clear()
        # Rulebook §4 "Events at the round table": the silence is announced when the round table opens.
        self.table.silenced = [n for n in living if n in pw.silenced]
        for n in self.table.silenced:
            self.announce("round_table.silenced", player=n)
        if pw.protected is not None and self.players[pw.protected].alive:
            self.table.protected = pw.protected
        accused, pw.accusation = pw.accusation, None
        if accused is not None and self.players[accused].alive:
            # Rulebook §5 The Sheriff: announced before the vote; a registered Traitor is banished at once.
            self.table.accused = accused
            self.announce("sheriff.accuses", player=accused)
            if not pw.accusation_fails and self.registers_as(accused) is Allegiance.TRAITOR:
                self.table.accusation = "banished"
                self.announce("sheriff.success", player=accused)
                self._banish(accused)
                return
            self.table.accusation = "failed"
            self.announce("sheriff.failed", player=accused)
        self.start_clock(Phase.ROUND_TABLE, "round_table", "clock.round_table")

    def _open_first_vote(self) -> None:
        assert self.table
        present = tuple(self.table.present)
        self._open_vote("first", present, present)

    def _open_vote(self, kind: str, voters: tuple[str, ...], candidates: tuple[str, ...]) -> None:
        """Rulebook §4: every eligible contestant gets a vote paper (the holder a double vote paper)."""
        assert self.table
        holder = None if self.table.finale else self.double_vote_holder
        voters = tuple(v for v in voters if v not in self.table.silenced)
        weights = {v: (2 if v == holder else 1) for v in voters}
        self.ballot = Ballot(kind, voters, candidates, weights, papers={v: vote_paper(v, candidates) for v in voters})
        if kind == "first":
            self.announce("vote.open")
        self.start_clock(Phase.VOTE, "revote" if kind == "revote" else "vote", "clock.vote")
        for v in voters:
            paper = Item.DOUBLE_VOTE_PAPER if weights[v] == 2 else Item.VOTE_PAPER
            self._fx.append(give(v, paper))
            self._prompt_vote(v)
        if not voters:
            self._close_vote()

    def _prompt_vote(self, voter: str) -> None:
        """Ask ``voter`` for their vote in the ballot in progress."""
        assert self.ballot
        self._fx.append(self.ballot.papers[voter].prompt)

    def _apply_vote(self, action: CastVote) -> None:
        b = self.ballot
        assert b
        b.votes[action.voter] = action.target
        paper = Item.DOUBLE_VOTE_PAPER if b.weights[action.voter] == 2 else Item.VOTE_PAPER
        self._fx += (
            take(paper, (action.voter,)),
            give(action.voter, Item.CAST_VOTE_PAPER, action.target),
            whisper(action.voter, "vote.cast", target=action.target),
        )
        if self._everyone_present_voted(b):
            self._close_vote()

    def _close_vote(self) -> None:
        """Reveal the papers in seat order, count, then banish or apply the tie rules (rulebook §4)."""
        b, table = self.ballot, self.table
        assert b and table
        self.ballot = None
        voters = list(b.voters)
        fx = self._fx
        fx += [take(item, b.voters) for item in (Item.VOTE_PAPER, Item.DOUBLE_VOTE_PAPER, Item.CAST_VOTE_PAPER)]
        fx.append(announce("vote.closed"))
        tally: dict[str, int] = {}  # not a Counter: its Python-level constructor, every ballot
        for v in voters:  # the papers are revealed in seat order (one announcement each)
            target = b.votes.get(v)
            if target is None:
                fx.append(announce("vote.reveal.none", voter=v))
            elif b.weights[v] == 2:
                fx.append(announce("vote.reveal.double", voter=v, target=target))
                tally[target] = tally.get(target, 0) + 2
            else:
                fx.append(announce("vote.reveal", voter=v, target=target))
                tally[target] = tally.get(target, 0) + 1
        count = "-".join(str(c) for c in sorted(tally.values(), reverse=True)) or "0"
        table.rounds.append(
            VoteRound(
                kind=b.kind,
                votes={p: b.votes.get(p) for p in table.present},
                weights={v: w for v, w in b.weights.items() if w != 1},
                candidates=list(b.candidates),
                count=count,
            )
        )
        self.announce("vote.count", count=count)
        present = list(table.present)
        if b.kind == "second":
            best = max((tally.get(c, 0) for c in b.candidates), default=0)
            top = [c for c in b.candidates if tally.get(c, 0) == best]
            if len(top) == 1 and self._protects(top[0]):
                rest = [c for c in b.candidates if c != top[0]]
                best = max((tally.get(c, 0) for c in rest), default=0)
                top = [c for c in rest if tally.get(c, 0) == best]
            if len(top) == 1:
                self._banish(top[0])
            else:
                self._deadlock(top)
            return
        # first vote (or the everyone-on-one revote)
        if not self.revote_used and (
            (len(tally) >= 2 and all(n == 1 for n in tally.values()))
            or (not tally and self.settings.no_votes == "revote")
        ):
            # Rulebook §4: everyone tied on exactly one vote → a little extra time, everyone votes again.
            # [house] Nobody voted: everyone is tied too (on none), and gets the same extra vote (no_votes).
            self.revote_used = True
            self.announce("vote.revote" if tally else "vote.revote.none")
            self._open_vote("revote", tuple(voters), tuple(present))
            return
        best = max(tally.values(), default=0)
        top = [c for c in present if tally.get(c, 0) == best] if best > 0 else list(present)
        if len(top) == 1 and self._protects(top[0]):
            # Rulebook §4: the contestant with the next most votes is banished; a tie follows the tie rules.
            rest = [c for c in present if c != top[0]]
            best = max((tally.get(c, 0) for c in rest), default=0)
            top = [c for c in rest if tally.get(c, 0) == best]
        if len(top) == 1:
            self._banish(top[0])
            return
        others = tuple(p for p in present if p not in top)
        if not others:
            # Every contestant at the table is tied: nobody can vote in a second vote → deadlock ([house] §4).
            self._deadlock(top)
            return
        self.announce("vote.second", players=", ".join(top))
        self._open_vote("second", others, tuple(top))

    def _deadlock(self, tied: list[str]) -> None:
        """Rulebook §4 [house]: the k tied draw from k chests; k−1 deadlock shields; the empty chest is banished."""
        assert self.table
        self.table.deadlock = list(tied)
        self.announce("deadlock.start", players=", ".join(tied), count=len(tied))
        drawable = list(tied)
        protected = self.table.protected
        if protected in tied and len(tied) > 1 and self._protects(protected):
            # The Judge's protected contestant cannot draw the empty chest (rulebook §4 Judge's protection).
            drawable = [n for n in tied if n != protected]
        empty = self.draw(drawable)
        for n in tied:
            if n != empty:
                self._fx.append(give(n, Item.DEADLOCK_SHIELD))
                self.announce("deadlock.shield", player=n)
        self.announce("deadlock.empty", player=empty)
        self._banish(empty)

    def _protects(self, name: str) -> bool:
        """True (and announced, once) when the Judge's protection saves ``name`` from banishment (§4)."""
        assert self.table
        if self.table.finale or self.table.protected != name or self.table.protection_used:
            return False
        self.table.protection_used = True
        self.announce("judge.protects", player=name)
        return True

    def _banish(self, name: str) -> None:
        """Rulebook §4: the banished reveals Faithful or Traitor, unless five or fewer remain or in the finale."""
        assert self.table
        table = self.table
        p = self.players[name]
        p.alive = False
        p.publicly_out = True
        p.out = "banished"
        p.out_day = self.day
        self.last_removed = name
        self.record_out(name)
        table.banished = name
        self.announce("banish.result", player=name)
        self.emit(Eliminated(name, "banished"))
        if name in self.powers.jokers:
            self.powers.jokers.discard(name)
            if not self.impaired(name):
                # Rulebook §6: if the Joker is banished, the series ends at once.
                table.joker = True
                self.announce("joker.banished", player=name)
                self._end_series(Termination.JOKER_BANISHED, joker=name)
                return
        reveal = not table.finale and len(table.present) > self.settings.no_reveal_from
        if reveal:
            table.revealed = p.allegiance.value
            self.emit(Revealed(name, p.allegiance))
            self.announce("banish.reveal", player=name, allegiance=term(f"term.allegiance.{p.allegiance.value}"))
        else:
            self.announce("banish.no_reveal", player=name)
        self._fx.append(take(Item.DEADLOCK_SHIELD))
        self._move([name], Place.GATE)
        alerted, self.powers.alerted = self.powers.alerted, None
        if alerted is not None and alerted != name and self.players[alerted].alive and p.allegiance is not Allegiance.TRAITOR:
            # Rulebook §4, §5: the alerted Survivor is murdered right after a round table that fails to banish
            # a Traitor.
            table.survivor_murdered = alerted
            self.murder(alerted)
            self.players[alerted].publicly_out = True
            self.record_out(alerted)
            self.announce("survivor.murdered", player=alerted)
            self.emit(Eliminated(alerted, "murdered"))
        living = self.living()
        if table.finale or len(living) <= self.settings.finalists:
            if len(living) <= 2:
                self.announce("finale.two_left")
                self._end_series(Termination.TWO_LEFT)
                return
            if not table.finale:
                self.announce("phase.finale")
            self._open_torches()
            return
        self._begin_night()

    # ------------------------------------------------------------------ the finale (rulebook §9)

    def _open_torches(self) -> None:
        finalists = self.living()
        self.torches = dict.fromkeys(finalists)
        self._move(finalists, Place.FINALE_AREA)
        for n in finalists:
            self._fx += (give(n, Item.BANISH_TORCH), give(n, Item.END_TORCH))
        self.start_clock(Phase.TORCHES, "torches", "clock.torches")
        for n in finalists:
            self._prompt_torch(n)

    def _prompt_torch(self, finalist: str) -> None:
        """Ask ``finalist`` to hold up a torch."""
        self.emit(
            Prompt(
                frozenset({finalist}),
                msg("finale.torch.prompt"),
                tuple([choice(t.title, ChooseTorch, finalist, t) for t in TORCHES]),
            )
        )

    def _apply_torch(self, action: ChooseTorch) -> None:
        self.torches[action.finalist] = action.torch
        self.whisper([action.finalist], "finale.torch.chosen", torch=term(f"term.torch.{action.torch.value}"))

    def _lock_torches(self) -> None:
        """The host locks the torches: reveal, then end on agreement or banish again (rulebook §9)."""
        finalists = list(self.torches)
        for item in (Item.BANISH_TORCH, Item.END_TORCH):
            self._fx.append(take(item, tuple(finalists)))
        ends = 0
        for n in finalists:
            t = self.torches[n]
            if t is None:
                self.announce("finale.torch.none", player=n)
            else:
                self.announce("finale.torch.reveal", player=n, torch=term(f"term.torch.{t.value}"))
                ends += t is Torch.END_GAME
        others = len(finalists) - ends
        count = f"{max(ends, others)}-{min(ends, others)}"
        self.record.events.append(
            TorchRound({n: (t.value if t else None) for n, t in self.torches.items()}, count)
        )
        self.torches = {}
        if ends == len(finalists):
            self.announce("finale.agreed")
            self._end_series(Termination.FINALE_AGREED)
            return
        self.announce("finale.banish_again")
        self.table = RoundTableRecord(day=self.day, present=finalists, finale=True)
        self.record.events.append(self.table)
        self.revote_used = False
        self._move(finalists, Place.ROUND_TABLE)
        self._open_vote("first", tuple(finalists), tuple(finalists))

    # ------------------------------------------------------------------ presence (players leaving and returning)

    def _everyone_present_voted(self, b: Ballot) -> bool:
        """The vote closes early when every voter still present has cast a paper; an absent voter's paper then
        counts as No vote. With no voter present at all it waits for its clock or the host, so a server
        restart (everyone gone at once) never closes a vote by itself (docs/house-rules.md)."""
        players, votes = self.players, b.votes
        anyone_here = False
        for v in b.voters:
            if players[v].present:
                if v not in votes:
                    return False
                anyone_here = True
        return anyone_here

    def _check_presence(self, action: ContestantLeft | ContestantReturned) -> Callable[[], None]:
        """Validate a leave/return; raises InvalidCommand (not a contestant) or IllegalAction (no change)."""
        name = action.contestant
        p = self.players.get(name)
        if p is None:
            raise InvalidCommand("illegal.unknown_player", player=name)
        leaving = isinstance(action, ContestantLeft)
        if leaving and not p.present:
            raise IllegalAction("illegal.presence.away", player=name)
        if not leaving and p.present:
            raise IllegalAction("illegal.presence.here", player=name)
        return (lambda: self._apply_left(name)) if leaving else (lambda: self._apply_returned(name))

    def _apply_left(self, name: str) -> None:
        self.players[name].present = False
        self.whisper(self.hosts, "presence.left", player=name)
        b = self.ballot
        if self.phase is Phase.VOTE and b is not None and name in b.voters and name not in b.votes:
            if self._everyone_present_voted(b):
                self._close_vote()

    def _apply_returned(self, name: str) -> None:
        self.players[name].present = True
        self.whisper(self.hosts, "presence.returned", player=name)
        self.whisper([name], "presence.welcome_back")
        b = self.ballot
        if self.phase is Phase.VOTE and b is not None and name in b.voters and name not in b.votes:
            self._prompt_vote(name)

    def present(self) -> list[str]:
        """Contestants still in the series whose players are on the server, in seat order."""
        return [p.name for p in self.players.values() if p.alive and p.present]

    # ------------------------------------------------------------------ the end

    def record_out(self, name: str) -> None:
        p = self.players[name]
        for c in self.record.contestants:
            if c.name == name:
                c.out = p.out
                c.out_day = p.out_day

    def _end_series(self, termination: Termination, joker: str | None = None, *, nobody: bool = False) -> None:
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
        if winner is Winner.NOBODY:
            self.announce("series.over.host")
        elif winners:
            self.announce("series.over", winner=term(f"term.winner.{winner.value}"), winners=", ".join(winners))
        else:
            self.announce("series.over.nobody", winner=term(f"term.winner.{winner.value}"))
        self.emit(ShowTitle(msg("title.series_over", winner=term(f"term.winner.{winner.value}"))))
        self.emit(SeriesOver(self.outcome))


    # ------------------------------------------------------------------ host controls (docs/host.md)
    # Pause, resume and extend change only the phase clock: each gives the clock a new sequence number, so a
    # timer armed for the old deadline is stale (ignored). A replacement changes who plays a seat, never the
    # seat's name: inputs are translated from the player to the contestant on the way in, recipients from the
    # contestant to the player on the way out (``_as_contestant``, ``_to_players``). An undo rebuilds the
    # series by replay without the undone input and reconciles the castle (``_apply_undo``).

    def player_of(self, contestant: str) -> str:
        """The player who plays ``contestant``'s seat now (the contestant's own name unless replaced)."""
        return self.stand_ins.get(contestant, contestant)

    def contestant_of(self, player: str) -> str | None:
        """The contestant whose seat ``player`` plays now, or ``None`` (not playing, or replaced)."""
        for contestant, stand_in in self.stand_ins.items():
            if stand_in == player:
                return contestant
        if player in self.players and player not in self.stand_ins:
            return player
        return None

    def _as_contestant(self, action: Action) -> Action:
        """A stand-in's input as the seat's contestant's; a replaced player's input is refused."""
        if not self.stand_ins:
            return action
        changes: dict[str, str] = {}
        for name in _ACTOR_FIELDS:
            value = getattr(action, name, None)
            if not isinstance(value, str) or isinstance(action, ReplaceContestant):
                continue
            contestant = self.contestant_of(value)
            if contestant is None and value in self.stand_ins:
                raise IllegalAction("illegal.replaced")
            if contestant is not None and contestant != value:
                changes[name] = contestant
        return dataclasses.replace(action, **changes) if changes else action

    def _to_players(self, effects: list[Effect]) -> list[Effect]:
        """Recipients and movers named as the players who play the seats now."""
        who = self.player_of

        def names(group: frozenset[str]) -> frozenset[str]:
            return frozenset(who(n) for n in group)

        out: list[Effect] = []
        for e in effects:
            if isinstance(e, (Whisper, Prompt, GiveItem)):
                e = dataclasses.replace(e, to=names(e.to))
            elif isinstance(e, ShowTitle) and e.to is not None:
                e = dataclasses.replace(e, to=names(e.to))
            elif isinstance(e, Eliminated) and e.to is not None:
                e = dataclasses.replace(e, to=names(e.to))
            elif isinstance(e, MoveTo):
                e = dataclasses.replace(e, players=tuple(who(n) for n in e.players))
            elif isinstance(e, TakeItem) and e.players is not None:
                e = dataclasses.replace(e, players=tuple(who(n) for n in e.players))
            out.append(e)
        return out

    def _check_host_action(self, action: Action) -> Callable[[], None]:
        host = action.actor
        if host not in self.hosts:
            raise IllegalAction("illegal.not_host")
        if isinstance(action, PauseClock):
            if self.deadline is None:
                raise IllegalAction("illegal.clock.not_running")
            return lambda: self._apply_pause(str(host))
        if isinstance(action, ResumeClock):
            if self.paused is None:
                raise IllegalAction("illegal.clock.not_paused")
            return lambda: self._apply_resume(str(host))
        if isinstance(action, ExtendPhase):
            if not 1 <= action.seconds <= MAX_EXTENSION:
                raise IllegalAction("illegal.clock.seconds", seconds=str(action.seconds))
            if self.deadline is None and self.paused is None:
                raise IllegalAction("illegal.clock.not_running")
            return lambda: self._apply_extend(str(host), action.seconds)
        if isinstance(action, ReplaceContestant):
            p = self.players.get(action.contestant)
            if p is None:
                raise InvalidCommand("illegal.unknown_player", player=action.contestant)
            if not p.alive:
                raise IllegalAction("illegal.replace.out", contestant=action.contestant)
            new = action.player
            taken = {self.player_of(n) for n in self.players} | set(self.players) | set(self.hosts)
            same = same_player(new, taken) if NAME_RE.match(new) else new
            if same is not None and same != new:  # Minecraft takes them for one player
                raise IllegalAction("illegal.replace.case", player=new, other=same)
            if same == new and not (new == action.contestant and action.contestant in self.stand_ins):
                raise IllegalAction("illegal.replace.player", player=new)
            return lambda: self._apply_replace(action.contestant, new, str(host))
        if isinstance(action, UndoHostAction):
            last = self.log[-1] if self.log else None
            if last is None or last.get("action") not in UNDOABLE:
                raise IllegalAction("illegal.undo.nothing")
            return lambda: self._apply_undo(str(host))
        assert isinstance(action, EndSeries)
        return lambda: self._apply_end(str(host))

    def _host_logged(self, host: str, kind: str, detail: str = "") -> None:
        """Rulebook-silent [house]: every host action but moving on is kept in the record with who and when."""
        self.record.host_actions.append({
            "host": host, "action": kind, "at": self._now, "day": self.day,
            "phase": self.phase.value if self.phase is not None else None, "detail": detail, "undone": False,
        })  # fmt: skip

    def _clock_changed(self) -> None:
        self.phase_seq += 1
        remaining = self.paused if self.paused is not None else max(0.0, (self.deadline or self._now) - self._now)
        self.emit(ClockChanged(self.phase_seq, self.deadline, remaining))

    def _apply_pause(self, host: str) -> None:
        assert self.deadline is not None
        self.paused = max(0.0, self.deadline - self._now)
        self.deadline = None
        self._host_logged(host, "pause_clock", f"{self.paused:.0f} s left")
        self.announce("host.paused")
        self._clock_changed()

    def _apply_resume(self, host: str) -> None:
        assert self.paused is not None
        left, self.paused = self.paused, None
        self.deadline = self._now + left
        self._host_logged(host, "resume_clock", f"{left:.0f} s left")
        self.announce("host.resumed", seconds=f"{left:.0f}")
        self._clock_changed()

    def _apply_extend(self, host: str, seconds: int) -> None:
        if self.paused is not None:
            self.paused += seconds
        else:
            assert self.deadline is not None
            self.deadline += seconds
        self._host_logged(host, "extend_phase", f"+{seconds} s")
        self.announce("host.extended", seconds=str(seconds))
        self._clock_changed()

    def _apply_replace(self, contestant: str, player: str, host: str) -> None:
        if player == contestant:
            self.stand_ins.pop(contestant, None)
        else:
            self.stand_ins[contestant] = player
        p = self.players[contestant]
        p.present = True
        self._host_logged(host, "replace_contestant", f"{player} for {contestant}")
        self.announce("host.replaced", player=player, contestant=contestant, seat=str(p.seat))
        # The new player learns the hand privately, as the contestant knows it (a drunk power as the plain power,
        # rulebook §2): the Whisper names the contestant and goes out to the player who plays the seat now.
        seat = str(p.seat)
        if p.allegiance is Allegiance.TRAITOR and p.sworn:
            self.whisper([contestant], "replace.hand.traitor", contestant=contestant, seat=seat,
                          power=power_term(p.power.title if p.power else "none"),
                          false_power=power_term(p.false_power.title if p.false_power else "none"),
                          traitors=", ".join(self.living_traitors()))  # fmt: skip
        elif p.allegiance is Allegiance.TRAITOR:
            self.whisper([contestant], "replace.hand.traitor.unsworn", contestant=contestant, seat=seat)
        else:
            power = Power.JOKER if contestant in self.powers.jokers else self.active_power(contestant)
            self.whisper([contestant], "replace.hand.faithful", contestant=contestant, seat=seat,
                          power=power_term(power.title if power else "none"))  # fmt: skip
        # Re-prompt what the seat has to answer now (the old player's dialogs went to the old player).
        self._reprompt([contestant])

    def _apply_end(self, host: str) -> None:
        self._host_logged(host, "end_series")
        self.announce("host.ended")
        self._end_series(Termination.HOST_ENDED, nobody=True)

    def _apply_undo(self, host: str) -> None:
        """Rebuild without the last input; reconcile places, items, the clock and prompts (docs/host.md)."""
        undone = self.log[-1]
        before = Game.replay(self.settings, self.seed, self.log[:-1])
        # The clock gets back the time it had left when the undone action happened, counted from now.
        left = before.paused
        if left is None and before.deadline is not None:
            left = max(0.0, before.deadline - float(undone["now"]))
        old_items, old_places, old_seq = self.items, self.places, self.phase_seq
        old_log, old_inbox, old_actions = self.log, self.inbox, self.record.host_actions
        for name in _REPLAYED_STATE:
            setattr(self, name, getattr(before, name))
        self.log, self.inbox = old_log, old_inbox
        self.record.host_actions = old_actions
        actions = self.record.host_actions
        for a in reversed(actions):  # the latest first
            if not a["undone"] and a["action"] == undone["action"]:
                a["undone"] = True
                break
        self._host_logged(host, "undo_host_action", str(undone["action"]))
        self.announce("host.undone", action=host_action_term(str(undone["action"])))
        # Places: move whoever is elsewhere back.
        target_places, self.places = self.places, old_places
        moves: dict[tuple[Place, bool], list[str]] = {}
        for n, (place, seat) in target_places.items():
            if old_places.get(n) != (place, seat) and self.players[n].alive:
                moves.setdefault((place, seat is not None), []).append(n)
        for (place, _), names in moves.items():
            self._move(names, place)
        # Items: give back what the undone action took, take what it gave.
        target_items = self.items
        self._reset_items = {n: list(v) for n, v in target_items.items()}
        self.items = old_items
        for n in sorted(set(target_items) | set(old_items)):
            want, have = target_items.get(n, []), old_items.get(n, [])
            for item, label in want:
                if (item, label) not in have:
                    self.emit(GiveItem(frozenset({n}), item, label))
            # In the order held (a set of items would iterate in a per-process order: they hash by identity).
            for item in dict.fromkeys(i for i, _ in have if all(i is not j for j, _ in want)):
                self.emit(TakeItem(item, (n,)))
        # The clock: a fresh sequence number above every one used, so no old timer can fire into it.
        self.phase_seq = max(old_seq, self.phase_seq)
        if self.phase is not None and self.phase is not Phase.OVER and left is not None:
            self.phase_seq += 1
            if before.paused is not None:
                self.deadline = None
                self.paused = left
                self.emit(ClockChanged(self.phase_seq, None, left))
            else:
                self.deadline = self._now + left
                self.emit(ClockStarted(self.phase_seq, msg(self.clock_label), left, self.deadline))
        self._reprompt(None)

    def _reprompt(self, only: list[str] | None) -> None:
        """Prompt again what is open now (the vote, the Oath question, the offer, the torches), for ``only`` or all.

        Turret, power and host-visit prompts are not repeated: their choices stay in the chat fallback.
        """
        def wanted(n: str) -> bool:
            return only is None or n in only

        b = self.ballot
        if self.phase is Phase.VOTE and b is not None:
            for v in b.voters:
                if v not in b.votes and wanted(v) and self.players[v].present:
                    self._prompt_vote(v)
        elif self.phase is Phase.OATH and self.night and self.night.oath_queue and wanted(self.night.oath_queue[0]):
            self._ask_oath()
        elif self.phase is Phase.OFFER and self.night and self.night.offer and wanted(self.night.offer[1]):
            self._prompt_offer()
        elif self.phase is Phase.TORCHES:
            for n in self.torches:
                if wanted(n):
                    self._prompt_torch(n)


_CONTESTANT_INPUTS: frozenset[type[Action]] = frozenset(
    {CastVote, SwearOath, ChooseEvent, NominateDoubleVote, AnswerOffer, UsePower, SkipPower, AnswerJoker, ChooseTorch,
     *TWIST_ACTIONS}
)  # fmt: skip
"""The contestants' inputs (``Game._validate`` checks them after the host's and the server's)."""


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
    }


ON_CLOCK: dict[Phase, Callable[[Game], None]] = {
    Phase.DAY_ZERO: Game._begin_night,
    Phase.BREAKFAST: Game._begin_discussion,
    Phase.DISCUSSION: Game.begin_round_table,
    Phase.ROUND_TABLE: Game._open_first_vote,
    Phase.VOTE: Game._close_vote,
    Phase.OATH: Game._finish_oath,
    Phase.TURRET: Game._close_turret,
    Phase.OFFER: Game._offer_lapses,
    Phase.TRAITOR_POWERS: Game._close_traitor_powers,
    Phase.HOST_VISIT: Game._close_host_visit,
    Phase.TORCHES: Game._lock_torches,
    Phase.NOMINATION: Game._close_nomination,
    Phase.NOMINEE: Game._close_nominee,
}
"""What the end of each phase's clock (or the host's ``Advance``) does."""


__all__ = ["Ballot", "Game", "NightState", "PlayerState", "RULESET", "WorldState"]
