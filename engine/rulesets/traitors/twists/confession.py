"""The Confession twist (rulebook §8 "Confession"; §7.3 "With the Confession twist active the Traitors go to the
Confession room first and decide after it"; traitors.md line "**Confession** [rule: stage one in discussion,
confession chests, the only source of murder shields; the Traitors learn who found shields; they answer in the
Traitors' Response book]").

Rule, on day d [house mechanics]: during day d's discussion there is one closed chest per living contestant, and
``confession_shields`` of them hold a murder shield. Each living contestant may open one chest (``OpenChest``;
the seeded generator decides, chest by chest, whether it holds one of the shields left) and may send a
confession to the Traitors written in their confession book (``WriteConfession``; sending again replaces it).
When discussion ends the chests close and the confession books are collected. A murder shield protects its
holder on night d only (used before The Guardian and The Survivor's alert; never against an ultimatum); unused
shields are taken back when night d ends. On night d the Traitors are sent to the Confession (the confession room)
instead of the Turret (rule T8.4): they read every confession (signed), learn who found a shield, and may write one
anonymous reply (``WriteResponse``, in a response draft held only that night). The first reply sent, or the end of
the clock (or the host moving on), ends the Confession; only then, still in the confession room, do they make the
night's decisions (``night.end_confession``).
At breakfast d+1 every living contestant receives the Traitors' Response book with that reply [house: the
Traitors too, so that not having one reveals nobody].

Precondition [house]: night d can have an event (more than ``finalists + 1`` contestants remain).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action, ByContestant, ByTraitor
from engine.effects import Choice, GiveItem, Prompt, TakeItem, msg
from engine.errors import IllegalAction
from engine.ids import Item, Twist
from engine.input_trigger import InputTrigger
from engine.record import TwistRecord
from engine.rulesets.traitors.context import Context
from engine.rulesets.traitors.phases import Phase, Stage
from engine.rulesets.traitors.turret import check_turret
from engine.rulesets.traitors.twists.base import check_text, lapses
from engine.rulesets.traitors.twists.spec import TwistInput, TwistSpec

KEY = Twist.declare("confession", 3)
"""The Confession twist's key; 3 is its number on the host's ``traitors.twist`` trigger."""


@dataclass(frozen=True, slots=True)
class OpenChest(ByContestant):
    """A contestant opens one confession chest during discussion (§8 Confession twist)."""

    kind: ClassVar[str] = "open_chest"


@dataclass(frozen=True, slots=True)
class WriteConfession(ByContestant):
    """A contestant sends the confession written in their confession book to the Traitors (§8 Confession).

    ``text`` is the book's text (the bridge reads it from the held book); an empty text is refused.
    """

    kind: ClassVar[str] = "write_confession"
    text: str


@dataclass(frozen=True, slots=True)
class WriteResponse(ByTraitor):
    """A Traitor sends the Traitors' one anonymous reply to the confessions (§8 Confession); the last sent
    before the Turret closes is delivered at breakfast."""

    kind: ClassVar[str] = "write_response"
    text: str


def precondition(game: Context, _day: int) -> str | None:
    """See the module docstring."""
    if len(game.living()) <= game.settings.finalists + 1:
        return "illegal.twist.too_few"
    return None


def begin_discussion(game: Context) -> None:
    """Day d: the chests open; each contestant gets a confession book and the prompt."""
    day = game.day
    if not game.twist_state.is_on(day, Twist.CONFESSION) or (day, Twist.CONFESSION) in game.twist_state.begun:
        return
    if lapses(game, Twist.CONFESSION, day, precondition):
        return
    st = game.twist_state
    living = game.living()
    st.confession_day = day
    st.chests = (len(living), min(game.settings.confession_shields, len(living)))
    st.opened.clear()
    st.shield_finders = []
    st.confessions = {}
    st.response = None
    game.announce("confession.open", shields=st.chests[1])
    for n in living:
        game.emit(GiveItem(frozenset({n}), Item.CONFESSION_BOOK, None))
    for n in living:
        _prompt(game, n)


def _prompt(game: Context, name: str) -> None:
    choices = []
    if name not in game.twist_state.opened:
        choices.append(Choice(msg("confession.choice.open").text, OpenChest(name)))
    choices.append(Choice(msg("confession.choice.send").text, WriteConfession(name, "")))
    game.emit(Prompt(frozenset({name}), msg("confession.prompt"), tuple(choices)))


def _open(game: Context) -> bool:
    return game.phase is Phase.DISCUSSION and game.twist_state.confession_day == game.day


def validate(game: Context, action: OpenChest | WriteConfession | WriteResponse) -> Callable[[], None]:
    """Chests and confessions during the confession discussion; the response in the Turret that night.

    Raises:
        IllegalAction: not now, a second chest, an empty or over-long text.
    """
    st = game.twist_state
    if isinstance(action, OpenChest):
        if not _open(game):
            raise IllegalAction("illegal.chest.closed")
        if action.contestant in st.opened:
            raise IllegalAction("illegal.chest.opened")
        return lambda: _open_chest(game, action.contestant)
    if isinstance(action, WriteConfession):
        if not _open(game):
            raise IllegalAction("illegal.confession.closed")
        text = check_text(action.text)

        def confess() -> None:
            st.confessions[action.contestant] = text
            game.whisper([action.contestant], "confession.sent")

        return confess
    check_turret(game, action.actor, confession=True)
    if not confession_night(game):
        raise IllegalAction("illegal.confession.closed")
    if st.response is not None:  # the one reply is sent; the Confession waits for its clock (phases house rule 9)
        raise IllegalAction("illegal.turret.already")
    text = check_text(action.text)

    def respond() -> None:
        assert game.night
        st.response = text
        game.whisper(game.night.traitors, "confession.response_saved")
        if not game.settings.night_fixed_length:  # phases house rule 9: else at the end of the clock
            game.go(Stage.END_CONFESSION)

    return respond


def _open_chest(game: Context, name: str) -> None:
    """One chest: a shield with probability (shields left) / (chests left), drawn by the seeded generator."""
    st = game.twist_state
    left, shields = st.chests
    st.opened.add(name)
    found = left > 0 and game.rng.randrange(left) < shields
    st.chests = (max(0, left - 1), shields - found)
    if found:
        st.shield_finders.append(name)
        game.emit(GiveItem(frozenset({name}), Item.MURDER_SHIELD, None))
        game.whisper([name], "confession.shield")
    else:
        game.whisper([name], "confession.empty")


def end_discussion(game: Context) -> None:
    """The chests close and the confession books are collected; night d will read the confessions."""
    st = game.twist_state
    if st.confession_day != game.day:
        return
    st.response_due = True
    game.emit(TakeItem(Item.CONFESSION_BOOK, None))
    game.record.events.append(
        TwistRecord(
            game.day,
            Twist.CONFESSION.value,
            {"shields": list(st.shield_finders), "confessions": sorted(st.confessions)},
        )
    )


def begin_night(game: Context) -> None:
    """Night d: the shields found today protect their holders tonight (``PowerState.shields``)."""
    st = game.twist_state
    if st.response_due and st.confession_day == game.day:
        game.powers.shields |= {n for n in st.shield_finders if game.players[n].alive}


def enter_turret(game: Context) -> None:
    """Night d, entering the Turret: the confessions (signed) and who found a shield; the response draft."""
    st = game.twist_state
    night = game.night
    assert night
    if not st.response_due or st.confession_day != game.day or not night.traitors:
        return
    if st.confessions:
        for writer in sorted(st.confessions, key=lambda n: game.players[n].seat):
            game.whisper(night.traitors, "confession.read", player=writer, text=st.confessions[writer])
    else:
        game.whisper(night.traitors, "confession.none")
    if st.shield_finders:
        game.whisper(night.traitors, "confession.shields", players=", ".join(st.shield_finders))
    else:
        game.whisper(night.traitors, "confession.no_shields")
    for t in night.traitors:
        game.emit(GiveItem(frozenset({t}), Item.RESPONSE_DRAFT, None))


def confession_night(game: Context) -> bool:
    """True on a confession night (rule T8.4): the Traitors go to the Confession instead of the Turret."""
    st = game.twist_state
    return st.response_due and st.confession_day == game.day


def prompt_response(game: Context) -> None:
    """Ask the Traitors at the Confession for their response; the first one sent ends the Confession."""
    night = game.night
    assert night
    for t in night.traitors:
        game.emit(
            Prompt(
                frozenset({t}),
                msg("confession.respond"),
                (Choice(msg("confession.choice.respond").text, WriteResponse(t, "")),),
            )
        )


def end_night(game: Context) -> None:
    """Unused murder shields are taken back: they protect the following night only."""
    st = game.twist_state
    if st.response_due and st.confession_day == game.day and st.shield_finders:
        game.emit(TakeItem(Item.MURDER_SHIELD, tuple(st.shield_finders)))


def breakfast(game: Context) -> None:
    """Breakfast d+1: the Traitors' Response book for every living contestant (or the news that none came)."""
    st = game.twist_state
    if not st.response_due:
        return
    day = st.confession_day if st.confession_day is not None else game.day - 1
    st.response_due = False
    st.confession_day = None
    if st.response is None:
        game.announce("confession.no_response")
        return
    game.announce("confession.response")
    for n in game.living():
        game.emit(GiveItem(frozenset({n}), Item.RESPONSE_BOOK, st.response))
    # Recorded under the confession's day, not the breakfast's.
    game.record.events.append(TwistRecord(day, Twist.CONFESSION.value, {"response": st.response}))
    st.response = None


INPUT_PHASES = frozenset({Phase.DISCUSSION})
"""Phases in which ``legal_actions`` can offer an input (a chest; the texts are free inputs, not listed)."""


def legal_actions(game: Context, player: str) -> list[Action]:
    """Opening a chest, for a contestant who has not opened one while the chests are open."""
    if _open(game) and player not in game.twist_state.opened:
        return [OpenChest(player)]
    return []


def leave_turret(game: Context) -> None:
    """The Traitors go home: the response draft is taken back."""
    night = game.night
    if night is None or not night.traitors:
        return
    st = game.twist_state
    if st.response_due and st.confession_day == game.day:
        game.emit(TakeItem(Item.RESPONSE_DRAFT, tuple(night.traitors)))


def soonest(game: Context) -> int:
    """Day d's discussion: started at breakfast, still today; otherwise tomorrow."""
    d = game.day
    return d if game.phase is Phase.BREAKFAST and d >= 1 else d + 1


MESSAGES: dict[str, str] = {
    "confession.open": "The confession room is open. {shields:chests_hold} a murder shield: each contestant may open one chest and write a confession to the Traitors.",
    "confession.prompt": "Open a confession chest, or send the confession written in your confession book.",
    "confession.choice.open": "Open a chest",
    "confession.choice.send": "Send my confession",
    "confession.shield": "Your chest holds a murder shield. It protects you from murder tonight only.",
    "confession.empty": "Your chest is empty.",
    "confession.sent": "Your confession is sent to the Traitors.",
    "confession.read": "Confession from {player}: {text}",
    "confession.none": "Nobody wrote a confession.",
    "confession.shields": "Murder shields were found by: {players}.",
    "confession.no_shields": "Nobody found a murder shield.",
    "confession.respond": "Write one anonymous reply in the response draft and send it. Everyone receives it at breakfast.",
    "confession.choice.respond": "Send the response",
    "confession.response_saved": "The Traitors' response is saved.",
    "confession.response": "The Traitors have answered the confessions: read your Traitors' Response book.",
    "confession.no_response": "The Traitors did not answer the confessions.",
    "illegal.chest.closed": "The confession chests are not open.",
    "illegal.chest.opened": "You have already opened a chest.",
    "illegal.confession.closed": "Confessions are not being collected now.",
    "illegal.turret.confessing": "Answer the confessions first: tonight's decisions come after the Confession.",
}
"""The Confession twist's messages: catalogue key → English (the registry adds them to ``engine.messages.CATALOG``)."""


SPEC = TwistSpec(
    KEY,
    "The Confession twist",
    inputs=(
        TwistInput(
            OpenChest,
            INPUT_PHASES,
            validate,
            "traitors.dialog.title.confession",
            ("confession.choice.open",),
            InputTrigger("chest", "Chest"),
        ),
        TwistInput(
            WriteConfession,
            INPUT_PHASES,
            validate,
            "traitors.dialog.title.confession",
            ("confession.choice.send",),
            InputTrigger("confess", "Confession", book=Item.CONFESSION_BOOK),
        ),
        TwistInput(
            WriteResponse,
            frozenset({Phase.TURRET}),
            validate,
            "traitors.dialog.title.turret",
            ("confession.choice.respond",),
            InputTrigger("respond", "Response", book=Item.RESPONSE_DRAFT),
        ),
    ),
    input_phases=INPUT_PHASES,
    legal_actions=legal_actions,
    hooks={
        "confession_first": confession_night,
        "enter_turret": enter_turret,
        "prompt_confession": prompt_response,
        "leave_turret": leave_turret,
        "begin_night": begin_night,
        "end_night": end_night,
        "breakfast": breakfast,
        "begin_discussion": begin_discussion,
        "end_discussion": end_discussion,
    },
    precondition=precondition,
    soonest=soonest,
    messages=MESSAGES,
)
"""The Confession twist's entry in the twists' registry."""
