"""Marks for a compiled engine (``setup.py``: mypyc), without a dependency at run time.

``mypyc_attr(allow_interpreted_subclasses=True)`` tells mypyc that Python classes may subclass a compiled class
(the club rulesets, left interpreted, subclass ``InputStep`` and ``CastleTracker``). mypyc reads the mark from the
source while it compiles, where mypy's ``mypy_extensions`` provides it; run as Python, the mark changes nothing,
so here it is a decorator that returns the class unchanged and the engine imports nothing outside the standard
library (``docs/design.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    _C = TypeVar("_C")

    def mypyc_attr(*flags: str, **settings: Any) -> Any:
        """``mypy_extensions.mypyc_attr`` as Python runs it: the class is returned unchanged."""

        def mark(cls: _C) -> _C:
            return cls

        return mark
