"""Crash points for the recovery tests: the service kills itself (SIGKILL) at a named point, on request.

A ``Fault`` is passed to the service (``SeriesService(..., fault=...)``, ``run_series(..., fault=...)``); it is
built at the command line's edge from the environment variable ``CASTLE_FAULT=<point>:<n>`` (``Fault.from_env``),
so the recovery tests can ask a ``traitors serve-demo`` subprocess to die. The process sends itself SIGKILL the
n-th time it reaches ``<point>`` (counting from 1). ``NO_FAULT`` (the default) never does anything. The points
are the windows ``docs/recovery.md`` promises to survive:

* ``before-commit``: an input is applied in memory, not yet stored (its queue entry is not acked either);
* ``after-commit``: the input and its outbox are stored, no command sent;
* ``mid-send``: a command was answered by the server but not yet marked sent;
* ``before-ack``: a queue entry is applied and stored but not acked.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["FAULT_ENV", "NO_FAULT", "POINTS", "Fault"]

POINTS = ("before-commit", "after-commit", "mid-send", "before-ack")
FAULT_ENV = "CASTLE_FAULT"
"""The environment variable the command line reads a fault from (``<point>:<n>``)."""


@dataclass(slots=True)
class Fault:
    """Kill this process the ``visit``-th time it reaches crash point ``point``.

    Args:
        point: one of ``POINTS``, or ``None``: never.
        visit: which visit kills (counting from 1); 0 never kills.
    """

    point: str | None = None
    visit: int = 0
    seen: int = 0
    """How many times ``point`` was reached so far."""

    @classmethod
    def parse(cls, spec: str) -> Fault:
        """A fault from ``"<point>:<n>"``; anything else (an unknown point, no number, ``""``) never kills."""
        point, _, n = spec.partition(":")
        if point in POINTS and n.isdigit() and int(n) > 0:
            return cls(point, int(n))
        return cls()

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Fault:
        """The fault ``environ`` asks for in ``FAULT_ENV`` (``os.environ`` at the command line's edge)."""
        return cls.parse(environ.get(FAULT_ENV, ""))

    def __call__(self, point: str) -> None:
        """Reach crash point ``point``: SIGKILL this process if this is the visit asked for."""
        if point != self.point or not self.visit:
            return
        self.seen += 1
        if self.seen == self.visit:
            os.kill(os.getpid(), signal.SIGKILL)


NO_FAULT = Fault()
"""The fault that never kills (the service's default). It keeps no count, so one value serves every service."""
