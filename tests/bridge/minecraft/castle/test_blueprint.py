"""bridge/minecraft/castle/blueprint.py built in the sandbox: every place standable, seats facing the table,
the diary room and the Turret closed, every room lit, every command accepted."""

from __future__ import annotations

import math

import pytest

from bridge.minecraft.castle.blueprint import TABLE_CENTRE, castle_extent, plan_castle, seat_spots
from bridge.minecraft.castle.geometry import FILL_LIMIT, box
from bridge.minecraft.castle.survey import castle_spots, forceload_commands, reply_ok
from bridge.minecraft.syntax import check_command
from bridge.sandbox.blocks import is_air, is_solid
from bridge.sandbox.world import World

ORIGIN = (-200, 70, 300)


@pytest.fixture(scope="module")
def built():
    plan = plan_castle(ORIGIN, 16)
    world = World()
    for cmd in forceload_commands(plan.areas):  # as traitors build-castle does: the chunks must be loaded
        assert world.execute(cmd).startswith("Marked")
    replies = [(cmd, world.execute(cmd)) for cmd in plan.commands()]
    return plan, world, replies


def test_every_command_parses_and_the_sandbox_accepts_it(built):
    plan, world, replies = built
    refused = [(c, r) for c, r in replies if not reply_ok(r) or r.startswith("No blocks")]
    assert refused == [] and world.errors == []
    for cmd, _ in replies:
        check_command(cmd)
        assert len(cmd.encode()) <= 1446
    assert all(box_volume(c) <= FILL_LIMIT for c, _ in replies if c.startswith("fill "))


def box_volume(cmd: str) -> int:
    x1, y1, z1, x2, y2, z2 = (int(v) for v in cmd.split()[1:7])
    return box(x1, y1, z1, x2, y2, z2).volume


def test_every_step_stays_inside_the_areas(built):
    plan, world, _ = built
    assert all(any(op.box.inside(a) for a in plan.areas) for op in plan.ops)
    assert all(any(pos in a for a in plan.areas) for pos, _ in world.blocks.items())


def test_every_place_of_the_castle_file_is_standable(built):
    plan, world, _ = built
    spots = castle_spots(plan.castle)
    assert len(spots) == 12 + 16 + 16 + 16 * 2  # the places, the seats, the homes and each home's two visitors
    assert [name for name, loc in spots if not world.blocks.standable(loc.x, loc.y, loc.z)] == []


def test_every_place_is_inside_its_room(built):
    plan, _, _ = built
    rooms = {r.key: r.interior for r in plan.rooms}
    places = plan.castle.places
    for key in (
        "library",
        "bar",
        "kitchen",
        "billiards_room",
        "diary_room",
        "turret",
        "oath_spot",
        "confession_room",
        "breakfast_room",
        "foyer",
    ):
        loc = getattr(places, key)
        assert (math.floor(loc.x), math.floor(loc.y), math.floor(loc.z)) in rooms[key], key
    for n, home in enumerate(plan.castle.homes, 1):
        assert (math.floor(home.x), math.floor(home.y), math.floor(home.z)) in rooms[f"home_{n}"]
        for k in (0, 1):  # the Traitors who bring an offer stand inside the home (rulebook §7.2)
            v = plan.castle.visitor(n, k)
            assert (math.floor(v.x), math.floor(v.y), math.floor(v.z)) in rooms[f"home_{n}"], (n, k)


@pytest.mark.parametrize("seats", [1, 5, 12, 16])
def test_seats_face_the_table_centre(seats):
    plan = plan_castle(ORIGIN, seats)
    cx, cz = TABLE_CENTRE[0] + 0.5 + ORIGIN[0], TABLE_CENTRE[1] + 0.5 + ORIGIN[2]
    assert len(plan.castle.seats) == len(plan.castle.homes) == seats
    for seat in plan.castle.seats:
        # Minecraft's look vector for a yaw: (-sin yaw, cos yaw) in (x, z)
        look = (-math.sin(math.radians(seat.yaw)), math.cos(math.radians(seat.yaw)))
        to_centre = (cx - seat.x, cz - seat.z)
        dist = math.hypot(*to_centre)
        assert dist == pytest.approx(6.0, abs=0.02)
        assert look[0] * to_centre[0] / dist + look[1] * to_centre[1] / dist == pytest.approx(1.0, abs=1e-3)


def test_seats_are_distinct_blocks_clear_of_the_table(built):
    plan, world, _ = built
    blocks = {(math.floor(s.x), math.floor(s.z)) for s in plan.castle.seats}
    assert len(blocks) == 16
    for x, z in blocks:
        assert world.blocks.get((x, ORIGIN[1], z)) == "minecraft:red_wool"  # the seat's mark in the floor


@pytest.mark.parametrize("key", ["diary_room", "turret"])
def test_closed_rooms_have_no_air_path_out_but_the_door(built, key):
    """Closed: the air reachable from the place, through air only (a door blocks like a wall), stays in the
    room; and the room has a door in its walls."""
    plan, world, _ = built
    room = next(r for r in plan.rooms if r.key == key)
    loc = getattr(plan.castle.places, key)
    start = (math.floor(loc.x), math.floor(loc.y), math.floor(loc.z))
    reach = world.blocks.air_reach(start, limit=room.interior.volume + 1)
    assert reach and all(p in room.interior for p in reach)
    shell = box(
        room.interior.x1 - 1,
        room.interior.y1,
        room.interior.z1 - 1,
        room.interior.x2 + 1,
        room.interior.y2,
        room.interior.z2 + 1,
    )
    doors = [p for p in shell.cells() if world.blocks.get(p).split("[")[0].endswith("_door")]
    assert len(doors) == 2  # one door: its lower and upper half


def test_an_open_room_is_not_closed_by_that_measure(built):
    """The measure can fail: the foyer's air reaches past its walls (the stair hole to the gallery)."""
    plan, world, _ = built
    hall = next(r for r in plan.rooms if r.key == "foyer")
    loc = plan.castle.places.foyer
    reach = world.blocks.air_reach((math.floor(loc.x), math.floor(loc.y), math.floor(loc.z)), hall.interior.volume + 1)
    assert not all(p in hall.interior for p in reach)


def test_every_floor_spot_inside_is_lit(built):
    """No spot a mob could spawn on inside the castle has block light 0 (hostile mobs need 0 since 1.18)."""
    plan, world, _ = built
    dark = []
    for room in plan.rooms:
        light = world.blocks.block_light(room.interior)
        for x, y, z in room.interior.cells():
            if world.blocks.standable(x, y, z) and light.get((x, y, z), 0) == 0:
                dark.append((room.key, x, y, z))
    assert dark == []


def test_the_castle_is_recognisably_one(built):
    plan, world, _ = built
    ox, oy, oz = ORIGIN
    ids = {state.split("[")[0] for _, state in world.blocks.items()}
    assert {
        "minecraft:stone_bricks",
        "minecraft:glass",
        "minecraft:oak_door",
        "minecraft:campfire",
        "minecraft:ladder",
        "minecraft:bookshelf",
    } <= ids
    # battlements: merlons two wide, gaps two wide, on the keep's roof edge
    edge = [world.blocks.get((ox + x, oy + 13, oz + 20)) for x in range(0, 12)]
    assert [is_air(s) for s in edge] == [False, False, True, True] * 3
    assert is_solid(world.blocks.get((ox + 24, oy + 12, oz + 40)))  # the keep has a roof


def test_bad_origin_or_seats_are_refused():
    with pytest.raises(ValueError, match="seats"):
        plan_castle(ORIGIN, 17)
    with pytest.raises(ValueError, match="origin y"):
        plan_castle((0, 300, 0), 8)
    with pytest.raises(ValueError, match="world border"):
        plan_castle((0, 64, 29_999_984 - 100), 16)  # the homes' lane runs about 133 blocks south
    plan_castle((-29_999_984, 64, 29_999_984 - 133), 16)  # fits, just: its last block ends on the border
    with pytest.raises(ValueError, match="world border"):
        plan_castle((29_999_984 - 48, 64, 0), 16)  # its last block would begin on the border


@pytest.mark.parametrize("seats", [1, 2, 3, 9, 16])
def test_the_extent_checked_against_the_border_is_the_plan_s(seats):
    areas = plan_castle((0, 64, 0), seats).areas
    assert castle_extent(seats) == (max(a.x2 for a in areas), max(a.z2 for a in areas))
    assert min(min(a.x1, a.z1) for a in areas) == 0
    with pytest.raises(ValueError):
        seat_spots(0, (0.0, 0.0))
