"""The host's grimoire as data (``bridge/web/grimoire.py``): every seat's hidden hand, the night, the vote, and
the diffs that keep a page live."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bridge.web.grimoire import diff, effect_entry, grimoire, input_entry
from engine.actions import Advance, StartSeries
from engine.effects import ClockChanged, MoveTo, Whisper, msg
from engine.ids import Place
from engine.rulesets import new_game

from .test_spectator import HOST, random_settings


def run(ruleset: str, seed: int, steps: int) -> tuple[Any, list[dict[str, Any]]]:
    """A random series for ``steps`` inputs; the grimoire after each."""
    rng = random.Random(seed)
    game: Any = new_game(random_settings(rng, ruleset), seed)
    game.handle(StartSeries(), now=0.0)
    seen = [grimoire(game)]
    for i in range(steps):
        if game.is_over:
            break
        options = [a for n in game.contestants() for a in game.legal_actions(n)]
        game.handle(Advance(HOST) if not options or rng.random() < 0.05 else rng.choice(options), now=i + 1.0)
        seen.append(grimoire(game))
    return game, seen


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
def test_every_seat_shows_its_true_hand(ruleset: str) -> None:
    game, seen = run(ruleset, 4, 0)
    parts = seen[-1]
    assert sum(k.startswith("seat/") for k in parts) == len(game.contestants())
    for name, p in game.players.items():
        seat = parts[f"seat/{name}"]
        assert seat["name"] == name and seat["status"] == "in"
        if ruleset == "traitors":
            assert seat["allegiance"] == p.allegiance.title
            assert seat["role"] == (p.power.title if p.power else None) and seat["drunk"] == p.drunk
        else:
            assert seat["role"] == game.rules.roles[p.role].title
    json.dumps(parts)  # every part is JSON


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
def test_the_vote_and_the_night_arrive_as_they_are_made(ruleset: str) -> None:
    """Over random series the vote part shows each vote cast, with its tally; the night part its choices; a
    contestant out shows how."""
    votes = nights = outs = 0
    for seed in range(6):
        game, seen = run(ruleset, seed, 3000)
        assert game.is_over
        for parts in seen:
            vote = parts.get("vote") or {}
            if vote.get("votes"):
                votes += 1
                assert sum(vote["tally"].values()) >= len(vote["votes"])
            night = parts.get("night") or {}
            nights += bool(night.get("picks") or night.get("powers"))
        outs += sum(parts[f"seat/{n}"]["status"] != "in" for n in game.contestants())
    assert votes and nights and outs


def test_a_diff_holds_only_what_changed() -> None:
    before = {"clock": {"day": 1}, "seat/Alex": {"status": "in"}, "vote": {"votes": {}}}
    after = {"clock": {"day": 1}, "seat/Alex": {"status": "banished"}}
    d = diff(before, after)
    assert d.set == {"seat/Alex": {"status": "banished"}} and d.drop == ["vote"] and d
    assert not diff(after, after)


def test_a_series_sends_far_less_in_diffs_than_in_states() -> None:
    """Send changes, not whole states: over a whole series the diffs are a small part of the states."""
    _, seen = run("traitors", 2, 3000)
    states = sum(len(json.dumps(p)) for p in seen)
    diffs = sum(len(json.dumps(diff(a, b).set)) for a, b in zip(seen, seen[1:], strict=False))
    assert diffs < states / 4


def test_the_event_log_lines() -> None:
    whisper = effect_entry(Whisper(frozenset({"Kai"}), msg("illegal.phase")), 5.0)
    assert whisper == {"t": 5.0, "kind": "whisper", "text": "You can't do that now.", "to": ["Kai"]}
    assert effect_entry(MoveTo(("Kai", "Zuri"), Place.TURRET), 1.0)["text"] == "Kai, Zuri → turret"  # type: ignore[index]
    assert effect_entry(ClockChanged(3, None, 42.0), 1.0)["text"] == "clock paused (42 s left)"  # type: ignore[index]
    line = input_entry({"now": 7.0, "action": "pause_clock", "host": "Host"}, 9.0)
    assert line == {"t": 7.0, "kind": "input", "text": "pause_clock host=Host", "to": None}


@pytest.mark.rule("MY9")
def test_the_grimoire_marks_whose_turn_it_is_to_speak() -> None:
    """Mafia & Yakuza MY9, "Під час денного обговорення гравці повинні дотримуватись порядку, надаючи кожному
    можливість висловитись" (in the day's discussion the players keep to an order, everyone gets to speak): the
    host's grimoire marks the contestant who has the floor, turn by turn in seat order, and its event log shows
    each turn as announced."""
    from engine.effects import Announce
    from engine.rulesets.club.settings import ClubSettings

    names = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena")
    game: Any = new_game(ClubSettings("mafia_yakuza", names, hosts=(HOST,)), 3)
    now = 0.0
    fx = game.handle(StartSeries(), now=now)
    while game.phase.value != "discussion":
        now += 1.0
        fx = game.handle(Advance(HOST), now=now)
    speakers = []
    while game.phase.value == "discussion":
        parts = grimoire(game)
        marked = [n for n in names if "speaking" in parts[f"seat/{n}"]["marks"]]
        assert marked == [game.speaker] and parts["clock"]["phase"] == "discussion"
        floor = [effect_entry(e, now) for e in fx if isinstance(e, Announce) and e.message.key == "my.turn"]
        assert [entry["text"] for entry in floor if entry] == [f"{game.speaker} has the floor (60 seconds)."]
        speakers.append(game.speaker)
        now += 1.0
        fx = game.handle(Advance(HOST), now=now)
    assert speakers == [n for n in names if game.players[n].alive]
    assert not any("speaking" in grimoire(game)[f"seat/{n}"]["marks"] for n in names)
