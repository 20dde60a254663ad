"""``traitors rehearse --config serve.toml [--player NAME]``: every kind of command Castle sends, run once on the
real server before the first series, with the replies read back (``docs/operator.md#rehearse``).

It talks to the server as ``serve`` does (RCON, and MSMP when the config has ``[msmp]``) and reads the same serve
config and secrets. The same checks run against the sandbox of every supported release in the tests, so the table
is also Castle's live conformance suite.

House rules of this file:

1. The checks are a table (``CHECKS``) of small functions, each taking the one ``Rehearsal`` and returning the
   detail line of its row; a check fails by raising (a command answered with an error text, ``Failed``), and is
   skipped (``Skipped``) when it needs something not given (``--player``, MSMP). One failure never stops the
   checks after it.
2. Every command is built by the same builders the service uses (``bridge.minecraft``), so what passes here is
   what a series sends.
3. It cleans up after itself: whatever a check makes (a storage, an objective, a bossbar, items) is removed, and
   a player it teleported is put back where they stood, facing the way they faced; the undo steps run in reverse
   even when a check failed, and a failing undo step is a row of its own.
4. It changes nothing a series keeps: the names it uses are its own (storage ``traitors:rehearse``, objective
   ``castle.rehearse``, bossbar ``traitors:rehearse``, hand-out ids ``rehearse/…``).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bridge.app.doctor import DEFAULT_DATAPACK, load_secrets, parse_datapacks
from bridge.config.castle import CastleConfig, Location
from bridge.config.serve import ServeConfig, load_serve_config
from bridge.errors import BridgeError, RconCommandFailed
from bridge.io.msmp import MsmpClient
from bridge.io.players import PlayerDirectory
from bridge.io.rcon import RconClient, check_reply
from bridge.loop.version import KNOWN, ServerVersion, detect_version
from bridge.minecraft.castle.survey import (
    forceload_commands,
    place_areas,
    place_probe_commands,
    places_row,
    read_place_probes,
)
from bridge.minecraft.core import McCommand, player_name
from bridge.minecraft.display import dialog_clear, tellraw, title
from bridge.minecraft.items import give_once, held_give_ids, inventory_get, item_stack
from bridge.minecraft.render import PROMPT_FUNCTION
from bridge.minecraft.scoreboard import (
    bossbar_add,
    bossbar_remove,
    bossbar_set_max,
    bossbar_set_players,
    bossbar_set_value,
    enable_trigger,
    is_already_exists,
    objective_add_trigger,
)
from bridge.minecraft.snbt import SnbtValue, parse, snbt
from bridge.minecraft.storage import function_call, storage_set
from bridge.minecraft.text import RunCommand, text_component
from bridge.minecraft.world import teleport
from engine.errors import ConfigError
from engine.ids import Item

__all__ = ["CHECKS", "Failed", "Rehearsal", "Row", "Skipped", "format_table", "rehearse", "run_rehearse"]

OK, WARN, FAIL, SKIP = "ok", "warn", "FAIL", "skip"
STORAGE = "traitors:rehearse"
OBJECTIVE = "castle.rehearse"
BOSSBAR = "traitors:rehearse"
NOBODY = "castle_rehearsal"
"""A player name nobody plays under: a command sent to it is parsed in full, then answers "No player was found"."""


class Failed(Exception):
    """A check's failure; the message is the row's detail."""


class Skipped(Exception):
    """A check that cannot run here (no ``--player``, no MSMP); the message says what it needs."""


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: the check's name, its result (``ok``, ``warn``, ``FAIL``, ``skip``) and detail."""

    check: str
    result: str
    detail: str


@dataclass
class Rehearsal:
    """What the checks share: the connections, the castle, the player, and the undo steps (house rule 3).

    Args:
        rcon: a logged-in (or connectable) RCON client.
        msmp: a started MSMP client, or ``None``.
        castle: the castle whose seats the teleport check visits.
        player: an online player to show a dialog, a book, a title, items and teleports to, or ``None``.
        datapack: the data pack id as ``datapack list`` shows it.
    """

    rcon: RconClient
    msmp: MsmpClient | None
    castle: CastleConfig
    player: str | None = None
    datapack: str = DEFAULT_DATAPACK
    version: ServerVersion | None = None
    msmp_error: str | None = None
    """Why MSMP could not be reached, when the config has ``[msmp]`` but the connection failed."""
    undo: list[tuple[str, str]] = field(default_factory=list)
    """``(what, command)`` to send at the end, newest last (run in reverse)."""
    warnings: list[str] = field(default_factory=list)

    async def send(self, command: McCommand | str, *, nobody_ok: bool = False) -> str:
        """Send one command and return its reply.

        Args:
            command: the command (built by ``bridge.minecraft``) or its text.
            nobody_ok: "No player was found" counts as an answer (the command parsed; it had no one to reach).

        Raises:
            Failed: the server answered with an error text (the detail quotes command and reply).
        """
        text = command if isinstance(command, str) else command.text
        reply = await self.rcon.command(text)
        try:
            return check_reply(text, reply)
        except RconCommandFailed:
            if nobody_ok and reply.startswith("No player was found"):
                return reply
            if is_already_exists(reply):
                return reply
            raise Failed(f"{text.split(' ', 1)[0]} refused: {reply[:160]}") from None

    def needs_player(self) -> str:
        """The ``--player`` name; raises ``Skipped`` without one."""
        if self.player is None:
            raise Skipped("give --player NAME (an online player) to check it")
        return self.player

    def will_undo(self, what: str, command: McCommand | str) -> None:
        """Remember a clean-up command (house rule 3)."""
        self.undo.append((what, command if isinstance(command, str) else command.text))


Check = Callable[[Rehearsal], Awaitable[str]]
"""One check: returns the row's detail; raises ``Failed`` / ``Skipped`` (house rule 1)."""


async def check_version(r: Rehearsal) -> str:
    """The server's release, mapped through the versions table (``bridge/loop/version.py``)."""
    r.version = await detect_version(r.rcon, r.msmp)
    if r.version.support != KNOWN:
        r.warnings.append(r.version.summary)
    return r.version.summary + f"; needs Java {r.version.forms.java}"


async def check_msmp(r: Rehearsal) -> str:
    """MSMP answers a method call once the game has started (3.x start-up, ``bridge.io.msmp`` house rule 8)."""
    if r.msmp_error is not None:
        raise Failed(r.msmp_error)
    if r.msmp is None:
        raise Skipped("no [msmp] in the config: joins and leaves are not followed")
    players = await r.msmp.call("minecraft:players")
    return f"MSMP {r.msmp.version}: minecraft:players lists {len(players or [])} online"


async def check_datapack(r: Rehearsal) -> str:
    """The pack is enabled, and a ``reload`` is taken (it runs ``#minecraft:load`` again)."""
    enabled = parse_datapacks(await r.send("datapack list enabled"))
    if r.datapack not in enabled:
        raise Failed(
            f"{r.datapack} is not enabled (enabled: {', '.join(enabled) or 'none'}); run traitors "
            "install-datapack, then /reload"
        )
    reloaded = await r.send("reload")
    if r.datapack not in parse_datapacks(await r.send("datapack list enabled")):
        raise Failed(f"{r.datapack} is no longer enabled after reload ({reloaded})")
    return f"{r.datapack} enabled; reload answered {reloaded!r}"


async def check_storage(r: Rehearsal) -> str:
    """A storage write and read back (the input queue and the dialogs use storages)."""
    r.will_undo("storage", f"data remove storage {STORAGE} probe")
    await r.send(storage_set(STORAGE, "probe", {"seq": 7, "text": "Zoë"}))
    reply = await r.send(f"data get storage {STORAGE} probe.seq")
    if not reply.rstrip().endswith("7"):
        raise Failed(f"storage read back {reply!r}, not 7")
    return f"wrote and read {STORAGE} probe"


async def check_scoreboard(r: Rehearsal) -> str:
    """A trigger objective, a score set and read back, and (with a player) the trigger enabled for them."""
    await r.send(objective_add_trigger(OBJECTIVE, text_component("Castle rehearsal")))
    r.will_undo("objective", f"scoreboard objectives remove {OBJECTIVE}")
    await r.send(f"scoreboard players set #rehearse {OBJECTIVE} 3")
    reply = await r.send(f"scoreboard players get #rehearse {OBJECTIVE}")
    if " has 3 " not in reply:
        raise Failed(f"score read back {reply!r}, not 3")
    if r.player is not None:
        await r.send(enable_trigger(r.player, OBJECTIVE))
        return f"trigger objective {OBJECTIVE}: score set and read; enabled for {r.player}"
    return f"trigger objective {OBJECTIVE}: score set and read"


async def check_bossbar(r: Rehearsal) -> str:
    """The clock's bossbar commands: add, max, value, players, read back."""
    await r.send(bossbar_add(BOSSBAR, text_component("Castle rehearsal")))
    r.will_undo("bossbar", bossbar_remove(BOSSBAR))
    await r.send(bossbar_set_max(BOSSBAR, 60))
    await r.send(bossbar_set_value(BOSSBAR, 42))
    await r.send(bossbar_set_players(BOSSBAR, r.player or "@a"))
    reply = await r.send(f"bossbar get {BOSSBAR} value")
    if "42" not in reply:
        raise Failed(f"bossbar value read back {reply!r}, not 42")
    return f"bossbar {BOSSBAR}: set and read"


async def check_function(r: Rehearsal) -> str:
    """A data pack function call (``traitors:load``, which only makes what already exists)."""
    return await r.send(function_call("traitors:load"))


async def check_tellraw(r: Rehearsal) -> str:
    """A chat message with a click event (the choices in chat): to the player, or parsed with no one to reach."""
    component = text_component(
        "Castle rehearsal: this line checks chat messages.",
        color="gold",
        click=RunCommand(f"/trigger {OBJECTIVE} set 1"),
    )
    replies = [await r.send(c, nobody_ok=True) for c in tellraw(r.player or NOBODY, component)]
    return f"tellraw to {r.player}" if r.player else f"tellraw parsed ({replies[-1] or 'no reply'})"


async def check_dialog(r: Rehearsal) -> str:
    """A dialog through the pack's prompt macro (how every choice is shown), then closed."""
    player = r.needs_player()
    button: SnbtValue = {
        "label": text_component("OK").to_nbt(),
        "action": {"type": "run_command", "command": f"trigger {OBJECTIVE} set 1"},
    }
    args: dict[str, SnbtValue] = {
        "player": player,
        "title": text_component("Castle rehearsal").to_nbt(),
        "body": text_component("This dialog checks the castle's dialogs.").to_nbt(),
        "actions": [button],
    }
    reply = await r.send(function_call(PROMPT_FUNCTION, args))
    await r.send(dialog_clear(player))
    return f"dialog shown to {player} and closed ({reply})"


async def _held(r: Rehearsal, player: str, give_id: str) -> int:
    """How many stacks with hand-out ``give_id`` the player holds."""
    reply = await r.send(inventory_get(player))
    _, _, data = reply.partition("entity data: ")
    inventory = parse(data) if data else []
    return sum(1 for gid in _give_ids(inventory) if gid == give_id)


def _give_ids(inventory: object) -> list[str]:
    stacks = inventory if isinstance(inventory, list) else []
    return [gid for s in stacks for gid in held_give_ids([s])]


async def check_book(r: Rehearsal) -> str:
    """A written book with pages (the Traitors' Response), given with its hand-out id and taken back."""
    player = r.needs_player()
    give_id = f"rehearse/{player}/1"
    stack = item_stack(Item.RESPONSE_BOOK, pages=["Castle rehearsal: a book."], give_id=give_id)
    r.will_undo("book", _clear_handout(player, give_id))
    await r.send(give_once(player, stack, give_id))
    if await _held(r, player, give_id) != 1:
        raise Failed(f"{player} does not hold the book after the give")
    return f"book given to {player}"


async def check_title(r: Rehearsal) -> str:
    """A title with a subtitle, then cleared."""
    player = r.needs_player()
    for c in title(player, title=text_component("Castle rehearsal"), subtitle=text_component("a title")):
        await r.send(c)
    await r.send(f"title {player} clear")
    return f"title shown to {player} and cleared"


async def check_handout(r: Rehearsal) -> str:
    """A give guarded by its hand-out id (sent twice, held once), then a clear of exactly that hand-out."""
    player = r.needs_player()
    give_id = f"rehearse/{player}/2"
    stack = item_stack(Item.VOTE_PAPER, give_id=give_id)
    r.will_undo("vote paper", _clear_handout(player, give_id))
    for _ in range(2):
        await r.send(give_once(player, stack, give_id))
    held = await _held(r, player, give_id)
    if held != 1:
        raise Failed(f"the guarded give sent twice left {held} vote papers, not 1")
    await r.send(_clear_handout(player, give_id))
    if await _held(r, player, give_id) != 0:
        raise Failed("clear left the vote paper")
    return "guarded give sent twice, held once; cleared"


def _clear_handout(player: str, give_id: str) -> str:
    return f"clear {player_name(player)} *[custom_data~{snbt({'traitors': {'give': give_id}})}]"


async def _where(r: Rehearsal, player: str) -> tuple[list[float], list[float]]:
    """Where ``player`` stands (``Pos``) and faces (``Rotation``)."""
    found = []
    for path in ("Pos", "Rotation"):
        _, _, data = (await r.send(f"data get entity {player} {path}")).partition("entity data: ")
        value = parse(data) if data else None
        if not isinstance(value, list):
            raise Failed(f"cannot read {player}'s {path}")
        found.append([float(v) for v in value])
    return found[0], found[1]


async def check_teleport(r: Rehearsal) -> str:
    """A teleport to every round-table seat of the castle file, each landing checked, then back."""
    player = r.needs_player()
    pos, rot = await _where(r, player)
    r.will_undo("teleport back", teleport(player, *pos, *rot))
    for n, seat in enumerate(r.castle.seats, start=1):
        await r.send(teleport(player, seat.x, seat.y, seat.z, seat.yaw, seat.pitch))
        landed, _ = await _where(r, player)
        if _off(landed, seat) > 0.01:
            raise Failed(f"seat {n}: {player} landed at {landed}, not at ({seat.x}, {seat.y}, {seat.z})")
    return f"{player} teleported to {len(r.castle.seats)} seats and back"


async def check_places(r: Rehearsal) -> str:
    """Every place of the castle file is standable on the server: a solid block under the feet, air at the feet
    and the head (``bridge/minecraft/castle/survey.py``). The places' chunks are force-loaded for the probes (a
    position in an unloaded chunk answers "That position is not loaded") and released afterwards."""
    areas = place_areas(r.castle)
    for command in forceload_commands(areas):
        await r.send(command)
    for command in forceload_commands(areas, add=False):
        r.will_undo("forceload", command)
    replies = [await r.rcon.command(command) for command in place_probe_commands(r.castle)]
    passed, detail = places_row(read_place_probes(r.castle, replies))
    if not passed:
        raise Failed(detail)
    return detail


def _off(landed: list[float], seat: Location) -> float:
    return max(abs(a - b) for a, b in zip(landed, (seat.x, seat.y, seat.z), strict=True))


CHECKS: dict[str, Check] = {
    "version": check_version,
    "msmp": check_msmp,
    "datapack": check_datapack,
    "storage": check_storage,
    "scoreboard": check_scoreboard,
    "bossbar": check_bossbar,
    "function": check_function,
    "tellraw": check_tellraw,
    "dialog": check_dialog,
    "book": check_book,
    "title": check_title,
    "give/clear": check_handout,
    "teleport": check_teleport,
    "places": check_places,
}
"""Every check, in table order (house rule 1)."""


async def rehearse(rehearsal: Rehearsal, checks: Mapping[str, Check] | None = None) -> list[Row]:
    """Run the checks in order, then the undo steps in reverse (house rules 1 and 3).

    Args:
        rehearsal: the connections and what to check with.
        checks: the table (default ``CHECKS``).

    Returns:
        One row per check, then a ``cleanup`` row (and one per undo step that failed).
    """
    rows = []
    for name, check in (CHECKS if checks is None else checks).items():
        try:
            detail = await check(rehearsal)
            result = WARN if name == "version" and rehearsal.warnings else OK
            rows.append(Row(name, result, detail))
        except Skipped as exc:
            rows.append(Row(name, SKIP, str(exc)))
        except (Failed, BridgeError, ValueError) as exc:  # ValueError: a builder refused (a bad castle file)
            rows.append(Row(name, FAIL, str(exc)))
    return rows + await _clean_up(rehearsal)


async def _clean_up(rehearsal: Rehearsal) -> list[Row]:
    failed = []
    for what, command in reversed(rehearsal.undo):
        try:
            await rehearsal.send(command)
        except (Failed, BridgeError) as exc:
            failed.append(Row(f"cleanup: {what}", FAIL, str(exc)))
    done = len(rehearsal.undo) - len(failed)
    rehearsal.undo.clear()
    return failed or [Row("cleanup", OK, f"{done} step(s) undone")]


def format_table(rows: list[Row]) -> str:
    """The table as text: ``check  result  detail`` columns and a closing line."""
    width = max((len(r.check) for r in rows), default=5)
    lines = [f"{'check':<{width}}  result  detail"]
    lines += [f"{r.check:<{width}}  {r.result:<6}  {r.detail}" for r in rows]
    failed = sum(r.result == FAIL for r in rows)
    lines.append(
        f"{failed} check(s) failed: report this table with the server's version." if failed else "Every check passed."
    )
    return "\n".join(lines)


async def _rehearse_config(config: ServeConfig, env: Mapping[str, str], player: str | None) -> list[Row]:
    password, secret = load_secrets(env, config.secrets_file)
    if password is None:
        raise ConfigError(f"{config.path}: no RCON password: set CASTLE_RCON_PASSWORD or use secrets_file")
    if config.msmp_url is not None and secret is None:
        raise ConfigError(f"{config.path}: msmp.url is set but there is no MSMP secret: set CASTLE_MSMP_SECRET")
    msmp, failed = None, None
    async with RconClient(config.rcon_host, config.rcon_port, password, timeout=10.0) as rcon:
        if player is not None:
            await _require_online(rcon, player)
        try:
            if config.msmp_url is not None and secret is not None:
                msmp = MsmpClient(config.msmp_url, secret, timeout=10.0, ca_file=config.msmp_ca_file)
                try:
                    await msmp.start()
                except BridgeError as exc:  # the RCON checks still run; the msmp row says why
                    msmp, failed = None, str(exc)
            return await rehearse(Rehearsal(rcon, msmp, config.castle, player, msmp_error=failed))
        finally:
            if msmp is not None:
                await msmp.close()


async def _require_online(rcon: RconClient, player: str) -> None:
    """Refuse a ``--player`` who is not online (vanilla ``list uuids``), before any check runs: the player checks
    would all fail for a reason that is the operator's, not the server's.

    Raises:
        ConfigError: the player is not in the server's player list (exit code 2).
    """
    directory = PlayerDirectory()
    directory.update_from_list_reply(await rcon.command("list uuids"))
    online = directory.names()
    if player not in online:
        listed = ", ".join(sorted(online)) or "nobody"
        raise ConfigError(f"--player {player}: not online (online: {listed}); names are case-sensitive")


def run_rehearse(
    config_file: str | Path, env: Mapping[str, str], *, player: str | None = None, out: TextIO | None = None
) -> int:
    """``traitors rehearse``: print the table; exit code 1 when a check failed.

    Raises:
        ConfigError: a bad serve config or missing secrets (exit code 2).
        BridgeError: the server cannot be reached at all (exit code 1).
    """
    config = load_serve_config(config_file)
    if player is not None:
        _check_name(player)
    rows = asyncio.run(_rehearse_config(config, env, player))
    print(format_table(rows), file=out or sys.stdout)
    return 1 if any(r.result == FAIL for r in rows) else 0


def _check_name(name: str) -> None:
    """Raises ``ConfigError`` unless ``name`` is a Minecraft player name."""
    try:
        player_name(name)
    except ValueError:
        raise ConfigError(f"--player: {name!r} is not a Minecraft player name (3-16 letters, digits or _)") from None
