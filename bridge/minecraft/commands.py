"""Every Minecraft command builder in one namespace (``from bridge.minecraft import commands as mc``): Minecraft
Java 1.21.11 command syntax, pure (sans-I/O), each builder returning ``McCommand`` values
(``docs/design.md#the-bridge``).

The builders live in modules of one job each; this module only gathers them for callers that use many (the
service, the renderer's tests):

================================  ==============================================================================
``bridge.minecraft.core``         ``McCommand``, the 1446-byte RCON limit, player names and targets (house rules)
``bridge.minecraft.snbt``         SNBT writing (``snbt``, ``snbt_string``) and reading (``parse``)
``bridge.minecraft.text``         text components (``text_component``, ``translated``, ``message_component``)
``bridge.minecraft.display``      ``tellraw`` (split to fit), ``title``, ``dialog clear``
``bridge.minecraft.items``        castle items, ``give``/``give_once``/``clear``, books read back
``bridge.minecraft.world``        ``tp``, ``effect``, ``gamemode``, ``gamerule``, ``setblock`` (heads)
``bridge.minecraft.scoreboard``   trigger objectives, the bossbar, "already exists" replies
``bridge.minecraft.storage``      the input queue and UI storages, ``function`` calls
``bridge.minecraft.triggers``     the trigger table (decode, encode, the data pack's trigger functions)
================================  ==============================================================================
"""

from __future__ import annotations

from bridge.minecraft.core import MAX_COMMAND_BYTES, McCommand, McName, player_name, targets, utf8_size
from bridge.minecraft.display import DEFAULT_TITLE_TIMES, TitleTimes, dialog_clear, tellraw, title
from bridge.minecraft.items import (
    BOOK_PAGE_CHARS,
    GIVE_ONCE_SLOTS,
    ITEMS,
    WORN,
    ItemSpec,
    ItemStack,
    book_pages,
    book_text,
    clear,
    clear_castle_items,
    custom_data,
    equip,
    give,
    give_once,
    give_unless_worn,
    held_give_ids,
    inventory_get,
    item_stack,
)
from bridge.minecraft.scoreboard import (
    ALREADY_EXISTS_REPLIES,
    BOSSBAR_COLORS,
    bossbar_add,
    bossbar_remove,
    bossbar_set_color,
    bossbar_set_max,
    bossbar_set_name,
    bossbar_set_players,
    bossbar_set_value,
    bossbar_set_visible,
    enable_trigger,
    is_already_exists,
    objective_add_trigger,
)
from bridge.minecraft.snbt import SnbtValue, snbt, snbt_string
from bridge.minecraft.storage import (
    IO_STORAGE,
    QUIET_STORAGE,
    UI_STORAGE,
    function_call,
    function_with_storage,
    queue_ack,
    queue_drop_head,
    queue_get,
    queue_head,
    storage_append,
    storage_set,
)
from bridge.minecraft.text import (
    NAMED_COLORS,
    Component,
    RunCommand,
    joined,
    message_argument,
    message_component,
    text_component,
    translated,
)
from bridge.minecraft.world import (
    GAMEMODES,
    PLAYER_HEAD,
    clear_block,
    gamemode,
    gamerule,
    head_block,
    head_rotation,
    setblock,
    teleport,
)

__all__ = [
    "ALREADY_EXISTS_REPLIES",
    "BOOK_PAGE_CHARS",
    "BOSSBAR_COLORS",
    "Component",
    "DEFAULT_TITLE_TIMES",
    "GAMEMODES",
    "GIVE_ONCE_SLOTS",
    "IO_STORAGE",
    "ITEMS",
    "ItemSpec",
    "ItemStack",
    "MAX_COMMAND_BYTES",
    "McCommand",
    "McName",
    "NAMED_COLORS",
    "PLAYER_HEAD",
    "QUIET_STORAGE",
    "RunCommand",
    "SnbtValue",
    "TitleTimes",
    "UI_STORAGE",
    "WORN",
    "book_pages",
    "book_text",
    "bossbar_add",
    "bossbar_remove",
    "bossbar_set_color",
    "bossbar_set_max",
    "bossbar_set_name",
    "bossbar_set_players",
    "bossbar_set_value",
    "bossbar_set_visible",
    "clear",
    "clear_block",
    "clear_castle_items",
    "custom_data",
    "dialog_clear",
    "enable_trigger",
    "equip",
    "function_call",
    "function_with_storage",
    "gamemode",
    "gamerule",
    "give",
    "give_once",
    "head_block",
    "head_rotation",
    "give_unless_worn",
    "held_give_ids",
    "inventory_get",
    "is_already_exists",
    "item_stack",
    "joined",
    "message_argument",
    "message_component",
    "objective_add_trigger",
    "player_name",
    "queue_ack",
    "queue_drop_head",
    "queue_get",
    "queue_head",
    "setblock",
    "snbt",
    "snbt_string",
    "storage_append",
    "storage_set",
    "targets",
    "teleport",
    "tellraw",
    "text_component",
    "title",
    "translated",
    "utf8_size",
]
