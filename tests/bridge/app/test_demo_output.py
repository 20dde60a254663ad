"""What ``traitors demo`` prints: the game log alone on stdout in the chosen format, the progress on stderr with
the breakfast arrivals grouped, and a closing summary that says why the winner won (issue 21, points 18, 22)."""

from __future__ import annotations

import io
import json

import pytest

from bridge.app.demo import demo_settings, run_demo
from bridge.app.demo_output import LiveAnnouncements, explain
from engine.effects import announce
from engine.record import RoundTableRecord, TorchRound
from engine.sim import play_series


@pytest.fixture(scope="module")
def json_demo():
    out, err = io.StringIO(), io.StringIO()
    assert run_demo(contestants=6, seed=1, fmt="json", out=out, err=err, fast_forward=True) == 0
    return out.getvalue(), err.getvalue()


def test_json_demo_stdout_is_only_json(json_demo):
    out, err = json_demo
    record = json.loads(out)  # nothing else on stdout
    assert record["winner"] is not None
    assert err.startswith("Castle demo (The Traitors)") and "Day 1: breakfast." in err
    assert "Why: " in err


def test_breakfast_arrivals_are_one_line(json_demo):
    _, err = json_demo
    assert "arrives at breakfast" not in err
    grouped = [line for line in err.splitlines() if "At breakfast, in order of arrival: " in line]
    assert grouped and all(line.endswith(".") for line in grouped)


def test_live_announcements_group_arrivals_until_the_next_announcement():
    out = io.StringIO()
    now = iter([1.0, 1.1, 1.2, 2.0, 3.0, 3.5]).__next__
    live = LiveAnnouncements(out, 0.0, clock=now)
    for name in ("Ari", "Zuri", "Rhea", "Noor"):
        live(announce("breakfast.arrives", player=name))
    live(announce("clock.breakfast"))
    live(announce("breakfast.arrives", player="Kai"))
    live.flush()
    assert out.getvalue().splitlines() == [
        "[  1.00s] At breakfast, in order of arrival: Ari, Zuri, Rhea, Noor.",
        "[  3.00s] Breakfast",
        "[  3.50s] At breakfast, in order of arrival: Kai.",
    ]


def _traitors(record):
    return [c for c in record.contestants if c.allegiance == "traitor" or c.recruited_day is not None]


def test_summary_explains_every_traitors_fate_recruitments_and_the_finale():
    outcomes, recruitments = set(), 0
    for seed in range(10):
        game, _ = play_series(demo_settings(12), seed, "random")  # random bots accept offers: recruitments
        record = game.record
        lines = explain(record)
        assert lines[0].startswith("Why: ") and game.outcome.winner.title in lines[0]
        fates = next(line for line in lines if line.startswith("- The Traitors: "))
        for c in _traitors(record):
            assert c.name in fates
        recruited = [c for c in record.contestants if c.recruited_day is not None]
        recruitments += len(recruited)
        line = next(line for line in lines if line.startswith(("- Recruited: ", "- Nobody was recruited")))
        for c in recruited:
            assert f"{c.name} on night {c.recruited_day}" in line
        torches = [e for e in record.events if isinstance(e, TorchRound)]
        finale = next(line for line in lines if line.startswith(("- Finale: ", "- No finale")))
        if torches:
            ends = sum(1 for t in torches[-1].choices.values() if t == "end_game")
            assert f"{len(torches)} torch vote" in finale and f"the last {ends} End Game" in finale
        for e in record.events:
            if isinstance(e, RoundTableRecord) and e.finale and e.banished:
                assert e.banished in finale
        survivors = [c.name for c in _traitors(record) if not c.out]
        if record.winner == "traitors":
            assert all(n in lines[-1] for n in survivors) and lines[-1].startswith("- So the Traitors win")
        if record.winner == "faithful":
            assert lines[-1].startswith("- So the Faithful win: the last Traitor")
        outcomes.add(record.winner)
    assert {"traitors", "faithful"} <= outcomes and recruitments > 0  # both endings were explained


@pytest.mark.parametrize("ruleset", ["black_knights", "mafia_yakuza"])
def test_club_summary_names_the_winners(ruleset):
    game, _ = play_series(demo_settings(9, ruleset), 3)
    lines = explain(game.record)
    assert lines[0].startswith(f"Why: {game.outcome.winner.title}")
    winners = [c.name for c in game.record.contestants if c.winner]
    if winners:
        assert all(n in lines[1] for n in winners)
