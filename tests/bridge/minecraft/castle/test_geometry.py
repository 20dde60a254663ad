"""bridge/minecraft/castle/geometry.py: boxes, their split under the fill limit, and their commands."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.minecraft.castle.geometry import FILL_LIMIT, Op, box

sides = st.integers(min_value=1, max_value=80)


@settings(deadline=None, max_examples=60)
@given(sides, sides, sides, st.integers(min_value=64, max_value=40000))
def test_split_covers_the_box_exactly_once_under_the_limit(dx, dy, dz, limit):
    whole = box(3, -5, 7, 3 + dx - 1, -5 + dy - 1, 7 + dz - 1)
    pieces = whole.split(limit)
    assert all(p.volume <= limit and p.inside(whole) for p in pieces)
    assert sum(p.volume for p in pieces) == whole.volume
    if whole.volume <= 2000:
        cells = [c for p in pieces for c in p.cells()]
        assert sorted(cells) == sorted(whole.cells())


def test_corners_in_any_order_and_containment():
    b = box(5, 70, -3, 1, 64, -9)
    assert b.corners() == (1, 64, -9, 5, 70, -3)
    assert (1, 64, -9) in b and (5, 70, -3) in b and (6, 70, -3) not in b
    assert box(2, 65, -8, 4, 69, -4).inside(b) and not b.inside(box(2, 65, -8, 4, 69, -4))
    assert b.shifted(1, 2, 3).corners() == (2, 66, -6, 6, 72, 0)


def test_one_block_is_a_setblock_and_a_big_box_several_fills():
    assert Op(box(1, 2, 3, 1, 2, 3), "minecraft:stone").commands() == ["setblock 1 2 3 minecraft:stone"]
    big = Op(box(0, 0, 0, 99, 9, 99), "minecraft:air")  # 100 000 blocks
    cmds = big.commands()
    assert len(cmds) == 4 and all(c.startswith("fill ") and c.endswith(" minecraft:air") for c in cmds)
    assert FILL_LIMIT == 32768
