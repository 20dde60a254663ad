"""The cast every ruleset checks: contestants and hosts are Minecraft player names, and no two are one player.

Shared by the rulesets' settings and by the host's replacement of a contestant (``engine.core.host``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from engine.errors import ConfigError

NAME_RE = re.compile(r"^[A-Za-z0-9_]{3,16}$")
"""Current Java Edition player names: 3–16 of ``[A-Za-z0-9_]``."""


def same_player(name: str, names: Iterable[str]) -> str | None:
    """The name among ``names`` that Minecraft takes for the same player as ``name``, or ``None``.

    A Minecraft server finds a player by name without regard to case (``tellraw ab_ …`` reaches ``Ab_``), so
    ``kai`` and ``Kai`` are one player. Used by ``check_cast`` and by the host's replacement of a contestant.

    Args:
        name: a player name.
        names: the names already in use.
    """
    key = name.lower()
    return next((n for n in names if n.lower() == key), None)


def check_cast(
    contestants: Sequence[str], hosts: Sequence[str] = (), *, field: str = "contestants", hosts_field: str = "hosts"
) -> None:
    """Check the names of a cast: every contestant and host a Minecraft name, and no two players one.

    The one check every way of configuring a cast passes (series, scenario and serve files through ``Settings``
    and the club rulesets' settings, ``traitors sandbox --names/--hosts``). A Minecraft server finds a player by
    name without regard to case (``tellraw ab_ …`` and ``give ab_ …`` reach ``Ab_``), so names that differ only
    in case are refused like equal ones.

    Args:
        contestants: the contestants in seat order.
        hosts: the hosts (never contestants, rulebook §1).
        field: how the contestants are named in the message (``"contestants"``, ``"--names"``).
        hosts_field: how the hosts are named in the message.

    Raises:
        ConfigError: one line starting with the field: a name that is not 3-16 of ``[A-Za-z0-9_]``, a name
            listed twice, two names that differ only in case (both named), a host who is a contestant.
    """
    seen: dict[str, str] = {}
    twice: list[str] = []
    for i, name in enumerate(contestants):
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise ConfigError(f"{field}[{i}]: {name!r} is not a Minecraft name (3-16 of A-Z a-z 0-9 _)")
        other = seen.setdefault(name.lower(), name)
        if other == name and contestants.index(name) != i:
            twice.append(name)
        elif other != name:
            raise ConfigError(
                f"{field}: {other} and {name} differ only in case; Minecraft takes them for one "
                "player, so each contestant needs a name of their own"
            )
    if twice:
        raise ConfigError(f"{field}: duplicate names {', '.join(sorted(set(twice)))}")
    host_seen: dict[str, str] = {}
    for h in hosts:
        if not isinstance(h, str) or not NAME_RE.match(h):
            raise ConfigError(f"{hosts_field}: {h!r} is not a Minecraft name")
        contestant = same_player(h, seen.values())
        if contestant == h:
            raise ConfigError(f"{hosts_field}: {h} is a contestant; the host is not a contestant (rulebook §1)")
        if contestant is not None:
            raise ConfigError(
                f"{hosts_field}: {h} and contestant {contestant} differ only in case; Minecraft takes "
                "them for one player (the host is not a contestant, rulebook §1)"
            )
        other = host_seen.setdefault(h.lower(), h)
        if other != h:
            raise ConfigError(
                f"{hosts_field}: {other} and {h} differ only in case; Minecraft takes them for one player"
            )


__all__ = ["NAME_RE", "check_cast", "same_player"]
