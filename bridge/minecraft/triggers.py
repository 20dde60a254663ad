"""The trigger table: every trigger objective of the data pack, what its values mean, both ways
(``docs/minecraft.md#player-input``; ``docs/design.md``).

A contestant clicks a chat link or dialog button → ``/trigger traitors.<input> set N`` → the data pack's tick
function appends ``{seq, uuid, input, value}`` to ``storage traitors:io queue`` → the bridge reads it, looks the
UUID up (``bridge.io.players``) and ``decode`` turns the entry (with ``player`` = the name) into an engine
``Action`` or a bridge-level input (``bridge.minecraft.inputs``). ``encode``/``trigger_command`` go the other way,
for the buttons and click events of a prompt.

``TABLE`` is the one list of triggers. Everything else is read from it: ``decode`` (a lookup by input name),
``encode`` (a lookup by action type, ``ENCODERS``), the objective titles (``TRIGGER_TITLES``), the set-up
commands (``bridge.minecraft.render.setup_commands``) and the data pack's trigger functions, which
``traitors install-datapack`` writes (``pack_functions``: ``traitors:input/objectives`` creates the objectives,
``traitors:input/player`` enables and captures them every tick).

The table (every objective has criterion ``trigger``; a seat is 1-based, as on the round table):

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
``traitors.host``      1 = move on (start the day, advance)   ``Advance(host)``
``traitors.host``      2..14: a ``HostControl``               ``HostCommand(host, control)``
``traitors.host``      101..116: seat 1..16 for a new player  ``HostCommand(host, REPLACE_CONTESTANT, seat)``
``traitors.console``   any                                    ``OpenConsole(player)``
``traitors.candidate`` seat of the target                     ``NominateCandidate(contestant, t)``
``traitors.holdback``  1 = put nobody forward                 ``HoldBack(contestant)``
``traitors.keep``      1 = keep everyone                      ``KeepEveryone(voter)``
``traitors.repeat``    1 ask for a repeat, 2 do not           ``AskRepeat(contestant, ask)``
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
``traitors.signup``    1 sign up, 2 withdraw, 3 show the      ``LobbyPress(player, …)`` (the lobby,
                       lobby                                  between series)
``traitors.withdraw``  any                                    ``LobbyPress(player, WITHDRAW)`` (typed)
``traitors.lobby``     1 lobby console, 2 draw the cast, 3    ``LobbyPress(host, …)`` (the lobby's host
                       start, 4 clear the cast; 100 + k:      controls)
                       seat the k-th sign-up
(event) ``sword_hit``  1 (advancement ``traitors:sword/hit``) ``SwordHit(player, struck=False)``
(event) ``sword_struck`` 1 (``traitors:sword/struck``, with   ``SwordHit(player, struck=True,
                       the attacker's UUID as ``attacker``)   attacker=…)``
=====================  =====================================  ===================================

Power numbers (``traitors.guess``) are the 1-based positions in ``engine.rulesets.traitors.twists.guess.GUESSABLE``;
twist numbers (``traitors.twist``) are fixed by the twist's key in ``TWIST_NUMBERS`` (a new twist appends a row).

The Sacred Sword: the struck player's advancement reward records the attacker (``execute on attacker``), so one
queue entry names both players and the service turns it into ``StrikeWithSword(attacker, victim)``. An entry
without an attacker (an older data pack) is paired with the ``sword_hit`` entry queued just before it.

Books: ``SendBook`` makes the service read the contestant's inventory over RCON (``data get entity <name>
Inventory``), take the text of the castle book of that kind, and apply ``WriteConfession`` / ``WriteResponse``.

The Analyst names two contestants in one click: ``traitors.power2`` packs both seats in one value (seats are
1–16, so ``100 × a + b`` is unambiguous), so one queued entry is still one engine input.

Host controls (``bridge.minecraft.inputs.HostControl``) other than "move on" are checked by the service.
Replacing takes two steps: the host picks the seat (a prompt whose buttons send ``SEAT_BASE + seat``), then the
new player opens the console (``/trigger traitors.console``) and takes the seat.

Decoding checks only the shape (known input, a player name, a value that means something); whether the
action is allowed now is the engine's business (``IllegalAction``). Trigger objectives carry input only,
never a secret (``docs/design.md#hidden-information``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bridge.minecraft.inputs import (
    BridgeInput,
    HostCommand,
    HostControl,
    InputError,
    LobbyControl,
    LobbyPress,
    OpenConsole,
    SendBook,
    SwordHit,
)
from bridge.minecraft.scoreboard import objective_add_trigger
from bridge.minecraft.text import translated
from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    AskHappy,
    AskRepeat,
    AskSeer,
    CancelTwist,
    CastVote,
    ChooseEvent,
    ChooseSwordBearer,
    ChooseTorch,
    GuessPower,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
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
from engine.ids import Drink, NightEvent, Torch, Twist
from engine.rulesets.traitors.twists import INPUTS as TWIST_INPUTS
from engine.rulesets.traitors.twists.guess import GUESSABLE

Seats = Mapping[str, int]
"""Contestant name → seat number (1-based)."""

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
SIGNUP = "traitors.signup"
WITHDRAW = "traitors.withdraw"
LOBBY = "traitors.lobby"

PAIR = 100
"""``traitors.power2`` value = ``PAIR`` × first seat + second seat (``traitors.guess``: × seat + power)."""
SEAT_BASE = 100
"""``traitors.host`` value ``SEAT_BASE + seat``: the host chose that seat for a new player."""
CANCEL = 100
"""``traitors.twist`` value = ``CANCEL`` + twist number cancels that twist."""
MAX_SEATS = 16
"""The most seats a round table has (host values ``SEAT_BASE + 1`` .. ``SEAT_BASE + MAX_SEATS``)."""

_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,16}")
_TORCHES: dict[int, Torch] = {1: Torch.BANISH_AGAIN, 2: Torch.END_GAME}
_TORCH_VALUE = {v: k for k, v in _TORCHES.items()}
_DRINKS: tuple[Drink, ...] = tuple(Drink)
TWIST_NUMBERS: dict[str, int] = {"double_vote": 1, "murder": 2, "confession": 3, "guess": 4, "seer": 5, "trial": 6}
"""``traitors.twist``: a twist's key (``Twist.value``) → its number. Numbers are written into installed data packs
and books already handed out, so a row never changes: a new twist appends its key with the next number."""


def _twist_by_number(p: Press, number: int) -> Twist:
    """The twist numbered ``number`` (``TWIST_NUMBERS``).

    Raises:
        InputError: no twist has that number (or its twist is not known to this engine).
    """
    for key, n in TWIST_NUMBERS.items():
        if n == number:
            try:
                return Twist(key)
            except ValueError:
                break
    raise p.bad()


def _twist_number(twist: Twist) -> int:
    """A twist's number (``TWIST_NUMBERS``); ``KeyError`` for a twist that has none."""
    return TWIST_NUMBERS[twist.value]


def input_dialog_title(action: Action) -> str | None:
    """The dialog title key a twist's spec gives ``action``'s input (``TwistInput.dialog_title``); ``None`` for an
    input no twist takes or whose spec gives none."""
    spec = TWIST_INPUTS.get(type(action))
    return spec.dialog_title or None if spec is not None else None


def input_labels(action: Action) -> tuple[str, ...]:
    """The catalogue keys a twist's spec gives the choices of ``action``'s input (``TwistInput.labels``)."""
    spec = TWIST_INPUTS.get(type(action))
    return spec.labels if spec is not None else ()


# --------------------------------------------------------------------------------------------------------------
# Decoding one press


@dataclass(frozen=True, slots=True)
class Press:
    """One queued press being decoded.

    Attributes:
        player: who pressed (a valid player name).
        input: the input name (the objective without ``traitors.``, or an event name).
        value: the trigger value.
        seats: contestant name → seat.
        attacker: the ``attacker`` field of a ``sword_struck`` entry (``None`` when absent).
    """

    player: str
    input: str
    value: int
    seats: Seats
    attacker: Any = None

    def bad(self) -> InputError:
        """The error for a value that means nothing for this input."""
        return InputError("invalid.action.value", field=self.input, value=str(self.value))

    def flag(self, *allowed: int) -> int:
        """The value, when it is one of ``allowed``.

        Raises:
            InputError: any other value.
        """
        if self.value not in allowed:
            raise self.bad()
        return self.value

    def target(self, seat: int | None = None) -> str:
        """The contestant in ``seat`` (default: the value).

        Raises:
            InputError: nobody sits there.
        """
        wanted = self.value if seat is None else seat
        for contestant, taken in self.seats.items():
            if taken == wanted:
                return contestant
        raise self.bad()

    def number(self, value: int, count: int) -> int:
        """``value`` as a 0-based index into a list of ``count`` (values are 1-based).

        Raises:
            InputError: ``value`` is outside 1..count.
        """
        if not 1 <= value <= count:
            raise self.bad()
        return value - 1


Decoder = Callable[[Press], Action | BridgeInput]
"""Turns one press of a trigger into its input (raising ``InputError`` for a value that means nothing)."""


def _vote(p: Press) -> Action:
    return CastVote(actor=p.player, target=p.target())


def _oath(p: Press) -> Action:
    p.flag(1)
    return SwearOath(actor=p.player)


def _murder(p: Press) -> Action:
    return ChooseEvent(actor=p.player, event=NightEvent.MURDER, target=p.target())


def _seduce(p: Press) -> Action:
    return ChooseEvent(actor=p.player, event=NightEvent.SEDUCE, target=p.target())


def _ultimatum(p: Press) -> Action:
    return ChooseEvent(actor=p.player, event=NightEvent.ULTIMATUM, target=p.target())


def _nominate(p: Press) -> Action:
    return NominateDoubleVote(actor=p.player, target=p.target())


def _offer(p: Press) -> Action:
    return AnswerOffer(actor=p.player, accept=p.flag(1, 2) == 1)


def _torch(p: Press) -> Action:
    return ChooseTorch(actor=p.player, torch=_TORCHES[p.flag(*_TORCHES)])


def _power(p: Press) -> Action:
    return UsePower(actor=p.player, target=p.target())


def _power2(p: Press) -> Action:
    return UsePower(actor=p.player, target=p.target(p.value // PAIR), second=p.target(p.value % PAIR))


def _pass(p: Press) -> Action:
    p.flag(1)
    return SkipPower(actor=p.player)


def _joker(p: Press) -> Action:
    return AnswerJoker(actor=p.player, accept=p.flag(1, 2) == 1)


def _host(p: Press) -> Action | BridgeInput:
    if SEAT_BASE < p.value <= SEAT_BASE + MAX_SEATS:
        p.target(p.value - SEAT_BASE)
        return HostCommand(p.player, HostControl.REPLACE_CONTESTANT, seat=p.value - SEAT_BASE)
    try:
        control = HostControl(p.value)
    except ValueError:
        raise p.bad() from None
    if control is HostControl.ADVANCE:
        return Advance(actor=p.player, button="advance")  # the record names the button (engine.core.host)
    return HostCommand(p.player, control)


def _console(p: Press) -> BridgeInput:
    return OpenConsole(p.player)


def _candidate(p: Press) -> Action:
    return NominateCandidate(actor=p.player, target=p.target())


def _holdback(p: Press) -> Action:
    p.flag(1)
    return HoldBack(actor=p.player)


def _keep(p: Press) -> Action:
    p.flag(1)
    return KeepEveryone(actor=p.player)


def _repeat(p: Press) -> Action:
    return AskRepeat(actor=p.player, ask=p.flag(1, 2) == 1)


def _bearer(p: Press) -> Action:
    return ChooseSwordBearer(actor=p.player, target=p.target())


def _chest(p: Press) -> Action:
    p.flag(1)
    return OpenChest(actor=p.player)


def _confess(p: Press) -> BridgeInput:
    p.flag(1)
    return SendBook(p.player, "confess")


def _respond(p: Press) -> BridgeInput:
    p.flag(1)
    return SendBook(p.player, "respond")


def _guess(p: Press) -> Action:
    number = p.value % PAIR
    if number > len(GUESSABLE):
        raise p.bad()
    power = GUESSABLE[number - 1] if number else None
    return GuessPower(actor=p.player, target=p.target(p.value // PAIR), power=power)


def _nominee(p: Press) -> Action:
    return VoteNominee(actor=p.player, target=p.target())


def _seer(p: Press) -> Action:
    return AskSeer(actor=p.player, target=p.target())


def _trial(p: Press) -> Action:
    return PutOnTrial(actor=p.player, target=p.target())


def _drink(p: Press) -> Action:
    return TakeDrink(actor=p.player, drink=_DRINKS[p.number(p.value, len(_DRINKS))])


def _twist(p: Press) -> Action:
    if p.value > CANCEL:
        return CancelTwist(actor=p.player, twist=_twist_by_number(p, p.value - CANCEL))
    return StartTwist(actor=p.player, twist=_twist_by_number(p, p.value))


SIGNUP_VALUES: dict[int, LobbyControl] = {1: LobbyControl.SIGN_UP, 2: LobbyControl.WITHDRAW, 3: LobbyControl.SHOW}
"""``traitors.signup`` value → what the player asks (``/trigger traitors.signup`` alone adds 1: signs up)."""
LOBBY_VALUES: dict[int, LobbyControl] = {1: LobbyControl.CONSOLE, 2: LobbyControl.DRAW, 3: LobbyControl.START,
                                         4: LobbyControl.CLEAR}  # fmt: skip
"""``traitors.lobby`` value → the host's lobby control (``PICK_BASE + k``: seat the k-th sign-up)."""
PICK_BASE = 100
"""``traitors.lobby`` value ``PICK_BASE + k`` seats the k-th sign-up (k = 1 … ``MAX_SIGNUPS``)."""
MAX_SIGNUPS = 64
"""The most sign-ups a lobby lists (a castle never seats more than ``MAX_SEATS``; the rest wait as stand-bys)."""


def _signup(p: Press) -> BridgeInput:
    return LobbyPress(p.player, SIGNUP_VALUES[p.flag(*SIGNUP_VALUES)])


def _withdraw(p: Press) -> BridgeInput:
    return LobbyPress(p.player, LobbyControl.WITHDRAW)


def _lobby(p: Press) -> BridgeInput:
    if PICK_BASE < p.value <= PICK_BASE + MAX_SIGNUPS:
        return LobbyPress(p.player, LobbyControl.PICK, p.value - PICK_BASE)
    return LobbyPress(p.player, LOBBY_VALUES[p.flag(*LOBBY_VALUES)])


def lobby_command(control: LobbyControl, index: int | None = None) -> str:
    """The ``/trigger`` command of a lobby button (a player's or the host's).

    Raises:
        ValueError: ``PICK`` without an index in 1..``MAX_SIGNUPS``.
    """
    for value, c in SIGNUP_VALUES.items():
        if c is control:
            return f"/trigger {SIGNUP} set {value}"
    if control is LobbyControl.PICK:
        if index is None or not 1 <= index <= MAX_SIGNUPS:
            raise ValueError(f"pick needs a sign-up number 1..{MAX_SIGNUPS}, not {index}")
        return f"/trigger {LOBBY} set {PICK_BASE + index}"
    value = next(v for v, c in LOBBY_VALUES.items() if c is control)
    return f"/trigger {LOBBY} set {value}"


def _sword_hit(p: Press) -> BridgeInput:
    return SwordHit(p.player, struck=False, attacker=p.attacker)


def _sword_struck(p: Press) -> BridgeInput:
    return SwordHit(p.player, struck=True, attacker=p.attacker)


# --------------------------------------------------------------------------------------------------------------
# The table


@dataclass(frozen=True, slots=True)
class Trigger:
    """One trigger objective of the data pack.

    Attributes:
        objective: the objective name, ``traitors.<input>``.
        title: its English display name (vanilla shows it in the trigger feedback to the one player who pressed;
            translated by the resource pack as ``traitors.trigger.<input>``).
        decode: turns a press of this trigger into an engine action or a bridge-level input.
    """

    objective: str
    title: str
    decode: Decoder

    @property
    def input(self) -> str:
        """The input name the data pack queues: the objective without ``traitors.``."""
        return self.objective.removeprefix(PREFIX)

    @property
    def key(self) -> str:
        """The translation key of the title (``traitors.trigger.<input>``)."""
        return "traitors.trigger." + self.input


TABLE: tuple[Trigger, ...] = (
    Trigger(VOTE, "Vote", _vote),
    Trigger(OATH, "Oath", _oath),
    Trigger(MURDER, "Murder", _murder),
    Trigger(SEDUCE, "Seduce", _seduce),
    Trigger(ULTIMATUM, "Ultimatum", _ultimatum),
    Trigger(NOMINATE, "Nominate", _nominate),
    Trigger(OFFER, "Offer", _offer),
    Trigger(TORCH, "Torch", _torch),
    Trigger(POWER, "Power", _power),
    Trigger(POWER2, "Power", _power2),
    Trigger(PASS, "Pass", _pass),
    Trigger(JOKER, "Joker", _joker),
    Trigger(HOST, "Host", _host),
    Trigger(CONSOLE, "Host console", _console),
    Trigger(CANDIDATE, "Candidate", _candidate),
    Trigger(HOLDBACK, "Hold back", _holdback),
    Trigger(KEEP, "Keep everyone", _keep),
    Trigger(REPEAT, "Repeat the vote", _repeat),
    Trigger(BEARER, "Sword bearer", _bearer),
    Trigger(CHEST, "Chest", _chest),
    Trigger(CONFESS, "Confession", _confess),
    Trigger(RESPOND, "Response", _respond),
    Trigger(GUESS, "Guess", _guess),
    Trigger(NOMINEE, "Nominee", _nominee),
    Trigger(SEER, "Seer", _seer),
    Trigger(TRIAL, "Trial", _trial),
    Trigger(DRINK, "Drink", _drink),
    Trigger(TWIST, "Twist", _twist),
    Trigger(SIGNUP, "Sign up", _signup),
    Trigger(WITHDRAW, "Withdraw", _withdraw),
    Trigger(LOBBY, "Lobby", _lobby),
)
"""Every trigger objective the data pack and the bridge use, in table order (the order of the pack's functions)."""

TRIGGERS: tuple[str, ...] = tuple(t.objective for t in TABLE)
"""The objective names of ``TABLE``, in order."""

TRIGGER_TITLES: dict[str, str] = {t.objective: t.title for t in TABLE}
"""Display names of the objectives (shown in vanilla's trigger feedback to the one player who triggered)."""

EVENT_DECODERS: dict[str, Decoder] = {"sword_hit": _sword_hit, "sword_struck": _sword_struck}
"""Queue inputs that are not triggers (written by the data pack's advancement rewards)."""

EVENTS: tuple[str, ...] = tuple(EVENT_DECODERS)

DECODERS: dict[str, Decoder] = {**{t.input: t.decode for t in TABLE}, **EVENT_DECODERS}
"""Queued input name → its decoder."""


def decode(entry: Mapping[str, Any], seats: Seats) -> Action | BridgeInput:
    """Turn one queued input entry into an engine action (or a bridge-level input).

    Args:
        entry: ``{"seq": int, "player": str, "input": "vote", "value": 3}``: the queue entry with its ``uuid``
            already resolved to ``player`` (``input`` is the objective without the ``traitors.`` prefix;
            nbtlib ``Int``/``String`` values are fine).
        seats: contestant name → seat number (1-based).

    Returns:
        The action (or ``HostCommand``/``OpenConsole``/``SwordHit``/``SendBook``), with ``entry["player"]`` as
        its actor.

    Raises:
        InputError: missing fields, a bad player name, an unknown input, a value that means nothing for that
            input, or a seat with nobody in it.
    """
    if not isinstance(entry, Mapping) or not {"player", "input", "value"} <= set(entry):
        raise InputError("invalid.action.fields", kind="trigger", fields="player, input, value")
    player = entry["player"]
    if not isinstance(player, str) or not _NAME_RE.fullmatch(player):
        raise InputError("invalid.action.value", field="player", value=str(player))
    name = entry["input"]
    decoder = DECODERS.get(str(name)) if isinstance(name, str) else None
    if decoder is None:
        raise InputError("invalid.action.kind", kind=str(name))
    value = entry["value"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError("invalid.action.value", field=str(name), value=str(value))
    return decoder(Press(str(player), str(name), int(value), seats, entry.get("attacker")))


# --------------------------------------------------------------------------------------------------------------
# Encoding an action as a press


def _seat_of(name: str, seats: Seats) -> int:
    seat = seats.get(name)
    if seat is None:
        raise InputError("illegal.unknown_player", player=name)
    return seat


def _target_seat(action: Any, seats: Seats) -> int:
    """The seat of ``action.target`` (the actions of ``_SEAT_TRIGGER`` all have one)."""
    return _seat_of(action.target, seats)


def _yes_no(yes: bool) -> int:
    return 1 if yes else 2


_EVENT_TRIGGER: dict[NightEvent, str] = {NightEvent.MURDER: MURDER, NightEvent.SEDUCE: SEDUCE,
                                         NightEvent.ULTIMATUM: ULTIMATUM}  # fmt: skip
_SEAT_TRIGGER: dict[type[Action], str] = {
    CastVote: VOTE,
    NominateDoubleVote: NOMINATE,
    NominateCandidate: CANDIDATE,
    ChooseSwordBearer: BEARER,
    VoteNominee: NOMINEE,
    AskSeer: SEER,
    PutOnTrial: TRIAL,
}
"""Actions sent as the seat of their ``target``."""
_ONE_TRIGGER: dict[type[Action], str] = {
    SwearOath: OATH,
    SkipPower: PASS,
    HoldBack: HOLDBACK,
    KeepEveryone: KEEP,
    Advance: HOST,
    OpenChest: CHEST,
    WriteConfession: CONFESS,
    WriteResponse: RESPOND,
}
"""Actions sent as the value 1."""


def _event(action: ChooseEvent, seats: Seats) -> tuple[str, int]:
    return _EVENT_TRIGGER[action.event], _seat_of(action.target, seats)


def _offer_value(action: AnswerOffer, seats: Seats) -> tuple[str, int]:
    return OFFER, _yes_no(action.accept)


def _torch_value(action: ChooseTorch, seats: Seats) -> tuple[str, int]:
    return TORCH, _TORCH_VALUE[action.torch]


def _power_value(action: UsePower, seats: Seats) -> tuple[str, int]:
    if action.second is None:
        return POWER, _seat_of(action.target, seats)
    return POWER2, PAIR * _seat_of(action.target, seats) + _seat_of(action.second, seats)


def _joker_value(action: AnswerJoker, seats: Seats) -> tuple[str, int]:
    return JOKER, _yes_no(action.accept)


def _repeat_value(action: AskRepeat, seats: Seats) -> tuple[str, int]:
    return REPEAT, _yes_no(action.ask)


def _guess_value(action: GuessPower, seats: Seats) -> tuple[str, int]:
    number = 0 if action.power is None else GUESSABLE.index(action.power) + 1
    return GUESS, PAIR * _seat_of(action.target, seats) + number


def _drink_value(action: TakeDrink, seats: Seats) -> tuple[str, int]:
    return DRINK, _DRINKS.index(action.drink) + 1


def _start_twist_value(action: StartTwist, seats: Seats) -> tuple[str, int]:
    return TWIST, _twist_number(action.twist)


def _cancel_twist_value(action: CancelTwist, seats: Seats) -> tuple[str, int]:
    return TWIST, CANCEL + _twist_number(action.twist)


def _replace_value(action: ReplaceContestant, seats: Seats) -> tuple[str, int]:
    return HOST, SEAT_BASE + _seat_of(action.contestant, seats)


def _ask_value(action: AskHappy, seats: Seats) -> tuple[str, int]:
    return HOST, HostControl.ASK_HAPPY.value


ENCODERS: dict[type[Action], Callable[[Any, Seats], tuple[str, int]]] = {
    ChooseEvent: _event,
    AnswerOffer: _offer_value,
    ChooseTorch: _torch_value,
    UsePower: _power_value,
    AnswerJoker: _joker_value,
    AskRepeat: _repeat_value,
    GuessPower: _guess_value,
    TakeDrink: _drink_value,
    StartTwist: _start_twist_value,
    CancelTwist: _cancel_twist_value,
    ReplaceContestant: _replace_value,
    AskHappy: _ask_value,
}
"""Action type → its (objective, value), for actions whose value is not simply a seat or 1."""


def encode(action: Action, seats: Seats) -> tuple[str, int]:
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
    kind = type(action)
    if kind in _SEAT_TRIGGER:
        return _SEAT_TRIGGER[kind], _target_seat(action, seats)
    if kind in _ONE_TRIGGER:
        return _ONE_TRIGGER[kind], 1
    encoder = ENCODERS.get(kind)
    if encoder is None:
        raise TypeError(f"{kind.__name__} is not sent by a trigger")
    return encoder(action, seats)


def trigger_command(action: Action, seats: Seats) -> str:
    """The chat command a click event runs for ``action``: ``/trigger <objective> set <value>``.

    Raises:
        InputError, TypeError: as ``encode``.
    """
    objective, value = encode(action, seats)
    return f"/trigger {objective} set {value}"


# --------------------------------------------------------------------------------------------------------------
# The data pack's trigger functions (written by ``traitors install-datapack``, bridge.minecraft.datapack)

OBJECTIVES_FUNCTION = "data/traitors/function/input/objectives.mcfunction"
"""``traitors:input/objectives``, called by ``traitors:load``: creates every trigger objective."""
PLAYER_FUNCTION = "data/traitors/function/input/player.mcfunction"
"""``traitors:input/player``, run as each online player every tick: enables and captures every trigger."""

_OBJECTIVES_HEADER = """\
# Written by `traitors install-datapack` from the bridge's trigger table (bridge/minecraft/triggers.py).
# Called by traitors:load: one trigger objective per input, its title translatable. Safe to run again: an
# existing objective is kept ("already exists" just fails).
"""

_PLAYER_HEADER = """\
# Written by `traitors install-datapack` from the bridge's trigger table (bridge/minecraft/triggers.py).
# Run as each online player every tick. For each trigger: enable it (creates a 0 score for a new player and
# unlocks it after a press), then queue a non-zero score as an input (traitors:input/capture resets it to 0).
# A press therefore reaches the queue exactly once, and the player can press again from the next tick.
"""


def objectives_function() -> str:
    """The text of ``traitors:input/objectives``: ``scoreboard objectives add traitors.<input> trigger
    {translate:"traitors.trigger.<input>",fallback:"<title>"}`` per trigger, in table order."""
    lines = [objective_add_trigger(t.objective, translated(t.key, t.title)).text for t in TABLE]
    return _OBJECTIVES_HEADER + "".join(line + "\n" for line in lines)


def player_function() -> str:
    """The text of ``traitors:input/player``: per trigger, ``scoreboard players enable @s <objective>`` and
    ``execute unless score @s <objective> matches 0 run function traitors:input/capture {input:"<input>"}``."""
    lines: list[str] = []
    for t in TABLE:
        lines += [f"scoreboard players enable @s {t.objective}",
                  f'execute unless score @s {t.objective} matches 0 run function traitors:input/capture '
                  f'{{input:"{t.input}"}}']  # fmt: skip
    return _PLAYER_HEADER + "".join(line + "\n" for line in lines)


def pack_functions() -> dict[str, str]:
    """The data pack files made from the table: path inside the pack → text."""
    return {OBJECTIVES_FUNCTION: objectives_function(), PLAYER_FUNCTION: player_function()}
