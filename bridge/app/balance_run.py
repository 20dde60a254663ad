"""Where ``traitors balance`` plays its series: this process, worker processes (``--jobs``) or a Dask cluster
(``--scheduler tcp://host:port``, the optional extra ``castle-traitors[cluster]``).

Every task is (setup, seeds) and its answer depends on nothing else: series ``j`` of every setup plays with the
seed ``engine.sim.series_seeds(seed, ...)[j]`` whoever plays it, and the answers are gathered in task order, so
the search's result is the same for any ``--jobs`` and on any cluster.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from engine.errors import ConfigError
from engine.sim import simulate

Task = tuple[Any, tuple[int, ...], "str | Mapping[str, str]"]
"""(settings, series seeds, bots)."""


def play(settings: Any, seeds: Sequence[int], bots: str | Mapping[str, str]) -> dict[str, int]:
    """Winning side → series won, over ``seeds`` (a module-level function, so it pickles for processes and Dask)."""
    return simulate(settings, seeds, bots=bots).wins


class Runner(Protocol):
    """Plays a list of tasks and returns their answers in task order."""

    def map(self, tasks: Sequence[Task], done: Callable[[int], None] | None = None) -> list[dict[str, int]]:
        """Each task's ``play`` answer; ``done(series)`` after each task finishes."""

    def close(self) -> None:
        """Release workers or the cluster connection."""


class LocalRunner:
    """This process, one task after another."""

    def map(self, tasks: Sequence[Task], done: Callable[[int], None] | None = None) -> list[dict[str, int]]:
        """See ``Runner``."""
        out = []
        for settings, seeds, bots in tasks:
            out.append(play(settings, seeds, bots))
            if done is not None:
                done(len(seeds))
        return out

    def close(self) -> None:
        """Nothing to release."""


class ProcessRunner:
    """``jobs`` worker processes (``concurrent.futures.ProcessPoolExecutor``), kept for the whole search."""

    def __init__(self, jobs: int) -> None:
        self.pool = concurrent.futures.ProcessPoolExecutor(max_workers=jobs)

    def map(self, tasks: Sequence[Task], done: Callable[[int], None] | None = None) -> list[dict[str, int]]:
        """See ``Runner``."""
        futures = {self.pool.submit(play, *t): i for i, t in enumerate(tasks)}
        out: list[dict[str, int]] = [{} for _ in tasks]
        for fut in concurrent.futures.as_completed(futures):
            i = futures[fut]
            out[i] = fut.result()
            if done is not None:
                done(len(tasks[i][1]))
        return out

    def close(self) -> None:
        """Stop the workers (pending tasks are cancelled)."""
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskRunner:
    """A Dask cluster: a ``distributed.Client`` to ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``, or a
    ``distributed.LocalCluster`` object for the tests). The workers need this project installed.

    Raises:
        ConfigError: ``distributed`` is not installed, or the scheduler cannot be reached (one line each).
    """

    def __init__(self, scheduler: Any) -> None:
        try:
            from distributed import Client, as_completed
        except ImportError:
            raise ConfigError("--scheduler needs Dask: pip install 'castle-traitors[cluster]'") from None
        try:
            self.client: Any = Client(scheduler, timeout=10)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise ConfigError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
        except ValueError as exc:  # distributed's address parsing: "missing port number in address ..."
            raise ConfigError(
                f"--scheduler: {scheduler!r} is not a scheduler address like tcp://HOST:8786 ({exc})"
            ) from None
        self._as_completed: Any = as_completed

    def map(self, tasks: Sequence[Task], done: Callable[[int], None] | None = None) -> list[dict[str, int]]:
        """See ``Runner``; tasks are submitted unpure (``pure=False``) so equal tasks are still played apart."""
        futures = [self.client.submit(play, *t, pure=False) for t in tasks]
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[dict[str, int]] = [{} for _ in tasks]
        for fut in self._as_completed(futures):
            i = index[fut.key]
            out[i] = fut.result()
            if done is not None:
                done(len(tasks[i][1]))
        return out

    def close(self) -> None:
        """Close the connection (the cluster keeps running)."""
        self.client.close()


def runner(jobs: int = 1, scheduler: Any = None) -> Runner:
    """The runner for ``--jobs`` / ``--scheduler`` (the scheduler wins when both are given).

    Raises:
        ConfigError: ``jobs`` below 1, or a ``DaskRunner`` failure.
    """
    if jobs < 1:
        raise ConfigError(f"--jobs: {jobs}; at least 1")
    if scheduler is not None:
        return DaskRunner(scheduler)
    return ProcessRunner(jobs) if jobs > 1 else LocalRunner()


__all__ = ["DaskRunner", "LocalRunner", "ProcessRunner", "Runner", "Task", "play", "runner"]
