"""The command builders of bridge/minecraft/: the fixture list of exact command strings, one or more per builder,
each parsed by mecha."""

from __future__ import annotations

import pytest

from bridge.minecraft.core import McCommand
from bridge.minecraft.display import tellraw, title
from bridge.minecraft.items import clear, give, item_stack
from bridge.minecraft.scoreboard import (
    bossbar_add,
    bossbar_remove,
    bossbar_set_color,
    bossbar_set_max,
    bossbar_set_name,
    bossbar_set_players,
    bossbar_set_value,
    bossbar_set_visible,
    enable_trigger,
    objective_add_trigger,
)
from bridge.minecraft.storage import queue_ack, queue_drop_head, queue_get, queue_head
from bridge.minecraft.syntax import check_command
from bridge.minecraft.text import RunCommand, joined, message_component, text_component, translated
from bridge.minecraft.world import gamemode, gamerule, teleport
from engine.effects import msg
from engine.ids import Item

EXPECTED: list[tuple[McCommand, str]] = [
    (tellraw("@a", text_component("Hello"))[0], 'tellraw @a {text:"Hello"}'),
    (
        tellraw("Alice", text_component('Say "hi"\\now\nnext', color="gold"))[0],
        'tellraw Alice {text:"Say \\"hi\\"\\\\now\\nnext",color:"gold"}',
    ),
    (tellraw("@a", text_component("a§cb"))[0], 'tellraw @a {text:"a\\u00a7",extra:[{text:"cb"}]}'),
    (
        tellraw(
            "Bob_1",
            text_component(
                "[Alice]", color="aqua", click=RunCommand("/trigger traitors.vote set 1"), hover="Banish Alice"
            ),
        )[0],
        'tellraw Bob_1 {text:"[Alice]",color:"aqua",click_event:{action:"run_command",'
        'command:"/trigger traitors.vote set 1"},hover_event:{action:"show_text",value:{text:"Banish Alice"}}}',
    ),
    (
        tellraw("@a", message_component(msg("vote.cast", target="Alex")))[0],
        'tellraw @a {translate:"traitors.vote.cast",fallback:"You wrote Alex on your vote paper.",'
        'with:[{text:"Alex"}]}',
    ),
    (
        tellraw("@a", translated("traitors.x", "50% off", args=["a"]))[0],
        'tellraw @a {translate:"traitors.x",fallback:"50%% off",with:[{text:"a"}]}',
    ),
    (
        tellraw("@a", joined(text_component("[Castle] ", color="gold"), "hi"))[0],
        'tellraw @a {text:"",extra:[{text:"[Castle] ",color:"gold"},{text:"hi"}]}',
    ),
    (title("@a", title=text_component("X"))[0], "title @a times 10 70 20"),
    (title("@a", title=text_component("X"))[1], 'title @a title {text:"X"}'),
    (title("Alice", subtitle=text_component("s"), times=None)[0], 'title Alice subtitle {text:"s"}'),
    (title("Alice", actionbar=text_component("a"), times=(0, 20, 0))[1], 'title Alice actionbar {text:"a"}'),
    (teleport("Alice", 100.5, 65, -20.5, 180, 0), "tp Alice 100.5 65.0 -20.5 180.0 0.0"),
    (teleport("Alice", -0.0, 64.25, 1e-9, -90.0, 10), "tp Alice 0.0 64.25 0.0 -90.0 10.0"),
    (
        give("Alice", item_stack(Item.VOTE_PAPER)),
        'give Alice minecraft:paper[item_name={translate:"traitors.item.vote_paper",fallback:"Vote Paper",color:"gold",italic:false},'
        'lore=[{translate:"traitors.item.vote_paper.lore",fallback:"Write a name at the round table",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"vote_paper"}},max_stack_size=1] 1',
    ),
    (
        give("Alice", item_stack(Item.CAST_VOTE_PAPER, label='Bob "the" §c')),
        'give Alice minecraft:paper[item_name={translate:"traitors.item.cast_vote_paper",fallback:"Cast Vote Paper",color:"white",italic:false},'
        'custom_name={text:"Bob \\"the\\" \\u00a7",color:"white",italic:false,extra:[{text:"c"}]},'
        'lore=[{translate:"traitors.item.cast_vote_paper.lore",fallback:"A cast vote cannot be changed",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"cast_vote_paper"}},max_stack_size=1] 1',
    ),
    (
        give("Alice", item_stack(Item.SACRED_SWORD)),
        'give Alice minecraft:iron_sword[custom_name={translate:"traitors.item.sacred_sword",fallback:"Sacred Sword",color:"gold",italic:false},'
        'custom_data={traitors:{item:"sacred_sword"}},enchantment_glint_override=true,unbreakable={}] 1',
    ),
    (
        give("Host", item_stack(Item.END_TORCH, label="Alice")),
        'give Host minecraft:copper_torch[item_name={translate:"traitors.item.end_torch",fallback:"Finale Torch",color:"gold",italic:false},'
        'custom_name={text:"Alice",color:"white",italic:false},'
        'lore=[{translate:"traitors.item.end_torch.lore",fallback:"Turns red (banish again) or green (end game) when placed",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"end_torch"}},max_stack_size=1,item_model="minecraft:torch"] 1',
    ),
    (clear("@a", Item.VOTE_PAPER), 'clear @a *[custom_data~{traitors:{item:"vote_paper"}}]'),
    (clear("Alice", Item.BANISH_TORCH), 'clear Alice *[custom_data~{traitors:{item:"banish_torch"}}]'),
    (bossbar_add("traitors:clock", text_component("Clock")), 'bossbar add traitors:clock {text:"Clock"}'),
    (
        bossbar_set_name("traitors:clock", text_component("Vote")),
        'bossbar set traitors:clock name {text:"Vote"}',
    ),
    (bossbar_set_max("traitors:clock", 300), "bossbar set traitors:clock max 300"),
    (bossbar_set_value("traitors:clock", 0), "bossbar set traitors:clock value 0"),
    (bossbar_set_players("traitors:clock", "@a"), "bossbar set traitors:clock players @a"),
    (bossbar_set_visible("traitors:clock", False), "bossbar set traitors:clock visible false"),
    (bossbar_set_color("traitors:clock", "red"), "bossbar set traitors:clock color red"),
    (bossbar_remove("traitors:clock"), "bossbar remove traitors:clock"),
    (
        objective_add_trigger("traitors.vote", text_component("Vote")),
        'scoreboard objectives add traitors.vote trigger {text:"Vote"}',
    ),
    (enable_trigger("Alice", "traitors.vote"), "scoreboard players enable Alice traitors.vote"),
    (enable_trigger("@a", "traitors.host"), "scoreboard players enable @a traitors.host"),
    (queue_get(), "data get storage traitors:io queue"),
    (queue_ack(7), "data remove storage traitors:io queue[{seq:7}]"),
    (queue_head(), "data get storage traitors:io queue[0]"),
    (queue_drop_head(), "data remove storage traitors:io queue[0]"),
    (gamerule("send_command_feedback", False), "gamerule send_command_feedback false"),
    (gamerule("log_admin_commands", False), "gamerule log_admin_commands false"),
    (gamerule("players_sleeping_percentage", 100), "gamerule players_sleeping_percentage 100"),
    (gamemode("adventure", "Alice"), "gamemode adventure Alice"),
    (gamemode("spectator", "@a"), "gamemode spectator @a"),
]


@pytest.mark.parametrize(("command", "expected"), EXPECTED, ids=[e for _, e in EXPECTED])
def test_exact_command(command: McCommand, expected: str) -> None:
    assert command.text == expected
    check_command(command.text)
