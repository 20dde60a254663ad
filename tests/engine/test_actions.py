"""engine/actions.py: every input kind names its sender the same way."""

from __future__ import annotations

import dataclasses
import enum
import typing

from engine import actions
from engine.actions import _EVERY_ACTION, Action


def _example(cls: type[Action]) -> Action:
    """An instance of ``cls`` with a distinct plain value in every field (names, enum members, numbers)."""
    hints = typing.get_type_hints(cls, vars(actions))
    values: dict[str, object] = {}
    for i, f in enumerate(dataclasses.fields(cls)):
        hint = hints[f.name]
        kinds = [a for a in typing.get_args(hint) if a is not type(None)] or [hint]
        kind = kinds[0]
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            values[f.name] = next(iter(kind))
        elif kind is bool:
            values[f.name] = True
        elif kind in (int, float):
            values[f.name] = kind(i + 1)
        else:
            values[f.name] = f"Name{i}"
    return cls(**values)  # type: ignore[arg-type]


def test_every_kind_names_its_sender_by_its_actor_field() -> None:
    """``actor`` is the ``actor_field``'s value (``None`` for system inputs), as the base class defines it; the
    kinds with a sender read it through a faster property of their own."""
    for cls in _EVERY_ACTION:
        action = _example(cls)
        expected = None if cls.actor_field is None else getattr(action, cls.actor_field)
        assert action.actor == expected == Action.actor.fget(action), cls.__name__  # type: ignore[attr-defined]
        if cls.actor_field is not None:
            assert isinstance(action.actor, str) and action.actor.startswith("Name"), cls.__name__


def test_the_engine_imports_nothing_outside_the_standard_library() -> None:
    """``shared/DESIGN.md``: ``engine`` imports nothing outside the standard library (a compiled engine's own
    runtime module, ``castle_engine__mypyc``, aside)."""
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
    loaded = set(eval(out))  # a printed list of names
    outside = loaded - set(sys.stdlib_module_names) - {"engine", "castle_engine__mypyc"}
    assert "engine" in loaded and outside == set()
