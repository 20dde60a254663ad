"""The spectator page in a real browser with a streamer's delay (``docs/host.md``, "The spectator page"): the
clock counts down as the castle's did, that many seconds later.

Skipped, with the reason shown, where ``chromium`` or ``chromedriver`` is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from bridge.web.rig import SandboxRig

from .test_grimoire_browser import CHROMEDRIVER, CHROMIUM, Running, browser, text, until

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no chromium/chromedriver: apt-get install chromium chromium-driver",
)
__all__ = ["browser"]  # the fixture, shared with the grimoire's tests

DELAY = 5.0
"""The spectator page's delay in seconds: well over the two seconds the test allows the clock to be off by, so a
page showing the castle's own seconds left (off by the whole delay) fails however the seconds are rounded."""


class Delayed(Running):
    """The rig with a delayed spectator page."""

    def __init__(self) -> None:
        super().__init__(SandboxRig(seed=7, delay=DELAY))


@pytest.fixture(scope="module")
def delayed() -> Iterator[Delayed]:
    r = Delayed()
    try:
        yield r
    finally:
        r.close()


def _seconds(clock: str) -> float | None:
    minutes, _, seconds = clock.partition(":")
    return 60 * int(minutes) + int(seconds) if minutes.isdigit() and seconds.isdigit() else None


def test_the_delayed_clock_shows_what_the_castle_showed(browser: Any, delayed: Delayed) -> None:
    """Day zero's clock reaches the page ``DELAY`` seconds late and shows then what the bossbar showed when it
    started: the castle's deadline plus the delay, never the castle's own seconds left."""
    rig = delayed.rig
    browser.get(rig.web.base + "/spectate")
    until(lambda: "live" in text(browser, "#link"))
    shown = until(lambda: _seconds(text(browser, "#clock")), timeout=DELAY + 10)
    deadline = rig.game.deadline
    assert deadline is not None
    castle_left = deadline - time.time()
    assert abs(shown - (castle_left + DELAY)) <= 2.0, (shown, castle_left)
