"""The phase graph's driver (``engine.core.phasegraph``): it runs the node it is given, then every node the steps
return, in order, and stops when a step returns ``None``."""

from __future__ import annotations

import pytest

from engine.core.phasegraph import PhaseGraph


def _graph(trail: list[str]) -> PhaseGraph[list[str], str]:
    def step(name: str, then: str | None):
        def run(game: list[str]) -> str | None:
            game.append(name)
            return then

        return run

    return PhaseGraph({"a": step("a", "b"), "b": step("b", "c"), "c": step("c", None), "lost": step("lost", "nowhere")})


def test_the_driver_follows_the_returned_nodes_until_a_step_waits():
    trail: list[str] = []
    _graph(trail).run(trail, "a")
    assert trail == ["a", "b", "c"]


def test_entering_nothing_runs_nothing():
    trail: list[str] = []
    _graph(trail).run(trail, None)
    assert trail == []


def test_a_node_the_graph_lacks_is_a_key_error_after_the_steps_before_it_ran():
    trail: list[str] = []
    with pytest.raises(KeyError):
        _graph(trail).run(trail, "lost")
    assert trail == ["lost"]
