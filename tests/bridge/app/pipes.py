"""Reading a child process's output line by line with a timeout.

``select`` on a pipe says whether the *file descriptor* has bytes; a buffered ``readline`` may pull two lines off it
at once and keep the second in its buffer, where ``select`` no longer sees it, so the next wait times out although
the line has arrived. These readers read the descriptor itself and keep their own buffer, one per pipe.
"""

from __future__ import annotations

import os
import select
import time
from collections import deque
from typing import IO, Any

_READERS: dict[int, tuple[IO[Any], _Lines]] = {}


class _Lines:
    """The lines of one pipe: whole lines read so far and not yet taken, and the bytes of a line still arriving."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.ready: deque[str] = deque()
        self.pending = b""
        self.ended = False

    def next(self, end: float) -> str | None:
        """The next line (without its newline), or ``None`` at the end of the pipe or at ``end`` (monotonic s)."""
        while not self.ready and not self.ended:
            left = end - time.monotonic()
            if left <= 0:
                return None
            readable, _, _ = select.select([self.fd], [], [], min(left, 0.1))
            if readable:
                chunk = os.read(self.fd, 65536)
                if not chunk:
                    self.ended = True
                    break
                *whole, self.pending = (self.pending + chunk).split(b"\n")
                self.ready.extend(line.decode(errors="replace") for line in whole)
        return self.ready.popleft() if self.ready else None


def next_line(pipe: IO[Any], end: float) -> str | None:
    """The next line of ``pipe`` (a child's stdout or stderr), or ``None`` at its end or at ``end`` (monotonic
    seconds). Read only through this function once used: the pipe's own buffer is bypassed."""
    key = id(pipe)
    if key not in _READERS or _READERS[key][0] is not pipe:
        _READERS[key] = (pipe, _Lines(pipe.fileno()))
    return _READERS[key][1].next(end)


def rest(pipe: IO[Any]) -> str:
    """What is left in ``pipe`` once its process has ended (for an error message)."""
    lines = []
    while (line := next_line(pipe, time.monotonic() + 5)) is not None:
        lines.append(line)
    return "\n".join(lines)
