"""The trigger table: every trigger objective of the data pack, what its values mean, both ways
(``docs/minecraft.md#player-input``; ``docs/design.md``).

A contestant clicks a chat link or dialog button → ``/trigger traitors.<input> set N`` → the data pack's tick
function appends ``{seq, uuid, input, value}`` to ``storage traitors:io queue`` → the bridge reads it, looks the
UUID up (``bridge.io.players``) and ``decode`` turns the entry (with ``player`` = the name) into an engine
``Action`` or a bridge-level input (``bridge.minecraft.inputs``). ``encode``/``trigger_command`` go the other way,
for the buttons and click events of a prompt.

``table()`` is the one list of triggers (``TABLE``: the table at import). Everything else is read from it:
``decode`` (a lookup by input name), ``encode`` (a lookup by action type, ``ENCODERS`` or a twist input's
codec), the objective titles (``TRIGGER_TITLES``), the set-up commands (``bridge.minecraft.render.setup_commands``)
and the data pack's trigger functions, which ``traitors install-datapack`` writes
(``bridge.minecraft.trigger_pack``: ``traitors:input/objectives`` creates the objectives, ``traitors:input/player``
enables and captures them every tick).

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
(a twist's input)      from its ``InputTrigger`` and fields  the input (see below)
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

A twist's inputs have no hand-written row: a ``TwistInput`` that names a trigger (``engine.input_trigger``) gets
one built from it (``bridge.minecraft.input_codec``), placed after ``traitors.repeat`` in the order of its twist's
number, the bar's last. Today: ``traitors.bearer`` (seat of the Traitor, ``ChooseSwordBearer``), ``traitors.chest``
(1, ``OpenChest``), ``traitors.confess`` / ``traitors.respond`` (1: ``SendBook(player, "confess" / "respond")``),
``traitors.guess`` (100 × seat + power number, 0: the power is asked next; ``GuessPower``), ``traitors.nominee``
(``VoteNominee``), ``traitors.seer`` (``AskSeer``), ``traitors.trial`` (``PutOnTrial``), seats of the target, and
``traitors.drink`` (1 Faithful Fancy, 2 Traitors' Tipple; ``TakeDrink``). Power numbers are the 1-based positions
in the Guess twist's ``GUESSABLE`` (its trigger's ``choices``); twist numbers (``traitors.twist``) are each twist
key's ``number`` (``twist_numbers``; a new twist declares the next free one).

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

from bridge.minecraft.input_codec import InputCodec, book_of, input_codec
from bridge.minecraft.inputs import (
    BridgeInput,
    HostCommand,
    HostControl,
    InputError,
    LobbyControl,
    LobbyPress,
    OpenConsole,
    SwordHit,
)
from bridge.minecraft.press import PAIR, Decoder, Press, Seats, Trigger, seat_of
from engine.actions import (
    Action,
    Advance,
    AnswerJoker,
    AnswerOffer,
    AskHappy,
    AskRepeat,
    CancelTwist,
    CastVote,
    ChooseEvent,
    ChooseTorch,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    NominateDoubleVote,
    ReplaceContestant,
    SkipPower,
    StartTwist,
    SwearOath,
    UsePower,
)
from engine.ids import Item, NightEvent, Torch, Twist
from engine.rulesets import twist_tables

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
TWIST = "traitors.twist"
SIGNUP = "traitors.signup"
WITHDRAW = "traitors.withdraw"
LOBBY = "traitors.lobby"

SEAT_BASE = 100
"""``traitors.host`` value ``SEAT_BASE + seat``: the host chose that seat for a new player."""
CANCEL = 100
"""``traitors.twist`` value = ``CANCEL`` + twist number cancels that twist."""
MAX_SEATS = 16
"""The most seats a round table has (host values ``SEAT_BASE + 1`` .. ``SEAT_BASE + MAX_SEATS``)."""

_NAME_RE = re.compile(r"[A-Za-z0-9_]{3,16}")
_TORCHES: dict[int, Torch] = {1: Torch.BANISH_AGAIN, 2: Torch.END_GAME}
_TORCH_VALUE = {v: k for k, v in _TORCHES.items()}


def _twist_specs() -> list[Any]:
    """Every registered twist's spec (``TwistSpec``), table by table (``engine.rulesets.twist_tables``)."""
    return [spec for table in twist_tables() for spec in table.SPECS]


def _twist_input(action: Action) -> Any:
    """The ``TwistInput`` a twist's spec gives ``action``'s class, or ``None`` for an input no twist takes."""
    return next((t.INPUTS[type(action)] for t in twist_tables() if type(action) in t.INPUTS), None)


def twist_numbers() -> dict[str, int]:
    """``traitors.twist``: every registered twist's key (``Twist.value``) → its number (``Twist.number``).
    Numbers are written into installed data packs and books already handed out, so a twist's number never changes:
    a new twist declares the next free one."""
    return {k.value: k.number for k in (s.key for s in _twist_specs()) if k is not None and k.number is not None}


def _twist_by_number(p: Press, number: int) -> Twist:
    """The twist numbered ``number`` (``twist_numbers``).

    Raises:
        InputError: no twist has that number.
    """
    for key, n in twist_numbers().items():
        if n == number:
            return Twist(key)
    raise p.bad()


def _twist_number(twist: Twist) -> int:
    """A twist's number (``twist_numbers``); ``KeyError`` for a twist that has none."""
    return twist_numbers()[twist.value]


def input_dialog_title(action: Action) -> str | None:
    """The dialog title key a twist's spec gives ``action``'s input (``TwistInput.dialog_title``); ``None`` for an
    input no twist takes or whose spec gives none."""
    spec = _twist_input(action)
    return spec.dialog_title or None if spec is not None else None


def input_labels(action: Action) -> tuple[str, ...]:
    """The catalogue keys a twist's spec gives the choices of ``action``'s input (``TwistInput.labels``)."""
    spec = _twist_input(action)
    return spec.labels if spec is not None else ()


# --------------------------------------------------------------------------------------------------------------
# Decoding one press


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


def _twist(p: Press) -> Action:
    if p.value > CANCEL:
        return CancelTwist(actor=p.player, twist=_twist_by_number(p, p.value - CANCEL))
    return StartTwist(actor=p.player, twist=_twist_by_number(p, p.value))


SIGNUP_VALUES: dict[int, LobbyControl] = {1: LobbyControl.SIGN_UP, 2: LobbyControl.WITHDRAW, 3: LobbyControl.SHOW}
"""``traitors.signup`` value → what the player asks (``/trigger traitors.signup`` alone adds 1: signs up)."""
LOBBY_VALUES: dict[int, LobbyControl] = {
    1: LobbyControl.CONSOLE,
    2: LobbyControl.DRAW,
    3: LobbyControl.START,
    4: LobbyControl.CLEAR,
}
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


_CORE: tuple[Trigger, ...] = (
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
)
"""The rows before the twists' inputs' rows."""

_LAST: tuple[Trigger, ...] = (
    Trigger(TWIST, "Twist", _twist),
    Trigger(SIGNUP, "Sign up", _signup),
    Trigger(WITHDRAW, "Withdraw", _withdraw),
    Trigger(LOBBY, "Lobby", _lobby),
)
"""The rows after the twists' inputs' rows."""

EVENT_DECODERS: dict[str, Decoder] = {"sword_hit": _sword_hit, "sword_struck": _sword_struck}
"""Queue inputs that are not triggers (written by the data pack's advancement rewards)."""

EVENTS: tuple[str, ...] = tuple(EVENT_DECODERS)


@dataclass(frozen=True, slots=True)
class _Live:
    """The trigger table for one revision of the twists' registries (each table's ``REVISION``, in registry order)."""

    revision: tuple[int, ...]
    table: tuple[Trigger, ...]
    decoders: dict[str, Decoder]
    codecs: dict[type[Action], InputCodec]


_live: list[_Live] = []


def _now() -> _Live:
    """The table as the twists' registry stands (rebuilt only when a twist was registered or unregistered).

    Raises:
        TypeError: a twist input whose fields no trigger value carries (``input_codec``).
    """
    revision = tuple(t.REVISION for t in twist_tables())
    if _live and _live[0].revision == revision:
        return _live[0]
    numbers = [(s, s.key.number if s.key is not None else None) for s in _twist_specs()]
    by_number = [s for s, _ in sorted(numbers, key=lambda sn: (sn[1] is None, sn[1] or 0))]
    codecs = {i.cls: input_codec(i.cls, i.trigger) for s in by_number for i in s.inputs if i.trigger is not None}
    table = (*_CORE, *(c.row() for c in codecs.values()), *_LAST)
    live = _Live(revision, table, {**{t.input: t.decode for t in table}, **EVENT_DECODERS}, codecs)
    _live[:] = [live]
    return live


def table() -> tuple[Trigger, ...]:
    """Every trigger objective the data pack and the bridge use, in table order (the order of the pack's
    functions): the castle's own rows, then one row per twist input that names a trigger
    (``TwistInput.trigger``), in the order of its twist's number (``Twist.number``; the bar's last), then the host's twist
    trigger and the lobby's."""
    return _now().table


TABLE: tuple[Trigger, ...] = table()
"""``table()`` when this module was imported (every twist module of the package is registered by then)."""

TRIGGERS: tuple[str, ...] = tuple(t.objective for t in TABLE)
"""The objective names of ``TABLE``, in order."""

TRIGGER_TITLES: dict[str, str] = {t.objective: t.title for t in TABLE}
"""Display names of the objectives (shown in vanilla's trigger feedback to the one player who triggered)."""


def book_input(kind: str) -> tuple[type[Action], Item] | None:
    """The input a ``SendBook`` of ``kind`` (a book trigger's name, ``"confess"``) applies, and the castle book its
    text is read from; ``None`` for a kind no input has."""
    for codec in _now().codecs.values():
        book = book_of(codec)
        if book is not None and codec.trigger.name == kind:
            return codec.cls, book
    return None


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
    decoder = _now().decoders.get(str(name)) if isinstance(name, str) else None
    if decoder is None:
        raise InputError("invalid.action.kind", kind=str(name))
    value = entry["value"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError("invalid.action.value", field=str(name), value=str(value))
    return decoder(Press(str(player), str(name), int(value), seats, entry.get("attacker")))


# --------------------------------------------------------------------------------------------------------------
# Encoding an action as a press


def _target_seat(action: Any, seats: Seats) -> int:
    """The seat of ``action.target`` (the actions of ``_SEAT_TRIGGER`` all have one)."""
    return seat_of(action.target, seats)


def _yes_no(yes: bool) -> int:
    return 1 if yes else 2


_EVENT_TRIGGER: dict[NightEvent, str] = {
    NightEvent.MURDER: MURDER,
    NightEvent.SEDUCE: SEDUCE,
    NightEvent.ULTIMATUM: ULTIMATUM,
}
_SEAT_TRIGGER: dict[type[Action], str] = {
    CastVote: VOTE,
    NominateDoubleVote: NOMINATE,
    NominateCandidate: CANDIDATE,
}
"""Actions sent as the seat of their ``target``."""
_ONE_TRIGGER: dict[type[Action], str] = {
    SwearOath: OATH,
    SkipPower: PASS,
    HoldBack: HOLDBACK,
    KeepEveryone: KEEP,
    Advance: HOST,
}
"""Actions sent as the value 1."""


def _event(action: ChooseEvent, seats: Seats) -> tuple[str, int]:
    return _EVENT_TRIGGER[action.event], seat_of(action.target, seats)


def _offer_value(action: AnswerOffer, seats: Seats) -> tuple[str, int]:
    return OFFER, _yes_no(action.accept)


def _torch_value(action: ChooseTorch, seats: Seats) -> tuple[str, int]:
    return TORCH, _TORCH_VALUE[action.torch]


def _power_value(action: UsePower, seats: Seats) -> tuple[str, int]:
    if action.second is None:
        return POWER, seat_of(action.target, seats)
    return POWER2, PAIR * seat_of(action.target, seats) + seat_of(action.second, seats)


def _joker_value(action: AnswerJoker, seats: Seats) -> tuple[str, int]:
    return JOKER, _yes_no(action.accept)


def _repeat_value(action: AskRepeat, seats: Seats) -> tuple[str, int]:
    return REPEAT, _yes_no(action.ask)


def _start_twist_value(action: StartTwist, seats: Seats) -> tuple[str, int]:
    return TWIST, _twist_number(action.twist)


def _cancel_twist_value(action: CancelTwist, seats: Seats) -> tuple[str, int]:
    return TWIST, CANCEL + _twist_number(action.twist)


def _replace_value(action: ReplaceContestant, seats: Seats) -> tuple[str, int]:
    return HOST, SEAT_BASE + seat_of(action.contestant, seats)


def _ask_value(action: AskHappy, seats: Seats) -> tuple[str, int]:
    return HOST, HostControl.ASK_HAPPY.value


ENCODERS: dict[type[Action], Callable[[Any, Seats], tuple[str, int]]] = {
    ChooseEvent: _event,
    AnswerOffer: _offer_value,
    ChooseTorch: _torch_value,
    UsePower: _power_value,
    AnswerJoker: _joker_value,
    AskRepeat: _repeat_value,
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
    if encoder is not None:
        return encoder(action, seats)
    codec = _now().codecs.get(kind)
    if codec is None:
        raise TypeError(f"{kind.__name__} is not sent by a trigger")
    return codec.encode(action, seats)


def trigger_command(action: Action, seats: Seats) -> str:
    """The chat command a click event runs for ``action``: ``/trigger <objective> set <value>``.

    Raises:
        InputError, TypeError: as ``encode``.
    """
    objective, value = encode(action, seats)
    return f"/trigger {objective} set {value}"
