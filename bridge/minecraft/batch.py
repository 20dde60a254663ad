"""Few round trips for many commands: a step's commands packed into data pack calls (``docs/performance.md``).

RCON carries one command per round trip, and a real server is a network away, so what one step of the series
sends (an input applied, a phase change) goes as few commands as the 1446-byte limit allows. The data pack does
the fan-out:

* ``pack`` puts consecutive commands into one ``function traitors:run {q:[{c:'<command>'},…]}``, which runs
  them in order (``datapack/data/traitors/function/run.mcfunction``). Nothing is sent to anyone it was not sent
  to before: each command keeps its own target (a private line still names its one player).
* ``ask`` shows a prompt with one list of choices from which the pack builds both the dialog and the chat line
  (``traitors:ui/ask``), instead of sending every button twice.
* ``give_each`` gives one kind of item to several players with one stack text: the pack puts each player's
  hand-out id into it and gives only to a player who does not hold it yet (``traitors:item/give``, its
  per-player line written from ``items.GIVE_ONCE_SLOTS`` by ``give_one_function``).

House rules:

1. ``pack`` never reorders, drops or splits a command; a command that does not fit a batch beside others goes
   alone, as it is. A batch of one command is that command.
2. A batch never holds both a prompt (a dialog) and a chat line without a link (an announcement, a whisper): a
   batch answered but not marked sent is sent again after a crash, and a player then sees the same dialog
   twice with nothing between but the prompt's own chat line (its links), which a reader takes for the repeat
   it is (the demo's bots do), not for a new question after news.
3. A batch never holds a give followed by a ``clear``: a give is skipped for a player who holds the item
   already, and a batch sent again after a crash would otherwise find the item taken by its own ``clear`` and
   give it a second time.
4. A batch holds at most ``MAX_ENTRIES`` commands: each one is a nested function call in the pack
   (``traitors:run/next`` calls itself), and a short chain stays far from any nesting limit.
5. The server answers a batch with one reply ("Executed function 'traitors:run'"): a command inside that fails
   fails alone and silently, as any line of a function does in vanilla.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bridge.minecraft.core import MAX_COMMAND_BYTES, McCommand, checked_command, player_name, utf8_size
from bridge.minecraft.items import GIVE_ONCE_SLOTS, ItemStack
from bridge.minecraft.snbt import SnbtValue, parse, snbt, snbt_string
from bridge.minecraft.text import Component

__all__ = [
    "ASK_FUNCTION",
    "GIVE_FUNCTION",
    "GIVE_ONE_FILE",
    "MAX_ENTRIES",
    "RUN_FUNCTION",
    "ask",
    "give_each",
    "give_one_function",
    "pack",
    "unpack",
]

RUN_FUNCTION = "traitors:run"
"""The data pack function that runs a batch of commands in order."""
ASK_FUNCTION = "traitors:ui/ask"
"""The data pack function that shows one player a prompt as a dialog and as a chat line."""
GIVE_FUNCTION = "traitors:item/give"
"""The data pack function that gives one kind of item, each stack with its player's hand-out id."""
GIVE_ONE_FILE = "data/traitors/function/item/give/one.mcfunction"
"""Where ``traitors:item/give/one`` is in the data pack (written by ``traitors install-datapack``)."""
MAX_ENTRIES = 16
"""Commands per batch at most (house rule 2)."""

_HEAD = f"function {RUN_FUNCTION} {{q:["
_TAIL = "]}"
_ID_MARK = "\x00"
"""Stands in for the hand-out id while a stack is cut in two around it (never in a command: SNBT escapes it)."""


def _entry(command: McCommand) -> str:
    """``{c:'<command>'}``: single quotes, so the command's many double quotes need no escaping."""
    text = command.text
    if any(ord(ch) < 0x20 for ch in text):  # not in a built command (SNBT escapes them); quoted in full if so
        return "{c:" + snbt_string(text) + "}"
    return "{c:'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'}"


def pack(commands: Sequence[McCommand]) -> list[tuple[McCommand, int]]:
    """The commands packed into as few ``function traitors:run`` calls as fit (house rules 1-4).

    Args:
        commands: commands in the order they must run.

    Returns:
        ``(command, n)`` in the same order: a batch of the next ``n`` commands, or (``n`` = 1) the next command
        as it was.
    """
    out: list[tuple[McCommand, int]] = []
    group: list[McCommand] = []
    size = 0  # bytes of the group's entries, with their separating commas

    def flush() -> None:
        nonlocal size
        if len(group) == 1:
            out.append((group[0], 1))
        elif group:
            entries = ",".join(_entry(c) for c in group)
            out.append((McCommand(_HEAD + entries + _TAIL), len(group)))
        group.clear()
        size = 0

    frame = utf8_size(_HEAD) + utf8_size(_TAIL)
    kind = ""  # "prompt" or "news" once the group holds one (house rule 2)
    gave = False  # the group holds a give (house rule 3)
    for command in commands:
        entry = utf8_size(_entry(command))
        if frame + entry > MAX_COMMAND_BYTES:  # too big to go beside anything: alone, as it is
            flush()
            out.append((command, 1))
            continue
        this = _kind(command.text)
        if group and (
            len(group) >= MAX_ENTRIES
            or frame + size + 1 + entry > MAX_COMMAND_BYTES
            or (this and kind and this != kind)
            or (gave and command.text.startswith("clear "))
        ):
            flush()
        if not group:
            kind, gave = "", False
        kind = kind or this
        gave = gave or _gives(command.text)
        size += entry + (1 if group else 0)
        group.append(command)
    flush()
    return out


_PROMPTS = (f"function {ASK_FUNCTION} ", "function traitors:ui/prompt ")


def _kind(text: str) -> str:
    """``"prompt"`` for a dialog, ``"news"`` for a chat line without a link, else ``""`` (house rule 2)."""
    if text.startswith(_PROMPTS):
        return "prompt"
    if text.startswith("tellraw ") and "run_command" not in text:
        return "news"
    return ""


_GIVES = (f"function {GIVE_FUNCTION} ",)


def _gives(text: str) -> bool:
    """Whether a command gives an item (house rule 3): ``traitors:item/give``, a ``give`` or an equip."""
    return text.startswith(_GIVES) or text.startswith("give ") or " run give " in text or " run item " in text


def unpack(text: str) -> list[str]:
    """The commands a sent command runs as the server gets them: a batch's entries in order, else ``[text]``
    (for reading a command log, e.g. the sandbox's).

    Raises:
        SnbtError: a batch whose arguments are not SNBT.
    """
    if not text.startswith(_HEAD):
        return [text]
    entries = parse(text[len(f"function {RUN_FUNCTION} ") :])["q"]
    return [str(e["c"]) for e in entries]


_TRIGGER = "/trigger traitors."
"""What every castle choice runs (``triggers.trigger_command``); the pack puts it back in front of each choice."""


def ask(name: str, title: Component, body: Component, buttons: Sequence[tuple[Component, str]]) -> McCommand:
    """``function traitors:ui/ask {player,title,body,choices:[{l:<label>,c:"vote set 2"},…]}``: ``name`` sees a
    dialog with one button per ``(label, /trigger command)`` and the same choices as clickable ``[label]`` text
    in chat, after the question ``body`` (white, behind the private prefix). Each command is sent without its
    ``/trigger traitors.`` (the pack writes it).

    Raises:
        ValueError: a bad name, no buttons, a command that is no castle trigger, or a call over the 1446-byte
            limit (the caller then sends the dialog and the chat line apart).
    """
    if not buttons:
        raise ValueError("a prompt needs at least one choice")
    if not all(command.startswith(_TRIGGER) for _, command in buttons):
        raise ValueError("a choice that runs no castle trigger")
    choices: list[SnbtValue] = [{"l": label.to_nbt(), "c": command[len(_TRIGGER) :]} for label, command in buttons]
    args: dict[str, SnbtValue] = {
        "player": player_name(name),
        "title": title.to_nbt(),
        "body": body.to_nbt(),
        "choices": choices,
    }
    return checked_command(f"function {ASK_FUNCTION} {snbt(args)}")


def give_each(stacks: Mapping[str, ItemStack], give_ids: Mapping[str, str]) -> list[McCommand]:
    """One kind of item to several players, each stack carrying that player's hand-out id, given only if the
    player does not hold it (``items.give_once``, done by ``traitors:item/give``): one call for all players when
    it fits, else as many as it takes.

    Args:
        stacks: player → their stack (made with ``item_stack(…, give_id=give_ids[player])``); every stack the
            same but for the id.
        give_ids: player → hand-out id.

    Raises:
        ValueError: a bad name, stacks that differ by more than the id, or one player's call over the limit.
    """
    names = sorted(stacks)
    if not names:
        return []
    first = stacks[names[0]]
    template = _template(first, give_ids[names[0]])
    for name in names[1:]:
        if _template(stacks[name], give_ids[name]) != template:
            raise ValueError(f"give_each: {name}'s stack is not the same item as {names[0]}'s")
    before, after = template.split(_ID_MARK)
    out: list[McCommand] = []
    start = 0
    while start < len(names):
        end = len(names)
        while True:
            to: list[SnbtValue] = [{"p": player_name(n), "g": give_ids[n]} for n in names[start:end]]
            text = f"function {GIVE_FUNCTION} {snbt({'s': {'a': before, 'b': after, 'n': first.count, 'to': to}})}"
            if utf8_size(text) <= MAX_COMMAND_BYTES or end - start == 1:
                out.append(checked_command(text))
                break
            end = start + (end - start) // 2
        start = end
    return out


def _template(stack: ItemStack, give_id: str) -> str:
    """The stack's text with its hand-out id cut out (``_ID_MARK`` in its place).

    Raises:
        ValueError: the stack does not carry ``give_id`` exactly once.
    """
    text = stack.argument()
    quoted = snbt_string(give_id)
    if text.count(quoted) != 1:
        raise ValueError(f"the stack does not carry give id {give_id!r} once")
    return text.replace(quoted, '"' + _ID_MARK + '"')


_GIVE_ONE_HEADER = """\
# Written by `traitors install-datapack` (bridge/minecraft/batch.py give_one_function). Macro, with storage
# traitors:item give: give $(p) the stack $(a)$(g)$(b) (count $(n)) unless they hold hand-out $(g) already, in
# any of the slots a give_once looks in (bridge.minecraft.items.GIVE_ONCE_SLOTS).
"""


def give_one_function() -> str:
    """The text of ``traitors:item/give/one``: ``items.give_once`` as a macro line."""
    marker = 'custom_data~{traitors:{give:"$(g)"}}'
    tests = " ".join(f"unless items entity $(p) {slots} *[{marker}]" for slots in GIVE_ONCE_SLOTS)
    return _GIVE_ONE_HEADER + f"$execute {tests} run give $(p) $(a)$(g)$(b) $(n)\n"
