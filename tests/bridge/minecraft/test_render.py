"""bridge/minecraft/render.py: effects + the sample castle → exact commands; secrets only to named players."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mecha import Mecha
from mecha.ast import AstNbt

from bridge.config.castle import default_castle
from bridge.minecraft.core import MAX_COMMAND_BYTES, utf8_size
from bridge.minecraft.render import RenderContext, clock_hidden, clock_update, render, setup_commands
from bridge.minecraft.syntax import check_command
from bridge.minecraft.triggers import TRIGGERS, trigger_command
from engine.actions import AnswerOffer, CastVote, ChooseEvent, ChooseTorch, EndSeries, StartSeries, TimerExpired
from engine.effects import (
    Announce,
    Choice,
    ClockStarted,
    Effect,
    Eliminated,
    GiveItem,
    MoveTo,
    Prompt,
    Revealed,
    SeriesOver,
    ShowTitle,
    TakeItem,
    Whisper,
    msg,
)
from engine.ids import Allegiance, Item, NightEvent, Place, Torch
from engine.outcome import Outcome, Termination, Winner
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.settings import Settings

CASTLE = default_castle()
SEATS = {"Alex": 1, "Bea": 2, "Cal": 3, "Dee": 4}
CTX = RenderContext(castle=CASTLE, seats=SEATS)
_MECHA = Mecha(version="1.21")

CASTLE_PREFIX = '{text:"[Castle] ",color:"gold",bold:true}'
WHISPER_PREFIX = '{text:"[Castle, to you] ",color:"light_purple",italic:true}'


def texts(effect: Effect) -> list[str]:
    commands = render(effect, CTX)
    for c in commands:
        check_command(c.text)
    return [c.text for c in commands]


EXPECTED: list[tuple[Effect, list[str]]] = [
    (
        Announce(msg("phase.breakfast", day=2)),
        [
            f'tellraw @a {{text:"",extra:[{CASTLE_PREFIX},{{translate:"traitors.phase.breakfast",'
            'fallback:"Day 2: breakfast.",with:[{text:"2"}],color:"yellow",bold:false}]}'
        ],
    ),
    (
        Whisper(to=frozenset({"Bea", "Alex"}), message=msg("turret.traitors", players="Alex, Bea")),
        [
            f'tellraw {name} {{text:"",extra:[{WHISPER_PREFIX},{{translate:"traitors.turret.traitors",'
            'fallback:"The Traitors: Alex, Bea.",with:[{text:"Alex, Bea"}],color:"white",italic:false}]}'
            for name in ("Alex", "Bea")
        ],
    ),
    (
        Prompt(
            to=frozenset({"Alex"}),
            message=msg("vote.prompt"),
            choices=(Choice("Bea", CastVote("Alex", "Bea")), Choice("Cal", CastVote("Alex", "Cal"))),
        ),
        [
            'function traitors:ui/prompt {player:"Alex",title:{translate:'
            '"traitors.dialog.title.vote",fallback:"Round table",color:"gold",bold:true},body:{translate:'
            '"traitors.vote.prompt",fallback:"Who do you banish?"},actions:[{label:{text:"Bea"},action:'
            '{type:"run_command",command:"/trigger traitors.vote set 2"}},{label:{text:"Cal"},action:'
            '{type:"run_command",command:"/trigger traitors.vote set 3"}}]}',
            f'tellraw Alex {{text:"",extra:[{WHISPER_PREFIX},{{translate:"traitors.vote.prompt",'
            'fallback:"Who do you banish?",color:"white",italic:false},{text:" "},'
            '{text:"[Bea]",color:"aqua",bold:true,italic:false,click_event:{action:"run_command",'
            'command:"/trigger traitors.vote set 2"},hover_event:{action:"show_text",'
            'value:{translate:"traitors.choice.hover",fallback:"Choose Bea",with:[{text:"Bea"}],color:"gray"}}},{text:" "},'
            '{text:"[Cal]",color:"aqua",bold:true,italic:false,click_event:{action:"run_command",'
            'command:"/trigger traitors.vote set 3"},hover_event:{action:"show_text",'
            'value:{translate:"traitors.choice.hover",fallback:"Choose Cal",with:[{text:"Cal"}],color:"gray"}}}]}',
        ],
    ),
    (
        ShowTitle(title=msg("phase.finale"), subtitle=msg("clock.torches")),
        [
            "title @a times 10 70 20",
            'title @a subtitle {translate:"traitors.clock.torches",fallback:"Finale torches",color:"white"}',
            'title @a title {translate:"traitors.phase.finale",fallback:"The finale begins.",color:"gold",bold:true}',
        ],
    ),
    (
        ShowTitle(title=msg("diary.murdered"), to=frozenset({"Cal"})),
        [
            "title Cal times 10 70 20",
            'title Cal title {translate:"traitors.diary.murdered",'
            'fallback:"You have been murdered. Go to the diary room.",color:"gold",bold:true}',
        ],
    ),
    (
        MoveTo(players=("Alex", "Bea"), place=Place.ROUND_TABLE, seats=(1, 5)),
        ["tp Alex 88.5 65.0 -23.5 -180.0 10.0", "tp Bea 94.5 65.0 -29.5 90.0 10.0"],
    ),
    (MoveTo(players=("Cal",), place=Place.HOME, seats=(9,)), ["tp Cal 81.5 65.0 39.5 -90.0 0.0"]),
    (MoveTo(players=("Dee",), place=Place.DIARY_ROOM), ["tp Dee 88.5 71.0 -39.5 180.0 0.0"]),
    (MoveTo(players=("Dee",), place=Place.GATE), ["tp Dee 88.5 65.0 1.5 0.0 0.0"]),
    (
        GiveItem(to=frozenset({"Alex"}), item=Item.CAST_VOTE_PAPER, label="Bea"),
        [
            'give Alex minecraft:paper[item_name={translate:"traitors.item.cast_vote_paper",fallback:"Cast Vote Paper",color:"white",italic:false},'
            'custom_name={text:"Bea",color:"white",italic:false},'
            'lore=[{translate:"traitors.item.cast_vote_paper.lore",fallback:"A cast vote cannot be changed",color:"gray",italic:false}],'
            'custom_data={traitors:{item:"cast_vote_paper"}},max_stack_size=1] 1'
        ],
    ),
    (
        GiveItem(to=frozenset({"Bea"}), item=Item.BANISH_TORCH, label="Cal"),
        [
            'give Bea minecraft:redstone_torch[item_name={translate:"traitors.item.banish_torch",fallback:"Finale Torch",color:"gold",italic:false},'
            'custom_name={text:"Cal",color:"white",italic:false},'
            'lore=[{translate:"traitors.item.banish_torch.lore",fallback:"Turns red (banish again) or green (end game) when placed",color:"gray",italic:false}],'
            'custom_data={traitors:{item:"banish_torch"}},max_stack_size=1,item_model="minecraft:torch"] 1'
        ],
    ),
    (TakeItem(item=Item.VOTE_PAPER), ['clear @a *[custom_data~{traitors:{item:"vote_paper"}}]']),
    # Ballot papers taken from several voters at once (the vote closes): one clear for everyone.
    (
        TakeItem(item=Item.CAST_VOTE_PAPER, players=("Cal", "Alex")),
        ['clear @a *[custom_data~{traitors:{item:"cast_vote_paper"}}]'],
    ),
    (TakeItem(item=Item.VOTE_PAPER, players=("Cal",)), ['clear Cal *[custom_data~{traitors:{item:"vote_paper"}}]']),
    (
        TakeItem(item=Item.SACRED_SWORD, players=("Cal", "Alex")),
        [
            'clear Cal *[custom_data~{traitors:{item:"sacred_sword"}}]',
            'clear Alex *[custom_data~{traitors:{item:"sacred_sword"}}]',
        ],
    ),
    (
        ClockStarted(phase_seq=4, label=msg("clock.vote"), seconds=119.2, deadline=1000.0),
        [
            'function traitors:ui/clock {name:{translate:"traitors.clock.vote",fallback:"Vote",color:"white"},'
            "seconds:120}",
        ],
    ),
    (
        Revealed(player="Alex", allegiance=Allegiance.TRAITOR),
        [
            "title @a times 10 70 20",
            'title @a subtitle {translate:"traitors.banish.reveal",fallback:"Alex was a Traitor.",'
            'with:[{text:"Alex"},{translate:"traitors.term.allegiance.a_traitor",fallback:"a Traitor"}],color:"white"}',
            'title @a title {translate:"traitors.title.traitor",fallback:"Traitor",color:"dark_red",bold:true}',
        ],
    ),
    (Eliminated(player="Cal", how="murdered", to=frozenset({"Cal"})), []),
    # the engine announces the end itself (Announce + ShowTitle); SeriesOver only tells the service
    (SeriesOver(Outcome(Winner.FAITHFUL, Termination.FINALE_AGREED, ("Bea", "Cal"))), []),
]


@pytest.mark.parametrize(("effect", "expected"), EXPECTED, ids=[type(e).__name__ for e, _ in EXPECTED])
def test_render_exact(effect: Effect, expected: list[str]) -> None:
    assert texts(effect) == expected


def test_revealed_faithful() -> None:
    out = texts(Revealed(player="Bea", allegiance=Allegiance.FAITHFUL))
    assert 'title @a title {translate:"traitors.title.faithful",fallback:"Faithful",color:"green",bold:true}' in out
    assert any('fallback:"Bea was Faithful."' in t for t in out)


@pytest.mark.parametrize("how", ["rules", "host"])
def test_the_end_of_a_series_is_announced_once(how: str) -> None:
    """Issue 21 point 5: the effects that end a series (by the rules: the clock alone plays this one to its end;
    or by the host) say the end once in chat and show one title."""
    game = Game(
        Settings(contestants=("Ann", "Bea", "Cal", "Dan", "Eve", "Fay"), traitors=1, hosts=("Host",), powers=False),
        seed=1,
    )
    effects = game.handle(StartSeries(), now=0.0)
    while not game.is_over:
        action = TimerExpired(game.phase_seq) if how == "rules" else EndSeries("Host")
        effects = game.handle(action, now=game.deadline or 0.0)
    assert any(isinstance(e, SeriesOver) for e in effects)
    out = [t for e in effects for t in texts(e)]
    assert sum('translate:"traitors.series.over' in t for t in out) == 1, out
    assert sum(t.startswith("title @a title ") for t in out) == 1, out


def test_a_banished_contestants_reveal_is_said_once() -> None:
    """A banishment's reveal is one chat line (the engine's announcement) and one title (``Revealed``)."""
    game = Game(
        Settings(contestants=("Ann", "Bea", "Cal", "Dan", "Eve", "Fay"), traitors=1, hosts=("Host",), powers=False),
        seed=1,
    )
    out: list[str] = []
    effects = game.handle(StartSeries(), now=0.0)
    while not any(isinstance(e, Revealed) for e in effects):
        assert not game.is_over, "the series ended before a banishment revealed anyone"
        votes = [a for p in game.settings.contestants for a in game.legal_actions(p) if isinstance(a, CastVote)]
        action = votes[0] if votes else TimerExpired(game.phase_seq)
        effects = game.handle(action, now=game.deadline or 0.0)
    out = [t for e in effects for t in texts(e)]
    assert sum(t.startswith("tellraw @a") and 'translate:"traitors.banish.reveal"' in t for t in out) == 1, out
    assert sum(t.startswith("title @a title ") for t in out) == 1, out


def test_unknown_effect_type_raises() -> None:
    @dataclass(frozen=True)
    class Fireworks:  # an effect the renderer does not know (not an Effect subclass: those may be compiled)
        pass

    with pytest.raises(TypeError, match="Fireworks"):
        render(Fireworks(), CTX)  # type: ignore[arg-type]


def test_move_falls_back_to_context_seats() -> None:
    assert texts(MoveTo(players=("Cal",), place=Place.ROUND_TABLE)) == [
        texts(MoveTo(players=("Cal",), place=Place.ROUND_TABLE, seats=(3,)))[0]
    ]


def test_move_to_a_missing_seat_raises() -> None:
    with pytest.raises(ValueError):
        render(MoveTo(players=("Alex",), place=Place.ROUND_TABLE, seats=(17,)), CTX)
    with pytest.raises(ValueError):
        render(MoveTo(players=("Nobody",), place=Place.HOME), CTX)
    with pytest.raises(ValueError):
        render(MoveTo(players=("Alex", "Bea"), place=Place.HOME, seats=(1,)), CTX)


def test_every_place_renders() -> None:
    for place in Place:
        (command,) = texts(MoveTo(players=("Alex",), place=place, seats=(1,)))
        assert command.startswith("tp Alex ")


def test_prompt_click_events_are_the_trigger_commands() -> None:
    choices = (
        Choice("Murder Alex", ChooseEvent("Bea", NightEvent.MURDER, "Alex")),
        Choice("Join", AnswerOffer("Bea", True)),
        Choice("Banish again", ChooseTorch("Bea", Torch.BANISH_AGAIN)),
    )
    dialog, *chat = texts(Prompt(to=frozenset({"Bea"}), message=msg("turret.choose.murder"), choices=choices))
    assert dialog.startswith('function traitors:ui/prompt {player:"Bea",')  # fits one command: inline
    clicks = []
    for command in chat:  # the chat fallback, split where it is over the RCON limit
        node = _MECHA.parse(command.split(" ", 2)[2], type=AstNbt).evaluate()
        clicks += [e["click_event"] for e in node["extra"] if "click_event" in e]
    assert [dict(c) for c in clicks] == [
        {"action": "run_command", "command": trigger_command(c.action, SEATS)} for c in choices
    ]
    assert not any("clickEvent" in c or "hoverEvent" in c for c in chat)


def test_long_whisper_splits_to_the_same_player() -> None:
    long = msg("deal.faithful", power="x " * 900)
    out = texts(Whisper(to=frozenset({"Dee"}), message=long))
    assert len(out) >= 2
    assert all(t.startswith("tellraw Dee ") for t in out)


# ------------------------------------------------------------------------------------------------------------
# Secrets only ever to one named player

_NAMES = st.sampled_from(sorted(SEATS))
_RECIPIENTS = st.frozensets(_NAMES, min_size=1, max_size=4)
_FREE = st.text(max_size=40)


@st.composite
def private_effects(draw: st.DrawFn) -> Effect:
    to = draw(_RECIPIENTS)
    kind = draw(st.sampled_from(["whisper", "prompt", "title", "give"]))
    secret = msg("deal.faithful", power=draw(_FREE))
    if kind == "whisper":
        return Whisper(to=to, message=secret)
    if kind == "prompt":
        labels = draw(st.lists(_FREE, min_size=1, max_size=4))
        target = draw(_NAMES)
        return Prompt(to=to, message=secret, choices=tuple(Choice(lb, CastVote("Alex", target)) for lb in labels))
    if kind == "title":
        return ShowTitle(title=secret, subtitle=msg("clock.oath"), to=to)
    return GiveItem(to=to, item=draw(st.sampled_from(list(Item))), label=draw(_FREE) or "x")


@settings(max_examples=200, deadline=None)
@given(private_effects())
def test_private_effects_never_reach_everyone(effect: Effect) -> None:
    commands = render(effect, CTX)
    recipients = effect.recipients
    assert recipients
    assert commands
    named = []
    for command in commands:
        check_command(command.text)
        verb, target, _ = command.text.split(" ", 2)
        if verb in ("data", "function"):  # a prompt dialog for one named player (inline, or built in storage)
            assert command.text.startswith(
                (
                    "data modify storage traitors:ui prompt",
                    "function traitors:ui/prompt with storage traitors:ui prompt",
                    'function traitors:ui/prompt {player:"',
                )
            )
            if " set value {player:" in command.text or command.text.startswith("function traitors:ui/prompt {"):
                named.append(command.text.split('{player:"', 1)[1].split('"', 1)[0])
            continue
        if verb == "execute":  # the cloak and lantern worn: "execute unless items entity <name> <slot> … run …"
            words = command.text.split(" ")
            assert words[1:4] == ["unless", "items", "entity"]
            assert {words[i + 1] for i, w in enumerate(words) if w in ("entity", "give")} == {words[4]}
            verb, target = "execute", words[4]
        assert verb in ("tellraw", "title", "give", "execute")
        assert target in recipients
        assert "@" not in target
        named.append(target)
    # one command set per recipient, each naming only that recipient
    assert set(named) == set(recipients)


# ------------------------------------------------------------------------------------------------------------
# Clock and set-up


def test_clock_update_and_hidden() -> None:
    assert clock_update(3.2).text == "bossbar set traitors:clock value 4"
    assert clock_update(0).text == "bossbar set traitors:clock value 0"
    assert clock_update(-5).text == "bossbar set traitors:clock value 0"
    assert clock_hidden().text == "bossbar set traitors:clock visible false"


def test_short_clock_still_has_max_one() -> None:
    out = texts(ClockStarted(phase_seq=1, label=msg("clock.night"), seconds=0.0, deadline=0.0))
    assert out == [
        'function traitors:ui/clock {name:{translate:"traitors.clock.night",fallback:"Night",color:"white"},seconds:1}'
    ]


def test_setup_commands() -> None:
    out = [c.text for c in setup_commands(CTX)]
    for c in out:
        check_command(c)
    assert out[:2] == ["gamerule send_command_feedback false", "gamerule log_admin_commands false"]
    for objective in TRIGGERS:
        assert any(c.startswith(f"scoreboard objectives add {objective} trigger ") for c in out)
    assert 'bossbar add traitors:clock {text:"Clock"}' in out
    for objective in TRIGGERS:  # one command per trigger for everyone online; the data pack covers joiners
        assert f"scoreboard players enable @a {objective}" in out
    assert len(out) == 2 + len(TRIGGERS) + 1 + len(TRIGGERS)


def test_every_rendered_command_is_within_the_limit() -> None:
    for effect, _ in EXPECTED:
        for command in render(effect, CTX):
            assert utf8_size(command.text) <= MAX_COMMAND_BYTES
