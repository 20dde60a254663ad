"""Reading the ground before a build, taking a castle down, the build's record, and checking a castle file's
places on a server (sans-I/O: commands out, replies in).

Minecraft facts kept (vanilla en_us replies over RCON):
- ``fill <box> <block> keep`` sets only the air blocks of the box and answers "Successfully filled N block(s)"
  (N = the air blocks) or "No blocks were filled" (none were air): the probe marks the air of each area with
  ``structure_void`` this way, counts it, and turns the marks back into air at once. Non-air blocks are never
  touched.
- ``fill`` and ``execute if block`` answer "That position is not loaded" for an unloaded chunk, so the build
  force-loads its chunks first (``forceload add``, at most 256 chunks per command) and releases them after.
- ``execute if block <pos> <block>`` answers "Test passed" or "Test failed".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bridge.config.castle import SHARED_PLACES, VISITORS, CastleConfig, Location
from bridge.minecraft.castle.geometry import Box

__all__ = [
    "BuildRecord",
    "PlaceCheck",
    "ProbePiece",
    "castle_spots",
    "filled_count",
    "forceload_commands",
    "place_areas",
    "place_probe_commands",
    "places_row",
    "probe_pieces",
    "read_place_probes",
    "remove_commands",
    "reply_ok",
]

MARK = "minecraft:structure_void"
"""The block the probe puts in the air of an area for a moment (invisible, and never generated in a world)."""

FORCELOAD_LIMIT = 256
"""The most chunks one ``forceload add`` may name (vanilla ``commands.forceload.toobig``)."""

RECORD_FORMAT = "castle-build/1"

_FILLED = re.compile(r"Successfully filled (\d+) block")
_BUILT = ("Successfully filled ", "Changed the block at ", "No blocks were filled", "Could not set the block")
"""Replies of a build command that went through: "No blocks …"/"Could not set …" mean the block was already
there (a second build over the same castle)."""


def reply_ok(reply: str) -> bool:
    """Whether a ``fill``/``setblock`` reply says the command went through (changed blocks, or found them so)."""
    return reply.startswith(_BUILT)


def filled_count(reply: str) -> int | None:
    """The blocks a ``fill`` reply says it set (0 for "No blocks were filled"); ``None`` for any other reply
    (an error such as "That position is not loaded")."""
    found = _FILLED.match(reply)
    if found:
        return int(found.group(1))
    return 0 if reply.startswith("No blocks were filled") else None


@dataclass(frozen=True, slots=True)
class ProbePiece:
    """One probe of a piece of an area (under the fill limit): ``mark`` counts its air, ``unmark`` puts it back."""

    box: Box

    @property
    def mark(self) -> str:
        """``fill … structure_void keep``: its count is the air blocks of the piece."""
        return f"fill {self.box.text()} {MARK} keep"

    @property
    def unmark(self) -> str:
        """``fill … air replace structure_void``: the marks back to air."""
        return f"fill {self.box.text()} minecraft:air replace {MARK}"

    def not_air(self, reply: str) -> int | None:
        """The blocks of the piece that are not air, from the ``mark`` reply (``None``: the reply is an error)."""
        count = filled_count(reply)
        return None if count is None else self.box.volume - count


def _disjoint(areas: Sequence[Box]) -> list[Box]:
    """``areas`` with what an earlier area already covers cut away (so a probe counts each block once)."""
    out: list[Box] = []
    for area in areas:
        pieces = [area]
        for done in out:
            pieces = [rest for piece in pieces for rest in _minus(piece, done)]
        out += pieces
    return out


def _minus(a: Box, b: Box) -> list[Box]:
    """The blocks of ``a`` not in ``b``, as at most six boxes."""
    if b.x1 > a.x2 or b.x2 < a.x1 or b.y1 > a.y2 or b.y2 < a.y1 or b.z1 > a.z2 or b.z2 < a.z1:
        return [a]
    out = []
    x1, y1, z1, x2, y2, z2 = a.corners()
    if a.x1 < b.x1:
        out.append(Box(x1, y1, z1, b.x1 - 1, y2, z2))
        x1 = b.x1
    if a.x2 > b.x2:
        out.append(Box(b.x2 + 1, y1, z1, x2, y2, z2))
        x2 = b.x2
    if a.z1 < b.z1:
        out.append(Box(x1, y1, z1, x2, y2, b.z1 - 1))
        z1 = b.z1
    if a.z2 > b.z2:
        out.append(Box(x1, y1, b.z2 + 1, x2, y2, z2))
        z2 = b.z2
    if a.y1 < b.y1:
        out.append(Box(x1, y1, z1, x2, b.y1 - 1, z2))
    if a.y2 > b.y2:
        out.append(Box(x1, b.y2 + 1, z1, x2, y2, z2))
    return out


def probe_pieces(areas: Sequence[Box]) -> list[ProbePiece]:
    """The probes that read every block of ``areas`` once, each under the fill limit."""
    return [ProbePiece(piece) for area in _disjoint(areas) for piece in area.split()]


def remove_commands(areas: Sequence[Box]) -> list[str]:
    """``fill … minecraft:air`` over every block of ``areas`` (last area first), each under the fill limit."""
    return [f"fill {piece.text()} minecraft:air" for area in reversed(_disjoint(areas)) for piece in area.split()]


def forceload_commands(areas: Iterable[Box], add: bool = True) -> list[str]:
    """``forceload add`` (or ``remove``) for every chunk under ``areas``, each command at most 256 chunks."""
    chunks = sorted(
        {
            (cx, cz)
            for a in areas
            for cx in range(a.x1 >> 4, (a.x2 >> 4) + 1)
            for cz in range(a.z1 >> 4, (a.z2 >> 4) + 1)
        }
    )
    verb = "add" if add else "remove"
    out = []
    for cx in sorted({c[0] for c in chunks}):
        column = [cz for x, cz in chunks if x == cx]
        for start in range(0, len(column), FORCELOAD_LIMIT):
            lo, hi = column[start], column[min(start + FORCELOAD_LIMIT, len(column)) - 1]
            out.append(f"forceload {verb} {cx * 16} {lo * 16} {cx * 16} {hi * 16}")
    return out


@dataclass(frozen=True, slots=True)
class BuildRecord:
    """What a build did, kept beside the castle file (``castle.build.json``) so ``--remove`` takes down exactly
    that: the areas it built in (absolute boxes), how, and how many non-air blocks ``--force`` overwrote (the
    castle cannot give those back: removing restores air)."""

    blueprint: str
    origin: tuple[int, int, int]
    seats: int
    areas: tuple[Box, ...]
    commands: int
    overwritten: int = 0

    def to_json(self) -> str:
        """The record as JSON text (``RECORD_FORMAT``)."""
        return (
            json.dumps(
                {
                    "format": RECORD_FORMAT,
                    "blueprint": self.blueprint,
                    "origin": list(self.origin),
                    "seats": self.seats,
                    "commands": self.commands,
                    "overwritten": self.overwritten,
                    "areas": [list(a.corners()) for a in self.areas],
                },
                indent=1,
            )
            + "\n"
        )

    @classmethod
    def from_json(cls, text: str) -> BuildRecord:
        """Read a record written by :meth:`to_json`.

        Raises:
            ValueError: not JSON, another format, or a missing or malformed field (the message says which).
        """
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not JSON: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a castle build record (format {RECORD_FORMAT!r} expected)")
        try:
            areas = tuple(Box(*(int(c) for c in a)) for a in data["areas"])
            x, y, z = (int(c) for c in data["origin"])
            return cls(
                str(data["blueprint"]),
                (x, y, z),
                int(data["seats"]),
                areas,
                int(data["commands"]),
                int(data.get("overwritten", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed record: {exc!r}") from None


# ------------------------------------------------------------------ the castle file's places on a server


@dataclass(frozen=True, slots=True)
class PlaceCheck:
    """Whether one place of a castle file is standable on the server: ``place`` (``library``, ``seat 3``,
    ``home 3``), ``passed``, and ``detail`` (what is wrong, or ``"standable"``)."""

    place: str
    passed: bool
    detail: str


def castle_spots(castle: CastleConfig) -> list[tuple[str, Location]]:
    """Every place of a castle file with its name: the shared places, then ``seat N``, then ``home N``, then the
    visitor spots of each home (``home N visitor K``, ``CastleConfig.visitor``)."""
    spots = [(name, getattr(castle.places, name)) for name in SHARED_PLACES]
    spots += [(f"seat {n}", loc) for n, loc in enumerate(castle.seats, 1)]
    spots += [(f"home {n}", loc) for n, loc in enumerate(castle.homes, 1)]
    spots += [
        (f"home {n} visitor {k + 1}", castle.visitor(n, k))
        for n in range(1, len(castle.homes) + 1)
        for k in range(VISITORS)
    ]
    return spots


_CHECKS = (
    ("the block under the feet is air", -1, "unless"),
    ("the feet are not in air", 0, "if"),
    ("the head is not in air", 1, "if"),
)


def place_areas(castle: CastleConfig) -> list[Box]:
    """The blocks each place's checks read (under the feet to the head), for ``forceload_commands`` before the
    checks: a place in a chunk that is not loaded answers "That position is not loaded"."""
    out = []
    for _, loc in castle_spots(castle):
        x, y, z = int(loc.x // 1), int(loc.y // 1), int(loc.z // 1)
        out.append(Box(x, y - 1, z, x, y + 1, z))
    return out


def place_probe_commands(castle: CastleConfig) -> list[str]:
    """Three ``execute if|unless block`` commands per place of ``castle`` (``castle_spots`` order): the block
    under the feet is not air, the feet and the head are in air. Send them in order and pass every reply to
    :func:`read_place_probes`."""
    out = []
    for _, loc in castle_spots(castle):
        x, y, z = int(loc.x // 1), int(loc.y // 1), int(loc.z // 1)
        out += [f"execute {how} block {x} {y + dy} {z} minecraft:air" for _, dy, how in _CHECKS]
    return out


def read_place_probes(castle: CastleConfig, replies: Sequence[str]) -> list[PlaceCheck]:
    """Pass or fail per place from the replies to :func:`place_probe_commands` (same order).

    Raises:
        ValueError: not one reply per command.
    """
    spots = castle_spots(castle)
    if len(replies) != len(spots) * len(_CHECKS):
        raise ValueError(f"{len(replies)} replies for {len(spots) * len(_CHECKS)} probe commands")
    out = []
    for i, (name, _) in enumerate(spots):
        wrong = []
        for (what, _, _), reply in zip(_CHECKS, replies[i * 3 : i * 3 + 3], strict=True):
            if not reply.startswith("Test passed"):
                wrong.append(what if reply.startswith("Test failed") else reply.strip() or "no reply")
        out.append(PlaceCheck(name, not wrong, "; ".join(dict.fromkeys(wrong)) or "standable"))
    return out


def places_row(checks: Sequence[PlaceCheck]) -> tuple[bool, str]:
    """One row of a check table for all the places: passed when every place is standable; the detail counts them
    or names each failing place and why (``"seat 3: the feet are not in air"``)."""
    failed = [c for c in checks if not c.passed]
    if not failed:
        return True, f"{len(checks)} places standable"
    return False, "; ".join(f"{c.place}: {c.detail}" for c in failed)
