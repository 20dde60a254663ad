"""Reading the operator's files (castle, series, scenario and serve configs): one message for every way a read
can fail, so a bad file is always reported by name and never stops a command with a traceback."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from engine.errors import ConfigError


def read_config_text(path: str | Path, error: Callable[[str, list[str]], ConfigError]) -> str:
    """The text of a UTF-8 file.

    Args:
        path: the file.
        error: makes the error to raise from the file's name as given and its one problem
            (``ConfigFileError``, ``ScenarioError``, …).

    Raises:
        ConfigError: ``error(str(path), [problem])`` when the file cannot be read or is not UTF-8 text.
    """
    name = str(path)
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(name, [f"cannot read the file: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError:
        raise error(name, ["not UTF-8 text"]) from None


def read_secret_file(path: str | Path, what: str = "secrets file") -> str:
    """The text of a file holding a secret (an RCON password, an MSMP secret, ``KEY=value`` secret lines).

    One check for every command that reads a secret from a file (``serve``'s ``secrets_file``, ``doctor
    --secrets-file``, ``sandbox`` and ``serve-demo --password-file``): on POSIX the file must give group and
    others no access at all (``chmod 600``), as OpenSSH requires of a private key.

    Args:
        path: the file.
        what: what the file is, for the message (``"password file"``).

    Raises:
        ConfigError: one line naming the file: it cannot be read, is not UTF-8, or others may read or write it.
    """
    try:
        mode = os.stat(path).st_mode
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the {what} is not UTF-8 text") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConfigError(f"{path}: others may read this {what} (mode {stat.S_IMODE(mode):o}); run chmod 600 on it")
    return text


def read_secret_lines(path: str | Path) -> dict[str, str]:
    """The ``KEY=value`` lines of a secrets file (``serve``'s ``secrets_file``, ``doctor --secrets-file``), read as
    ``read_secret_file`` reads it; blank lines and ``#`` comments are skipped, keys and values stripped.

    Raises:
        ConfigError: as ``read_secret_file``, or ``"<file>: line N: expected KEY=value"``.
    """
    values: dict[str, str] = {}
    for n, raw in enumerate(read_secret_file(path).splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise ConfigError(f"{path}: line {n}: expected KEY=value")
        values[key.strip()] = value.strip()
    return values


__all__ = ["read_config_text", "read_secret_file", "read_secret_lines"]
