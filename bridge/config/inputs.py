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

import dataclasses
import enum
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationError, create_model

from bridge.config.model import ConfigModel, problems
from bridge.config.settings import PowerName, TwistName
from engine.actions import (
    ACTION_TYPES,
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
from engine.ids import Power, Torch, Twist

OATH_ANSWERS = 3
"""Rulebook §7.1: the host asks three questions; the ``oath`` shorthand answers all three."""

SHORTHANDS: tuple[str, ...] = ("timer", "oath", "votes", "torches")
"""Input forms that are not engine inputs themselves (``advance`` without ``host`` is a shorthand too)."""

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


class OathIn(InputModel):
    """``oath``: the Traitor's three Oath answers."""

    traitor: str

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [
            ScenarioInput(i, SwearOath(self.traitor), self.at if n == 0 else None, f"oath[{n}]")
            for n in range(OATH_ANSWERS)
        ]


class HostTwistIn(InputModel):
    """``start_twist`` / ``cancel_twist``: the host starts or cancels a twist live (``host`` optional: the first)."""

    host: str | None = None
    twist: TwistName

    def expand(self, i: int, first_host: str | None) -> list[ScenarioInput]:
        cls = StartTwist if self.action == "start_twist" else CancelTwist
        return [ScenarioInput(i, cls(_host(self.host, first_host), self.twist), self.at)]


class VotesIn(InputModel):
    """``votes``: voter → target, cast in the order written."""

    votes: dict[str, str] = Field(min_length=1)
    """A target of ``keep everyone`` is the Mafia & Yakuza ``keep_everyone`` vote."""

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [
            ScenarioInput(
                i,
                KeepEveryone(voter) if target == "keep everyone" else CastVote(voter, target),
                self.at if n == 0 else None,
                f"votes.{voter}",
            )
            for n, (voter, target) in enumerate(self.votes.items())
        ]


class TorchesIn(InputModel):
    """``torches``: finalist → vote, cast in the order written."""

    torches: dict[str, TorchName] = Field(min_length=1)

    def expand(self, i: int, _first_host: str | None) -> list[ScenarioInput]:
        return [
            ScenarioInput(i, ChooseTorch(finalist, Torch(torch)), self.at if n == 0 else None, f"torches.{finalist}")
            for n, (finalist, torch) in enumerate(self.torches.items())
        ]


_FORMS: dict[str, type[InputModel]] = {
    "advance": AdvanceIn,
    "ask_happy": AskHappyIn,
    "start_twist": HostTwistIn,
    "cancel_twist": HostTwistIn,
}
"""The engine inputs whose form is not simply their JSON form (a host that may be left out)."""

SHORTHAND_MODELS: dict[str, type[InputModel]] = {
    "timer": TimerIn,
    "oath": OathIn,
    "votes": VotesIn,
    "torches": TorchesIn,
}
"""The shorthands' forms."""

_NAMED_FIELDS: dict[type, Any] = {Power: PowerName, Twist: TwistName}
"""Enums a scenario may name in words (``"The Bartender"``, ``"Double Vote"``); any other enum field takes its
members' values."""

_MADE: dict[type[Action], type[InputModel]] = {}


def _field_form(hint: Any) -> tuple[Any, Any]:
    """The form's annotation and default of an input field declared ``hint`` (``...``: required)."""
    parts = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    kinds = [p for p in parts if p is not type(None)]
    optional = len(kinds) < len(parts)
    forms = []
    for kind in kinds:
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            forms.append(_NAMED_FIELDS.get(kind) or Literal[tuple(m.value for m in kind)])
        else:
            forms.append(kind)
    form: Any = forms[0]
    for other in forms[1:]:
        form = form | other
    return (form | None, None) if optional else (form, ...)


def form_of(cls: type[Action]) -> type[InputModel]:
    """The scenario form of an engine input made from its fields (its JSON form, ``Action.to_dict``): the sender
    under the input's ``actor_key``, each other field under its name; an enum field takes its members' values
    (a power or a twist also in words), a field that may be ``None`` may be left out."""
    made = _MADE.get(cls)
    if made is None:
        hints = typing.get_type_hints(cls)
        fields: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            key = cls.actor_key if f.name == "actor" else f.name
            fields[key] = _field_form(hints[f.name])
        made = _MADE[cls] = create_model(f"{cls.__name__}In", __base__=InputModel, **fields)
    return made


def input_model(kind: str) -> type[InputModel] | None:
    """The form of the ``[[input]]`` table whose ``action`` is ``kind``: a shorthand's, or an engine input's
    (``engine.actions.ACTION_TYPES``, inputs registered by plug-ins included); ``None`` for an unknown kind."""
    if kind in SHORTHAND_MODELS:
        return SHORTHAND_MODELS[kind]
    if kind in _FORMS:
        return _FORMS[kind]
    cls = ACTION_TYPES.get(kind)
    return None if cls is None else form_of(cls)


def input_models() -> dict[str, type[InputModel]]:
    """Every input form by its ``action`` value: the engine's inputs (``ACTION_TYPES``) and the shorthands."""
    return {**{kind: _FORMS.get(kind) or form_of(cls) for kind, cls in ACTION_TYPES.items()}, **SHORTHAND_MODELS}


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
            found.append(f'{where}: an input is a table such as {{ action = "advance" }}')
            continue
        kind = entry.get("action")
        if kind is None:
            found.append(f"{where}.action: field required")
            continue
        model = input_model(kind) if isinstance(kind, str) else None
        if model is None:
            found.append(f"{where}.action: unknown action {kind!r} (known: {', '.join(input_models())})")
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


__all__ = [
    "OATH_ANSWERS",
    "SHORTHANDS",
    "InputModel",
    "ScenarioInput",
    "form_of",
    "input_model",
    "input_models",
    "parse_inputs",
]
