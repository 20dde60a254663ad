"""The sandbox world's state, and the interpreter that runs parsed commands on it through one dispatch table.

``WorldState`` holds what Castle's commands touch (players, objectives and scores with trigger locks, command
storage, bossbars, game rules, the loaded data pack) and runs functions and parsed commands. It does not know
the commands themselves: a handler table (command name → handler, ``bridge.sandbox.commands.COMMANDS``) is
given to it, so the command modules can use the state without the state importing them. ``bridge.sandbox.world``
puts the two together as ``World``.

Everything runs on the sandbox's one event-loop thread, like vanilla's main thread. Inside a function a failing
command just fails (the function goes on), a command the sandbox does not model is a sandbox error, and a macro
line is parsed with mecha after substitution.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import nbtlib
from mecha import ast as mast

from bridge.minecraft.syntax import CommandSyntaxError, parse_command
from bridge.sandbox import nbt
from bridge.sandbox.blocks import Blocks
from bridge.sandbox.chunks import Chunks
from bridge.sandbox.datapack import Datapack, Function, Line
from bridge.sandbox.model import CONSOLE, PLAYER_NAME, Bossbar, CommandRecord, Objective, Player, Source

__all__ = [
    "MAX_FUNCTION_DEPTH",
    "CommandFailure",
    "Handler",
    "Return",
    "Unsupported",
    "WorldState",
]

MAX_FUNCTION_DEPTH = 64
"""Nested function calls before the sandbox calls it a runaway (vanilla's limit is a command count)."""


class CommandFailure(Exception):
    """A vanilla-style failure: the message is the reply text."""


class Unsupported(Exception):
    """The command parses but the sandbox does not model it."""


class Return(Exception):
    """``return``: ends the innermost function with ``value`` (``None`` for ``return fail``)."""

    def __init__(self, value: int | None) -> None:
        self.value = value


READS: frozenset[str | tuple[str, ...]] = frozenset(
    {"execute", "function", "return", ("data", "get"), ("scoreboard", "players", "get"), ("time", "query")}
)
"""Commands that change nothing themselves when they succeed, by their first literals (mecha's identifier
parts): ``execute`` (its ``store`` counts itself; what it runs is counted as that command), ``function`` (its
lines count), ``return`` and the queries. Everything else that succeeds counts as a change (``WorldState.writes``)."""


class WorldState:
    """The sandbox's world state and command interpreter. Not thread-safe: use it from the sandbox's loop.

    Attributes:
        commands: command name (the first literal of mecha's identifier, e.g. ``give``) → handler.
        players: online players by name.
        objectives: scoreboard objectives by name.
        scores: holder name → objective name → score.
        unlocked: (holder, objective) pairs whose trigger is enabled.
        storage: storage id (``ns:path``) → root compound (nbtlib).
        bossbars: by id.
        gamerules: name → value text.
        command_log: every command received over RCON or ``World.execute``, in order.
        inner_log: every command a function called from the console ran (a batch's commands,
            ``bridge.minecraft.batch``), with its reply or failure, in order: vanilla reports none of them, the
            tests read them here (the tick's functions are not logged).
        errors: texts of sandbox errors (unsupported commands, internal faults).
        functions: function id → Python callable(world) returning a command count (for tests; a loaded
            data pack's functions come first).
        tick_functions: Python callables run each tick by ``World.tick``, before the data pack's tick functions.
        datapack: the loaded data pack, or ``None``.
        ticks: ticks run so far.
        writes: changes counted so far: every command that succeeded other than a pure read (``READS``), a
            Python function run, a read of a computed storage during a tick, a player joining or leaving or acting
            (``bridge.sandbox.world``), an MSMP request. ``World.advance`` compares it to tell that nothing
            changed since a tick that changed nothing.
        computed_storage: storage id → a function giving its contents as plain Python, called each time a
            ``data get storage`` reads that storage (the sandbox's own state, e.g. ``bridge/sandbox/quiet.py``;
            a real server has no such storage).
        blocks: the blocks ``fill``/``setblock`` placed (``bridge.sandbox.blocks``; elsewhere air).
        chunks: the forced chunks and the view distance (``bridge.sandbox.chunks``; ``loaded``).
        bad_landings: every teleport that left a player on a spot that is not standable, as (player, position).
        source: who runs the command being run (``@s``).
        result: the result the running command set (``None``: the default, 1).
        outputs: replies of the commands an ``execute`` ran (``None`` outside ``execute``).
    """

    def __init__(self, commands: Mapping[str, Handler]) -> None:
        self.commands = commands
        self.players: dict[str, Player] = {}
        self._departed: dict[str, Player] = {}
        self.objectives: dict[str, Objective] = {}
        self.scores: dict[str, dict[str, int]] = {}
        self.unlocked: set[tuple[str, str]] = set()
        self.storage: dict[str, nbtlib.Compound] = {}
        self.bossbars: dict[str, Bossbar] = {}
        self.gamerules: dict[str, str] = {}
        self.command_log: list[CommandRecord] = []
        self.inner_log: list[CommandRecord] = []
        self.at_console = False
        """True while a command from the console runs (what ``inner_log`` keeps)."""
        self.errors: list[str] = []
        self.functions: dict[str, Callable[[WorldState], int]] = {}
        self.tick_functions: list[Callable[[WorldState], None]] = []
        self.computed_storage: dict[str, Callable[[], dict[str, Any]]] = {}
        self.datapack: Datapack | None = None
        self.blocks = Blocks()
        self.chunks = Chunks()
        self.entities: list[Any] = []
        """Summoned entities other than players (``bridge.sandbox.commands.entities.Entity``)."""
        self.bad_landings: list[tuple[str, tuple[float, float, float]]] = []
        self.source: Source = CONSOLE
        self.result: int | None = None
        self.outputs: list[str] | None = None
        self._depth = 0
        self.ticks = 0
        self.writes = 0
        self.ticking = False
        """True while ``World.tick`` runs (a computed storage read then counts in ``writes``)."""
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
        if self.online(name) is not None:
            raise ValueError(f"{name} is already online")
        player = self._departed.pop(name, None) or Player(name, pos=self.spawn)
        self.writes += 1
        self.players[name] = player
        for listener in list(self.presence_listeners):
            listener("joined", player)
        return player

    def leave(self, name: str) -> None:
        """A player goes offline. Raises ``KeyError`` when not online."""
        player = self.players.pop(name)
        self._departed[name] = player
        self.writes += 1
        for bar in self.bossbars.values():
            bar.players.discard(name)
        for listener in list(self.presence_listeners):
            listener("left", player)

    def player(self, name: str) -> Player:
        """The online player called ``name``. Raises ``KeyError``."""
        return self.players[name]

    def online(self, name: str) -> Player | None:
        """The online player called ``name``, matched without regard to case as vanilla does, or ``None``."""
        if name in self.players:
            return self.players[name]
        lower = name.lower()
        for pname, p in self.players.items():
            if pname.lower() == lower:
                return p
        return None

    def loaded(self, x: float, z: float) -> bool:
        """Whether the chunk holding the block column ``x``, ``z`` (blocks) is loaded (``bridge.sandbox.chunks``)."""
        return self.chunks.loaded(x, z, (p.pos for p in self.players.values()))

    # -- functions --------------------------------------------------------------------------------

    def run_top_function(self, fid: str, source: Source, args: nbtlib.Compound | None = None) -> int | None:
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
            self.writes += 1  # a Python function may change anything
            return py(self)
        if self._depth >= MAX_FUNCTION_DEPTH:
            raise Unsupported(f"function {fid} nested deeper than {MAX_FUNCTION_DEPTH}")
        texts = self._macro_texts(fn, args)
        self._depth += 1
        try:
            for line in fn.lines:
                try:
                    if line.node is not None:
                        self.run_node(line.node, fn.source, source)
                    else:
                        text = line.substitute(texts)
                        self.run_node(self._macro_node(fn, line, text), text, source)
                except CommandFailure:
                    continue
        except Return as ret:
            if ret.value is None:
                raise CommandFailure(f"Function {fid} failed") from None
            return ret.value
        finally:
            self._depth -= 1
        return None

    def _macro_node(self, fn: Function, line: Line, text: str) -> Any:
        """A macro line after substitution, parsed (a text parsed before in this process is not parsed again:
        ``bridge.minecraft.syntax.parse_tree``; vanilla caches macro instantiations too).

        Raises:
            CommandFailure: the line does not parse (also recorded in ``errors``).
        """
        try:
            return parse_command(text)  # the check is the parse
        except CommandSyntaxError as exc:
            self.errors.append(f"{fn.path}:{line.lineno}: macro line does not parse: {exc.detail}: {text[:200]}")
            raise CommandFailure(f"Function {fn.id}: {exc.detail}") from None

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

    # -- commands ---------------------------------------------------------------------------------

    def run_node(self, node: Any, text: str, source: Source) -> int:
        """Run one parsed command as ``source``; returns its result (1 unless the command sets one).

        Raises:
            CommandFailure, Unsupported, Return.
        """
        prev, self.source = self.source, source
        try:
            self.result = None
            if str(getattr(node, "identifier", "")).startswith("function:"):
                # Commands a function runs send no feedback to the caller (and the sandbox keeps the
                # function command itself quiet inside ``execute``).
                outer, self.outputs = self.outputs, None
                try:
                    self.run(node, text)
                finally:
                    self.outputs = outer
            else:
                # a line of a function the console called (not a command an ``execute`` runs: it is the line)
                line = self.at_console and self._depth > 0 and self.outputs is None
                try:
                    reply = self.run(node, text)
                except CommandFailure as exc:
                    if line:
                        self.inner_log.append(CommandRecord(_line_text(node, text), str(exc), "failed"))
                    raise
                if line:
                    self.inner_log.append(CommandRecord(_line_text(node, text), reply, "ok"))
                if reply and self.outputs is not None:
                    self.outputs.append(reply)
            return 1 if self.result is None else self.result
        finally:
            self.source = prev

    def run(self, node: mast.AstCommand, text: str) -> str:
        """Run one parsed command as the current ``source`` through the handler of its first literal (mecha's
        identifier, e.g. ``give:targets:item:count``); returns the reply.

        Raises:
            CommandFailure, Unsupported (no handler), Return.
        """
        parts = node.identifier.split(":")
        handler = self.commands.get(parts[0])
        if handler is None:
            raise Unsupported(parts[0])
        reply = handler(self, parts, list(node.arguments), text)
        if parts[0] not in READS and tuple(parts[:3]) not in READS and tuple(parts[:2]) not in READS:
            self.writes += 1  # a failed command changes nothing (vanilla); what it runs is counted by itself
        return reply


def _line_text(node: Any, text: str) -> str:
    """The text of one parsed command within ``text`` (a function's whole source, or one macro line)."""
    return text[node.location.pos : node.end_location.pos]


Handler = Callable[[WorldState, list[str], list[Any], str], str]
"""A command family: (world, the identifier's parts, the argument nodes, the command text) → the reply text.

Raises ``CommandFailure`` for a vanilla failure and ``Unsupported`` for what the sandbox does not model.
"""
