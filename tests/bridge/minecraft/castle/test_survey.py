"""bridge/minecraft/castle/survey.py: the probe, the removal, the build record, and the places check (the seam
`traitors rehearse` calls), run against the sandbox world."""

from __future__ import annotations

import pytest

from bridge.minecraft.castle.blueprint import plan_castle
from bridge.minecraft.castle.geometry import box
from bridge.minecraft.castle.survey import (
    BuildRecord,
    filled_count,
    forceload_commands,
    place_areas,
    place_probe_commands,
    places_row,
    probe_pieces,
    read_place_probes,
    remove_commands,
)
from bridge.sandbox.world import World


def loaded_world() -> World:
    """A sandbox world with one player at the spawn: the chunks within the view distance around her are loaded
    (a real survey force-loads the chunks it reads: ``forceload_commands``)."""
    world = World()
    world.join("Surveyor")
    return world


def _probe(world: World, areas) -> int:
    total = 0
    for piece in probe_pieces(areas):
        found = piece.not_air(world.execute(piece.mark))
        assert found is not None
        total += found
        world.execute(piece.unmark)
    return total


def test_probe_counts_what_is_not_air_and_leaves_the_world_as_it_was():
    world = loaded_world()
    world.execute("setblock 3 64 3 minecraft:stone")
    world.execute("fill 0 60 0 1 60 1 minecraft:dirt")
    areas = [box(0, 60, 0, 9, 70, 9), box(5, 60, 5, 40, 62, 40)]  # overlapping: each block counted once
    before = dict(world.blocks.items())
    assert _probe(world, areas) == 5
    assert dict(world.blocks.items()) == before
    assert _probe(loaded_world(), areas) == 0
    assert sum(p.box.volume for p in probe_pieces(areas)) == 10 * 11 * 10 + 36 * 3 * 36 - 5 * 3 * 5


def test_filled_count_reads_vanilla_replies():
    assert filled_count("Successfully filled 12 block(s)") == 12
    assert filled_count("No blocks were filled") == 0
    assert filled_count("That position is not loaded") is None


def test_remove_leaves_only_air_in_the_areas_and_nothing_else_touched():
    world = loaded_world()
    plan = plan_castle((0, 64, 0), 4)
    world.execute("setblock 100 64 100 minecraft:stone")  # outside the castle
    for cmd in plan.commands():
        world.execute(cmd)
    assert len(world.blocks) > 1000
    for cmd in remove_commands(plan.areas):
        world.execute(cmd)
    assert dict(world.blocks.items()) == {(100, 64, 100): "minecraft:stone"}


def test_forceload_covers_every_chunk_in_at_most_256_per_command():
    cmds = forceload_commands([box(0, 0, 0, 40, 5, 40), box(-20, 0, 5000, -1, 5, 9000)])
    world = World()
    replies = [world.execute(c) for c in cmds]
    assert all(r.startswith("Marked ") for r in replies)
    counted = sum(int(r.split()[1]) for r in replies)
    assert counted == 3 * 3 + 2 * (9000 // 16 - 5000 // 16 + 1)
    assert forceload_commands([box(0, 0, 0, 1, 1, 1)], add=False) == ["forceload remove 0 0 0 0"]


def test_record_round_trips_and_bad_records_say_why():
    plan = plan_castle((0, 64, 0), 8)
    record = BuildRecord("castle-1", plan.origin, plan.seats, plan.areas, 400, 3)
    assert BuildRecord.from_json(record.to_json()) == record
    for text, words in (
        ("{", "not JSON"),
        ('{"format": "other"}', "not a castle build record"),
        ('{"format": "castle-build/1", "origin": [1, 2]}', "malformed"),
    ):
        with pytest.raises(ValueError, match=words):
            BuildRecord.from_json(text)


def test_places_check_passes_in_the_built_castle_and_names_what_is_wrong_elsewhere():
    plan = plan_castle((0, 64, 0), 6)
    world = loaded_world()
    for cmd in plan.commands():
        world.execute(cmd)
    probes = place_probe_commands(plan.castle)
    checks = read_place_probes(plan.castle, [world.execute(c) for c in probes])
    assert len(checks) == 12 + 6 + 6 + 6 * 2 and all(c.passed for c in checks), [c for c in checks if not c.passed]
    seat = plan.castle.seats[0]
    world.execute(f"setblock {int(seat.x // 1)} {int(seat.y)} {int(seat.z // 1)} minecraft:stone")
    world.execute(
        f"fill {int(seat.x // 1)} {int(seat.y) - 1} {int(seat.z // 1)} {int(seat.x // 1)} "
        f"{int(seat.y) - 1} {int(seat.z // 1)} minecraft:air"
    )
    checks = read_place_probes(plan.castle, [world.execute(c) for c in probes])
    failed = [c for c in checks if not c.passed]
    assert [(c.place, c.detail) for c in failed] == [
        ("seat 1", "the block under the feet is air; the feet are not in air")
    ]
    assert places_row(checks) == (False, "seat 1: the block under the feet is air; the feet are not in air")
    assert places_row([c for c in checks if c.passed]) == (True, "35 places standable")
    assert len(place_areas(plan.castle)) == 36 and all(a.volume == 3 for a in place_areas(plan.castle))
    empty = read_place_probes(plan.castle, [loaded_world().execute(c) for c in probes])
    assert not any(c.passed for c in empty)
    with pytest.raises(ValueError, match="replies"):
        read_place_probes(plan.castle, ["Test passed"])
