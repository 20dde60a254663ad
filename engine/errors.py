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

from typing import Any

from engine.messages import render


class GameError(Exception):
    """Base of every engine error."""


class _KeyedError(GameError):
    """An error whose message is a catalogue key with parameters (``reason``, ``params``).

    The text is rendered when the error is shown (``str``), not when it is raised: the engine raises and catches
    many while it lists the legal inputs (a power's candidate targets are checked by its validator).
    """

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params

    def __str__(self) -> str:
        return render(self.reason, self.params)


class InvalidCommand(_KeyedError):
    """The input is malformed: it names an unknown contestant or carries a bad payload.

    Args:
        reason: a message key from ``engine.messages.CATALOG``.
        params: values for the message's placeholders (text, or a term: an ``engine.effects.Message``).
    """


class IllegalAction(_KeyedError):
    """The rules forbid this input now. The game state is unchanged.

    Args:
        reason: a message key from ``engine.messages.CATALOG`` (e.g. ``"illegal.vote.twice"``).
        params: values for the message's placeholders (text, or a term: an ``engine.effects.Message``).
    """


class ConfigError(GameError):
    """Series settings or scenario data are invalid.

    The message starts with where the problem is (a file path and key path when known).
    """
