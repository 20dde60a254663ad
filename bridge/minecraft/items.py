"""Castle items as components (rulebook §10; ``docs/minecraft.md#commands-and-text``: item components): the
item table, ``give`` (idempotent with ``give_once``), ``clear``, and reading castle books back from an inventory.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bridge.minecraft.core import McCommand, check_count, checked_command, player_name, targets
from bridge.minecraft.snbt import SnbtValue, snbt, snbt_string
from bridge.minecraft.text import message_component, text_component, translated
from engine.effects import Label, Message
from engine.ids import Item


@dataclass(frozen=True, slots=True)
class ItemSpec:
    """How the castle makes one ``engine.ids.Item``.

    Args:
        item_id: the vanilla item, e.g. ``"minecraft:paper"``.
        name: the shown name (neutral: never a role or allegiance); sent as ``translate:"traitors.item.<item>"``
            with this English fallback (lore lines: ``….lore``, ``….lore.1``…; keys in ``bridge.minecraft.ui_text``).
        color: the name's colour.
        lore: tooltip lines (neutral), grey and not italic.
        glint: ``enchantment_glint_override=true``.
        max_stack_size: ``max_stack_size`` (only for non-damageable items), or ``None``.
        name_field: ``"item_name"`` (plain) or ``"custom_name"`` (needed where vanilla shows another name,
            e.g. a written book's title).
        labelled: the item is renamed (``custom_name``) to ``GiveItem.label`` (the cast vote paper, a finale torch).
        label_pages: a written book whose pages are ``GiveItem.label`` (the Traitors' Response book; a ``Message``
            label is one page each reader's client shows in their own language: the seer book).
        extra: further components as SNBT data, e.g. ``{"unbreakable": {}}``.
    """

    item_id: str
    name: str
    color: str
    lore: tuple[str, ...] = ()
    glint: bool = False
    max_stack_size: int | None = None
    name_field: str = "item_name"
    labelled: bool = False
    label_pages: bool = False
    extra: tuple[tuple[str, SnbtValue], ...] = ()


_BOOK_PAGE = "The castle has written to you.\nRead your private messages in chat."

_TORCH_LORE = "Turns red (banish again) or green (end game) when placed"
_TORCH_LOOK: tuple[tuple[str, SnbtValue], ...] = (("item_model", "minecraft:torch"),)
"""A finale torch held looks like an ordinary torch (the ``item_model`` component, 1.21.4+): everyone sees the
item a player holds, so a red or green torch in the host's hand would show the vote before it is placed."""

CLOAK_SPEED = -0.3
"""How much of their walking speed a Traitor loses while wearing the cloak (rulebook §10 "While equipped, a Traitor
will move more slowly than usual"): 30 %, as much as Slowness II."""
CLOAK_MODIFIER: dict[str, SnbtValue] = {
    "type": "minecraft:movement_speed",
    "id": "traitors:cloak",
    "amount": CLOAK_SPEED,
    "operation": "add_multiplied_total",
    "slot": "chest",
}
"""The cloak's ``attribute_modifiers`` entry (``docs/minecraft.md#commands-and-text``): it slows its wearer only
while it is worn in the chest slot, and replaces the leather chestplate's armour points."""

WORN: dict[Item, str] = {Item.TRAITORS_CLOAK: "armor.chest", Item.LANTERN: "weapon.offhand"}
"""Items a contestant is equipped with rather than handed (rulebook §10: the cloak is worn, the lantern carried)
and the slot each goes to (``equip``)."""

ITEMS: dict[Item, ItemSpec] = {
    Item.NOTES_BOOK: ItemSpec(
        "minecraft:writable_book", "Notes", "aqua", ("Your own notes. Nobody else can read them.",)
    ),
    Item.VOTE_PAPER: ItemSpec(
        "minecraft:paper", "Vote Paper", "gold", ("Write a name at the round table",), max_stack_size=1
    ),
    Item.DOUBLE_VOTE_PAPER: ItemSpec(
        "minecraft:paper",
        "Double Vote Paper",
        "gold",
        ("Counts twice at the round table",),
        glint=True,
        max_stack_size=1,
    ),
    Item.CAST_VOTE_PAPER: ItemSpec(
        "minecraft:paper",
        "Cast Vote Paper",
        "white",
        ("A cast vote cannot be changed",),
        max_stack_size=1,
        labelled=True,
    ),
    Item.BANISH_TORCH: ItemSpec(
        "minecraft:redstone_torch",
        "Finale Torch",
        "gold",
        (_TORCH_LORE,),
        max_stack_size=1,
        labelled=True,
        extra=_TORCH_LOOK,
    ),
    Item.END_TORCH: ItemSpec(
        "minecraft:copper_torch",
        "Finale Torch",
        "gold",
        (_TORCH_LORE,),
        max_stack_size=1,
        labelled=True,
        extra=_TORCH_LOOK,
    ),
    Item.SACRED_SWORD: ItemSpec(
        "minecraft:iron_sword",
        "Sacred Sword",
        "gold",
        (),
        glint=True,
        name_field="custom_name",
        extra=(("unbreakable", {}),),
    ),
    Item.MURDER_SHIELD: ItemSpec(
        "minecraft:shield", "Murder Shield", "aqua", ("Protects its holder from one murder",), glint=True
    ),
    Item.DEADLOCK_SHIELD: ItemSpec(
        "minecraft:shield", "Deadlock Shield", "aqua", ("Safe from this deadlock",), glint=True
    ),
    Item.TRAITORS_CLOAK: ItemSpec(
        "minecraft:leather_chestplate",
        "Hooded Cloak",
        "dark_gray",
        ("Worn at night",),
        extra=(("dyed_color", 0x1D1D21), ("attribute_modifiers", [CLOAK_MODIFIER])),
    ),
    Item.LANTERN: ItemSpec("minecraft:lantern", "Lantern", "yellow", ("Carried at night",), max_stack_size=1),
    Item.RESPONSE_BOOK: ItemSpec(
        "minecraft:written_book",
        "Traitors' Response",
        "dark_purple",
        ("One anonymous reply",),
        name_field="custom_name",
        label_pages=True,
        extra=(("written_book_content", {"title": "Response", "author": "The Traitors", "pages": [_BOOK_PAGE]}),),
    ),
    Item.RESPONSE_DRAFT: ItemSpec(
        "minecraft:writable_book", "Response Draft", "dark_purple", ("Write one anonymous reply, then send it",)
    ),
    Item.CONFESSION_BOOK: ItemSpec(
        "minecraft:writable_book", "Confession Book", "aqua", ("Write your confession, then send it",)
    ),
    Item.FAITHFUL_FANCY: ItemSpec(
        "minecraft:potion",
        "Faithful Fancy",
        "gold",
        ("From the bar",),
        max_stack_size=1,
        extra=(("potion_contents", {"custom_color": 0xE0B040}),),
    ),
    Item.TRAITORS_TIPPLE: ItemSpec(
        "minecraft:potion",
        "Traitors' Tipple",
        "gold",
        ("From the bar",),
        max_stack_size=1,
        extra=(("potion_contents", {"custom_color": 0x802030}),),
    ),
    Item.SEER_BOOK: ItemSpec(
        "minecraft:written_book",
        "Seer Book",
        "light_purple",
        (),
        name_field="custom_name",
        label_pages=True,
        extra=(("written_book_content", {"title": "Seer Book", "author": "The Seer", "pages": [_BOOK_PAGE]}),),
    ),
    Item.DIARY_BOOK: ItemSpec(
        "minecraft:written_book",
        "Diary Room Letter",
        "light_purple",
        (),
        name_field="custom_name",
        extra=(("written_book_content", {"title": "Diary Room", "author": "The Castle", "pages": [_BOOK_PAGE]}),),
    ),
    Item.PLAYER_HEAD: ItemSpec("minecraft:player_head", "Player Head", "yellow", ()),
}
"""Every castle item. What others can see of an item is neutral: a held item's model (everyone sees it in its
holder's hand), its name and lore (shown to whoever holds or picks it up) and a book's title never name a role,
an allegiance or a chosen contestant; a secret travels in a ``Whisper`` to one player, or on a page only its
holder reads (the seer book, rulebook §10: "the seer book, which reveals whether a player is a Faithful or a
Traitor"). The finale torches look like an ordinary torch (``item_model``) whatever the vote, named for their
finalist: only the block placed shows red or green (rulebook §10 "Finale Torches"). Books: ``writable_book`` for
books a contestant writes in; ``written_book`` (``written_book_content`` with a plain title and author) for
letters: neutral pages, or the pages their label gives. The player head is set as a block at the breakfast table
(``bridge.minecraft.world.head_block``), never given."""


@dataclass(frozen=True, slots=True)
class ItemStack:
    """An item id with its components (already SNBT) and a count: the argument of ``give``."""

    item_id: str
    components: tuple[tuple[str, str], ...]
    count: int = 1

    def argument(self) -> str:
        """``minecraft:paper[item_name=…,…]``."""
        inner = ",".join(f"{k}={v}" for k, v in self.components)
        return f"{self.item_id}[{inner}]" if inner else self.item_id


_GIVE_ID_RE = re.compile(r"[A-Za-z0-9_]{1,16}/[A-Za-z0-9_]{3,16}/[0-9]{1,9}")

GIVE_ONCE_SLOTS: tuple[str, ...] = (
    "container.*",
    "weapon.offhand",
    "armor.*",
    "player.cursor",
    "player.crafting.*",
    "enderchest.*",
)
"""Where ``give_once`` looks for an item already given: a player's inventory and hotbar (``container.*``), off
hand, armour, the stack on the cursor, the 2×2 crafting grid and their ender chest (vanilla slot ranges,
``docs/minecraft.md#commands-and-text``: ``if items``)."""


def custom_data(item: Item, give_id: str | None = None) -> dict[str, SnbtValue]:
    """The marker every castle item carries: ``{traitors:{item:"<Item.value>"}}``.

    Args:
        item: which item.
        give_id: the unique id of one hand-out (``"<series tag>/<player>/<n>"``, see ``give_once``), or ``None``.
    """
    marker: dict[str, SnbtValue] = {"item": item.value}
    if give_id is not None:
        marker["give"] = give_id
    return {"traitors": marker}


def item_stack(
    item: Item,
    *,
    label: Label = None,
    count: int = 1,
    pages: Sequence[str] | None = None,
    give_id: str | None = None,
) -> ItemStack:
    """The stack for one castle item (from ``ITEMS``).

    Args:
        item: which item.
        label: for a ``labelled`` item (the cast vote paper, a finale torch) the name written on it; for a
            ``label_pages`` book its pages (free text, or a ``Message``: one page in the reader's language);
            ignored otherwise.
        count: how many (1..99).
        pages: for a ``written_book`` item, free text for its pages (each page one text component built by
            ``text_component``, so any text shows literally); ``None`` keeps the neutral default page.

        give_id: the hand-out's unique id, kept in ``custom_data`` so the give can be made idempotent.

    Raises:
        ValueError: a bad count, a labelled item without a label, pages for an item that is no written book,
            or a malformed ``give_id``.
    """
    if give_id is not None and not _GIVE_ID_RE.fullmatch(give_id):
        raise ValueError(f"bad give id {give_id!r} (expected <tag>/<player>/<number>)")
    spec = ITEMS[item]
    check_count(count, "item count", 1)
    if count > 99:
        raise ValueError(f"item count must be at most 99: {count}")
    comps: list[tuple[str, str]] = []
    key = f"traitors.item.{item.value}"
    name = translated(key, spec.name, color=spec.color, italic=False)
    comps.append((spec.name_field, name.snbt()))
    if spec.labelled:
        if not label or isinstance(label, Message):
            raise ValueError(f"{item.value} needs a label (the name written on it)")
        comps.append(("custom_name", text_component(label, color="white", italic=False).snbt()))
    if spec.lore:
        lines = [
            translated(key + ".lore" + (f".{i}" if i else ""), line, color="gray", italic=False).snbt()
            for i, line in enumerate(spec.lore)
        ]
        comps.append(("lore", "[" + ",".join(lines) + "]"))
    comps.append(("custom_data", snbt(custom_data(item, give_id))))
    if spec.glint:
        comps.append(("enchantment_glint_override", "true"))
    if spec.max_stack_size is not None:
        comps.append(("max_stack_size", str(spec.max_stack_size)))
    extra = dict(spec.extra)
    written: list[SnbtValue] | None = None
    if pages is not None:
        written = [text_component(p).to_nbt() for p in pages]
    elif spec.label_pages and isinstance(label, Message):
        written = [message_component(label).to_nbt()]
    elif spec.label_pages and isinstance(label, str) and label:
        written = [text_component(p).to_nbt() for p in book_pages(label)]
    if written is not None:
        content = extra.get("written_book_content")
        if not isinstance(content, Mapping):
            raise ValueError(f"{item.value} is not a written book; it has no pages")
        extra["written_book_content"] = {**content, "pages": written}
    comps.extend((k, snbt(v)) for k, v in extra.items())
    return ItemStack(spec.item_id, tuple(comps), count)


BOOK_PAGE_CHARS = 200
"""Characters per written-book page the bridge fills (a page shows about 14 lines of 19 characters)."""


def book_pages(text: str) -> list[str]:
    """``text`` cut into written-book pages of at most ``BOOK_PAGE_CHARS`` characters (at spaces when possible)."""
    pages: list[str] = []
    rest = text
    while len(rest) > BOOK_PAGE_CHARS:
        cut = rest.rfind(" ", 0, BOOK_PAGE_CHARS)
        cut = cut if cut > 0 else BOOK_PAGE_CHARS
        pages.append(rest[:cut])
        rest = rest[cut:].lstrip(" ")
    return [*pages, rest] if rest or not pages else pages


def _castle_marker(stack: object) -> dict[str, object]:
    """The castle's marker ``components."minecraft:custom_data".traitors`` of one parsed inventory stack
    (``{item: "vote_paper", give: "<id>"}``), or ``{}`` when the stack carries none (or is no compound)."""
    comps = stack.get("components", {}) if isinstance(stack, dict) else {}
    data = comps.get("minecraft:custom_data", {}) if isinstance(comps, dict) else {}
    marker = data.get("traitors", {}) if isinstance(data, dict) else {}
    return marker if isinstance(marker, dict) else {}


def held_give_ids(inventory: object) -> set[str]:
    """The hand-out ids (``give_once``) of the castle items in a parsed ``data get entity <name> Inventory`` reply.

    Args:
        inventory: the parsed list of stack compounds (plain Python, ``bridge.minecraft.snbt.parse``).

    Returns:
        Every ``custom_data`` ``traitors.give`` id found; an empty set for anything that is not a list.
    """
    if not isinstance(inventory, list):
        return set()
    return {str(gid) for stack in inventory if isinstance(gid := _castle_marker(stack).get("give"), str)}


def book_text(inventory: object, item: Item, give_ids: Collection[str] | None = None) -> str | None:
    """The text written in a castle book from a parsed ``data get entity <name> Inventory`` reply.

    Args:
        inventory: the parsed list of stack compounds (plain Python: dicts, lists, strings).
        item: which castle book (matched by ``custom_data`` ``traitors.item``).
        give_ids: only a book with one of these hand-out ids (``custom_data`` ``traitors.give``): the books
            given to this player, so that a book picked up from someone else is not read as theirs;
            ``None``: any such book.

    Returns:
        The pages joined with newlines (a page is a string or ``{raw: …}``; vanilla 1.21 writes ``{raw: …}``),
        ``""`` for an unwritten book, ``None`` when the player holds no such book.
    """
    if not isinstance(inventory, list):
        return None
    for stack in inventory:
        marker = _castle_marker(stack)
        if marker.get("item") != item.value or (give_ids is not None and marker.get("give") not in give_ids):
            continue
        content = stack["components"].get("minecraft:writable_book_content", {})
        pages = content.get("pages", []) if isinstance(content, dict) else []
        texts = [p.get("raw", "") if isinstance(p, dict) else p for p in pages if isinstance(p, (dict, str))]
        return "\n".join(str(t) for t in texts).strip()
    return None


def give(name: str, stack: ItemStack) -> McCommand:
    """``give <name> <item>[components] <count>`` (``docs/minecraft.md#commands-and-text``).

    Raises:
        ValueError: a bad name, or a command over the 1446-byte limit (items don't split).
    """
    return checked_command(f"give {player_name(name)} {stack.argument()} {check_count(stack.count, 'item count', 1)}")


def give_once(name: str, stack: ItemStack, give_id: str) -> McCommand:
    """A give that does nothing if the player already holds this hand-out (crash-safe re-sending).

    ``execute unless items entity <name> <slots> *[custom_data~{traitors:{give:"<id>"}}] … run give …``, one
    ``unless items`` per range of ``GIVE_ONCE_SLOTS`` (``docs/minecraft.md#commands-and-text``: ``if items``,
    partial ``custom_data~``). When the item is found vanilla runs nothing and replies with an empty text.

    Args:
        name: the player.
        stack: the stack, made with the same ``give_id`` (``item_stack(..., give_id=…)``).
        give_id: the hand-out's unique id.

    Raises:
        ValueError: a bad name, a stack without this ``give_id``, or a command over the 1446-byte limit.
    """
    player = player_name(name)
    marker = snbt({"traitors": {"give": give_id}})
    if f"give:{snbt_string(give_id)}" not in stack.argument():
        raise ValueError(f"the stack does not carry give id {give_id!r}")
    tests = " ".join(f"unless items entity {player} {slots} *[custom_data~{marker}]" for slots in GIVE_ONCE_SLOTS)
    return checked_command(f"execute {tests} run {give(player, stack).text}")


def equip(name: str, slot: str, stack: ItemStack) -> McCommand:
    """Put ``stack`` in one of ``name``'s equipment slots if that slot is empty:
    ``execute unless items entity <name> <slot> * run item replace entity <name> <slot> with <item> <count>``
    (``docs/minecraft.md#commands-and-text``). A slot already in use (the player's own armour, a shield in the
    off hand) is left as it is: nothing the player holds is ever overwritten.

    Args:
        name: the player.
        slot: ``armor.chest`` or ``weapon.offhand`` (a value of ``WORN``).
        stack: the stack to put there.

    Raises:
        ValueError: a bad name or slot, or a command over the 1446-byte limit.
    """
    if slot not in WORN.values():
        raise ValueError(f"not an equipment slot Castle uses: {slot!r}")
    player = player_name(name)
    count = check_count(stack.count, "item count", 1)
    return checked_command(
        f"execute unless items entity {player} {slot} * run item replace entity {player} {slot} "
        f"with {stack.argument()} {count}"
    )


def give_unless_worn(name: str, slot: str, item: Item, stack: ItemStack) -> McCommand:
    """Give ``stack`` (a castle ``item``) unless ``name`` already wears such an item in ``slot``: the give that
    follows ``equip`` when the slot was taken. ``execute unless items entity <name> <slot>
    *[custom_data~{traitors:{item:"<item>"}}] run give …``.

    Raises:
        ValueError: a bad name, or a command over the 1446-byte limit.
    """
    player = player_name(name)
    marker = snbt(custom_data(item))
    return checked_command(
        f"execute unless items entity {player} {slot} *[custom_data~{marker}] run {give(player, stack).text}"
    )


def clear(to: str, item: Item) -> McCommand:
    """``clear <to> *[custom_data~{traitors:{item:"<value>"}}]``: removes exactly the castle's items of a kind.

    ``~`` is the partial custom_data predicate (``docs/minecraft.md#commands-and-text``), so a renamed cast vote paper
    still matches.
    """
    return checked_command(f"clear {targets(to)} *[custom_data~{snbt(custom_data(item))}]")


def clear_castle_items(to: str) -> McCommand:
    """``clear <to> *[custom_data~{traitors:{}}]``: removes every castle item (any ``Item``) and nothing else.

    Used to re-sync an inventory from the engine's state after a server restart or a contestant's return.
    """
    return checked_command(f"clear {targets(to)} *[custom_data~{{traitors:{{}}}}]")


def inventory_get(name: str) -> McCommand:
    """``data get entity <name> Inventory``: the stacks a player holds (to read a castle book's pages)."""
    return checked_command(f"data get entity {player_name(name)} Inventory")
