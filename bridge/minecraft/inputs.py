"""What a trigger press can mean besides an engine ``Action``: the bridge-level inputs the service handles itself
(the host's console, the Sacred Sword, sending a book), and ``InputError`` for a press that means nothing
(``docs/minecraft.md#player-input``). The presses themselves are decoded by the trigger table
(``bridge.minecraft.triggers``).

The host's console (``HostControl``) is one list of buttons: the console's own (moving on, the phase-bound ones,
the twists' lists) followed by every host control's button (``engine.core.host_spec``: pause, resume, end, add a
minute, replace, undo, and any control registered later), by number. The in-game dialog
(``bridge.minecraft.console_dialog``), the web grimoire's buttons (``bridge.web.hub``) and the translation keys
(``bridge.minecraft.ui_text``) are made from it.

Host controls other than "move on" are checked by the service: only a configured host (``Settings.hosts``) may
use them (anyone else is told "Only the host can do that."); 2–5 are "move on" restricted to the phase they
name; start/cancel a twist open a list of twists (``traitors.twist``); 14 asks the finalists whether everybody is
happy with their decision (``AskHappy``, the finale vote only); the host controls' buttons send their input.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, AskHappy
from engine.core.host import EXTEND_STEP
from engine.core.host_spec import ConsoleButton, console_buttons
from engine.effects import Message

__all__ = [
    "EXTEND_STEP",
    "BridgeInput",
    "HostCommand",
    "HostControl",
    "InputError",
    "LobbyControl",
    "LobbyPress",
    "OWN",
    "OpenConsole",
    "SendBook",
    "SwordHit",
]


class _Console(type):
    """``HostControl``'s class: the console's buttons as a collection, like an enum's members. Iterating gives
    them in the console's order; ``HostControl["PAUSE_CLOCK"]`` and ``HostControl.PAUSE_CLOCK`` look one up by
    name (``KeyError`` / ``AttributeError``)."""

    def __iter__(cls) -> Iterator[HostControl]:
        return iter(_buttons())

    def __len__(cls) -> int:
        return len(_buttons())

    def __getitem__(cls, name: str) -> HostControl:
        for button in _buttons():
            if button.name == name:
                return button
        raise KeyError(name)

    def __getattr__(cls, name: str) -> HostControl:
        if not name.isupper():  # dunders and the like: no button is named so
            raise AttributeError(name)
        try:
            return cls[name]
        except KeyError:
            raise AttributeError(name) from None


class HostControl(metaclass=_Console):
    """A button of the host's console: the value of ``/trigger traitors.host set <value>``. ``HostControl(8)`` is
    the button that sends 8 (``ValueError`` when none does); each button is one object, compared by identity.

    Attributes:
        name: its stable name in capitals (``PAUSE_CLOCK``); in lower case its translation key's last part and the
            web page's control name.
        value: the number it sends (pinned: ``tests/bridge/minecraft/test_trigger_values.py``).
        title: the English label.
        bound: whether the button is meant for one phase of the series, which the series' ruleset names
            (``Ruleset.console_phases``): "move on" in that phase, or the finale's question (``ASK_HAPPY``); in
            any other phase, or in a ruleset that binds no phase to it, the host is told it is not the time.
        press: the host's name → the engine input the button sends as it is (``None``: "move on", a list of
            twists or a seat to choose first).
    """

    __slots__ = ("bound", "name", "press", "title", "value")
    name: str
    value: int
    title: str
    bound: bool
    press: Callable[[str], Action] | None

    def __new__(cls, value: int) -> HostControl:
        for button in _buttons():
            if button.value == value:
                return button
        raise ValueError(f"{value!r} is not a console button")

    @classmethod
    def make(
        cls, name: str, value: int, title: str, bound: bool = False, press: Callable[[str], Action] | None = None
    ) -> HostControl:
        """A new button (the console's own, ``OWN``, or a host control's, made by ``_buttons``)."""
        made = object.__new__(cls)
        for attr, v in (("name", name), ("value", value), ("title", title), ("bound", bound), ("press", press)):
            object.__setattr__(made, attr, v)
        return made

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a console button is read-only ({name})")

    def __repr__(self) -> str:
        return f"HostControl.{self.name}"

    @property
    def key(self) -> str:
        """The translation key of the button label (``traitors.console.<name>``)."""
        return "traitors.console." + self.name.lower()


_own = HostControl.make


OWN: tuple[HostControl, ...] = (
    _own("ADVANCE", 1, "Start the day / move on"),
    _own("OPEN_ROUND_TABLE", 2, "Open the round table", True),
    _own("OPEN_VOTE", 3, "Open the vote", True),
    _own("CLOSE_VOTE", 4, "Close the vote", True),
    _own("ASK_HAPPY", 14, "Ask: is everybody happy?", True, AskHappy),  # before the lock it comes before
    _own("LOCK_TORCHES", 5, "Lock the vote", True),
    _own("START_TWIST", 6, "Start a twist"),
    _own("CANCEL_TWIST", 7, "Cancel a twist"),
)
"""The console's own buttons, in the console's order, before the host controls' (``engine.core.host_spec``)."""

_FROM_SPEC: dict[ConsoleButton, HostControl] = {}


def _buttons() -> tuple[HostControl, ...]:
    """Every console button in the console's order: ``OWN``, then each registered host control's, by number (one
    ``HostControl`` per spec's button, so a button is the same object at every look-up)."""
    out = list(OWN)
    for b in console_buttons():
        made = _FROM_SPEC.get(b)
        if made is None:
            made = _FROM_SPEC[b] = _own(b.name.upper(), b.number, b.label, False, b.press)
        out.append(made)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class HostCommand:
    """A host pressed a console button other than "move on" (checked by the service, not the engine)."""

    host: str
    control: HostControl
    seat: int | None = None
    """For ``REPLACE_CONTESTANT``: the seat chosen for a new player (``None``: the host has yet to choose)."""

    @property
    def actor(self) -> str:
        return self.host


@dataclass(frozen=True, slots=True)
class OpenConsole:
    """A player asked for the host's console (``/trigger traitors.console``); only hosts get it."""

    player: str

    @property
    def actor(self) -> str:
        return self.player


@dataclass(frozen=True, slots=True)
class SwordHit:
    """The Sacred Sword hit a player (``docs/minecraft.md#player-input``): ``player`` is the attacker, or with
    ``struck`` the one hit; then ``attacker`` is the attacker's UUID as the data pack recorded it (int array or
    string), if present."""

    player: str
    struck: bool
    attacker: Any = None

    @property
    def actor(self) -> str:
        return self.player


@dataclass(frozen=True, slots=True)
class SendBook:
    """A contestant sends the book they hold: ``kind`` ``"confess"`` (confession book) or ``"respond"`` (the
    Traitors' response draft). The service reads the book's text and applies the engine input."""

    player: str
    kind: str

    @property
    def actor(self) -> str:
        return self.player


class LobbyControl(enum.Enum):
    """What a lobby press asks for (``docs/host.md``, "The lobby").

    A player's (``traitors.signup``): ``SIGN_UP``, ``WITHDRAW``, ``SHOW``. The host's (``traitors.lobby``):
    ``CONSOLE`` (the lobby console), ``DRAW`` (fill the free seats at random from the sign-ups), ``START``,
    ``CLEAR`` (empty the cast), ``PICK`` (seat one sign-up, by its place in the list).
    """

    SIGN_UP = "sign_up"
    WITHDRAW = "withdraw"
    SHOW = "show"
    CONSOLE = "console"
    DRAW = "draw"
    START = "start"
    CLEAR = "clear"
    PICK = "pick"


@dataclass(frozen=True, slots=True)
class LobbyPress:
    """A lobby press: ``player`` pressed ``control``; ``index`` is the 1-based place in the sign-up list of the
    sign-up a host picks (``PICK``), else ``None``. Only the lobby (between series) acts on it."""

    player: str
    control: LobbyControl
    index: int | None = None

    @property
    def actor(self) -> str:
        return self.player


BridgeInput = HostCommand | OpenConsole | SwordHit | SendBook | LobbyPress
"""Queue inputs the service handles itself (they are not engine actions)."""


class InputError(ValueError):
    """A queued trigger entry cannot become an engine action.

    The text is meant for a private message to the player who pressed the trigger (when the name is valid).

    Args:
        key: a message key of ``engine.messages.CATALOG`` (``invalid.action.*``).
        params: values for the key's placeholders.

    Attributes:
        message: the ``Message`` (key + params) to whisper; ``text`` its English text.
    """

    def __init__(self, key: str, **params: str) -> None:
        self.key = key
        self.params = params
        self.message = Message(key, tuple(params.items()))
        super().__init__(self.message.text)

    @property
    def text(self) -> str:
        """The English text of the message."""
        return self.message.text
