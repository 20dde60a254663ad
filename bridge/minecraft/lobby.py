"""What the lobby shows in the castle, as commands (``docs/host.md``, "The lobby"; ``bridge/loop/lobby_run.py``
sends them): the sign-up board (a ``text_display`` entity), the action bar, the players' sign-up dialog and the
host's lobby console, each dialog with its chat fallback (click links) for clients that close dialogs.

Everything shown is public: who signed up, the cast drawn. The board is one ``text_display`` tagged
``traitors.board`` (https://minecraft.wiki/w/Text_Display): it is replaced (``kill`` then ``summon``) whenever the
sign-ups change, and removed when the series starts. Its chunk is force-loaded while the lobby is open
(``board_chunk``): in a chunk that is not loaded (nobody near the foyer) vanilla's ``kill @e[…]`` finds no
board, so the old one would stay beside the new one, and nothing there is shown or kept up to date.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from bridge.minecraft.core import McCommand, checked_command, player_name
from bridge.minecraft.display import tellraw
from bridge.minecraft.display import title as title_commands
from bridge.minecraft.inputs import LobbyControl
from bridge.minecraft.render import dialog_commands
from bridge.minecraft.snbt import SnbtValue, snbt
from bridge.minecraft.text import Component, RunCommand, joined, message_component, text_component
from bridge.minecraft.triggers import lobby_command
from engine.effects import Message, msg

__all__ = [
    "BOARD_TAG",
    "actionbar",
    "board_chunk",
    "board_commands",
    "board_gone",
    "board_loaded",
    "host_console",
    "invitation",
]

BOARD_TAG = "traitors.board"
"""The tag of the sign-up board entity."""

BOARD_SELECTOR = f"@e[type=minecraft:text_display,tag={BOARD_TAG}]"


def _counts(signups: Sequence[str], seats: int) -> dict[str, object]:
    return {"count": len(signups), "seats": seats}


def board_gone() -> McCommand:
    """``kill`` every sign-up board (vanilla answers "No entity was found" when there is none)."""
    return checked_command(f"kill {BOARD_SELECTOR}")


def board_chunk(at: tuple[float, float, float], *, hold: bool) -> McCommand:
    """``forceload add`` (``hold``) or ``forceload remove`` of the chunk holding ``at`` (x, y, z in blocks).

    Vanilla answers "Marked chunk [x, z] …" / "Unmarked chunk …", or fails with "No chunks were marked for force
    loading" when the chunk is forced already (by the operator: then it is not ours to release).
    """
    x, _, z = at
    return checked_command(f"forceload {'add' if hold else 'remove'} {math.floor(x)} {math.floor(z)}")


def board_loaded(at: tuple[float, float, float]) -> McCommand:
    """``execute if loaded`` at ``at``: "Test passed" once the chunk is loaded (vanilla loads a forced chunk over
    the next ticks)."""
    x, y, z = at
    return checked_command(f"execute if loaded {math.floor(x)} {math.floor(y)} {math.floor(z)}")


def board_commands(at: tuple[float, float, float], signups: Sequence[str], seats: int) -> list[McCommand]:
    """Replace the sign-up board at ``at`` (x, y, z in blocks): its heading and one signed-up name a line.

    Raises:
        ValueError: the summon would be over the RCON limit (more names than a castle seats).
    """
    heading = message_component(msg("lobby.board", **_counts(signups, seats)), color="gold", bold=True)
    names = text_component("".join("\n" + n for n in signups), color="white", bold=False)
    text = replace(heading, extra=(*heading.extra, names))
    data: dict[str, SnbtValue] = {
        "Tags": [BOARD_TAG],
        "billboard": "center",
        "alignment": "center",
        "line_width": 240,
        "background": 1140850688,
        "text": text.to_nbt(),
    }
    x, y, z = at
    return [board_gone(), checked_command(f"summon minecraft:text_display {x:g} {y:g} {z:g} {snbt(data)}")]


def actionbar(signups: Sequence[str], seats: int) -> list[McCommand]:
    """The action bar for everyone: how many signed up, and how to sign up (it fades after a few seconds, so the
    lobby sends it again while it is open)."""
    return title_commands(
        "@a", actionbar=message_component(msg("lobby.actionbar", **_counts(signups, seats))), times=None
    )


def _button(key: str, control: LobbyControl, index: int | None = None, **params: object) -> tuple[Component, str]:
    return message_component(msg(key, **params)), lobby_command(control, index)


def _list(signups: Sequence[str]) -> Message:
    return msg("lobby.list", players=tuple(signups)) if signups else msg("lobby.list.none")


def _with_chat(
    name: str, body: Message, buttons: list[tuple[Component, str]], extra: Message | None = None
) -> list[McCommand]:
    """A dialog for ``name`` (its text: ``body``, then ``extra``), then the same buttons as chat links
    (``bridge.minecraft.render``'s prompt form)."""
    title = message_component(msg("lobby.title"), color="gold", bold=True)
    text = message_component(body)
    if extra is not None:
        text = joined(text, text_component(" "), message_component(extra))
    out = dialog_commands(name, title, text, buttons)
    parts: list[Component] = [message_component(body, color="white", italic=False)]
    for label, command in buttons:
        bracket = text_component("[", color="aqua", bold=True, italic=False, click=RunCommand(command))
        parts += [text_component(" "), replace(bracket, extra=(label, text_component("]")))]
    return out + tellraw(player_name(name), joined(*parts))


def invitation(name: str, signups: Sequence[str], seats: int, *, signed_up: bool) -> list[McCommand]:
    """The sign-up dialog for one player: "Sign up", or "Withdraw" for one already signed up."""
    button = (
        _button("lobby.button.withdraw", LobbyControl.WITHDRAW)
        if signed_up
        else _button("lobby.button.sign_up", LobbyControl.SIGN_UP)
    )
    return _with_chat(name, msg("lobby.invite", **_counts(signups, seats)), [button], _list(signups))


def host_console(host: str, signups: Sequence[str], cast: Sequence[str], seats: int) -> list[McCommand]:
    """The host's lobby console: how many signed up and the cast, and the buttons that apply now (seat a sign-up,
    one button each; draw the free seats; clear the draw; start the series; refresh)."""
    none = msg("lobby.none")
    body = msg("lobby.console", count=len(signups), cast=len(cast), seats=seats, seated=tuple(cast) or none)
    buttons: list[tuple[Component, str]] = []
    if len(cast) < seats:
        buttons += [
            _button("lobby.button.pick", LobbyControl.PICK, i, player=p)
            for i, p in enumerate(signups, start=1)
            if p not in cast
        ]
        buttons.append(_button("lobby.button.draw", LobbyControl.DRAW))
    if cast:
        buttons.append(_button("lobby.button.clear", LobbyControl.CLEAR))
    if len(cast) == seats:
        buttons.append(_button("lobby.button.start", LobbyControl.START))
    buttons.append(_button("lobby.button.refresh", LobbyControl.CONSOLE))
    return _with_chat(host, body, buttons)
