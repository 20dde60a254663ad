"""Reading the operator's files (castle, series, scenario and serve configs): one message for every way a read
can fail, so a bad file is always reported by name and never stops a command with a traceback."""

from __future__ import annotations

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


def one_line_error(name: str, problems: list[str]) -> ConfigError:
    """A plain ``ConfigError`` whose lines are ``"<name>: <problem>"`` (for ``read_config_text``)."""
    return ConfigError("\n".join(f"{name}: {p}" for p in problems))


__all__ = ["one_line_error", "read_config_text"]
