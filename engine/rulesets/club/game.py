"""The club game: one state machine for the two mafia rulesets (Black Knights, Mafia & Yakuza).

A club ruleset is data (``ClubRules``: roles, teams, the night's wake order as ``Step`` values, who knows whom,
the check answers, the win check, the default deal) plus this one ``ClubGame``. The night is settled by the
shared core (``engine.core.night``: block, heal, shot, poison, explosion, mine, team kills), the same core that
settles the Traitors' murder. ``docs/rulesets.md`` says what is data and what is code.

The game is split by stage: ``settings`` (the rules as data, the settings), ``state`` (the fields), ``night`` and
``day`` (functions over the state: the steps of play), and this module: the public interface and the two tables of
rules, ``INPUTS`` (each input type's row, ``engine.core.inputs.InputRule``: its phase, check and choices, read by
both ``legal_actions`` and the validation) and ``PHASES`` (the phase graph, ``engine.core.phasegraph``: what ends
each phase and where it leads).
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
from functools import partial
from typing import Any

from engine.actions import (
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
from engine.core.host import HOST_CONTROLS
from engine.core.inputs import CONTESTANT, HOST, SERVER, InputRule, Lister
from engine.core.phasegraph import PhaseGraph
from engine.core.step import fed_log
from engine.effects import Effect, GiveItem, ShowTitle, msg
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Item
from engine.outcome import Termination, Winner
from engine.record import ContestantRecord
from engine.rulesets.club import day, night
from engine.rulesets.club.settings import (
    CLUB_DURATIONS,
    KEEP,
    ClubNode,
    ClubPhase,
    ClubRules,
    ClubSettings,
    ClubStage,
    Role,
    Step,
    faction_members,
)
from engine.rulesets.club.state import ClubBallot, ClubDayRecord, ClubNightRecord, ClubPlayer, ClubState
from engine.views import LazyView, OutEntry, PlayerView, PublicView, ViewPart

PHASES: PhaseGraph[ClubState, ClubNode] = PhaseGraph(
    {
        # A phase: what the end of its clock (or the host's Advance) does.
        ClubPhase.NIGHT: night.close_step,
        ClubPhase.MORNING: day.after_morning,
        ClubPhase.SPEECH: day.close_speech,
        ClubPhase.DISCUSSION: day.close_speech,
        ClubPhase.VOTE: day.close_vote,
        ClubPhase.LAST_WORD: day.after_last_word,
        ClubPhase.REPEAT: day.close_repeat,
        # A stage between phases.
        ClubStage.NIGHT: night.begin_night,
    }
)
"""The club phase graph (``engine.core.phasegraph``; ``docs/design.md`` "The phase graph"): every phase and
stage with its step."""


def _follow(game: ClubState, applied: Callable[[], ClubNode | None]) -> None:
    """Apply an accepted input and follow the phase graph from the node it leads to (``PHASES``)."""
    PHASES.run(game, applied())


class ClubGame(ClubState):
    """One series of a club ruleset (``RULES``). The common game interface of ``engine.rulesets``
    (``engine.core.ruleset.RulesetGame``).

    Args:
        settings: the series settings (``ClubSettings``), validated here against ``RULES``.
        seed: the seed of the series' one random generator (a secret).

    Raises:
        ConfigError: the settings are invalid.
    """

    PHASES = PHASES
    """The phase graph: what the end of each phase's clock does (``engine.core.step``)."""

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
        for lister in LISTERS[self.phase]:
            out += lister(self, player)
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
            OutEntry(q.name, q.out or "", q.out_day or 0, q.revealed) for q in self.players.values() if q.publicly_out
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
        """Check ``action`` against its rule (``rule_of``) and return the function that applies it (mutates
        nothing).

        Raises:
            InvalidCommand: not an input of this ruleset, or an unknown contestant.
            IllegalAction: the rules forbid it now.
        """
        rule = rule_of(type(action))
        if rule is None:
            raise InvalidCommand("invalid.action.kind", kind=action.kind)
        if rule.by is CONTESTANT:
            actor = action.actor
            if actor is None or actor not in self.players:
                raise InvalidCommand("illegal.unknown_player", player=str(actor))
            if not self.players[actor].alive:
                raise IllegalAction("illegal.out")
            if self.phase not in rule.phases:
                raise IllegalAction(rule.closed or "illegal.phase")
        applied = rule.check(self, action)
        assert applied is not None  # every club check returns its application
        return partial(_follow, self, applied)

    def _refuse_target(self, actor: str, target: str) -> None:
        if target not in self.players:
            raise IllegalAction("illegal.unknown_player", player=target)
        if not self.players[target].alive:
            raise IllegalAction("illegal.power.target", target=target)
        if target == actor:
            raise IllegalAction("illegal.power.self")
        last = self.last_target.get((actor, self.current_step().name))
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
                ContestantRecord(
                    name=name, seat=seat, allegiance=self.rules.roles[role].team, power=self.role_title(role)
                )
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
        night.begin_night(self)

    def _presence(self, name: str, here: bool) -> ClubNode | None:
        self.players[name].present = here
        self.whisper(self.hosts, "presence.returned" if here else "presence.left", player=name)
        if here:
            self.whisper([name], "presence.welcome_back")
        elif self.phase is ClubPhase.VOTE and self.ballot is not None and day.all_voted(self):
            return day.close_vote(self)
        return None

    # ------------------------------------------------------------------ what the host controls ask (engine.core.host)

    def _tell_hand(self, contestant: str) -> None:
        """The seat's new player learns the role (and the team it knows) privately, as the contestant knows it."""
        p = self.players[contestant]
        px = self.rules.prefix
        self.whisper(
            [contestant], "club.replace.hand", contestant=contestant, seat=str(p.seat), role=msg(f"{px}.role.{p.role}")
        )
        night.tell_team(self, contestant)

    def _reprompt(self, only: list[str] | None) -> None:
        """Prompt again what is open now (a night step, a speech, the vote, the repeat ask), for ``only`` or all."""
        for name in self.players if only is None else only:
            if self.players[name].present:
                REPROMPT.get(self.phase or ClubPhase.OVER, _no_prompt)(self, name)

    def _end_by_host(self) -> None:
        day.end_series(self, Winner.NOBODY, (), Termination.HOST_ENDED)


# ---------------------------------------------------------------------------------------------- rules as tables
_Apply = Callable[[], ClubNode | None]
"""What a check returns: the function that applies the input and returns the node of ``PHASES`` that follows."""

# Each input type's row: the phase it is taken in, the refusal outside it, its check (which returns the function
# applying it) and, for a contestant's input, the choices ``legal_actions`` lists. The checks run after the
# contestant is known and alive (``ClubGame._validate``).


def _check_pick(game: ClubGame, action: UsePower | SkipPower) -> _Apply:
    actor = action.contestant
    if actor not in game.pending:
        raise IllegalAction("illegal.power.none")
    if isinstance(action, SkipPower):
        return partial(night.apply_pick, game, actor, None)
    if actor in game.blocked:
        raise IllegalAction("illegal.club.blocked")
    if action.second is not None:
        raise IllegalAction("illegal.power.targets", count="1")
    if action.target not in night.targets(game, actor):
        game._refuse_target(actor, action.target)
    return partial(night.apply_pick, game, actor, action.target)


def _offer_uses(game: ClubGame, player: str) -> list[Action]:
    awake = player in game.pending and player not in game.blocked
    return [UsePower(player, t) for t in night.targets(game, player)] if awake else []


def _offer_skip(game: ClubGame, player: str) -> list[Action]:
    return [SkipPower(player)] if player in game.pending else []


def _check_speech(game: ClubGame, action: NominateCandidate | HoldBack) -> _Apply:
    actor = action.contestant
    if game.speaker != actor or not game.settings.day_execution:
        raise IllegalAction("illegal.club.not_your_turn")
    if isinstance(action, HoldBack):
        return partial(day.apply_nomination, game, actor, None)
    if action.target not in day.nominees(game, actor):
        raise IllegalAction("illegal.club.nominee", target=action.target)
    return partial(day.apply_nomination, game, actor, action.target)


def _speaking(game: ClubGame, player: str) -> bool:
    return game.speaker == player and game.settings.day_execution


def _offer_nominations(game: ClubGame, player: str) -> list[Action]:
    return [NominateCandidate(player, t) for t in day.nominees(game, player)] if _speaking(game, player) else []


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


def _check_vote(game: ClubGame, action: CastVote) -> _Apply:
    voter = action.actor
    b = _ballot_for(game, voter)
    if action.target == voter:
        raise IllegalAction("illegal.vote.self")
    if action.target not in b.options or action.target == KEEP:
        raise IllegalAction("illegal.vote.target", target=action.target)
    return partial(day.apply_vote, game, voter, action.target)


def _check_keep(game: ClubGame, action: KeepEveryone) -> _Apply:
    b = _ballot_for(game, action.actor)
    if KEEP not in b.options:
        raise IllegalAction("illegal.club.no_keep")
    return partial(day.apply_vote, game, action.actor, KEEP)


def _open_ballot(game: ClubGame, player: str) -> ClubBallot | None:
    b = game.ballot
    return b if b and player in b.voters and player not in b.votes else None


def _offer_votes(game: ClubGame, player: str) -> list[Action]:
    b = _open_ballot(game, player)
    return [CastVote(player, c) for c in b.options if c not in (player, KEEP)] if b else []


def _offer_keep(game: ClubGame, player: str) -> list[Action]:
    b = _open_ballot(game, player)
    return [KeepEveryone(player)] if b and KEEP in b.options else []


def _check_repeat(game: ClubGame, action: AskRepeat) -> _Apply:
    actor = action.contestant
    if actor not in day.repeat_voters(game):
        raise IllegalAction("illegal.vote.not_eligible")
    if actor in game.repeat_asks:
        raise IllegalAction("illegal.vote.twice")
    return partial(day.apply_repeat, game, actor, action.ask)


def _offer_repeat(game: ClubGame, player: str) -> list[Action]:
    if player in day.repeat_voters(game) and player not in game.repeat_asks:
        return [AskRepeat(player, True), AskRepeat(player, False)]
    return []


def _check_advance(game: ClubGame, action: Advance) -> _Apply:
    if action.host not in game.hosts:
        raise IllegalAction("illegal.not_host")

    def advance() -> ClubNode | None:  # the record keeps who pressed which button (engine.core.host house rule 6)
        game.log_host_action(action.host, "advance", action.button or "")
        return game.phase  # the phase ends as if its clock ran out

    return advance


def _check_presence(game: ClubGame, action: ContestantLeft | ContestantReturned) -> _Apply:
    p = game.players.get(action.contestant)
    if p is None:
        raise InvalidCommand("illegal.unknown_player", player=action.contestant)
    leaving = isinstance(action, ContestantLeft)
    if leaving != p.present:
        raise IllegalAction("illegal.presence.away" if leaving else "illegal.presence.here", player=p.name)
    return partial(game._presence, p.name, not leaving)


def _check_host_control(game: ClubGame, action: Action) -> _Apply:
    return game.check_host_action(action)  # engine.core.host


EVERY_PHASE = frozenset(ClubPhase) - {ClubPhase.OVER}


def _in(phase: ClubPhase, check: Callable[[Any, Any], _Apply], closed: str, lister: Lister) -> InputRule:
    """A contestant's input taken in ``phase`` only (refused outside it with ``closed``)."""
    return InputRule(CONTESTANT, frozenset({phase}), check, lister=lister, closed=closed)


INPUTS: dict[type[Action], InputRule] = {
    Advance: InputRule(HOST, EVERY_PHASE, _check_advance),
    ContestantLeft: InputRule(SERVER, EVERY_PHASE, _check_presence),
    ContestantReturned: InputRule(SERVER, EVERY_PHASE, _check_presence),
    UsePower: _in(ClubPhase.NIGHT, _check_pick, "illegal.power.closed", _offer_uses),
    SkipPower: _in(ClubPhase.NIGHT, _check_pick, "illegal.power.closed", _offer_skip),
    NominateCandidate: _in(ClubPhase.SPEECH, _check_speech, "illegal.club.not_your_turn", _offer_nominations),
    HoldBack: _in(ClubPhase.SPEECH, _check_speech, "illegal.club.not_your_turn", _offer_hold_back),
    CastVote: _in(ClubPhase.VOTE, _check_vote, "illegal.vote.not_open", _offer_votes),
    KeepEveryone: _in(ClubPhase.VOTE, _check_keep, "illegal.vote.not_open", _offer_keep),
    AskRepeat: _in(ClubPhase.REPEAT, _check_repeat, "illegal.club.no_repeat", _offer_repeat),
}
"""Every input a club series takes, by type, but the host controls (``HOST_CONTROL``; ``StartSeries`` and
``TimerExpired`` are ``engine.core.step``'s): the shared row shape (``engine.core.inputs.InputRule``), each check
returning the function that applies the input."""

HOST_CONTROL = InputRule(HOST, EVERY_PHASE, _check_host_control)
"""The rule of every host control (``engine.core.host.HOST_CONTROLS``, one registered later included): a host's
input in any phase, checked and applied by its spec."""


def rule_of(cls: type[Action]) -> InputRule | None:
    """The rule of an input type: its ``INPUTS`` row, ``HOST_CONTROL`` for a host control, else ``None``."""
    rule = INPUTS.get(cls)
    return HOST_CONTROL if rule is None and cls in HOST_CONTROLS else rule


LISTERS: dict[ClubPhase, tuple[Lister, ...]] = {
    phase: tuple(r.lister for r in INPUTS.values() if r.lister is not None and phase in r.phases) for phase in ClubPhase
}
"""The listers of the contestants' inputs of each phase, in the order ``legal_actions`` lists their choices."""


def _reprompt_night(game: ClubGame, name: str) -> None:
    if name in game.pending:
        night.prompt_step(game, name, game.current_step())


def _reprompt_speech(game: ClubGame, name: str) -> None:
    if _speaking(game, name):
        day.prompt_nominate(game, name)


def _reprompt_vote(game: ClubGame, name: str) -> None:
    b = _open_ballot(game, name)
    if b is not None:
        day.prompt_vote(game, name, b.options)


def _reprompt_repeat(game: ClubGame, name: str) -> None:
    if _offer_repeat(game, name):
        day.prompt_repeat(game, name)


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
    "HOST_CONTROL",
    "INPUTS",
    "KEEP",
    "LISTERS",
    "PHASES",
    "ClubBallot",
    "ClubDayRecord",
    "ClubGame",
    "ClubNightRecord",
    "ClubPhase",
    "ClubPlayer",
    "ClubRules",
    "ClubSettings",
    "Role",
    "Step",
    "faction_members",
    "rule_of",
]
