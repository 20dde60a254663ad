"""Fixtures for the sandbox command tests: a world with players online."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bridge.sandbox.world import World

WorldWith = Callable[..., World]


@pytest.fixture
def world_with() -> WorldWith:
    """A factory: ``world_with("Alice", "Bob")`` is a new world with those players online."""

    def make(*names: str) -> World:
        world = World()
        for name in names:
            world.join(name)
        return world

    return make
