"""The commands the sandbox models, one module per family, behind one dispatch table.

``COMMANDS`` maps a command's name (the first literal of mecha's identifier, e.g. ``give`` in
``give:targets:item:count``) to its handler: ``handler(world, parts, args, text) -> reply`` (see
``bridge.sandbox.state.Handler``). A name missing here is "Sandbox: unsupported command". Handlers answer with
vanilla's en_us texts and raise ``CommandFailure`` for vanilla failures.
"""

from __future__ import annotations

from bridge.sandbox.commands import (
    admin,
    blocks,
    bossbar,
    data,
    entities,
    execute,
    functions,
    help,
    items,
    messages,
    players,
    scoreboard,
    teleport,
)
from bridge.sandbox.state import Handler

__all__ = ["COMMANDS"]

COMMANDS: dict[str, Handler] = {
    "advancement": players.advancement,
    "bossbar": bossbar.bossbar,
    "clear": items.clear,
    "data": data.data,
    "datapack": admin.datapack,
    "dialog": players.dialog,
    "effect": players.effect,
    "execute": execute.execute,
    "fill": blocks.fill,
    "forceload": blocks.forceload,
    "function": functions.function,
    "gamemode": players.gamemode,
    "gamerule": admin.gamerule,
    "give": items.give,
    "help": help.help_,
    "item": items.item,
    "kill": entities.kill,
    "kick": admin.kick,
    "list": admin.list_players,
    "return": functions.return_,
    "say": messages.say,
    "scoreboard": scoreboard.scoreboard,
    "setblock": blocks.setblock,
    "summon": entities.summon,
    "tag": players.tag,
    "teleport": teleport.tp,
    "tellraw": messages.tellraw,
    "title": messages.title,
    "tp": teleport.tp,
    "trigger": scoreboard.trigger,
}
