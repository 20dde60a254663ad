"""The input log and the castle tracker are kept lazily (engine/core/step.py ``InputLog``, engine/tracking.py):
what a reader sees must be exactly what keeping them eagerly gives."""

from __future__ import annotations

import random

import pytest

from engine.actions import StartSeries, TimerExpired
from engine.effects import GiveItem, MoveTo, TakeItem, Whisper, give, msg, take, whisper
from engine.ids import Item
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import Settings
from engine.sim import play_series

NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea")
SETTINGS = Settings(contestants=NAMES, traitors=3, hosts=("Host",), drunk="possible")


def _drive(game: Game, seed: int, read_every_step: bool) -> list[tuple[object, ...]]:
    """Play ``game`` with uniform random inputs (the same for the same seed); optionally read the tracker after
    every input. Returns the snapshots read."""
    rng = random.Random(seed)
    now = 0.0
    game.handle(StartSeries(), now=now)
    seen = []
    for _ in range(3000):
        if game.is_over:
            break
        now += 1.0
        legal = [a for n in game.contestants() for a in game.legal_actions(n)]
        if legal and rng.random() < 0.9:
            game.handle(rng.choice(legal), now=now)
        else:
            game.handle(TimerExpired(game.phase_seq), now=now)
        if read_every_step:
            seen.append(_snapshot(game))
    return seen


def _snapshot(game: Game) -> tuple[object, ...]:
    return (
        {n: list(v) for n, v in game.items.items()},
        dict(game.places),
        {n: list(game.inbox[n]) for n in game.inbox},
        game.world_state(),
        [dict(e) for e in game.log],
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reading_late_gives_what_reading_every_step_gives(seed):
    eager, lazy = Game(SETTINGS, seed), Game(SETTINGS, seed)
    snapshots = _drive(eager, seed, read_every_step=True)
    _drive(lazy, seed, read_every_step=False)
    assert snapshots and _snapshot(lazy) == snapshots[-1]
    # Every input was logged, in order, as its JSON form with its time.
    assert [e["action"] for e in lazy.log][0] == "start_series" and len(lazy.log) == len(eager.log)


def test_the_tracker_follows_the_effects_returned():
    game = Game(SETTINGS, 4)
    held: dict[str, list[tuple[Item, str | None]]] = {}
    places = {}
    effects = list(game.handle(StartSeries(), now=0.0))
    now = 0.0
    rng = random.Random(4)
    while not game.is_over and now < 400:
        now += 1.0
        legal = [a for n in game.contestants() for a in game.legal_actions(n)]
        action = rng.choice(legal) if legal else TimerExpired(game.phase_seq)
        effects += game.handle(action, now=now)
    # Keep the castle from the effects alone, the slow obvious way, and compare.
    for e in effects:
        if isinstance(e, GiveItem):
            for n in sorted(e.to):
                held.setdefault(n, []).append((e.item, e.label))
        elif isinstance(e, TakeItem):
            for n in e.players if e.players is not None else list(held):
                held[n] = [(i, lab) for i, lab in held.get(n, []) if i is not e.item]
        elif isinstance(e, MoveTo):
            for k, n in enumerate(e.players):
                places[n] = (e.place, e.seats[k] if k < len(e.seats) else None)
    assert game.items == held and game.places == places


def test_the_input_log_is_a_read_only_sequence_equal_to_its_entries():
    game, _ = play_series(SETTINGS, 9, "random")
    entries = list(game.log)
    assert game.log == entries and entries == list(game.log) and game.log != entries[:-1]
    assert game.log[0] == {"now": 0.0, "action": "start_series"}
    assert game.log[-1] is entries[-1] and game.log[1:3] == entries[1:3]
    assert len(game.log) == len(entries) and game.log != "not a log"
    with pytest.raises(TypeError):
        hash(game.log)
    again = Game.replay(SETTINGS, 9, game.log)
    assert again.log == game.log and again.record.to_dict() == game.record.to_dict()


def test_the_length_counts_entries_not_yet_read():
    game = Game(SETTINGS, 2)
    game.handle(StartSeries(), now=0.0)
    game.handle(TimerExpired(game.phase_seq), now=5.0)
    assert len(game.log) == 2
    assert game.log[1] == {"now": 5.0, "action": "timer_expired", "phase_seq": 1}
    game.handle(TimerExpired(game.phase_seq), now=9.0)
    assert len(game.log) == 3 and game.log[-1]["now"] == 9.0


def test_remembered_effects_are_the_values_they_stand_for():
    assert give("Alex", Item.VOTE_PAPER) == GiveItem(frozenset({"Alex"}), Item.VOTE_PAPER, None)
    assert give("Alex", Item.CAST_VOTE_PAPER, "Kai") == GiveItem(frozenset({"Alex"}), Item.CAST_VOTE_PAPER, "Kai")
    assert take(Item.VOTE_PAPER, ("Alex", "Kai")) == TakeItem(Item.VOTE_PAPER, ("Alex", "Kai"))
    assert take(Item.DEADLOCK_SHIELD) == TakeItem(Item.DEADLOCK_SHIELD, None)
    assert whisper("Alex", "vote.cast", target="Kai") == Whisper(frozenset({"Alex"}), msg("vote.cast", target="Kai"))


def test_a_message_keeps_its_text_without_changing_its_value():
    """``Message.text`` is rendered once and kept; the kept text is no part of the value (equality, hash, repr,
    pickling and copies see the key and parameters only)."""
    import copy
    import pickle

    from engine.effects import Message
    from engine.messages import render

    fresh, read = Message("vote.cast", (("target", "Kai"),)), Message("vote.cast", (("target", "Kai"),))
    assert read._text is None and read.text == render("vote.cast", {"target": "Kai"}) and read._text == read.text
    assert read == fresh and hash(read) == hash(fresh) and repr(read) == repr(fresh)
    assert {read: 1}[fresh] == 1
    for twin in (copy.copy(read), copy.deepcopy(read), pickle.loads(pickle.dumps(read))):
        assert twin == fresh and twin.text == read.text


def test_a_caller_changing_the_returned_effects_does_not_change_the_castle():
    game, twin = Game(SETTINGS, 6), Game(SETTINGS, 6)
    game.handle(StartSeries(), now=0.0).clear()
    twin.handle(StartSeries(), now=0.0)
    assert game.places == twin.places and dict(game.inbox) == dict(twin.inbox) and game.items == twin.items


def test_a_copy_of_the_log_does_not_grow_with_the_game():
    import copy

    game = Game(SETTINGS, 2)
    game.handle(StartSeries(), now=0.0)
    snapshot = copy.copy(game.log)
    game.handle(TimerExpired(game.phase_seq), now=5.0)
    assert len(snapshot) == 1 and len(game.log) == 2 and snapshot == list(game.log)[:1]


def test_every_frozen_value_of_a_game_copies_and_pickles_equal():
    """A copy or a pickle of a game's frozen values (settings, result, outcome, world state, view, effects) equals
    the original (``traitors simulate --jobs`` pickles settings and results between processes)."""
    import copy
    import dataclasses
    import pickle

    game, result = play_series(SETTINGS, 3, bots="random")
    started = Game(SETTINGS, 3)
    effects = started.handle(StartSeries(), now=0.0)  # announcements, whispers, moves, items, the clock
    values = [game.settings, result, game.outcome, game.world_state(), game.view_for("Alex"), *effects]
    assert len({type(v) for v in values}) >= 8
    for value in values:
        assert dataclasses.is_dataclass(value)
        for twin in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
            assert twin == value and type(twin) is type(value)
