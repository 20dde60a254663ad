"""Errors raised by the bridge: faults outside the rules (``docs/design.md#errors``).

The tree::

    BridgeError                  base; never raised directly
    ├── RconUnavailable          cannot talk to the server: connect refused, EOF/reset, protocol garbage
    │   ├── RconAuthError        the server refused the RCON password (login reply id -1)
    │   └── RconTimeout          no (complete) reply within the client's timeout
    ├── RconCommandTooLong       the command is over vanilla's 1446-byte RCON limit (also a ValueError)
    ├── RconCommandFailed        the server answered, but with a vanilla error text
    ├── MsmpUnavailable          cannot talk to the management server (MSMP): refused, closed, ping timeout
    │   ├── MsmpAuthError        the server answered the websocket upgrade with HTTP 401 (wrong secret)
    │   └── MsmpTimeout          no JSON-RPC response within the client's timeout
    ├── MsmpError                the server answered a JSON-RPC call with an error object (code, message)
    └── ClientMessageError       a websocket payload failed validation

A ``BridgeError`` never reaches the engine: the service logs it and retries or tells the operator.
No error text ever contains the RCON password or the MSMP secret.
"""

from __future__ import annotations


class BridgeError(Exception):
    """Base of every bridge error."""


class RconUnavailable(BridgeError):
    """The RCON server cannot be reached, closed the connection, or sent something unreadable."""


class RconAuthError(RconUnavailable):
    """The server refused the RCON password (``docs/minecraft.md#rcon``: login reply with request id -1)."""


class RconTimeout(RconUnavailable):
    """The server did not answer (completely) within the timeout."""


class RconCommandTooLong(BridgeError, ValueError):
    """The command's UTF-8 payload is over 1446 bytes; vanilla would drop the connection (``docs/minecraft.md#rcon``).

    Args:
        size: the payload size in bytes.
        limit: the limit in bytes.
    """

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(f"RCON command is {size} bytes of UTF-8; the limit is {limit}")


class RconCommandFailed(BridgeError):
    """The server ran the command and answered with an error text (e.g. "No player was found").

    Args:
        command: the command that was sent.
        reply: the server's reply text.
    """

    def __init__(self, command: str, reply: str) -> None:
        self.command = command
        self.reply = reply
        shown = command if len(command) <= 120 else command[:117] + "..."
        super().__init__(f"command {shown!r} failed: {reply}")


class ClientMessageError(BridgeError):
    """A websocket payload failed validation."""


class MsmpUnavailable(BridgeError):
    """The MSMP websocket cannot be opened, was closed, or stopped answering pings (``docs/minecraft.md#msmp``)."""


class MsmpAuthError(MsmpUnavailable):
    """The management server refused the secret: HTTP 401 before the websocket upgrade (``docs/minecraft.md#msmp``)."""


class MsmpTimeout(MsmpUnavailable):
    """No JSON-RPC response arrived within the timeout."""


class MsmpError(BridgeError):
    """A JSON-RPC error response (e.g. ``-32601`` method not found, ``-32602`` invalid params).

    Args:
        method: the method that was called.
        code: the JSON-RPC error code.
        message: the server's error message.
    """

    def __init__(self, method: str, code: int, message: str) -> None:
        self.method = method
        self.code = code
        self.message = message
        super().__init__(f"MSMP {method} failed: {code} {message}")
