"""Crash points for the recovery tests: the service kills itself (SIGKILL) at a named point, on request.

Set ``CASTLE_FAULT=<point>:<n>`` in the service's environment and the process sends itself SIGKILL the n-th
time it reaches ``<point>`` (counting from 1). Without the variable ``fault()`` does nothing. The points are
the windows ``docs/recovery.md`` promises to survive:

* ``before-commit``: an input is applied in memory, not yet stored (its queue entry is not acked either);
* ``after-commit``: the input and its outbox are stored, no command sent;
* ``mid-send``: a command was answered by the server but not yet marked sent;
* ``before-ack``: a queue entry is applied and stored but not acked.
"""

from __future__ import annotations

import os
import signal

POINTS = ("before-commit", "after-commit", "mid-send", "before-ack")

_point, _, _n = os.environ.get("CASTLE_FAULT", "").partition(":")
_target = int(_n) if _point in POINTS and _n.isdigit() else 0
_seen = 0


def fault(point: str) -> None:
    """Reach crash point ``point``: SIGKILL this process if ``CASTLE_FAULT`` asks for this visit."""
    global _seen
    if _target and point == _point:
        _seen += 1
        if _seen == _target:
            os.kill(os.getpid(), signal.SIGKILL)
