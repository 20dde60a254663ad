"""The Traitors' side of the host controls (docs/host.md): what the shared controls of ``engine.core.host`` ask
of the ruleset (the hand a new player learns, the prompts asked again), and the host check of moving on.

Every function takes the series (``engine.rulesets.traitors.context.Table``).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.errors import IllegalAction
from engine.ids import Allegiance, Power
from engine.rulesets.traitors import finale, night, round_table
from engine.rulesets.traitors.context import Table
from engine.rulesets.traitors.phases import Phase
from engine.terms import power_term


def check_host(game: Table, action: Action) -> None:
    """Raise ``IllegalAction`` (``illegal.not_host``) unless ``action`` comes from a host."""
    if action.actor not in game.hosts:
        raise IllegalAction("illegal.not_host")


def check_control(game: Table, action: Action) -> Callable[[], None]:
    """A host control's check (``engine.core.host``): raises if it is illegal now, else returns its application."""
    return game.check_host_action(action)


def tell_hand(game: Table, contestant: str) -> None:
    """Tell the seat's new player, privately, the hand as the contestant knows it (a drunk power as the plain
    power, rulebook §2): the Whisper names the contestant and goes out to the player who plays the seat now."""
    p = game.players[contestant]
    seat = str(p.seat)
    if p.allegiance is Allegiance.TRAITOR and p.sworn:
        game.whisper(
            [contestant],
            "replace.hand.traitor",
            contestant=contestant,
            seat=seat,
            power=power_term(p.power.title if p.power else "none"),
            false_power=power_term(p.false_power.title if p.false_power else "none"),
            traitors=", ".join(game.living_traitors()),
        )
    elif p.allegiance is Allegiance.TRAITOR:
        game.whisper([contestant], "replace.hand.traitor.unsworn", contestant=contestant, seat=seat)
    else:
        power = Power.JOKER if contestant in game.powers.jokers else game.active_power(contestant)
        game.whisper(
            [contestant],
            "replace.hand.faithful",
            contestant=contestant,
            seat=seat,
            power=power_term(power.title if power else "none"),
        )


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
    elif game.phase is Phase.OATH and game.night and game.night.oath_taking and wanted(game.night.oath_queue[0]):
        night.ask_oath(game)
    elif game.phase is Phase.OFFER and game.night and game.night.offer and wanted(game.night.offer[1]):
        night.prompt_offer(game)
    elif game.phase is Phase.TORCHES:
        for n in game.torches:
            if wanted(n):
                finale.prompt_torch(game, n)


__all__ = ["check_control", "check_host", "reprompt", "tell_hand"]
