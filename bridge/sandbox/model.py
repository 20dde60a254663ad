"""What the sandbox world holds: players and their stacks, what they were shown, objectives, bossbars, command
sources and the command log. Plain data; the commands that change it are in ``bridge.sandbox.commands``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import nbtlib

from bridge.io.players import ints_from_uuid
from bridge.sandbox import nbt
from bridge.sandbox.text import click_events, plain_text
from bridge.sandbox.uuids import offline_uuid

__all__ = [
    "CONSOLE",
    "GAMERULES",
    "GAMERULE_DEFAULTS",
    "GameRule",
    "PLAYER_NAME",
    "Bossbar",
    "ChatMessage",
    "CommandRecord",
    "ItemStack",
    "Objective",
    "Player",
    "ScreenText",
    "Source",
    "default_name",
]

#: Current Java usernames (3-16 of ``A-Z a-z 0-9 _``; ``docs/design.md#the-bridge``).
PLAYER_NAME = re.compile(r"[A-Za-z0-9_]{3,16}")


@dataclass(frozen=True)
class GameRule:
    """A vanilla game rule: its default (a bool for a boolean rule, an int for an integer rule) and, for an
    integer rule, the bounds ``gamerule`` accepts (``None``: unbounded)."""

    default: bool | int
    minimum: int | None = None
    maximum: int | None = None


GAMERULES: dict[str, GameRule] = {
    "advance_time": GameRule(True),
    "advance_weather": GameRule(True),
    "allow_entering_nether_using_portals": GameRule(True),
    "block_drops": GameRule(True),
    "block_explosion_drop_decay": GameRule(True),
    "command_block_output": GameRule(True),
    "command_blocks_work": GameRule(True),
    "drowning_damage": GameRule(True),
    "elytra_movement_check": GameRule(True),
    "ender_pearls_vanish_on_death": GameRule(True),
    "entity_drops": GameRule(True),
    "fall_damage": GameRule(True),
    "fire_damage": GameRule(True),
    "fire_spread_radius_around_player": GameRule(128, -1, None),
    "forgive_dead_players": GameRule(True),
    "freeze_damage": GameRule(True),
    "global_sound_events": GameRule(True),
    "immediate_respawn": GameRule(False),
    "keep_inventory": GameRule(False),
    "lava_source_conversion": GameRule(False),
    "limited_crafting": GameRule(False),
    "locator_bar": GameRule(True),
    "log_admin_commands": GameRule(True),
    "max_block_modifications": GameRule(32768, 1, None),
    "max_command_forks": GameRule(65536, 0, None),
    "max_command_sequence_length": GameRule(65536, 0, None),
    "max_entity_cramming": GameRule(24, 0, None),
    "max_minecart_speed": GameRule(8, 1, 1000),
    "max_snow_accumulation_height": GameRule(1, 0, 8),
    "mob_drops": GameRule(True),
    "mob_explosion_drop_decay": GameRule(True),
    "mob_griefing": GameRule(True),
    "natural_health_regeneration": GameRule(True),
    "player_movement_check": GameRule(True),
    "players_nether_portal_creative_delay": GameRule(0, 0, None),
    "players_nether_portal_default_delay": GameRule(80, 0, None),
    "players_sleeping_percentage": GameRule(100, 0, None),
    "projectiles_can_break_blocks": GameRule(True),
    "pvp": GameRule(True),
    "raids": GameRule(True),
    "random_tick_speed": GameRule(3, 0, None),
    "reduced_debug_info": GameRule(False),
    "respawn_radius": GameRule(10, 0, None),
    "send_command_feedback": GameRule(True),
    "show_advancement_messages": GameRule(True),
    "show_death_messages": GameRule(True),
    "spawn_mobs": GameRule(True),
    "spawn_monsters": GameRule(True),
    "spawn_patrols": GameRule(True),
    "spawn_phantoms": GameRule(True),
    "spawn_wandering_traders": GameRule(True),
    "spawn_wardens": GameRule(True),
    "spawner_blocks_work": GameRule(True),
    "spectators_generate_chunks": GameRule(True),
    "spread_vines": GameRule(True),
    "tnt_explodes": GameRule(True),
    "tnt_explosion_drop_decay": GameRule(False),
    "universal_anger": GameRule(False),
    "water_source_conversion": GameRule(True),
}
"""Every game rule of 1.21.11 (the ``minecraft:game_rule`` registry; the same 59 on 26.1), by its name without
the ``minecraft:`` namespace. Names, types and bounds: the ``gamerule`` command tree of 1.21.11 (mecha 0.101.0);
defaults: vanilla's ``GameRules`` registrations."""

GAMERULE_DEFAULTS = {
    name: (("true" if rule.default else "false") if isinstance(rule.default, bool) else str(rule.default))
    for name, rule in GAMERULES.items()
}
"""Game rule name → its default as ``gamerule`` prints it (``"true"``, ``"3"``)."""


EQUIPMENT_SLOTS: dict[str, str] = {
    "armor.head": "head",
    "armor.chest": "chest",
    "armor.legs": "legs",
    "armor.feet": "feet",
    "weapon.offhand": "offhand",
}
"""A player's equipment slots the sandbox models: the slot's name in commands (``item replace entity``,
``items entity``) → its key in the player's ``equipment`` data (1.21.5+) and in an ``attribute_modifiers`` entry's
``slot``."""
ARMOR_GROUP = frozenset({"head", "chest", "legs", "feet"})
"""The slots an ``attribute_modifiers`` entry with ``slot: "armor"`` applies in."""
BASE_MOVEMENT_SPEED = 0.1
"""A player's ``minecraft:movement_speed`` base value (blocks per tick; walking)."""
SLOWNESS_PER_LEVEL = -0.15
"""The ``add_multiplied_total`` modifier of each level of the Slowness effect (minecraft.wiki, "Slowness")."""

_UNSTACKABLE = re.compile(r"(_sword|_axe|_pickaxe|_shovel|_hoe|^shield|_helmet|_chestplate|_leggings|_boots)$")


def default_name(ident: str) -> str:
    """The en_us-like name the sandbox gives an id: ``"minecraft:night_vision"`` → ``"Night Vision"``."""
    return ident.split(":", 1)[-1].replace("_", " ").title()


@dataclass
class ItemStack:
    """A stack in a player's inventory.

    Attributes:
        item: namespaced id, e.g. ``"minecraft:paper"``.
        components: component id (namespaced) → value as plain Python (SNBT parsed), e.g.
            ``{"minecraft:custom_data": {"traitors": {"item": "vote_paper"}}}``.
        count: stack size (≥ 1).
    """

    item: str
    components: dict[str, Any]
    count: int

    @property
    def custom_data(self) -> dict[str, Any]:
        """The ``minecraft:custom_data`` component or ``{}``."""
        value = self.components.get("minecraft:custom_data", {})
        return value if isinstance(value, dict) else {}

    @property
    def name(self) -> str:
        """Hover name as vanilla picks it: ``custom_name``, else ``item_name``, else the default name."""
        for key in ("minecraft:custom_name", "minecraft:item_name"):
            if key in self.components:
                return plain_text(self.components[key])
        return default_name(self.item)

    @property
    def max_stack(self) -> int:
        """``max_stack_size`` component, else 1 for tools/weapons/armour/shield, else 64."""
        if "minecraft:max_stack_size" in self.components:
            return int(self.components["minecraft:max_stack_size"])
        return 1 if _UNSTACKABLE.search(self.item.split(":", 1)[1]) else 64


@dataclass
class ChatMessage:
    """One chat line a player received: the component as plain Python and its plain text."""

    component: Any
    text: str
    source: str = "tellraw"

    def click_events(self) -> list[dict[str, Any]]:
        """The message's ``click_event`` dicts in reading order (e.g. ``{"action": "run_command", ...}``)."""
        return list(click_events(self.component))


@dataclass
class ScreenText:
    """A title, subtitle or actionbar shown to a player (``kind`` is one of those three words)."""

    kind: str
    component: Any
    text: str


@dataclass
class Player:
    """An online (or formerly online) player.

    Attributes:
        name: the player name.
        pos: (x, y, z) in blocks.
        yaw, pitch: rotation in degrees.
        gamemode: "survival", "creative", "adventure" or "spectator".
        inventory: stacks in the order they were received.
        equipment: slot name (``EQUIPMENT_SLOTS``, e.g. ``"armor.chest"``) → the stack worn or held there.
        chat: every chat message shown to this player, oldest first.
        screen: every title/subtitle/actionbar shown, oldest first.
        title, subtitle, actionbar: what is currently shown (None after ``title clear``).
        title_times: (fade in, stay, fade out) ticks.
        effects: effect id → (seconds or -1 for infinite, amplifier).
        uuid: the offline-mode UUID of the name (``bridge.sandbox.uuids.offline_uuid``).
        dialog: the dialog on screen (plain JSON data) or ``None``.
        dialogs: every dialog shown, oldest first.
        advancements: advancement ids granted.
        attacker: the player who last hurt this one (``execute on attacker``; set by :meth:`World.hit`).
    """

    name: str
    pos: tuple[float, float, float] = (0.5, 64.0, 0.5)
    yaw: float = 0.0
    pitch: float = 0.0
    gamemode: str = "survival"
    tags: set[str] = field(default_factory=set)
    inventory: list[ItemStack] = field(default_factory=list)
    equipment: dict[str, ItemStack] = field(default_factory=dict)
    chat: list[ChatMessage] = field(default_factory=list)
    screen: list[ScreenText] = field(default_factory=list)
    title: Any = None
    subtitle: Any = None
    actionbar: Any = None
    title_times: tuple[int, int, int] = (10, 70, 20)
    effects: dict[str, tuple[int, int]] = field(default_factory=dict)
    uuid: str = ""
    dialog: Any = None
    dialogs: list[Any] = field(default_factory=list)
    dialog_chat: list[int] = field(default_factory=list)
    """For each dialog in ``dialogs``, how many ``tellraw`` chat messages the player had then (orders dialogs
    and the server's messages; the player's own trigger feedback is not counted, nor a prompt's chat line: a
    message with a ``/trigger`` link, which comes with a dialog)."""
    advancements: set[str] = field(default_factory=set)
    attacker: str | None = None

    def __post_init__(self) -> None:
        if not self.uuid:
            self.uuid = offline_uuid(self.name)

    def nbt(self) -> nbtlib.Compound:
        """The entity data the sandbox models: ``UUID`` (int array), ``Tags`` and ``Inventory`` (one compound
        ``{Slot, id, count, components}`` per stack, slots numbered in the order received)."""
        stacks = [
            nbtlib.Compound(
                {
                    "Slot": nbtlib.Byte(i),
                    "id": nbtlib.String(s.item),
                    "count": nbtlib.Int(s.count),
                    **({"components": nbt.from_python(s.components)} if s.components else {}),
                }
            )
            for i, s in enumerate(self.inventory)
        ]
        worn = {
            EQUIPMENT_SLOTS[slot]: nbtlib.Compound(
                {
                    "id": nbtlib.String(st.item),
                    "count": nbtlib.Int(st.count),
                    **({"components": nbt.from_python(st.components)} if st.components else {}),
                }
            )
            for slot, st in self.equipment.items()
        }
        return nbtlib.Compound(
            {
                "UUID": nbtlib.IntArray(list(ints_from_uuid(self.uuid))),
                "Tags": nbtlib.List[nbtlib.String]([nbtlib.String(t) for t in sorted(self.tags)]),
                "Inventory": nbtlib.List[nbtlib.Compound](stacks),
                **({"equipment": nbtlib.Compound(worn)} if worn else {}),
            }
        )

    def stacks(self) -> list[ItemStack]:
        """Everything the player has: the inventory, then the equipment slots."""
        return [*self.inventory, *self.equipment.values()]

    def movement_speed(self) -> float:
        """The player's ``minecraft:movement_speed`` as vanilla works it out: the base value, then every modifier
        of the attribute: the ``attribute_modifiers`` of each equipped stack whose ``slot`` matches the slot it is
        in (``any`` by default; ``armor`` for the armour slots; ``hand`` for the off hand), and the Slowness
        effect. ``add_value`` amounts are added, then the sum of ``add_multiplied_base`` amounts scales the base,
        then each ``add_multiplied_total`` multiplies the total (minecraft.wiki, "Attribute")."""
        mods: list[tuple[str, float]] = []
        for slot, stack in self.equipment.items():
            key = EQUIPMENT_SLOTS[slot]
            groups = {"any", key, "armor" if key in ARMOR_GROUP else "hand"}
            entries = stack.components.get("minecraft:attribute_modifiers", [])
            for m in entries if isinstance(entries, list) else []:
                if m.get("type") in ("movement_speed", "minecraft:movement_speed") and m.get("slot", "any") in groups:
                    mods.append((str(m.get("operation")), float(m.get("amount", 0.0))))
        if "minecraft:slowness" in self.effects:
            mods.append(("add_multiplied_total", SLOWNESS_PER_LEVEL * (self.effects["minecraft:slowness"][1] + 1)))
        value = BASE_MOVEMENT_SPEED + sum(a for op, a in mods if op == "add_value")
        value += value * sum(a for op, a in mods if op == "add_multiplied_base")
        for op, a in mods:
            if op == "add_multiplied_total":
                value *= 1.0 + a
        return max(0.0, value)

    def count_items(self, custom_item: str | None = None, *, item: str | None = None) -> int:
        """Count stacks' items, optionally only those with ``custom_data.traitors.item == custom_item``."""
        total = 0
        for stack in self.stacks():
            if item is not None and stack.item != item:
                continue
            if custom_item is not None:
                tr = stack.custom_data.get("traitors")
                if not isinstance(tr, dict) or tr.get("item") != custom_item:
                    continue
            total += stack.count
        return total


@dataclass
class Objective:
    """A scoreboard objective: ``criterion`` e.g. "trigger" or "dummy", ``display_name`` a component."""

    name: str
    criterion: str
    display_name: Any

    @property
    def bracketed(self) -> str:
        """The display name as vanilla's replies show it, e.g. ``[Vote]``."""
        return f"[{plain_text(self.display_name)}]"


@dataclass
class Bossbar:
    """A custom bossbar. ``color``/``style`` as in vanilla; ``players`` are names."""

    id: str
    name: Any
    value: int = 0
    max: int = 100
    color: str = "white"
    style: str = "progress"
    players: set[str] = field(default_factory=set)
    visible: bool = True

    @property
    def bracketed(self) -> str:
        """The name as vanilla's replies show it, e.g. ``[Night]``."""
        return f"[{plain_text(self.name)}]"


@dataclass(frozen=True)
class Source:
    """Who runs a command: the console (``entity`` None; ``@s`` selects nobody) or a player (``@s``)."""

    entity: Player | None = None


CONSOLE = Source()


@dataclass
class CommandRecord:
    """One command received: its ``text``, the ``reply`` sent and the ``outcome``.

    ``outcome`` is "ok", "failed" (a vanilla failure reply), "syntax" (did not parse) or "unsupported".
    """

    text: str
    reply: str
    outcome: str
    received: float = 0.0
    """When the command arrived (``time.perf_counter()`` seconds, this process's clock): for latency benchmarks."""
