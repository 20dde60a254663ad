"""bridge/minecraft/commands.py: exact command strings, mecha parsing, escaping, the 1446-byte limit, item table."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mecha import Mecha
from mecha.ast import AstNbt

from bridge.minecraft import commands as mc
from bridge.minecraft.commands import McCommand, RunCommand
from bridge.minecraft.syntax import check_command
from engine.effects import msg
from engine.ids import Item

_MECHA = Mecha(version="1.21")

ALLOWED_KEYS = {
    "text", "translate", "fallback", "with", "color", "bold", "italic", "extra",
    "click_event", "hover_event", "action", "command", "value",
}  # fmt: skip
"""Every key a component we build may contain (click_event/hover_event bodies included)."""


def component_of(command: str) -> Any:
    """The evaluated SNBT component argument of a ``tellraw``/``title … title`` command."""
    check_command(command)
    head = 3 if command.startswith("title ") else 2
    snbt_text = command.split(" ", head)[head]
    return _MECHA.parse(snbt_text, type=AstNbt).evaluate()


def walk(node: Any, keys: set[str] | None = None) -> tuple[str, set[str]]:
    """(the text a reader sees, every compound key) of an evaluated component."""
    keys = set() if keys is None else keys
    if isinstance(node, str):
        return str(node), keys
    if isinstance(node, list):
        return "".join(walk(n, keys)[0] for n in node), keys
    keys.update(node.keys())
    if "text" in node:
        own = str(node["text"])
    else:
        own = str(node.get("fallback", node.get("translate"))).replace("%%", "%")
        for arg in node.get("with", []):
            walk(arg, keys)
    if "hover_event" in node:
        keys.update(node["hover_event"].keys())
        walk(node["hover_event"]["value"], keys)
    if "click_event" in node:
        keys.update(node["click_event"].keys())
    return own + "".join(walk(e, keys)[0] for e in node.get("extra", [])), keys


# ------------------------------------------------------------------------------------------------------------
# Exact strings (the fixture list of expected commands)

EXPECTED: list[tuple[McCommand, str]] = [
    (mc.tellraw("@a", mc.text_component("Hello"))[0], 'tellraw @a {text:"Hello"}'),
    (
        mc.tellraw("Alice", mc.text_component('Say "hi"\\now\nnext', color="gold"))[0],
        'tellraw Alice {text:"Say \\"hi\\"\\\\now\\nnext",color:"gold"}',
    ),
    (mc.tellraw("@a", mc.text_component("a§cb"))[0], 'tellraw @a {text:"a\\u00a7",extra:[{text:"cb"}]}'),
    (
        mc.tellraw(
            "Bob_1",
            mc.text_component(
                "[Alice]", color="aqua", click=RunCommand("/trigger traitors.vote set 1"), hover="Banish Alice"
            ),
        )[0],
        'tellraw Bob_1 {text:"[Alice]",color:"aqua",click_event:{action:"run_command",'
        'command:"/trigger traitors.vote set 1"},hover_event:{action:"show_text",value:{text:"Banish Alice"}}}',
    ),
    (
        mc.tellraw("@a", mc.message_component(msg("vote.cast", target="Alex")))[0],
        'tellraw @a {translate:"traitors.vote.cast",fallback:"You wrote Alex on your vote paper.",'
        'with:[{text:"Alex"}]}',
    ),
    (
        mc.tellraw("@a", mc.translated("traitors.x", "50% off", args=["a"]))[0],
        'tellraw @a {translate:"traitors.x",fallback:"50%% off",with:[{text:"a"}]}',
    ),
    (
        mc.tellraw("@a", mc.joined(mc.text_component("[Castle] ", color="gold"), "hi"))[0],
        'tellraw @a {text:"",extra:[{text:"[Castle] ",color:"gold"},{text:"hi"}]}',
    ),
    (mc.title("@a", title=mc.text_component("X"))[0], "title @a times 10 70 20"),
    (mc.title("@a", title=mc.text_component("X"))[1], 'title @a title {text:"X"}'),
    (mc.title("Alice", subtitle=mc.text_component("s"), times=None)[0], 'title Alice subtitle {text:"s"}'),
    (mc.title("Alice", actionbar=mc.text_component("a"), times=(0, 20, 0))[1], 'title Alice actionbar {text:"a"}'),
    (mc.teleport("Alice", 100.5, 65, -20.5, 180, 0), "tp Alice 100.5 65.0 -20.5 180.0 0.0"),
    (mc.teleport("Alice", -0.0, 64.25, 1e-9, -90.0, 10), "tp Alice 0.0 64.25 0.0 -90.0 10.0"),
    (
        mc.give("Alice", mc.item_stack(Item.VOTE_PAPER)),
        'give Alice minecraft:paper[item_name={translate:"traitors.item.vote_paper",fallback:"Vote Paper",color:"gold",italic:false},'
        'lore=[{translate:"traitors.item.vote_paper.lore",fallback:"Write a name at the round table",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"vote_paper"}},max_stack_size=1] 1',
    ),
    (
        mc.give("Alice", mc.item_stack(Item.CAST_VOTE_PAPER, label='Bob "the" §c')),
        'give Alice minecraft:paper[item_name={translate:"traitors.item.cast_vote_paper",fallback:"Cast Vote Paper",color:"white",italic:false},'
        'custom_name={text:"Bob \\"the\\" \\u00a7",color:"white",italic:false,extra:[{text:"c"}]},'
        'lore=[{translate:"traitors.item.cast_vote_paper.lore",fallback:"A cast vote cannot be changed",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"cast_vote_paper"}},max_stack_size=1] 1',
    ),
    (
        mc.give("Alice", mc.item_stack(Item.SACRED_SWORD)),
        'give Alice minecraft:iron_sword[custom_name={translate:"traitors.item.sacred_sword",fallback:"Sacred Sword",color:"gold",italic:false},'
        'custom_data={traitors:{item:"sacred_sword"}},enchantment_glint_override=true,unbreakable={}] 1',
    ),
    (
        mc.give("Alice", mc.item_stack(Item.END_TORCH)),
        'give Alice minecraft:copper_torch[item_name={translate:"traitors.item.end_torch",fallback:"End Game",color:"green",italic:false},'
        'lore=[{translate:"traitors.item.end_torch.lore",fallback:"Green finale torch: End Game",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"end_torch"}},max_stack_size=1] 1',
    ),
    (mc.clear("@a", Item.VOTE_PAPER), 'clear @a *[custom_data~{traitors:{item:"vote_paper"}}]'),
    (mc.clear("Alice", Item.BANISH_TORCH), 'clear Alice *[custom_data~{traitors:{item:"banish_torch"}}]'),
    (mc.bossbar_add("traitors:clock", mc.text_component("Clock")), 'bossbar add traitors:clock {text:"Clock"}'),
    (
        mc.bossbar_set_name("traitors:clock", mc.text_component("Vote")),
        'bossbar set traitors:clock name {text:"Vote"}',
    ),
    (mc.bossbar_set_max("traitors:clock", 300), "bossbar set traitors:clock max 300"),
    (mc.bossbar_set_value("traitors:clock", 0), "bossbar set traitors:clock value 0"),
    (mc.bossbar_set_players("traitors:clock", "@a"), "bossbar set traitors:clock players @a"),
    (mc.bossbar_set_visible("traitors:clock", False), "bossbar set traitors:clock visible false"),
    (mc.bossbar_set_color("traitors:clock", "red"), "bossbar set traitors:clock color red"),
    (mc.bossbar_remove("traitors:clock"), "bossbar remove traitors:clock"),
    (
        mc.objective_add_trigger("traitors.vote", mc.text_component("Vote")),
        'scoreboard objectives add traitors.vote trigger {text:"Vote"}',
    ),
    (mc.enable_trigger("Alice", "traitors.vote"), "scoreboard players enable Alice traitors.vote"),
    (mc.enable_trigger("@a", "traitors.host"), "scoreboard players enable @a traitors.host"),
    (mc.queue_get(), "data get storage traitors:io queue"),
    (mc.queue_ack(7), "data remove storage traitors:io queue[{seq:7}]"),
    (mc.queue_head(), "data get storage traitors:io queue[0]"),
    (mc.queue_drop_head(), "data remove storage traitors:io queue[0]"),
    (mc.gamerule("send_command_feedback", False), "gamerule send_command_feedback false"),
    (mc.gamerule("log_admin_commands", False), "gamerule log_admin_commands false"),
    (mc.gamerule("players_sleeping_percentage", 100), "gamerule players_sleeping_percentage 100"),
    (mc.gamemode("adventure", "Alice"), "gamemode adventure Alice"),
    (mc.gamemode("spectator", "@a"), "gamemode spectator @a"),
]


@pytest.mark.parametrize(("command", "expected"), EXPECTED, ids=[e for _, e in EXPECTED])
def test_exact_command(command: McCommand, expected: str) -> None:
    assert command.text == expected
    check_command(command.text)


@pytest.mark.parametrize("item", list(Item))
def test_every_item_gives_and_clears(item: Item) -> None:
    spec = mc.ITEMS[item]
    give = mc.give("Alice", mc.item_stack(item, label="Bob"))
    check_command(give.text)
    assert f'custom_data={{traitors:{{item:"{item.value}"}}}}' in give.text
    assert give.text.startswith(f"give Alice {spec.item_id}[")
    clear = mc.clear("@a", item)
    check_command(clear.text)
    assert clear.text == f'clear @a *[custom_data~{{traitors:{{item:"{item.value}"}}}}]'


def test_item_table_is_complete_and_neutral() -> None:
    assert set(mc.ITEMS) == set(Item)
    assert mc.ITEMS[Item.BANISH_TORCH].item_id == "minecraft:redstone_torch"
    assert mc.ITEMS[Item.END_TORCH].item_id == "minecraft:copper_torch"
    assert mc.ITEMS[Item.SACRED_SWORD].item_id == "minecraft:iron_sword"
    # Items named by the rulebook with a side's word: every living contestant receives the Traitors' Response
    # book, and either drink may be taken by anyone, so holding one tells nothing (rulebook §8, §10).
    named_by_rule = {Item.RESPONSE_BOOK, Item.FAITHFUL_FANCY, Item.TRAITORS_TIPPLE}
    for item, spec in mc.ITEMS.items():
        shown = " ".join((spec.name, *spec.lore)).lower()
        for secret in ("traitor", "faithful"):
            assert secret not in shown or item in named_by_rule, spec
        if spec.max_stack_size is not None:
            assert spec.item_id not in ("minecraft:iron_sword", "minecraft:shield", "minecraft:leather_chestplate")


def test_cast_vote_paper_needs_label() -> None:
    with pytest.raises(ValueError, match="label"):
        mc.item_stack(Item.CAST_VOTE_PAPER)


# ------------------------------------------------------------------------------------------------------------
# Names and targets


@pytest.mark.parametrize("name", ["Alice", "abc", "A_b_9", "x" * 16, "___"])
def test_player_name_ok(name: str) -> None:
    assert mc.player_name(name) == name


@pytest.mark.parametrize("name", ["ab", "x" * 17, "Al ice", "@a", "Al\"ice", "Alicé", "", "a;b", "a\nb"])
def test_player_name_rejected(name: str) -> None:
    with pytest.raises(ValueError):
        mc.player_name(name)


@pytest.mark.parametrize("target", ["@e", "@p", "@s", "@r", "@a[tag=x]", "*"])
def test_only_at_a_selector(target: str) -> None:
    with pytest.raises(ValueError):
        mc.tellraw(target, mc.text_component("x"))


def test_bad_values_rejected() -> None:
    with pytest.raises(ValueError):
        mc.gamerule("sendCommandFeedback", False)
    with pytest.raises(ValueError):
        mc.gamemode("hardcore", "Alice")
    with pytest.raises(ValueError):
        mc.teleport("Alice", float("nan"), 0, 0)
    with pytest.raises(ValueError):
        mc.teleport("Alice", 0, 0, 0, 0, 91)
    with pytest.raises(ValueError):
        mc.text_component("x", color="rainbow")
    with pytest.raises(ValueError):
        mc.text_component("x", click=RunCommand("trigger traitors.vote"))
    with pytest.raises(ValueError):
        mc.queue_ack(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        mc.bossbar_set_max("traitors:clock", 0)
    with pytest.raises(ValueError):
        McCommand("/say hi")


# ------------------------------------------------------------------------------------------------------------
# The text builder: arbitrary text shows exactly, parses, and carries only our keys

_TRICKY = st.sampled_from(['"', "'", "\\", "\n", "\r", "\t", "§", "%", "%s", "{", "}", "[", "]", ":", ",", "\x00",
                           "\x7f", "\x85", "\u2028", "😀", "clickEvent", "\\u00a7", "\\n"])  # fmt: skip
_TEXT = st.lists(st.one_of(st.characters(), _TRICKY), max_size=60).map("".join)
_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF, categories=["Cs"])


@settings(max_examples=200, deadline=None)
@given(_TEXT)
def test_text_component_round_trips(text: str) -> None:
    commands = mc.tellraw("@a", mc.text_component(text))
    assert len(commands) == 1
    shown, keys = walk(component_of(commands[0].text))
    assert shown == text
    assert keys <= ALLOWED_KEYS
    # every § ends its own string part, so it can never style the text after it
    node = component_of(commands[0].text)
    for part in [node, *node.get("extra", [])]:
        assert "§" not in str(part["text"])[:-1]


@settings(max_examples=100, deadline=None)
@given(_TEXT, _TEXT)
def test_clickable_text_keeps_our_keys_only(label: str, hover: str) -> None:
    command = "/trigger traitors.vote set 3"
    component = mc.text_component(label, color="aqua", click=RunCommand(command), hover=hover)
    (cmd,) = mc.tellraw("Alice", component)
    node = component_of(cmd.text)
    shown, keys = walk(node)
    assert shown == label
    assert keys <= ALLOWED_KEYS
    assert "clickEvent" not in keys and "hoverEvent" not in keys
    assert dict(node["click_event"]) == {"action": "run_command", "command": command}
    assert node["hover_event"]["action"] == "show_text"
    assert walk(node["hover_event"]["value"])[0] == hover


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.characters(blacklist_characters="§"), _SURROGATES), max_size=40).map("".join))
def test_translated_fallback_round_trips(text: str) -> None:
    (cmd,) = mc.tellraw("@a", mc.translated("traitors.test", text, args=[text]))
    node = component_of(cmd.text)
    assert str(node["translate"]) == "traitors.test"
    assert str(node["fallback"]) == text.replace("%", "%%")
    assert str(node["with"][0]["text"]) == text


def test_message_with_section_sign_is_plain_text() -> None:
    component = mc.message_component(msg("vote.cast", target="§kAlex"))
    assert component.translate is None
    assert component.plain_text() == "You wrote §kAlex on your vote paper."


def test_section_sign_parts() -> None:
    node = component_of(mc.tellraw("@a", mc.text_component("§§x§"))[0].text)
    assert [str(node["text"])] + [str(e["text"]) for e in node["extra"]] == ["§", "§", "x§"]


def test_lone_surrogates_are_escaped() -> None:
    text = "a\ud800b"
    (cmd,) = mc.tellraw("@a", mc.text_component(text))
    assert "\\ud800" in cmd.text
    assert walk(component_of(cmd.text))[0] == text


# ------------------------------------------------------------------------------------------------------------
# The 1446-byte limit


@settings(max_examples=30, deadline=None)
@given(st.lists(st.one_of(st.characters(), _TRICKY), min_size=300, max_size=1500).map("".join))
def test_long_tellraw_splits_and_keeps_every_character(text: str) -> None:
    component = mc.joined(mc.text_component("[Castle] ", color="gold"), mc.text_component(text, color="white"))
    commands = mc.tellraw("Alice", component)
    assert all(mc.utf8_size(c.text) <= mc.MAX_COMMAND_BYTES for c in commands)
    assert all(c.text.startswith("tellraw Alice ") for c in commands)
    assert "".join(walk(component_of(c.text))[0] for c in commands) == "[Castle] " + text


def test_long_message_splits_into_several_tellraws() -> None:
    text = "The castle is quiet tonight. " * 120
    commands = mc.tellraw("@a", mc.joined(mc.text_component("[Castle] ", color="gold"), text))
    assert len(commands) == 3
    sizes = [mc.utf8_size(c.text) for c in commands]
    assert max(sizes) <= 1446 and sizes[0] > 1300
    assert "".join(walk(component_of(c.text))[0] for c in commands) == "[Castle] " + text
    # cut at whitespace
    assert walk(component_of(commands[0].text))[0].endswith(" ")


def test_long_translated_message_becomes_plain_text_chunks() -> None:
    big = mc.translated("traitors.long", "é" * 2000)
    commands = mc.tellraw("@a", big)
    assert len(commands) >= 3
    assert "".join(walk(component_of(c.text))[0] for c in commands) == "é" * 2000


def test_exactly_at_the_limit() -> None:
    prefix = 'tellraw @a {text:"'
    fill = "x" * (1446 - len(prefix) - 2)
    (cmd,) = mc.tellraw("@a", mc.text_component(fill))
    assert mc.utf8_size(cmd.text) == 1446
    assert len(mc.tellraw("@a", mc.text_component(fill + "x"))) == 2


def test_unsplittable_commands_raise() -> None:
    with pytest.raises(ValueError, match="1446"):
        mc.give("Alice", mc.item_stack(Item.CAST_VOTE_PAPER, label="x" * 1500))
    with pytest.raises(ValueError, match="1446"):
        mc.title("@a", title=mc.text_component("y" * 1500))
    with pytest.raises(ValueError, match="1446"):
        mc.tellraw("@a", mc.text_component("z" * 1500, click=RunCommand("/trigger traitors.vote set 1"),
                                           hover="h" * 1500))  # fmt: skip
    with pytest.raises(ValueError, match="1446"):
        McCommand("say " + "x" * 1443)


def test_already_exists_replies() -> None:
    assert mc.is_already_exists("An objective already exists by that name")
    assert mc.is_already_exists("A bossbar already exists with the ID 'traitors:clock'")
    assert not mc.is_already_exists("Created new objective [Vote]")


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=400) | st.text(alphabet="\"\\\n€😀ж", min_size=300, max_size=400))
def test_every_accepted_reply_fits_the_response_book(text: str) -> None:
    """A reply the engine accepts (engine.rulesets.traitors.twists.check_text) always becomes one ``give`` that parses and fits
    the 1446-byte RCON limit, with the text on its pages."""
    from engine.errors import IllegalAction
    from engine.rulesets.traitors.twists import check_text

    try:
        accepted = check_text(text)
    except IllegalAction:
        return
    command = mc.give("Sunny_Traitor12", mc.item_stack(Item.RESPONSE_BOOK, label=accepted))
    check_command(command.text)
    assert mc.utf8_size(command.text) <= mc.MAX_COMMAND_BYTES
    assert "".join(mc.book_pages(accepted)).replace(" ", "") == accepted.replace(" ", "")


def test_book_text_reads_pages_in_both_forms() -> None:
    book = {"components": {"minecraft:custom_data": {"traitors": {"item": "confession_book"}},
                           "minecraft:writable_book_content": {"pages": [{"raw": "one"}, "two"]}}}  # fmt: skip
    other = {"components": {"minecraft:custom_data": {"traitors": {"item": "notes_book"}},
                            "minecraft:writable_book_content": {"pages": ["secret notes"]}}}  # fmt: skip
    assert mc.book_text([other, book], Item.CONFESSION_BOOK) == "one\ntwo"
    assert mc.book_text([other], Item.CONFESSION_BOOK) is None
    assert mc.book_text("garbage", Item.CONFESSION_BOOK) is None
    # Only a book given to the player counts when their hand-out ids are given: not one picked up from another.
    mine = {"components": {"minecraft:custom_data": {"traitors": {"item": "confession_book", "give": "t/Kai/3"}},
                           "minecraft:writable_book_content": {"pages": ["mine"]}}}  # fmt: skip
    theirs = {"components": {"minecraft:custom_data": {"traitors": {"item": "confession_book", "give": "t/Alex/2"}},
                             "minecraft:writable_book_content": {"pages": ["theirs"]}}}  # fmt: skip
    assert mc.book_text([theirs, mine], Item.CONFESSION_BOOK, {"t/Kai/3"}) == "mine"
    assert mc.book_text([theirs], Item.CONFESSION_BOOK, {"t/Kai/3"}) is None


def test_held_give_ids_reads_the_hand_out_ids_of_an_inventory() -> None:
    paper = {"Slot": 0, "id": "minecraft:paper", "count": 1,
             "components": {"minecraft:custom_data": {"traitors": {"item": "vote_paper", "give": "t1/Kai/4"}}}}  # fmt: skip
    plain = {"Slot": 1, "id": "minecraft:dirt", "count": 5}
    odd = {"components": {"minecraft:custom_data": {"traitors": {"give": 7}}}}
    assert mc.held_give_ids([paper, plain, odd, "junk"]) == {"t1/Kai/4"}
    assert mc.held_give_ids(None) == set() and mc.held_give_ids({"a": 1}) == set()
