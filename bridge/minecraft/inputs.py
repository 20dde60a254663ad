"""Trigger inputs both ways: engine Action ⇄ (trigger objective, value) (``docs/minecraft.md#player-input``;
``docs/design.md``).

A contestant clicks a chat link or dialog button → ``/trigger traitors.<input> set N`` → the datapack's tick
function appends ``{seq, uuid, input, value}`` to ``storage traitors:io queue`` → the bridge reads it, looks the
UUID up (``bridge.io.players``) and ``decode`` turns the entry (with ``player`` = the name) into an engine
``Action`` or one of the bridge-level inputs below. ``encode``/``trigger_command`` go the other way, for the
buttons and click events of a prompt.

The trigger table (every objective has criterion ``trigger``; a seat is 1-based, as on the round table):

=====================  =====================================  ===================================
objective              value                                  engine action
=====================  =====================================  ===================================
``traitors.vote``      seat of the target                     ``CastVote(voter, target)``
``traitors.oath``      1 = answer the current Oath question   ``SwearOath(traitor)``
``traitors.murder``    seat of the target                     ``ChooseEvent(traitor, MURDER, t)``
``traitors.seduce``    seat of the target                     ``ChooseEvent(traitor, SEDUCE, t)``
``traitors.ultimatum`` seat of the target                     ``ChooseEvent(traitor, ULTIMATUM, t)``
``traitors.nominate``  seat of the target                     ``NominateDoubleVote(traitor, t)``
``traitors.offer``     1 accept, 2 decline                    ``AnswerOffer(contestant, accept)``
``traitors.torch``     1 banish again, 2 end game             ``ChooseTorch(finalist, torch)``
``traitors.power``     seat of the target                     ``UsePower(contestant, target)``
``traitors.power2``    100 × first seat + second seat         ``UsePower(contestant, a, b)`` (Analyst)
``traitors.pass``      1 = do not use the power tonight       ``SkipPower(contestant)``
``traitors.joker``     1 accept, 2 decline                    ``AnswerJoker(contestant, accept)``
``traitors.candidate`` seat of the target                     ``NominateCandidate(contestant, t)``
``traitors.holdback``  1 = put nobody forward                 ``HoldBack(contestant)``
``traitors.keep``      1 = keep everyone                      ``KeepEveryone(voter)``
``traitors.repeat``    1 ask for a repeat, 2 do not           ``AskRepeat(contestant, ask)``
``traitors.host``      1 = move on (start the day, advance)   ``Advance(host)``
``traitors.host``      2..13: a ``HostControl``               ``HostCommand(host, control)``
``traitors.host``      101..116: seat 1..16 for a new player  ``HostCommand(host, REPLACE_CONTESTANT, seat)``
``traitors.console``   any                                    ``OpenConsole(player)``
``traitors.bearer``    seat of the Traitor                    ``ChooseSwordBearer(traitor, t)``
``traitors.chest``     1 = open a confession chest            ``OpenChest(contestant)``
``traitors.confess``   1 = send the held confession book      ``SendBook(player, "confess")``
``traitors.respond``   1 = send the held response draft       ``SendBook(player, "respond")``
``traitors.guess``     100 × seat + power number (0: seat     ``GuessPower(guesser, t, power)``
                       only, the power is asked next)
``traitors.nominee``   seat of the nominee                    ``VoteNominee(voter, t)``
``traitors.seer``      seat of the target                     ``AskSeer(seer, t)``
``traitors.trial``     seat of the target                     ``PutOnTrial(traitor, t)``
``traitors.drink``     1 Faithful Fancy, 2 Traitors' Tipple   ``TakeDrink(contestant, drink)``
``traitors.twist``     twist number (start) or 100 + number   ``StartTwist`` / ``CancelTwist`` (host)
                       (cancel)
(event) ``sword_hit``  1 (advancement ``traitors:sword/hit``) ``SwordHit(player, struck=False)``
(event) ``sword_struck`` 1 (``traitors:sword/struck``, with   ``SwordHit(player, struck=True,
                       the attacker's UUID as ``attacker``)   attacker=…)``
=====================  =====================================  ===================================

Power numbers (``traitors.guess``) are the 1-based positions in ``engine.rulesets.traitors.twists.guess.GUESSABLE``; twist numbers
(``traitors.twist``) the 1-based positions in ``engine.ids.Twist``.

The Sacred Sword: the struck player's advancement reward records the attacker (``execute on attacker``), so one
queue entry names both players and the service turns it into ``StrikeWithSword(attacker, victim)``. An entry
without an attacker (an older data pack) is paired with the ``sword_hit`` entry queued just before it.

Books: ``SendBook`` makes the service read the contestant's inventory over RCON (``data get entity <name>
Inventory``), take the text of the castle book of that kind, and apply ``WriteConfession`` / ``WriteResponse``.

The Analyst names two contestants in one click: ``traitors.power2`` packs both seats in one value (seats are
1–16, so ``100 × a + b`` is unambiguous), so one queued entry is still one engine input.

Host controls other than "move on" are checked by the service: only a configured host (``Settings.hosts``) may
use them (anyone else is told "Only the host can do that."); 2–5 are "move on" restricted to the phase they
name; start/cancel a twist open a list of twists (``traitors.twist``); 8–13 are the engine's host inputs
(pause, resume, end, extend by ``EXTEND_STEP`` seconds, replace, undo; docs/host.md).
Replacing takes two steps: the host picks the seat (a prompt whose buttons send ``SEAT_BASE + seat``), then the
new player opens the console (``/trigger traitors.console``) and takes the seat.

Decoding checks only the shape (known input, a player name, a value that means something); whether the
action is allowed now is the engine's business (``IllegalAction``). Trigger objectives carry input only,
never a secret (``docs/design.md#hidden-information``).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    AskRepeat,
    AskSeer,
    CancelTwist,
    CastVote,
    ChooseEvent,
    ChooseSwordBearer,
    ChooseTorch,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    GuessPower,
    NominateDoubleVote,
    OpenChest,
    PutOnTrial,
    ReplaceContestant,
    SkipPower,
    StartTwist,
    SwearOath,
    TakeDrink,
    UsePower,
    VoteNominee,
    WriteConfession,
    WriteResponse,
)
from engine.effects import Message
from engine.ids import Drink, NightEvent, Torch, Twist
from engine.rulesets.traitors.phases import Phase

PREFIX = "traitors."

VOTE = "traitors.vote"
OATH = "traitors.oath"
MURDER = "traitors.murder"
SEDUCE = "traitors.seduce"
ULTIMATUM = "traitors.ultimatum"
NOMINATE = "traitors.nominate"
OFFER = "traitors.offer"
TORCH = "traitors.torch"
HOST = "traitors.host"
POWER = "traitors.power"
POWER2 = "traitors.power2"
PASS = "traitors.pass"
JOKER = "traitors.joker"
CANDIDATE = "traitors.candidate"
HOLDBACK = "traitors.holdback"
KEEP = "traitors.keep"
REPEAT = "traitors.repeat"
PAIR = 100
"""``traitors.power2`` value = ``PAIR`` × first seat + second seat."""
SEAT_BASE = 100
"""``traitors.host`` value ``SEAT_BASE + seat``: the host chose that seat for a new player."""
EXTEND_STEP = 60
"""Seconds one press of "Add a minute" adds to the phase clock."""

CONSOLE = "traitors.console"
BEARER = "traitors.bearer"
CHEST = "traitors.chest"
CONFESS = "traitors.confess"
RESPOND = "traitors.respond"
GUESS = "traitors.guess"
NOMINEE = "traitors.nominee"
SEER = "traitors.seer"
TRIAL = "traitors.trial"
DRINK = "traitors.drink"
TWIST = "traitors.twist"
CANCEL = 100
"""``traitors.twist`` value = ``CANCEL`` + twist number cancels that twist."""

TRIGGERS: tuple[str, ...] = (
    VOTE, OATH, MURDER, SEDUCE, ULTIMATUM, NOMINATE, OFFER, TORCH, POWER, POWER2, PASS, JOKER, HOST, CONSOLE,
    CANDIDATE, HOLDBACK, KEEP, REPEAT,
    BEARER, CHEST, CONFESS, RESPOND, GUESS, NOMINEE, SEER, TRIAL, DRINK, TWIST,
)  # fmt: skip
"""Every trigger objective the datapack and the bridge use, in table order."""

EVENTS: tuple[str, ...] = ("sword_hit", "sword_struck")
"""Queue inputs that are not triggers (written by the datapack's advancement rewards)."""


class HostControl(enum.Enum):
    """A button of the host's console: the value of ``/trigger traitors.host set <value>``.

    ``phase`` is the phase a "move on" control is meant for (``None``: any phase, or not a "move on").
    ``available`` is False for controls the engine does not support yet.
    """

    ADVANCE = 1
    OPEN_ROUND_TABLE = 2
    OPEN_VOTE = 3
    CLOSE_VOTE = 4
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
}

CONTROL_TITLES: dict[HostControl, str] = {
    HostControl.ADVANCE: "Start the day / move on",
    HostControl.OPEN_ROUND_TABLE: "Open the round table",
    HostControl.OPEN_VOTE: "Open the vote",
    HostControl.CLOSE_VOTE: "Close the vote",
    HostControl.LOCK_TORCHES: "Lock the torches",
    HostControl.START_TWIST: "Start a twist",
    HostControl.CANCEL_TWIST: "Cancel a twist",
    HostControl.PAUSE_CLOCK: "Pause the clock",
    HostControl.RESUME_CLOCK: "Resume the clock",
    HostControl.END_SERIES: "End the series",
    HostControl.EXTEND_PHASE: "Add a minute",
    HostControl.REPLACE_CONTESTANT: "Replace a contestant",
    HostControl.UNDO: "Undo the last host action",
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


BridgeInput = HostCommand | OpenConsole | SwordHit | SendBook
"""Queue inputs the service handles itself (they are not engine actions)."""

TRIGGER_TITLES: dict[str, str] = {
    VOTE: "Vote",
    OATH: "Oath",
    MURDER: "Murder",
    SEDUCE: "Seduce",
    ULTIMATUM: "Ultimatum",
    NOMINATE: "Nominate",
    OFFER: "Offer",
    TORCH: "Torch",
    POWER: "Power",
    POWER2: "Power",
    PASS: "Pass",
    JOKER: "Joker",
    HOST: "Host",
    CONSOLE: "Host console",
    CANDIDATE: "Candidate",
    HOLDBACK: "Hold back",
    KEEP: "Keep everyone",
    REPEAT: "Repeat the vote",
    BEARER: "Sword bearer",
    CHEST: "Chest",
    CONFESS: "Confession",
    RESPOND: "Response",
    GUESS: "Guess",
    NOMINEE: "Nominee",
    SEER: "Seer",
    TRIAL: "Trial",
    DRINK: "Drink",
    TWIST: "Twist",
}
"""Display names of the objectives (shown in vanilla's trigger feedback to the one player who triggered)."""

_EVENT_TRIGGER: dict[NightEvent, str] = {
    NightEvent.MURDER: MURDER,
    NightEvent.SEDUCE: SEDUCE,
    NightEvent.ULTIMATUM: ULTIMATUM,
}
_TRIGGER_EVENT = {v: k for k, v in _EVENT_TRIGGER.items()}
_TORCH_VALUE: dict[Torch, int] = {Torch.BANISH_AGAIN: 1, Torch.END_GAME: 2}
_VALUE_TORCH = {v: k for k, v in _TORCH_VALUE.items()}
_DRINKS: tuple[Drink, ...] = tuple(Drink)
_TWISTS: tuple[Twist, ...] = tuple(Twist)


def _guessable() -> tuple[Any, ...]:
    from engine.rulesets.traitors.twists.guess import GUESSABLE

    return GUESSABLE

_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,16}")


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


def _seat_of(name: str, seats: Mapping[str, int]) -> int:
    seat = seats.get(name)
    if seat is None:
        raise InputError("illegal.unknown_player", player=name)
    return seat


def encode(action: Action, seats: Mapping[str, int]) -> tuple[str, int]:
    """The trigger (objective, value) that sends ``action``.

    Args:
        action: a contestant or host action from ``engine.actions``.
        seats: contestant name → seat number (1-based).

    Returns:
        ``(objective, value)``, e.g. ``("traitors.vote", 3)``.

    Raises:
        InputError: the target has no seat.
        TypeError: the action is not sent by a trigger (``TimerExpired``).
    """
    if isinstance(action, CastVote):
        return VOTE, _seat_of(action.target, seats)
    if isinstance(action, SwearOath):
        return OATH, 1
    if isinstance(action, ChooseEvent):
        return _EVENT_TRIGGER[action.event], _seat_of(action.target, seats)
    if isinstance(action, NominateDoubleVote):
        return NOMINATE, _seat_of(action.target, seats)
    if isinstance(action, AnswerOffer):
        return OFFER, 1 if action.accept else 2
    if isinstance(action, ChooseTorch):
        return TORCH, _TORCH_VALUE[action.torch]
    if isinstance(action, UsePower):
        if action.second is None:
            return POWER, _seat_of(action.target, seats)
        return POWER2, PAIR * _seat_of(action.target, seats) + _seat_of(action.second, seats)
    if isinstance(action, SkipPower):
        return PASS, 1
    if isinstance(action, AnswerJoker):
        return JOKER, 1 if action.accept else 2
    if isinstance(action, NominateCandidate):
        return CANDIDATE, _seat_of(action.target, seats)
    if isinstance(action, HoldBack):
        return HOLDBACK, 1
    if isinstance(action, KeepEveryone):
        return KEEP, 1
    if isinstance(action, AskRepeat):
        return REPEAT, 1 if action.ask else 2
    if isinstance(action, Advance):
        return HOST, 1
    if isinstance(action, ChooseSwordBearer):
        return BEARER, _seat_of(action.target, seats)
    if isinstance(action, OpenChest):
        return CHEST, 1
    if isinstance(action, WriteConfession):
        return CONFESS, 1
    if isinstance(action, WriteResponse):
        return RESPOND, 1
    if isinstance(action, GuessPower):
        number = 0 if action.power is None else _guessable().index(action.power) + 1
        return GUESS, PAIR * _seat_of(action.target, seats) + number
    if isinstance(action, VoteNominee):
        return NOMINEE, _seat_of(action.target, seats)
    if isinstance(action, AskSeer):
        return SEER, _seat_of(action.target, seats)
    if isinstance(action, PutOnTrial):
        return TRIAL, _seat_of(action.target, seats)
    if isinstance(action, TakeDrink):
        return DRINK, _DRINKS.index(action.drink) + 1
    if isinstance(action, StartTwist):
        return TWIST, _TWISTS.index(action.twist) + 1
    if isinstance(action, CancelTwist):
        return TWIST, CANCEL + _TWISTS.index(action.twist) + 1
    if isinstance(action, ReplaceContestant):
        return HOST, SEAT_BASE + _seat_of(action.contestant, seats)
    raise TypeError(f"{type(action).__name__} is not sent by a trigger")


def trigger_command(action: Action, seats: Mapping[str, int]) -> str:
    """The chat command a click event runs for ``action``: ``/trigger <objective> set <value>``.

    Raises:
        InputError, TypeError: as ``encode``.
    """
    objective, value = encode(action, seats)
    return f"/trigger {objective} set {value}"


def decode(entry: Mapping[str, Any], seats: Mapping[str, int]) -> Action | BridgeInput:
    """Turn one queued input entry into an engine action (or a bridge-level input).

    Args:
        entry: ``{"seq": int, "player": str, "input": "vote", "value": 3}``: the queue entry with its ``uuid``
            already resolved to ``player`` (``input`` is the objective without the ``traitors.`` prefix;
            nbtlib ``Int``/``String`` values are fine).
        seats: contestant name → seat number (1-based).

    Returns:
        The action (or ``HostCommand``/``OpenConsole``/``SwordHit``), with ``entry["player"]`` as its actor.

    Raises:
        InputError: missing fields, a bad player name, an unknown input, a value that means nothing for that
            input, or a seat with nobody in it.
    """
    if not isinstance(entry, Mapping) or not {"player", "input", "value"} <= set(entry):
        raise InputError("invalid.action.fields", kind="trigger", fields="player, input, value")
    player = entry["player"]
    if not isinstance(player, str) or not _NAME_RE.fullmatch(player):
        raise InputError("invalid.action.value", field="player", value=str(player))
    player = str(player)
    name = entry["input"]
    if not isinstance(name, str):
        raise InputError("invalid.action.kind", kind=str(name))
    objective = PREFIX + str(name)
    if objective not in TRIGGERS and name not in EVENTS:
        raise InputError("invalid.action.kind", kind=str(name))
    value = entry["value"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError("invalid.action.value", field=str(name), value=str(value))
    value = int(value)

    def bad() -> InputError:
        return InputError("invalid.action.value", field=str(name), value=str(value))

    def target(seat_value: int | None = None) -> str:
        wanted = value if seat_value is None else seat_value
        for contestant, seat in seats.items():
            if seat == wanted:
                return contestant
        raise bad()

    if objective == VOTE:
        return CastVote(actor=player, target=target())
    if objective == OATH:
        if value != 1:
            raise bad()
        return SwearOath(actor=player)
    if objective in _TRIGGER_EVENT:
        return ChooseEvent(actor=player, event=_TRIGGER_EVENT[objective], target=target())
    if objective == NOMINATE:
        return NominateDoubleVote(actor=player, target=target())
    if objective == OFFER:
        if value not in (1, 2):
            raise bad()
        return AnswerOffer(actor=player, accept=value == 1)
    if objective == TORCH:
        if value not in _VALUE_TORCH:
            raise bad()
        return ChooseTorch(actor=player, torch=_VALUE_TORCH[value])
    if objective == POWER:
        return UsePower(actor=player, target=target())
    if objective == POWER2:
        return UsePower(actor=player, target=target(value // PAIR), second=target(value % PAIR))
    if objective == PASS:
        if value != 1:
            raise bad()
        return SkipPower(actor=player)
    if objective == JOKER:
        if value not in (1, 2):
            raise bad()
        return AnswerJoker(actor=player, accept=value == 1)
    if objective == CANDIDATE:
        return NominateCandidate(actor=player, target=target())
    if objective in (HOLDBACK, KEEP):
        if value != 1:
            raise bad()
        return HoldBack(actor=player) if objective == HOLDBACK else KeepEveryone(actor=player)
    if objective == REPEAT:
        if value not in (1, 2):
            raise bad()
        return AskRepeat(actor=player, ask=value == 1)
    if objective == CONSOLE:
        return OpenConsole(player)
    if name in EVENTS:
        return SwordHit(player, struck=name == "sword_struck", attacker=entry.get("attacker"))
    if objective == BEARER:
        return ChooseSwordBearer(actor=player, target=target())
    if objective == CHEST:
        if value != 1:
            raise bad()
        return OpenChest(actor=player)
    if objective in (CONFESS, RESPOND):
        if value != 1:
            raise bad()
        return SendBook(player, "confess" if objective == CONFESS else "respond")
    if objective == GUESS:
        number = value % PAIR
        powers = _guessable()
        if number > len(powers):
            raise bad()
        return GuessPower(actor=player, target=target(value // PAIR), power=powers[number - 1] if number else None)
    if objective == NOMINEE:
        return VoteNominee(actor=player, target=target())
    if objective == SEER:
        return AskSeer(actor=player, target=target())
    if objective == TRIAL:
        return PutOnTrial(actor=player, target=target())
    if objective == DRINK:
        if not 1 <= value <= len(_DRINKS):
            raise bad()
        return TakeDrink(actor=player, drink=_DRINKS[value - 1])
    if objective == TWIST:
        cancel = value > CANCEL
        number = value - CANCEL if cancel else value
        if not 1 <= number <= len(_TWISTS):
            raise bad()
        twist = _TWISTS[number - 1]
        return CancelTwist(actor=player, twist=twist) if cancel else StartTwist(actor=player, twist=twist)
    # HOST
    if SEAT_BASE < value <= SEAT_BASE + 16:
        target(value - SEAT_BASE)
        return HostCommand(player, HostControl.REPLACE_CONTESTANT, seat=value - SEAT_BASE)
    try:
        control = HostControl(value)
    except ValueError:
        raise bad() from None
    if control is HostControl.ADVANCE:
        return Advance(actor=player)
    return HostCommand(player, control)
