"""The castle's places as coordinates (``world_config/castle.toml``), validated with pydantic v2 at load.

The castle is frozen dataclasses whose values are plain floats; a file is read and validated by its pydantic model
(``bridge.config.castle_file.load_castle``, imported only where a file is read), and every problem in a file is reported at
once (``bridge.config.model``), each naming the file and the key path::

    castle.toml: places.diary_room: field required
    castle.toml: seats[3].yaw: input should be a valid number

Units: ``x``/``y``/``z`` in blocks (absolute world coordinates), ``yaw``/``pitch`` in degrees (Minecraft's
convention: yaw 0 faces south/+z, 90 west, ±180 north, -90 east; pitch -90 up … 90 down).

A castle built by ``traitors build-castle`` also has a ``[built]`` table (blueprint, origin, seats) from which its
plan can be drawn again; ``castle_toml``/``write_castle`` write the file it reads back.
"""

from __future__ import annotations

import importlib.resources
import math
import os
import tempfile
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.ids import Place

MAX_SEATS = 16
"""The castle seats at most 16 contestants (one round-table seat and one home each)."""
BORDER = 29_999_984
"""Vanilla's default world border: x and z lie within -BORDER..BORDER (blocks; minecraft.wiki/w/World_border).
A player cannot be teleported past it, so no place may lie outside."""


@dataclass(frozen=True, slots=True)
class Location:
    """A point in the world and the way a teleported player faces.

    Args:
        x: blocks east (+) / west (-), inside the default world border (``BORDER``).
        y: blocks up; -64..320 (the overworld's build range).
        z: blocks south (+) / north (-), inside the default world border.
        yaw: degrees, -360..360 (0 south, 90 west, 180 north, -90 east).
        pitch: degrees, -90 (up) .. 90 (down).
    """

    x: float
    y: float
    z: float
    yaw: float = 0.0
    pitch: float = 0.0

    def __post_init__(self) -> None:
        # whole numbers are kept as floats, as a file's are: commands and castle files write ``64.0``, not ``64``
        for name in ("x", "y", "z", "yaw", "pitch"):
            object.__setattr__(self, name, float(getattr(self, name)))


@dataclass(frozen=True, slots=True)
class CastlePlaces:
    """One location for each place of ``engine.ids.Place`` that is not per contestant."""

    breakfast_room: Location
    foyer: Location
    library: Location
    bar: Location
    kitchen: Location
    billiards_room: Location
    diary_room: Location
    finale_area: Location
    oath_spot: Location
    turret: Location
    confession_room: Location
    gate: Location


@dataclass(frozen=True, slots=True)
class BuiltBy:
    """How ``traitors build-castle`` built this castle, so the plan can be drawn again (``traitors castle-map``).

    Args:
        origin: the castle's north-west bottom corner, ``[x, y, z]`` in blocks.
        seats: the seats built (1..16).
        blueprint: the layout's name (``bridge.minecraft.castle.blueprint.BLUEPRINT``).
    """

    origin: list[int]
    seats: int
    blueprint: str


PER_SEAT_PLACES: frozenset[Place] = frozenset({Place.ROUND_TABLE, Place.HOME, Place.BREAKFAST_TABLE, Place.HOME_VISIT})
"""Places with one location per seat (the effect carries the seat number). ``HOME_VISIT`` is not in the file: it is
worked out from the home (``CastleConfig.visitor``)."""

VISIT_AHEAD = 2.0
"""Blocks in front of a home's spot (along its facing) where its visitors stand."""
VISIT_SIDE = 1.0
"""Blocks to either side of that line: the first visitor stands to the left, the second to the right."""
VISITORS = 2
"""Visitor spots per home: at most two Traitors bring an offer (a seduction needs exactly two, rulebook §7.2)."""

BREAKFAST_REQUIRED = (
    "field required: one place per seat at the breakfast table, where each contestant's player head is set as "
    "they arrive ([[breakfast]] tables, seat 1 first; `traitors build-castle` writes them; docs/operator.md, "
    '"The castle")'
)
"""The problem a castle file without ``[[breakfast]]`` places is reported with."""


@dataclass(frozen=True, slots=True)
class CastleConfig:
    """The whole castle: the shared places, the round-table seats, the contestants' homes and their places at the
    breakfast table.

    Args:
        places: the shared places.
        seats: round-table seats, seat 1 first (1..16 entries), each facing the table's centre.
        homes: contestants' homes, by seat number (1..16 entries).
        breakfast: places at the breakfast table, by seat number (1..16 entries; required): the block where the
            contestant's player head is set as they arrive at breakfast (rulebook §10), ``yaw`` the way its face
            looks (rounded to the nearest of the head's 16 rotations).
        built: how ``traitors build-castle`` built it; ``None`` for a castle built by hand.
    """

    places: CastlePlaces
    seats: list[Location]
    homes: list[Location]
    breakfast: list[Location] = field(default_factory=list)
    built: BuiltBy | None = None

    def location(self, place: Place, seat: int | None = None) -> Location:
        """Where ``place`` is; per-seat places (round table, home, breakfast table, a home's visitors) need ``seat``
        (1-based). For ``HOME_VISIT`` it is the first visitor's spot (``visitor``).

        Raises:
            ValueError: a per-seat place without a seat, or a seat the castle does not have.
        """
        if place is Place.HOME_VISIT:
            if seat is None:
                raise ValueError(f"{place.value} needs a seat number 1..{len(self.homes)}, got None")
            return self.visitor(seat, 0)
        if place in PER_SEAT_PLACES:
            spots = {Place.ROUND_TABLE: self.seats, Place.HOME: self.homes}.get(place, self.breakfast)
            if seat is None or not 1 <= seat <= len(spots):
                raise ValueError(f"{place.value} needs a seat number 1..{len(spots)}, got {seat!r}")
            return spots[seat - 1]
        loc: Location = getattr(self.places, place.value)
        return loc

    def visitor(self, seat: int, k: int) -> Location:
        """Where the ``k``-th visitor (0-based) of the home of ``seat`` stands: ``VISIT_AHEAD`` blocks in front of
        the home's spot, ``VISIT_SIDE`` blocks to its left (even ``k``) or right (odd ``k``), facing the spot, level.
        The Traitors who bring an offer stand here (rulebook §7.2, §10 "Traitors' Equipment"); ``traitors
        rehearse`` checks each visitor spot is standable.

        Raises:
            ValueError: a seat the castle does not have.
        """
        home = self.location(Place.HOME, seat)
        yaw = math.radians(home.yaw)
        ahead_x, ahead_z = -math.sin(yaw), math.cos(yaw)  # yaw 0 faces +z (south), yaw 90 faces -x (west)
        side = VISIT_SIDE if k % 2 == 0 else -VISIT_SIDE
        x = home.x + VISIT_AHEAD * ahead_x + side * ahead_z
        z = home.z + VISIT_AHEAD * ahead_z - side * ahead_x
        back = (home.yaw + 180.0) % 360.0
        return Location(
            x=round(x, 2) + 0.0, y=home.y, z=round(z, 2) + 0.0, yaw=back - 360.0 if back > 180.0 else back, pitch=0.0
        )


SHARED_PLACES: tuple[str, ...] = tuple(f.name for f in fields(CastlePlaces))
"""The names of the shared places, in the file's order (``CastlePlaces``)."""

assert set(SHARED_PLACES) == {p.value for p in Place} - {p.value for p in PER_SEAT_PLACES}


def castle_of(data: dict[str, Any]) -> CastleConfig:
    """The castle from a castle file's data (``[places]``, ``[[seats]]``, ``[[homes]]``, ``[[breakfast]]``,
    ``[built]``) as it stands, unchecked: for data already validated (``bridge.config.castle_file``) or shipped
    with the package and loaded by the tests.

    Raises:
        KeyError, TypeError: a table or key is missing or unknown.
    """
    built = data.get("built")
    return CastleConfig(
        places=CastlePlaces(**{k: Location(**v) for k, v in data["places"].items()}),
        seats=[Location(**v) for v in data["seats"]],
        homes=[Location(**v) for v in data["homes"]],
        breakfast=[Location(**v) for v in data.get("breakfast", [])],
        built=None if built is None else BuiltBy(**built),
    )


def default_castle() -> CastleConfig:
    """The sample castle shipped in the ``world_config`` package (``castle.toml``), read as it stands: the tests
    validate the shipped file (``bridge.config.castle_file.parse_castle``), so a service resuming on it needs no pydantic.

    Raises:
        KeyError, TypeError, tomllib.TOMLDecodeError: the shipped file is broken (a packaging bug).
    """
    resource = importlib.resources.files("world_config").joinpath("castle.toml")
    return castle_of(tomllib.loads(resource.read_text(encoding="utf-8")))


_HEADER = """\
# The castle's places (rulebook §10) as world coordinates, validated by bridge/config/castle.py at load.
#
# Units: x, y, z in blocks (absolute world coordinates; .5 is the middle of a block); yaw and pitch in degrees
# (yaw 0 = facing south/+z, 90 = west/-x, 180 = north/-z, -90 = east/+x; pitch 0 = level, -90 up, 90 down).
# [places] has every shared place; [[seats]] the round-table seats (seat 1 first), [[homes]] the homes by seat,
# [[breakfast]] each seat's place at the breakfast table (the block where the contestant's head is set; yaw: the
# way the head faces).
"""


def _inline(loc: Location) -> str:
    return f"{{ x = {loc.x!r}, y = {loc.y!r}, z = {loc.z!r}, yaw = {loc.yaw!r}, pitch = {loc.pitch!r} }}"


def _table(name: str, n: int, loc: Location) -> list[str]:
    return ["", f"[[{name}]]  # seat {n}", *(f"{k} = {getattr(loc, k)!r}" for k in ("x", "y", "z", "yaw", "pitch"))]


def castle_toml(castle: CastleConfig, comment: str = "") -> str:
    """The castle as the TOML text ``bridge.config.castle_file.parse_castle`` reads back to an equal ``CastleConfig``.

    Args:
        castle: the castle to write.
        comment: lines to add to the header (each written as a ``#`` comment).
    """
    lines = [_HEADER.rstrip("\n")] + [f"# {line}".rstrip() for line in comment.splitlines()]
    if castle.built is not None:
        b = castle.built
        lines += [
            "",
            "[built]",
            f"origin = [{', '.join(str(c) for c in b.origin)}]",
            f"seats = {b.seats}",
            f'blueprint = "{b.blueprint}"',
        ]
    lines += ["", "[places]"]
    lines += [f"{name} = {_inline(getattr(castle.places, name))}" for name in SHARED_PLACES]
    for n, seat in enumerate(castle.seats, 1):
        lines += _table("seats", n, seat)
    for n, home in enumerate(castle.homes, 1):
        lines += _table("homes", n, home)
    for n, spot in enumerate(castle.breakfast, 1):
        lines += _table("breakfast", n, spot)
    return "\n".join([*lines, ""])


def write_castle(path: str | Path, castle: CastleConfig, comment: str = "") -> Path:
    """Write ``castle`` to ``path`` atomically (a temporary file beside it, then renamed over it).

    Raises:
        OSError: the folder cannot be written.
    """
    return write_text_atomically(path, castle_toml(castle, comment))


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file in the same folder renamed over it, so a
    reader sees the old file or the new one, never a part.

    Raises:
        OSError: the folder cannot be written.
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
