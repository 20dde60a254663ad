"""Copies and pickles of the engine's frozen values, made by value.

Every frozen dataclass of the engine (effects, messages, choices, settings, results, views…) is registered here
with ``copyreg``: ``copy.copy``, ``copy.deepcopy`` and ``pickle`` rebuild it through its constructor from its
init fields. A field left out of ``__init__`` (a ``Message``'s kept text) is made again when needed. The copies
equal the originals, as dataclasses' own slot-by-slot copies did; the constructor is the only way that works in a
compiled engine (``setup.py``), where mypyc's ``__setstate__`` assigns field by field and a frozen class refuses
that. ``traitors simulate --jobs`` pickles settings and results between processes.
"""

from __future__ import annotations

import copyreg
import dataclasses
from typing import Any


def _rebuild(cls: type[Any], fields: dict[str, Any]) -> Any:
    """The value of class ``cls`` with these init fields (what ``_by_value`` gives to copy and pickle)."""
    return cls(**fields)


def _by_value(value: Any) -> tuple[Any, ...]:
    """The reduction of a frozen dataclass value: its class and init fields (``copyreg`` protocol)."""
    fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.init}
    return (_rebuild, (type(value), fields))


def copied_by_value(*classes: type[Any]) -> None:
    """Register frozen dataclasses so that copies and pickles are rebuilt through their constructors.

    Args:
        classes: frozen dataclasses (each module registers its own at its end).

    Raises:
        TypeError: a class is not a frozen dataclass.
    """
    for cls in classes:
        params = getattr(cls, "__dataclass_params__", None)
        if params is None or not params.frozen:
            raise TypeError(f"{cls.__name__} is not a frozen dataclass")
        copyreg.pickle(cls, _by_value)
