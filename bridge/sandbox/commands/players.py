"""What a player carries besides items: ``tag``, ``effect``, ``gamemode``, ``advancement revoke``, and
``dialog show|clear`` (vanilla en_us replies)."""

from __future__ import annotations

from typing import Any

from mecha import ast as mast

from bridge.sandbox import nbt
from bridge.sandbox.commands.args import rl, targets, who
from bridge.sandbox.model import ChatMessage, Player, default_name
from bridge.sandbox.state import CommandFailure, Unsupported, WorldState

__all__ = ["advancement", "dialog", "effect", "gamemode", "tag"]

GAMEMODE_NAMES = {
    "survival": "Survival Mode",
    "creative": "Creative Mode",
    "adventure": "Adventure Mode",
    "spectator": "Spectator Mode",
}
"""Game mode → its en_us name in "Set Alice's game mode to Adventure Mode"."""


def _tag_list(tagged: list[Player]) -> str:
    names = [p.name for p in tagged]
    if len(tagged) == 1:
        tags = sorted(tagged[0].tags)
        return f"{names[0]} has {len(tags)} tags: {', '.join(tags)}" if tags else f"{names[0]} has no tags"
    all_tags = sorted(set().union(*(p.tags for p in tagged)))
    return f"{len(names)} entities have {len(all_tags)} total tags: {', '.join(all_tags)}"


def tag(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``tag <targets> add|remove <tag>``, ``tag <targets> list``."""
    tagged = targets(world, args[0])
    if parts[2] == "list":
        return _tag_list(tagged)
    name = str(args[1].value)
    if parts[2] == "add":
        hit = [p for p in tagged if name not in p.tags]
        for p in hit:
            p.tags.add(name)
        if not hit:
            raise CommandFailure("Nothing changed. The entity already has that tag or has too many tags")
        return f"Added tag '{name}' to {who([p.name for p in hit], 'entities')}"
    if parts[2] == "remove":
        hit = [p for p in tagged if name in p.tags]
        for p in hit:
            p.tags.discard(name)
        if not hit:
            raise CommandFailure("Nothing changed. The entity does not have that tag")
        return f"Removed tag '{name}' from {who([p.name for p in hit], 'entities')}"
    raise Unsupported(f"tag {parts[2]}")


def gamemode(world: WorldState, _parts: list[str], args: list[Any], _text: str) -> str:
    """``gamemode <mode> <targets>`` (the console must name targets)."""
    mode = str(args[0].value)
    if len(args) < 2:
        raise CommandFailure("A player is required to run this command here")
    changed = targets(world, args[1])
    for p in changed:
        p.gamemode = mode
    return "".join(f"Set {p.name}'s game mode to {GAMEMODE_NAMES[mode]}" for p in changed)


def _effect_give(affected: list[Player], parts: list[str], args: list[Any]) -> str:
    """``effect give <targets> <effect> [<seconds>|infinite [<amplifier>]]`` (default 30 s, amplifier 0)."""
    effect_id = rl(args[1])
    if "infinite" in parts:
        seconds, amp = -1, int(args[2].value) if len(args) > 2 else 0
    else:
        seconds = int(args[2].value) if len(args) > 2 else 30
        amp = int(args[3].value) if len(args) > 3 else 0
    for p in affected:
        p.effects[effect_id] = (seconds, amp)
    return f"Applied effect {default_name(effect_id)} to {who([p.name for p in affected], 'targets')}"


def _effect_clear(affected: list[Player], args: list[Any]) -> str:
    if len(args) > 1:
        effect_id = rl(args[1])
        hit = [p for p in affected if p.effects.pop(effect_id, None) is not None]
        if not hit:
            raise CommandFailure("Target doesn't have the requested effect")
        return f"Removed effect {default_name(effect_id)} from {who([p.name for p in hit], 'targets')}"
    hit = [p for p in affected if p.effects]
    for p in affected:
        p.effects.clear()
    if not hit:
        raise CommandFailure("Target has no effects to remove")
    return f"Removed every effect from {who([p.name for p in hit], 'targets')}"


def effect(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``effect give …`` and ``effect clear <targets> [<effect>]``."""
    if not args:
        raise CommandFailure("An entity is required to run this command here")
    affected = targets(world, args[0])
    if parts[1] == "give":
        return _effect_give(affected, parts, args)
    if parts[1] == "clear":
        return _effect_clear(affected, args)
    raise Unsupported(f"effect {parts[1]}")


def advancement(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``advancement revoke <targets> only <advancement>`` (the data pack's advancements only); the result is
    how many players lost it."""
    if parts[1] != "revoke" or parts[3] != "only" or len(args) != 2:
        raise Unsupported("advancement " + " ".join(parts[1:]))
    revoked = targets(world, args[0])
    adv = rl(args[1])
    if world.datapack is None or adv not in world.datapack.advancements:
        raise CommandFailure(f"No advancement was found by the name '{adv}'")
    hit = [p for p in revoked if adv in p.advancements]
    for p in hit:
        p.advancements.discard(adv)
    if not hit:
        names = who([p.name for p in revoked])
        raise CommandFailure(f"Couldn't revoke advancement [{adv}] from {names} as they don't have it")
    world.result = len(hit)
    return f"Revoked the advancement [{adv}] from {who([p.name for p in hit])}"


def _dialog_data(world: WorldState, node: Any) -> dict[str, Any]:
    """The dialog an argument gives: a data pack dialog id, or inline SNBT (``multi_action`` only)."""
    if isinstance(node, mast.AstResourceLocation):
        did = rl(node)
        shown = world.datapack.dialogs.get(did) if world.datapack is not None else None
        if shown is None:
            raise CommandFailure(f"Unknown dialog '{did}'")
    else:
        shown = nbt.to_python(node.evaluate())
    if not isinstance(shown, dict) or not str(shown.get("type", "")).endswith("multi_action"):
        raise Unsupported(f"dialog type {shown.get('type') if isinstance(shown, dict) else shown!r}")
    if not shown.get("actions"):
        raise CommandFailure("A multi_action dialog needs at least one action")
    return shown


def _prompt_line(message: ChatMessage) -> bool:
    """Whether a chat message is a prompt's chat line: it has a ``/trigger`` link."""
    return any(str(e.get("command", "")).startswith("/trigger ") for e in message.click_events())


def dialog(world: WorldState, parts: list[str], args: list[Any], _text: str) -> str:
    """``dialog show <targets> <dialog>``, ``dialog clear <targets>``; the result is the number of targets."""
    viewers = targets(world, args[0])
    names = [p.name for p in viewers]
    if parts[1] == "clear":
        for p in viewers:
            p.dialog = None
        world.result = len(viewers)
        return f"Cleared dialog for {who(names)}"
    shown = _dialog_data(world, args[1])
    for p in viewers:
        p.dialog = shown
        p.dialogs.append(shown)
        p.dialog_chat.append(sum(1 for m in p.chat if m.source == "tellraw" and not _prompt_line(m)))
    world.result = len(viewers)
    return f"Displayed dialog to {who(names)}"
