"""The host's reference sheets beside the grimoire: the vote history (every round table so far) and the night
order of the ruleset being played (``docs/host.md``, "The web grimoire").

House rules of this file:

1. Host only, like ``bridge/web/grimoire.py``: both sheets name hands (who holds which power or role, who voted
   whom). The spectator feed never imports this.
2. The vote history is read from the series' record (``engine.record``), which the engine keeps live: a round
   is there once its vote has closed; the vote still open is the grimoire's ``vote`` part.
3. The night order is generated from each ruleset's own data (``NIGHT_SHEETS``, keyed by the game family of the
   series' ruleset, ``engine.core.ruleset.Ruleset.family``): The Traitors' ``NIGHT_ORDER`` and ``POWERS``, read
   from its registry entry (``Ruleset.powers``), a club ruleset's wake order (``ClubRules.steps``). A family
   without a row has no sheet.
4. Pure: no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.night import BLOCK, CHECK, EXPLODE, HEAL, MINE, POISON, SHOT
from engine.core.ruleset import RulesetGame
from engine.ids import Power
from engine.record import ClubDayRecord, RoundTableRecord, VoteRound
from engine.rulesets import RULESETS, family

__all__ = ["NIGHT_SHEETS", "night_sheet", "vote_history"]

# ---------------------------------------------------------------------------------------------- vote history


def _round(r: VoteRound) -> dict[str, Any]:
    """One vote round: every paper (``None``: "No vote"), the tally (a double vote counts 2) and who tied on top."""
    tally: Counter[str] = Counter()
    for voter, target in r.votes.items():
        if target is not None:
            tally[target] += r.weights.get(voter, 1)
    top = max(tally.values(), default=0)
    return {
        "kind": r.kind,
        "papers": [[v, t, r.weights.get(v, 1)] for v, t in r.votes.items()],
        "tally": dict(tally.most_common()),
        "tied": sorted(n for n, c in tally.items() if c == top) if top else [],
        "count": r.count,
    }


def _round_table(e: RoundTableRecord) -> dict[str, Any]:
    result = f"{e.banished} banished" if e.banished else "no banishment yet"
    if e.banished and e.revealed:
        result += f" ({e.revealed})"
    notes = [
        text
        for text, shown in (
            (f"double vote: {e.double_vote}", e.double_vote),
            (f"silenced: {', '.join(e.silenced)}", e.silenced),
            (f"accused by the Sheriff: {e.accused} ({e.accusation})", e.accused),
            (f"protected by the Judge: {e.protected}", e.protected and e.protection_used),
            (f"deadlock chests: {', '.join(e.deadlock or [])}", e.deadlock),
        )
        if shown
    ]
    return {
        "day": e.day,
        "title": f"{'Finale' if e.finale else 'Round table'}, day {e.day}",
        "nominations": {},
        "rounds": [_round(r) for r in e.rounds],
        "result": result,
        "notes": notes,
    }


def _club_day(e: ClubDayRecord) -> dict[str, Any]:
    return {
        "day": e.day,
        "title": f"Day {e.day}",
        "nominations": dict(e.nominations),
        "rounds": [_round(r) for r in e.rounds],
        "result": f"{e.left} left" if e.left else "nobody left" if e.rounds else "no vote yet",
        "notes": ["repeat vote asked for"] if e.repeat else [],
    }


def vote_history(game: RulesetGame) -> list[dict[str, Any]]:
    """Every round table of the series so far, oldest first (house rule 2).

    Returns:
        ``[{"day", "title", "nominations": {nominator: nominee or None}, "rounds": [{"kind", "papers": [[voter,
        target or None, weight]], "tally": {name: votes}, "tied": [names on top, more than one is a tie],
        "count"}], "result", "notes": [lines]}]``.
    """
    tables: list[dict[str, Any]] = []
    for e in game.record.events:
        if isinstance(e, RoundTableRecord):
            tables.append(_round_table(e))
        elif isinstance(e, ClubDayRecord):
            tables.append(_club_day(e))
    return tables


# ---------------------------------------------------------------------------------------------- night order


def _rule(spec: Any) -> str:
    """The first sentence of a power's rule (``spec``, a power's ``Power``: its ``rule``'s "Rule: …" paragraph), on
    one line."""
    paragraphs = spec.rule.split("\n\n")
    text = " ".join(paragraphs[1].replace("``", "").split()) if len(paragraphs) > 1 else ""
    text = text.split(":", 1)[1].strip() if text.startswith("Rule") and ":" in text else text
    end = text.find(". ")
    return text[: end + 1] if end >= 0 else text


def _row(step: str, who: list[str], what: str) -> dict[str, Any]:
    return {"step": step, "who": who, "what": what}


def _traitors_sheet(game: Any) -> list[dict[str, Any]]:
    """Rulebook §7 in the engine's order: the Oath, the Turret, the Traitor powers, the offer, the host's visits
    (``VISIT_ORDER``), then every use resolves in ``NIGHT_ORDER``; only the powers dealt to a living contestant.
    The power tables are the ruleset's entry's (``Ruleset.powers``)."""
    tables = RULESETS[game.ruleset].powers
    powers = tables.POWERS
    living = [n for n, p in game.players.items() if p.alive]
    holders: dict[Power, list[str]] = {}
    for name in living:
        p = game.players[name]
        if p.power is not None:
            holders.setdefault(p.power, []).append(name + (" (drunk)" if p.drunk else ""))
    traitors = [n for n in living if game.players[n].allegiance.value == "traitor"]
    rows = [
        _row(
            "The Oath",
            [n for n in traitors if not game.players[n].sworn],
            "a Traitor not yet sworn answers the Oath's three questions",
        ),
        _row(
            "The Turret",
            [n for n in traitors if game.players[n].sworn],
            "the sworn Traitors choose the night's event (murder, seduction, ultimatum) and nominate for the double vote",
        ),
    ]
    rows += [
        _row(p.title, holders[p], _rule(powers[p])) for p in powers if powers[p].stage == tables.TURRET and p in holders
    ]
    rows.append(_row("The offer", [], "a seduced contestant (or one given the ultimatum) answers at home"))
    rows += [_row(p.title, holders[p], _rule(powers[p])) for p in tables.VISIT_ORDER if p in holders]
    steps = {tables.MURDER: "the murder", tables.GUESS: "the guess"}
    order = [
        s.title if isinstance(s, Power) else steps.get(s, s)
        for s in tables.NIGHT_ORDER
        if not isinstance(s, Power) or s in holders
    ]
    rows.append(_row("Resolution", [], " → ".join(order)))
    rows.append(_row("Breakfast", [], "everyone arrives; the murdered are found missing"))
    return rows


_KINDS: Mapping[str, str] = {
    BLOCK: "blocks a contestant: their action tonight does nothing",
    SHOT: "shoots a contestant",
    CHECK: "checks a contestant",
    HEAL: "heals a contestant",
    MINE: "mines a contestant's door",
    POISON: "poisons a contestant",
    EXPLODE: "sets off the bomb",
}
"""Core visit kind (``engine.core.night``) → what the step does, for the sheet."""


def _club_sheet(game: Any) -> list[dict[str, Any]]:
    """A club ruleset's wake order (``ClubRules.steps``): each step's living role holders and what it does."""
    rules = game.rules
    rows = []
    for step in rules.steps:
        who = [n for n, p in game.players.items() if p.alive and p.role in step.roles]
        what = [_KINDS.get(step.kind, step.kind)]
        what += [
            text
            for text, shown in (
                (f"the {str(step.team).replace('_', ' ')} choose together", step.team),
                ("may name themself", step.self_ok),
                ("a new one each night", step.no_repeat),
                ("once per series", step.once),
                (f"told too: {', '.join(rules.roles[w].title for w in step.watchers)}", step.watchers),
            )
            if shown
        ]
        roles = ", ".join(rules.roles[r].title for r in step.roles)
        rows.append(_row(f"{step.name.replace('_', ' ').capitalize()} ({roles})", who, "; ".join(what)))
    if rules.intro:
        met = ", ".join(" and ".join(rules.roles[r].title for r in step.roles) for step in rules.intro)
        rows.insert(0, _row("First night", [], f"an introduction only, nobody acts: the host meets {met}, in turn"))
    return rows


NIGHT_SHEETS: dict[str, Callable[[Any], list[dict[str, Any]]]] = {
    "traitors": _traitors_sheet,
    "club": _club_sheet,
}
"""Game family (``Ruleset.family``) → its night-order sheet (house rule 3)."""


def night_sheet(game: RulesetGame) -> list[dict[str, Any]]:
    """What happens at night, in order, for the series' ruleset (house rule 3).

    Returns:
        ``[{"step": name, "who": [contestants who act at this step now], "what": one line}]``; ``[]`` for a
        ruleset without a sheet.
    """
    sheet = NIGHT_SHEETS.get(family(game))
    return sheet(game) if sheet is not None else []
