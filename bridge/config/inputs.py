"""The ``[[input]]`` tables of a scenario file (``docs/scenarios.md``, "Inputs"): one pydantic model per form, each
turning itself into the engine inputs it stands for.

* **Inputs mirror ``Action.to_dict()``.** ``{ action = "cast_vote", voter = "Kai", target = "Sunny" }`` is
  exactly the JSON form of the engine's input, so an outside script can write scenarios from the engine's
  input log (``Game.log``: rename ``now`` to ``at``); such a table becomes its input through
  ``engine.actions.action_from_dict``, its model only checking the keys and types first.
* **Shorthands** make hand-written play practical; each expands to ordinary engine inputs:
  ``advance`` and ``ask_happy`` without a host (the first host), ``timer`` (the current phase's clock runs out),
  ``oath`` (a Traitor's three Oath answers, rulebook §7.1), ``votes`` (several ``cast_vote`` in the order
  written, rulebook §4) and ``torches`` (several ``choose_torch``, rulebook §9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError

from bridge.config.model import ConfigModel, problems
from bridge.config.settings import PowerName, TwistName
from engine.actions import (
    Action,
    Advance,
    AskHappy,
    CancelTwist,
    CastVote,
    ChooseTorch,
    KeepEveryone,
    StartTwist,
    SwearOath,
    action_from_dict,
)
from engine.errors import InvalidCommand
from engine.ids import Torch

OATH_ANSWERS = 3
"""Rulebook §7.1: the host asks three questions; the ``oath`` shorthand answers all three."""

SHORTHANDS: tuple[str, ...] = ("timer", "oath", "votes", "torches")
"""Input forms that are not engine inputs themselves (``advance`` without ``host`` is a shorthand too)."""

EventName = Literal["murder", "seduce", "ultimatum"]
TorchName = Literal["banish_again", "end_game"]


@dataclass(frozen=True, slots=True)
class ScenarioInput:
    """One engine input to play, from the file's ``input[index]``.

    Args:
        index: position of the ``[[input]]`` table in the file (0-based); a shorthand that expands to several
            engine inputs gives them all the same index.
        action: the engine input; ``None`` for ``timer`` (``TimerExpired`` for the phase current when played).
        at: seconds since the series started; ``None``: 1 s after the previous input (``timer``: the phase's
            deadline).
        part: for an expanded shorthand, which part this is (e.g. ``"votes.Kai"``); else ``""``.
    """

    index: int
    action: Action | None
    at: float | None = None
    part: str = ""

    @property
    def where(self) -> str:
        """The position for messages: ``input[12]`` or ``input[12].votes.Kai``."""
        return f"input[{self.index}]" + (f".{self.part}" if self.part else "")


class InputModel(ConfigModel):
    """One ``[[input]]`` table: ``action`` names its form, ``at`` its time (seconds since the series started)."""

    # Built on first use (a scenario file's input), not at import: ``serve`` and ``serve-demo`` never read
    # inputs and start sooner (``docs/performance.md``).
    model_config = ConfigDict(defer_build=True)

    action: str
    at: float | None = Field(default=None, ge=0)

    def to_action(self) -> Action:
        """The engine input this table is: the table is its JSON form (``Action.to_dict()``) with ``at``.

        Raises:
            InvalidCommand: the form's keys are not the engine input's fields (a test keeps them in step).
        """
        return action_from_dict(self.model_dump(mode="json", exclude={"at"}))

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        """The engine inputs of ``input[i]``; ``first_host`` stands in for a ``host`` left out.

        Raises:
            ValueError: ``".<key>: <problem>"`` (the caller prefixes ``input[i]``).
        """
        return [ScenarioInput(i, self.to_action(), self.at)]


def _host(given: str | None, first_host: str | None) -> str:
    host = given if given is not None else first_host
    if host is None:
        raise ValueError(".host: no host given and the scenario sets no hosts")
    return host


class StartSeriesIn(InputModel):
    """``start_series``: optional as the first input (it is implied otherwise)."""


class TimerExpiredIn(InputModel):
    phase_seq: int


class TimerIn(InputModel):
    """``timer``: the clock of the phase current when the input is played runs out."""

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [ScenarioInput(i, None, self.at)]


class AdvanceIn(InputModel):
    """``advance``: the host moves on; ``button`` names the console button that did (for the record), without
    ``host`` the file's first host."""

    host: str | None = None
    button: str | None = Field(default=None, max_length=32)

    def expand(self, i: int, first_host: str | None) -> list[ScenarioInput]:
        return [ScenarioInput(i, Advance(_host(self.host, first_host), self.button), self.at)]


class AskHappyIn(InputModel):
    """``ask_happy``: the host asks whether everybody is happy with their decision (the finale vote, rulebook §9);
    without ``host``, the file's first host."""

    host: str | None = None

    def expand(self, i: int, first_host: str | None) -> list[ScenarioInput]:
        return [ScenarioInput(i, AskHappy(_host(self.host, first_host)), self.at)]


class CastVoteIn(InputModel):
    voter: str
    target: str


class SwearOathIn(InputModel):
    traitor: str


class OathIn(InputModel):
    """``oath``: the Traitor's three Oath answers."""

    traitor: str

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [ScenarioInput(i, SwearOath(self.traitor), self.at if n == 0 else None, f"oath[{n}]")
                for n in range(OATH_ANSWERS)]  # fmt: skip


class ChooseEventIn(InputModel):
    traitor: str
    event: EventName
    target: str


class NominateDoubleVoteIn(InputModel):
    traitor: str
    target: str


class AnswerOfferIn(InputModel):
    contestant: str
    accept: bool


class ChooseTorchIn(InputModel):
    finalist: str
    torch: TorchName


class PresenceIn(InputModel):
    """``contestant_left`` / ``contestant_returned``: a contestant's player leaves or rejoins the server."""

    contestant: str


class UsePowerIn(InputModel):
    contestant: str
    target: str
    second: str | None = None


class SkipPowerIn(InputModel):
    contestant: str


class AnswerJokerIn(InputModel):
    contestant: str
    accept: bool


class NominateCandidateIn(InputModel):
    contestant: str
    target: str


class HoldBackIn(InputModel):
    contestant: str


class KeepEveryoneIn(InputModel):
    voter: str


class AskRepeatIn(InputModel):
    contestant: str
    ask: bool


class ChooseSwordBearerIn(InputModel):
    traitor: str
    target: str


class StrikeWithSwordIn(InputModel):
    attacker: str
    victim: str


class OpenChestIn(InputModel):
    contestant: str


class WriteConfessionIn(InputModel):
    contestant: str
    text: str


class WriteResponseIn(InputModel):
    traitor: str
    text: str


class GuessPowerIn(InputModel):
    guesser: str
    target: str
    power: PowerName | None = None


class VoteNomineeIn(InputModel):
    voter: str
    target: str


class AskSeerIn(InputModel):
    seer: str
    target: str


class PutOnTrialIn(InputModel):
    traitor: str
    target: str


class TakeDrinkIn(InputModel):
    contestant: str
    drink: Literal["faithful_fancy", "traitors_tipple"]


class HostTwistIn(InputModel):
    """``start_twist`` / ``cancel_twist``: the host starts or cancels a twist live (``host`` optional: the first)."""

    host: str | None = None
    twist: TwistName

    def expand(self, i: int, first_host: str | None) -> list[ScenarioInput]:
        cls = StartTwist if self.action == "start_twist" else CancelTwist
        return [ScenarioInput(i, cls(_host(self.host, first_host), self.twist), self.at)]


_HOST_CONTROLS = ("pause_clock", "resume_clock", "undo_host_action", "end_series")


class HostIn(InputModel):
    """``pause_clock`` / ``resume_clock`` / ``undo_host_action`` / ``end_series``: a host control (docs/host.md)."""

    host: str


class ExtendPhaseIn(InputModel):
    host: str
    seconds: int


class ReplaceContestantIn(InputModel):
    host: str
    contestant: str
    player: str


class VotesIn(InputModel):
    """``votes``: voter → target, cast in the order written."""

    votes: dict[str, str] = Field(min_length=1)
    """A target of ``keep everyone`` is the Mafia & Yakuza ``keep_everyone`` vote."""

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [
            ScenarioInput(i, KeepEveryone(voter) if target == "keep everyone" else CastVote(voter, target),
                          self.at if n == 0 else None, f"votes.{voter}")
            for n, (voter, target) in enumerate(self.votes.items())
        ]  # fmt: skip


class TorchesIn(InputModel):
    """``torches``: finalist → vote, cast in the order written."""

    torches: dict[str, TorchName] = Field(min_length=1)

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [
            ScenarioInput(i, ChooseTorch(finalist, Torch(torch)), self.at if n == 0 else None, f"torches.{finalist}")
            for n, (finalist, torch) in enumerate(self.torches.items())
        ]


INPUT_MODELS: dict[str, type[InputModel]] = {
    "start_series": StartSeriesIn,
    "timer_expired": TimerExpiredIn,
    "advance": AdvanceIn,
    "ask_happy": AskHappyIn,
    "cast_vote": CastVoteIn,
    "swear_oath": SwearOathIn,
    "choose_event": ChooseEventIn,
    "nominate_double_vote": NominateDoubleVoteIn,
    "answer_offer": AnswerOfferIn,
    "choose_torch": ChooseTorchIn,
    "contestant_left": PresenceIn,
    "contestant_returned": PresenceIn,
    "use_power": UsePowerIn,
    "skip_power": SkipPowerIn,
    "answer_joker": AnswerJokerIn,
    "nominate_candidate": NominateCandidateIn,
    "hold_back": HoldBackIn,
    "keep_everyone": KeepEveryoneIn,
    "ask_repeat": AskRepeatIn,
    "choose_sword_bearer": ChooseSwordBearerIn,
    "strike_with_sword": StrikeWithSwordIn,
    "open_chest": OpenChestIn,
    "write_confession": WriteConfessionIn,
    "write_response": WriteResponseIn,
    "guess_power": GuessPowerIn,
    "vote_nominee": VoteNomineeIn,
    "ask_seer": AskSeerIn,
    "put_on_trial": PutOnTrialIn,
    "take_drink": TakeDrinkIn,
    "start_twist": HostTwistIn,
    "cancel_twist": HostTwistIn,
    **dict.fromkeys(_HOST_CONTROLS, HostIn),
    "extend_phase": ExtendPhaseIn,
    "replace_contestant": ReplaceContestantIn,
    "timer": TimerIn,
    "oath": OathIn,
    "votes": VotesIn,
    "torches": TorchesIn,
}
"""Every input form by its ``action`` value: the engine's inputs (``ACTION_TYPES``, each a key here, as a test
checks) and the shorthands."""


def parse_inputs(raw: Sequence[Any], hosts: object) -> tuple[list[ScenarioInput], list[str]]:
    """Validate every ``[[input]]`` table and expand it into engine inputs.

    Args:
        raw: the file's ``input`` array.
        hosts: the file's ``hosts`` (its first host stands in for a ``host`` left out).

    Returns:
        ``(inputs, problems)``: the engine inputs of the valid tables, and one ``"input[i]…: <problem>"`` per
        problem.
    """
    first_host = hosts[0] if isinstance(hosts, list) and hosts and isinstance(hosts[0], str) else None
    inputs: list[ScenarioInput] = []
    found: list[str] = []
    for i, entry in enumerate(raw):
        where = f"input[{i}]"
        if not isinstance(entry, Mapping):
            found.append(f"{where}: an input is a table such as {{ action = \"advance\" }}")
            continue
        kind = entry.get("action")
        if kind is None:
            found.append(f"{where}.action: field required")
            continue
        model = INPUT_MODELS.get(kind) if isinstance(kind, str) else None
        if model is None:
            found.append(f"{where}.action: unknown action {kind!r} (known: {', '.join(INPUT_MODELS)})")
            continue
        try:
            inputs += model.model_validate(dict(entry)).expand(i, first_host)
        except ValidationError as exc:
            found += problems(exc, ("input", i))
        except ValueError as exc:
            found.append(f"{where}{exc}")
        except InvalidCommand as exc:  # a form out of step with the engine's input (a test prevents it)
            found.append(f"{where}: {exc} [{exc.reason}]")
    return inputs, found


__all__ = ["INPUT_MODELS", "OATH_ANSWERS", "SHORTHANDS", "InputModel", "ScenarioInput", "parse_inputs"]
