"""Host controls (docs/host.md): pause, resume, extend, replace a contestant's player, undo, end.

Pause, resume and extend change only the phase clock: each gives the clock a new sequence number, so a timer
armed for the old deadline is stale (ignored). A replacement changes who plays a seat, never the seat's name:
inputs are translated from the player to the contestant on the way in, recipients from the contestant to the
player on the way out (``as_contestant``, ``to_players``). An undo rebuilds the series by replay without the
undone input and reconciles the castle (``Game.apply_undo``).

Every function takes the series (``engine.rulesets.traitors.context.Table``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from engine.actions import (
    Action,
    EndSeries,
    ExtendPhase,
    PauseClock,
    ReplaceContestant,
    ResumeClock,
    UndoHostAction,
)
from engine.effects import (
    ClockChanged,
    Effect,
    Eliminated,
    GiveItem,
    MoveTo,
    Prompt,
    ShowTitle,
    TakeItem,
    Whisper,
)
from engine.errors import IllegalAction, InvalidCommand
from engine.ids import Allegiance, Power
from engine.messages_terms import power_term
from engine.outcome import Termination
from engine.rulesets.traitors import finale, night, round_table
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import NAME_RE, same_player

MAX_EXTENSION = 3600
"""The most seconds one ``ExtendPhase`` may add."""
UNDOABLE = frozenset({"advance", "pause_clock", "resume_clock", "extend_phase"})
"""Host inputs ``UndoHostAction`` can take back (docs/host.md): a replacement cannot (the new player already
knows the hand: replace again instead), nor can the end of the series (the service has stopped)."""
ACTOR_FIELDS = ("voter", "traitor", "contestant", "finalist")
"""Fields of an input that name the contestant acting (translated from a stand-in player's name)."""


def check_host(game: Table, action: Action) -> None:
    """Raise ``IllegalAction`` (``illegal.not_host``) unless ``action`` comes from a host."""
    if action.actor not in game.hosts:
        raise IllegalAction("illegal.not_host")


def check_pause(game: Table, action: PauseClock) -> None:
    """A host may pause a running phase clock."""
    check_host(game, action)
    if game.deadline is None:
        raise IllegalAction("illegal.clock.not_running")


def check_resume(game: Table, action: ResumeClock) -> None:
    """A host may resume a paused phase clock."""
    check_host(game, action)
    if game.paused is None:
        raise IllegalAction("illegal.clock.not_paused")


def check_extend(game: Table, action: ExtendPhase) -> None:
    """A host may add 1 to ``MAX_EXTENSION`` seconds to a running or paused phase clock."""
    check_host(game, action)
    if not 1 <= action.seconds <= MAX_EXTENSION:
        raise IllegalAction("illegal.clock.seconds", seconds=str(action.seconds))
    if game.deadline is None and game.paused is None:
        raise IllegalAction("illegal.clock.not_running")


def check_replace(game: Table, action: ReplaceContestant) -> None:
    """A host may give a living contestant's seat to a player who is not in the series (or back to its own)."""
    check_host(game, action)
    p = game.players.get(action.contestant)
    if p is None:
        raise InvalidCommand("illegal.unknown_player", player=action.contestant)
    if not p.alive:
        raise IllegalAction("illegal.replace.out", contestant=action.contestant)
    new = action.player
    taken = {game.player_of(n) for n in game.players} | set(game.players) | set(game.hosts)
    same = same_player(new, taken) if NAME_RE.match(new) else new
    if same is not None and same != new:  # Minecraft takes them for one player
        raise IllegalAction("illegal.replace.case", player=new, other=same)
    if same == new and not (new == action.contestant and action.contestant in game.stand_ins):
        raise IllegalAction("illegal.replace.player", player=new)


def check_undo(game: Table, action: UndoHostAction) -> None:
    """A host may take back the last input if it is ``UNDOABLE``."""
    check_host(game, action)
    last = game.log[-1] if game.log else None
    if last is None or last.get("action") not in UNDOABLE:
        raise IllegalAction("illegal.undo.nothing")


def apply_undo(game: Table, action: UndoHostAction) -> None:
    """Take back the last input (``Game.apply_undo``)."""
    game.apply_undo(str(action.actor))


def host_logged(game: Table, host: str, kind: str, detail: str = "") -> None:
    """Rulebook-silent [house]: every host action but moving on is kept in the record with who and when."""
    game.record.host_actions.append({
        "host": host, "action": kind, "at": game.now, "day": game.day,
        "phase": game.phase.value if game.phase is not None else None, "detail": detail, "undone": False,
    })  # fmt: skip


def clock_changed(game: Table) -> None:
    """Tell the castle the phase clock changed (a new sequence number: older timers are stale)."""
    game.phase_seq += 1
    remaining = game.paused if game.paused is not None else max(0.0, (game.deadline or game.now) - game.now)
    game.emit(ClockChanged(game.phase_seq, game.deadline, remaining))


def apply_pause(game: Table, action: PauseClock) -> None:
    """Stop the phase clock, keeping the seconds left."""
    host = str(action.actor)
    assert game.deadline is not None
    game.paused = max(0.0, game.deadline - game.now)
    game.deadline = None
    host_logged(game, host, "pause_clock", f"{game.paused:.0f} s left")
    game.announce("host.paused")
    clock_changed(game)


def apply_resume(game: Table, action: ResumeClock) -> None:
    """Run the phase clock again with the seconds it had left."""
    host = str(action.actor)
    assert game.paused is not None
    left, game.paused = game.paused, None
    game.deadline = game.now + left
    host_logged(game, host, "resume_clock", f"{left:.0f} s left")
    game.announce("host.resumed", seconds=f"{left:.0f}")
    clock_changed(game)


def apply_extend(game: Table, action: ExtendPhase) -> None:
    """Add ``action.seconds`` to the phase clock (running or paused)."""
    host, seconds = str(action.actor), action.seconds
    if game.paused is not None:
        game.paused += seconds
    else:
        assert game.deadline is not None
        game.deadline += seconds
    host_logged(game, host, "extend_phase", f"+{seconds} s")
    game.announce("host.extended", seconds=str(seconds))
    clock_changed(game)


def apply_replace(game: Table, action: ReplaceContestant) -> None:
    """A new player plays the seat: they learn the hand privately and are prompted again (docs/host.md)."""
    contestant, player, host = action.contestant, action.player, str(action.actor)
    if player == contestant:
        game.stand_ins.pop(contestant, None)
    else:
        game.stand_ins[contestant] = player
    p = game.players[contestant]
    p.present = True
    host_logged(game, host, "replace_contestant", f"{player} for {contestant}")
    game.announce("host.replaced", player=player, contestant=contestant, seat=str(p.seat))
    # The new player learns the hand privately, as the contestant knows it (a drunk power as the plain power,
    # rulebook §2): the Whisper names the contestant and goes out to the player who plays the seat now.
    seat = str(p.seat)
    if p.allegiance is Allegiance.TRAITOR and p.sworn:
        game.whisper([contestant], "replace.hand.traitor", contestant=contestant, seat=seat,
                      power=power_term(p.power.title if p.power else "none"),
                      false_power=power_term(p.false_power.title if p.false_power else "none"),
                      traitors=", ".join(game.living_traitors()))  # fmt: skip
    elif p.allegiance is Allegiance.TRAITOR:
        game.whisper([contestant], "replace.hand.traitor.unsworn", contestant=contestant, seat=seat)
    else:
        power = Power.JOKER if contestant in game.powers.jokers else game.active_power(contestant)
        game.whisper([contestant], "replace.hand.faithful", contestant=contestant, seat=seat,
                      power=power_term(power.title if power else "none"))  # fmt: skip
    # Re-prompt what the seat has to answer now (the old player's dialogs went to the old player).
    reprompt(game, [contestant])


def apply_end(game: Table, action: EndSeries) -> None:
    """The host ends the series: no winner."""
    host = str(action.actor)
    host_logged(game, host, "end_series")
    game.announce("host.ended")
    game.end_series(Termination.HOST_ENDED, nobody=True)


def reprompt(game: Table, only: list[str] | None) -> None:
    """Prompt again what is open now (the vote, the Oath question, the offer, the torches), for ``only`` or all.

    Turret, power and host-visit prompts are not repeated: their choices stay in the chat fallback.
    """
    def wanted(n: str) -> bool:
        return only is None or n in only

    b = game.ballot
    if game.phase is Phase.VOTE and b is not None:
        for v in b.voters:
            if v not in b.votes and wanted(v) and game.players[v].present:
                round_table.prompt_vote(game, v)
    elif game.phase is Phase.OATH and game.night and game.night.oath_queue and wanted(game.night.oath_queue[0]):
        night.ask_oath(game)
    elif game.phase is Phase.OFFER and game.night and game.night.offer and wanted(game.night.offer[1]):
        night.prompt_offer(game)
    elif game.phase is Phase.TORCHES:
        for n in game.torches:
            if wanted(n):
                finale.prompt_torch(game, n)


def as_contestant(game: Table, action: Action) -> Action:
    """A stand-in's input as the seat's contestant's; a replaced player's input is refused."""
    if not game.stand_ins:
        return action
    changes: dict[str, str] = {}
    for name in ACTOR_FIELDS:
        value = getattr(action, name, None)
        if not isinstance(value, str) or isinstance(action, ReplaceContestant):
            continue
        contestant = game.contestant_of(value)
        if contestant is None and value in game.stand_ins:
            raise IllegalAction("illegal.replaced")
        if contestant is not None and contestant != value:
            changes[name] = contestant
    return dataclasses.replace(action, **changes) if changes else action


Seated = Callable[[str], str]
"""Contestant → the player who plays the seat now (``Game.player_of``)."""


def _to(e: Any, who: Seated) -> Effect:
    renamed: Effect = e if e.to is None else dataclasses.replace(e, to=frozenset([who(n) for n in e.to]))
    return renamed


def _players(e: Any, who: Seated) -> Effect:
    renamed: Effect = e if e.players is None else dataclasses.replace(e, players=tuple([who(n) for n in e.players]))
    return renamed


ADDRESSED: dict[type[Effect], Callable[[Any, Seated], Effect]] = {
    Whisper: _to, Prompt: _to, GiveItem: _to, ShowTitle: _to, Eliminated: _to, MoveTo: _players, TakeItem: _players,
}
"""The effects that name contestants as recipients (``to``) or movers (``players``), and how to rename them; a
``None`` means everyone and stays."""


def to_players(game: Table, effects: list[Effect]) -> list[Effect]:
    """Recipients and movers named as the players who play the seats now (``ADDRESSED``)."""
    who = game.player_of
    out: list[Effect] = []
    for e in effects:
        rename = ADDRESSED.get(type(e))
        out.append(e if rename is None else rename(e, who))
    return out
