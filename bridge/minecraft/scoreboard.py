"""Scoreboard and bossbar commands: the trigger objectives players press (``docs/minecraft.md#player-input``) and
the phase clock's bossbar.
"""

from __future__ import annotations

import re

from bridge.minecraft.core import McCommand, check_count, checked_command, resource_id, targets
from bridge.minecraft.text import Component

ALREADY_EXISTS_REPLIES: tuple[str, ...] = (
    "An objective already exists by that name",
    "A bossbar already exists with the ID",
)
"""Reply texts (prefixes) of set-up commands that mean "already there"; the service may ignore them."""

BOSSBAR_COLORS: frozenset[str] = frozenset({"blue", "green", "pink", "purple", "red", "white", "yellow"})

_OBJECTIVE_RE = re.compile(r"[A-Za-z0-9_.+-]{1,64}")


def _objective(name: str) -> str:
    if not _OBJECTIVE_RE.fullmatch(name):
        raise ValueError(f"not a scoreboard objective name: {name!r}")
    return name


def objective_add_trigger(name: str, display: Component) -> McCommand:
    """``scoreboard objectives add <name> trigger <display>`` (fails with "already exists" if present)."""
    return checked_command(f"scoreboard objectives add {_objective(name)} trigger {display.snbt()}")


def enable_trigger(to: str, objective: str) -> McCommand:
    """``scoreboard players enable <to> <objective>``: lets the player(s) run ``/trigger`` once
    (``docs/minecraft.md#player-input``)."""
    return checked_command(f"scoreboard players enable {targets(to)} {_objective(objective)}")


def _bossbar_id(bar: str) -> str:
    return resource_id(bar, "bossbar")


def bossbar_add(bar: str, name: Component) -> McCommand:
    """``bossbar add <bar> <name>`` (fails with "already exists" if present)."""
    return checked_command(f"bossbar add {_bossbar_id(bar)} {name.snbt()}")


def bossbar_remove(bar: str) -> McCommand:
    """``bossbar remove <bar>``."""
    return checked_command(f"bossbar remove {_bossbar_id(bar)}")


def bossbar_set_name(bar: str, name: Component) -> McCommand:
    """``bossbar set <bar> name <name>``."""
    return checked_command(f"bossbar set {_bossbar_id(bar)} name {name.snbt()}")


def bossbar_set_max(bar: str, maximum: int) -> McCommand:
    """``bossbar set <bar> max <n>`` (n ≥ 1)."""
    return checked_command(f"bossbar set {_bossbar_id(bar)} max {check_count(maximum, 'bossbar max', 1)}")


def bossbar_set_value(bar: str, value: int) -> McCommand:
    """``bossbar set <bar> value <n>`` (n ≥ 0)."""
    return checked_command(f"bossbar set {_bossbar_id(bar)} value {check_count(value, 'bossbar value')}")


def bossbar_set_players(bar: str, to: str) -> McCommand:
    """``bossbar set <bar> players <to>``."""
    return checked_command(f"bossbar set {_bossbar_id(bar)} players {targets(to)}")


def bossbar_set_visible(bar: str, visible: bool) -> McCommand:
    """``bossbar set <bar> visible true|false``."""
    return checked_command(f"bossbar set {_bossbar_id(bar)} visible {'true' if visible else 'false'}")


def bossbar_set_color(bar: str, color: str) -> McCommand:
    """``bossbar set <bar> color <color>`` (blue, green, pink, purple, red, white, yellow)."""
    if color not in BOSSBAR_COLORS:
        raise ValueError(f"not a bossbar colour: {color!r}")
    return checked_command(f"bossbar set {_bossbar_id(bar)} color {color}")


def is_already_exists(reply: str) -> bool:
    """True for the reply of an ``objectives add``/``bossbar add`` whose target already exists."""
    return any(reply.startswith(p) for p in ALREADY_EXISTS_REPLIES)
