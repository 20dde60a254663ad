"""Who the host pages are for: one token per host, the session cookie a token is exchanged for, and the one-time
login links (``docs/host.md``, "Logging in to the grimoire").

House rules of this file:

1. Every host of the series has their own token (128 bits or more, ``secrets``): ``CASTLE_WEB_TOKEN_<NAME>``
   (the host's name in capitals) from the secrets file or the environment; ``CASTLE_WEB_TOKEN`` is the first
   host's when they have no line of their own (a series without a host: the token of a grimoire that only
   watches). A host without a token gets a new one at start, which the command line prints once to the
   operator's terminal. Two hosts never share a token: the token says who pressed.
2. A token is never put in an address. It is typed into the login form (``POST /host/login``) or stands behind a
   one-time link (``GET /host/login?once=…``) that dies when used, or ``LINK_LIFETIME`` seconds after it was
   made; either is exchanged for the session cookie.
3. The session cookie holds no token: it is ``HMAC-SHA256(token, "castle-session")`` in hex, so it stays valid
   across a restart with the same token and dies when the token changes. Every comparison is constant-time.
4. Nothing here logs a token, a cookie or a link.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bridge.config.files import read_secret_file
from engine.errors import ConfigError

__all__ = ["LINK_LIFETIME", "TOKEN_BYTES", "TOKEN_ENV", "HostKeys", "host_keys", "token_env"]

TOKEN_ENV = "CASTLE_WEB_TOKEN"
"""The secrets-file line (or environment variable) holding the first host's token."""

TOKEN_BYTES = 16
"""128 bits."""

LINK_LIFETIME = 3600.0
"""Seconds a one-time login link stays usable when nobody uses it."""

_SESSION = b"castle-session"


def token_env(host: str) -> str:
    """The secrets-file line (or environment variable) of one host's token: ``CASTLE_WEB_TOKEN_ALEX``."""
    return f"{TOKEN_ENV}_{host.upper()}"


def _session_of(token: str) -> str:
    return hmac.new(token.encode(), _SESSION, hashlib.sha256).hexdigest()


@dataclass
class HostKeys:
    """The hosts' tokens and what they open (house rules 1-3).

    Args:
        tokens: host name → token (``""``: the token of a series without a host, which may watch but not press).
        made: the hosts whose token was made at start (the command line prints those once).
        clock: seconds, for the links' lifetime.

    Raises:
        ConfigError: two hosts with one token.
    """

    tokens: Mapping[str, str]
    made: frozenset[str] = frozenset()
    clock: Callable[[], float] = time.monotonic
    _links: dict[str, tuple[str, float]] = field(default_factory=dict, init=False, repr=False)
    _sessions: dict[str, str] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        if len(set(self.tokens.values())) != len(self.tokens):
            raise ConfigError(
                "two hosts have the same web token: give each host their own (the token says who pressed)"
            )
        self._sessions = {_session_of(token): host for host, token in self.tokens.items()}

    @classmethod
    def one(cls, host: str, token: str | None = None) -> HostKeys:
        """One host with ``token`` (default: a new one, counted as made now)."""
        if token is None:
            return cls({host: secrets.token_hex(TOKEN_BYTES)}, frozenset({host}))
        return cls({host: token})

    @property
    def hosts(self) -> list[str]:
        """The hosts, in the order given."""
        return list(self.tokens)

    def login(self, given: str | None) -> str | None:
        """The host whose token ``given`` is (the login form), or ``None``."""
        if not given:
            return None
        found = None
        for host, token in self.tokens.items():  # every token compared: the time says nothing of which matched
            if hmac.compare_digest(given.encode(), token.encode()):
                found = host
        return found

    def session(self, host: str) -> str:
        """The session cookie's value for ``host`` (house rule 3)."""
        return _session_of(self.tokens[host])

    def host_of(self, cookie: str | None) -> str | None:
        """The host a session cookie stands for, or ``None`` (missing, wrong, or from an old token)."""
        if not cookie:
            return None
        found = None
        for session, host in self._sessions.items():
            if hmac.compare_digest(cookie.encode(), session.encode()):
                found = host
        return found

    def link(self, host: str) -> str:
        """A new one-time login code for ``host`` (house rule 2): ``/host/login?once=<code>``."""
        if host not in self.tokens:
            raise KeyError(host)
        code = secrets.token_urlsafe(TOKEN_BYTES)
        self._links[code] = (host, self.clock() + LINK_LIFETIME)
        return code

    def redeem(self, code: str | None) -> str | None:
        """The host of a one-time code, which dies now; ``None`` for a used, expired or unknown code."""
        now = self.clock()
        for old in [c for c, (_, until) in self._links.items() if until < now]:
            del self._links[old]
        if not code:
            return None
        match = next((c for c in self._links if hmac.compare_digest(c.encode(), code.encode())), None)
        return self._links.pop(match)[0] if match is not None else None


def _check(token: str, where: str, name: str) -> str:
    if len(token) < 2 * TOKEN_BYTES:
        raise ConfigError(
            f"{where}: {name} is too short: use 32 hex digits or more (python3 -c "
            "'import secrets; print(secrets.token_hex(16))')"
        )
    return token


def host_keys(env: Mapping[str, str], secrets_file: Path | None, hosts: Sequence[str]) -> HostKeys:
    """Every host's token (house rule 1): the secrets file first, then the environment, else a new one.

    Args:
        env: the environment.
        secrets_file: ``KEY=value`` lines (mode 0600), or ``None``.
        hosts: the series' hosts in order (empty: one token for a grimoire without a host, named ``""``).

    Raises:
        ConfigError: the secrets file cannot be read or others may read it, a token shorter than 128 bits of hex
            (32 characters), or two hosts with one token.
    """
    values: dict[str, str] = {}
    if secrets_file is not None:
        for line in read_secret_file(secrets_file).splitlines():
            key, _, value = line.strip().partition("=")
            if key.startswith(TOKEN_ENV):
                values[key] = value.strip()
    tokens: dict[str, str] = {}
    made: set[str] = set()
    for i, host in enumerate(hosts or [""]):
        names = ([token_env(host)] if host else []) + ([TOKEN_ENV] if i == 0 else [])
        found = next(((name, values[name], str(secrets_file)) for name in names if values.get(name)), None)
        found = found or next(
            ((name, env[name].strip(), "the environment") for name in names if env.get(name, "").strip()), None
        )
        if found is None:
            tokens[host] = secrets.token_hex(TOKEN_BYTES)
            made.add(host)
        else:
            name, token, where = found
            tokens[host] = _check(token, where, name)
    return HostKeys(tokens, frozenset(made))
