"""Inputs to the engine: frozen dataclasses named as verbs.

Every contestant input names its actor; ``Game.handle`` validates it against the rules and raises
``IllegalAction`` (changing nothing) when it is not allowed now. System inputs (``TimerExpired``) come from the
service's phase clock. ``to_dict``/``from_dict`` give the stable JSON form used in scenario files, the input
log and the game log (``docs/scenarios.md``).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import InvalidCommand
from engine.ids import NightEvent, Torch


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """An action class's field names, in order (``dataclasses.fields`` is slow; the fields never change)."""
    return tuple(f.name for f in dataclasses.fields(cls))


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every input. ``kind`` is the stable name used in scenario files and logs."""

    kind: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``{"action": kind, <field>: <value>, ...}``; enums become their values."""
        out: dict[str, Any] = {"action": self.kind}
        for name in _field_names(type(self)):
            v = getattr(self, name)
            out[name] = v.value if hasattr(v, "value") else v
        return out

    @property
    def actor(self) -> str | None:
        """The contestant or host who sent this input; ``None`` for system inputs."""
        return None


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
class Advance(Action):
    """The host moves the series on early (rulebook §3 [house]): ends the current phase as its clock would.

    In the finale torch vote this is the host locking the torches (rulebook §9).
    """

    kind: ClassVar[str] = "advance"
    host: str

    @property
    def actor(self) -> str | None:
        return self.host


@dataclass(frozen=True, slots=True)
class CastVote(Action):
    """A contestant casts their vote paper for ``target`` (rulebook §4). A cast vote cannot be changed."""

    kind: ClassVar[str] = "cast_vote"
    voter: str
    target: str

    @property
    def actor(self) -> str | None:
        return self.voter


@dataclass(frozen=True, slots=True)
class SwearOath(Action):
    """A Traitor answers the host's current Oath question ("I do" / "I am" / "I do"; rulebook §7.1)."""

    kind: ClassVar[str] = "swear_oath"
    traitor: str

    @property
    def actor(self) -> str | None:
        return self.traitor


@dataclass(frozen=True, slots=True)
class ChooseEvent(Action):
    """A Traitor picks tonight's event and its target in the Turret (rulebook §7.2).

    ``event`` is murder, seduce (only with exactly two Traitors) or ultimatum (the only event with exactly
    one Traitor). Each Traitor picks once per night; the most picks wins, a tie is drawn ([house]).
    """

    kind: ClassVar[str] = "choose_event"
    traitor: str
    event: NightEvent
    target: str

    @property
    def actor(self) -> str | None:
        return self.traitor


@dataclass(frozen=True, slots=True)
class NominateDoubleVote(Action):
    """A Traitor names who receives the double vote at the next round table (rulebook §8 Double Vote)."""

    kind: ClassVar[str] = "nominate_double_vote"
    traitor: str
    target: str

    @property
    def actor(self) -> str | None:
        return self.traitor


@dataclass(frozen=True, slots=True)
class AnswerOffer(Action):
    """A seduced contestant or one given an ultimatum accepts (joins the Traitors) or declines (§7.2)."""

    kind: ClassVar[str] = "answer_offer"
    contestant: str
    accept: bool

    @property
    def actor(self) -> str | None:
        return self.contestant


@dataclass(frozen=True, slots=True)
class ChooseTorch(Action):
    """A finalist holds up a torch: banish again (red) or end game (green). Changeable until locked (§9)."""

    kind: ClassVar[str] = "choose_torch"
    finalist: str
    torch: Torch

    @property
    def actor(self) -> str | None:
        return self.finalist


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
class UsePower(Action):
    """A contestant uses their power on ``target`` (and ``second``, for The Analyst's two contestants).

    Traitor powers are used in the Turret after the night's event is chosen; Faithful powers when the host
    visits (rulebook §5, §7.4). Which power is used is the actor's own active power: a contestant holds one
    power at a time (``engine/powers``). ``second`` is ``None`` for every power but The Analyst.
    """

    kind: ClassVar[str] = "use_power"
    contestant: str
    target: str
    second: str | None = None

    @property
    def actor(self) -> str | None:
        return self.contestant


@dataclass(frozen=True, slots=True)
class SkipPower(Action):
    """A contestant declines to use their power tonight (e.g. the Sheriff answers "no" to "Would you like to
    accuse a player?", rulebook §5)."""

    kind: ClassVar[str] = "skip_power"
    contestant: str

    @property
    def actor(self) -> str | None:
        return self.contestant


@dataclass(frozen=True, slots=True)
class AnswerJoker(Action):
    """The Faithful offered the Joker accepts or declines, before using their power (rulebook §6)."""

    kind: ClassVar[str] = "answer_joker"
    contestant: str
    accept: bool

    @property
    def actor(self) -> str | None:
        return self.contestant


@dataclass(frozen=True, slots=True)
class NominateCandidate(Action):
    """At the end of their speech a contestant puts forward ONE candidate for the vote (Black Knights, Day)."""

    kind: ClassVar[str] = "nominate_candidate"
    contestant: str
    target: str

    @property
    def actor(self) -> str | None:
        return self.contestant


@dataclass(frozen=True, slots=True)
class HoldBack(Action):
    """At the end of their speech a contestant puts nobody forward and votes later (Black Knights, Day)."""

    kind: ClassVar[str] = "hold_back"
    contestant: str

    @property
    def actor(self) -> str | None:
        return self.contestant


@dataclass(frozen=True, slots=True)
class KeepEveryone(Action):
    """A contestant votes to expel nobody today (Mafia & Yakuza, "Vote: expel a suspect, or keep everyone")."""

    kind: ClassVar[str] = "keep_everyone"
    voter: str

    @property
    def actor(self) -> str | None:
        return self.voter


@dataclass(frozen=True, slots=True)
class AskRepeat(Action):
    """After the departed contestant's last word, a living contestant asks (or not) for the vote to be repeated
    (Black Knights, Day: "if they win the players over, the vote is repeated")."""

    kind: ClassVar[str] = "ask_repeat"
    contestant: str
    ask: bool

    @property
    def actor(self) -> str | None:
        return self.contestant


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        StartSeries,
        TimerExpired,
        Advance,
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
    )
}
"""Every input type by its stable ``kind`` name."""

_ENUM_FIELDS: dict[str, type[Any]] = {"event": NightEvent, "torch": Torch}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Build an action from its JSON form (the inverse of ``Action.to_dict``).

    Args:
        data: ``{"action": kind, ...fields}``.

    Raises:
        InvalidCommand: unknown ``action`` kind, missing or extra fields, or a bad enum value.
    """
    kind = data.get("action")
    cls = ACTION_TYPES.get(str(kind))
    if cls is None:
        raise InvalidCommand("invalid.action.kind", kind=str(kind))
    names = {f.name for f in dataclasses.fields(cls)}
    given = {k for k in data if k != "action"}
    optional = {f.name for f in dataclasses.fields(cls) if f.default is None}
    if not (names - optional) <= given <= names:
        raise InvalidCommand("invalid.action.fields", kind=cls.kind, fields=", ".join(sorted(names)))
    kwargs: dict[str, Any] = {}
    for name in names & given:
        value = data[name]
        if name in _ENUM_FIELDS:
            try:
                value = _ENUM_FIELDS[name](value)
            except ValueError:
                raise InvalidCommand("invalid.action.value", field=name, value=str(value)) from None
        elif name == "phase_seq":
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidCommand("invalid.action.value", field=name, value=str(value))
        elif name in ("accept", "ask"):
            if not isinstance(value, bool):
                raise InvalidCommand("invalid.action.value", field=name, value=str(value))
        elif name == "second" and value is None:
            pass
        elif not isinstance(value, str):
            raise InvalidCommand("invalid.action.value", field=name, value=str(value))
        kwargs[name] = value
    return cls(**kwargs)
