"""Plain words for why a connection failed, for the one-line messages the operator reads.

``OSError`` and its kin carry a class name and an errno that mean little to an operator ("ConnectionRefusedError");
``reason`` turns them into what happened and, where it is clear, what to check.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import ssl

_ERRNO: dict[int, str] = {
    errno.ECONNREFUSED: "connection refused (is the server running, and is the port right?)",
    errno.ECONNRESET: "connection reset by the server",
    errno.EHOSTUNREACH: "host unreachable",
    errno.ENETUNREACH: "network unreachable",
    errno.ETIMEDOUT: "timed out",
    errno.EPIPE: "connection closed by the server",
    errno.EADDRNOTAVAIL: "address not available",
}
"""errno → what it means here."""


def reason(exc: BaseException) -> str:
    """What ``exc`` says about a failed or lost connection, in a few plain words.

    Args:
        exc: the exception caught around a connect, a read or a write (``OSError``, ``TimeoutError``,
            ``asyncio.IncompleteReadError``, a websockets error, ...).

    Returns:
        A short lower-case phrase, e.g. ``"connection refused (is the server running, and is the port right?)"``;
        for an exception it does not know, its own message or, failing that, its class name.
    """
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, asyncio.IncompleteReadError):
        return "the server closed the connection mid-reply"
    if isinstance(exc, socket.gaierror):
        return "unknown host name"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed ({exc.reason or exc})"
    if isinstance(exc, OSError) and exc.errno in _ERRNO:
        return _ERRNO[exc.errno]
    if isinstance(exc, ConnectionError):
        return "connection lost"
    text = str(exc).strip()
    return text if text else type(exc).__name__
