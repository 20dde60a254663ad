"""The check every ruleset gives a phase clock's length from a series file's ``[durations]``.

A clock is shown on the boss bar in whole seconds (``bossbar set … max``, vanilla's 32-bit int), so a length is
bounded: ``MAX_DURATION`` is a day, far above any phase, and the host can still extend a running clock
(``engine.core.host.MAX_EXTENSION`` at a time).
"""

from __future__ import annotations

from engine.errors import ConfigError

MAX_DURATION = 86_400
"""The longest phase clock a series file may set, in seconds (one day)."""


def check_duration(key: str, value: object) -> None:
    """Check ``durations.<key>``: a number of seconds, more than 0 and at most ``MAX_DURATION``.

    Args:
        key: the phase clock's name (for the message).
        value: the value as read (an int or float; anything else is refused).

    Raises:
        ConfigError: ``durations.<key>: …`` saying what is wrong.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= MAX_DURATION:
        raise ConfigError(
            f"durations.{key}: {value!r} must be a positive number of seconds, at most {MAX_DURATION} (a day)"
        )


__all__ = ["MAX_DURATION", "check_duration"]
