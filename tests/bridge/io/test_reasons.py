"""``bridge.io.reasons.reason``: a failed connection in plain words."""

import asyncio
import errno
import socket

import pytest

from bridge.io.reasons import reason


def _refused() -> OSError:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but not listening: nothing accepts there
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except OSError as exc:
        return exc
    pytest.skip("something accepted a connection on a port nobody listens on")


def test_a_refused_connection_says_so_and_what_to_check():
    text = reason(_refused())
    assert text.startswith("connection refused") and "port" in text
    assert "Error" not in text


@pytest.mark.parametrize(
    ("exc", "words"),
    [
        (TimeoutError(), "timed out"),
        (asyncio.IncompleteReadError(b"ab", 10), "closed the connection"),
        (socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "unknown host"),
        (ConnectionResetError(errno.ECONNRESET, "reset"), "reset by the server"),
        (OSError(errno.EHOSTUNREACH, "No route to host"), "host unreachable"),
    ],
)
def test_known_failures_get_plain_words(exc, words):
    assert words in reason(exc)


def test_an_unknown_failure_falls_back_to_its_message_then_its_class():
    assert reason(OSError("disk on fire")) == "disk on fire"
    assert reason(ValueError()) == "ValueError"
