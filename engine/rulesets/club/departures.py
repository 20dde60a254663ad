"""Contestants leaving a club series: the card that is turned and the role that passes on.

Black Knights, "Day" [rule]: a contestant who died at night has their card turned in the morning; one sent away
by the day's vote has it turned before their last word. The card is the one dealt at the start: an Heir who
became the Lord (rulebook "Night" step 5: "When the Lord leaves the game the Heir becomes the Lord") still holds
the Heir's card, so the table sees "Heir" when it is turned, and at the end of the series.

[house] Everyone who dies in one night leaves at once, and only then does a role pass on, to a successor still
alive: when the Lord and the Heir die the same night, the Heir never becomes the Lord (no promotion, no private
message), and each of them has their own card turned in the morning.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rulesets.club.state import ClubPlayer, ClubState


def card(player: ClubPlayer) -> str:
    """The role code on ``player``'s card: the role dealt, whatever role they hold now."""
    return player.dealt


def remove(game: ClubState, names: Sequence[str], how: str, when: int) -> None:
    """``names`` leave the game together; then each role of theirs with a successor passes on.

    Args:
        game: the series.
        names: the contestants leaving (those killed in one night, or the one sent away by day), in the order
            their deaths were settled.
        how: ``"killed"`` (at night), ``"left"`` (Black Knights' vote) or ``"expelled"`` (Mafia & Yakuza's vote).
        when: the night (``killed``) or the day (otherwise).
    """
    gone = [game.players[n] for n in names]
    for p in gone:
        p.alive = False
        p.out, p.out_day = how, when
    for c in game.record.contestants:
        if c.name in names:
            c.out, c.out_day = how, when
    for p in gone:
        successor = game.rules.successors.get(p.role)
        if successor is None or any(q.alive and q.role == p.role for q in game.players.values()):
            continue
        heirs = [q for q in game.players.values() if q.alive and q.role == successor]
        if heirs:
            heir = heirs[0]
            heir.role = p.role
            game.promoted.append(heir.name)
            game.whisper([heir.name], f"{game.rules.prefix}.promoted.{p.role}")


__all__ = ["card", "remove"]
