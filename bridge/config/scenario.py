"""Scenario files: a scripted series as TOML (``docs/scenarios.md``), played through the engine alone.

A scenario is the series settings (contestants in seat order, an optional explicit deal, twists, …), a seed
and a list of inputs. ``load_scenario`` reads and validates a file with pydantic (``docs/design.md``: pydantic at the
edge only) and converts it at once into engine types (``Settings``, ``DealEntry``, ``Action``).
``play_scenario`` feeds the inputs to the game of the scenario's ``ruleset`` (``engine.rulesets``; default
``traitors``) and returns the game.

Design notes:

* **Inputs mirror ``Action.to_dict()``.** ``{ action = "cast_vote", voter = "Kai", target = "Sunny" }`` is
  exactly the JSON form of the engine's input, so an outside script can write scenarios from the engine's
  input log (``Game.log``: rename ``now`` to ``at``).
* **Shorthands** make hand-written play practical; each expands to ordinary engine inputs:
  ``advance`` without a host (the first host), ``timer`` (the current phase's clock runs out),
  ``oath`` (a Traitor's three Oath answers, rulebook §7.1), ``votes`` (several ``cast_vote`` in the order
  written, rulebook §4) and ``torches`` (several ``choose_torch``, rulebook §9).
* **Time** is an input (``docs/design.md#the-engine``): the series starts at 0 s; an input without ``at`` comes 1 s
  after the previous one, except ``timer``, which comes at the phase's deadline.
* **An explicit deal is only checked for consistency** (``Settings._validate_deal``), never against the
  random deal's limits: the rulebook's own example deal (§1) has 3 Traitors among 9 contestants.
* **Errors never escape as tracebacks.** Every problem is a ``ScenarioError`` (a ``ConfigError``) whose
  message names the file and the key path (``day_one.toml: input[12].target: field required``), or the file,
  the input index and the engine's refusal.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError

from engine.actions import (
    ACTION_TYPES,
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
    ContestantLeft,
    ContestantReturned,
    HoldBack,
    KeepEveryone,
    NominateCandidate,
    GuessPower,
    OpenChest,
    PutOnTrial,
    ExtendPhase,
    NominateDoubleVote,
    ReplaceContestant,
    SkipPower,
    StartSeries,
    StartTwist,
    StrikeWithSword,
    SwearOath,
    TakeDrink,
    TimerExpired,
    UsePower,
    VoteNominee,
    WriteConfession,
    WriteResponse,
    action_from_dict,
)
from bridge.config.files import read_config_text
from engine.errors import ConfigError, IllegalAction, InvalidCommand
from engine.ids import Allegiance, Drink, NightEvent, Power, Torch, Twist
from engine.rulesets import RULESETS, new_game
from engine.rulesets.club.game import ClubSettings
from engine.rulesets.traitors.settings import DealEntry, Settings

OATH_ANSWERS = 3
"""Rulebook §7.1: the host asks three questions; the ``oath`` shorthand answers all three."""

SHORTHANDS: tuple[str, ...] = ("timer", "oath", "votes", "torches")
"""Input forms that are not engine inputs themselves (``advance`` without ``host`` is a shorthand too)."""


class ScenarioError(ConfigError):
    """A scenario file cannot be read, is invalid, or the engine refused one of its inputs.

    Every line of the message starts with the file as given, then the key path or input index::

        day_one.toml: input[12].target: field required
        day_one.toml: input[14]: the engine refused cast_vote(voter=Kai, target=Kai): You cannot vote for
        yourself. [illegal.vote.self]

    Args:
        path: the file as given (or the name given to ``parse_scenario``).
        problems: one ``"<where>: <what is wrong>"`` per problem.
    """

    def __init__(self, path: str, problems: Sequence[str]) -> None:
        self.path = path
        self.problems = list(problems)
        super().__init__("\n".join(f"{path}: {p}" for p in self.problems))


# ---------------------------------------------------------------------------------------------- engine values


def _words(value: str) -> str:
    return " ".join(value.strip().lower().replace("_", " ").replace("-", " ").split())


def _parse_power(value: object) -> Power:
    """``"bartender"``, ``"The Bartender"`` or ``"the bartender"`` → ``Power.BARTENDER``."""
    if isinstance(value, Power):
        return value
    if not isinstance(value, str):
        raise ValueError("a power is a name such as \"The Bartender\"")
    key = _words(value).removeprefix("the ").strip()
    try:
        return Power(key)
    except ValueError:
        known = ", ".join(p.title for p in Power)
        raise ValueError(f"unknown power {value!r}{did_you_mean(key, [p.value for p in Power], Power)} "
                         f"(known: {known})") from None


def did_you_mean(word: str, known: Sequence[str], titles: Any = None) -> str:
    """``'; did you mean "The Sober"?'`` for the closest known name (``difflib``), or ``""`` when none is close.

    Args:
        word: the unknown name as normalised by the caller.
        known: the known names (same normalisation).
        titles: an enum whose members are looked up by the known name and shown by their ``title``.
    """
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    if not close:
        return ""
    shown = titles(close[0]).title if titles is not None else close[0]
    return f"; did you mean {shown!r}?"


def _parse_allegiance(value: object) -> Allegiance:
    if isinstance(value, Allegiance):
        return value
    if isinstance(value, str):
        try:
            return Allegiance(_words(value))
        except ValueError:
            pass
    raise ValueError(f"{value!r} is not an allegiance (faithful or traitor)")


def _parse_twist(value: object) -> Twist:
    if isinstance(value, Twist):
        return value
    if isinstance(value, str):
        try:
            return Twist(_words(value).replace(" ", "_"))
        except ValueError:
            pass
    hint = did_you_mean(_words(value).replace(" ", "_"), [t.value for t in Twist]) if isinstance(value, str) else ""
    raise ValueError(f"unknown twist {value!r}{hint} (known: {', '.join(t.value for t in Twist)})")


PowerName = Annotated[Power, PlainValidator(_parse_power)]
AllegianceName = Annotated[Allegiance, PlainValidator(_parse_allegiance)]
TwistName = Annotated[Twist, PlainValidator(_parse_twist)]
EventName = Literal["murder", "seduce", "ultimatum"]
TorchName = Literal["banish_again", "end_game"]


# ---------------------------------------------------------------------------------------------- file models


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class DealModel(_Model):
    """One ``[[deal]]`` table: a contestant's hand (rulebook §1 example deal; ``role`` for the club rulesets)."""

    name: str
    allegiance: AllegianceName | None = None
    role: str | None = None
    power: PowerName | None = None
    false_power: PowerName | None = None
    drunk: bool = False


class ScenarioModel(_Model):
    """The top level of a scenario file. ``input`` items are validated one by one (``_INPUT_MODELS``)."""

    seed: int = 0
    ruleset: Literal["traitors", "black_knights", "mafia_yakuza"] = "traitors"
    contestants: list[str] | None = None
    traitors: int | None = None
    hosts: list[str] = Field(default_factory=list)
    drunk: Literal["none", "possible", "always"] | None = None
    powers: bool | None = None
    power_pool: list[PowerName] | None = None
    first_night_murder: bool | None = None
    joker_night: int | None = None
    joker_outcome: Literal["joker_wins", "traitors_win"] | None = None
    confession_shields: int | None = None
    trial_contestants: int | None = None
    no_votes: Literal["revote", "deadlock"] | None = None
    no_reveal_from: int | None = None
    finalists: int | None = None
    twists: dict[str, list[TwistName]] = Field(default_factory=dict)
    durations: dict[str, float] = Field(default_factory=dict)
    deal: list[DealModel] | None = None
    """The explicit deal, one ``[[deal]]`` per contestant."""
    deal_table: dict[str, list[str]] | None = None
    """Club rulesets: the series setting ``deal`` written as a table, contestant count → role codes
    (``[deal]`` / ``8 = ["lord", …]``); the file's ``deal`` key is read here when it is a table."""
    day_execution: bool | None = None
    morning_news: Literal["named", "unnamed", "dead_only"] | None = None
    max_days: int | None = None
    input: list[dict[str, Any]] = Field(default_factory=list)


class _InputModel(_Model):
    # Built on first use (a scenario file's input), not at import: ``serve`` and ``serve-demo`` read stored
    # settings through ``ScenarioModel`` only and start sooner (``docs/performance.md``).
    model_config = ConfigDict(defer_build=True)

    action: str
    at: float | None = Field(default=None, ge=0)


class StartSeriesIn(_InputModel):
    """``start_series``: optional as the first input (it is implied otherwise)."""


class TimerExpiredIn(_InputModel):
    phase_seq: int


class TimerIn(_InputModel):
    """``timer``: the clock of the phase current when the input is played runs out."""


class AdvanceIn(_InputModel):
    host: str | None = None


class CastVoteIn(_InputModel):
    voter: str
    target: str


class SwearOathIn(_InputModel):
    traitor: str


class OathIn(_InputModel):
    """``oath``: the Traitor's three Oath answers."""

    traitor: str


class ChooseEventIn(_InputModel):
    traitor: str
    event: EventName
    target: str


class NominateDoubleVoteIn(_InputModel):
    traitor: str
    target: str


class AnswerOfferIn(_InputModel):
    contestant: str
    accept: bool


class ChooseTorchIn(_InputModel):
    finalist: str
    torch: TorchName


class PresenceIn(_InputModel):
    """``contestant_left`` / ``contestant_returned``: a contestant's player leaves or rejoins the server."""

    contestant: str


class UsePowerIn(_InputModel):
    contestant: str
    target: str
    second: str | None = None


class SkipPowerIn(_InputModel):
    contestant: str


class AnswerJokerIn(_InputModel):
    contestant: str
    accept: bool


class NominateCandidateIn(_InputModel):
    contestant: str
    target: str


class HoldBackIn(_InputModel):
    contestant: str


class KeepEveryoneIn(_InputModel):
    voter: str


class AskRepeatIn(_InputModel):
    contestant: str
    ask: bool


class ChooseSwordBearerIn(_InputModel):
    traitor: str
    target: str


class StrikeWithSwordIn(_InputModel):
    attacker: str
    victim: str


class OpenChestIn(_InputModel):
    contestant: str


class WriteConfessionIn(_InputModel):
    contestant: str
    text: str


class WriteResponseIn(_InputModel):
    traitor: str
    text: str


class GuessPowerIn(_InputModel):
    guesser: str
    target: str
    power: PowerName | None = None


class VoteNomineeIn(_InputModel):
    voter: str
    target: str


class AskSeerIn(_InputModel):
    seer: str
    target: str


class PutOnTrialIn(_InputModel):
    traitor: str
    target: str


class TakeDrinkIn(_InputModel):
    contestant: str
    drink: Literal["faithful_fancy", "traitors_tipple"]


class HostTwistIn(_InputModel):
    """``start_twist`` / ``cancel_twist``: the host starts or cancels a twist live (``host`` optional: the first)."""

    host: str | None = None
    twist: TwistName


class HostIn(_InputModel):
    """``pause_clock`` / ``resume_clock`` / ``undo_host_action`` / ``end_series``: a host control (docs/host.md)."""

    host: str


class ExtendPhaseIn(_InputModel):
    host: str
    seconds: int


class ReplaceContestantIn(_InputModel):
    host: str
    contestant: str
    player: str


class VotesIn(_InputModel):
    """``votes``: voter → target, cast in the order written."""

    votes: dict[str, str] = Field(min_length=1)
    """A target of ``keep everyone`` is the Mafia & Yakuza ``keep_everyone`` vote."""


class TorchesIn(_InputModel):
    """``torches``: finalist → torch, held up in the order written."""

    torches: dict[str, TorchName] = Field(min_length=1)


_INPUT_MODELS: dict[str, type[_InputModel]] = {
    "start_series": StartSeriesIn,
    "timer_expired": TimerExpiredIn,
    "advance": AdvanceIn,
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
    "pause_clock": HostIn,
    "resume_clock": HostIn,
    "undo_host_action": HostIn,
    "end_series": HostIn,
    "extend_phase": ExtendPhaseIn,
    "replace_contestant": ReplaceContestantIn,
    "timer": TimerIn,
    "oath": OathIn,
    "votes": VotesIn,
    "torches": TorchesIn,
}
"""Every input form by its ``action`` value: the engine's inputs (``ACTION_TYPES``, each a key here, as a test
checks) and the shorthands."""


# ---------------------------------------------------------------------------------------------- the scenario


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


@dataclass(frozen=True, slots=True)
class Scenario:
    """A loaded scenario: engine settings, seed and inputs, ready for ``play_scenario``.

    Args:
        path: the file as given (used in every error message).
        settings: the series settings (already validated).
        seed: the seed of the series' random generator.
        inputs: the engine inputs in order, shorthands expanded.
    """

    path: str
    settings: Settings | ClubSettings
    seed: int
    inputs: tuple[ScenarioInput, ...]


def load_scenario(path: str | Path) -> Scenario:
    """Read, validate and convert a scenario file (``docs/scenarios.md``).

    Args:
        path: a TOML scenario file.

    Returns:
        The scenario, with engine ``Settings`` already validated.

    Raises:
        ScenarioError: the file cannot be read, is not TOML, or has invalid or missing keys (every problem is
            listed, each naming the file and the key path), or the settings fail ``Settings.validate``.
    """
    name = str(path)
    text = read_config_text(path, ScenarioError)
    return parse_scenario(text, name)


def parse_scenario(text: str, name: str) -> Scenario:
    """Validate and convert the TOML text of a scenario.

    Args:
        text: the file's content.
        name: how to name the file in error messages.

    Raises:
        ScenarioError: as for ``load_scenario``.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(name, [f"not valid TOML: {exc}"]) from None
    return parse_scenario_data(data, name)


def parse_scenario_data(data: Mapping[str, Any], name: str) -> Scenario:
    """Validate and convert a parsed scenario (or series) mapping.

    Raises:
        ScenarioError: as for ``load_scenario``.
    """
    if isinstance(data.get("deal"), Mapping):
        data = {**{k: v for k, v in data.items() if k != "deal"}, "deal_table": data["deal"]}
    try:
        model = ScenarioModel.model_validate(data)
    except ValidationError as exc:
        problems = [("deal" + p[len("deal_table"):]) if p.startswith("deal_table") else p for p in _problems(exc)]
        # Report bad inputs too, so one run shows every problem of the file.
        raw_inputs = data.get("input")
        if isinstance(raw_inputs, list) and not any(p.startswith("input") for p in problems):
            problems += _input_problems(raw_inputs, data.get("hosts"))[1]
        raise ScenarioError(name, problems) from None
    inputs, problems = _input_problems(model.input, model.hosts)
    settings, more = _settings(model)
    problems += more
    if problems:
        raise ScenarioError(name, problems)
    assert settings is not None
    try:
        if isinstance(settings, ClubSettings):
            settings.validate(RULESETS[settings.ruleset].game.RULES)
        else:
            settings.validate()
    except ConfigError as exc:
        raise ScenarioError(name, [str(exc)]) from None
    return Scenario(path=name, settings=settings, seed=model.seed, inputs=tuple(inputs))


def play_scenario(scenario: Scenario) -> Any:
    """Play a scenario's inputs through the engine.

    The series starts with ``StartSeries`` at 0 s (implied unless the first input is ``start_series``). Each
    input happens at its ``at``, or 1 s after the previous input; a ``timer`` without ``at`` happens at the
    current phase's deadline (or 1 s after the previous input, if that is later).

    Args:
        scenario: a loaded scenario.

    Returns:
        The game after the last input (the series may or may not be over).

    Raises:
        ScenarioError: an input the engine refuses (``IllegalAction`` / ``InvalidCommand``; the message names the
            file, the input index and the engine's message with its key), an ``at`` earlier than the previous
            input, or a ``timer`` after the series is over.
    """
    game = new_game(scenario.settings, scenario.seed)
    inputs = list(scenario.inputs)
    prev: float | None = None
    if not inputs or not isinstance(inputs[0].action, StartSeries):
        game.handle(StartSeries(), now=0.0)
        prev = 0.0
    for item in inputs:
        if item.action is None and game.is_over:
            raise ScenarioError(scenario.path, [f"{item.where}: timer: the series is over; no phase clock runs"])
        now = _time_of(item, prev, game)
        if prev is not None and now < prev:
            raise ScenarioError(
                scenario.path, [f"{item.where}.at: {now:g} is earlier than the previous input ({prev:g})"]
            )
        action = item.action if item.action is not None else TimerExpired(game.phase_seq)
        try:
            game.handle(action, now=now)
        except (IllegalAction, InvalidCommand) as exc:
            raise ScenarioError(
                scenario.path,
                [f"{item.where}: the engine refused {_describe(action)}: {exc} [{exc.reason}]"],
            ) from None
        prev = now
    return game


# ---------------------------------------------------------------------------------------------- helpers


def _time_of(item: ScenarioInput, prev: float | None, game: Any) -> float:
    if item.at is not None:
        return item.at
    if prev is None:
        return 0.0
    if item.action is None and game.deadline is not None and game.deadline >= prev:
        return game.deadline
    return prev + 1.0


def _describe(action: Action) -> str:
    fields = {k: v for k, v in action.to_dict().items() if k != "action"}
    return f"{action.kind}(" + ", ".join(f"{k}={v}" for k, v in fields.items()) + ")"


def _key_path(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def _problems(exc: ValidationError, prefix: Sequence[int | str] = ()) -> list[str]:
    problems: list[str] = []
    for err in exc.errors(include_url=False):
        kind = err["type"]
        if kind == "missing":
            text = "field required"
        elif kind == "extra_forbidden":
            text = "unknown key"
        elif kind == "value_error":
            text = str(err.get("ctx", {}).get("error", err["msg"]))
        else:
            text = err["msg"][:1].lower() + err["msg"][1:]
        problems.append(f"{_key_path([*prefix, *err['loc']])}: {text}")
    return problems


def _input_problems(raw: Sequence[Any], hosts: object) -> tuple[list[ScenarioInput], list[str]]:
    """Validate every ``[[input]]`` table and expand it into engine inputs."""
    first_host = hosts[0] if isinstance(hosts, list) and hosts and isinstance(hosts[0], str) else None
    inputs: list[ScenarioInput] = []
    problems: list[str] = []
    for i, entry in enumerate(raw):
        where = f"input[{i}]"
        if not isinstance(entry, Mapping):
            problems.append(f"{where}: an input is a table such as {{ action = \"advance\" }}")
            continue
        kind = entry.get("action")
        if kind is None:
            problems.append(f"{where}.action: field required")
            continue
        model = _INPUT_MODELS.get(kind) if isinstance(kind, str) else None
        if model is None:
            known = ", ".join(_INPUT_MODELS)
            problems.append(f"{where}.action: unknown action {kind!r} (known: {known})")
            continue
        try:
            parsed = model.model_validate(dict(entry))
        except ValidationError as exc:
            problems += _problems(exc, ("input", i))
            continue
        try:
            inputs += _expand(i, parsed, first_host)
        except ValueError as exc:
            problems.append(f"{where}{exc}")
    return inputs, problems


def _expand(i: int, m: _InputModel, first_host: str | None) -> list[ScenarioInput]:
    """One validated input table → the engine inputs it stands for.

    Raises:
        ValueError: ``".<key>: <problem>"`` (the caller prefixes ``input[i]``).
    """
    at = m.at
    if isinstance(m, TimerIn):
        return [ScenarioInput(i, None, at)]
    if isinstance(m, AdvanceIn):
        host = m.host if m.host is not None else first_host
        if host is None:
            raise ValueError(".host: no host given and the scenario sets no hosts")
        return [ScenarioInput(i, Advance(host), at)]
    if isinstance(m, HostTwistIn):
        host = m.host if m.host is not None else first_host
        if host is None:
            raise ValueError(".host: no host given and the scenario sets no hosts")
        cls = StartTwist if m.action == "start_twist" else CancelTwist
        return [ScenarioInput(i, cls(host, m.twist), at)]
    if isinstance(m, OathIn):
        return [
            ScenarioInput(i, SwearOath(m.traitor), at if n == 0 else None, f"oath[{n}]") for n in range(OATH_ANSWERS)
        ]
    if isinstance(m, VotesIn):
        return [
            ScenarioInput(
                i,
                KeepEveryone(voter) if target == "keep everyone" else CastVote(voter, target),
                at if n == 0 else None,
                f"votes.{voter}",
            )
            for n, (voter, target) in enumerate(m.votes.items())
        ]
    if isinstance(m, TorchesIn):
        return [
            ScenarioInput(i, ChooseTorch(finalist, Torch(torch)), at if n == 0 else None, f"torches.{finalist}")
            for n, (finalist, torch) in enumerate(m.torches.items())
        ]
    builders: dict[type[_InputModel], Callable[[Any], Action]] = {
        StartSeriesIn: lambda _: StartSeries(),
        TimerExpiredIn: lambda x: TimerExpired(x.phase_seq),
        CastVoteIn: lambda x: CastVote(x.voter, x.target),
        SwearOathIn: lambda x: SwearOath(x.traitor),
        ChooseEventIn: lambda x: ChooseEvent(x.traitor, NightEvent(x.event), x.target),
        NominateDoubleVoteIn: lambda x: NominateDoubleVote(x.traitor, x.target),
        AnswerOfferIn: lambda x: AnswerOffer(x.contestant, x.accept),
        ChooseTorchIn: lambda x: ChooseTorch(x.finalist, Torch(x.torch)),
        PresenceIn: lambda x: (ContestantLeft if x.action == "contestant_left" else ContestantReturned)(x.contestant),
        UsePowerIn: lambda x: UsePower(x.contestant, x.target, x.second),
        SkipPowerIn: lambda x: SkipPower(x.contestant),
        AnswerJokerIn: lambda x: AnswerJoker(x.contestant, x.accept),
        NominateCandidateIn: lambda x: NominateCandidate(x.contestant, x.target),
        HoldBackIn: lambda x: HoldBack(x.contestant),
        KeepEveryoneIn: lambda x: KeepEveryone(x.voter),
        AskRepeatIn: lambda x: AskRepeat(x.contestant, x.ask),
        ChooseSwordBearerIn: lambda x: ChooseSwordBearer(x.traitor, x.target),
        StrikeWithSwordIn: lambda x: StrikeWithSword(x.attacker, x.victim),
        OpenChestIn: lambda x: OpenChest(x.contestant),
        WriteConfessionIn: lambda x: WriteConfession(x.contestant, x.text),
        WriteResponseIn: lambda x: WriteResponse(x.traitor, x.text),
        GuessPowerIn: lambda x: GuessPower(x.guesser, x.target, x.power),
        VoteNomineeIn: lambda x: VoteNominee(x.voter, x.target),
        AskSeerIn: lambda x: AskSeer(x.seer, x.target),
        PutOnTrialIn: lambda x: PutOnTrial(x.traitor, x.target),
        TakeDrinkIn: lambda x: TakeDrink(x.contestant, Drink(x.drink)),
        HostIn: lambda x: ACTION_TYPES[x.action](x.host),
        ExtendPhaseIn: lambda x: ExtendPhase(x.host, x.seconds),
        ReplaceContestantIn: lambda x: ReplaceContestant(x.host, x.contestant, x.player),
    }
    action = builders[type(m)](m)
    # The full forms are exactly ``Action.to_dict()``: keep them in step with the engine.
    assert action_from_dict(action.to_dict()) == action
    return [ScenarioInput(i, action, at)]


def _settings(m: ScenarioModel) -> tuple[Settings | ClubSettings | None, list[str]]:
    """Convert the validated file into engine settings (engine defaults for keys not written): ``Settings``
    for ``traitors``, ``ClubSettings`` for the club rulesets."""
    if m.ruleset != "traitors":
        return _club_settings(m)
    problems: list[str] = []
    deal: tuple[DealEntry, ...] | None = None
    for key in ("day_execution", "morning_news", "max_days"):
        if getattr(m, key) is not None:
            problems.append(f"{key}: not a setting of the traitors ruleset")
    if m.deal_table is not None:
        problems.append("deal: the traitors ruleset takes an explicit deal, one [[deal]] table per contestant")
        return None, problems
    for i, d in enumerate(m.deal or []):
        if d.allegiance is None:
            problems.append(f"deal[{i}].allegiance: field required")
        if d.role is not None:
            problems.append(f"deal[{i}].role: the traitors ruleset deals allegiances and powers, not roles")
    if problems:
        return None, problems
    if m.deal is not None:
        deal = tuple(DealEntry(d.name, d.allegiance, d.power, d.false_power, d.drunk) for d in m.deal)  # type: ignore[arg-type]
    contestants = m.contestants
    if contestants is None:
        if deal is None:
            problems.append("contestants: field required (or give an explicit [[deal]])")
        else:
            contestants = [d.name for d in deal]
    if deal is not None and m.traitors is not None:
        dealt = sum(d.allegiance is Allegiance.TRAITOR for d in deal)
        if dealt != m.traitors:
            problems.append(f"traitors: {m.traitors}, but the deal has {dealt} Traitors")
    twists: dict[int, tuple[Twist, ...]] = {}
    for key, names in m.twists.items():
        if not key.isdigit():
            problems.append(f"twists.{key}: a key is a day number, e.g. twists = {{ 1 = [\"double_vote\"] }}")
            continue
        twists[int(key)] = tuple(names)
    if problems:
        return None, problems
    assert contestants is not None
    kwargs: dict[str, Any] = {
        "contestants": tuple(contestants),
        "hosts": tuple(m.hosts),
        "twists": twists,
        "durations": dict(m.durations),
        "deal": deal,
    }
    for key in (
        "traitors",
        "drunk",
        "powers",
        "first_night_murder",
        "no_reveal_from",
        "finalists",
        "joker_night",
        "joker_outcome",
        "confession_shields",
        "trial_contestants",
        "no_votes",
    ):
        value = getattr(m, key)
        if value is not None:
            kwargs[key] = value
    if m.power_pool is not None:
        kwargs["power_pool"] = tuple(m.power_pool)
    return Settings(**kwargs), []


_TRAITORS_ONLY = (
    "traitors", "drunk", "powers", "power_pool", "first_night_murder", "joker_night", "joker_outcome",
    "no_reveal_from", "finalists", "confession_shields", "trial_contestants", "no_votes",
)  # fmt: skip


def _club_settings(m: ScenarioModel) -> tuple[ClubSettings | None, list[str]]:
    """A club ruleset's settings: contestants, hosts, ``deal`` (explicit ``[[deal]]`` with ``role``, or the
    count → roles table), ``day_execution``, ``morning_news``, ``max_days``, ``durations``."""
    problems = [f"{k}: not a setting of the {m.ruleset} ruleset" for k in _TRAITORS_ONLY if getattr(m, k) is not None]
    if m.twists:
        problems.append(f"twists: not a setting of the {m.ruleset} ruleset")
    explicit: tuple[tuple[str, str], ...] | None = None
    table: dict[int, tuple[str, ...]] = {}
    if m.deal is not None:
        pairs = []
        for i, d in enumerate(m.deal):
            if d.role is None:
                problems.append(f"deal[{i}].role: field required")
            for key in ("allegiance", "power", "false_power"):
                if getattr(d, key) is not None:
                    problems.append(f"deal[{i}].{key}: not part of a {m.ruleset} deal (give a role)")
            pairs.append((d.name, d.role or ""))
        explicit = tuple(pairs)
    if m.deal_table is not None:
        for key, roles in m.deal_table.items():
            if not key.isdigit():
                problems.append(f"deal.{key}: a key is a contestant count, e.g. deal = {{ 8 = [...] }}")
                continue
            table[int(key)] = tuple(roles)
    contestants = m.contestants
    if contestants is None:
        if explicit is None:
            problems.append("contestants: field required (or give an explicit [[deal]])")
        else:
            contestants = [n for n, _ in explicit]
    if problems:
        return None, problems
    assert contestants is not None
    keys = ("day_execution", "morning_news", "max_days")
    kwargs: dict[str, Any] = {k: getattr(m, k) for k in keys if getattr(m, k) is not None}
    return (
        ClubSettings(
            ruleset=m.ruleset, contestants=tuple(contestants), hosts=tuple(m.hosts), deal=explicit,
            deal_table=table, durations=dict(m.durations), **kwargs,
        ),  # fmt: skip
        [],
    )


def settings_from_mapping(data: Mapping[str, Any], name: str) -> Settings | ClubSettings:
    """Series settings of any ruleset from a parsed TOML mapping (a series file such as
    ``world_config/series/black_knights.toml``; no inputs). The one settings conversion until the config loader
    (issue 9) takes over.

    Raises:
        ScenarioError: invalid keys or values (the message names the file and key).
    """
    return parse_scenario_data({**data, "input": []}, name).settings


# ---------------------------------------------------------------------------------------------- settings as JSON


def settings_to_json(settings: Settings | ClubSettings) -> dict[str, Any]:
    """The series settings as plain JSON data, in the scenario file's keys (``docs/scenarios.md``).

    Every field is written (defaults included), so ``settings_from_json`` gives back an equal settings value;
    the series store keeps settings in this form (``docs/recovery.md``).

    Args:
        settings: any ruleset's settings (need not be valid).

    Returns:
        For ``traitors``: ``{"ruleset": "traitors", "contestants": [...], "traitors": 3, "hosts": [...],
        "drunk": "none", "powers": true, "power_pool": [...], "first_night_murder": false, "joker_night": 2,
        "joker_outcome": "joker_wins", "no_reveal_from": 5, "finalists": 4, "twists": {"1": ["double_vote"]},
        "durations": {"vote": 120.0}, "deal": null | [{"name", "allegiance", "power", "false_power",
        "drunk"}, ...]}``; for a club ruleset: ``ruleset``, ``contestants``, ``hosts``, ``deal`` (null or
        ``[{"name", "role"}]``), ``deal_table``, ``day_execution``, ``morning_news``, ``max_days``, ``durations``.
    """
    if isinstance(settings, ClubSettings):
        return {
            "ruleset": settings.ruleset,
            "contestants": list(settings.contestants),
            "hosts": list(settings.hosts),
            "deal": None if settings.deal is None else [{"name": n, "role": r} for n, r in settings.deal],
            "deal_table": {str(k): list(v) for k, v in sorted(settings.deal_table.items())},
            "day_execution": settings.day_execution,
            "morning_news": settings.morning_news,
            "max_days": settings.max_days,
            "durations": {k: float(v) for k, v in settings.durations.items()},
        }
    deal = None
    if settings.deal is not None:
        deal = [
            {
                "name": e.name,
                "allegiance": e.allegiance.value,
                "power": e.power.value if e.power is not None else None,
                "false_power": e.false_power.value if e.false_power is not None else None,
                "drunk": e.drunk,
            }
            for e in settings.deal
        ]
    return {
        "ruleset": "traitors",
        "contestants": list(settings.contestants),
        # with an explicit deal the deal says who the Traitors are; the count is then not a setting
        "traitors": settings.traitors if settings.deal is None else None,
        "hosts": list(settings.hosts),
        "drunk": settings.drunk,
        "powers": settings.powers,
        "power_pool": [p.value for p in settings.power_pool],
        "first_night_murder": settings.first_night_murder,
        "joker_night": settings.joker_night if settings.joker_night is not None else 0,  # 0: never offered
        "joker_outcome": settings.joker_outcome,
        "no_reveal_from": settings.no_reveal_from,
        "finalists": settings.finalists,
        "confession_shields": settings.confession_shields,
        "trial_contestants": settings.trial_contestants,
        "no_votes": settings.no_votes,
        "twists": {str(day): [t.value for t in ts] for day, ts in sorted(settings.twists.items())},
        "durations": {k: float(v) for k, v in settings.durations.items()},
        "deal": deal,
    }


def settings_from_json(data: Mapping[str, Any], where: str = "settings") -> Settings | ClubSettings:
    """The inverse of ``settings_to_json``: validate the data with the scenario model and build the settings.

    Args:
        data: JSON data as written by ``settings_to_json`` (scenario keys; ``seed`` and ``input`` not allowed).
        where: names the source in error messages (a file, or ``series.db: series 1``).

    Returns:
        The settings (not ``validate()``d; the game does that).

    Raises:
        ScenarioError: a key is unknown, missing or of the wrong type; the message names ``where`` and the key.
    """
    if "seed" in data or "input" in data:
        raise ScenarioError(where, ["settings hold no seed or inputs"])
    body = {k: v for k, v in data.items() if v is not None}
    if "deal_table" in body and not body["deal_table"]:
        body.pop("deal_table")
    try:
        m = ScenarioModel.model_validate(body)
    except ValidationError as exc:
        raise ScenarioError(where, _problems(exc)) from None
    settings, problems = _settings(m)
    if problems:
        raise ScenarioError(where, problems)
    assert settings is not None
    return settings


def load_series_settings(path: str | Path) -> Settings | ClubSettings:
    """Read a series configuration (``world_config/series/*.toml``) into engine settings.

    The one series loader is ``bridge.config.series.load_series`` (the scenario settings model plus ``ruleset`` and
    ``contestant_count``); this returns its settings for the file's own contestants (placeholder names when the
    file names none).

    Args:
        path: a TOML series file.

    Raises:
        ScenarioError: unreadable or invalid; every error names the file and the key.
    """
    from bridge.config.series import load_series

    series = load_series(path)
    return series.settings_for() if series.named else series.settings


__all__ = [
    "Scenario",
    "ScenarioError",
    "ScenarioInput",
    "load_scenario",
    "load_series_settings",
    "parse_scenario",
    "parse_scenario_data",
    "play_scenario",
    "settings_from_json",
    "settings_from_mapping",
    "settings_to_json",
]
