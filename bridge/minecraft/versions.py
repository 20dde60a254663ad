"""The Minecraft Java Edition releases Castle supports, as one table that the pack builder, the doctor, the sandbox
and the docs all read.

Each row gives what an operator and the bridge need to know of a release: its network protocol and data version,
the data and resource pack formats it reads (``pack.mcmeta`` ``min_format``/``max_format``), the Server
Management Protocol version its ``rpc.discover`` reports, the Java it needs, and the data-pack forms that changed
in it. Sources: the Minecraft wiki pages "Pack format", "Data version", "Protocol version numbers" and "Minecraft
Server Management Protocol", and the version summary Spyglass ships (``@spyglassmc/java-edition``,
``lib/dependency/mcmeta/versions.json``).

The pack forms are the two breaks Castle's own files meet:
- 26.2 (data format 102, its third snapshot): an entity predicate is a map of named sub-predicates, so
  ``"type": "minecraft:player"`` is written ``"entity_type": "minecraft:player"``;
- 26.3 (data format 111, its fourth snapshot): a loot condition is keyed ``type`` instead of ``condition``, and an
  advancement trigger's ``player``/``entity`` takes one condition (or a predicate id), no list.
"""

from __future__ import annotations

from dataclasses import dataclass

PackFormat = tuple[int, int]
"""A pack format as ``(major, minor)``, the form ``pack.mcmeta`` writes ``[major, minor]``."""


@dataclass(frozen=True, slots=True)
class McVersion:
    """One supported release.

    ``name`` is the release's id (``"26.3"``); ``protocol`` its network protocol number; ``data_version`` the world
    data version it writes; ``data_pack``/``resource_pack`` the formats it reads; ``msmp`` the version string its
    ``rpc.discover`` reports (``info.version``); ``java`` the Java major version the server needs; ``released`` the
    release month (``YYYY-MM``); ``differences`` what changed in it that Castle meets, in plain words for the docs and
    the doctor.
    """

    name: str
    protocol: int
    data_version: int
    data_pack: PackFormat
    resource_pack: PackFormat
    msmp: str
    java: int
    released: str
    differences: tuple[str, ...] = ()

    @property
    def entity_predicate_map(self) -> bool:
        """Whether entity predicates are a map of named sub-predicates (``entity_type``, 26.2 and later)."""
        return self.data_pack >= ENTITY_PREDICATE_MAP_FROM

    @property
    def single_trigger_condition(self) -> bool:
        """Whether trigger ``player``/``entity`` take one condition keyed ``type`` (26.3 and later), not a list."""
        return self.data_pack >= SINGLE_TRIGGER_CONDITION_FROM

    @property
    def msmp_major(self) -> int:
        """The major part of :attr:`msmp` (2 on 1.21.11 and 26.1, 3 from 26.2)."""
        return int(self.msmp.split(".", 1)[0])

    @property
    def msmp_answers_before_start(self) -> bool:
        """Whether the management socket answers before the game has started (MSMP 3.x): calls made then may
        get error -32600 until the ``server/started`` notification (or ``server/status`` ``started: true``)."""
        return self.msmp_major >= 3


ENTITY_PREDICATE_MAP_FROM: PackFormat = (102, 0)
"""The first data format (26.2 snapshot 3) whose entity predicates are a map of named sub-predicates."""

SINGLE_TRIGGER_CONDITION_FROM: PackFormat = (111, 0)
"""The first data format (26.3 snapshot 4) with loot conditions keyed ``type`` and one condition per trigger field."""

SUPPORTED: tuple[McVersion, ...] = (
    McVersion("1.21.11", 774, 4671, (94, 1), (75, 0), "2.0.0", 21, "2025-12"),
    McVersion("26.1", 775, 4786, (101, 1), (84, 0), "2.0.0", 25, "2026-03", ("Java 25 needed",)),
    McVersion(
        "26.2",
        776,
        4903,
        (107, 1),
        (88, 0),
        "3.0.0",
        25,
        "2026-06",
        (
            "entity predicates are a map of named checks (entity_type, not type)",
            "MSMP 3.0.0: the management socket answers before the game has started",
        ),
    ),
    McVersion(
        "26.3",
        777,
        5023,
        (121, 0),
        (97, 1),
        "3.1.0",
        25,
        "2026-09",
        (
            "loot conditions are keyed type, not condition; a trigger's player/entity is one condition",
            "MSMP 3.1.0: world/upgrade_* notifications while a world is upgraded",
        ),
    ),
)
"""Every supported release, oldest first. 26.1.1 and 26.1.2 share 26.1's formats and protocol."""

OLDEST = SUPPORTED[0]
NEWEST = SUPPORTED[-1]

_BY_NAME = {v.name: v for v in SUPPORTED}
_BY_PROTOCOL = {v.protocol: v for v in SUPPORTED}


def version_named(name: str) -> McVersion:
    """The supported release named ``name``; a patch release maps to its line (``"26.1.2"`` → 26.1).

    Raises ``KeyError`` naming the supported releases when ``name`` is none of them.
    """
    found = _BY_NAME.get(name)
    if found is None and name.count(".") == 2 and not name.startswith("1."):
        found = _BY_NAME.get(name.rsplit(".", 1)[0])
    if found is None:
        raise KeyError(f"Minecraft {name} is not supported (supported: {', '.join(_BY_NAME)})")
    return found


def version_for_protocol(protocol: int) -> McVersion | None:
    """The supported release speaking network protocol ``protocol`` (as MSMP ``server/status`` reports it), or
    ``None`` when no supported release does (older, newer, or a snapshot)."""
    return _BY_PROTOCOL.get(protocol)


def names() -> tuple[str, ...]:
    """The supported release names, oldest first (the choices of ``--version``)."""
    return tuple(_BY_NAME)
