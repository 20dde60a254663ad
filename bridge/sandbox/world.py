"""The sandbox world: a small model of what the bridge changes, and the commands that change it.

``World`` puts together the state and interpreter (``bridge.sandbox.state``), the command families behind one
dispatch table (``bridge.sandbox.commands``) and what the world holds (``bridge.sandbox.model``), and adds what
players do, ticks, the data pack and the RCON console.

It is not Minecraft and never claims to be. It keeps what Castle's commands touch: online players
(position, game mode, tags, inventory with item components, worn equipment, effects), what each player was shown (chat
components with their click events, titles, subtitles, action bars), scoreboard objectives with trigger
locks, command storage, bossbars and game rules.

House rules of the sandbox world:

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

import time
from typing import Any

import nbtlib
from mecha import DiagnosticError

from bridge.minecraft.syntax import parse_tree, thread_mecha
from bridge.sandbox import nbt
from bridge.sandbox.commands import COMMANDS
from bridge.sandbox.datapack import Datapack
from bridge.sandbox.model import (
    CONSOLE,
    GAMERULE_DEFAULTS,
    PLAYER_NAME,
    Bossbar,
    ChatMessage,
    CommandRecord,
    ItemStack,
    Objective,
    Player,
    ScreenText,
    Source,
)
from bridge.sandbox.registries import REGISTRIES, unknown_id
from bridge.sandbox.state import (
    MAX_FUNCTION_DEPTH,
    CommandFailure,
    Return,
    Unsupported,
    WorldState,
)
from bridge.sandbox.text import plain_text
from bridge.sandbox.uuids import offline_uuid

__all__ = [
    "CONSOLE",
    "GAMERULE_DEFAULTS",
    "MAX_FUNCTION_DEPTH",
    "PLAYER_NAME",
    "Bossbar",
    "ChatMessage",
    "CommandFailure",
    "CommandRecord",
    "ItemStack",
    "Objective",
    "Player",
    "ScreenText",
    "Source",
    "Unsupported",
    "World",
    "offline_uuid",
]


class World(WorldState):
    """The sandbox's world: its state and command interpreter (``WorldState``, whose attributes it has) with
    every command of ``bridge.sandbox.commands``, what players do (press triggers, click, hit, write books),
    ticks, the data pack, and the console (``execute``). Not thread-safe: use it from the sandbox's loop.
    """

    def __init__(self) -> None:
        super().__init__(COMMANDS)
        self._quiet_mark: tuple[int, int] | None = None
        """``(writes, len(errors))`` after a tick that changed neither, else ``None`` (``advance``)."""

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
        self.writes += 1  # what a player does (``WorldState.writes``)
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
        self.ticking = True
        try:
            for fn in self.tick_functions:
                try:
                    fn(self)
                except Exception as exc:  # a broken tick function must not stop the world
                    self.errors.append(f"tick function {getattr(fn, '__name__', fn)!r} failed: {exc!r}")
            if self.datapack is not None:
                for fid in self.datapack.tag("minecraft:tick"):
                    self.run_top_function(fid, CONSOLE)
        finally:
            self.ticking = False

    def advance(self) -> None:
        """One tick of the running server: :meth:`tick`, or, when nothing has changed since a tick that changed
        nothing (``writes`` and ``errors`` as that tick left them, no ``tick_functions``), only the count.

        Such a tick would run the same commands on the same state and change nothing again, so counting it is
        what running it shows: the world a command, a press or a connection sees is the one vanilla's 20 ticks
        a second leave (docs/datapack.md, "The tick function, and exactly once"). Counting it costs nothing, while the data pack's idle tick
        costs milliseconds per tick (``bench/datapack_tick.py``).
        """
        mark = (self.writes, len(self.errors))
        if mark == self._quiet_mark and not self.tick_functions:
            self.ticks += 1
            return
        self.tick()
        self._quiet_mark = mark if (self.writes, len(self.errors)) == mark else None

    # -- the data pack ------------------------------------------------------------------------------

    def load_datapack(self, pack: Datapack) -> None:
        """Load a data pack and run its ``#minecraft:load`` functions (as the server does at start/reload)."""
        self.datapack = pack
        for fid in pack.tag("minecraft:load"):
            self.run_top_function(fid, CONSOLE)

    def award(self, player: str, advancement: str) -> bool:
        """The player meets the criteria of a data pack advancement: grant it and run its reward function.

        Returns:
            False when the player already had it (vanilla grants an advancement once until revoked).

        Raises:
            KeyError: the player is not online, or the data pack has no such advancement.
        """
        self.writes += 1  # what a player does (``WorldState.writes``)
        p = self.players[player]
        if self.datapack is None or advancement not in self.datapack.advancements:
            raise KeyError(f"no advancement {advancement}")
        if advancement in p.advancements:
            return False
        p.advancements.add(advancement)
        reward = self.datapack.advancements[advancement].get("rewards", {}).get("function")
        if reward:
            self.run_top_function(str(reward), Source(p))
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
        self.writes += 1  # what a player does (``WorldState.writes``)
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
        self.writes += 1  # what a player does (``WorldState.writes``)
        for stack in self.players[player].inventory:
            if stack.custom_data.get("traitors", {}).get("item") == item:
                stack.components["minecraft:writable_book_content"] = {"pages": [{"raw": p} for p in pages]}
                return
        raise KeyError(f"{player} holds no {item}")

    def place_held(self, player: str, item: str, pos: tuple[int, int, int]) -> str:
        """``player`` places one of their castle items ``item`` (``custom_data`` ``traitors.item``) at ``pos``, as
        vanilla's block items do: the block set is the item's own (its id, in its default state), whatever its
        ``item_model`` shows in hand (``docs/minecraft.md#commands-and-text``: a redstone torch burns red, a copper
        torch green); one item of the stack is used up.

        Returns:
            The block state placed.

        Raises:
            KeyError: no such player or item. ValueError: the item is no block.
        """
        self.writes += 1  # what a player does (``WorldState.writes``)
        p = self.players[player]
        stack = next((s for s in p.inventory if s.custom_data.get("traitors", {}).get("item") == item), None)
        if stack is None:
            raise KeyError(f"{player} holds no {item}")
        if stack.item.removeprefix("minecraft:") not in REGISTRIES.block:
            raise ValueError(f"{stack.item} is no block")
        stack.count -= 1
        if stack.count == 0:
            p.inventory.remove(stack)
        self.blocks.place(pos, stack.item)
        return stack.item

    # -- dialogs (what a player sees and clicks) ---------------------------------------------------------

    def click_dialog(self, player: str, index: int) -> str:
        """The player presses button ``index`` of the dialog on screen (``run_command`` ``/trigger …`` only).

        The dialog closes afterwards (``after_action`` ``close``, the default).

        Returns:
            The trigger feedback the player sees.

        Raises:
            KeyError: the player is not online. ValueError: no dialog, no such button, or not a trigger button.
        """
        self.writes += 1  # what a player does (``WorldState.writes``)
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
        self.writes += 1  # what a player does (``WorldState.writes``)
        self.players[player].dialog = None

    # -- snapshots --------------------------------------------------------------------------------

    def storage_python(self, storage_id: str) -> dict[str, Any]:
        """The storage compound as plain Python (``{}`` when it does not exist)."""
        value: dict[str, Any] = nbt.to_python(self.storage.get(storage_id, nbtlib.Compound()))
        return value

    def snapshot(self) -> dict[str, Any]:
        """A plain, JSON-friendly copy of the world state (for the demo and tests)."""
        return {
            "ticks": self.ticks,
            "players": {
                n: {
                    "pos": list(p.pos),
                    "yaw": p.yaw,
                    "pitch": p.pitch,
                    "gamemode": p.gamemode,
                    "tags": sorted(p.tags),
                    "inventory": [{"item": s.item, "components": s.components, "count": s.count} for s in p.inventory],
                    "equipment": {
                        slot: {"item": s.item, "components": s.components, "count": s.count}
                        for slot, s in p.equipment.items()
                    },
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
                k: {
                    "name": plain_text(b.name),
                    "value": b.value,
                    "max": b.max,
                    "color": b.color,
                    "style": b.style,
                    "players": sorted(b.players),
                    "visible": b.visible,
                }
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
        thread_mecha()

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
            node = parse_tree(text)  # the same tree as check_command
        except DiagnosticError:
            reply = self._syntax_reply(text)
            self.command_log.append(CommandRecord(command, reply, "syntax", received))
            return reply
        unknown = unknown_id(node)
        if unknown is not None:  # vanilla refuses it while parsing, with the parse failure's context
            reply = unknown[1] + _here(text, unknown[0])
            self.command_log.append(CommandRecord(command, reply, "syntax", received))
            return reply
        self.at_console = True
        try:
            reply = self.run(node, text)
            outcome = "ok"
        except CommandFailure as exc:
            reply, outcome = str(exc), "failed"
        except Return as ret:  # return at the console: nothing to end
            reply, outcome = ("", "ok") if ret.value is not None else ("", "failed")
        except Unsupported as exc:
            reply, outcome = f"Sandbox: unsupported command: {exc}", "unsupported"
            self.errors.append(f"{reply} [{command}]")
        except Exception as exc:  # a sandbox bug; answer like vanilla's RCON thread does
            reply, outcome = f"Error executing: {text} ({exc!r})", "unsupported"
            self.errors.append(f"internal error on {command!r}: {exc!r}")
        finally:
            self.at_console = False
        self.command_log.append(CommandRecord(command, reply, outcome, received))
        return reply

    def _syntax_reply(self, text: str) -> str:
        try:
            thread_mecha().parse(text, multiline=False)
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
        return head + _here(text, cursor)


def _here(text: str, cursor: int) -> str:
    """Vanilla's context of a parse failure at ``cursor``: up to 10 characters before it (``...`` when more),
    the rest, and ``<--[HERE]``."""
    i = min(len(text), max(0, cursor))
    return ("..." if i > 10 else "") + text[max(0, i - 10) : i] + text[i:] + "<--[HERE]"
