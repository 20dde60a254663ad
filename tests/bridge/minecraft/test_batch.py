"""A step's commands packed into data pack calls (``bridge.minecraft.batch``): the world ends as it would after
the commands one by one, a private line still reaches only its player, a prompt shows the same dialog and chat
choices, a batched give gives each player their one item once."""

from __future__ import annotations

from typing import Any

from bridge.config.castle import default_castle
from bridge.minecraft.batch import MAX_ENTRIES, pack, unpack
from bridge.minecraft.core import MAX_COMMAND_BYTES, McCommand, utf8_size
from bridge.minecraft.datapack import built_pack_root
from bridge.minecraft.display import tellraw
from bridge.minecraft.items import clear
from bridge.minecraft.render import RenderContext, render, render_give_each, render_give_once, render_prompt_asks
from bridge.minecraft.text import text_component
from bridge.minecraft.triggers import encode
from bridge.sandbox.datapack import Datapack
from bridge.sandbox.world import World
from engine.actions import CastVote
from engine.effects import Announce, Choice, GiveItem, Prompt, Whisper, msg
from engine.ids import Item

SEATS = {"Alex": 1, "Kai": 2, "Zuri": 3}
CTX = RenderContext(default_castle(), SEATS)


def _world() -> World:
    world = World()
    world.load_datapack(Datapack.load(built_pack_root()))
    for p in SEATS:
        world.join(p)
    return world


def _seen(world: World) -> dict[str, Any]:
    """What each player was shown and holds."""
    return {
        n: ([m.text for m in p.chat], [(s.item, s.components, s.count) for s in p.inventory], p.dialog)
        for n, p in world.players.items()
    }


def _vote_prompt(voter: str) -> Prompt:
    return Prompt(
        frozenset({voter}), msg("vote.prompt"), tuple(Choice(n, CastVote(voter, n)) for n in SEATS if n != voter)
    )


def test_a_batch_runs_its_commands_in_order_and_the_world_ends_as_one_by_one() -> None:
    commands = [
        c
        for e in (
            Announce(msg("vote.open")),
            Whisper(frozenset({"Kai"}), msg("vote.cast", target="Zuri")),
            Announce(msg("vote.closed")),
        )
        for c in render(e, CTX)
    ]
    commands.append(clear("Alex", Item.VOTE_PAPER))
    batches = pack(commands)
    assert len(batches) == 1 and batches[0][1] == len(commands)
    assert unpack(batches[0][0].text) == [c.text for c in commands]
    one, packed = _world(), _world()
    for c in commands:
        one.execute(c.text)
    assert packed.execute(batches[0][0].text) == "Executed function 'traitors:run'"
    assert _seen(packed) == _seen(one)
    assert [m.text for m in packed.player("Alex").chat] == [
        "[Castle] The vote is open. Write a name on your vote paper.",
        "[Castle] The vote is closed.",
    ]
    assert any("Zuri" in m.text for m in packed.player("Kai").chat)  # the whisper went to Kai alone
    assert not any("Zuri" in m.text for n in ("Alex", "Zuri") for m in packed.player(n).chat)
    assert packed.storage_python("traitors:run") == {"q": []} and packed.errors == []


def test_pack_keeps_every_command_under_the_limit_and_in_order() -> None:
    quote = "it's a \\ test"
    commands = [tellraw("Alex", text_component(f"{quote} {i} " + "x" * 150))[0] for i in range(40)]
    commands.insert(7, McCommand("say " + "y" * 1400))  # too big to go beside anything: alone
    batches = pack(commands)
    assert all(utf8_size(b.text) <= MAX_COMMAND_BYTES for b, _ in batches)
    assert all(n <= MAX_ENTRIES for _, n in batches) and sum(n for _, n in batches) == len(commands)
    assert [t for b, _ in batches for t in unpack(b.text)] == [c.text for c in commands]
    assert (commands[7], 1) in batches
    world = _world()
    for b, _ in batches:
        if b is not commands[7]:
            world.execute(b.text)
    assert [m.text for m in world.player("Alex").chat] == [f"{quote} {i} " + "x" * 150 for i in range(40)]
    assert world.errors == []


def test_an_ask_shows_the_dialog_and_the_chat_choices_of_the_prompt_to_its_player_only() -> None:
    effect = _vote_prompt("Alex")
    (command,) = render_prompt_asks(effect, CTX)
    assert command.text.startswith("function traitors:ui/ask ") and "/trigger" not in command.text
    world, old = _world(), _world()
    world.execute(command.text)
    for c in render(effect, CTX):  # the dialog and the chat line apart, as before
        old.execute(c.text)
    expected = [f"/trigger {o} set {v}" for o, v in (encode(c.action, SEATS) for c in effect.choices)]
    dialog = world.player("Alex").dialog
    assert [a["action"]["command"] for a in dialog["actions"]] == expected
    assert dialog == old.player("Alex").dialog
    (line,) = world.player("Alex").chat
    assert (
        line.text
        == "".join(m.text for m in old.player("Alex").chat)
        == ("[Castle, to you] Who do you banish? [Kai] [Zuri]")
    )
    assert [e["command"] for e in line.click_events()] == expected
    assert all(world.player(n).dialog is None and world.player(n).chat == [] for n in ("Kai", "Zuri"))
    assert "ask" not in world.storage_python("traitors:ui") and world.errors == []


def test_a_gathered_give_gives_each_player_their_own_item_once() -> None:
    ids = {"Alex": "t1/Alex/1", "Kai": "t1/Kai/4"}
    effect = GiveItem(frozenset(ids), Item.VOTE_PAPER)
    (command,) = render_give_each(effect, ids)
    world, old = _world(), _world()
    for _ in range(2):  # sent twice (a crash before it was marked sent): one item each
        world.execute(command.text)
        for c in render_give_once(effect, ids):
            old.execute(c.text)
    assert _seen(world) == _seen(old)
    for name, gid in ids.items():
        (stack,) = world.player(name).inventory
        assert stack.custom_data == {"traitors": {"item": "vote_paper", "give": gid}}
    assert world.player("Zuri").inventory == [] and world.errors == []


def test_a_worn_item_is_given_as_before() -> None:
    effect = GiveItem(frozenset({"Alex"}), Item.TRAITORS_CLOAK)
    assert render_give_each(effect, {"Alex": "t1/Alex/1"}) == render_give_once(effect, {"Alex": "t1/Alex/1"})


def test_a_batch_sent_twice_neither_repeats_a_question_after_news_nor_gives_twice() -> None:
    """House rules 2 and 3: a prompt never shares a batch with a plain chat line, and a give never shares one
    with a later clear; a batch sent again after a crash then gives nothing twice and asks nothing anew."""
    news = render(Announce(msg("vote.open")), CTX)
    asks = render_prompt_asks(_vote_prompt("Alex"), CTX) + render_prompt_asks(_vote_prompt("Kai"), CTX)
    assert [n for _, n in pack([*news, *asks])] == [1, 2]
    ids = {"Alex": "t1/Alex/1"}
    give = render_give_each(GiveItem(frozenset(ids), Item.CAST_VOTE_PAPER, "Kai"), ids)
    taken = clear("@a", Item.CAST_VOTE_PAPER)
    batches = pack([clear("Alex", Item.VOTE_PAPER), *give, taken])
    assert [n for _, n in batches] == [2, 1]
    world = _world()
    for _ in range(2):  # the first batch sent again (a crash before it was marked sent): still one give
        world.execute(batches[0][0].text)
    gives = [r for r in world.inner_log if r.reply.startswith("Gave")]
    assert len(gives) == 1 and len(world.player("Alex").inventory) == 1
