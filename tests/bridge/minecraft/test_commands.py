"""bridge/minecraft/commands.py: the fixture list of exact command strings, one or more per builder, each parsed
by mecha."""

from __future__ import annotations

import pytest

from bridge.minecraft import commands as mc
from bridge.minecraft.commands import McCommand, RunCommand
from bridge.minecraft.syntax import check_command
from engine.effects import msg
from engine.ids import Item

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
        mc.give("Host", mc.item_stack(Item.END_TORCH, label="Alice")),
        'give Host minecraft:copper_torch[item_name={translate:"traitors.item.end_torch",fallback:"Finale Torch",color:"gold",italic:false},'
        'custom_name={text:"Alice",color:"white",italic:false},'
        'lore=[{translate:"traitors.item.end_torch.lore",fallback:"Turns red (banish again) or green (end game) when placed",color:"gray",italic:false}],'
        'custom_data={traitors:{item:"end_torch"}},max_stack_size=1,item_model="minecraft:torch"] 1',
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
