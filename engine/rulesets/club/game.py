"""The club game: one state machine for the two mafia rulesets (Black Knights, Mafia & Yakuza).

A club ruleset is data (``ClubRules``: roles, teams, the night's wake order as ``Step`` values, who knows whom,
the check answers, the win check, the default deal) plus this one ``ClubGame``. The night is settled by the
shared core (``engine.core.night``: block, heal, shot, poison, explosion, mine, team kills), the same core that
settles the Traitors' murder. ``docs/rulesets.md`` says what is data and what is code.

The game is split by stage: ``settings`` (the rules as data, the settings), ``state`` (the fields), ``night``,
``day``, and this module: the public interface and the two tables of rules, ``INPUTS`` (each input type's phase,
check and choices, read by both ``legal_actions`` and the validation) and ``ON_CLOCK`` (what ends each phase).
The host controls (pause, resume, extend, replace, undo, end) are ``engine.core.host``'s.

House rules of this file (h11 ``_state.py`` style; each is also a row of ``docs/house-rules.md``):

1. The night follows the wake order: one step at a time, every contestant of that step is prompted at once
   and may choose until the step's clock runs out (no choice: a pass). Every step runs its whole clock, labelled
   "Night", whether anyone is woken in it or not (a role not dealt, dead, blocked, spent, away) and however soon
   its choices come, so the night's public clocks tell nobody who is dead or blocked. Choices are collected;
   the night resolves all at once after the last step. The first night of Black Knights is its introduction
   (``ClubRules.intro``, BK2): one step per active role, in which the host meets its holders privately.
2. A blocked contestant is not woken (Black Knights BK5, Mafia & Yakuza "Block"): at each of their steps they
   are shown "You are not woken tonight." with one button to go back to sleep, in place of the question. They
   choose nothing, take no part in a team kill and see none of its picks; a team kill fails only when every
   member is blocked. Their step runs as it would have (its clock, a dialog for each holder), so the night
   shows nobody else that someone was blocked.
3. A team kill: every member taking part picks; unanimous picks stand, otherwise the leader's pick is final
   (``engine.core.night.team_choice``). The leader is the first of the step's roles still alive and not
   blocked (the Grey Cardinal, the Don, the Oyabun; then the next role, ties by seat). Members see each
   other's picks.
4. Team kills and checks never target the actor; team kills never target a team member. "A new one each
   night" forbids last night's target. A once-per-game action (the Bomber) is spent when used.
5. The vote: every living contestant may vote once; a vote cannot be changed; a voter who has not voted when
   the vote closes casts no vote. The most votes wins; with no votes at all nobody leaves. A tie: a revote
   among the tied options; a second tie: nobody leaves that day.
6. Every death is settled before the win check, which runs after every night (right after the night's
   deaths are announced) and after every day. Nobody alive: nobody wins. A series that reaches
   ``max_days`` without a winner ends with nobody winning.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from engine.actions import (
    HOST_ACTIONS,
    Action,
    Advance,
    AskRepeat,
    CastVote,
    ContestantLeft,
    ContestantReturned,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    SkipPower,
    UsePower,
)
from engine.core.step import fed_log
from engine.effects import Effect, GiveItem, ShowTitle, msg
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Item
from engine.outcome import Termination, Winner
from engine.record import ContestantRecord
from engine.rulesets.club.day import ClubDay
from engine.rulesets.club.settings import (
    CLUB_DURATIONS,
    KEEP,
    ClubPhase,
    ClubRules,
    ClubSettings,
    Role,
    Step,
    faction_members,
)
from engine.rulesets.club.state import ClubBallot, ClubDayRecord, ClubNightRecord, ClubPlayer
from engine.views import LazyView, OutEntry, PlayerView, PublicView, ViewPart


class ClubGame(ClubDay):
    """One series of a club ruleset (``RULES``). The common game interface of ``engine.rulesets``
    (``engine.core.ruleset.RulesetGame``).

    Args:
        settings: the series settings (``ClubSettings``), validated here against ``RULES``.
        seed: the seed of the series' one random generator (a secret).

    Raises:
        ConfigError: the settings are invalid.
    """

    # ------------------------------------------------------------------ the common interface

    def handle(self, action: Action, *, now: float) -> list[Effect]:
        """Apply one input and return its effects (validate first; an illegal input changes nothing).

        Args:
            action: any input of ``engine.actions`` (a contestant's, a host's or the server's).
            now: the current time in seconds (monotonic within a series).

        Returns:
            The effects, in order; a stale or repeated ``TimerExpired`` returns ``[]``.

        Raises:
            InvalidCommand: the action names an unknown contestant or is not an input of this ruleset.
            IllegalAction: the rules forbid it now; the state is unchanged.
        """
        return self._handle(action, now)  # engine.core.host, engine.core.step

    def legal_actions(self, player: str) -> list[Action]:
        """Every input ``player`` (a contestant or host) may send now (one per choice), in a stable order: the
        host's move on, or the choices of ``INPUTS`` open in this phase."""
        out: list[Action] = []
        if self.phase is None or self.phase is ClubPhase.OVER:
            return out
        if player in self.hosts:
            out.append(Advance(player))
        p = self.players.get(player)
        if p is None or not p.alive:
            return out
        for rule in OPEN_IN[self.phase]:
            out += rule.offer(self, player)
        return out

    @classmethod
    def replay(cls, settings: ClubSettings, seed: int, log: Iterable[dict[str, Any]]) -> ClubGame:
        """Rebuild a series from its input log (``log``): the same state, views and record.

        Raises:
            InvalidCommand, IllegalAction: an entry is not an input this series took.
        """
        return fed_log(cls(settings, seed), log)

    @property
    def is_over(self) -> bool:
        """True once the series has ended."""
        return self.phase is ClubPhase.OVER

    def seats(self) -> dict[str, int]:
        """Contestant → seat (public)."""
        return {p.name: p.seat for p in self.players.values()}

    def contestants(self) -> list[str]:
        """Every contestant in seat order."""
        return list(self.players)

    def present(self) -> list[str]:
        """Living contestants whose players are on the server."""
        return [p.name for p in self.players.values() if p.alive and p.present]

    def view_for(self, name: str) -> PlayerView:
        """What contestant ``name`` may know now (``engine.views.PlayerView``, built from an allow-list:
        ``CLUB_VIEW_PARTS``).

        Raises:
            KeyError: ``name`` is not a contestant.
        """
        self.players[name]  # noqa: B018 - the KeyError for a stranger, before any part runs
        return PlayerView(**{f: part(self, name) for f, part in CLUB_VIEW_PARTS.items()})

    def lazy_view(self, name: str) -> LazyView:
        """``view_for``, each field worked out when first read (``engine.views.LazyView``: what the balance lab
        hands a bot).

        Raises:
            KeyError: ``name`` is not a contestant.
        """
        self.players[name]  # noqa: B018 - the KeyError for a stranger, as view_for
        return LazyView(self, name, CLUB_VIEW_PARTS)

    def public_view(self) -> PublicView:
        """What everyone (a spectator too) may know now (``engine.views.PublicView``): the day, the phase, the
        seats, who is out, how and when, and the winners."""
        out = tuple(
            OutEntry(q.name, q.out or "", q.out_day or 0, q.revealed)
            for q in self.players.values()
            if q.publicly_out
        )
        return PublicView(
            day=self.day,
            phase=self.phase.value if self.phase else "not_started",
            seats=tuple((q.name, q.seat) for q in self.players.values()),
            in_castle=tuple(q.name for q in self.players.values() if not q.publicly_out),
            out=out,
            winner=self.outcome.winner.value if self.outcome else None,
            winners=tuple(self.outcome.winners) if self.outcome else (),
        )

    # ------------------------------------------------------------------ validation (the table ``INPUTS``)

    def _validate(self, action: Action) -> Callable[[], None]:
        """Check ``action`` against its row of ``INPUTS`` and return the function that applies it (mutates
        nothing).

        Raises:
            InvalidCommand: not an input of this ruleset, or an unknown contestant.
            IllegalAction: the rules forbid it now.
        """
        rule = INPUTS.get(type(action))
        if rule is None:
            raise InvalidCommand("invalid.action.kind", kind=action.kind)
        if rule.by_contestant:
            actor = action.actor
            if actor is None or actor not in self.players:
                raise InvalidCommand("illegal.unknown_player", player=str(actor))
            if not self.players[actor].alive:
                raise IllegalAction("illegal.out")
            if self.phase is not rule.phase:
                raise IllegalAction(rule.closed)
        return rule.check(self, action)

    def _refuse_target(self, actor: str, target: str) -> None:
        if target not in self.players:
            raise IllegalAction("illegal.unknown_player", player=target)
        if not self.players[target].alive:
            raise IllegalAction("illegal.power.target", target=target)
        if target == actor:
            raise IllegalAction("illegal.power.self")
        last = self.last_target.get((actor, self._step().name))
        if last is not None and last[1] == target:
            raise IllegalAction("illegal.power.repeat", target=target)
        raise IllegalAction("illegal.power.target", target=target)

    def _start(self) -> None:
        self.started = True
        s = self.settings
        if s.deal is not None:
            deal = list(s.deal)
        else:
            n = len(s.contestants)
            roles = list(s.deal_table.get(n) or self.rules.default_deal(n))
            self.rng.shuffle(roles)
            deal = list(zip(s.contestants, roles, strict=True))
        px = self.rules.prefix
        for seat, (name, role) in enumerate(deal, start=1):
            self.players[name] = ClubPlayer(name, seat, role, role)
            self.record.contestants.append(
                ContestantRecord(name=name, seat=seat, allegiance=self.rules.roles[role].team, power=self.role_title(role))
            )
        names = list(self.players)
        self.announce(f"{px}.welcome", count=len(names))
        if self.rules.nominations:  # the day that may end at the gallows (setting day_execution)
            self.announce("bk.day_execution." + ("on" if s.day_execution else "off"))
        for who in names:
            role = self.players[who].role
            self.emit(GiveItem(frozenset({who}), Item.NOTES_BOOK))
            self.emit(ShowTitle(msg(f"{px}.role.{role}"), None, frozenset({who})))
            self.whisper([who], f"{px}.deal.{role}")
        self._begin_night()

    def _presence(self, name: str, here: bool) -> None:
        self.players[name].present = here
        self.whisper(self.hosts, "presence.returned" if here else "presence.left", player=name)
        if here:
            self.whisper([name], "presence.welcome_back")
        elif self.phase is ClubPhase.VOTE and self.ballot is not None and self._all_voted():
            self._close_vote()

    def _on_clock(self) -> None:
        """The phase clock ran out, or the host moved on: the phase's row of ``ON_CLOCK``."""
        assert self.phase is not None
        ON_CLOCK[self.phase](self)

    # ------------------------------------------------------------------ what the host controls ask (engine.core.host)

    def _tell_hand(self, contestant: str) -> None:
        """The seat's new player learns the role (and the team it knows) privately, as the contestant knows it."""
        p = self.players[contestant]
        px = self.rules.prefix
        self.whisper([contestant], "club.replace.hand", contestant=contestant, seat=str(p.seat),
                      role=msg(f"{px}.role.{p.role}"))  # fmt: skip
        self._tell_team(contestant)

    def _reprompt(self, only: list[str] | None) -> None:
        """Prompt again what is open now (a night step, a speech, the vote, the repeat ask), for ``only`` or all."""
        for name in self.players if only is None else only:
            if self.players[name].present:
                REPROMPT.get(self.phase or ClubPhase.OVER, _no_prompt)(self, name)

    def _end_by_host(self) -> None:
        self._end_series(Winner.NOBODY, (), Termination.HOST_ENDED)


# ---------------------------------------------------------------------------------------------- rules as tables
# Each input type's row: the phase it is taken in, the refusal outside it, its check (which returns the function
# applying it) and, for a contestant's input, the choices ``legal_actions`` lists. The checks run after the
# contestant is known and alive (``ClubGame._validate``).


def _check_pick(game: ClubGame, action: UsePower | SkipPower) -> Callable[[], None]:
    actor = action.contestant
    if actor not in game.pending:
        raise IllegalAction("illegal.power.none")
    if isinstance(action, SkipPower):
        return partial(game._apply_pick, actor, None)
    if actor in game.blocked:
        raise IllegalAction("illegal.club.blocked")
    if action.second is not None:
        raise IllegalAction("illegal.power.targets", count="1")
    if action.target not in game._targets(actor):
        game._refuse_target(actor, action.target)
    return partial(game._apply_pick, actor, action.target)


def _offer_uses(game: ClubGame, player: str) -> list[Action]:
    awake = player in game.pending and player not in game.blocked
    return [UsePower(player, t) for t in game._targets(player)] if awake else []


def _offer_skip(game: ClubGame, player: str) -> list[Action]:
    return [SkipPower(player)] if player in game.pending else []


def _check_speech(game: ClubGame, action: NominateCandidate | HoldBack) -> Callable[[], None]:
    actor = action.contestant
    if game.speaker != actor or not game.settings.day_execution:
        raise IllegalAction("illegal.club.not_your_turn")
    if isinstance(action, HoldBack):
        return partial(game._apply_nomination, actor, None)
    if action.target not in game._nominees(actor):
        raise IllegalAction("illegal.club.nominee", target=action.target)
    return partial(game._apply_nomination, actor, action.target)


def _speaking(game: ClubGame, player: str) -> bool:
    return game.speaker == player and game.settings.day_execution


def _offer_nominations(game: ClubGame, player: str) -> list[Action]:
    return [NominateCandidate(player, t) for t in game._nominees(player)] if _speaking(game, player) else []


def _offer_hold_back(game: ClubGame, player: str) -> list[Action]:
    return [HoldBack(player)] if _speaking(game, player) else []


def _ballot_for(game: ClubGame, voter: str) -> ClubBallot:
    """The open ballot ``voter`` may still vote in (house rule 5).

    Raises:
        IllegalAction: no vote is open, ``voter`` may not vote, or has voted.
    """
    b = game.ballot
    if b is None:
        raise IllegalAction("illegal.vote.not_open")
    if voter not in b.voters:
        raise IllegalAction("illegal.vote.not_eligible")
    if voter in b.votes:
        raise IllegalAction("illegal.vote.twice")
    return b


def _check_vote(game: ClubGame, action: CastVote) -> Callable[[], None]:
    voter = action.actor
    b = _ballot_for(game, voter)
    if action.target == voter:
        raise IllegalAction("illegal.vote.self")
    if action.target not in b.options or action.target == KEEP:
        raise IllegalAction("illegal.vote.target", target=action.target)
    return partial(game._apply_vote, voter, action.target)


def _check_keep(game: ClubGame, action: KeepEveryone) -> Callable[[], None]:
    b = _ballot_for(game, action.actor)
    if KEEP not in b.options:
        raise IllegalAction("illegal.club.no_keep")
    return partial(game._apply_vote, action.actor, KEEP)


def _open_ballot(game: ClubGame, player: str) -> ClubBallot | None:
    b = game.ballot
    return b if b and player in b.voters and player not in b.votes else None


def _offer_votes(game: ClubGame, player: str) -> list[Action]:
    b = _open_ballot(game, player)
    return [CastVote(player, c) for c in b.options if c not in (player, KEEP)] if b else []


def _offer_keep(game: ClubGame, player: str) -> list[Action]:
    b = _open_ballot(game, player)
    return [KeepEveryone(player)] if b and KEEP in b.options else []


def _check_repeat(game: ClubGame, action: AskRepeat) -> Callable[[], None]:
    actor = action.contestant
    if actor not in game._repeat_voters():
        raise IllegalAction("illegal.vote.not_eligible")
    if actor in game.repeat_asks:
        raise IllegalAction("illegal.vote.twice")
    return partial(game._apply_repeat, actor, action.ask)


def _offer_repeat(game: ClubGame, player: str) -> list[Action]:
    if player in game._repeat_voters() and player not in game.repeat_asks:
        return [AskRepeat(player, True), AskRepeat(player, False)]
    return []


def _check_advance(game: ClubGame, action: Advance) -> Callable[[], None]:
    if action.host not in game.hosts:
        raise IllegalAction("illegal.not_host")

    def advance() -> None:  # the record keeps who pressed which button (engine.core.host house rule 6)
        game._host_logged(action.host, "advance", action.button or "")
        game._on_clock()

    return advance


def _check_presence(game: ClubGame, action: ContestantLeft | ContestantReturned) -> Callable[[], None]:
    p = game.players.get(action.contestant)
    if p is None:
        raise InvalidCommand("illegal.unknown_player", player=action.contestant)
    leaving = isinstance(action, ContestantLeft)
    if leaving != p.present:
        raise IllegalAction("illegal.presence.away" if leaving else "illegal.presence.here", player=p.name)
    return partial(game._presence, p.name, not leaving)


def _check_host_control(game: ClubGame, action: Action) -> Callable[[], None]:
    return game.check_host_action(action)  # engine.core.host


def _offer_nothing(game: ClubGame, player: str) -> list[Action]:
    return []


@dataclass(frozen=True, slots=True)
class InputRule:
    """How the club game takes one input type.

    Args:
        check: ``(game, input)`` → the function that applies it; raises ``IllegalAction`` or ``InvalidCommand``
            when the rules refuse it (mutates nothing).
        phase: the phase a contestant's input is taken in; ``None``: a host's or the server's input (any phase).
        closed: the refusal's message key outside ``phase``.
        offer: ``(game, player)`` → the inputs of this type ``player`` may send now (``legal_actions``).
    """

    check: Callable[[Any, Any], Callable[[], None]]
    phase: ClubPhase | None = None
    closed: str = "illegal.phase"
    offer: Callable[[ClubGame, str], list[Action]] = _offer_nothing

    @property
    def by_contestant(self) -> bool:
        """A living contestant's input (the actor is checked first)."""
        return self.phase is not None


INPUTS: dict[type[Action], InputRule] = {
    Advance: InputRule(_check_advance),
    ContestantLeft: InputRule(_check_presence),
    ContestantReturned: InputRule(_check_presence),
    **{cls: InputRule(_check_host_control) for cls in HOST_ACTIONS},
    UsePower: InputRule(_check_pick, ClubPhase.NIGHT, "illegal.power.closed", _offer_uses),
    SkipPower: InputRule(_check_pick, ClubPhase.NIGHT, "illegal.power.closed", _offer_skip),
    NominateCandidate: InputRule(_check_speech, ClubPhase.SPEECH, "illegal.club.not_your_turn", _offer_nominations),
    HoldBack: InputRule(_check_speech, ClubPhase.SPEECH, "illegal.club.not_your_turn", _offer_hold_back),
    CastVote: InputRule(_check_vote, ClubPhase.VOTE, "illegal.vote.not_open", _offer_votes),
    KeepEveryone: InputRule(_check_keep, ClubPhase.VOTE, "illegal.vote.not_open", _offer_keep),
    AskRepeat: InputRule(_check_repeat, ClubPhase.REPEAT, "illegal.club.no_repeat", _offer_repeat),
}
"""Every input a club series takes, by type (``StartSeries`` and ``TimerExpired`` are ``engine.core.step``'s)."""

OPEN_IN: dict[ClubPhase, tuple[InputRule, ...]] = {
    phase: tuple(rule for rule in INPUTS.values() if rule.phase is phase) for phase in ClubPhase
}
"""The contestants' inputs of each phase, in the order ``legal_actions`` lists their choices."""

ON_CLOCK: dict[ClubPhase, Callable[[ClubGame], None]] = {
    ClubPhase.NIGHT: ClubGame._close_step,
    ClubPhase.MORNING: ClubGame._after_morning,
    ClubPhase.SPEECH: ClubGame._close_speech,
    ClubPhase.DISCUSSION: ClubGame._close_speech,
    ClubPhase.VOTE: ClubGame._close_vote,
    ClubPhase.LAST_WORD: ClubGame._after_last_word,
    ClubPhase.REPEAT: ClubGame._close_repeat,
}
"""The phase transitions: what the end of each phase's clock (or the host's ``Advance``) does."""


def _reprompt_night(game: ClubGame, name: str) -> None:
    if name in game.pending:
        game._prompt_step(name, game._step())


def _reprompt_speech(game: ClubGame, name: str) -> None:
    if _speaking(game, name):
        game._prompt_nominate(name)


def _reprompt_vote(game: ClubGame, name: str) -> None:
    b = _open_ballot(game, name)
    if b is not None:
        game._prompt_vote(name, b.options)


def _reprompt_repeat(game: ClubGame, name: str) -> None:
    if _offer_repeat(game, name):
        game._prompt_repeat(name)


def _no_prompt(game: ClubGame, name: str) -> None:
    """Nothing to answer in this phase."""


REPROMPT: dict[ClubPhase, Callable[[ClubGame, str], None]] = {
    ClubPhase.NIGHT: _reprompt_night,
    ClubPhase.SPEECH: _reprompt_speech,
    ClubPhase.VOTE: _reprompt_vote,
    ClubPhase.REPEAT: _reprompt_repeat,
}
"""The phases with a question open, and how to ask it again (after an undo or a replacement)."""


CLUB_VIEW_PARTS: dict[str, ViewPart] = {
    "name": lambda game, name: name,
    "public": lambda game, name: game.public_view(),
    "in_series": lambda game, name: game.players[name].alive,
    "allegiance": lambda game, name: game.rules.roles[game.players[name].role].team,
    "power": lambda game, name: game.role_title(game.players[name].role),
    "false_power": lambda game, name: None,
    "traitors": lambda game, name: game.known_to(name),
    "items": lambda game, name: tuple(
        item.value + (f"({label})" if label else "") for item, label in game.items.get(name, [])
    ),
    "messages": lambda game, name: tuple(game.inbox.get(name, [])),
    "can_act": lambda game, name: tuple(sorted({a.kind for a in game.legal_actions(name)})),
    "joker": lambda game, name: False,
    "copied_power": lambda game, name: None,
}
"""``PlayerView`` field → how a club game works it out (``ClubGame.view_for`` and ``lazy_view`` both read it)."""

__all__ = [
    "CLUB_DURATIONS",
    "CLUB_VIEW_PARTS",
    "INPUTS",
    "KEEP",
    "ON_CLOCK",
    "ClubBallot",
    "ClubDayRecord",
    "ClubGame",
    "ClubNightRecord",
    "ClubPhase",
    "ClubPlayer",
    "ClubRules",
    "ClubSettings",
    "InputRule",
    "Role",
    "Step",
    "faction_members",
]
