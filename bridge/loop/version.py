"""Which Minecraft release the service talks to, learnt at start (``docs/operator.md#versions``).

House rules of this file:

1. The version comes from MSMP ``minecraft:server/status`` (``version``: ``{name, protocol}``) when MSMP is on,
   else from the RCON ``version`` command (vanilla since 1.21.6: ``protocol = 774 (0x306)`` among its lines).
   Neither answering leaves the version unknown: the service carries on with the oldest release's forms and a
   warning says so.
2. The protocol number is mapped through the table of supported releases (``bridge.minecraft.versions``). A
   release older than the oldest supported one is refused (``UnsupportedVersion``, one line naming the
   supported releases). A newer one, or a snapshot, is run with the newest supported release's forms and a
   warning: the data pack still loads where vanilla allows (an out-of-range pack format is only flagged).
3. The result (``ServerVersion``) is what command builders read; none differs by release today.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridge.errors import BridgeError
from bridge.io.rcon import RconClient
from bridge.minecraft.versions import NEWEST, OLDEST, McVersion, names, version_for_protocol

if TYPE_CHECKING:  # websockets is imported only where MSMP is used: a service without it starts sooner
    from bridge.io.msmp import MsmpClient

__all__ = [
    "KNOWN",
    "NEWER",
    "UNKNOWN",
    "ServerVersion",
    "UnsupportedVersion",
    "detect_version",
    "judge",
    "parse_version_reply",
]

log = logging.getLogger(__name__)

KNOWN, NEWER, UNKNOWN = "supported", "newer", "unknown"
SNAPSHOT_PROTOCOL = 0x40000000
"""Snapshots, pre-releases and release candidates report protocol numbers from here on (``0x40000000 + n``)."""

_PROTOCOL = re.compile(r"protocol = (\d+)")
_NAME = re.compile(r"name = (.+?)(?=data = |series = |protocol = |\n|$)")


class UnsupportedVersion(BridgeError):
    """The server runs a release older than the oldest Castle supports (house rule 2)."""


@dataclass(frozen=True, slots=True)
class ServerVersion:
    """What the service knows of the server's release.

    Attributes:
        forms: the supported release whose command and pack forms to use.
        reported: the version name the server gave (``"26.3"``), or ``""`` when it gave none.
        protocol: the network protocol number it gave, or ``None``.
        source: ``"msmp"``, ``"rcon"`` or ``""`` (nothing answered).
        support: ``"supported"``, ``"newer"`` (or a snapshot) or ``"unknown"``.
    """

    forms: McVersion
    reported: str = ""
    protocol: int | None = None
    source: str = ""
    support: str = UNKNOWN

    @property
    def summary(self) -> str:
        """One line for the operator: what the server runs and what the service does about it."""
        said = f"{self.reported or '?'} (protocol {self.protocol})" if self.protocol is not None else "unknown"
        if self.support == KNOWN:
            return f"Minecraft {said} over {self.source.upper()}: supported as {self.forms.name}"
        if self.support == NEWER:
            kind = "a snapshot, newer" if (self.protocol or 0) >= SNAPSHOT_PROTOCOL else "newer"
            return (
                f"Minecraft {said} is {kind} than {NEWEST.name}, the newest release Castle supports: running "
                f"with {NEWEST.name}'s forms; the data pack still loads where vanilla allows"
            )
        return (
            f"the server's Minecraft version is unknown (neither MSMP server/status nor the RCON version "
            f"command answered): running with {OLDEST.name}'s forms"
        )


def judge(protocol: int | None, reported: str = "", source: str = "") -> ServerVersion:
    """The verdict on a reported protocol (house rule 2).

    Args:
        protocol: the network protocol number, or ``None`` when nothing was learnt.
        reported: the version name as reported (for the messages).
        source: where it came from (``"msmp"`` / ``"rcon"``).

    Raises:
        UnsupportedVersion: a release older than the oldest supported one.
    """
    if protocol is None:
        return ServerVersion(OLDEST, reported, None, source, UNKNOWN)
    found = version_for_protocol(protocol)
    if found is not None:
        return ServerVersion(found, reported, protocol, source, KNOWN)
    if protocol < OLDEST.protocol:
        raise UnsupportedVersion(
            f"the server runs Minecraft {reported or '?'} (protocol {protocol}), older than "
            f"{OLDEST.name}; Castle supports {', '.join(names())}: update the server"
        )
    return ServerVersion(NEWEST, reported, protocol, source, NEWER)


def parse_version_reply(reply: str) -> tuple[int | None, str]:
    """``(protocol, name)`` from the RCON ``version`` command's reply; ``(None, "")`` when it holds no protocol
    (an older server answers "Unknown or incomplete command")."""
    protocol = _PROTOCOL.search(reply)
    name = _NAME.search(reply)
    return (int(protocol.group(1)) if protocol else None), (name.group(1).strip() if name else "")


async def _from_msmp(msmp: MsmpClient) -> tuple[int | None, str]:
    try:
        status: Any = await msmp.call("minecraft:server/status")
    except BridgeError as exc:
        log.info("MSMP server/status did not answer (%s); asking over RCON", exc)
        return None, ""
    version = status.get("version") if isinstance(status, dict) else None
    if not isinstance(version, dict) or not isinstance(version.get("protocol"), int):
        return None, ""
    return int(version["protocol"]), str(version.get("name", ""))


async def detect_version(rcon: RconClient | None, msmp: MsmpClient | None = None) -> ServerVersion:
    """Learn the server's release (house rule 1) and judge it (house rule 2); logs a warning unless supported.

    Args:
        rcon: an RCON client (connected or connectable), or ``None``.
        msmp: a started MSMP client, or ``None`` (MSMP off).

    Raises:
        UnsupportedVersion: the server runs a release older than the oldest supported one.
    """
    protocol, name, source = None, "", ""
    if msmp is not None:
        protocol, name = await _from_msmp(msmp)
        source = "msmp" if protocol is not None else ""
    if protocol is None and rcon is not None:
        try:
            protocol, name = parse_version_reply(await rcon.command("version"))
            source = "rcon" if protocol is not None else ""
        except BridgeError as exc:
            log.info("RCON version did not answer (%s)", exc)
    verdict = judge(protocol, name, source)
    if verdict.support == KNOWN:
        log.info(verdict.summary, extra={"event": "version", "version": verdict.forms.name})
    else:
        log.warning(verdict.summary, extra={"event": "version", "version": verdict.forms.name})
    return verdict
