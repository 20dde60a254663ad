"""The finale vote (rulebook §9 and §10 "Finale Torches"): each finalist votes banish again or end game; each vote
gives the host a torch for that finalist, which turns red (banish again) or green (end game) when placed. A vote
can be changed until the vote is locked; before locking, the host asks whether everybody is happy with their
decision. On agreement the series ends, otherwise the finalists banish again.

House rules of this file:

1. Each vote gives every host one torch in the finalist's name (``GiveItem`` with the finalist as label): the
   banish-again torch (``Item.BANISH_TORCH``) or the end-game torch (``Item.END_TORCH``). A changed vote replaces
   the finalist's torch: the host's torches of the old kind are taken back and the other finalists' given again,
   so the host holds exactly one torch per finalist who has voted. Voting the same again changes nothing. A
   series without a host hands out no torch; the announcements at the lock are the result either way.
2. The host keeps the torches after the lock, to place them where everyone sees them (the reveal); the next
   finale vote takes them back before it opens.
3. The question ("Is everybody happy with their decision?", ``AskHappy``) is asked to everyone, and every
   finalist is asked again (a prompt with both choices: choosing their vote again keeps it). It gives the
   finalists ``torch_question`` seconds (``Settings.durations``) before the clock locks the vote.
4. The lock waits for the question: when the clock runs out, or the host moves on or locks, before the
   question was asked, the question is asked then (in the host's words) and the lock follows at the end of
   its clock, or when the host locks.

Every function takes the series (``engine.rulesets.traitors.context.Table``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.actions import (
    Action,
    AskHappy,
    ChooseTorch,
)
from engine.effects import (
    GiveItem,
    Prompt,
    choice,
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
from engine.rulesets.traitors.phases import Node, Phase
from engine.terms import term

TORCH_ITEMS: dict[Torch, Item] = {Torch.BANISH_AGAIN: Item.BANISH_TORCH, Torch.END_GAME: Item.END_TORCH}
"""A finalist's vote → the torch it gives the host (red when placed: banish again; green: end game)."""


def open_torches(game: Table) -> None:
    """Rulebook §9: the finalists go to the finale area and vote; the host is told how the torches come."""
    finalists = game.living()
    round_table.return_jokers(game, "joker.returned.finale")  # nobody enters the finale a Joker (T6.3, T9.2)
    game.torches = dict.fromkeys(finalists)
    game.torches_asked = False
    game.move(finalists, Place.FINALE_AREA)
    hosts = tuple(sorted(game.hosts))
    if hosts:
        if any(isinstance(e, TorchRound) for e in game.record.events):  # house rule 2: the last vote's torches
            game.emit(take(Item.BANISH_TORCH, hosts), take(Item.END_TORCH, hosts))
        game.whisper(hosts, "finale.torch.host")
    game.start_clock(Phase.TORCHES, "torches", "clock.torches")
    for n in finalists:
        prompt_torch(game, n)


def prompt_torch(game: Table, finalist: str) -> None:
    """Ask ``finalist`` to vote banish again or end game (after the host's question, the question itself)."""
    game.emit(
        Prompt(
            frozenset({finalist}),
            msg("finale.happy.prompt" if game.torches_asked else "finale.torch.prompt"),
            tuple([choice(t.title, ChooseTorch, finalist, t) for t in TORCHES]),
        )
    )


def apply_torch(game: Table, action: ChooseTorch) -> None:
    """The finalist votes ``action.torch`` (it can be changed until the vote is locked); the host's torch for
    them follows the vote (house rule 1)."""
    finalist, vote = action.actor, action.torch
    old = game.torches[finalist]
    game.torches[finalist] = vote
    game.whisper([finalist], "finale.torch.chosen", torch=term(f"term.torch.{vote.value}"))
    hosts = frozenset(game.hosts)
    if vote is old or not hosts:
        return
    if old is not None:
        kind = TORCH_ITEMS[old]
        game.emit(take(kind, tuple(sorted(hosts))))
        game.emit(*[GiveItem(hosts, kind, n) for n, t in game.torches.items() if t is old])
    game.emit(GiveItem(hosts, TORCH_ITEMS[vote], finalist))


def check_ask(game: Table, action: AskHappy) -> None:
    """Only a host, and only while the finale vote is open.

    Raises:
        IllegalAction: not a host (``illegal.not_host``), or no finale vote open (``illegal.phase``).
    """
    if action.actor not in game.hosts:
        raise IllegalAction("illegal.not_host")
    if game.phase is not Phase.TORCHES:
        raise IllegalAction("illegal.phase")


def apply_ask(game: Table, action: AskHappy) -> None:
    """The host asks whether everybody is happy with their decision (house rule 3); the record keeps who asked."""
    game.log_host_action(action.host, "ask_happy")
    ask_happy(game)


def ask_happy(game: Table) -> None:
    """House rule 3: the question to everyone, every finalist asked again, the question's clock."""
    game.torches_asked = True
    game.announce("finale.happy")
    game.start_clock(Phase.TORCHES, "torch_question", "clock.torch_question")
    for n in game.torches:
        prompt_torch(game, n)


def torches_clock(game: Table) -> Node | None:
    """The finale vote's clock ran out, or the host moved on or locked: the lock, once the question has been
    asked; else the question first (house rule 4)."""
    if game.torches_asked:
        return lock_torches(game)
    ask_happy(game)
    return None


def lock_torches(game: Table) -> Node | None:
    """The vote is locked: reveal, then end on agreement or banish again (rulebook §9)."""
    finalists = list(game.torches)
    game.announce("finale.locked")
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
    game.record.events.append(TorchRound({n: (t.value if t else None) for n, t in game.torches.items()}, count))
    game.torches = {}
    game.torches_asked = False
    if ends == len(finalists):
        game.announce("finale.agreed")
        game.end_series(Termination.FINALE_AGREED)
        return None
    game.announce("finale.banish_again")
    game.table = RoundTableRecord(day=game.day, present=finalists, finale=True)
    game.record.events.append(game.table)
    game.revote_used = False
    game.move(finalists, Place.ROUND_TABLE)
    return round_table.open_vote(game, "first", tuple(finalists), tuple(finalists))


def check_torch(game: Table, action: ChooseTorch) -> None:
    """A finalist votes while the finale vote is open (rulebook §9)."""
    if game.phase is not Phase.TORCHES:
        raise IllegalAction("illegal.torch.closed")
    if action.actor not in game.torches:
        raise IllegalAction("illegal.torch.not_finalist")


def list_torches(game: Table, player: str) -> Sequence[Action]:
    """Both votes, for a finalist: the other changes the vote, the same keeps it (after the host's question, the
    answer "I am happy")."""
    if player in game.torches:
        return torch_inputs(player)
    return ()
