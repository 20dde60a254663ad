"""The finale (rulebook §9): each finalist holds up a torch; when the host locks them, agreement ends the
series, otherwise the finalists banish again.

Every function takes the series (``engine.rulesets.traitors.context.Table``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    ChooseTorch,
)
from engine.effects import (
    Prompt,
    choice,
    give,
    msg,
    take,
)
from engine.errors import IllegalAction
from engine.ids import TORCHES, Item, Place, Torch
from engine.outcome import Termination
from engine.record import RoundTableRecord, TorchRound
from engine.rulesets.traitors import round_table
from engine.rulesets.traitors.choices import (
    torch_inputs,
)
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.phases import Phase
from engine.terms import term


def open_torches(game: Table) -> None:
    """Rulebook §9: the finalists go to the finale area, each with a banish torch and an end-game torch."""
    finalists = game.living()
    game.torches = dict.fromkeys(finalists)
    game.move(finalists, Place.FINALE_AREA)
    for n in finalists:
        game.emit(give(n, Item.BANISH_TORCH), give(n, Item.END_TORCH))
    game.start_clock(Phase.TORCHES, "torches", "clock.torches")
    for n in finalists:
        prompt_torch(game, n)


def prompt_torch(game: Table, finalist: str) -> None:
    """Ask ``finalist`` to hold up a torch."""
    game.emit(
        Prompt(
            frozenset({finalist}),
            msg("finale.torch.prompt"),
            tuple([choice(t.title, ChooseTorch, finalist, t) for t in TORCHES]),
        )
    )


def apply_torch(game: Table, action: ChooseTorch) -> None:
    """The finalist holds up ``action.torch`` (it can be changed until the torches are locked)."""
    game.torches[action.actor] = action.torch
    game.whisper([action.actor], "finale.torch.chosen", torch=term(f"term.torch.{action.torch.value}"))


def lock_torches(game: Table) -> None:
    """The host locks the torches: reveal, then end on agreement or banish again (rulebook §9)."""
    finalists = list(game.torches)
    for item in (Item.BANISH_TORCH, Item.END_TORCH):
        game.emit(take(item, tuple(finalists)))
    ends = 0
    for n in finalists:
        t = game.torches[n]
        if t is None:
            game.announce("finale.torch.none", player=n)
        else:
            game.announce("finale.torch.reveal", player=n, torch=term(f"term.torch.{t.value}"))
            ends += t is Torch.END_GAME
    others = len(finalists) - ends
    count = f"{max(ends, others)}-{min(ends, others)}"
    game.record.events.append(
        TorchRound({n: (t.value if t else None) for n, t in game.torches.items()}, count)
    )
    game.torches = {}
    if ends == len(finalists):
        game.announce("finale.agreed")
        game.end_series(Termination.FINALE_AGREED)
        return
    game.announce("finale.banish_again")
    game.table = RoundTableRecord(day=game.day, present=finalists, finale=True)
    game.record.events.append(game.table)
    game.revote_used = False
    game.move(finalists, Place.ROUND_TABLE)
    round_table.open_vote(game, "first", tuple(finalists), tuple(finalists))


def check_torch(game: Table, action: ChooseTorch) -> None:
    """A finalist holds up a torch while the torches are open (rulebook §9)."""
    if game.phase is not Phase.TORCHES:
        raise IllegalAction("illegal.torch.closed")
    if action.actor not in game.torches:
        raise IllegalAction("illegal.torch.not_finalist")


def list_torches(game: Table, player: str) -> Sequence[Action]:
    """Every torch but the one held, for a finalist."""
    if player in game.torches:
        return torch_inputs(player, game.torches[player])
    return ()
