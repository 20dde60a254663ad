"""The Minecraft side of three items of the rulebook (the engine side: ``tests/engine/rulesets/traitors/
test_source_items.py``): the commands rendered for the seer book (T8.5), the host's finale torches and the
host's question (T9.3), and the player heads of the breakfast table (T10.2); what others can see of each; the
console button and the grimoire's.
"""

from __future__ import annotations

import json
import re

import pytest
from mecha import Mecha
from mecha.ast import AstNbt

from bridge.config.castle import default_castle
from bridge.loop.console import HostConsole
from bridge.minecraft.datapack import built_pack_root
from bridge.minecraft.inputs import HostCommand, HostControl
from bridge.minecraft.lang import LANGUAGES, load
from bridge.minecraft.render import RenderContext, render
from bridge.minecraft.syntax import check_command
from bridge.minecraft.world import head_rotation
from bridge.sandbox import nbt
from bridge.sandbox.text import plain_text
from bridge.web.hub import controls, press
from engine import actions, effects
from engine.effects import GiveItem, msg
from engine.ids import Item, Place
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import Settings
from engine.terms import term

CASTLE = default_castle()
CTX = RenderContext(CASTLE, {"Alex": 1, "Kai": 2, "Noor": 3, "Sunny": 4})
_MECHA = Mecha()


def _give_argument(command: str) -> dict:
    """The components of ``give <name> <item>[…] 1`` as plain Python (parsed as the server parses SNBT)."""
    item = command.split(" ", 2)[2].rsplit(" ", 1)[0]
    inner = item[item.index("[") + 1 : -1]
    out = {}
    for key, value in re.findall(r"(\w+)=((?:\{.*?\}|\[.*?\]|\"[^\"]*\"|[^,\]]+))(?=,\w+=|$)", inner):
        out[key] = nbt.to_python(_MECHA.parse(value, type=AstNbt).evaluate())
    return out


def seer_give(target: str, allegiance: str) -> str:
    page = msg("seer.book.page", player=target, allegiance=term(f"term.allegiance.{allegiance}"))
    (command,) = [c.text for c in render(GiveItem(frozenset({"Noor"}), Item.SEER_BOOK, page), CTX)]
    return command


# ---------------------------------------------------------------------------------------------- T8.5


@pytest.mark.rule("T8.5")
def test_the_seer_book_is_given_to_the_nominee_alone_with_its_page_stating_the_allegiance() -> None:
    """Rulebook §10: "the seer book, which reveals whether a player is a Faithful or a Traitor". One give, naming
    the nominee; a written book whose page is the answer, and nothing else of it tells the answer."""
    command = seer_give("Sunny", "a_traitor")
    check_command(command)
    assert command.startswith("give Noor minecraft:written_book[")
    comps = _give_argument(command)
    (page,) = comps["written_book_content"]["pages"]
    assert plain_text(page, load("en_us")) == "The Seer reveals:\n\nSunny is a Traitor."
    # What another player can see of it (its model in the holder's hand; its name and title if they pick it up)
    # is the same whoever was seen and whatever they are: only the page, read by its holder, differs.
    other = _give_argument(seer_give("Alex", "faithful"))
    for shown in (comps, other):
        shown["written_book_content"].pop("pages")
    assert comps == other
    assert "Sunny" not in json.dumps(comps) and "Alex" not in json.dumps(comps)


@pytest.mark.rule("T8.5")
@pytest.mark.parametrize(
    ("language", "traitor", "faithful"),
    [
        ("en_us", "The Seer reveals:\n\nSunny is a Traitor.", "The Seer reveals:\n\nAlex is Faithful."),
        ("ru_ru", "Провидец открывает:\n\nSunny — предатель.", "Провидец открывает:\n\nAlex — верный."),
        ("uk_ua", "Провидець відкриває:\n\nSunny — зрадник.", "Провидець відкриває:\n\nAlex — вірний."),
    ],
)
def test_the_seer_books_page_reads_in_the_readers_language(language: str, traitor: str, faithful: str) -> None:
    """The page is a translate component (the resource pack's language files), so each reader's client shows it
    in their own language; the allegiance inside is translated too."""
    for (target, allegiance), expected in ((("Sunny", "a_traitor"), traitor), (("Alex", "faithful"), faithful)):
        (page,) = _give_argument(seer_give(target, allegiance))["written_book_content"]["pages"]
        assert plain_text(page, load(language)) == expected


# ---------------------------------------------------------------------------------------------- T9.3


@pytest.mark.rule("T9.3")
def test_the_hosts_torches_turn_red_or_green_only_when_placed() -> None:
    """Rulebook §10: "give the host a torch, which will either turn red for banish again, or green for end game
    when placed". The banish-again torch is a redstone torch (a red flame when placed), the end-game torch a copper
    torch (green, 1.21.9+: every supported release has it); both look like an ordinary torch in hand (everyone
    sees what a player holds), are named for their finalist and are given to the host only."""
    banish = render(GiveItem(frozenset({"Host"}), Item.BANISH_TORCH, "Alex"), CTX)
    end = render(GiveItem(frozenset({"Host"}), Item.END_TORCH, "Kai"), CTX)
    for (command,), block in ((banish, "minecraft:redstone_torch"), (end, "minecraft:copper_torch")):
        check_command(command.text)
        assert command.text.startswith(f"give Host {block}[")
    a, b = _give_argument(banish[0].text), _give_argument(end[0].text)
    assert a["item_model"] == b["item_model"] == "minecraft:torch"
    assert plain_text(a["custom_name"]) == "Alex" and plain_text(b["custom_name"]) == "Kai"
    for key in ("item_name", "lore"):
        for language in LANGUAGES:
            assert plain_text(a[key], load(language)) == plain_text(b[key], load(language))
    assert plain_text(a["lore"]) == "Turns red (banish again) or green (end game) when placed"


def _finale_game(phase_torches: bool) -> Game:
    names = ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor")
    g = Game(Settings(contestants=names, traitors=1, hosts=("Host",), powers=False), seed=3)
    g.phase = Phase.TORCHES if phase_torches else Phase.VOTE
    return g


@pytest.mark.rule("T9.3")
def test_the_console_asks_whether_everybody_is_happy_during_the_finale_vote_only() -> None:
    """The host's question is a console button (``traitors.host`` 14) that becomes ``AskHappy`` in the finale vote;
    anywhere else the host is told it cannot be done now."""
    seats = {"Alex": 1}
    assert HostConsole(_finale_game(True), seats).command(HostCommand("Host", HostControl.ASK_HAPPY)) == (
        actions.AskHappy("Host")
    )
    refused = HostConsole(_finale_game(False), seats).command(HostCommand("Host", HostControl.ASK_HAPPY))
    assert [e.message.key for e in refused] == ["illegal.phase"]
    not_host = HostConsole(_finale_game(True), seats).command(HostCommand("Alex", HostControl.ASK_HAPPY))
    assert [e.message.key for e in not_host] == ["illegal.not_host"]


@pytest.mark.rule("T9.3")
def test_the_question_is_a_button_of_the_console_dialog_and_of_the_grimoire() -> None:
    """Before "Lock the vote" in the in-game console (with its label in every language) and on the web
    grimoire, pressing the same ``traitors.host`` value."""
    dialog = json.loads((built_pack_root() / "data/traitors/dialog/host/console.json").read_text(encoding="utf-8"))
    commands = [a["action"]["command"] for a in dialog["actions"]]
    ask = commands.index("/trigger traitors.host set 14")
    assert commands[ask + 1] == "/trigger traitors.host set 5"  # the lock comes after the question
    assert dialog["actions"][ask]["label"]["translate"] == "traitors.console.ask_happy"
    assert {lang: load(lang)["traitors.console.ask_happy"] for lang in LANGUAGES} == {
        "en_us": "Ask: is everybody happy?",
        "ru_ru": "Спросить: все довольны?",
        "uk_ua": "Спитати: усі задоволені?",
    }
    assert press({"control": "ask_happy"}) == {"input": "host", "value": 14}
    buttons = [c["control"] for c in controls()]  # the page's buttons, in its order
    assert buttons.index("ask_happy") == buttons.index("lock_torches") - 1


# ---------------------------------------------------------------------------------------------- T10.2


@pytest.mark.rule("T10.2")
def test_a_head_is_set_at_its_breakfast_place_with_a_profile_naming_the_player_and_facing_the_places_yaw() -> None:
    """Rulebook §10: "the player heads used in the breakfast room". ``setblock`` of a ``player_head`` whose block
    entity's ``profile`` names the player, at the seat's place of the castle file, turned to its yaw (16 steps:
    0 south, 4 west, 8 north, 12 east); taking it away replaces only a head there."""
    for seat, name in ((1, "Alex"), (2, "Kai")):
        loc = CASTLE.breakfast[seat - 1]
        (command,) = [
            c.text for c in render(effects.PlaceItem(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, seat, name), CTX)
        ]
        check_command(command)
        rotation = {90.0: 4, -90.0: 12}[loc.yaw]
        assert command == (
            f"setblock {int(loc.x // 1)} {int(loc.y // 1)} {int(loc.z // 1)} "
            f'minecraft:player_head[rotation={rotation}]{{profile:{{name:"{name}"}}}}'
        )
    out = [c.text for c in render(effects.ClearPlace(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, (1, 2)), CTX)]
    for seat, command in zip((1, 2), out, strict=True):
        loc = CASTLE.breakfast[seat - 1]
        at = f"{int(loc.x // 1)} {int(loc.y // 1)} {int(loc.z // 1)}"
        assert command == f"fill {at} {at} minecraft:air replace minecraft:player_head"
        check_command(command)


@pytest.mark.rule("T10.2")
@pytest.mark.parametrize(
    ("yaw", "rotation"),
    [(0.0, 0), (90.0, 4), (180.0, 8), (-180.0, 8), (-90.0, 12), (270.0, 12), (22.4, 1), (-11.0, 0), (350.0, 0)],
)
def test_head_rotation_follows_the_yaw(yaw: float, rotation: int) -> None:
    assert head_rotation(yaw) == rotation


@pytest.mark.rule("T10.2")
def test_a_head_names_only_a_valid_player_and_nothing_else_is_set_down() -> None:
    with pytest.raises(ValueError):
        render(effects.PlaceItem(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, 1, 'Al"ex'), CTX)
    with pytest.raises(ValueError):
        render(effects.PlaceItem(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, 17, "Alex"), CTX)
    with pytest.raises(TypeError):
        render(effects.PlaceItem(Item.BANISH_TORCH, Place.BREAKFAST_TABLE, 1, "Alex"), CTX)
