"""The castle as data, and the plan that builds it from an origin (sans-I/O).

The castle holds every place of the Traitors rulebook (§10 "Items and places"): the great hall with the round
table and one seat per contestant facing its centre; the breakfast room with its long table, one place on it
per seat (where the contestant's player head is set at breakfast) and a chair before each; the library, bar,
kitchen and billiards room; the confession room; the foyer; the diary room upstairs, a closed booth; the tower with
the Traitors' Oath spot and the Traitors' Turret at the top; the courtyard with the finale's fire pit; the gate; and
a lane of homes, one per seat.

Layout, in blocks from the origin (``x`` east, ``y`` up, ``z`` south; the origin is the north-west corner of the
castle's lowest layer, which becomes its floor, so players stand at ``y + 1``):

- courtyard ``x 0..48, z 0..20`` (curtain wall 6 high, battlements), the fire pit at ``(24, z 10)``;
- tower ``x 0..10, z 0..10``, 25 high: a ladder up to the Oath landing (``y 19``), the Turret beside it;
- keep ``x 0..48, z 20..60``, two floors (``y 1..5`` and ``y 7..11``), battlements on the roof at ``y 13``;
  west wing: library, billiards room, confession room; centre: great hall, foyer (stairs up); east wing:
  breakfast room, bar, kitchen; upstairs: a gallery with the diary room booth over the great hall;
- gatehouse ``x 20..28, z 61..63``; the gate place outside it at ``z 65``;
- the lane south of the gate: homes of seats 1, 3, 5 … on its west side, 2, 4, 6 … on its east side.

Minecraft facts kept: only blocks present in every supported release (1.21.11 to 26.3); every room is lit by
glowstone or sea lanterns so that no floor block has block light 0 (hostile mobs spawn only at block light 0 since
1.18); doors are placed lower half first, then upper (a lower half checks for its upper half only when a
neighbour changes). Yaw: 0 faces south (+z), 90 west, 180 north, -90 east.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bridge.config.castle import BORDER, MAX_SEATS, BuiltBy, CastleConfig, CastlePlaces, Location
from bridge.minecraft.castle.geometry import Box, Op, Pos, box

__all__ = ["BLUEPRINT", "CastlePlan", "Room", "castle_extent", "plan_castle", "seat_spots"]

BLUEPRINT = "castle-1"
"""The name of this layout, written into the castle file's ``[built]`` table (``castle-map`` redraws from it)."""

MIN_SEATS = 1

WALL = "minecraft:stone_bricks"
TOWER = "minecraft:cobblestone"
AIR = "minecraft:air"
GLASS = "minecraft:glass"
GLOW = "minecraft:glowstone"
LANTERN = "minecraft:sea_lantern"
HOME_WALL = "minecraft:oak_planks"
HOME_ROOF = "minecraft:spruce_planks"

BREAKFAST_TABLE = (41, 43, 25)
"""The breakfast table's places (relative): the west column x, the east column x, the first row's z. Odd seats sit
on the west side, even seats on the east, one row of two per two seats (at most eight rows, z 25..32: the table
runs z 24..34), each on the table's top (``y 2``) with its chair one block further out."""

TABLE_CENTRE = (24, 34)
"""The round table's centre block (relative x, z); the seats stand on a circle around its middle."""
SEAT_RADIUS = 6.0
TABLE_RADIUS = 4.5
HOME_ROW = 8
"""Blocks between one home and the next along the lane."""
LANE_START = 68


@dataclass(frozen=True, slots=True)
class Room:
    """A room of the castle: ``key`` (the castle file's place name, or ``great_hall``/``gallery``/``home_<n>``),
    ``label`` for the map, its air ``interior`` (absolute), and ``closed`` when no air path may lead out of it
    except through a door (the diary room booth, the Turret)."""

    key: str
    label: str
    interior: Box
    closed: bool = False


@dataclass(frozen=True, slots=True)
class CastlePlan:
    """What to build and what it gives: the steps in order, the areas they stay within (what ``--remove`` clears
    and the probe checks), the rooms, and the castle file of the places built.

    ``origin`` is the absolute block position of the castle's north-west bottom corner; ``seats`` 1..16.
    """

    origin: Pos
    seats: int
    ops: tuple[Op, ...]
    areas: tuple[Box, ...]
    rooms: tuple[Room, ...]
    castle: CastleConfig

    def commands(self) -> list[str]:
        """Every ``fill``/``setblock`` command of the build, in order (each fill under the block limit)."""
        return [cmd for op in self.ops for cmd in op.commands()]


# ------------------------------------------------------------------------------------------- the blueprint

_ROOMS: tuple[tuple[str, str, tuple[int, int, int, int, int, int], str, bool], ...] = (
    # key, label, interior (x1 y1 z1 x2 y2 z2, relative), floor, closed
    ("courtyard", "Courtyard", (1, 1, 1, 47, 5, 19), "minecraft:cobblestone", False),
    ("library", "Library", (1, 1, 21, 11, 5, 33), "minecraft:oak_planks", False),
    ("billiards_room", "Billiards room", (1, 1, 35, 11, 5, 46), "minecraft:dark_oak_planks", False),
    ("confession_room", "Confession room", (1, 1, 48, 11, 5, 59), "minecraft:black_wool", False),
    ("great_hall", "Great hall", (13, 1, 21, 35, 5, 47), "minecraft:polished_andesite", False),
    ("foyer", "Foyer", (13, 1, 49, 35, 5, 59), "minecraft:smooth_stone", False),
    ("breakfast_room", "Breakfast room", (37, 1, 21, 47, 5, 37), "minecraft:birch_planks", False),
    ("bar", "Bar", (37, 1, 39, 47, 5, 48), "minecraft:spruce_planks", False),
    ("kitchen", "Kitchen", (37, 1, 50, 47, 5, 59), "minecraft:smooth_stone", False),
    ("gallery", "Gallery (upstairs)", (1, 7, 21, 47, 11, 59), "minecraft:oak_planks", False),
    ("diary_room", "Diary room (upstairs)", (23, 7, 23, 25, 9, 25), "minecraft:red_wool", True),
    ("tower", "Tower", (1, 1, 1, 9, 17, 9), "minecraft:mossy_cobblestone", False),
    ("oath_spot", "Oath landing", (1, 19, 6, 9, 22, 9), "minecraft:spruce_planks", False),
    ("turret", "Traitors' Turret", (1, 19, 1, 9, 22, 4), "minecraft:red_nether_bricks", True),
)
"""The rooms in build order (a later room's walls are built over an earlier one's air: the tower over the
courtyard, the diary room booth inside the gallery)."""

_DOORS: tuple[tuple[int, int, int, str], ...] = (
    # x, y (lower half), z, facing (relative); walls run along x or z
    (24, 1, 20, "north"),  # great hall -> courtyard
    (24, 1, 48, "south"),  # great hall -> foyer
    (24, 1, 60, "south"),  # foyer -> gate
    (12, 1, 27, "west"),  # great hall -> library
    (12, 1, 41, "west"),  # great hall -> billiards room
    (12, 1, 54, "west"),  # foyer -> confession room
    (6, 1, 34, "south"),  # library -> billiards room
    (36, 1, 29, "east"),  # great hall -> breakfast room
    (36, 1, 44, "east"),  # great hall -> bar
    (36, 1, 54, "east"),  # foyer -> kitchen
    (42, 1, 38, "south"),  # breakfast room -> bar
    (42, 1, 49, "south"),  # bar -> kitchen
    (24, 7, 26, "south"),  # gallery -> diary room
    (5, 1, 10, "south"),  # tower -> courtyard
    (5, 19, 5, "south"),  # Oath landing -> Turret
)

_PLACES: dict[str, tuple[float, float, float, float, float]] = {
    # relative x, y (feet), z, yaw, pitch
    "breakfast_room": (45.5, 1, 29.5, 90.0, 10.0),
    "foyer": (24.5, 1, 56.5, 180.0, 0.0),
    "library": (7.5, 1, 27.5, 90.0, 0.0),
    "bar": (42.5, 1, 45.5, 180.0, 10.0),
    "kitchen": (41.5, 1, 54.5, -90.0, 0.0),
    "billiards_room": (6.5, 1, 45.5, 180.0, 20.0),
    "diary_room": (24.5, 7, 24.5, 180.0, 0.0),
    "finale_area": (24.5, 1, 14.5, 180.0, 20.0),
    "oath_spot": (5.5, 19, 7.5, 180.0, 0.0),
    "turret": (5.5, 19, 1.5, 0.0, 10.0),
    "confession_room": (6.5, 1, 53.5, 0.0, 0.0),
    "gate": (24.5, 1, 65.5, 0.0, 0.0),
}
"""Where each shared place stands (feet) and how a player teleported there faces."""

_FURNITURE: tuple[tuple[int, int, int, int, int, int, str], ...] = (
    # the great hall's table: filled row by row in _round_table; the rest as boxes (relative)
    (41, 1, 24, 43, 1, 34, "minecraft:spruce_planks"),  # breakfast room: the long table
    (1, 1, 21, 1, 4, 33, "minecraft:bookshelf"),  # library: west wall of shelves
    (2, 1, 21, 11, 4, 21, "minecraft:bookshelf"),  # library: north wall of shelves
    (4, 1, 38, 8, 1, 43, "minecraft:green_wool"),  # billiards room: the table
    (38, 1, 42, 44, 1, 42, "minecraft:barrel"),  # bar: the counter
    (47, 1, 40, 47, 2, 47, "minecraft:barrel"),  # bar: the shelves along the east wall
    (47, 1, 51, 47, 1, 58, "minecraft:smoker"),  # kitchen: ovens along the east wall
    (44, 1, 55, 45, 1, 57, "minecraft:crafting_table"),  # kitchen: the worktop
    (6, 1, 50, 6, 1, 50, "minecraft:oak_stairs[facing=south]"),  # confession room: the chair
    (23, 0, 9, 25, 0, 11, "minecraft:stone_bricks"),  # courtyard: the hearth under the fire pit
    (24, 1, 10, 24, 1, 10, "minecraft:campfire"),  # courtyard: the fire pit
    (4, 19, 3, 6, 19, 3, "minecraft:dark_oak_planks"),  # Turret: the table, between its place and the door
    (24, 7, 23, 24, 7, 23, "minecraft:spruce_stairs[facing=north]"),  # diary room: the chair's back
)

_LIGHTS: tuple[tuple[int, int, int, int, int, int, str], ...] = (
    # ground-floor ceiling and roof: strips of glowstone over every room (relative)
    *((1, 6, z, 47, 6, z, GLOW) for z in (24, 30, 36, 42, 54)),
    *((1, 12, z, 47, 12, z, GLOW) for z in (24, 30, 36, 42, 48, 54)),
    (23, 10, 23, 25, 10, 25, GLOW),  # the diary room booth's ceiling
    (11, 0, 5, 47, 0, 5, LANTERN),  # courtyard floor
    (1, 0, 15, 47, 0, 15, LANTERN),
    (5, 0, 5, 5, 0, 5, GLOW),  # tower: the ground floor
    (2, 23, 1, 8, 23, 3, GLOW),  # Turret ceiling
    (2, 23, 7, 8, 23, 8, GLOW),  # Oath landing ceiling
)

_WINDOWS: tuple[tuple[int, int, int, int, int, int], ...] = (
    *((0, y, z, 0, y + 1, z + 1) for y in (2, 8) for z in (24, 30, 39, 43, 52, 57)),  # west wall
    *((48, y, z, 48, y + 1, z + 1) for y in (2, 8) for z in (24, 30, 42, 45, 52, 57)),  # east wall
    *((x, 8, 20, x + 1, 9, 20) for x in (16, 31)),  # north wall, upstairs
    *((x, y, 60, x + 1, y + 1, 60) for y in (2, 8) for x in (4, 16, 31, 43)),  # south wall
    (5, 12, 0, 5, 14, 0),
    (0, 12, 5, 0, 14, 5),
    (10, 12, 5, 10, 14, 5),  # tower
    (3, 20, 0, 3, 21, 0),
    (7, 20, 0, 7, 21, 0),
    (0, 20, 2, 0, 21, 3),
    (10, 20, 2, 10, 21, 3),  # Turret
)


_TOWER_ROOMS = frozenset({"tower", "oath_spot", "turret"})
"""Rooms built with the tower (after the courtyard, whose air they share before the tower is filled in)."""


class _Draft:
    """Collects the steps of a build in blocks relative to the origin."""

    def __init__(self, origin: Pos) -> None:
        self.origin = origin
        self.ops: list[Op] = []

    def fill(self, x1: int, y1: int, z1: int, x2: int, y2: int, z2: int, block: str) -> None:
        ox, oy, oz = self.origin
        self.ops.append(Op(box(x1, y1, z1, x2, y2, z2).shifted(ox, oy, oz), block))

    def set(self, x: int, y: int, z: int, block: str) -> None:
        self.fill(x, y, z, x, y, z, block)

    def door(self, x: int, y: int, z: int, facing: str, wood: str = "oak") -> None:
        self.set(x, y, z, f"minecraft:{wood}_door[facing={facing},half=lower]")
        self.set(x, y + 1, z, f"minecraft:{wood}_door[facing={facing},half=upper]")

    def merlons(self, y: int, x1: int, z1: int, x2: int, z2: int, block: str) -> None:
        """Battlements: merlons two blocks wide with gaps two blocks wide along the rectangle's edge at height
        ``y`` (one ``fill`` per merlon; a merlon turning a corner is two)."""
        edge = [(x, z1) for x in range(x1, x2 + 1)] + [(x2, z) for z in range(z1 + 1, z2 + 1)]
        edge += [(x, z2) for x in range(x2 - 1, x1 - 1, -1)] + [(x1, z) for z in range(z2 - 1, z1, -1)]
        for i in range(0, len(edge) - 1, 4):
            (ax, az), (bx, bz) = edge[i], edge[i + 1]
            if ax == bx or az == bz:
                self.fill(ax, y, az, bx, y, bz, block)
            else:
                self.set(ax, y, az, block)
                self.set(bx, y, bz, block)


def seat_spots(
    seats: int, centre: tuple[float, float], radius: float = SEAT_RADIUS
) -> list[tuple[float, float, float]]:
    """Round-table seats: ``(x, z, yaw)`` for seat 1..``seats``, seat 1 due south of ``centre``, seat 2 east of
    it and so on round the table (anticlockwise on a map with north up), each facing the centre (Minecraft yaw, degrees).

    Raises:
        ValueError: ``seats`` outside 1..16.
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be {MIN_SEATS}..{MAX_SEATS}, got {seats}")
    cx, cz = centre
    spots = []
    for n in range(seats):
        angle = math.radians(n * 360.0 / seats)
        x, z = cx + radius * math.sin(angle), cz + radius * math.cos(angle)
        yaw = math.degrees(math.atan2(-(cx - x), cz - z))
        spots.append((round(x, 2), round(z, 2), round(yaw, 2) + 0.0))  # + 0.0: no -0.0 in the file
    return spots


def _shell(d: _Draft) -> None:
    """The courtyard's curtain wall, the keep and the tower as solid blocks, before the rooms are carved out."""
    d.fill(0, 0, 0, 48, 5, 19, WALL)
    d.fill(0, 0, 20, 48, 12, 60, WALL)
    d.merlons(6, 0, 0, 48, 19, WALL)
    d.merlons(13, 0, 20, 48, 60, WALL)


def _tower(d: _Draft) -> None:
    """The tower over the courtyard's north-west corner: hollow below, the Oath landing and the Turret on top
    (floors at ``y 18``), a ladder up the east wall, glowstone in the walls."""
    d.fill(0, 0, 0, 10, 23, 10, TOWER)
    d.fill(1, 1, 1, 9, 17, 9, AIR)
    d.fill(1, 19, 1, 9, 22, 4, AIR)
    d.fill(1, 19, 6, 9, 22, 9, AIR)
    for key, _, (x1, y1, z1, x2, _y2, z2), floor, _closed in _ROOMS:
        if key in _TOWER_ROOMS:
            d.fill(x1, y1 - 1, z1, x2, y1 - 1, z2, floor)
    d.fill(9, 1, 8, 9, 18, 8, "minecraft:ladder[facing=west]")
    d.merlons(24, 0, 0, 10, 10, TOWER)
    for y in (4, 10, 16):
        d.set(0, y, 5, GLOW)
        d.set(10, y, 5, GLOW)


def _rooms(d: _Draft) -> None:
    for key, _, (x1, y1, z1, x2, y2, z2), floor, _closed in _ROOMS:
        if key in _TOWER_ROOMS:
            continue
        if key == "diary_room":
            d.fill(x1 - 1, y1, z1 - 1, x2 + 1, y2 + 1, z2 + 1, "minecraft:spruce_planks")
        d.fill(x1, y1, z1, x2, y2, z2, AIR)
        d.fill(x1, y1 - 1, z1, x2, y1 - 1, z2, floor)


def _stairs(d: _Draft) -> None:
    """A straight stair up the foyer's south wall to the gallery, through a hole in the foyer's ceiling."""
    d.fill(13, 6, 58, 18, 6, 59, AIR)
    for i in range(6):
        d.fill(14 + i, 1 + i, 58, 14 + i, 1 + i, 59, "minecraft:stone_brick_stairs[facing=east]")


def _round_table(d: _Draft, seats: int) -> list[Location]:
    """The table (a disc of dark oak, a glowstone at its middle) and the seats' floor markers; returns the seats."""
    tx, tz = TABLE_CENTRE
    cx, cz = tx + 0.5, tz + 0.5
    reach = int(TABLE_RADIUS)
    for z in range(tz - reach, tz + reach + 1):
        half = math.sqrt(max(TABLE_RADIUS**2 - (z + 0.5 - cz) ** 2, 0.0))
        xs = [x for x in range(tx - reach, tx + reach + 1) if abs(x + 0.5 - cx) <= half]
        if xs:
            d.fill(xs[0], 1, z, xs[-1], 1, z, "minecraft:dark_oak_planks")
    d.set(tx, 1, tz, GLOW)
    ox, oy, oz = d.origin
    out = []
    for sx, sz, yaw in seat_spots(seats, (cx, cz)):
        d.set(math.floor(sx), 0, math.floor(sz), "minecraft:red_wool")
        out.append(Location(x=round(sx + ox, 2), y=1.0 + oy, z=round(sz + oz, 2), yaw=yaw, pitch=10.0))
    return out


def _breakfast(d: _Draft, seats: int) -> list[Location]:
    """Each seat's place at the breakfast table, on the table's top, facing out over its chair (a stair whose back
    is away from the table); returns the places (rulebook §10: the player heads of the breakfast room)."""
    west, east, first = BREAKFAST_TABLE
    ox, oy, oz = d.origin
    out = []
    for n in range(1, seats + 1):
        on_west = n % 2 == 1
        x, z = (west, first + (n - 1) // 2) if on_west else (east, first + (n - 1) // 2)
        chair = x - 1 if on_west else x + 1
        d.set(chair, 1, z, f"minecraft:oak_stairs[facing={'west' if on_west else 'east'}]")
        out.append(Location(x=x + 0.5 + ox, y=2.0 + oy, z=z + 0.5 + oz, yaw=90.0 if on_west else -90.0))
    return out


def _gatehouse(d: _Draft, seats: int) -> Box:
    """The gatehouse and the lane south of it; returns the lane's area (relative)."""
    rows = (seats + 1) // 2
    end = LANE_START + rows * HOME_ROW
    d.fill(20, 0, 61, 28, 8, 63, WALL)
    d.fill(23, 1, 61, 25, 4, 63, AIR)
    d.merlons(9, 20, 61, 28, 63, WALL)
    d.fill(21, 0, 64, 27, 0, end, "minecraft:coarse_dirt")  # not gravel: the floor may be over a dip
    d.fill(24, 0, 64, 24, 0, end, LANTERN)
    d.fill(23, 0, 61, 25, 0, 63, LANTERN)
    return box(14, 0, 64, 34, 6, end)


def _homes(d: _Draft, seats: int) -> list[Location]:
    """One cottage per seat along the lane (odd seats west, even east), door to the lane; returns the homes."""
    ox, oy, oz = d.origin
    out = []
    for n in range(1, seats + 1):
        west = n % 2 == 1
        z0 = LANE_START + ((n - 1) // 2) * HOME_ROW
        x0 = 14 if west else 28
        d.fill(x0, 0, z0, x0 + 6, 4, z0 + 6, HOME_WALL)
        d.fill(x0, 5, z0, x0 + 6, 5, z0 + 6, HOME_ROOF)
        d.fill(x0 + 1, 6, z0 + 1, x0 + 5, 6, z0 + 5, HOME_ROOF)
        d.fill(x0 + 1, 1, z0 + 1, x0 + 5, 4, z0 + 5, AIR)
        d.set(x0 + 3, 5, z0 + 3, GLOW)
        d.door(x0 + 6 if west else x0, 1, z0 + 3, "east" if west else "west", "spruce")
        d.fill(x0 if west else x0 + 6, 2, z0 + 2, x0 if west else x0 + 6, 3, z0 + 4, GLASS)
        d.set(x0 + 3, 1, z0 + 1, "minecraft:barrel")
        out.append(Location(x=x0 + 3.5 + ox, y=1.0 + oy, z=z0 + 3.5 + oz, yaw=-90.0 if west else 90.0))
    return out


def castle_extent(seats: int) -> tuple[int, int]:
    """How far the castle of ``seats`` seats reaches east and south of its origin: ``(dx, dz)`` in blocks (its
    last block column is at origin + d); the homes' lane grows by one row of two homes per two seats."""
    return 48, LANE_START + HOME_ROW * math.ceil(seats / 2)


def plan_castle(origin: Pos, seats: int) -> CastlePlan:
    """The plan of the castle with its north-west bottom corner at ``origin`` and ``seats`` seats.

    Args:
        origin: absolute block position ``(x, y, z)``; the castle spans 49 x 25 x (1 + ``castle_extent``'s dz)
            blocks east, up and south of it, so ``y`` must be in -64..295, and ``x``, ``z`` far enough inside the
            default world border (``BORDER``) for all of it.
        seats: round-table seats and homes, 1..16.

    Raises:
        ValueError: ``seats`` outside 1..16, or the castle would not fit in the build height (-64..319) or
            inside the world border.
    """
    ox, oy, oz = origin
    if not -64 <= oy <= 319 - 25:
        raise ValueError(f"origin y {oy}: the castle needs y {oy}..{oy + 24} inside the world's -64..319")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be {MIN_SEATS}..{MAX_SEATS}, got {seats}")
    east, south = castle_extent(seats)
    if min(ox, oz) < -BORDER or max(ox + east, oz + south) >= BORDER:  # block b spans b..b+1: b+1 <= BORDER
        raise ValueError(
            f"origin x {ox} z {oz}: the castle (x {ox}..{ox + east}, z {oz}..{oz + south}) would reach "
            f"past the world border at x and z -{BORDER}..{BORDER}"
        )
    d = _Draft(origin)
    _shell(d)
    _rooms(d)
    _tower(d)
    _stairs(d)
    table = _round_table(d, seats)
    for x1, y1, z1, x2, y2, z2, block in _FURNITURE + _LIGHTS:
        d.fill(x1, y1, z1, x2, y2, z2, block)
    breakfast = _breakfast(d, seats)
    for x1, y1, z1, x2, y2, z2 in _WINDOWS:
        d.fill(x1, y1, z1, x2, y2, z2, GLASS)
    lane = _gatehouse(d, seats)
    homes = _homes(d, seats)
    for x, y, z, facing in _DOORS:
        d.door(x, y, z, facing)
    areas = tuple(
        a.shifted(ox, oy, oz)
        for a in (
            box(0, 0, 0, 48, 6, 19),
            box(0, 0, 20, 48, 13, 60),
            box(0, 0, 0, 10, 24, 10),
            box(20, 0, 61, 28, 9, 63),
            lane,
        )
    )
    rooms = [Room(k, label, box(*r).shifted(ox, oy, oz), closed) for k, label, r, _, closed in _ROOMS]
    rooms += [Room(f"home_{n}", f"Home {n}", _home_interior(n).shifted(ox, oy, oz)) for n in range(1, seats + 1)]
    places = {
        k: Location(x=x + ox, y=y + oy, z=z + oz, yaw=yaw, pitch=pitch) for k, (x, y, z, yaw, pitch) in _PLACES.items()
    }
    castle = CastleConfig(
        places=CastlePlaces(**places),
        seats=table,
        homes=homes,
        breakfast=breakfast,
        built=BuiltBy(origin=[ox, oy, oz], seats=seats, blueprint=BLUEPRINT),
    )
    return CastlePlan(origin, seats, tuple(d.ops), areas, tuple(rooms), castle)


def _home_interior(n: int) -> Box:
    z0 = LANE_START + ((n - 1) // 2) * HOME_ROW
    x0 = 14 if n % 2 == 1 else 28
    return box(x0 + 1, 1, z0 + 1, x0 + 5, 4, z0 + 5)
