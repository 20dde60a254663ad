"""The host's sheets beside the grimoire (``bridge/web/sheets.py``, ``bridge/web/timeline.py``): the vote history
read from the record, the night order of each ruleset, and the finished series' timeline."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bridge.web.grimoire import grimoire
from bridge.web.sheets import NIGHT_SHEETS, night_sheet, vote_history
from bridge.web.timeline import timeline
from engine.record import RoundTableRecord
from engine.rulesets import RULESETS
from engine.rulesets.club.state import ClubDayRecord
from engine.rulesets.traitors.powers import NIGHT_ORDER, POWERS, VISIT

from .test_grimoire import run

RULESET_NAMES = list(RULESETS)


def test_every_ruleset_has_a_night_sheet() -> None:
    assert {r.family for r in RULESETS.values()} == set(NIGHT_SHEETS)


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_the_vote_history_is_every_round_table_of_the_record(ruleset: str) -> None:
    """Each round table of the record, each round's papers as cast, the tally (a double vote counts twice) and
    the names tied on top; over random series some round ends in a tie."""
    ties = 0
    for seed in range(4):
        game, seen = run(ruleset, seed, 3000)
        tables = [e for e in game.record.events if isinstance(e, RoundTableRecord | ClubDayRecord)]
        history = seen[-1]["votes"]
        assert history == vote_history(game) and len(history) == len(tables) > 0
        for table, shown in zip(tables, history, strict=True):
            assert shown["day"] == table.day and len(shown["rounds"]) == len(table.rounds)
            if isinstance(table, ClubDayRecord):
                assert shown["nominations"] == table.nominations
            for r, s in zip(table.rounds, shown["rounds"], strict=True):
                assert [(v, t) for v, t, _w in s["papers"]] == list(r.votes.items())
                count: Counter[str] = Counter()
                for voter, target in r.votes.items():
                    if target is not None:
                        count[target] += r.weights.get(voter, 1)
                assert s["tally"] == dict(count)
                top = max(count.values(), default=0)
                assert s["tied"] == sorted(n for n, c in count.items() if c == top and top)
                ties += len(s["tied"]) > 1
    assert ties, "a tie shows as more than one name on top"


def test_the_traitors_night_order_follows_the_engine() -> None:
    """The Traitors' sheet: the Oath and the Turret first, the Turret's powers, the offer, the host's visits in
    ``VISIT_ORDER`` for the powers dealt, then the resolution in ``NIGHT_ORDER``; each power with its holder."""
    game, _ = run("traitors", 3, 0)
    sheet = night_sheet(game)
    steps = [row["step"] for row in sheet]
    assert steps[:2] == ["The Oath", "The Turret"] and steps[-2:] == ["Resolution", "Breakfast"]
    dealt = {p.power: name for name, p in game.players.items() if p.power is not None}
    visits = [p.title for p in NIGHT_ORDER if p in dealt and not isinstance(p, str) and POWERS[p].stage == VISIT]
    shown = [s for s in steps if s.startswith("The ") and s not in ("The Oath", "The Turret", "The offer")]
    assert [s for s in shown if s in visits] == visits
    for power, holder in dealt.items():
        if POWERS[power].stage != "passive":
            (row,) = [r for r in sheet if r["step"] == power.title]
            assert holder in " ".join(row["who"]) and row["what"]
    order = sheet[-2]["what"].split(" → ")
    assert order.index("the murder") < order.index("the guess")
    traitors = {n for n, p in game.players.items() if p.allegiance.value == "traitor"}
    assert set(sheet[0]["who"]) == traitors, "before the first Oath every Traitor is still to swear"


@pytest.mark.parametrize("ruleset", ["black_knights", "mafia_yakuza"])
def test_a_club_night_order_is_its_wake_order(ruleset: str) -> None:
    game: Any
    game, _ = run(ruleset, 5, 0)
    sheet = [row for row in night_sheet(game) if row["step"] != "First night"]
    assert len(sheet) == len(game.rules.steps)
    for row, step in zip(sheet, game.rules.steps, strict=True):
        holders = [n for n, p in game.players.items() if p.role in step.roles]
        assert row["who"] == holders
        assert all(game.rules.roles[r].title in row["step"] for r in step.roles)
    assert (night_sheet(game)[0]["step"] == "First night") == bool(game.rules.intro)


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_the_timeline_steps_through_the_record(ruleset: str) -> None:
    """Only a finished series has a timeline: the deal, one step per record event, the result; who is out grows
    step by step to everyone out at the end, each as the record says."""
    game, seen = run(ruleset, 1, 3000)
    assert all("timeline" not in parts for parts in seen[:-1])
    steps = seen[-1]["timeline"]
    assert steps == timeline(game.record)
    assert steps[0]["title"] == "The deal" and steps[-1]["title"] == "The result"
    assert len(steps) == len(game.record.events) + 2
    assert all(any(c.name in line for line in steps[0]["lines"]) for c in game.record.contestants)
    for before, after in zip(steps, steps[1:], strict=False):
        assert after["out"][: len(before["out"])] == before["out"]
    out = {name for name, _how in steps[-1]["out"]}
    assert out == {n for n, p in game.players.items() if not p.alive}
    assert game.record.winner in steps[-1]["lines"][0]


def test_an_unfinished_series_has_no_timeline() -> None:
    game, _ = run("traitors", 2, 40)
    assert not game.is_over and "timeline" not in grimoire(game)
