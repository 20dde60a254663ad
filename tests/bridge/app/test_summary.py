"""The per-contestant summary of each ruleset's record (``bridge.app.summary``), checked against played series.

The expected values are counted from what the series was given, its input log (every vote, every nomination),
and from the cast (when each contestant left), never from the record's vote tables that the summary reads.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bridge.app.export import format_record, summarize
from engine.rulesets.club.game import ClubSettings
from engine.sim import play_series

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
FIRST_NIGHT = {"black_knights": 0, "mafia_yakuza": 1}
"""The number of a club series' first night: Black Knights' introduction night 0 comes before day 1; Mafia &
Yakuza's night 1 comes before day 1."""


def from_the_log(game) -> dict[str, Counter]:
    """Each contestant's counts, from the input log and the cast."""
    team = {c.name: c.allegiance for c in game.record.contestants}
    want = {n: Counter() for n in team}
    for entry in game.log:
        kind = entry["action"]
        if kind == "nominate_candidate":
            want[entry["contestant"]]["put_forward"] += 1
        elif kind == "keep_everyone":
            want[entry["voter"]].update(("votes_cast", "votes_to_keep"))
        elif kind == "cast_vote":
            voter, target = entry["voter"], entry["target"]
            want[voter]["votes_cast"] += 1
            want[target]["votes_received"] += 1
            want[voter]["votes_for_opponents"] += team[target] != team[voter]
    for c in game.record.contestants:
        if c.out is None:
            want[c.name]["days"] = game.day
        elif c.out == "killed":  # killed on night n: alive on every day before it
            want[c.name]["days"] = c.out_day - FIRST_NIGHT[game.ruleset]
        else:  # sent away by the vote on day d
            want[c.name]["days"] = c.out_day
    return want


CASES = [
    (r, n, seed, bots)
    for r, n in (("black_knights", 11), ("mafia_yakuza", 12))
    for seed in (1, 2, 3)
    for bots in ("smart", "random")
]


@pytest.mark.parametrize(("ruleset", "count", "seed", "bots"), CASES)
def test_club_summary_counts_what_the_series_log_shows(ruleset, count, seed, bots):
    game, _ = play_series(ClubSettings(ruleset, NAMES[:count], max_days=12), seed, bots)
    assert game.is_over
    want = from_the_log(game)
    rows = summarize(game.record)
    keys = {
        "black_knights": ("days", "put_forward", "votes_cast", "votes_for_opponents", "votes_received"),
        "mafia_yakuza": ("days", "votes_cast", "votes_to_keep", "votes_for_opponents", "votes_received"),
    }[ruleset]
    assert [r["name"] for r in rows] == list(NAMES[:count])
    for row in rows:
        assert {k: row[k] for k in keys} == {k: want[row["name"]][k] for k in keys}, row["name"]
        assert set(row) == {"name", *keys, "out", "out_day", "winner"}  # no Traitors' columns
    assert sum(r["votes_cast"] for r in rows) > 0


@pytest.mark.parametrize("ruleset", ["black_knights", "mafia_yakuza"])
def test_club_record_tables_show_the_rulesets_columns(ruleset):
    game, _ = play_series(ClubSettings(ruleset, NAMES[:12], max_days=12), 4, "random")
    text = format_record(game.record, "text")
    table = text[text.index("## Contestants") :].splitlines()
    header = [c.strip() for c in table[2].strip("|").split("|")]
    assert "Round tables" not in header and "Votes for a Traitor" not in header
    assert header[1:3] == ["Team", "Role"] and "Votes for an opponent" in header
    assert ("Put forward" in header) == (ruleset == "black_knights")
    assert ("Votes to keep everyone" in header) == (ruleset == "mafia_yakuza")
    rows = {r["name"]: r for r in json.loads(format_record(game.record, "json"))["summary"]}
    for line in table[4 : 4 + 12]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        counted = header[3:-2]
        key = {
            "Days": "days",
            "Put forward": "put_forward",
            "Votes cast": "votes_cast",
            "Votes to keep everyone": "votes_to_keep",
            "Votes for an opponent": "votes_for_opponents",
            "Votes received": "votes_received",
        }
        assert cells[3:-2] == [str(rows[cells[0]][key[h]]) for h in counted]
