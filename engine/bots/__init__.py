"""Bot contestants: choose legal inputs, for the demo and (later) the balance lab.

A bot sees only what its contestant may know: its ``PlayerView`` and its legal inputs. ``choose`` never
looks at the game state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.actions import Action, CastVote, ChooseEvent, ChooseTorch, NominateDoubleVote
from engine.ids import Torch
from engine.views import PlayerView


def choose(view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action | None:
    """Pick one of ``legal`` for the contestant whose view is ``view``.

    Simple heuristics: a Traitor who knows the other Traitors never votes for one of them while it has
    another choice; a Faithful finalist holds the end-game torch only when the other finalists have all been
    at the table long enough to trust (here: by chance, 60 %); a Traitor finalist always wants to end.

    Args:
        view: the contestant's view (allow-listed).
        legal: ``Game.legal_actions`` for that contestant.
        rng: the bot's own generator (seeded by the caller).

    Returns:
        One action from ``legal``, or ``None`` when ``legal`` is empty.
    """
    if not legal:
        return None
    options = list(legal)
    fellows = set(view.traitors)
    votes = [a for a in options if isinstance(a, CastVote)]
    if votes:
        safe = [a for a in votes if a.target not in fellows] or votes
        return rng.choice(safe)
    torches = [a for a in options if isinstance(a, ChooseTorch)]
    if torches:
        want = Torch.END_GAME if view.allegiance == "traitor" or rng.random() < 0.6 else Torch.BANISH_AGAIN
        pick = [a for a in torches if a.torch is want]
        return pick[0] if pick else None
    events = [a for a in options if isinstance(a, ChooseEvent)]
    if events:
        return rng.choice(events)
    noms = [a for a in options if isinstance(a, NominateDoubleVote)]
    if noms:
        return rng.choice(noms)
    return rng.choice(options)
