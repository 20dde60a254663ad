"""The Traitors: one series, from the deal to the winner (rulebook §1, §3, §4, §7, §9; Double Vote of §8).

``Game.handle(action, now=…)`` is the whole contract: validate first, then apply, and return the effects.
An illegal input raises ``IllegalAction`` (or ``InvalidCommand``) and changes nothing. Time comes in as
``now`` (seconds, any epoch the caller keeps consistent); randomness comes from one ``random.Random(seed)``
drawn in a fixed order, so ``Game.replay`` rebuilds a series exactly from its input log.

Powers are dealt but do not act in this version; drunk is dealt and recorded.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    Action,
    Advance,
    AnswerOffer,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    NominateDoubleVote,
    StartSeries,
    SwearOath,
    TimerExpired,
    action_from_dict,
)
from engine.effects import (
    Announce,
    Choice,
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
    msg,
)
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import TRAITOR_POWERS, Allegiance, Item, NightEvent, Place, Power, Torch, Twist
from engine.outcome import Outcome, Termination, Winner
from engine.phases import ON_CLOCK, Phase
from engine.record import (
    BreakfastRecord,
    ContestantRecord,
    NightRecord,
    RoundTableRecord,
    SeriesRecord,
    TorchRound,
    VoteRound,
)
from engine.settings import DEFAULT_DURATIONS, DealEntry, Settings

RULESET = "traitors"
OATH_QUESTIONS = 3
"""Rulebook §7.1: lie and deceive? murder every night? keep the identities secret?"""


@dataclass(slots=True)
class PlayerState:
    """One contestant's truth. Never leaves the engine except through views and the finished record."""

    name: str
    seat: int
    """1-based seat at the round table; also the number of their home."""
    allegiance: Allegiance
    power: Power | None
    false_power: Power | None = None
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


@dataclass(slots=True)
class Ballot:
    """The vote in progress at a round table or finale banishment."""

    kind: str
    """``"first"``, ``"revote"`` or ``"second"``."""
    voters: tuple[str, ...]
    candidates: tuple[str, ...]
    weights: dict[str, int]
    votes: dict[str, str] = field(default_factory=dict)


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
    victims: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class WorldState:
    """The castle as the engine last left it (``Game.world_state``); the bridge re-syncs the world to it.

    Args:
        places: contestant → (place, seat for ``ROUND_TABLE``/``HOME`` or ``None``), from the last ``MoveTo``.
        items: contestant → the castle items they should hold, as ``(item, label)``, in the order given.
        phase_seq: the current phase's sequence number (0 before the series starts).
        deadline: when the current phase clock runs out (same unit as ``now``), or ``None``.
    """

    places: dict[str, tuple[Place, int | None]]
    items: dict[str, list[tuple[Item, str | None]]]
    phase_seq: int
    deadline: float | None


class Game:
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
        self.items: dict[str, list[tuple[Item, str | None]]] = {}
        """What the engine has put in each contestant's inventory (kept from GiveItem/TakeItem effects)."""
        self.places: dict[str, tuple[Place, int | None]] = {}
        """Where each contestant was last sent, with the seat for per-seat places (kept from MoveTo effects)."""
        self.inbox: dict[str, list[str]] = {}
        """Every message text each contestant (and host) was sent, in order."""
        self.log: list[dict[str, Any]] = []
        """The input log: every accepted input with its ``now``; ``Game.replay`` consumes it."""
        self.record = SeriesRecord(ruleset=RULESET, seed=seed, contestants=[], settings=_settings_dict(settings))
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
        if isinstance(action, StartSeries):
            if self.started:
                raise IllegalAction("illegal.phase")
            handler: Callable[[], None] = self._start
        elif self.phase is Phase.OVER or not self.started:
            if isinstance(action, TimerExpired):
                return []
            raise IllegalAction("illegal.phase")
        elif isinstance(action, TimerExpired):
            if action.phase_seq != self.phase_seq:
                return []
            handler = self._on_clock
        else:
            handler = self._validate(action)
        # Everything that can refuse the input has run; from here on the input is applied.
        self._fx = []
        self._now = now
        handler()
        self.log.append({"now": now, **action.to_dict()})
        effects, self._fx = self._fx, []
        self._track(effects)
        return effects

    def legal_actions(self, player: str) -> list[Action]:
        """Every input ``player`` may send now (concrete: one per choice).

        Args:
            player: a contestant or host name.

        Returns:
            The legal inputs, in a stable order; ``[]`` when there is nothing to do.
        """
        out: list[Action] = []
        if self.phase in (None, Phase.OVER):
            return out
        if player in self.hosts:
            out.append(Advance(player))
        p = self.players.get(player)
        if p is None or not p.alive:
            return out
        if self.phase is Phase.VOTE and self.ballot and player in self.ballot.voters and player not in self.ballot.votes:
            out += [CastVote(player, c) for c in self.ballot.candidates if c != player]
        elif self.phase is Phase.OATH and self.night and self.night.oath_queue[:1] == [player]:
            out.append(SwearOath(player))
        elif self.phase is Phase.TURRET and self.night and player in self.night.traitors:
            if self.night.events and player not in self.night.picks:
                out += [ChooseEvent(player, e, t) for e, t in self._event_options()]
            if self.night.nominate and player not in self.night.nominations:
                out += [NominateDoubleVote(player, t) for t in self._living()]
        elif self.phase is Phase.OFFER and self.night and self.night.offer and self.night.offer[1] == player:
            out += [AnswerOffer(player, True), AnswerOffer(player, False)]
        elif self.phase is Phase.TORCHES and player in self.torches:
            out += [ChooseTorch(player, t) for t in Torch if self.torches[player] is not t]
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

    # ------------------------------------------------------------------ validation

    def _validate(self, action: Action) -> Callable[[], None]:
        """Check ``action`` against the rules and return the function that applies it. Mutates nothing."""
        if isinstance(action, Advance):
            if action.host not in self.hosts:
                raise IllegalAction("illegal.not_host")
            return self._on_clock
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
            return self._apply_oath_answer
        if isinstance(action, ChooseEvent):
            self._check_turret(actor)
            assert self.night
            if not self.night.events:
                raise IllegalAction("illegal.turret.event", event=action.event.value)
            if actor in self.night.picks:
                raise IllegalAction("illegal.turret.already")
            if action.event not in self.night.events:
                raise IllegalAction("illegal.turret.event", event=action.event.value)
            if (action.event, action.target) not in self._event_options():
                raise IllegalAction("illegal.turret.target", target=action.target)
            return lambda: self._apply_event_pick(action)
        if isinstance(action, NominateDoubleVote):
            self._check_turret(actor)
            assert self.night
            if not self.night.nominate:
                raise IllegalAction("illegal.turret.no_twist")
            if actor in self.night.nominations:
                raise IllegalAction("illegal.turret.already")
            if action.target not in self._living():
                raise IllegalAction("illegal.turret.target", target=action.target)
            return lambda: self._apply_nomination(action)
        if isinstance(action, AnswerOffer):
            if self.phase is not Phase.OFFER or not self.night or not self.night.offer:
                raise IllegalAction("illegal.offer.none")
            if self.night.offer[1] != actor:
                raise IllegalAction("illegal.offer.none")
            return lambda: self._apply_offer_answer(action.accept)
        if isinstance(action, ChooseTorch):
            if self.phase is not Phase.TORCHES:
                raise IllegalAction("illegal.torch.closed")
            if actor not in self.torches:
                raise IllegalAction("illegal.torch.not_finalist")
            return lambda: self._apply_torch(action)
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

    def _check_turret(self, actor: str) -> None:
        p = self.players[actor]
        if p.allegiance is not Allegiance.TRAITOR:
            raise IllegalAction("illegal.not_traitor")
        if self.phase is not Phase.TURRET or not self.night:
            raise IllegalAction("illegal.turret.closed")
        if actor not in self.night.traitors:
            raise IllegalAction("illegal.turret.unsworn")

    # ------------------------------------------------------------------ helpers

    def _living(self) -> list[str]:
        return [p.name for p in self.players.values() if p.alive]

    def _living_traitors(self) -> list[str]:
        return [p.name for p in self.players.values() if p.alive and p.allegiance is Allegiance.TRAITOR]

    def _living_faithful(self) -> list[str]:
        return [p.name for p in self.players.values() if p.alive and p.allegiance is Allegiance.FAITHFUL]

    def _emit(self, *effects: Effect) -> None:
        self._fx.extend(effects)

    def _announce(self, key: str, **params: object) -> None:
        self._emit(Announce(msg(key, **params)))

    def _whisper(self, to: Iterable[str], key: str, **params: object) -> None:
        recipients = frozenset(to)
        if recipients:
            self._emit(Whisper(recipients, msg(key, **params)))

    def _move(self, players: Sequence[str], place: Place) -> None:
        if not players:
            return
        seats = tuple(self.players[n].seat for n in players) if place in (Place.ROUND_TABLE, Place.HOME) else ()
        self._emit(MoveTo(tuple(players), place, seats))

    def _clock(self, phase: Phase, duration_key: str, label: str) -> None:
        self.phase = phase
        self.phase_seq += 1
        seconds = self.settings.duration(duration_key)
        self.deadline = self._now + seconds
        self._emit(ClockStarted(self.phase_seq, msg(label), seconds, self.deadline))

    def _draw(self, options: Sequence[str]) -> str:
        """One seeded draw among ``options`` (sorted first, so the draw never depends on dict order)."""
        return self.rng.choice(sorted(options))

    def _track(self, effects: list[Effect]) -> None:
        """Keep the engine's copy of what each contestant was sent and holds (for views)."""
        everyone = [*self.players, *sorted(self.hosts)]
        for e in effects:
            if isinstance(e, Announce):
                for n in everyone:
                    self.inbox.setdefault(n, []).append(e.message.text)
            elif isinstance(e, (Whisper, Prompt)):
                for n in sorted(e.to):
                    self.inbox.setdefault(n, []).append(e.message.text)
            elif isinstance(e, GiveItem):
                for n in sorted(e.to):
                    self.items.setdefault(n, []).append((e.item, e.label))
            elif isinstance(e, TakeItem):
                for n in e.players if e.players is not None else list(self.items):
                    self.items[n] = [(i, lab) for i, lab in self.items.get(n, []) if i is not e.item]
            elif isinstance(e, MoveTo):
                for k, n in enumerate(e.players):
                    self.places[n] = (e.place, e.seats[k] if e.seats else None)

    def world_state(self) -> WorldState:
        """What the castle should look like now: the state to restore after a crash (``docs/recovery.md``).

        Built only from effects already returned (``MoveTo``, ``GiveItem``/``TakeItem``) plus the phase clock,
        so it holds nothing a contestant was not already shown or given.

        Returns:
            Each contestant's last place (with seat) and items, and the running phase clock.
        """
        return WorldState(
            places=dict(self.places),
            items={n: list(held) for n, held in self.items.items()},
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
        traitors = self._living_traitors()
        self._announce("series.welcome", count=len(names), traitors=len(traitors))
        self._announce(f"series.drunk.{self.settings.drunk}")
        for n in names:
            self._emit(GiveItem(frozenset({n}), Item.NOTES_BOOK))
        for p in self.players.values():
            if p.allegiance is Allegiance.TRAITOR:
                self._emit(ShowTitle(msg("title.traitor"), None, frozenset({p.name})))
                self._whisper([p.name], "deal.traitor")
            else:
                self._emit(ShowTitle(msg("title.faithful"), None, frozenset({p.name})))
                if p.power is None:
                    self._whisper([p.name], "deal.faithful.no_power")
                else:
                    self._whisper([p.name], "deal.faithful", power=p.power.title)
        self._move(names, Place.FOYER)
        self._announce("phase.day_zero")
        self._clock(Phase.DAY_ZERO, "day_zero", "clock.day_zero")

    def _random_deal(self) -> tuple[DealEntry, ...]:
        """Rulebook §1: allegiances, unique powers, false powers, drunk; all from the seeded generator."""
        s = self.settings
        names = list(s.contestants)
        traitors = set(self.rng.sample(names, s.traitors))
        t_seated = [n for n in names if n in traitors]
        f_seated = [n for n in names if n not in traitors]
        power: dict[str, Power | None] = {n: None for n in names}
        false: dict[str, Power | None] = {n: None for n in names}
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
        getattr(self, "_" + ON_CLOCK[self.phase])()

    # ------------------------------------------------------------------ the night (rulebook §7)

    def _begin_night(self) -> None:
        living = self._living()
        self.night = NightState(NightRecord(day=self.day))
        self.record.events.append(self.night.record)
        self._announce("phase.night", day=self.day)
        self._move(living, Place.HOME)
        self.night.oath_queue = [
            n for n in self._living_traitors() if not self.players[n].sworn
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
        self._clock(Phase.OATH, "oath", "clock.oath")
        self._ask_oath()

    def _ask_oath(self) -> None:
        assert self.night
        taker = self.night.oath_queue[0]
        q = self.night.oath_step + 1
        self._emit(
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
            self._whisper([taker], "oath.sworn", power=p.power.title, false_power=p.false_power.title)
        elif p.false_power is not None:
            self._whisper([taker], "oath.sworn.no_power", false_power=p.false_power.title)
        elif p.power is not None:
            self._whisper([taker], "oath.sworn.no_false", power=p.power.title)
        else:
            self._whisper([taker], "oath.sworn.no_false", power="none")
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
        traitors = tuple(n for n in self._living_traitors() if self.players[n].sworn)
        night.traitors = traitors
        if not traitors:
            self._end_night()
            return
        living = self._living()
        events: frozenset[NightEvent] = frozenset()
        if (self.day > 0 or self.settings.first_night_murder) and len(living) > self.settings.finalists + 1:
            if self._living_faithful():
                if len(traitors) == 1:
                    events = frozenset({NightEvent.ULTIMATUM})
                elif len(traitors) == 2:
                    events = frozenset({NightEvent.MURDER, NightEvent.SEDUCE})
                else:
                    events = frozenset({NightEvent.MURDER})
        night.events = events
        night.nominate = Twist.DOUBLE_VOTE in self.settings.twists_on(self.day + 1)
        self._move(traitors, Place.TURRET)
        self._whisper(traitors, "turret.traitors", players=", ".join(self._living_traitors()))
        if not events:
            self._whisper(traitors, "turret.no_event")
        if not events and not night.nominate:
            self._end_night()
            return
        self._clock(Phase.TURRET, "turret", "clock.turret")
        options = self._event_options()
        for t in traitors:
            if events:
                key = (
                    "turret.choose.ultimatum"
                    if NightEvent.ULTIMATUM in events
                    else "turret.choose.seduce_or_murder"
                    if NightEvent.SEDUCE in events
                    else "turret.choose.murder"
                )
                self._emit(
                    Prompt(
                        frozenset({t}),
                        msg(key),
                        tuple(Choice(f"{e.value.capitalize()} {target}", ChooseEvent(t, e, target)) for e, target in options),
                    )
                )
            if night.nominate:
                self._emit(
                    Prompt(
                        frozenset({t}),
                        msg("turret.nominate.double_vote"),
                        tuple(Choice(n, NominateDoubleVote(t, n)) for n in living),
                    )
                )

    def _event_options(self) -> list[tuple[NightEvent, str]]:
        """Tonight's (event, target) pairs: every allowed event against every living Faithful."""
        assert self.night
        order = [NightEvent.MURDER, NightEvent.SEDUCE, NightEvent.ULTIMATUM]
        return [(e, f) for e in order if e in self.night.events for f in self._living_faithful()]

    def _apply_event_pick(self, action: ChooseEvent) -> None:
        assert self.night
        self.night.picks[action.traitor] = (action.event, action.target)
        self._whisper(self.night.traitors, "turret.choice", traitor=action.traitor, event=action.event.value, target=action.target)
        self._turret_maybe_done()

    def _apply_nomination(self, action: NominateDoubleVote) -> None:
        assert self.night
        self.night.nominations[action.traitor] = action.target
        self._turret_maybe_done()

    def _turret_maybe_done(self) -> None:
        assert self.night
        n = self.night
        picked = not n.events or all(t in n.picks for t in n.traitors)
        named = not n.nominate or all(t in n.nominations for t in n.traitors)
        if picked and named:
            self._close_turret()

    def _close_turret(self) -> None:
        """Rulebook §7.2 [house]: the most picks wins; a tie is broken by the seeded draw."""
        assert self.night
        night = self.night
        if night.nominate and night.nominations:
            holder = _most_picked(list(night.nominations.values()), self._draw)
            self.double_vote_next = holder
            night.record.double_vote = holder
            self._whisper(night.traitors, "turret.nominated", player=holder)
        if not night.picks:
            if night.events:
                self._whisper(night.traitors, "turret.no_event")
            self._end_night()
            return
        keys = [f"{e.value}|{t}" for e, t in night.picks.values()]
        event_name, target = _most_picked(keys, self._draw).split("|")
        event = NightEvent(event_name)
        night.record.event = event.value
        night.record.target = target
        self._whisper(night.traitors, "turret.decided", event=event.value, target=target)
        if event is NightEvent.MURDER:
            night.victims.append(target)
            night.record.result = "murdered"
            self._end_night()
        else:
            night.offer = (event, target)
            self._move([target], Place.DIARY_ROOM)
            self._emit(GiveItem(frozenset({target}), Item.DIARY_BOOK, None))
            self._clock(Phase.OFFER, "offer", "clock.offer")
            self._emit(
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
        self._emit(TakeItem(Item.DIARY_BOOK, (target,)))
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
            self._whisper(self.night.traitors, "offer.accepted", player=target)
            self._whisper([target], "recruit.welcome")
        else:
            self._whisper(self.night.traitors, "offer.declined", player=target)
            if event is NightEvent.ULTIMATUM:
                self.night.victims.append(target)
                self.night.record.result = "murdered"
            else:
                self.night.record.result = "declined"
        self._move([target], Place.HOME)
        self._end_night()

    def _offer_lapses(self) -> None:
        """No answer by the end of the offer's clock counts as a decline ([house])."""
        self._apply_offer_answer(False)

    def _end_night(self) -> None:
        """Rulebook §7.5: a murdered Faithful is sent to the diary room and told; then day breaks."""
        assert self.night
        for victim in self.night.victims:
            p = self.players[victim]
            p.alive = False
            p.out = "murdered"
            p.out_day = self.day
            self.news.append(victim)
            self._move([victim], Place.DIARY_ROOM)
            self._emit(GiveItem(frozenset({victim}), Item.DIARY_BOOK, None))
            self._whisper([victim], "diary.murdered")
            self._emit(Eliminated(victim, "murdered", frozenset({victim})))
        self.night = None
        self._begin_breakfast()

    # ------------------------------------------------------------------ the day (rulebook §3)

    def _begin_breakfast(self) -> None:
        self.day += 1
        self.double_vote_holder = self.double_vote_next if Twist.DOUBLE_VOTE in self.settings.twists_on(self.day) else None
        self.double_vote_next = None
        if self.double_vote_holder is not None and not self.players[self.double_vote_holder].alive:
            self.double_vote_holder = None
        arrivals = self._living()
        self.rng.shuffle(arrivals)
        self._announce("phase.breakfast", day=self.day)
        self._move(arrivals, Place.BREAKFAST_ROOM)
        for n in arrivals:
            self._announce("breakfast.arrives", player=n)
        murdered = list(self.news)
        self.news.clear()
        for victim in murdered:
            self.players[victim].publicly_out = True
            self._announce("breakfast.murdered", player=victim)
            self._emit(Eliminated(victim, "murdered"))
            self._record_out(victim)
        if not murdered:
            self._announce("breakfast.no_murder")
        self.record.events.append(BreakfastRecord(self.day, arrivals, murdered))
        if not self._living_traitors():
            self._announce("series.no_traitors")
            self._end_series(Termination.NO_TRAITORS)
            return
        if self.double_vote_holder is not None:
            self._whisper([self.double_vote_holder], "diary.double_vote")
        self._clock(Phase.BREAKFAST, "breakfast", "clock.breakfast")

    def _begin_discussion(self) -> None:
        self._announce("phase.discussion", day=self.day)
        self._move(self._living(), Place.FOYER)
        self._clock(Phase.DISCUSSION, "discussion", "clock.discussion")

    def _begin_round_table(self) -> None:
        living = self._living()
        self.table = RoundTableRecord(day=self.day, present=living, double_vote=self.double_vote_holder)
        self.record.events.append(self.table)
        self.revote_used = False
        self._announce("phase.round_table", day=self.day)
        self._move(living, Place.ROUND_TABLE)
        self._clock(Phase.ROUND_TABLE, "round_table", "clock.round_table")

    def _open_first_vote(self) -> None:
        assert self.table
        present = tuple(self.table.present)
        self._open_vote("first", present, present)

    def _open_vote(self, kind: str, voters: tuple[str, ...], candidates: tuple[str, ...]) -> None:
        """Rulebook §4: every eligible contestant gets a vote paper (the holder a double vote paper)."""
        assert self.table
        holder = None if self.table.finale else self.double_vote_holder
        weights = {v: (2 if v == holder else 1) for v in voters}
        self.ballot = Ballot(kind, voters, candidates, weights)
        if kind == "first":
            self._announce("vote.open")
        self._clock(Phase.VOTE, "revote" if kind == "revote" else "vote", "clock.vote")
        for v in voters:
            paper = Item.DOUBLE_VOTE_PAPER if weights[v] == 2 else Item.VOTE_PAPER
            self._emit(GiveItem(frozenset({v}), paper, None))
            self._emit(
                Prompt(
                    frozenset({v}),
                    msg("vote.prompt"),
                    tuple(Choice(c, CastVote(v, c)) for c in candidates if c != v),
                )
            )
        if not voters:
            self._close_vote()

    def _apply_vote(self, action: CastVote) -> None:
        b = self.ballot
        assert b
        b.votes[action.voter] = action.target
        paper = Item.DOUBLE_VOTE_PAPER if b.weights[action.voter] == 2 else Item.VOTE_PAPER
        self._emit(TakeItem(paper, (action.voter,)))
        self._emit(GiveItem(frozenset({action.voter}), Item.CAST_VOTE_PAPER, action.target))
        self._whisper([action.voter], "vote.cast", target=action.target)
        if len(b.votes) == len(b.voters):
            self._close_vote()

    def _close_vote(self) -> None:
        """Reveal the papers in seat order, count, then banish or apply the tie rules (rulebook §4)."""
        b, table = self.ballot, self.table
        assert b and table
        self.ballot = None
        voters = list(b.voters)
        for item in (Item.VOTE_PAPER, Item.DOUBLE_VOTE_PAPER, Item.CAST_VOTE_PAPER):
            self._emit(TakeItem(item, tuple(voters)))
        self._announce("vote.closed")
        tally: Counter[str] = Counter()
        for v in voters:
            target = b.votes.get(v)
            if target is None:
                self._announce("vote.reveal.none", voter=v)
            elif b.weights[v] == 2:
                self._announce("vote.reveal.double", voter=v, target=target)
                tally[target] += 2
            else:
                self._announce("vote.reveal", voter=v, target=target)
                tally[target] += 1
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
        self._announce("vote.count", count=count)
        present = list(table.present)
        if b.kind == "second":
            best = max((tally[c] for c in b.candidates), default=0)
            top = [c for c in b.candidates if tally[c] == best]
            if len(top) == 1:
                self._banish(top[0])
            else:
                self._deadlock(top)
            return
        # first vote (or the everyone-on-one revote)
        if (
            not self.revote_used
            and len(tally) >= 2
            and all(n == 1 for n in tally.values())
        ):
            # Rulebook §4: everyone tied on exactly one vote → a little extra time, everyone votes again.
            self.revote_used = True
            self._announce("vote.revote")
            self._open_vote("revote", tuple(voters), tuple(present))
            return
        best = max(tally.values(), default=0)
        top = [c for c in present if tally[c] == best] if best > 0 else list(present)
        if len(top) == 1:
            self._banish(top[0])
            return
        others = tuple(p for p in present if p not in top)
        if not others:
            # Every contestant at the table is tied: nobody can vote in a second vote → deadlock ([house] §4).
            self._deadlock(top)
            return
        self._announce("vote.second", players=", ".join(top))
        self._open_vote("second", others, tuple(top))

    def _deadlock(self, tied: list[str]) -> None:
        """Rulebook §4 [house]: the k tied draw from k chests; k−1 deadlock shields; the empty chest is banished."""
        assert self.table
        self.table.deadlock = list(tied)
        self._announce("deadlock.start", players=", ".join(tied), count=len(tied))
        empty = self._draw(tied)
        for n in tied:
            if n != empty:
                self._emit(GiveItem(frozenset({n}), Item.DEADLOCK_SHIELD, None))
                self._announce("deadlock.shield", player=n)
        self._announce("deadlock.empty", player=empty)
        self._banish(empty)

    def _banish(self, name: str) -> None:
        """Rulebook §4: the banished reveals Faithful or Traitor, unless five or fewer remain or in the finale."""
        assert self.table
        table = self.table
        p = self.players[name]
        p.alive = False
        p.publicly_out = True
        p.out = "banished"
        p.out_day = self.day
        self._record_out(name)
        table.banished = name
        self._announce("banish.result", player=name)
        self._emit(Eliminated(name, "banished"))
        reveal = not table.finale and len(table.present) > self.settings.no_reveal_from
        if reveal:
            table.revealed = p.allegiance.value
            self._emit(Revealed(name, p.allegiance))
            self._announce("banish.reveal", player=name, allegiance=p.allegiance.title)
        else:
            self._announce("banish.no_reveal", player=name)
        self._emit(TakeItem(Item.DEADLOCK_SHIELD, None))
        self._move([name], Place.GATE)
        living = self._living()
        if table.finale or len(living) <= self.settings.finalists:
            if len(living) <= 2:
                self._announce("finale.two_left")
                self._end_series(Termination.TWO_LEFT)
                return
            if not table.finale:
                self._announce("phase.finale")
            self._open_torches()
            return
        self._begin_night()

    # ------------------------------------------------------------------ the finale (rulebook §9)

    def _open_torches(self) -> None:
        finalists = self._living()
        self.torches = {n: None for n in finalists}
        self._move(finalists, Place.FINALE_AREA)
        for n in finalists:
            self._emit(GiveItem(frozenset({n}), Item.BANISH_TORCH, None))
            self._emit(GiveItem(frozenset({n}), Item.END_TORCH, None))
        self._clock(Phase.TORCHES, "torches", "clock.torches")
        for n in finalists:
            self._emit(
                Prompt(
                    frozenset({n}),
                    msg("finale.torch.prompt"),
                    tuple(Choice(t.title, ChooseTorch(n, t)) for t in Torch),
                )
            )

    def _apply_torch(self, action: ChooseTorch) -> None:
        self.torches[action.finalist] = action.torch
        self._whisper([action.finalist], "finale.torch.chosen", torch=action.torch.title)

    def _lock_torches(self) -> None:
        """The host locks the torches: reveal, then end on agreement or banish again (rulebook §9)."""
        finalists = list(self.torches)
        for item in (Item.BANISH_TORCH, Item.END_TORCH):
            self._emit(TakeItem(item, tuple(finalists)))
        ends = 0
        for n in finalists:
            t = self.torches[n]
            if t is None:
                self._announce("finale.torch.none", player=n)
            else:
                self._announce("finale.torch.reveal", player=n, torch=t.title)
                ends += t is Torch.END_GAME
        others = len(finalists) - ends
        count = f"{max(ends, others)}-{min(ends, others)}"
        self.record.events.append(
            TorchRound({n: (t.value if t else None) for n, t in self.torches.items()}, count)
        )
        self.torches = {}
        if ends == len(finalists):
            self._announce("finale.agreed")
            self._end_series(Termination.FINALE_AGREED)
            return
        self._announce("finale.banish_again")
        self.table = RoundTableRecord(day=self.day, present=finalists, finale=True)
        self.record.events.append(self.table)
        self.revote_used = False
        self._move(finalists, Place.ROUND_TABLE)
        self._open_vote("first", tuple(finalists), tuple(finalists))

    # ------------------------------------------------------------------ the end

    def _record_out(self, name: str) -> None:
        p = self.players[name]
        for c in self.record.contestants:
            if c.name == name:
                c.out = p.out
                c.out_day = p.out_day

    def _end_series(self, termination: Termination) -> None:
        """Rulebook §9: if any Traitor reaches the end the Traitors win; otherwise the surviving Faithful."""
        traitors = self._living_traitors()
        if traitors:
            winner, winners = Winner.TRAITORS, traitors
        else:
            winner, winners = Winner.FAITHFUL, self._living_faithful()
        self.outcome = Outcome(winner, termination, tuple(winners))
        self.record.winner = winner.value
        self.record.termination = termination.value
        for c in self.record.contestants:
            c.winner = c.name in winners
        self.phase = Phase.OVER
        self.deadline = None
        self.ballot = None
        if winners:
            self._announce("series.over", winner=winner.title, winners=", ".join(winners))
        else:
            self._announce("series.over.nobody", winner=winner.title)
        self._emit(ShowTitle(msg("title.series_over", winner=winner.title)))
        self._emit(SeriesOver(self.outcome))


def _most_picked(picks: list[str], draw: Callable[[Sequence[str]], str]) -> str:
    counts = Counter(picks)
    best = max(counts.values())
    tied = [k for k, v in counts.items() if v == best]
    return tied[0] if len(tied) == 1 else draw(tied)


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
    }


__all__ = ["Ballot", "Game", "NightState", "PlayerState", "RULESET", "WorldState"]
