"""The records database's address (``[records] url`` of the serve config, ``traitors records --url``): which kind
of database it names and where, checked the same way by ``traitors check-config`` and by the service that opens
it (``bridge/records/db.py``), so a bad address is found before the series starts.

A password never goes into the address (it would sit in a file the operator shares and could reach a message):
PostgreSQL takes it from ``PGPASSWORD``, ``~/.pgpass`` or ``CASTLE_RECORDS_PASSWORD`` (``docs/seasons.md``).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from engine.errors import ConfigError

__all__ = ["PASSWORD_ENV", "parse_url", "url_problem"]

PASSWORD_ENV = "CASTLE_RECORDS_PASSWORD"
"""The secrets-file line (or environment variable) holding a PostgreSQL password, when ``~/.pgpass`` or
``PGPASSWORD`` does not."""


def url_problem(url: str) -> str | None:
    """What is wrong with a records address, without the address's password, or ``None`` when it is usable.

    Args:
        url: ``postgresql://user@host:port/db`` (or ``postgres://``), ``sqlite:///path/records.db``, or a plain
            file path (SQLite).

    Returns:
        One line (a password in a PostgreSQL address, an unknown scheme, no file), or ``None``.
    """
    parts = urlsplit(url)
    if parts.scheme in ("postgresql", "postgres"):
        if parts.password is not None:
            return (
                "a password does not belong in the address; put it in "
                f"{PASSWORD_ENV} (secrets file or environment), PGPASSWORD or ~/.pgpass"
            )
        return None
    if parts.scheme == "sqlite":
        if not parts.path or parts.path == "/":
            return f"{url!r} names no file (sqlite:///path/records.db)"
        return None
    if parts.scheme and len(parts.scheme) > 1:  # "C:" is a drive, not a scheme
        return f"unknown kind of database {parts.scheme!r} (postgresql://… or a file)"
    return "empty" if not url else None


def parse_url(url: str, base: Path | None = None) -> tuple[str, str]:
    """``(backend, target)`` of a records address.

    Args:
        url: as ``url_problem`` takes it.
        base: the folder a relative SQLite path is relative to (the serve config's).

    Returns:
        ``("postgresql", url)`` or ``("sqlite", absolute path)``.

    Raises:
        ConfigError: ``records: url: `` and the address's problem (``url_problem``).
    """
    problem = url_problem(url)
    if problem is not None:
        raise ConfigError(f"records: url: {problem}")
    parts = urlsplit(url)
    if parts.scheme in ("postgresql", "postgres"):
        return "postgresql", url
    p = Path(parts.path if parts.scheme == "sqlite" else url).expanduser()
    if not p.is_absolute() and base is not None:
        p = base / p
    return "sqlite", str(p)
