"""Opening the series store for ``traitors serve`` and ``traitors serve-demo``: a store that is there is checked
and locked before the server is reached; one that is not there yet is made only once the server has answered.

So a store problem (locked, damaged, empty) is reported without a server, and a server that refuses the login
leaves no new store, and no dealt but unstarted series, behind (``bridge/loop/store.py`` house rule 6 would
refuse such a store on the next run).
"""

from __future__ import annotations

from pathlib import Path

from bridge.loop.store import SIDE_FILES, SeriesStore, StoreError


def store_is_there(path: str | Path) -> bool:
    """Whether a store, or a trace of one (its lock or SQLite side files), is at ``path``."""
    return any(Path(f"{path}{side}").exists() for side in ("", ".lock", *SIDE_FILES))


def open_store(path: str | Path, *, fresh: bool) -> SeriesStore:
    """The store at ``path``, opened and locked (``bridge/loop/store.py`` house rules 5 and 6).

    Args:
        path: the store file (created when missing and without traces).
        fresh: ``--new-series``: an existing file that holds no series may be started afresh.

    Raises:
        StoreError: not a store, damaged, empty without ``fresh``, or locked by another service.
    """
    store = SeriesStore(path, fresh=fresh)
    try:
        store.lock()
    except BaseException:
        store.close()
        raise
    return store


def refuse_new_while_running(store: SeriesStore) -> None:
    """``--new-series`` starts a new series only in a store that holds none or whose newest series is over: a
    running one is never dropped nor quietly resumed instead (``serve`` and ``serve-demo`` alike).

    Raises:
        StoreError: the newest series of ``store`` is still running.
    """
    latest = store.latest()
    if latest is not None and not store.is_over(latest):
        raise StoreError(
            f"{store.path}: series {latest} is still running; finish it (or end it from the host "
            "console) before starting a new one"
        )


__all__ = ["open_store", "refuse_new_while_running", "store_is_there"]
