"""Items: ``give``, ``clear`` and ``item replace entity``, the item predicates they and ``execute if items`` test,
and slot ranges."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mecha import ast as mast

from bridge.sandbox import nbt
from bridge.sandbox.commands.args import rl, targets
from bridge.sandbox.model import EQUIPMENT_SLOTS, ItemStack, Player
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["EMPTY_SLOTS", "INVENTORY_SLOTS", "ItemPredicate", "clear", "give", "item", "predicate", "slot_stacks"]

# Slot ranges of ``items entity`` (vanilla SlotRanges). The sandbox keeps a player's carried items as one list,
# all in the main inventory, and the worn ones by equipment slot (``Player.equipment``: the armour slots and the
# off hand); the other ranges exist but are always empty here.
INVENTORY_SLOTS = frozenset({"container.*", "inventory.*", "hotbar.*"})
ARMOR_SLOTS = frozenset(s for s in EQUIPMENT_SLOTS if s.startswith("armor."))
EMPTY_SLOTS = frozenset({"armor.body", "player.cursor", "player.crafting.*", "enderchest.*"})


def stack_from(node: mast.AstItemStack) -> ItemStack:
    """A stack of one from an item argument (``id[component=value,!removed]``).

    Raises:
        CommandFailure: an item tag ("Can't use tags here"). Unsupported: another item argument.
    """
    if getattr(node.identifier, "is_tag", False):
        raise CommandFailure("Can't use tags here")
    components: dict[str, Any] = {}
    for arg in node.arguments:
        if isinstance(arg, mast.AstItemComponent):
            components[rl(arg.key)] = nbt.to_python(arg.value.evaluate())
        elif isinstance(arg, mast.AstItemRemovedDefaultComponent):
            components.pop(rl(arg.key), None)
        else:
            raise Unsupported(f"item argument {type(arg).__name__}")
    return ItemStack(rl(node.identifier), components, 1)


@dataclass(frozen=True)
class ComponentTest:
    """One alternative of an item predicate: ``count=N``, ``key`` (present), ``key=value`` (equal), or
    ``minecraft:custom_data~value`` (``predicate``: the custom data holds ``value``), optionally inverted (``!``)."""

    key: str
    value: Any
    predicate: bool
    inverted: bool

    def __call__(self, stack: ItemStack) -> bool:
        return self._holds(stack) != self.inverted

    def _holds(self, stack: ItemStack) -> bool:
        if self.predicate:
            return nbt.matches(stack.custom_data, self.value)
        if self.key == "minecraft:count":
            return bool(stack.count == self.value)
        if self.value is None:
            return self.key in stack.components
        return bool(stack.components.get(self.key) == self.value)


@dataclass(frozen=True)
class ItemPredicate:
    """An item predicate (``id[alt|alt, …]`` or ``*[…]``): the item id matches (``item`` None: any) and every
    group has an alternative that holds."""

    item: str | None = None
    groups: tuple[tuple[ComponentTest, ...], ...] = ()

    def __call__(self, stack: ItemStack) -> bool:
        if self.item is not None and stack.item != self.item:
            return False
        return all(any(test(stack) for test in alts) for alts in self.groups)


def _alternative(alt: Any) -> ComponentTest:
    key = rl(alt.key)
    value = nbt.to_python(alt.value.evaluate()) if alt.value is not None else None
    if isinstance(alt, mast.AstItemPredicateTestComponent):
        return ComponentTest(key, value, False, bool(alt.inverted))
    if isinstance(alt, mast.AstItemPredicateTestPredicate):
        if key != "minecraft:custom_data":
            raise Unsupported(f"item sub-predicate {key}")
        return ComponentTest(key, value, True, bool(alt.inverted))
    raise Unsupported(f"item predicate {type(alt).__name__}")


def predicate(node: mast.AstItemPredicate) -> ItemPredicate:
    """The item predicate argument as a test of stacks.

    Raises:
        Unsupported: item tags, sub-predicates other than ``minecraft:custom_data``.
    """
    ident = node.identifier
    if isinstance(ident, mast.AstWildcard):
        item = None
    elif ident.is_tag:
        raise Unsupported("item tags in predicates")
    else:
        item = rl(ident)
    groups: list[tuple[ComponentTest, ...]] = []
    for arg in node.arguments:
        if not isinstance(arg, mast.AstItemPredicateAlternatives):
            raise Unsupported(f"item predicate {type(arg).__name__}")
        groups.append(tuple(_alternative(alt) for alt in arg.alternatives))
    return ItemPredicate(item, tuple(groups))


def slot_stacks(player: Player, slots: str) -> list[ItemStack]:
    """The stacks in a slot range (``container.*``, ``hotbar.*``, ``armor.head``, …).

    Raises:
        Unsupported: a slot range the sandbox does not model.
    """
    if slots in INVENTORY_SLOTS:
        return list(player.inventory)
    if slots in EQUIPMENT_SLOTS:
        return [player.equipment[slots]] if slots in player.equipment else []
    if slots == "armor.*":
        return [st for slot, st in player.equipment.items() if slot in ARMOR_SLOTS]
    if slots in EMPTY_SLOTS:
        return []
    raise Unsupported(f"item slots {slots}")


def _add(p: Player, proto: ItemStack, count: int) -> None:
    """Put ``count`` of ``proto`` into ``p``'s inventory: top up equal stacks first, then new stacks."""
    left = count
    for stack in p.inventory:
        if left and stack.item == proto.item and stack.components == proto.components and stack.count < stack.max_stack:
            add = min(left, stack.max_stack - stack.count)
            stack.count += add
            left -= add
    while left:
        n = min(left, proto.max_stack)
        p.inventory.append(ItemStack(proto.item, nbt.to_python(proto.components), n))
        left -= n


def give(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    """``give <targets> <item> [<count>]`` (vanilla "Gave 1 [Vote Paper] to Alice")."""
    receivers = targets(world, args[0])
    proto = stack_from(args[1])
    count = int(args[2].value) if len(args) > 2 else 1
    for p in receivers:
        _add(p, proto, count)
    names = [p.name for p in receivers]
    if len(names) == 1:
        return f"Gave {count} [{proto.name}] to {names[0]}"
    return f"Gave {count} [{proto.name}] to {len(names)} players"


def _take(p: Player, pred: Callable[[ItemStack], bool], max_count: int) -> int:
    """Remove up to ``max_count`` matching items (``-1``: all) from ``p``: the inventory, then the worn and held
    slots (vanilla's ``clear`` empties those too); returns how many."""
    total = 0
    left = max_count
    for stack in p.stacks():
        if not pred(stack) or left == 0:
            continue
        take = stack.count if left < 0 else min(left, stack.count)
        stack.count -= take
        total += take
        if left > 0:
            left -= take
        if stack.count == 0:
            p.inventory = [st for st in p.inventory if st is not stack]
            p.equipment = {slot: st for slot, st in p.equipment.items() if st is not stack}
    return total


def clear(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    """``clear <targets> [<predicate> [<maxCount>]]``; ``maxCount`` 0 only counts (vanilla replies "Removed 2
    item(s) from player Alice", "Found 2 matching item(s) on player Alice")."""
    if len(args) == 0:
        raise CommandFailure("A player is required to run this command here")
    cleared = targets(world, args[0])
    pred = predicate(args[1]) if len(args) > 1 else ItemPredicate()
    max_count = int(args[2].value) if len(args) > 2 else -1
    total = 0
    for p in cleared:
        if max_count == 0:
            total += sum(s.count for s in p.stacks() if pred(s))
        else:
            total += _take(p, pred, max_count)
    names = [p.name for p in cleared]
    on = f"player {names[0]}" if len(names) == 1 else f"{len(names)} players"
    if total == 0:
        raise CommandFailure(f"No items were found on {on}")
    if max_count == 0:
        return f"Found {total} matching item(s) on {on}"
    return f"Removed {total} item(s) from {on}"


def item(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``item replace entity <targets> <slot> with <item> [<count>]`` into an equipment slot (an armour slot or the
    off hand), replacing what is there (vanilla "Replaced a slot on Alice with [Hooded Cloak]"). Other forms
    (``item modify``, ``from``, block containers, inventory slots) are not modelled.

    Raises:
        CommandFailure: no such player. Unsupported: another form or slot.
    """
    if parts[:3] != ["item", "replace", "entity"] or "with" not in parts:
        raise Unsupported(" ".join(parts[:3]))
    slot = str(args[1].value)
    if slot not in EQUIPMENT_SLOTS:
        raise Unsupported(f"item replace slot {slot}")
    receivers = targets(world, args[0])
    proto = stack_from(args[2])
    count = int(args[3].value) if len(args) > 3 else 1
    for p in receivers:
        p.equipment[slot] = ItemStack(proto.item, nbt.to_python(proto.components), count)
    if len(receivers) == 1:
        return f"Replaced a slot on {receivers[0].name} with [{proto.name}]"
    return f"Replaced a slot on {len(receivers)} entities with [{proto.name}]"
