"""What a trigger press can mean besides an engine ``Action``: the bridge-level inputs the service handles itself
(the host's console, the Sacred Sword, sending a book), and ``InputError`` for a press that means nothing
(``docs/minecraft.md#player-input``). The presses themselves are decoded by the trigger table
(``bridge.minecraft.triggers``).

Host controls other than "move on" are checked by the service: only a configured host (``Settings.hosts``) may
use them (anyone else is told "Only the host can do that."); 2–5 are "move on" restricted to the phase they
name; start/cancel a twist open a list of twists (``traitors.twist``); 8–13 are the engine's host inputs
(pause, resume, end, extend by ``EXTEND_STEP`` seconds, replace, undo; docs/host.md); 14 asks the finalists
whether everybody is happy with their decision (``AskHappy``, the finale vote only).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from engine.effects import Message
from engine.rulesets.traitors.phases import Phase

EXTEND_STEP = 60
"""Seconds one press of "Add a minute" adds to the phase clock."""


class HostControl(enum.Enum):
    """A button of the host's console: the value of ``/trigger traitors.host set <value>``.

    ``phase`` is the phase a phase-bound control is meant for (``None``: any phase, or not phase-bound): "move
    on" in that phase, or the finale's question (``ASK_HAPPY``).
    """

    ADVANCE = 1
    OPEN_ROUND_TABLE = 2
    OPEN_VOTE = 3
    CLOSE_VOTE = 4
    ASK_HAPPY = 14
    """Listed before the lock it comes before (the console shows the buttons in this order)."""
    LOCK_TORCHES = 5
    START_TWIST = 6
    CANCEL_TWIST = 7
    PAUSE_CLOCK = 8
    RESUME_CLOCK = 9
    END_SERIES = 10
    EXTEND_PHASE = 11
    REPLACE_CONTESTANT = 12
    UNDO = 13

    @property
    def phase(self) -> Phase | None:
        return _CONTROL_PHASE.get(self)

    @property
    def key(self) -> str:
        """The translation key of the button label (``traitors.console.<name>``)."""
        return "traitors.console." + self.name.lower()

    @property
    def title(self) -> str:
        """The English button label."""
        return CONTROL_TITLES[self]


_CONTROL_PHASE: dict[HostControl, Phase] = {
    HostControl.OPEN_ROUND_TABLE: Phase.DISCUSSION,
    HostControl.OPEN_VOTE: Phase.ROUND_TABLE,
    HostControl.CLOSE_VOTE: Phase.VOTE,
    HostControl.LOCK_TORCHES: Phase.TORCHES,
    HostControl.ASK_HAPPY: Phase.TORCHES,
}

CONTROL_TITLES: dict[HostControl, str] = {
    HostControl.ADVANCE: "Start the day / move on",
    HostControl.OPEN_ROUND_TABLE: "Open the round table",
    HostControl.OPEN_VOTE: "Open the vote",
    HostControl.CLOSE_VOTE: "Close the vote",
    HostControl.LOCK_TORCHES: "Lock the vote",
    HostControl.START_TWIST: "Start a twist",
    HostControl.CANCEL_TWIST: "Cancel a twist",
    HostControl.PAUSE_CLOCK: "Pause the clock",
    HostControl.RESUME_CLOCK: "Resume the clock",
    HostControl.END_SERIES: "End the series",
    HostControl.EXTEND_PHASE: "Add a minute",
    HostControl.REPLACE_CONTESTANT: "Replace a contestant",
    HostControl.UNDO: "Undo the last host action",
    HostControl.ASK_HAPPY: "Ask: is everybody happy?",
}
"""English labels of the console buttons (the dialog ``datapack/data/traitors/dialog/host/console.json``)."""


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
