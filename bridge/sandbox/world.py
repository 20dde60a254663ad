"""The sandbox world: a small model of what the bridge changes, and the commands that change it.

It is not Minecraft and never claims to be. It keeps what Castle's commands touch: online players
(position, game mode, tags, inventory with item components, effects), what each player was shown (chat
components with their click events, titles, subtitles, action bars), scoreboard objectives with trigger
locks, command storage, bossbars and game rules.

House rules of this file:

1. Every command is first parsed with mecha's 1.21.11 tree, once (exactly ``bridge.minecraft.syntax.check_command``'s
   parse, whose AST is then executed). A parse failure
   gets vanilla's RCON text: "Unknown or incomplete command, see below for error" or "Incorrect argument for
   command", then the last 10 characters before the cursor, the rest, and "<--[HERE]", all run together
   (docs/minecraft.md#rcon: the console source appends output with no newline).
2. A command that parses but that the sandbox does not model gets ``Sandbox: unsupported command …`` and is
   recorded in ``World.errors``, so tests can assert that none happened.
3. A vanilla failure (e.g. "No player was found") is an ordinary reply, not a sandbox error.
4. Reply texts follow vanilla's en_us strings (e.g. "Gave 1 [Vote Paper] to Alice").
5. Everything runs on the sandbox's one event-loop thread, like vanilla's main thread.
6. A loaded data pack (``load_datapack``) is interpreted, not simulated: its ``#minecraft:load`` functions run
   at load, its ``#minecraft:tick`` functions every tick, its advancement rewards when ``award`` is called.
   Commands run with a source (the console, or a player as ``@s``); inside a function a failing command just
   fails (the function goes on), a command the sandbox does not model is a sandbox error, and a macro line is
   parsed with mecha after substitution.
"""

from __future__ import annotations

import copy
import math
import random
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import nbtlib
from mecha import DiagnosticError, Mecha
from mecha import ast as mast

from bridge.sandbox import nbt
from bridge.sandbox.datapack import Datapack, Function
from bridge.sandbox.text import click_events, plain_text
from bridge.sandbox.uuids import offline_uuid
from bridge.minecraft.syntax import CommandSyntaxError, check_command

__all__ = [
    "Bossbar",
    "ChatMessage",
    "CommandRecord",
    "ItemStack",
    "Objective",
    "Player",
    "ScreenText",
    "Source",
    "World",
    "PLAYER_NAME",
]

#: Current Java usernames (3-16 of ``A-Z a-z 0-9 _``; ``docs/design.md#the-bridge``).
PLAYER_NAME = re.compile(r"[A-Za-z0-9_]{3,16}")

_GAMEMODE_NAMES = {
    "survival": "Survival Mode",
    "creative": "Creative Mode",
    "adventure": "Adventure Mode",
    "spectator": "Spectator Mode",
}
_GAMERULE_DEFAULTS = {
    "send_command_feedback": "true",
    "log_admin_commands": "true",
    "command_block_output": "true",
    "keep_inventory": "false",
    "do_daylight_cycle": "true",
}
_UNSTACKABLE = re.compile(r"(_sword|_axe|_pickaxe|_shovel|_hoe|^shield|_helmet|_chestplate|_leggings|_boots)$")


class CommandFailure(Exception):
    """A vanilla-style failure: the message is the reply text."""


class Unsupported(Exception):
    """The command parses but the sandbox does not model it."""


class _Return(Exception):
    """``return``: ends the innermost function with ``value`` (``None`` for ``return fail``)."""

    def __init__(self, value: int | None) -> None:
        self.value = value


MACRO_CACHE = 4096
"""Parsed macro lines kept (then the cache starts over)."""

MAX_FUNCTION_DEPTH = 64
"""Nested function calls before the sandbox calls it a runaway (vanilla's limit is a command count)."""


_local = threading.local()


def _mecha() -> Mecha:
    mc = getattr(_local, "mecha", None)
    if mc is None:
        mc = Mecha(version="1.21")
        _local.mecha = mc
    return mc


def _rl(node: Any) -> str:
    """A resource location node as ``namespace:path`` (default namespace ``minecraft``)."""
    return f"{node.namespace or 'minecraft'}:{node.path}"


def _title(ident: str) -> str:
    return ident.split(":", 1)[-1].replace("_", " ").title()


# ---------------------------------------------------------------------------------------------- model


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
        return _title(self.item)

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
    and the server's messages; the player's own trigger feedback is not counted)."""
    advancements: set[str] = field(default_factory=set)
    attacker: str | None = None

    def __post_init__(self) -> None:
        if not self.uuid:
            self.uuid = offline_uuid(self.name)

    def nbt(self) -> nbtlib.Compound:
        """The entity data the sandbox models: ``UUID`` (int array), ``Tags`` and ``Inventory`` (one compound
        ``{Slot, id, count, components}`` per stack, slots numbered in the order received)."""
        from bridge.io.players import ints_from_uuid

        stacks = [
            nbtlib.Compound({
                "Slot": nbtlib.Byte(i), "id": nbtlib.String(s.item), "count": nbtlib.Int(s.count),
                **({"components": nbt.from_python(s.components)} if s.components else {}),
            })
            for i, s in enumerate(self.inventory)
        ]  # fmt: skip
        return nbtlib.Compound({
            "UUID": nbtlib.IntArray(list(ints_from_uuid(self.uuid))),
            "Tags": nbtlib.List[nbtlib.String]([nbtlib.String(t) for t in sorted(self.tags)]),
            "Inventory": nbtlib.List[nbtlib.Compound](stacks),
        })

    def count_items(self, custom_item: str | None = None, *, item: str | None = None) -> int:
        """Count stacks' items, optionally only those with ``custom_data.traitors.item == custom_item``."""
        total = 0
        for stack in self.inventory:
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


# ---------------------------------------------------------------------------------------------- world


class World:
    """The sandbox's world model and command executor. Not thread-safe: use it from the sandbox's loop.

    Attributes:
        players: online players by name.
        objectives: scoreboard objectives by name.
        scores: holder name → objective name → score.
        unlocked: (holder, objective) pairs whose trigger is enabled.
        storage: storage id (``ns:path``) → root compound (nbtlib).
        bossbars: by id.
        gamerules: name → value text.
        command_log: every command received over RCON or :meth:`execute`, in order.
        errors: texts of sandbox errors (unsupported commands, internal faults).
        functions: function id → Python callable(world) returning a command count (for tests; a loaded
            data pack's functions come first).
        tick_functions: Python callables run each tick by :meth:`tick`, before the data pack's tick functions.
        datapack: the loaded data pack, or ``None``.
        ticks: ticks run so far.
        computed_storage: storage id → a function giving its contents as plain Python, called each time a
            ``data get storage`` reads that storage (the sandbox's own state, e.g. ``bridge/sandbox/quiet.py``;
            a real server has no such storage).
    """

    def __init__(self) -> None:
        self.players: dict[str, Player] = {}
        self._departed: dict[str, Player] = {}
        self.objectives: dict[str, Objective] = {}
        self.scores: dict[str, dict[str, int]] = {}
        self.unlocked: set[tuple[str, str]] = set()
        self.storage: dict[str, nbtlib.Compound] = {}
        self.bossbars: dict[str, Bossbar] = {}
        self.gamerules: dict[str, str] = {}
        self.command_log: list[CommandRecord] = []
        self.errors: list[str] = []
        self.functions: dict[str, Callable[[World], int]] = {}
        self.tick_functions: list[Callable[[World], None]] = []
        self.computed_storage: dict[str, Callable[[], dict[str, Any]]] = {}
        self.datapack: Datapack | None = None
        self._source: Source = CONSOLE
        self._result: int | None = None
        self._outputs: list[str] | None = None
        """Replies of the commands an ``execute`` ran (``None`` outside ``execute``)."""
        self._depth = 0
        self._macro_cache: dict[str, Any] = {}
        """Parsed macro lines by their text after substitution (vanilla caches macro instantiations too)."""
        self.ticks = 0
        self.spawn: tuple[float, float, float] = (0.5, 64.0, 0.5)
        self.presence_listeners: list[Callable[[str, Player], None]] = []
        """Called with ("joined" | "left", player) after a player joins or leaves (the MSMP server listens)."""
        self.datapacks: dict[str, bool] = {"vanilla": True, "file/traitors": True}
        """Data pack id → enabled, answered by ``datapack list`` like vanilla (the castle's pack on by default)."""

    # -- players ---------------------------------------------------------------------------------

    def join(self, name: str) -> Player:
        """A player comes online (keeping inventory and tags from an earlier visit).

        Raises:
            ValueError: ``name`` is not ``[A-Za-z0-9_]{3,16}`` or the player is already online.
        """
        if not PLAYER_NAME.fullmatch(name):
            raise ValueError(f"invalid player name {name!r}")
        if self._online(name) is not None:
            raise ValueError(f"{name} is already online")
        player = self._departed.pop(name, None) or Player(name, pos=self.spawn)
        self.players[name] = player
        for listener in list(self.presence_listeners):
            listener("joined", player)
        return player

    def leave(self, name: str) -> None:
        """A player goes offline. Raises ``KeyError`` when not online."""
        player = self.players.pop(name)
        self._departed[name] = player
        for bar in self.bossbars.values():
            bar.players.discard(name)
        for listener in list(self.presence_listeners):
            listener("left", player)

    def player(self, name: str) -> Player:
        """The online player called ``name``. Raises ``KeyError``."""
        return self.players[name]

    def _online(self, name: str) -> Player | None:
        if name in self.players:
            return self.players[name]
        lower = name.lower()
        for pname, p in self.players.items():
            if pname.lower() == lower:
                return p
        return None

    # -- simulated player input ----------------------------------------------------------------------

    def press_trigger(self, player: str, objective: str, value: int | None = None, *, add: bool = False) -> str:
        """The player runs ``/trigger <objective> set <value>`` (``docs/minecraft.md#player-input``; vanilla
        TriggerCommand).

        ``value`` None means plain ``/trigger <objective>`` (+1); ``add=True`` means ``add <value>``.
        The objective must have criterion ``trigger`` and the player's score must exist and be unlocked
        (``scoreboard players enable``); success sets the score and locks it again. The feedback goes to
        this player only (into ``chat``) and is returned.

        Raises:
            KeyError: the player is not online.
        """
        p = self.players[player]
        obj = self.objectives.get(objective)
        if obj is None:
            msg = f"Unknown scoreboard objective '{objective}'"
        elif obj.criterion != "trigger":
            msg = "You can only trigger objectives that are 'trigger' type"
        elif (p.name, objective) not in self.unlocked or objective not in self.scores.get(p.name, {}):
            msg = "You cannot trigger this objective yet"
        else:
            scores = self.scores[p.name]
            if value is None:
                scores[objective] += 1
                msg = f"Triggered {obj.bracketed}"
            elif add:
                scores[objective] += value
                msg = f"Triggered {obj.bracketed} (added {value} to value)"
            else:
                scores[objective] = value
                msg = f"Triggered {obj.bracketed} (set value to {value})"
            self.unlocked.discard((p.name, objective))
        p.chat.append(ChatMessage(msg, msg, source="feedback"))
        return msg

    def click(self, player: str, event: dict[str, Any]) -> str:
        """The player clicks a chat ``click_event``; only ``run_command`` with ``/trigger …`` is modelled.

        Returns:
            The feedback the player sees.

        Raises:
            KeyError: the player is not online.
            ValueError: the click event is not a trigger command.
        """
        if event.get("action") != "run_command":
            raise ValueError(f"sandbox players only click run_command events, not {event.get('action')!r}")
        words = str(event.get("command", "")).lstrip("/").split()
        if len(words) < 2 or words[0] != "trigger":
            raise ValueError(f"sandbox players only run /trigger, not {event.get('command')!r}")
        if len(words) == 2:
            return self.press_trigger(player, words[1])
        if len(words) == 4 and words[2] in ("set", "add"):
            return self.press_trigger(player, words[1], int(words[3]), add=words[2] == "add")
        raise ValueError(f"bad trigger command {event.get('command')!r}")

    # -- ticking ----------------------------------------------------------------------------------

    def tick(self) -> None:
        """Run one game tick: ``tick_functions``, then the data pack's ``#minecraft:tick`` functions."""
        self.ticks += 1
        for fn in self.tick_functions:
            try:
                fn(self)
            except Exception as exc:  # a broken tick function must not stop the world
                self.errors.append(f"tick function {getattr(fn, '__name__', fn)!r} failed: {exc!r}")
        if self.datapack is not None:
            for fid in self.datapack.tag("minecraft:tick"):
                self._run_top_function(fid, CONSOLE)

    # -- the data pack ------------------------------------------------------------------------------

    def load_datapack(self, pack: Datapack) -> None:
        """Load a data pack and run its ``#minecraft:load`` functions (as the server does at start/reload)."""
        self.datapack = pack
        for fid in pack.tag("minecraft:load"):
            self._run_top_function(fid, CONSOLE)

    def _run_top_function(self, fid: str, source: Source, args: nbtlib.Compound | None = None) -> int | None:
        """Run a function outside any command; sandbox faults go to ``errors``. Returns its return value."""
        try:
            return self.run_function(fid, source, args)
        except CommandFailure:
            return None
        except Unsupported as exc:
            self.errors.append(f"Sandbox: unsupported command in function {fid}: {exc}")
        except Exception as exc:  # a sandbox bug must not stop the world
            self.errors.append(f"internal error in function {fid}: {exc!r}")
        return None

    def award(self, player: str, advancement: str) -> bool:
        """The player meets the criteria of a data pack advancement: grant it and run its reward function.

        Returns:
            False when the player already had it (vanilla grants an advancement once until revoked).

        Raises:
            KeyError: the player is not online, or the data pack has no such advancement.
        """
        p = self.players[player]
        if self.datapack is None or advancement not in self.datapack.advancements:
            raise KeyError(f"no advancement {advancement}")
        if advancement in p.advancements:
            return False
        p.advancements.add(advancement)
        reward = self.datapack.advancements[advancement].get("rewards", {}).get("function")
        if reward:
            self._run_top_function(str(reward), Source(p))
        return True

    def hit(self, attacker: str, victim: str) -> None:
        """``attacker`` hits ``victim`` in melee: the victim remembers the attacker (``execute on attacker``) and,
        when the attacker holds the Sacred Sword, the data pack's sword advancements are granted (the attacker's
        ``traitors:sword/hit``, then the victim's ``traitors:sword/struck``), as vanilla's
        ``player_hurt_entity`` / ``entity_hurt_player`` triggers would. The sandbox has no hotbar: a Sacred Sword
        anywhere in the attacker's inventory counts as held.

        Raises:
            KeyError: a player is not online.
        """
        a, v = self.players[attacker], self.players[victim]
        v.attacker = a.name
        if a.count_items("sacred_sword") and self.datapack is not None:
            for who, adv in ((a, "traitors:sword/hit"), (v, "traitors:sword/struck")):
                if adv in self.datapack.advancements:
                    self.award(who.name, adv)

    def write_book(self, player: str, item: str, pages: list[str]) -> None:
        """``player`` writes ``pages`` into their castle book ``item`` (``custom_data`` ``traitors.item``), as
        the book-and-quill screen would (``writable_book_content`` pages ``{raw: …}``).

        Raises:
            KeyError: no such player or book.
        """
        for stack in self.players[player].inventory:
            if stack.custom_data.get("traitors", {}).get("item") == item:
                stack.components["minecraft:writable_book_content"] = {"pages": [{"raw": p} for p in pages]}
                return
        raise KeyError(f"{player} holds no {item}")

    def run_function(self, fid: str, source: Source = CONSOLE, args: nbtlib.Compound | None = None) -> int | None:
        """Run one function (a data pack function, else a Python one from ``functions``).

        Args:
            fid: the function id, e.g. ``"traitors:tick"``.
            source: who runs it (``@s``).
            args: macro arguments (a compound); required when the function has macro lines.

        Returns:
            The value of a ``return`` (``None`` when the function ran to its end).

        Raises:
            CommandFailure: unknown function, missing macro arguments, ``return fail``, a macro line that does
                not parse after substitution.
            Unsupported: a command the sandbox does not model.
        """
        fn = self.datapack.functions.get(fid) if self.datapack is not None else None
        if fn is None:
            py = self.functions.get(fid)
            if py is None:
                raise CommandFailure(f"Unknown function {fid}")
            return py(self)
        if self._depth >= MAX_FUNCTION_DEPTH:
            raise Unsupported(f"function {fid} nested deeper than {MAX_FUNCTION_DEPTH}")
        texts = self._macro_texts(fn, args)
        self._depth += 1
        try:
            for line in fn.lines:
                try:
                    if line.node is not None:
                        self._run_node(line.node, fn.source, source)
                    else:
                        text = line.substitute(texts)
                        node = self._macro_cache.get(text)
                        if node is None:
                            try:
                                check_command(text)
                            except CommandSyntaxError as exc:
                                self.errors.append(f"{fn.path}:{line.lineno}: macro line does not parse: {exc.detail}: {text[:200]}")
                                raise CommandFailure(f"Function {fid}: {exc.detail}") from None
                            node = _mecha().parse(text, multiline=False).commands[0]
                            if len(self._macro_cache) >= MACRO_CACHE:
                                self._macro_cache.clear()
                            self._macro_cache[text] = node
                        self._run_node(node, text, source)
                except CommandFailure:
                    continue
        except _Return as ret:
            if ret.value is None:
                raise CommandFailure(f"Function {fid} failed") from None
            return ret.value
        finally:
            self._depth -= 1
        return None

    def _macro_texts(self, fn: Function, args: nbtlib.Compound | None) -> dict[str, str]:
        needed = {v for line in fn.lines for v in line.variables()}
        if not needed:
            return {}
        if args is None:
            raise CommandFailure(f"Function {fn.id} requires macro arguments")
        missing = sorted(v for v in needed if v not in args)
        if missing:
            raise CommandFailure(f"Missing argument {missing[0]} when calling function {fn.id}")
        out = {}
        for v in needed:
            value = args[v]
            out[v] = str(value) if isinstance(value, str) else nbt.serialize(value)
        return out

    def _run_node(self, node: Any, text: str, source: Source) -> int:
        """Run one parsed command as ``source``; returns its result (1 unless the command sets one).

        Raises:
            CommandFailure, Unsupported, _Return.
        """
        prev, self._source = self._source, source
        try:
            self._result = None
            if str(getattr(node, "identifier", "")).startswith("function:"):
                # Commands a function runs send no feedback to the caller (and the sandbox keeps the
                # function command itself quiet inside ``execute``).
                outer, self._outputs = self._outputs, None
                try:
                    self._run(node, text)
                finally:
                    self._outputs = outer
            else:
                reply = self._run(node, text)
                if reply and self._outputs is not None:
                    self._outputs.append(reply)
            return 1 if self._result is None else self._result
        finally:
            self._source = prev

    # -- dialogs (what a player sees and clicks) ---------------------------------------------------------

    def click_dialog(self, player: str, index: int) -> str:
        """The player presses button ``index`` of the dialog on screen (``run_command`` ``/trigger …`` only).

        The dialog closes afterwards (``after_action`` ``close``, the default).

        Returns:
            The trigger feedback the player sees.

        Raises:
            KeyError: the player is not online. ValueError: no dialog, no such button, or not a trigger button.
        """
        p = self.players[player]
        if p.dialog is None:
            raise ValueError(f"{player} has no dialog open")
        actions = p.dialog.get("actions", [])
        if not 0 <= index < len(actions):
            raise ValueError(f"{player}'s dialog has no button {index}")
        action = actions[index].get("action", {})
        kind = str(action.get("type", "")).removeprefix("minecraft:")
        if kind != "run_command":
            raise ValueError(f"sandbox players only press run_command buttons, not {kind!r}")
        if p.dialog.get("after_action", "close") == "close":
            p.dialog = None
        return self.click(player, {"action": "run_command", "command": action.get("command", "")})

    def close_dialog(self, player: str) -> None:
        """The player presses Escape (the dialog closes; nothing is sent)."""
        self.players[player].dialog = None

    # -- snapshots --------------------------------------------------------------------------------

    def storage_python(self, storage_id: str) -> dict[str, Any]:
        """The storage compound as plain Python (``{}`` when it does not exist)."""
        return nbt.to_python(self.storage.get(storage_id, nbtlib.Compound()))

    def snapshot(self) -> dict[str, Any]:
        """A plain, JSON-friendly copy of the world state (for the demo and tests)."""
        return {
            "ticks": self.ticks,
            "players": {
                n: {
                    "pos": list(p.pos), "yaw": p.yaw, "pitch": p.pitch, "gamemode": p.gamemode,
                    "tags": sorted(p.tags),
                    "inventory": [{"item": s.item, "components": s.components, "count": s.count} for s in p.inventory],
                    "chat": [m.text for m in p.chat],
                    "title": plain_text(p.title) if p.title is not None else None,
                    "subtitle": plain_text(p.subtitle) if p.subtitle is not None else None,
                    "actionbar": plain_text(p.actionbar) if p.actionbar is not None else None,
                    "effects": {k: list(v) for k, v in p.effects.items()},
                }
                for n, p in self.players.items()
            },
            "objectives": {n: o.criterion for n, o in self.objectives.items()},
            "scores": {h: dict(s) for h, s in self.scores.items()},
            "unlocked": sorted([list(u) for u in self.unlocked]),
            "storage": {k: nbt.to_python(v) for k, v in self.storage.items()},
            "bossbars": {
                k: {"name": plain_text(b.name), "value": b.value, "max": b.max, "color": b.color,
                    "style": b.style, "players": sorted(b.players), "visible": b.visible}
                for k, b in self.bossbars.items()
            },
            "gamerules": dict(self.gamerules),
            "errors": list(self.errors),
        }

    # -- command execution --------------------------------------------------------------------------

    def warm_up(self) -> None:
        """Build the command parser of the calling thread now (mecha's set-up takes tens of milliseconds).

        ``Sandbox.start`` calls it on the thread that runs the commands, so a server that listens is ready to
        answer its first command at full speed, as vanilla is.
        """
        _mecha()

    def execute(self, command: str) -> str:
        """Run one command as the RCON console would and return the reply text; logs it in ``command_log``.

        Args:
            command: one command line; a leading ``/`` is allowed.

        Returns:
            The reply text (vanilla wording; "" for commands without feedback, like ``tellraw``).
        """
        received = time.perf_counter()
        text = command[1:] if command.startswith("/") else command
        try:
            node = _mecha().parse(text, multiline=False).commands[0]  # the same tree as check_command
        except DiagnosticError:
            reply = self._syntax_reply(text)
            self.command_log.append(CommandRecord(command, reply, "syntax", received))
            return reply
        try:
            reply = self._run(node, text)
            outcome = "ok"
        except CommandFailure as exc:
            reply, outcome = str(exc), "failed"
        except _Return as ret:  # return at the console: nothing to end
            reply, outcome = ("", "ok") if ret.value is not None else ("", "failed")
        except Unsupported as exc:
            reply, outcome = f"Sandbox: unsupported command: {exc}", "unsupported"
            self.errors.append(f"{reply} [{command}]")
        except Exception as exc:  # a sandbox bug; answer like vanilla's RCON thread does
            reply, outcome = f"Error executing: {text} ({exc!r})", "unsupported"
            self.errors.append(f"internal error on {command!r}: {exc!r}")
        self.command_log.append(CommandRecord(command, reply, outcome, received))
        return reply

    def _syntax_reply(self, text: str) -> str:
        try:
            _mecha().parse(text, multiline=False)
        except DiagnosticError as exc:
            diag = exc.diagnostics.exceptions[0] if exc.diagnostics.exceptions else None
        else:  # check_command and our parser disagree; keep going with a generic answer
            diag = None
        if diag is None:
            cursor, message = 0, ""
        else:
            loc = getattr(diag, "location", None)
            cursor, message = (loc.pos if loc is not None else 0), str(getattr(diag, "message", ""))
        at_end = "got eof" in message or "end of file" in message
        if cursor == 0 or at_end:
            head = "Unknown or incomplete command, see below for error"
        else:
            head = "Incorrect argument for command"
        i = min(len(text), max(0, cursor))
        context = ("..." if i > 10 else "") + text[max(0, i - 10):i] + text[i:] + "<--[HERE]"
        return head + context

    # Dispatch on the first literal of mecha's identifier, e.g. "give:targets:item:count".
    def _run(self, node: mast.AstCommand, text: str) -> str:
        ident = node.identifier
        parts = ident.split(":")
        args = list(node.arguments)
        handler = getattr(self, f"_cmd_{parts[0]}", None)
        if handler is None:
            raise Unsupported(parts[0])
        result: str = handler(parts, args, text)
        return result

    @staticmethod
    def _src(node: Any, text: str) -> str:
        return text[node.location.pos:node.end_location.pos]

    # -- selectors ----------------------------------------------------------------------------------

    def _targets(self, node: Any, *, required: bool = True) -> list[Player]:
        """Players a target argument selects (vanilla: empty → "No player was found")."""
        if isinstance(node, mast.AstPlayerName):
            p = self._online(str(node.value))
            found = [p] if p is not None else []
        elif isinstance(node, mast.AstSelector):
            found = self._select(node)
        else:
            raise Unsupported(f"target {type(node).__name__}")
        if required and not found:
            raise CommandFailure("No player was found")
        return found

    def _select(self, sel: mast.AstSelector) -> list[Player]:
        var = sel.variable
        if var not in ("a", "p", "r", "e", "n", "s"):
            raise Unsupported(f"selector @{var}")
        if var == "s":  # the console has no entity (docs/minecraft.md#rcon); a player source is @s
            entity = self._source.entity
            found = [entity] if entity is not None and entity.name in self.players else []
        else:
            found = list(self.players.values())
        limit: int | None = 1 if var in ("p", "r", "n") else None
        sort = {"p": "nearest", "n": "nearest", "r": "random"}.get(var, "arbitrary")
        for arg in sel.arguments:
            key = str(arg.key.value)
            value = arg.value
            if key == "tag":
                tag = str(getattr(value, "value", "") or "")
                if tag == "":
                    keep = (lambda p: not p.tags) if not arg.inverted else (lambda p: bool(p.tags))
                else:
                    keep = (lambda p, t=tag: t in p.tags) if not arg.inverted else (lambda p, t=tag: t not in p.tags)
                found = [p for p in found if keep(p)]
            elif key == "name":
                name = str(value.value)
                found = [p for p in found if (p.name == name) != arg.inverted]
            elif key == "gamemode":
                mode = str(value.value)
                found = [p for p in found if (p.gamemode == mode) != arg.inverted]
            elif key == "limit":
                limit = int(value.value)
            elif key == "sort":
                sort = str(value.value)
            elif key == "type" and str(self._plain(value)).removeprefix("minecraft:") == "player" and not arg.inverted:
                pass
            else:
                raise Unsupported(f"selector argument {key}")
        if sort == "nearest":
            found.sort(key=lambda p: math.dist(p.pos, self.spawn))
        elif sort == "furthest":
            found.sort(key=lambda p: -math.dist(p.pos, self.spawn))
        elif sort == "random":
            random.shuffle(found)
        if limit is not None:
            found = found[:limit]
        return found

    @staticmethod
    def _plain(node: Any) -> str:
        if isinstance(node, mast.AstResourceLocation):
            return _rl(node)
        return str(getattr(node, "value", node))

    def _holders(self, node: Any) -> list[str]:
        """Score holders: online players from a selector, any name from a plain name, ``*`` = all holders."""
        if isinstance(node, mast.AstWildcard):
            return sorted(self.scores)
        if isinstance(node, mast.AstPlayerName):
            p = self._online(str(node.value))
            return [p.name if p is not None else str(node.value)]
        return [p.name for p in self._targets(node)]

    @staticmethod
    def _who(names: list[str], plural: str = "players") -> str:
        return names[0] if len(names) == 1 else f"{len(names)} {plural}"

    @staticmethod
    def _component(node: Any) -> Any:
        return nbt.to_python(node.evaluate())

    # -- commands -------------------------------------------------------------------------------------

    def _cmd_tellraw(self, parts: list[str], args: list[Any], text: str) -> str:
        targets = self._targets(args[0])
        component = self._component(args[1])
        for p in targets:
            p.chat.append(ChatMessage(component, plain_text(component)))
        return ""

    def _cmd_say(self, parts: list[str], args: list[Any], text: str) -> str:
        message = "[Rcon] " + self._src(args[0], text)
        for p in self.players.values():
            p.chat.append(ChatMessage(message, message, source="say"))
        return ""

    def _cmd_title(self, parts: list[str], args: list[Any], text: str) -> str:
        targets = self._targets(args[0])
        names = [p.name for p in targets]
        action = parts[2]
        if action in ("title", "subtitle", "actionbar"):
            component = self._component(args[1])
            for p in targets:
                setattr(p, action, component)
                p.screen.append(ScreenText(action, component, plain_text(component)))
            what = {"title": "title", "subtitle": "subtitle", "actionbar": "actionbar title"}[action]
            return f"Showing new {what} for {self._who(names)}"
        if action == "times":
            times = tuple(self._ticks(a) for a in args[1:4])
            for p in targets:
                p.title_times = times  # type: ignore[assignment]
            return f"Changed title display times for {self._who(names)}"
        if action == "clear":
            for p in targets:
                p.title = p.subtitle = None
            return f"Cleared titles for {self._who(names)}"
        if action == "reset":
            for p in targets:
                p.title = p.subtitle = None
                p.title_times = (10, 70, 20)
            return f"Reset title options for {self._who(names)}"
        raise Unsupported(f"title {action}")

    @staticmethod
    def _ticks(node: Any) -> int:
        factor = {"tick": 1, "t": 1, "s": 20, "second": 20, "d": 24000, "day": 24000}.get(str(getattr(node, "unit", "tick")), 1)
        return int(node.value * factor)

    def _coord(self, c: mast.AstCoordinate, base: float, centre: bool) -> float:
        if c.type == "local":
            raise Unsupported("local (^) coordinates")
        value = float(c.value)
        if c.type == "relative":
            return base + value
        if centre and isinstance(c.value, int):
            return value + 0.5  # vanilla centres integer x/z of block positions
        return value

    def _vec3(self, v: mast.AstVector3) -> tuple[float, float, float]:
        sx, sy, sz = self.spawn
        return (self._coord(v.x, sx, True), self._coord(v.y, sy, False), self._coord(v.z, sz, True))

    def _cmd_tp(self, parts: list[str], args: list[Any], text: str) -> str:
        shape = parts[1:]
        if shape[0] != "targets":
            raise CommandFailure("An entity is required to run this command here" if shape[0] == "location" else "No entity was found")
        targets = self._targets(args[0])
        names = [p.name for p in targets]
        if shape[1] == "destination":
            dest = self._targets(args[1])
            if len(dest) > 1:
                raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
            d = dest[0]
            for p in targets:
                p.pos, p.yaw, p.pitch = d.pos, d.yaw, d.pitch
            return f"Teleported {self._who(names, 'entities')} to {d.name}"
        pos = self._vec3(args[1])
        for p in targets:
            p.pos = pos
        if shape[2:] == ["rotation"]:
            rot = args[2]
            for p in targets:
                p.yaw = self._coord(rot.x, p.yaw, False)
                p.pitch = self._coord(rot.y, p.pitch, False)
        elif shape[2:] == ["facing", "facingLocation"]:
            fx, fy, fz = self._vec3(args[2])
            for p in targets:
                dx, dy, dz = fx - p.pos[0], fy - (p.pos[1] + 1.62), fz - p.pos[2]
                p.yaw = math.degrees(math.atan2(dz, dx)) - 90.0
                p.pitch = -math.degrees(math.atan2(dy, math.hypot(dx, dz)))
        elif shape[2:]:
            raise Unsupported("tp " + " ".join(shape[2:]))
        x, y, z = pos
        return f"Teleported {self._who(names, 'entities')} to {x:f}, {y:f}, {z:f}"

    _cmd_teleport = _cmd_tp

    def _stack_from(self, node: mast.AstItemStack) -> ItemStack:
        if getattr(node.identifier, "is_tag", False):
            raise CommandFailure("Can't use tags here")
        components: dict[str, Any] = {}
        for arg in node.arguments:
            if isinstance(arg, mast.AstItemComponent):
                components[_rl(arg.key)] = nbt.to_python(arg.value.evaluate())
            elif isinstance(arg, mast.AstItemRemovedDefaultComponent):
                components.pop(_rl(arg.key), None)
            else:
                raise Unsupported(f"item argument {type(arg).__name__}")
        return ItemStack(_rl(node.identifier), components, 1)

    def _cmd_give(self, parts: list[str], args: list[Any], text: str) -> str:
        targets = self._targets(args[0])
        proto = self._stack_from(args[1])
        count = int(args[2].value) if len(args) > 2 else 1
        for p in targets:
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
        names = [p.name for p in targets]
        if len(names) == 1:
            return f"Gave {count} [{proto.name}] to {names[0]}"
        return f"Gave {count} [{proto.name}] to {len(names)} players"

    def _predicate(self, node: mast.AstItemPredicate) -> Callable[[ItemStack], bool]:
        ident = node.identifier
        if isinstance(ident, mast.AstWildcard):
            item_ok: Callable[[ItemStack], bool] = lambda s: True
        elif ident.is_tag:
            raise Unsupported("item tags in predicates")
        else:
            want = _rl(ident)
            item_ok = lambda s: s.item == want
        groups: list[list[Callable[[ItemStack], bool]]] = []
        for arg in node.arguments:
            if not isinstance(arg, mast.AstItemPredicateAlternatives):
                raise Unsupported(f"item predicate {type(arg).__name__}")
            alts: list[Callable[[ItemStack], bool]] = []
            for alt in arg.alternatives:
                key = _rl(alt.key)
                value = nbt.to_python(alt.value.evaluate()) if alt.value is not None else None
                if isinstance(alt, mast.AstItemPredicateTestComponent):
                    if key == "minecraft:count":
                        test = lambda s, v=value: s.count == v
                    elif value is None:
                        test = lambda s, k=key: k in s.components
                    else:
                        test = lambda s, k=key, v=value: s.components.get(k) == v
                elif isinstance(alt, mast.AstItemPredicateTestPredicate):
                    if key != "minecraft:custom_data":
                        raise Unsupported(f"item sub-predicate {key}")
                    test = lambda s, v=value: nbt.matches(s.custom_data, v)
                else:
                    raise Unsupported(f"item predicate {type(alt).__name__}")
                alts.append((lambda s, t=test: not t(s)) if alt.inverted else test)
            groups.append(alts)
        return lambda s: item_ok(s) and all(any(t(s) for t in alts) for alts in groups)

    # Slot ranges of ``items entity`` (vanilla SlotRanges). The sandbox keeps a player's items as one list, all
    # in the main inventory; the other ranges exist but are always empty here.
    _INVENTORY_SLOTS = frozenset({"container.*", "inventory.*", "hotbar.*"})
    _EMPTY_SLOTS = frozenset({
        "weapon.offhand", "armor.*", "armor.head", "armor.chest", "armor.legs", "armor.feet", "armor.body",
        "player.cursor", "player.crafting.*", "enderchest.*",
    })  # fmt: skip

    def _slot_stacks(self, player: Player, slots: str) -> list[ItemStack]:
        if slots in self._INVENTORY_SLOTS:
            return list(player.inventory)
        if slots in self._EMPTY_SLOTS:
            return []
        raise Unsupported(f"item slots {slots}")

    def _cmd_clear(self, parts: list[str], args: list[Any], text: str) -> str:
        if len(args) == 0:
            raise CommandFailure("A player is required to run this command here")
        targets = self._targets(args[0])
        pred = self._predicate(args[1]) if len(args) > 1 else (lambda s: True)
        max_count = int(args[2].value) if len(args) > 2 else -1
        total = 0
        for p in targets:
            if max_count == 0:
                total += sum(s.count for s in p.inventory if pred(s))
                continue
            left = max_count
            for stack in list(p.inventory):
                if not pred(stack) or left == 0:
                    continue
                take = stack.count if left < 0 else min(left, stack.count)
                stack.count -= take
                total += take
                if left > 0:
                    left -= take
                if stack.count == 0:
                    p.inventory.remove(stack)
        names = [p.name for p in targets]
        single = len(names) == 1
        if total == 0:
            raise CommandFailure(f"No items were found on player {names[0]}" if single else f"No items were found on {len(names)} players")
        if max_count == 0:
            return f"Found {total} matching item(s) on player {names[0]}" if single else f"Found {total} matching item(s) on {len(names)} players"
        return f"Removed {total} item(s) from player {names[0]}" if single else f"Removed {total} item(s) from {len(names)} players"

    def _bar(self, node: Any) -> Bossbar:
        bar_id = _rl(node)
        bar = self.bossbars.get(bar_id)
        if bar is None:
            raise CommandFailure(f"No bossbar exists with the ID '{bar_id}'")
        return bar

    def _cmd_bossbar(self, parts: list[str], args: list[Any], text: str) -> str:
        action = parts[1]
        if action == "add":
            bar_id = _rl(args[0])
            if bar_id in self.bossbars:
                raise CommandFailure(f"A bossbar already exists with the ID '{bar_id}'")
            bar = self.bossbars[bar_id] = Bossbar(bar_id, self._component(args[1]))
            return f"Created custom bossbar {bar.bracketed}"
        if action == "list":
            if not self.bossbars:
                return "There are no custom bossbars active"
            return f"There are {len(self.bossbars)} custom bossbar(s) active: " + ", ".join(b.bracketed for b in self.bossbars.values())
        bar = self._bar(args[0])
        if action == "remove":
            del self.bossbars[bar.id]
            return f"Removed custom bossbar {bar.bracketed}"
        if action == "get":
            what = parts[3]
            if what == "value":
                return f"Custom bossbar {bar.bracketed} has a value of {bar.value}"
            if what == "max":
                return f"Custom bossbar {bar.bracketed} has a maximum of {bar.max}"
            if what == "visible":
                return f"Custom bossbar {bar.bracketed} is currently {'shown' if bar.visible else 'hidden'}"
            if what == "players":
                online = sorted(n for n in bar.players if n in self.players)
                if not online:
                    return f"Custom bossbar {bar.bracketed} currently has no players online"
                return f"Custom bossbar {bar.bracketed} currently has {len(online)} player(s) online: {', '.join(online)}"
            raise Unsupported(f"bossbar get {what}")
        if action != "set":
            raise Unsupported(f"bossbar {action}")
        what = parts[3]
        if what == "value":
            value = int(args[1].value)
            if value == bar.value:
                raise CommandFailure("Nothing changed. That's already the value of this bossbar")
            bar.value = value
            return f"Custom bossbar {bar.bracketed} has changed value to {value}"
        if what == "max":
            value = int(args[1].value)
            if value == bar.max:
                raise CommandFailure("Nothing changed. That's already the max of this bossbar")
            bar.max = value
            return f"Custom bossbar {bar.bracketed} has changed maximum to {value}"
        if what == "color":
            if parts[4] == bar.color:
                raise CommandFailure("Nothing changed. That's already the color of this bossbar")
            bar.color = parts[4]
            return f"Custom bossbar {bar.bracketed} has changed color"
        if what == "style":
            if parts[4] == bar.style:
                raise CommandFailure("Nothing changed. That's already the style of this bossbar")
            bar.style = parts[4]
            return f"Custom bossbar {bar.bracketed} has changed style"
        if what == "name":
            bar.name = self._component(args[1])
            return f"Custom bossbar {bar.bracketed} has been renamed"
        if what == "visible":
            visible = bool(args[1].value)
            if visible == bar.visible:
                raise CommandFailure(f"Nothing changed. The bossbar is already {'visible' if visible else 'hidden'}")
            bar.visible = visible
            return f"Custom bossbar {bar.bracketed} is now {'visible' if visible else 'hidden'}"
        if what == "players":
            names = {p.name for p in self._targets(args[1], required=False)} if len(args) > 1 else set()
            if names == bar.players:
                raise CommandFailure("Nothing changed. Those players are already on the bossbar with nobody to add or remove")
            bar.players = names
            if not names:
                return f"Custom bossbar {bar.bracketed} no longer has any players"
            return f"Custom bossbar {bar.bracketed} now has {len(names)} player(s): {', '.join(sorted(names))}"
        raise Unsupported(f"bossbar set {what}")

    def _objective(self, node: Any) -> Objective:
        name = str(node.value)
        obj = self.objectives.get(name)
        if obj is None:
            raise CommandFailure(f"Unknown scoreboard objective '{name}'")
        return obj

    def _cmd_scoreboard(self, parts: list[str], args: list[Any], text: str) -> str:
        group, action = parts[1], parts[2]
        if group == "objectives":
            if action == "add":
                name = str(args[0].value)
                if name in self.objectives:
                    raise CommandFailure("An objective already exists by that name")
                criterion = self._src(args[1], text)
                display = self._component(args[2]) if len(args) > 2 else name
                obj = self.objectives[name] = Objective(name, criterion, display)
                return f"Created new objective {obj.bracketed}"
            if action == "remove":
                obj = self._objective(args[0])
                del self.objectives[obj.name]
                for scores in self.scores.values():
                    scores.pop(obj.name, None)
                self.unlocked = {u for u in self.unlocked if u[1] != obj.name}
                return f"Removed objective {obj.bracketed}"
            if action == "list":
                if not self.objectives:
                    return "There are no objectives"
                return f"There are {len(self.objectives)} objective(s): " + ", ".join(o.bracketed for o in self.objectives.values())
            raise Unsupported(f"scoreboard objectives {action}")
        if group != "players":
            raise Unsupported(f"scoreboard {group}")
        if action == "list":
            holders = sorted(h for h, s in self.scores.items() if s)
            if not holders:
                return "There are no tracked entities"
            return f"There are {len(holders)} tracked entity/entities: " + ", ".join(holders)
        holders = self._holders(args[0])
        if action == "reset":
            if len(args) > 1:
                obj = self._objective(args[1])
                for h in holders:
                    self.scores.get(h, {}).pop(obj.name, None)
                    self.unlocked.discard((h, obj.name))
                return f"Reset {obj.bracketed} for {self._who(holders, 'entities')}"
            for h in holders:
                self.scores.pop(h, None)
                self.unlocked = {u for u in self.unlocked if u[0] != h}
            return f"Reset all scores for {self._who(holders, 'entities')}"
        obj = self._objective(args[1])
        if action == "get":
            if len(holders) != 1:
                raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
            h = holders[0]
            if obj.name not in self.scores.get(h, {}):
                raise CommandFailure(f"Can't get value of {obj.name} for {h}; none is set")
            self._result = self.scores[h][obj.name]
            return f"{h} has {self.scores[h][obj.name]} {obj.bracketed}"
        if action == "enable":
            if obj.criterion != "trigger":
                raise CommandFailure("Can only enable trigger-objectives")
            changed = 0
            for h in holders:
                self.scores.setdefault(h, {}).setdefault(obj.name, 0)
                if (h, obj.name) not in self.unlocked:
                    self.unlocked.add((h, obj.name))
                    changed += 1
            if not changed:
                raise CommandFailure("Nothing changed. That trigger is already enabled")
            if len(holders) == 1:
                return f"Enabled trigger {obj.bracketed} for {holders[0]}"
            return f"Enabled trigger {obj.bracketed} for {len(holders)} entities"
        if action in ("set", "add", "remove"):
            amount = int(args[2].value)
            for h in holders:
                scores = self.scores.setdefault(h, {})
                if action == "set":
                    scores[obj.name] = amount
                elif action == "add":
                    scores[obj.name] = scores.get(obj.name, 0) + amount
                else:
                    scores[obj.name] = scores.get(obj.name, 0) - amount
            single = len(holders) == 1
            self._result = sum(self.scores[h][obj.name] for h in holders)
            if action == "set":
                return f"Set {obj.bracketed} for {holders[0]} to {amount}" if single else f"Set {obj.bracketed} for {len(holders)} entities to {amount}"
            now = self.scores[holders[0]][obj.name]
            if action == "add":
                return f"Added {amount} to {obj.bracketed} for {holders[0]} (now {now})" if single else f"Added {amount} to {obj.bracketed} for {len(holders)} entities"
            return f"Removed {amount} from {obj.bracketed} for {holders[0]} (now {now})" if single else f"Removed {amount} from {obj.bracketed} for {len(holders)} entities"
        raise Unsupported(f"scoreboard players {action}")

    def _cmd_trigger(self, parts: list[str], args: list[Any], text: str) -> str:
        raise CommandFailure("A player is required to run this command here")

    def _data_source(self, parts: list[str], args: list[Any], text: str) -> Any:
        """The value of ``from storage <id> [path]`` / ``from entity <target> [path]`` (one match only)."""
        if parts[0] == "storage":
            root: Any = self.storage.get(_rl(args[0]), nbtlib.Compound())
        elif parts[0] == "entity":
            found = self._targets(args[0])
            if len(found) != 1:
                raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
            root = found[0].nbt()
        else:
            raise Unsupported(f"data modify … from {parts[0]}")
        if len(args) < 2:
            return copy.deepcopy(root)
        values = nbt.get(root, nbt.path_from_ast(args[1], self._src(args[1], text)))
        if not values:
            raise CommandFailure(f"Found no elements matching {self._src(args[1], text)}")
        if len(values) > 1:
            raise Unsupported("data modify … from a path matching several elements")
        return copy.deepcopy(values[0])

    def _cmd_data(self, parts: list[str], args: list[Any], text: str) -> str:
        action = parts[1]
        if action == "get" and parts[2] == "entity":
            value = self._data_source(["entity"], args, text)
            name = self._targets(args[0])[0].name
            return f"{name} has the following entity data: {nbt.serialize(value)}"
        if parts[2] != "storage":
            raise Unsupported(f"data {action} {parts[2]}")
        sid = _rl(args[0])
        if action == "get" and sid in self.computed_storage:
            self.storage[sid] = nbt.from_python(self.computed_storage[sid]())
        root = self.storage.get(sid)
        if action == "get":
            if root is None:
                root = nbtlib.Compound()
            if len(args) == 1:
                return f"Storage {sid} has the following contents: {nbt.serialize(root)}"
            path = nbt.path_from_ast(args[1], self._src(args[1], text))
            values = nbt.get(root, path)
            if not values:
                raise CommandFailure(f"Found no elements matching {path.text}")
            if len(values) > 1:
                raise CommandFailure("This argument accepts a single NBT value")
            value = values[0]
            if len(args) > 2:
                if not isinstance(value, (int, float)) or isinstance(value, str):
                    raise CommandFailure(f"Can't get {path.text}; only numeric tags are allowed")
                scale = float(args[2].value)
                self._result = math.floor(float(value) * scale)
                return f"{path.text} in storage {sid} after scale factor of {scale:.2f} is {self._result}"
            if isinstance(value, (int, float)) and not isinstance(value, str):
                self._result = math.floor(float(value))
            elif isinstance(value, (list, dict, str)):
                self._result = len(value)
            return f"Storage {sid} has the following contents: {nbt.serialize(value)}"
        if root is None:
            root = self.storage[sid] = nbtlib.Compound()
        if action == "merge":
            changed = nbt.merge(root, nbt.NbtPath((), ""), args[1].evaluate())
        elif action == "remove":
            path = nbt.path_from_ast(args[1], self._src(args[1], text))
            if not nbt.get(root, path):
                raise CommandFailure(f"Found no elements matching {path.text}")
            changed = nbt.remove(root, path)
        elif action == "modify":
            path = nbt.path_from_ast(args[1], self._src(args[1], text))
            op = parts[5]
            if parts[-2:] == ["value", "value"]:
                value = args[-1].evaluate()
            elif "from" in parts:
                value = self._data_source(parts[parts.index("from") + 1:], args[3 if op == "insert" else 2:], text)
            else:
                raise Unsupported(f"data modify {op} {parts[6]}")
            try:
                if op == "set":
                    changed = nbt.set_value(root, path, value)
                elif op == "append":
                    changed = nbt.insert(root, path, -1, value)
                elif op == "prepend":
                    changed = nbt.insert(root, path, 0, value)
                elif op == "insert":
                    changed = nbt.insert(root, path, int(args[2].value), value)
                elif op == "merge":
                    changed = nbt.merge(root, path, value)
                else:
                    raise Unsupported(f"data modify {op}")
            except (ValueError, TypeError) as exc:
                raise CommandFailure(f"Invalid NBT operation: {exc}") from None
        else:
            raise Unsupported(f"data {action}")
        if not changed:
            raise CommandFailure("Nothing changed. The specified properties already have these values")
        return f"Modified storage {sid}"

    def _cmd_gamerule(self, parts: list[str], args: list[Any], text: str) -> str:
        rule = parts[1]
        if args:
            value = self._src(args[0], text)
            self.gamerules[rule] = value
            return f"Gamerule {rule} is now set to: {value}"
        return f"Gamerule {rule} is currently set to: {self.gamerules.get(rule, _GAMERULE_DEFAULTS.get(rule, 'false'))}"

    def _cmd_gamemode(self, parts: list[str], args: list[Any], text: str) -> str:
        mode = str(args[0].value)
        if len(args) < 2:
            raise CommandFailure("A player is required to run this command here")
        targets = self._targets(args[1])
        for p in targets:
            p.gamemode = mode
        return "".join(f"Set {p.name}'s game mode to {_GAMEMODE_NAMES[mode]}" for p in targets)

    def _cmd_effect(self, parts: list[str], args: list[Any], text: str) -> str:
        if not args:
            raise CommandFailure("An entity is required to run this command here")
        targets = self._targets(args[0])
        names = [p.name for p in targets]
        if parts[1] == "give":
            effect = _rl(args[1])
            if "infinite" in parts:
                seconds, amp = -1, int(args[2].value) if len(args) > 2 else 0
            else:
                seconds = int(args[2].value) if len(args) > 2 else 30
                amp = int(args[3].value) if len(args) > 3 else 0
            for p in targets:
                p.effects[effect] = (seconds, amp)
            return f"Applied effect {_title(effect)} to {self._who(names, 'targets')}"
        if parts[1] == "clear":
            if len(args) > 1:
                effect = _rl(args[1])
                hit = [p for p in targets if p.effects.pop(effect, None) is not None]
                if not hit:
                    raise CommandFailure("Target doesn't have the requested effect")
                return f"Removed effect {_title(effect)} from {self._who([p.name for p in hit], 'targets')}"
            hit = [p for p in targets if p.effects]
            for p in targets:
                p.effects.clear()
            if not hit:
                raise CommandFailure("Target has no effects to remove")
            return f"Removed every effect from {self._who([p.name for p in hit], 'targets')}"
        raise Unsupported(f"effect {parts[1]}")

    def _cmd_list(self, parts: list[str], args: list[Any], text: str) -> str:
        head = f"There are {len(self.players)} of a max of 20 players online: "
        if len(parts) > 1:  # list uuids: en_us commands.list.nameAndId = "%s (%s)"
            return head + ", ".join(f"{p.name} ({p.uuid})" for p in self.players.values())
        return head + ", ".join(self.players)

    def _cmd_function(self, parts: list[str], args: list[Any], text: str) -> str:
        node = args[0]
        fargs: nbtlib.Compound | None = None
        if parts[2:3] == ["arguments"]:
            fargs = args[1].evaluate()
        elif parts[2:3] == ["with"]:
            if parts[3] != "storage":
                raise Unsupported(f"function … with {parts[3]}")
            root = self.storage.get(_rl(args[1]), nbtlib.Compound())
            if len(args) > 2:
                found = nbt.get(root, nbt.path_from_ast(args[2], self._src(args[2], text)))
                if len(found) != 1 or not isinstance(found[0], dict):
                    raise CommandFailure("Expected compound tag as macro function argument")
                fargs = found[0]
            else:
                fargs = root
        fid = _rl(node)
        if getattr(node, "is_tag", False):
            fids = self.datapack.tag(fid) if self.datapack is not None else []
            if not fids:
                raise CommandFailure(f"Unknown function tag '#{fid}'")
        else:
            fids = [fid]
        value: int | None = None
        for f in fids:
            value = self.run_function(f, self._source, fargs)
        if value is not None:
            self._result = value
            return f"Function '{fid}' returned {value}"
        return f"Executed {len(fids)} function(s) from '{fid}'" if len(fids) > 1 else f"Executed function '{fid}'"

    def _cmd_return(self, parts: list[str], args: list[Any], text: str) -> str:
        if parts[1] == "fail":
            raise _Return(None)
        if parts[1] == "value":
            raise _Return(int(args[0].value))
        try:  # return run <command>: its result, or fail
            value = self._run_node(args[0], text, self._source)
        except CommandFailure:
            raise _Return(None) from None
        raise _Return(value)

    # -- execute -------------------------------------------------------------------------------------

    def _cmd_execute(self, parts: list[str], args: list[Any], text: str) -> str:
        """``execute …``: the reply is what the commands it ran said (vanilla sends their feedback to the
        source, e.g. ``execute unless items … run give`` answers "Gave 1 [...] to Kai"), run together."""
        outer, self._outputs = self._outputs, []
        try:
            self._result = self._exec_chain(args[0], text, self._source)
            return "".join(self._outputs)
        finally:
            self._outputs = outer

    def _exec_chain(self, node: Any, text: str, source: Source) -> int:
        """Run one ``execute`` sub-command chain as ``source``; returns the result (summed over branches).

        Raises:
            CommandFailure: a condition failed, or every branch failed (vanilla: "Test failed" / no output).
        """
        parts = node.identifier.split(":")
        args = list(node.arguments)
        kind = parts[1]
        if kind == "run":
            return self._run_node(args[0], text, source)
        if kind == "as":
            prev, self._source = self._source, source
            try:
                entities = self._targets(args[0], required=False)
            finally:
                self._source = prev
            total, ok = 0, 0
            for entity in entities:
                try:
                    total += self._exec_chain(args[1], text, Source(entity))
                    ok += 1
                except CommandFailure:
                    continue
            if not ok:
                raise CommandFailure("")
            return total
        if kind in ("if", "unless"):
            chained = parts[-1] == "subcommand"
            cond = args[:-1] if chained else args
            prev, self._source = self._source, source
            try:
                passed = self._condition(parts[2:-1] if chained else parts[2:], cond, text)
            finally:
                self._source = prev
            if kind == "unless":
                passed = not passed
            if not passed:
                # Vanilla: a failed condition that ends the chain says "Test failed"; one before ``run`` ends
                # the command silently.
                raise CommandFailure("" if chained else "Test failed")
            if not chained:
                return 1
            return self._exec_chain(args[-1], text, source)
        if kind == "store":
            return self._exec_store(parts, args, text, source)
        if kind == "on" and parts[2] == "attacker":
            # The last entity that hurt the source (vanilla: within the last 5 seconds); none: the branch fails.
            hurt = source.entity
            attacker = self.players.get(hurt.attacker) if hurt is not None and hurt.attacker else None
            if attacker is None:
                raise CommandFailure("")
            return self._exec_chain(args[0], text, Source(attacker))
        raise Unsupported(f"execute {kind}")

    def _condition(self, parts: list[str], args: list[Any], text: str) -> bool:
        what = parts[0]
        if what == "entity":
            return bool(self._targets(args[0], required=False))
        if what == "score" and parts[3:4] == ["matches"]:
            holders = self._holders(args[0])
            if len(holders) != 1:
                raise CommandFailure("Only one entity is allowed, but the provided selector allows more than one")
            score = self.scores.get(holders[0], {}).get(self._objective(args[1]).name)
            rng = args[2]
            if score is None:
                return False
            lo = getattr(rng, "min", None) if not isinstance(rng, mast.AstNumber) else rng.value
            hi = getattr(rng, "max", None) if not isinstance(rng, mast.AstNumber) else rng.value
            return (lo is None or score >= lo) and (hi is None or score <= hi)
        if what == "items" and parts[1] == "entity":
            # ``if items entity <targets> <slots> <predicate>`` (docs/minecraft.md#commands-and-text): true when a
            # matching stack is there.
            found = self._targets(args[0], required=False)
            if not found:
                raise CommandFailure("No entity was found")
            pred = self._predicate(args[2])
            return any(pred(st) for p in found for st in self._slot_stacks(p, str(args[1].value)))
        if what == "data" and parts[1] == "storage":
            root = self.storage.get(_rl(args[0]))
            if root is None:
                return False
            return bool(nbt.get(root, nbt.path_from_ast(args[1], self._src(args[1], text))))
        raise Unsupported("execute if " + " ".join(p for p in parts if p))

    _NUMERIC = {
        "byte": nbtlib.Byte, "short": nbtlib.Short, "int": nbtlib.Int, "long": nbtlib.Long,
        "float": nbtlib.Float, "double": nbtlib.Double,
    }

    def _exec_store(self, parts: list[str], args: list[Any], text: str, source: Source) -> int:
        mode, where = parts[2], parts[3]
        try:
            value, failed = self._exec_chain(args[-1], text, source), False
        except CommandFailure:
            value, failed = 0, True
        stored = value if mode == "result" else (0 if failed else 1)
        if where == "storage":
            sid = _rl(args[0])
            path = nbt.path_from_ast(args[1], self._src(args[1], text))
            kind = parts[6]
            scale = float(args[2].value)
            make = self._NUMERIC.get(kind)
            if make is None:
                raise Unsupported(f"execute store … {kind}")
            number = stored * scale
            tag = make(number if kind in ("float", "double") else int(math.floor(number)))
            root = self.storage.setdefault(sid, nbtlib.Compound())
            nbt.set_value(root, path, tag)
        elif where == "score":
            prev, self._source = self._source, source
            try:
                holders = self._holders(args[0])
            finally:
                self._source = prev
            obj = self._objective(args[1])
            for h in holders:
                self.scores.setdefault(h, {})[obj.name] = stored
        else:
            raise Unsupported(f"execute store {mode} {where}")
        if failed:
            raise CommandFailure("")
        return value

    # -- dialog and advancement -------------------------------------------------------------------------

    def _cmd_dialog(self, parts: list[str], args: list[Any], text: str) -> str:
        targets = self._targets(args[0])
        names = [p.name for p in targets]
        if parts[1] == "clear":
            for p in targets:
                p.dialog = None
            self._result = len(targets)
            return f"Cleared dialog for {self._who(names)}"
        node = args[1]
        if isinstance(node, mast.AstResourceLocation):
            did = _rl(node)
            dialog = self.datapack.dialogs.get(did) if self.datapack is not None else None
            if dialog is None:
                raise CommandFailure(f"Unknown dialog '{did}'")
        else:
            dialog = nbt.to_python(node.evaluate())
        if not isinstance(dialog, dict) or not str(dialog.get("type", "")).endswith("multi_action"):
            raise Unsupported(f"dialog type {dialog.get('type') if isinstance(dialog, dict) else dialog!r}")
        if not dialog.get("actions"):
            raise CommandFailure("A multi_action dialog needs at least one action")
        for p in targets:
            p.dialog = dialog
            p.dialogs.append(dialog)
            p.dialog_chat.append(sum(1 for m in p.chat if m.source == "tellraw"))
        self._result = len(targets)
        return f"Displayed dialog to {self._who(names)}"

    def _cmd_advancement(self, parts: list[str], args: list[Any], text: str) -> str:
        if parts[1] != "revoke" or parts[3] != "only" or len(args) != 2:
            raise Unsupported("advancement " + " ".join(parts[1:]))
        targets = self._targets(args[0])
        adv = _rl(args[1])
        if self.datapack is None or adv not in self.datapack.advancements:
            raise CommandFailure(f"No advancement was found by the name '{adv}'")
        hit = [p for p in targets if adv in p.advancements]
        for p in hit:
            p.advancements.discard(adv)
        if not hit:
            raise CommandFailure(f"Couldn't revoke advancement [{adv}] from {self._who([p.name for p in targets])} as they don't have it")
        self._result = len(hit)
        return f"Revoked the advancement [{adv}] from {self._who([p.name for p in hit])}"

    def _cmd_tag(self, parts: list[str], args: list[Any], text: str) -> str:
        targets = self._targets(args[0])
        names = [p.name for p in targets]
        if parts[2] == "list":
            if len(targets) == 1:
                tags = sorted(targets[0].tags)
                return f"{names[0]} has {len(tags)} tags: {', '.join(tags)}" if tags else f"{names[0]} has no tags"
            all_tags = sorted(set().union(*(p.tags for p in targets)))
            return f"{len(names)} entities have {len(all_tags)} total tags: {', '.join(all_tags)}"
        tag = str(args[1].value)
        if parts[2] == "add":
            hit = [p for p in targets if tag not in p.tags]
            for p in hit:
                p.tags.add(tag)
            if not hit:
                raise CommandFailure("Nothing changed. The entity already has that tag or has too many tags")
            return f"Added tag '{tag}' to {self._who([p.name for p in hit], 'entities')}"
        if parts[2] == "remove":
            hit = [p for p in targets if tag in p.tags]
            for p in hit:
                p.tags.discard(tag)
            if not hit:
                raise CommandFailure("Nothing changed. The entity does not have that tag")
            return f"Removed tag '{tag}' from {self._who([p.name for p in hit], 'entities')}"
        raise Unsupported(f"tag {parts[2]}")

    def _cmd_kick(self, parts: list[str], args: list[Any], text: str) -> str:
        targets = self._targets(args[0])
        reason = self._src(args[1], text) if len(args) > 1 else "Kicked by an operator"
        for p in targets:
            self.leave(p.name)
        return "".join(f"Kicked {p.name}: {reason}" for p in targets)

    def _cmd_datapack(self, parts: list[str], args: list[Any], text: str) -> str:
        """``datapack list [enabled|available]`` and ``datapack enable|disable <id>`` (vanilla en_us texts;
        a pack is shown as ``[id (source)]``: ``(built-in)`` for vanilla, ``(world)`` for ``file/…``)."""

        def shown(pid: str) -> str:
            return f"[{pid} ({'built-in' if pid == 'vanilla' else 'world'})]"

        if parts[1] == "list":
            which = parts[2] if len(parts) > 2 else "all"
            out = []
            if which in ("all", "enabled"):
                on = [p for p, en in self.datapacks.items() if en]
                out.append(f"There are {len(on)} data pack(s) enabled: " + ", ".join(shown(p) for p in on)
                           if on else "There are no data packs enabled")  # fmt: skip
            if which in ("all", "available"):
                avail = [p for p, on in self.datapacks.items() if not on]
                out.append(f"There are {len(avail)} data pack(s) available: " + ", ".join(shown(p) for p in avail)
                           if avail else "There are no more data packs available")  # fmt: skip
            return "".join(out)
        if parts[1] in ("enable", "disable"):
            pid = self._src(args[0], text).strip('"')
            if pid not in self.datapacks:
                raise CommandFailure(f"Unknown data pack '{pid}'")
            want = parts[1] == "enable"
            if self.datapacks[pid] == want:
                state = "already enabled" if want else "not enabled"
                raise CommandFailure(f"Pack '{pid}' is {state}!")
            self.datapacks[pid] = want
            verb = "Enabling" if want else "Disabling"
            return f"{verb} data pack {shown(pid)}...Reloading!"
        raise Unsupported(f"datapack {parts[1]}")
