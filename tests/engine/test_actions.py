"""Inputs (engine/actions.py) and the input step: senders, ill-typed fields refused, games replayed not copied,
and the engine's standard-library-only imports."""

from __future__ import annotations

import ast
import dataclasses
import enum
import typing

from engine import actions
from engine.actions import ACTION_TYPES, Action
from engine.ids import Twist
from engine.rulesets.traitors import twists

EVERY_ACTION: tuple[type[Action], ...] = tuple(ACTION_TYPES.values())
"""Every input kind, the twists' own inputs (registered by the twists' registry) included."""
assert set(twists.INPUTS) <= set(EVERY_ACTION)


def _example(cls: type[Action]) -> Action:
    """An instance of ``cls`` with a distinct plain value in every field (names, enum members, numbers)."""
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    for i, f in enumerate(dataclasses.fields(cls)):
        hint = hints[f.name]
        kinds = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
        kind = kinds[0]
        if isinstance(kind, type) and issubclass(kind, (enum.Enum, Twist)):
            values[f.name] = next(iter(kind))
        elif kind is bool:
            values[f.name] = True
        elif kind in (int, float):
            values[f.name] = kind(i + 1)
        else:
            values[f.name] = f"Name{i}"
    return cls(**values)  # type: ignore[arg-type]


def _sent(cls: type[Action]) -> bool:
    return any(f.name == "actor" for f in dataclasses.fields(cls))


def test_every_kind_names_its_sender_in_its_actor_field() -> None:
    """``actor`` is the first field of every input with a sender, read also by its domain alias (the
    ``actor_key``) and written under that key in the JSON form; ``None`` for system inputs."""
    for cls in EVERY_ACTION:
        action = _example(cls)
        if not _sent(cls):
            assert action.actor is None and cls.actor_key == "actor", cls.__name__
            assert action.to_dict().keys() == {"action", *(f.name for f in dataclasses.fields(cls))}
            continue
        assert dataclasses.fields(cls)[0].name == "actor", cls.__name__
        assert action.actor == "Name0" == getattr(action, cls.actor_key), cls.__name__
        data = action.to_dict()
        assert data[cls.actor_key] == "Name0" and "actor" not in data, cls.__name__
        assert actions.action_from_dict(data) == action, cls.__name__


def test_the_engine_imports_nothing_outside_the_standard_library() -> None:
    """``docs/design.md``: ``engine`` imports nothing outside the standard library."""
    import subprocess
    import sys

    code = (
        "import sys, importlib, pkgutil\n"
        "before = set(sys.modules)\n"
        "import engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "print(sorted({n.split('.')[0] for n in set(sys.modules) - before}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(ast.literal_eval(out))  # a printed list of names
    outside = loaded - set(sys.stdlib_module_names) - {"engine"}
    assert "engine" in loaded and outside == set()


def test_ill_typed_field_names_the_first_field_of_the_wrong_type() -> None:
    from engine.actions import ill_typed_field

    for cls in EVERY_ACTION:
        action = _example(cls)
        assert ill_typed_field(action) is None, cls.__name__
        for f in dataclasses.fields(cls):
            bad = dataclasses.replace(action, **{f.name: ["junk"]})
            key = cls.actor_key if f.name == "actor" else f.name  # the JSON key names the field in the refusal
            assert ill_typed_field(bad) == (key, ["junk"]), (cls.__name__, f.name)


def test_an_input_with_fields_of_the_wrong_type_is_refused_and_changes_nothing() -> None:
    """House rule 5 of ``engine.core.step``: refused, never a crash, never a change. An enum, flag or number of the
    wrong type is refused as such; a name of the wrong type by the rules, or as such where looking it up fails
    (always, in a compiled engine)."""
    import pytest

    from engine.actions import (
        Advance,
        AnswerJoker,
        AnswerOffer,
        CastVote,
        ChooseEvent,
        ChooseTorch,
        StartSeries,
        SwearOath,
        TimerExpired,
        UsePower,
    )
    from engine.errors import GameError, InvalidCommand
    from engine.rulesets.traitors.game import Game
    from engine.rulesets.traitors.phases import Phase
    from engine.rulesets.traitors.settings import Settings

    names = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe")
    game = Game(Settings(contestants=names, traitors=2, hosts=("Host",)), 4)
    game.handle(StartSeries(), now=0.0)
    now = 1.0
    while game.phase is not Phase.VOTE:  # a ballot is open: votes are read
        now += 1
        game.handle(Advance("Host"), now=now)
    junk: list[Action] = [
        CastVote(["Alex"], "Kai"),
        CastVote("Alex", ["Kai"]),
        CastVote(7, "Kai"),
        CastVote("Alex", None),  # type: ignore[arg-type]
        Advance(None),
        Advance(["Host"]),
        SwearOath(7),
        UsePower("Alex", ["Kai"]),  # type: ignore[arg-type]
        ChooseTorch("Alex", "Nobody"),
        TimerExpired("1"),
        TimerExpired(None),  # type: ignore[arg-type]
        ChooseEvent("Alex", None, "Kai"),
        AnswerOffer("Alex", None),
        AnswerJoker("Alex", 1),  # type: ignore[arg-type]
    ]

    def state() -> tuple[object, ...]:
        return (game.record.to_dict(), len(game.log), game.phase, game.phase_seq, dict(game.inbox), game.items)

    before = state()
    for action in junk:
        with pytest.raises(GameError) as refused:
            game.handle(action, now=now + 1)
        assert state() == before, action
        if isinstance(action, (TimerExpired, ChooseTorch, ChooseEvent, AnswerOffer, AnswerJoker)):
            # an enum, flag or number field: checked before the rules run, whatever the phase
            assert refused.value.reason == "invalid.action.value", action
    with pytest.raises(InvalidCommand) as refused:  # a name that cannot even be looked up
        game.handle(CastVote(["Alex"], "Kai"), now=now + 1)  # type: ignore[arg-type]
    assert refused.value.reason == "invalid.action.value" and refused.value.params["field"] == "voter"


def test_a_game_is_replayed_not_copied() -> None:
    """Copying or pickling a whole game fails with a clear error in both builds (compiled, a copy would come out
    empty); a game is rebuilt from its input log."""
    import copy
    import pickle

    import pytest

    from bridge.app.simulate import load_settings
    from engine.rulesets import new_game, replay
    from engine.sim import play_series

    for settings in (load_settings(None, "traitors", 8), load_settings(None, "black_knights", 8)):
        game, _ = play_series(settings, 5, bots="random")
        for copier in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="replay its input log"):
                copier(game)
        again = replay(settings, 5, list(game.log))
        assert again.record.to_dict() == game.record.to_dict()
        assert type(new_game(settings, 5)) is type(game)
