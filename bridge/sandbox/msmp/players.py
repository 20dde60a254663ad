"""``minecraft:players``, ``players/kick`` and the ``server/*`` methods: status, save, stop and system messages,
answered as vanilla's ``PlayerService`` / ``ServerStateService`` answer them (``docs/minecraft.md#msmp``)."""

from __future__ import annotations

from typing import Any

from bridge.sandbox.model import ChatMessage, Player, ScreenText
from bridge.sandbox.msmp.base import Context, Handler, player_json
from bridge.sandbox.text import plain_text

__all__ = ["METHODS", "component", "online"]


def players(ctx: Context) -> list[dict[str, str]]:
    """The online players, in the order they joined."""
    return [player_json(p.uuid, p.name) for p in ctx.world.players.values()]


def online(ctx: Context, given: Any) -> Player | None:
    """The online player a schema ``player`` object names: by ``id`` when it has one, else by ``name``."""
    if not isinstance(given, dict):
        return None
    uuid, name = given.get("id"), given.get("name")
    if isinstance(uuid, str) and uuid:
        return next((p for p in ctx.world.players.values() if p.uuid == uuid.lower()), None)
    return ctx.world.players.get(name) if isinstance(name, str) else None


def component(message: Any) -> dict[str, Any] | None:
    """The schema's ``message`` → a text component: ``literal`` wins, else ``translatable`` with its
    ``translatableParams`` as ``with``; ``None`` when it has neither (vanilla sends nothing then)."""
    if not isinstance(message, dict):
        return None
    if isinstance(message.get("literal"), str):
        return {"text": message["literal"]}
    if isinstance(message.get("translatable"), str):
        params = [str(p) for p in message.get("translatableParams") or []]
        return (
            {"translate": message["translatable"], "with": params} if params else {"translate": message["translatable"]}
        )
    return None


def kick(ctx: Context, kick: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Disconnect each named online player (by ``id`` or ``name``); the result lists those kicked."""
    kicked = []
    for entry in kick:
        player = online(ctx, entry.get("player"))
        if player is not None and player.name in ctx.world.players:
            ctx.world.leave(player.name)
            kicked.append(player_json(player.uuid, player.name))
    return kicked


def status(ctx: Context) -> dict[str, Any]:
    """``server_state``: started, the online players and the version."""
    return {"started": True, "players": players(ctx), "version": dict(ctx.version)}


def _deliver(player: Player, shown: dict[str, Any], overlay: bool) -> None:
    text = plain_text(shown)
    if overlay:  # vanilla: an overlay system message goes to the action bar, never to chat
        player.actionbar = shown
        player.screen.append(ScreenText("actionbar", shown, text))
    else:
        player.chat.append(ChatMessage(shown, text, source="system"))


def system_message(ctx: Context, message: dict[str, Any]) -> bool:
    """Send a system message to the receivers (by ``id`` or ``name``; offline ones are skipped) or, without
    ``receivingPlayers``, to everyone. False when there is no text or the receiver list is empty."""
    shown = component(message.get("message"))
    if shown is None:
        return False
    overlay = message.get("overlay") is True
    receivers = message.get("receivingPlayers")
    if receivers is None:
        targets = list(ctx.world.players.values())
    elif not receivers:
        return False
    else:
        targets = [p for p in (online(ctx, r) for r in receivers) if p is not None]
    for player in targets:
        _deliver(player, shown, overlay)
    return True


def save(ctx: Context, flush: bool) -> bool:  # noqa: ARG001 - MSMP passes params by name; nothing to flush
    """Save the world: ``server/saving`` then ``server/saved`` (the sandbox's world lives in memory)."""
    ctx.notify("server/saving", {})
    ctx.state.saves += 1
    ctx.notify("server/saved", {})
    return True


def stop(ctx: Context) -> bool:
    """Ask the server to stop; the MSMP server then says ``server/stopping`` and closes."""
    ctx.state.stop_requested = True
    return True


METHODS: dict[str, Handler] = {
    "players": players,
    "players/kick": kick,
    "server/status": status,
    "server/save": save,
    "server/stop": stop,
    "server/system_message": system_message,
}
