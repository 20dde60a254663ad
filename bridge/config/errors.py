"""The errors of config files, apart from the file models so that what only reads stored data (the series store's
settings JSON) needs no pydantic: ``ConfigFileError`` lists every problem of a file, ``ScenarioError`` is the one
of series and scenario files and of stored settings."""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import ConfigError


class ConfigFileError(ConfigError):
    """A config file cannot be read or is invalid; the message has one ``"<file>: <problem>"`` line per problem.

    Args:
        path: the file as given (used in every line of the message).
        problems: one ``"<key path>: <what is wrong>"`` per problem.
    """

    def __init__(self, path: str, problems: Sequence[str]) -> None:
        self.path = path
        self.problems = list(problems)
        super().__init__("\n".join(f"{path}: {p}" for p in self.problems))


class ScenarioError(ConfigFileError):
    """A scenario or series file cannot be read, is invalid, or the engine refused one of a scenario's inputs.

    Every line of the message starts with the file as given, then the key path or input index::

        day_one.toml: input[12].target: field required
        day_one.toml: input[14]: the engine refused cast_vote(voter=Kai, target=Kai): You cannot vote for
        yourself. [illegal.vote.self]

    Args:
        path: the file as given (or the name given to ``parse_scenario``).
        problems: one ``"<where>: <what is wrong>"`` per problem.
    """


__all__ = ["ConfigFileError", "ScenarioError"]
