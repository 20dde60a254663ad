"""Resuming a series after a crash: rebuild the game from the store, number hand-outs, re-sync the castle.

House rules of this file (``docs/recovery.md``):

1. The game is rebuilt by replaying the stored input log through the engine, exactly as ``Game.replay`` does;
   the effects of every replayed input are fed to ``Handouts`` so its numbering is the one used live.
2. Every ``GiveItem`` hand-out gets an id ``"<series tag>/<contestant>/<n>"``: the n-th item the series gave
   that contestant. The id goes into the item's ``custom_data`` and the give only happens if the contestant
   does not hold that id (``commands.give_once``), so a give sent twice (a crash between sending it and
   noting it sent) gives one item. The number counts only the contestant's own items, so it tells them
   nothing about items given to others (a series-wide counter would show gaps for private hand-outs).
3. Re-sync restores what the engine says the castle looks like (``Game.world_state``): every contestant back
   at their last place, every item they (or a host: the finale torches) should hold given once more if missing
   (never twice), the heads at the breakfast table set again (a head already there stays as it is), the phase
   clock's bossbar. It sends no chat: nothing a contestant reads twice. The service first reads the inventory
   of each player who should hold castle items (one short command each) and leaves out the gives of the
   hand-outs it saw there; the rest go through ``give_once`` as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bridge.loop.store import StoredSeries
from bridge.minecraft.core import McCommand
from bridge.minecraft.render import CLOCK_BAR, RenderContext, clock_hidden, clock_update, render, render_give_once
from engine.actions import action_from_dict
from engine.core.ruleset import RulesetGame
from engine.effects import ClockStarted, Effect, GiveItem, Label, MoveTo, PlaceItem, TakeItem
from engine.ids import Item
from engine.rulesets import new_game

StepSeen = Callable[[RulesetGame, Sequence[Effect], float], None]
"""Called with the game after each replayed input, the input's effects and its time (``rebuild``)."""


@dataclass(slots=True)
class Handouts:
    """Numbers every item the series gives and keeps what each contestant holds, with the hand-out ids.

    Args:
        tag: the series tag (``StoredSeries.tag``).
    """

    tag: str
    counts: dict[str, int] = field(default_factory=dict)
    """Contestant → how many items the series has given them."""
    held: dict[str, list[tuple[Item, Label, str]]] = field(default_factory=dict)
    """Contestant → ``(item, label, hand-out id)`` they should hold, in the order given."""

    def feed(self, effects: Iterable[Effect]) -> list[dict[str, str] | None]:
        """Number the gives among ``effects`` (in order) and apply gives and takes to ``held``.

        Returns:
            One entry per effect: recipient → hand-out id for a ``GiveItem``, ``None`` otherwise.
        """
        out: list[dict[str, str] | None] = []
        for e in effects:
            if isinstance(e, GiveItem):
                ids: dict[str, str] = {}
                for name in sorted(e.to):
                    n = self.counts.get(name, 0) + 1
                    self.counts[name] = n
                    ids[name] = f"{self.tag}/{name}/{n}"
                    self.held.setdefault(name, []).append((e.item, e.label, ids[name]))
                out.append(ids)
                continue
            if isinstance(e, TakeItem):
                for name in e.players if e.players is not None else list(self.held):
                    self.held[name] = [h for h in self.held.get(name, []) if h[0] is not e.item]
            out.append(None)
        return out


@dataclass(slots=True)
class Rebuilt:
    """A series rebuilt from the store.

    Attributes:
        game: the game after the last stored input.
        handouts: the hand-out numbering after the last stored input.
        clock: the last ``ClockStarted`` effect (its label and length show the bossbar), or ``None``.
    """

    game: RulesetGame
    handouts: Handouts
    clock: ClockStarted | None


def rebuild(series: StoredSeries, on_step: StepSeen | None = None) -> Rebuilt:
    """Replay the stored log through the engine (house rule 1).

    Args:
        series: the stored series.
        on_step: called after each replayed input with the game, the input's effects and its time (seconds of
            the engine's clock); the spectator page's feed is rebuilt so (``bridge/web/hub.py``).

    Raises:
        InvalidCommand, IllegalAction: the log does not fit the stored settings and seed (a damaged store).
    """
    game = new_game(series.settings, series.seed)
    handouts = Handouts(series.tag)
    clock: ClockStarted | None = None
    for entry in series.log:
        data: dict[str, Any] = dict(entry)
        now = float(data.pop("now"))
        effects = game.handle(action_from_dict(data), now=now)
        handouts.feed(effects)
        if on_step is not None:
            on_step(game, effects, now)
        for e in effects:
            if isinstance(e, ClockStarted):
                clock = e
    return Rebuilt(game, handouts, clock)


def _seats(game: RulesetGame, players: Iterable[str] | None) -> list[tuple[str, str]]:
    """``(contestant, player)`` per seat re-synced, then ``(host, host)`` per host: everyone, or only ``players``.

    A replaced contestant's seat is played by another player (``Game.player_of``): they get the seat's place
    and the items handed out to the seat so far. A host has no place, but may hold items (the finale torches).
    """
    seats = [(c, game.player_of(c)) for c in game.contestants()] + [(h, h) for h in sorted(game.hosts)]
    if players is not None:
        wanted = set(players)
        seats = [(c, p) for c, p in seats if p in wanted]
    return seats


def items_to_hold(rebuilt: Rebuilt, players: Iterable[str] | None = None) -> dict[str, list[tuple[Item, Label, str]]]:
    """The castle items each re-synced player should hold (house rule 3).

    Args:
        rebuilt: the game and its hand-outs.
        players: only these players (``None``: every contestant's player and every host).

    Returns:
        Player → ``(item, label, hand-out id)`` in the order given; players who should hold nothing are left out.
    """
    out: dict[str, list[tuple[Item, Label, str]]] = {}
    for contestant, name in _seats(rebuilt.game, players):
        held = rebuilt.handouts.held.get(name, []) or rebuilt.handouts.held.get(contestant, [])
        if held:
            out[name] = list(held)
    return out


def resync_commands(
    rebuilt: Rebuilt,
    ctx: RenderContext,
    now: float,
    *,
    players: Iterable[str] | None = None,
    holding: Mapping[str, Collection[str]] | None = None,
) -> list[McCommand]:
    """The commands that put the castle back the way the engine left it (house rule 3).

    Args:
        rebuilt: the game and its hand-outs.
        ctx: castle coordinates and seating.
        now: the current time (the engine's clock), for the bossbar's remaining seconds.
        players: only these contestants' places and items, and no bossbar or heads (a returning contestant);
            ``None``: everyone, the heads at the breakfast table and the bossbar.
        holding: player → hand-out ids the server just showed in their inventory (``data get entity <name>
            Inventory``, ``commands.held_give_ids``). Those items are held, so their gives are left out; every
            other item still goes through ``give_once``, which also looks in the slots the inventory read does
            not show (off hand, armour, cursor, crafting grid, ender chest). ``None``: no read was made.

    Returns:
        Teleports to each contestant's last place, a ``give_once`` per item they (or a host) should hold (and
        were not just seen holding), a ``setblock`` per head at the breakfast table, then the clock bossbar
        (shown with the remaining seconds while a phase clock runs, hidden otherwise).
    """
    game = rebuilt.game
    state = game.world_state()
    out: list[McCommand] = []
    for _, name in _seats(game, players):
        if name in state.places:
            place, seat = state.places[name]
            out += render(MoveTo((name,), place, (seat,) if seat is not None else ()), ctx)
    for name, held in items_to_hold(rebuilt, players).items():
        seen = holding.get(name, ()) if holding is not None else ()
        for item, label, gid in held:
            if gid not in seen:
                out += render_give_once(GiveItem(frozenset({name}), item, label), {name: gid})
    if players is not None:
        return out
    for (place, seat), (item, label) in sorted(state.placed.items(), key=lambda kv: (kv[0][0].value, kv[0][1])):
        out += render(PlaceItem(item, place, seat, label), ctx)
    clock = rebuilt.clock
    if clock is not None and state.deadline is not None and not game.is_over:
        out += [c for c in render(clock, ctx) if not c.text.startswith(f"bossbar set {CLOCK_BAR} value")]
        out.append(clock_update(max(0.0, math.ceil(state.deadline - now))))
    else:
        out.append(clock_hidden())
    return out


__all__ = ["Handouts", "Rebuilt", "items_to_hold", "rebuild", "resync_commands"]
