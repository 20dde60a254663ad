"""The morning's news of a club night beyond its dead (setting ``morning_news``).

Mafia & Yakuza, "Game flow" [rule]: "the host announces the dead and whatever else of the night affects this
day and next night". [house] What else affects them, of what the night core tracks (``engine.core.night``):

- a poison in a living contestant's body: they die at the end of night n + delay unless the Doctor heals them
  first; said every morning while it lasts, with the night it kills;
- a poison announced on an earlier morning that a heal removed tonight;
- a mine on a living contestant: the first to visit them at night sets it off; said every morning while it lasts;
- a mine announced on an earlier morning that a visit cleared tonight;
- the once-per-game bomb spent tonight: no more explosions.

A poison or a mine laid and settled in the same night changed nothing the table knew and is not told (it would
only show whom the Doctor healed). The news never names who acted, nor any role, nor a role's title (a cure is
"the poison is cured", not "the Doctor heals").

``morning_news``: ``"named"`` (default: the host names the poisoned and the mined contestant, so a doctor can
heal and the table can keep away), ``"unnamed"`` (the same news without the names), ``"dead_only"`` (only the
dead are announced; ``engine.rulesets.club.settings.MORNING_NEWS``).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.night import EXPLODE, NightOutcome
from engine.rulesets.club.state import ClubState


def news(game: ClubState, outcome: NightOutcome) -> list[tuple[str, dict[str, object]]]:
    """What the host says in the morning after the dead: ``(message key, params)`` in the order said.

    Called once the night is settled and before ``game`` takes in its outcome (``game.poisons`` and
    ``game.mines`` still say what earlier mornings told).

    Args:
        game: the club series (``game.settings.morning_news``; the keys are ``<prefix>.news.*``).
        outcome: tonight's ``NightOutcome``.

    Returns:
        Nothing when the setting is ``"dead_only"``; otherwise, in this order: poisons cured, poisons that last
        (soonest first), mines cleared, mines that last, the bomb spent.
    """
    mode, prefix, delay = game.settings.morning_news, game.rules.prefix, game.rules.poison_delay
    poisons_before, visits = game.poisons, game.visits
    living = [n for n in game.living() if n not in outcome.deaths]
    if mode == "dead_only":
        return []
    named = mode == "named"
    seat = {n: i for i, n in enumerate(living)}
    mined_before = set(game.mines)

    def said(what: str, who: str, **params: object) -> tuple[str, dict[str, object]]:
        if named:
            return f"{prefix}.news.{what}", {"player": who, **params}
        return f"{prefix}.news.{what}.unnamed", dict(params)

    def in_seat_order(names: Iterable[str]) -> list[str]:
        return sorted((n for n in names if n in seat), key=lambda n: seat[n])

    out = [said("cured", n) for n in in_seat_order(outcome.cured) if n in poisons_before]
    for n in sorted(in_seat_order(outcome.poisons), key=lambda n: outcome.poisons[n]):
        out.append(said("poisoned", n, night=outcome.poisons[n] + delay))
    cleared = [m for m, _by, how in outcome.mine_events if how == "demined" and m in mined_before]
    out += [said("demined", n) for n in in_seat_order(cleared)]
    out += [said("mined", n) for n in in_seat_order(outcome.mines)]
    if any(v.kind == EXPLODE for v in visits):
        out.append((f"{prefix}.news.bomb_spent", {}))
    return out


__all__ = ["news"]
