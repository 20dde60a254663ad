"""The night-resolution core shared by every ruleset: block, protect/heal, attack/shot, poison, explosion,
mining and its first visitor, checks' visits, and team kills decided by a leader.

Every ruleset states *what* its roles do as data (a night order of ``Visit`` kinds with flags) and calls these
primitives to settle the night; none re-implements a mechanic another has (``docs/rulesets.md``: one
night-resolution core). The Traitors' murder settlement (rulebook §7.5: murder shield, The Guardian, The
Survivor's alert; an ultimatum ignores them) is ``settle_attack``; Black Knights and Mafia & Yakuza settle a whole
night with ``resolve``.

House rules of this file (written as in ``docs/rules/mafia-yakuza.md`` "The night", shared by both club
rulesets):

1. "Visit" = any night action that targets a contestant. Visitors are ordered by their step in the ruleset's
   night order (``rank``), ties by seat. A blocked contestant does not visit (``blocked``).
2. A heal saves its target from every attack (shot) of that night; a heal that ``cures_poison`` also removes a
   poison in the body. A heal never saves from an explosion or a mine.
3. Poison: poisoned on night n, the contestant dies at the end of night n + ``delay`` unless cured first;
   being poisoned again while poisoned changes nothing. A block does not stop a poison already in the body.
4. A mine lasts until it goes off or is de-mined. The first visitor of a mined contestant (other than the one
   who laid it) sets it off: the mined contestant dies and takes that visitor with them, unless the visitor is
   ``mine_immune``; a visitor who ``demines`` and comes first removes it instead and nobody dies. The roles act
   in turn (Mafia & Yakuza MY4, "виконують свої дії за чергою"): a mine laid tonight goes off only on a visit
   made after it was laid, later in the night order (a later step, or a later seat of the same step).
5. Deaths are final for the night: a contestant killed by several causes is reported with the first one, in
   the order mine, explosion, shot, poison.

Everything here is pure: plain values in, a new value out; nothing is mutated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

BLOCK = "block"
HEAL = "heal"
SHOT = "shot"
POISON = "poison"
EXPLODE = "explode"
MINE = "mine"
CHECK = "check"

KINDS: tuple[str, ...] = (BLOCK, HEAL, SHOT, POISON, EXPLODE, MINE, CHECK)
"""Every kind of visit the core knows."""


@dataclass(frozen=True, slots=True)
class Visit:
    """One night action that targets a contestant.

    Args:
        actor: who acts (for a team kill: the member whose choice was applied).
        kind: one of ``KINDS``.
        target: the contestant visited.
        rank: the step of the ruleset's night order (0 = first); orders visitors.
        seat: the actor's seat (1-based), breaking ties within a step.
        cures_poison: a heal that also removes poison (the Doctor; not the Shaman).
        demines: a visitor who de-mines the contestant (the Commissar; not the Priest).
        mine_immune: a visitor a mine never takes along (commissars, K).
    """

    actor: str
    kind: str
    target: str
    rank: int
    seat: int
    cures_poison: bool = False
    demines: bool = False
    mine_immune: bool = False


@dataclass(frozen=True, slots=True)
class NightOutcome:
    """What the night did.

    Attributes:
        deaths: contestant → cause (``"mine"``, ``"explosion"``, ``"shot"``, ``"poison"``), in the order settled.
        saved: contestants a heal saved from a shot tonight.
        cured: contestants whose poison a heal removed tonight.
        mines: the mines left after tonight.
        poisons: poisoned contestant → night poisoned, after tonight.
        mine_events: ``(mined, first visitor, "demined" | "exploded")`` per mine visited tonight.
    """

    deaths: dict[str, str] = field(default_factory=dict)
    saved: tuple[str, ...] = ()
    cured: tuple[str, ...] = ()
    mines: frozenset[str] = frozenset()
    poisons: Mapping[str, int] = field(default_factory=dict)
    mine_events: tuple[tuple[str, str, str], ...] = ()


def blocked(blocks: Iterable[Visit]) -> frozenset[str]:
    """The contestants blocked tonight: every target of a ``BLOCK`` visit (house rule 1).

    Args:
        blocks: tonight's block visits (a blocker acts first, so it is never blocked itself).
    """
    return frozenset(v.target for v in blocks if v.kind == BLOCK)


def team_choice(picks: Mapping[str, str | None], leader: str | None) -> tuple[str, str] | None:
    """A team kill: unanimous picks stand; otherwise the leader's pick is final ("when in doubt the Grey
    Cardinal's choice is final", Black Knights; the Don / the Oyabun decides, Mafia & Yakuza).

    Args:
        picks: member → target, ``None`` for a member who passed.
        leader: the member whose choice decides (``None``: no leader took part).

    Returns:
        ``(target, deciding member)``, or ``None`` when nobody picked (or the leader passed on a split).
    """
    chosen = {m: t for m, t in picks.items() if t is not None}
    if not chosen:
        return None
    targets = set(chosen.values())
    if len(targets) == 1:
        member = leader if leader in chosen else next(iter(chosen))
        return next(iter(targets)), member
    if leader is not None and leader in chosen:
        return chosen[leader], leader
    return None


def settle_attack(pierces: bool, protections: Sequence[tuple[str, bool]]) -> str | None:
    """One attack against one contestant: the first protection that holds stops it, unless it pierces.

    Args:
        pierces: the attack ignores every protection (an explosion; the Traitors' ultimatum, rulebook §7.5).
        protections: ``(name, holds)`` in the order they are tried (Traitors: murder shield, The Guardian,
            The Survivor's alert; clubs: ``("heal", healed)``).

    Returns:
        The name of the protection that stopped the attack, or ``None`` when the target dies.
    """
    if pierces:
        return None
    for name, holds in protections:
        if holds:
            return name
    return None


def resolve(
    visits: Sequence[Visit],
    *,
    night: int,
    mines: Iterable[str] = (),
    poisons: Mapping[str, int] | None = None,
    delay: int = 2,
    alive: Iterable[str] | None = None,
) -> NightOutcome:
    """Settle a night all at once (house rules 1–5).

    Args:
        visits: tonight's visits by contestants who were not blocked, any order (sorted here by rank, seat).
        night: tonight's number (poison bookkeeping).
        mines: contestants mined before tonight (tonight's ``MINE`` visits are added).
        poisons: contestant → night poisoned, before tonight (tonight's ``POISON`` visits are added).
        delay: nights a poison takes: poisoned on night n → dies at the end of night n + ``delay``.
        alive: contestants alive at the start of the night (default: everyone named); only they can die.

    Returns:
        The ``NightOutcome``.
    """
    order = sorted(visits, key=_wake_order)
    deaths = _Deaths(alive)
    live_mines, mine_events = _set_off_mines(order, mines, deaths)
    for v in order:
        if v.kind == EXPLODE:
            deaths.die(v.target, "explosion")
    saved = _shots(order, deaths)
    body, cured = _poisons(order, poisons or {}, night, delay, deaths)
    for t in list(body):
        if t in deaths.causes or (body[t] + delay <= night):
            del body[t]
    for t in list(live_mines):
        if t in deaths.causes:
            live_mines.discard(t)
    return NightOutcome(
        deaths=deaths.causes,
        saved=tuple(s for s in saved if s not in deaths.causes),
        cured=tuple(cured),
        mines=frozenset(live_mines),
        poisons=body,
        mine_events=tuple(mine_events),
    )


def _wake_order(v: Visit) -> tuple[int, int]:
    """Visits are settled in wake order: by step, then by seat (house rule 1)."""
    return v.rank, v.seat


class _Deaths:
    """Tonight's deaths so far: contestant → cause, the first cause only; only the living can die."""

    def __init__(self, alive: Iterable[str] | None) -> None:
        self.living = None if alive is None else set(alive)
        self.causes: dict[str, str] = {}

    def die(self, name: str, cause: str) -> None:
        if name not in self.causes and (self.living is None or name in self.living):
            self.causes[name] = cause


def _set_off_mines(
    order: Sequence[Visit], mines: Iterable[str], deaths: _Deaths
) -> tuple[set[str], list[tuple[str, str, str]]]:
    """Each mine (old or laid tonight) is set off or cleared by its first visitor (not its layer, not the mined);
    a mine laid tonight only by a visit after the laying one in wake order (house rule 4).

    Returns:
        The mines still live, and ``(mined, visitor, "demined" | "exploded")`` for each mine visited.
    """
    old = set(mines)
    laid: dict[str, Visit] = {}
    for v in order:
        if v.kind == MINE and v.target not in old:
            laid.setdefault(v.target, v)
    live_mines = old | set(laid)
    mine_events: list[tuple[str, str, str]] = []
    for mined in sorted(live_mines):
        layer = laid.get(mined)
        visitors = [
            v
            for v in order
            if v.target == mined
            and v.actor != mined
            and v.kind != MINE
            and (layer is None or _wake_order(v) > _wake_order(layer))
        ]
        if not visitors:
            continue
        first = visitors[0]
        live_mines.discard(mined)
        if first.demines:
            mine_events.append((mined, first.actor, "demined"))
            continue
        mine_events.append((mined, first.actor, "exploded"))
        deaths.die(mined, "mine")
        if not first.mine_immune:
            deaths.die(first.actor, "mine")
    return live_mines, mine_events


def _shots(order: Sequence[Visit], deaths: _Deaths) -> list[str]:
    """Every shot kills unless its target was healed tonight. Returns the saved, in the order first saved."""
    healed = {v.target for v in order if v.kind == HEAL}
    saved: list[str] = []
    for v in order:
        if v.kind != SHOT:
            continue
        if settle_attack(False, [("heal", v.target in healed)]) is None:
            deaths.die(v.target, "shot")
        elif v.target not in saved:
            saved.append(v.target)
    return saved


def _poisons(
    order: Sequence[Visit], before: Mapping[str, int], night: int, delay: int, deaths: _Deaths
) -> tuple[dict[str, int], list[str]]:
    """Tonight's poisons join the body, a curing heal removes one, and a poison ``delay`` nights old kills.

    Returns:
        Contestant → night poisoned (still in the body, the dead too), and the cured (sorted).
    """
    cures = {v.target for v in order if v.kind == HEAL and v.cures_poison}
    body = dict(before)
    for v in order:
        if v.kind == POISON and v.target not in body:
            body[v.target] = night
    cured = sorted(t for t in cures if t in body)
    for t in cured:
        del body[t]
    for t, when in sorted(body.items()):
        if when + delay <= night:
            deaths.die(t, "poison")
    return body, cured


__all__ = [
    "BLOCK",
    "CHECK",
    "EXPLODE",
    "HEAL",
    "KINDS",
    "MINE",
    "NightOutcome",
    "POISON",
    "SHOT",
    "Visit",
    "blocked",
    "resolve",
    "settle_attack",
    "team_choice",
]
