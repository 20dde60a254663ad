"""``traitors castle-map CASTLE.toml --out castle.png``: the castle's plan seen from above.

A castle file written by ``traitors build-castle`` names its blueprint, origin and seats (``[built]``): the plan is
built again into the sandbox's block model (``bridge.sandbox.blocks``) and drawn as two floor plans, the ground
floor (a cut at the height of a player's chest) and the upper floor with the top of the tower, rooms labelled,
seats and homes numbered. Any other castle file is drawn as its places alone. Needs Pillow (the ``map`` extra).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bridge.config.castle import CastleConfig
from bridge.config.castle_file import load_castle
from bridge.errors import BridgeError
from bridge.minecraft.castle.blueprint import BLUEPRINT, CastlePlan, plan_castle
from bridge.minecraft.castle.geometry import Box
from bridge.minecraft.castle.survey import castle_spots
from bridge.sandbox.blocks import Blocks, block_id, is_air
from engine.errors import ConfigError

__all__ = ["INSTALL_HINT", "blocks_of", "draw_castle", "run_castle_map"]

INSTALL_HINT = "castle-map needs Pillow: pip install 'castle-traitors[map]'"

_GROUND = "#7fa35b"
_COLOURS = {
    "stone_bricks": "#6e6e6e",
    "cobblestone": "#5f5f5f",
    "mossy_cobblestone": "#66725a",
    "glass": "#bfe3f0",
    "oak_planks": "#b8945f",
    "spruce_planks": "#7a5a36",
    "birch_planks": "#d8c98f",
    "dark_oak_planks": "#4a3020",
    "polished_andesite": "#a9aaa8",
    "smooth_stone": "#c4c4c4",
    "black_wool": "#2a2a30",
    "red_wool": "#a8302c",
    "green_wool": "#3f7a2a",
    "bookshelf": "#8a5a2b",
    "barrel": "#8c6a3c",
    "smoker": "#4b4b4b",
    "crafting_table": "#9c7144",
    "glowstone": "#f2d17a",
    "sea_lantern": "#d9ece6",
    "coarse_dirt": "#77553b",
    "red_nether_bricks": "#5a1014",
    "campfire": "#e07b24",
    "ladder": "#a07a45",
}
_DOOR = "#c98f3a"
_OTHER = "#909090"


@dataclass(frozen=True, slots=True)
class _Label:
    x: float
    z: float
    text: str
    kind: str  # "room", "seat", "home", "place"


def blocks_of(plan: CastlePlan) -> Blocks:
    """The plan's blocks as the sandbox's block model holds them after the build (no server involved)."""
    return Blocks().apply(plan.ops)


def _colour(state: str) -> str:
    bid = block_id(state).removeprefix("minecraft:")
    if bid.endswith("_door"):
        return _DOOR
    if bid.endswith("_stairs"):
        return _COLOURS.get(bid.removesuffix("_stairs").replace("stone_brick", "stone_bricks") + "", _OTHER)
    return _COLOURS.get(bid, _OTHER)


def _cut(blocks: Blocks, x: int, z: int, y: int, floor: int) -> str | None:
    """What a plan shows at column ``(x, z)``: the block at height ``y``, else the floor under it (the first
    block found going down to ``floor``), else ``None`` (nothing built here)."""
    here = blocks.get((x, y, z))
    if not is_air(here):
        return _colour(here)
    for below in range(y - 1, floor - 1, -1):
        state = blocks.get((x, below, z))
        if not is_air(state):
            return _colour(state)
    return None


def _labels(castle: CastleConfig, plan: CastlePlan | None, upstairs: bool) -> list[_Label]:
    out = []
    if plan is not None:
        high = plan.origin[1] + 6
        for room in plan.rooms:
            if (room.interior.y1 > high) == upstairs and not room.key.startswith("home_"):
                r = room.interior
                z = r.z1 + 2.5 if room.key == "great_hall" else (r.z1 + r.z2 + 1) / 2  # the table fills its middle
                out.append(_Label((r.x1 + r.x2 + 1) / 2, z, room.label, "room"))
    if not upstairs:
        out += [_Label(s.x, s.z, str(n), "seat") for n, s in enumerate(castle.seats, 1)]
        out += [_Label(h.x, h.z, f"Home {n}", "home") for n, h in enumerate(castle.homes, 1)]
    if plan is None and not upstairs:
        out += [
            _Label(loc.x, loc.z, name.replace("_", " "), "place")
            for name, loc in castle_spots(castle)
            if not name.startswith(("seat", "home"))
        ]
    return out


def _extent(castle: CastleConfig, plan: CastlePlan | None) -> Box:
    if plan is not None:
        areas = plan.areas
        return Box(
            min(a.x1 for a in areas),
            min(a.y1 for a in areas),
            min(a.z1 for a in areas),
            max(a.x2 for a in areas),
            max(a.y2 for a in areas),
            max(a.z2 for a in areas),
        )
    spots = [loc for _, loc in castle_spots(castle)]
    xs, zs = [math.floor(s.x) for s in spots], [math.floor(s.z) for s in spots]
    return Box(min(xs) - 4, 0, min(zs) - 4, max(xs) + 4, 0, max(zs) + 4)


def _font(size: int) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow before 10.1: one bitmap size
        return ImageFont.load_default()


def _panel(castle: CastleConfig, plan: CastlePlan | None, blocks: Blocks | None, upstairs: bool, scale: int) -> Any:
    """One floor plan as a Pillow image (north up, east right)."""
    from PIL import Image, ImageDraw

    ext = _extent(castle, plan)
    width, height = (ext.x2 - ext.x1 + 1) * scale, (ext.z2 - ext.z1 + 1) * scale
    img = Image.new("RGB", (width, height + 6 * scale), _GROUND)
    draw = ImageDraw.Draw(img)
    top = 6 * scale
    if plan is not None and blocks is not None:
        oy = plan.origin[1]
        tower = plan.areas[2]
        for z in range(ext.z1, ext.z2 + 1):
            for x in range(ext.x1, ext.x2 + 1):
                y, floor = (
                    (oy + 2, oy) if not upstairs else ((oy + 20, oy + 18) if (x, oy, z) in tower else (oy + 8, oy + 6))
                )
                colour = _cut(blocks, x, z, y, floor)
                if colour is not None:
                    px, pz = (x - ext.x1) * scale, (z - ext.z1) * scale + top
                    draw.rectangle((px, pz, px + scale - 1, pz + scale - 1), fill=colour)
    title = "Upstairs, tower top" if upstairs else "Ground floor"
    draw.text((scale, scale), title, fill="black", font=_font(3 * scale))
    for label in _labels(castle, plan, upstairs):
        _draw_label(draw, label, ext, scale, top)
    return img


def _draw_label(draw: Any, label: _Label, ext: Box, scale: int, top: int) -> None:
    px, pz = (label.x - ext.x1) * scale, (label.z - ext.z1) * scale + top
    if label.kind == "seat":
        r = scale * 0.9
        draw.ellipse((px - r, pz - r, px + r, pz + r), fill="#f4e04d", outline="black")
        draw.text((px, pz), label.text, fill="black", anchor="mm", font=_font(max(8, int(scale * 1.3))))
        return
    font = _font(max(8, int(scale * (1.6 if label.kind == "room" else 1.3))))
    if label.kind == "place":
        r = scale * 0.6
        draw.ellipse((px - r, pz - r, px + r, pz + r), fill="#d03030")
    draw.text(
        (px, pz),
        label.text,
        fill="white" if label.kind != "home" else "black",
        anchor="mm",
        font=font,
        stroke_width=max(1, scale // 4),
        stroke_fill="black" if label.kind != "home" else "white",
    )


def draw_castle(castle: CastleConfig, scale: int = 6) -> Any:
    """The castle's plan as a Pillow image: the ground floor, and beside it the upper floor when the castle
    file names its blueprint (``[built]``).

    Raises:
        ImportError: Pillow is not installed.
        ValueError: the castle file names a blueprint this version does not know.
    """
    from PIL import Image

    plan = _plan_of(castle)
    blocks = blocks_of(plan) if plan is not None else None
    panels = [_panel(castle, plan, blocks, False, scale)]
    if plan is not None:
        panels.append(_panel(castle, plan, blocks, True, scale))
    gap = 4 * scale
    out = Image.new(
        "RGB", (sum(p.width for p in panels) + gap * (len(panels) - 1), max(p.height for p in panels)), "white"
    )
    x = 0
    for p in panels:
        out.paste(p, (x, 0))
        x += p.width + gap
    return out


def _plan_of(castle: CastleConfig) -> CastlePlan | None:
    b = castle.built
    if b is None:
        return None
    if b.blueprint != BLUEPRINT:
        raise ValueError(f"built.blueprint: {b.blueprint!r} is not a blueprint this version knows ({BLUEPRINT!r})")
    return plan_castle((b.origin[0], b.origin[1], b.origin[2]), b.seats)


def run_castle_map(castle_file: str, out: str, scale: int = 6) -> int:
    """``traitors castle-map``: draw ``castle_file`` into ``out`` (PNG); returns 0.

    Raises:
        ConfigError: a bad castle file or ``--scale`` outside 2..16 (exit 2).
        BridgeError: Pillow is missing (the message says how to install it; exit 1).
    """
    if not 2 <= scale <= 16:
        raise ConfigError(f"--scale: {scale} (2-16 pixels per block)")
    castle = load_castle(castle_file)
    try:
        image = draw_castle(castle, scale)
    except ImportError:
        raise BridgeError(INSTALL_HINT) from None
    except ValueError as exc:
        raise ConfigError(f"{castle_file}: {exc}") from None
    image.save(Path(out), format="PNG")
    print(f"wrote {out} ({image.width}x{image.height})")
    return 0
