"""Errors raised by the engine.

The tree::

    GameError                base; never raised directly
    ├── InvalidCommand       malformed input: unknown contestant, bad payload
    ├── IllegalAction        well-formed but forbidden now; ``reason`` is a message key; the state is unchanged
    └── ConfigError          bad series settings or scenario data; the message names the file and field

"The player's mistake is not the system's fault": the service turns an ``IllegalAction`` into a private
message to the one contestant who sent it and changes nothing.
"""

from __future__ import annotations


class GameError(Exception):
    """Base of every engine error."""


class InvalidCommand(GameError):
    """The input is malformed: it names an unknown contestant or carries a bad payload.

    Args:
        reason: a message key from ``engine.messages.CATALOG``.
        params: values for the message's placeholders.
    """

    def __init__(self, reason: str, **params: str) -> None:
        from engine.messages import render

        self.reason = reason
        self.params = params
        super().__init__(render(reason, params))


class IllegalAction(GameError):
    """The rules forbid this input now. The game state is unchanged.

    Args:
        reason: a message key from ``engine.messages.CATALOG`` (e.g. ``"illegal.vote.twice"``).
        params: values for the message's placeholders.
    """

    def __init__(self, reason: str, **params: str) -> None:
        from engine.messages import render

        self.reason = reason
        self.params = params
        super().__init__(render(reason, params))


class ConfigError(GameError):
    """Series settings or scenario data are invalid.

    The message starts with where the problem is (a file path and key path when known).
    """
