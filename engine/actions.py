"""Inputs to the engine: frozen dataclasses named as verbs.

Every contestant input names its actor; ``Game.handle`` validates it against the rules and raises
``IllegalAction`` (changing nothing) when it is not allowed now. System inputs (``TimerExpired``) come from the
service's phase clock. ``to_dict``/``from_dict`` give the stable JSON form used in scenario files, the input
log and the game log (``docs/scenarios.md``).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import InvalidCommand
from engine.ids import Enum, NightEvent, Torch, Twist

_JSON_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _json_fields(cls: type[Action]) -> tuple[tuple[str, str], ...]:
    """An input class's ``(field name, JSON key)`` pairs, in order: ``actor`` is written as the class's
    ``actor_key`` (``voter``, ``traitor``, ...), every other field as its name (``dataclasses.fields`` is slow; the
    fields never change)."""
    pairs = _JSON_FIELDS.get(cls)
    if pairs is None:
        pairs = _JSON_FIELDS[cls] = tuple(
            (f.name, cls.actor_key if f.name == "actor" else f.name) for f in dataclasses.fields(cls)
        )
    return pairs


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every input. ``kind`` is the stable name used in scenario files and logs."""

    kind: ClassVar[str] = "action"
    actor_key: ClassVar[str] = "actor"
    """The JSON key of the ``actor`` field (the input log's and scenario files' name for the sender)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"action": kind, <key>: <value>, ...}``; enums become their values, ``actor`` is
        written under the class's ``actor_key``."""
        out: dict[str, Any] = {"action": self.kind}
        for name, key in _json_fields(type(self)):
            v = getattr(self, name)
            out[key] = v.value if isinstance(v, (Enum, Twist)) else v
        return out

    @property
    def actor(self) -> str | None:
        """The contestant or host who sent this input; ``None`` for system inputs (every input with a sender
        has ``actor`` as its first field)."""
        return None


@dataclass(frozen=True, slots=True)
class Sent(Action):
    """An input sent by a contestant or a host: ``actor`` is their name. The base of an input with a sender: a
    plug-in input with an ``actor_key`` of its own subclasses it."""

    actor: str = dataclasses.field()  # a field here, the base's read-only None for system inputs


@dataclass(frozen=True, slots=True)
class ByHost(Sent):
    """The base of a host's input: ``actor`` is the host, written as ``host`` in the JSON form."""

    actor_key: ClassVar[str] = "host"

    @property
    def host(self) -> str:
        """The host who sent the input (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class ByVoter(Sent):
    """The base of an input sent by a voter (``actor_key`` ``voter``)."""

    actor_key: ClassVar[str] = "voter"

    @property
    def voter(self) -> str:
        """The contestant who votes (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class ByTraitor(Sent):
    """The base of an input sent by a Traitor (``actor_key`` ``traitor``)."""

    actor_key: ClassVar[str] = "traitor"

    @property
    def traitor(self) -> str:
        """The Traitor who sent the input (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class ByContestant(Sent):
    """The base of an input sent by a contestant (``actor_key`` ``contestant``)."""

    actor_key: ClassVar[str] = "contestant"

    @property
    def contestant(self) -> str:
        """The contestant who sent the input (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class ByFinalist(Sent):
    """The base of an input sent by a finalist (``actor_key`` ``finalist``)."""

    actor_key: ClassVar[str] = "finalist"

    @property
    def finalist(self) -> str:
        """The finalist who votes (``actor``)."""
        return self.actor


@dataclass(frozen=True, slots=True)
class StartSeries(Action):
    """The series begins: the deal is made from the seeded generator and day zero starts.

    Always the first input of a series (the first entry of its input log).
    """

    kind: ClassVar[str] = "start_series"


@dataclass(frozen=True, slots=True)
class TimerExpired(Action):
    """The phase clock ran out for the phase with sequence number ``phase_seq``.

    A stale or repeated timer (``phase_seq`` not the current phase) is ignored: no effects, no error.
    """

    kind: ClassVar[str] = "timer_expired"
    phase_seq: int


@dataclass(frozen=True, slots=True)
class Advance(ByHost):
    """The host moves the series on early (rulebook §3 [house]): ends the current phase as its clock would.

    In the finale vote this is the host locking the vote, once they have asked whether everybody is happy with
    their decision; before that it asks the question (rulebook §9).

    ``button`` names the console button that moved on (``"open_vote"``, ``"lock_torches"``…; ``None``: not
    said), for the record's ``host_actions``; it changes nothing else, and the JSON form leaves it out when
    ``None``.
    """

    kind: ClassVar[str] = "advance"
    button: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``Action.to_dict`` without ``button`` when it is ``None`` (the input log of a press that names none)."""
        out = Action.to_dict(self)
        if self.button is None:
            del out["button"]
        return out


@dataclass(frozen=True, slots=True)
class AskHappy(ByHost):
    """The host asks the finalists whether everybody is happy with their decision (rulebook §9): every finalist
    is asked again and may still change their vote until the host (or the clock) locks it."""

    kind: ClassVar[str] = "ask_happy"


@dataclass(frozen=True, slots=True)
class CastVote(ByVoter):
    """A contestant casts their vote paper for ``target`` (rulebook §4). A cast vote cannot be changed."""

    kind: ClassVar[str] = "cast_vote"
    target: str


@dataclass(frozen=True, slots=True)
class SwearOath(ByTraitor):
    """A Traitor answers the host's current Oath question ("I do" / "I am" / "I do"; rulebook §7.1)."""

    kind: ClassVar[str] = "swear_oath"


@dataclass(frozen=True, slots=True)
class ChooseEvent(ByTraitor):
    """A Traitor picks tonight's event and its target in the Turret (rulebook §7.2).

    ``event`` is murder, seduce (only with exactly two Traitors) or ultimatum (the only event with exactly
    one Traitor). Each Traitor picks once per night; the most picks wins, a tie is drawn ([house]).
    """

    kind: ClassVar[str] = "choose_event"
    event: NightEvent
    target: str


@dataclass(frozen=True, slots=True)
class NominateDoubleVote(ByTraitor):
    """A Traitor names who receives the double vote at the next round table (rulebook §8 Double Vote)."""

    kind: ClassVar[str] = "nominate_double_vote"
    target: str


@dataclass(frozen=True, slots=True)
class AnswerOffer(ByContestant):
    """A seduced contestant or one given an ultimatum accepts (joins the Traitors) or declines (§7.2)."""

    kind: ClassVar[str] = "answer_offer"
    accept: bool


@dataclass(frozen=True, slots=True)
class ChooseTorch(ByFinalist):
    """A finalist votes banish again or end game with the vote command; the vote gives the host a torch (red or
    green when placed). Changeable until the vote is locked (rulebook §9, §10 "Finale Torches")."""

    kind: ClassVar[str] = "choose_torch"
    torch: Torch


@dataclass(frozen=True, slots=True)
class ContestantLeft(Action):
    """System input: a contestant's player left the server mid-series (MSMP ``players/left``).

    The contestant stays in the series but is not present: a vote they have not cast counts as No vote once
    everyone still present has voted, host visiting skips them, and the hosts are told (docs/house-rules.md).
    Sent by the service, never by a player (``actor`` is ``None``).
    """

    kind: ClassVar[str] = "contestant_left"
    contestant: str


@dataclass(frozen=True, slots=True)
class ContestantReturned(Action):
    """System input: a contestant who had left joins the server again (MSMP ``players/joined``).

    They are back in: present again, the hosts are told, and an open vote they have not cast is offered to
    them again; the service re-syncs their items and position from the engine's state.
    """

    kind: ClassVar[str] = "contestant_returned"
    contestant: str


@dataclass(frozen=True, slots=True)
class UsePower(ByContestant):
    """A contestant uses their power on ``target`` (and ``second``, for The Analyst's two contestants).

    Traitor powers are used in the Turret after the night's event is chosen; Faithful powers when the host
    visits (rulebook §5, §7.4). Which power is used is the actor's own active power: a contestant holds one
    power at a time (``engine/powers``). ``second`` is ``None`` for every power but The Analyst.
    """

    kind: ClassVar[str] = "use_power"
    target: str
    second: str | None = None


@dataclass(frozen=True, slots=True)
class SkipPower(ByContestant):
    """A contestant declines to use their power tonight (e.g. the Sheriff answers "no" to "Would you like to
    accuse a player?", rulebook §5)."""

    kind: ClassVar[str] = "skip_power"


@dataclass(frozen=True, slots=True)
class AnswerJoker(ByContestant):
    """The Faithful offered the Joker accepts or declines, before using their power (rulebook §6)."""

    kind: ClassVar[str] = "answer_joker"
    accept: bool


# ---------------------------------------------------------------------------------------------- club rulesets


@dataclass(frozen=True, slots=True)
class NominateCandidate(ByContestant):
    """At the end of their speech a contestant puts forward ONE candidate for the vote (Black Knights, Day)."""

    kind: ClassVar[str] = "nominate_candidate"
    target: str


@dataclass(frozen=True, slots=True)
class HoldBack(ByContestant):
    """At the end of their speech a contestant puts nobody forward and votes later (Black Knights, Day)."""

    kind: ClassVar[str] = "hold_back"


@dataclass(frozen=True, slots=True)
class KeepEveryone(ByVoter):
    """A contestant votes to expel nobody today (Mafia & Yakuza, "Vote: expel a suspect, or keep everyone")."""

    kind: ClassVar[str] = "keep_everyone"


@dataclass(frozen=True, slots=True)
class AskRepeat(ByContestant):
    """After the departed contestant's last word, a living contestant asks (or not) for the vote to be repeated
    (Black Knights, Day: "if they win the players over, the vote is repeated")."""

    kind: ClassVar[str] = "ask_repeat"
    ask: bool


# ---------------------------------------------------------------------------------------------- twists (§8, §10)
# A twist's contestant inputs live in its own module (``engine.rulesets.traitors.twists.<twist>``), built on the
# input bases above (``Sent``, ``ByContestant``, ``ByTraitor``, ``ByVoter``); the twists' registry makes them known
# here (``register_action``).


@dataclass(frozen=True, slots=True)
class StartTwist(ByHost):
    """The host starts a twist live: it is scheduled for the soonest day it can still happen (§8; the engine
    refuses it, privately to the host, when its preconditions fail)."""

    kind: ClassVar[str] = "start_twist"
    twist: Twist


@dataclass(frozen=True, slots=True)
class CancelTwist(ByHost):
    """The host cancels the next scheduled occurrence of a twist that has not begun yet (§8)."""

    kind: ClassVar[str] = "cancel_twist"
    twist: Twist


HOST_TWIST_ACTIONS: tuple[type[Action], ...] = (StartTwist, CancelTwist)
"""Host inputs handled by ``engine.rulesets.traitors.twists``."""


# ---------------------------------------------------------------------------------------------- host controls
# What goes wrong in real play (docs/host.md); only ``Settings.hosts`` may send these. Each is a host control of
# ``engine.core.host`` (its check, texts and console button); a control defined elsewhere subclasses ``ByHost``.


@dataclass(frozen=True, slots=True)
class PauseClock(ByHost):
    """The host stops the running phase clock; nothing ends the phase by time until ``ResumeClock``."""

    kind: ClassVar[str] = "pause_clock"


@dataclass(frozen=True, slots=True)
class ResumeClock(ByHost):
    """The host restarts a paused clock with the seconds it had left when paused."""

    kind: ClassVar[str] = "resume_clock"


@dataclass(frozen=True, slots=True)
class ExtendPhase(ByHost):
    """The host gives the current phase ``seconds`` more (1–3600; a paused clock keeps more time in hand)."""

    kind: ClassVar[str] = "extend_phase"
    seconds: int


@dataclass(frozen=True, slots=True)
class ReplaceContestant(ByHost):
    """A new player (``player``, a Minecraft name) takes over ``contestant``'s seat and hand.

    The seat keeps its contestant name in the game (votes, announcements and the record say ``contestant``);
    from now on the inputs of ``player`` act for that seat and everything private for the seat goes to ``player``
    only. The new player learns the hand privately. The replaced player can no longer act.
    """

    kind: ClassVar[str] = "replace_contestant"
    contestant: str
    player: str


@dataclass(frozen=True, slots=True)
class UndoHostAction(ByHost):
    """The host takes back the last input, if it was a host's move on, pause, resume or extension.

    The engine rebuilds the series from its input log without that input (``Game.replay``) and returns the
    effects that put the castle back: positions, items, the clock (with the time it had left then) and the
    prompts of the phase restored. Nothing said can be unsaid: everyone is told the action was taken back.
    """

    kind: ClassVar[str] = "undo_host_action"


@dataclass(frozen=True, slots=True)
class EndSeries(ByHost):
    """The host ends the series now: nobody wins (``Winner.NOBODY``); the record shows what happened so far."""

    kind: ClassVar[str] = "end_series"


_EVERY_ACTION: tuple[type[Action], ...] = (
    StartSeries,
    TimerExpired,
    Advance,
    AskHappy,
    CastVote,
    SwearOath,
    ChooseEvent,
    NominateDoubleVote,
    AnswerOffer,
    ChooseTorch,
    UsePower,
    SkipPower,
    AnswerJoker,
    ContestantLeft,
    ContestantReturned,
    NominateCandidate,
    HoldBack,
    KeepEveryone,
    AskRepeat,
    *HOST_TWIST_ACTIONS,
    PauseClock,
    ResumeClock,
    ExtendPhase,
    ReplaceContestant,
    UndoHostAction,
    EndSeries,
)

ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in _EVERY_ACTION}
"""Every input type by its stable ``kind`` name: the inputs above and those a plug-in registered
(``register_action``: the twists' registry registers each twist's inputs), so a log or scenario naming a
registered input replays."""


def register_action(cls: type[Action]) -> None:
    """Make an input class known by its ``kind`` (``ACTION_TYPES``: replay, scenario files, ``action_from_dict``).

    Registering the same class again changes nothing.

    Raises:
        ValueError: another class already has that ``kind``.
    """
    known = ACTION_TYPES.get(cls.kind)
    if known is not None and known is not cls:
        raise ValueError(f"input kind {cls.kind!r} is already {known.__name__}")
    ACTION_TYPES[cls.kind] = cls


def unregister_action(cls: type[Action]) -> None:
    """Forget an input class ``register_action`` made known (nothing happens for an unknown one)."""
    if ACTION_TYPES.get(cls.kind) is cls:
        del ACTION_TYPES[cls.kind]


_FIELD_TYPES: dict[type, tuple[tuple[str, tuple[type, ...] | None], ...]] = {}


def _field_types(cls: type[Action]) -> tuple[tuple[str, tuple[type, ...] | None], ...]:
    """(JSON key, the classes its value may be, or ``None`` if not checkable) of an input class, in order (the
    actor's key reads the field through its alias: ``voter``, ``traitor``, ...)."""
    found = _FIELD_TYPES.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        out: list[tuple[str, tuple[type, ...] | None]] = []
        for name, key in _json_fields(cls):
            hint = hints[name]
            if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
                parts = typing.get_args(hint)
            else:
                parts = (hint,)
            classes = tuple(type(None) if p is None else p for p in parts)
            plain = all(isinstance(c, type) and not typing.get_args(c) for c in classes)
            out.append((key, classes if plain else None))
        found = _FIELD_TYPES[cls] = tuple(out)
    return found


_CHECKED_FIRST: dict[type, tuple[tuple[str, tuple[type, ...]], ...]] = {}


def checked_first(cls: type[Action]) -> tuple[tuple[str, tuple[type, ...]], ...]:
    """The fields of an input class whose type the input step checks before the rules run, as ``(name, the
    classes its value may be)``: every field not declared a name (``str``, ``str | None``): the enums, flags and
    numbers, which the rules compare or branch on rather than look up. ``()`` for most inputs (a vote, a power use).
    """
    found = _CHECKED_FIRST.get(cls)
    if found is None:
        found = _CHECKED_FIRST[cls] = tuple(
            (name, classes)
            for name, classes in _field_types(cls)
            if classes is not None and set(classes) - {str, type(None)}
        )
    return found


def _fits(value: object, classes: tuple[type, ...]) -> bool:
    """Whether ``value`` is of one of a field's declared classes (a flag is not a number: ``True`` is no phase)."""
    return isinstance(value, classes) and (type(value) is not bool or bool in classes)


def ill_typed_field(
    action: Action, fields: tuple[tuple[str, tuple[type, ...] | None], ...] | None = None
) -> tuple[str, object] | None:
    """The first field of ``action`` whose value is not of its declared type, as ``(name, value)``; ``None`` when
    every field is (fields of types other than plain classes and their unions are not checked; a flag is not a
    number).

    Args:
        action: any input.
        fields: the ``(name, classes)`` pairs to check (``checked_first``, say); every field by default.

    An input built by ``action_from_dict`` (the bridge's) is well typed; one built directly in Python may not be.
    The engine refuses an ill-typed input with ``invalid.action.value`` (house rule 5 of ``engine.core.step``)
    instead of failing with a ``TypeError``.
    """
    for name, classes in _field_types(type(action)) if fields is None else fields:
        value = getattr(action, name)
        if classes is not None and not _fits(value, classes):
            return name, value
    return None


_FromDict = tuple[
    dict[str, str], frozenset[str], frozenset[str], dict[str, tuple[type, ...] | None], dict[str, Callable[[Any], Any]]
]
_FROM_DICT: dict[type, _FromDict] = {}


def _from_dict_spec(cls: type[Action]) -> _FromDict:
    """What ``action_from_dict`` checks a class's JSON form against, worked out once per class (a resumed series
    reads thousands of inputs): JSON key → field name, every key, the keys that must be given (the fields without
    a ``None`` default), JSON key → the classes its value may be (``None``: not checkable), and JSON key → the
    enum (or ``Twist``) its value names (a field declared as one, or as one or ``None``)."""
    spec = _FROM_DICT.get(cls)
    if spec is None:
        field_of = {key: name for name, key in _json_fields(cls)}
        required = {key for key, f in zip(field_of, dataclasses.fields(cls), strict=True) if f.default is not None}
        declared = dict(_field_types(cls))
        enums: dict[str, Callable[[Any], Any]] = {
            key: c for key, classes in declared.items() for c in classes or () if issubclass(c, (enum.Enum, Twist))
        }
        spec = _FROM_DICT[cls] = (field_of, frozenset(field_of), frozenset(required), declared, enums)
    return spec


def action_from_dict(data: dict[str, Any]) -> Action:
    """Build an action from its JSON form (the inverse of ``Action.to_dict``).

    Args:
        data: ``{"action": kind, ...fields}``; ``kind`` is any ``ACTION_TYPES`` key (registered inputs included).

    Raises:
        InvalidCommand: unknown ``action`` kind, missing or extra fields, or a bad enum value.
    """
    kind = data.get("action")
    cls = ACTION_TYPES.get(str(kind))
    if cls is None:
        raise InvalidCommand("invalid.action.kind", kind=str(kind))
    field_of, names, required, declared, enums = _from_dict_spec(cls)
    given = {k for k in data if k != "action"}
    if not required <= given <= names:
        raise InvalidCommand("invalid.action.fields", kind=cls.kind, fields=", ".join(sorted(names)))
    kwargs: dict[str, Any] = {}
    for name in names & given:
        value = data[name]
        if name in enums and value is not None:
            try:
                value = enums[name](value)
            except ValueError:
                raise InvalidCommand("invalid.action.value", field=name, value=str(value)) from None
        classes = declared[name]
        if classes is not None and not _fits(value, classes):
            raise InvalidCommand("invalid.action.value", field=name, value=str(value))
        kwargs[field_of[name]] = value
    return cls(**kwargs)
