"""The sender packs what one step sends (``bridge/loop/sender.py`` house rule 2): the vote's opening is a few
commands, each effect is observed before the command that carries it goes and finished after, and the world ends
as it did when every command went alone."""

from __future__ import annotations

import asyncio

from bridge.config.castle import default_castle
from bridge.loop.recovery import Handouts
from bridge.loop.sender import Sender
from bridge.minecraft.batch import unpack
from bridge.minecraft.datapack import built_pack_root
from bridge.minecraft.render import RenderContext, render, render_give_once
from bridge.sandbox.datapack import Datapack
from bridge.sandbox.world import World
from engine.actions import CastVote
from engine.effects import Announce, Choice, ClockStarted, Effect, GiveItem, Prompt, msg
from engine.ids import Item

NAMES = ["Alex", "Kai", "Zuri", "Steve", "Noor", "Sunny", "Makena", "Lena", "Omar", "Rhea", "Ari", "Efe"]
CTX = RenderContext(default_castle(), {n: i for i, n in enumerate(NAMES, start=1)})


class _World:
    """A stand-in RCON client: every command runs in a sandbox world with the data pack."""

    def __init__(self) -> None:
        self.world = World()
        self.world.load_datapack(Datapack.load(built_pack_root()))
        for n in NAMES:
            self.world.join(n)
        self.sent: list[str] = []
        self.log: list[object] = []  # effects observed, sends and afters, in order

    async def command(self, text: str) -> str:
        self.sent.append(text)
        self.log.append(f"sent {len(self.sent)}")
        return self.world.execute(text)


def _vote_opens() -> list[Effect]:
    """What the vote's opening step holds: the clock, then a vote paper and a prompt for each voter, then a
    public line."""
    out: list[Effect] = [ClockStarted(phase_seq=4, label=msg("clock.vote"), seconds=90.0, deadline=0.0)]
    for voter in NAMES:
        out.append(GiveItem(frozenset({voter}), Item.VOTE_PAPER))
        out.append(
            Prompt(
                frozenset({voter}),
                msg("vote.prompt"),
                tuple(Choice(n, CastVote(voter, n)) for n in NAMES if n != voter),
            )
        )
    out.append(Announce(msg("vote.open")))
    return out


def test_the_vote_opening_is_a_few_commands_and_the_world_ends_as_command_by_command() -> None:
    effects = _vote_opens()
    rcon = _World()
    sender = Sender(rcon, CTX, Handouts("t1"), rcon.log.append, outbox=False)  # type: ignore[arg-type]
    rendered = sender.render(effects)
    asyncio.run(sender.send(effects, rendered, after=lambda e: rcon.log.append(f"after {effects.index(e)}")))
    assert len(rcon.sent) <= 10  # 12 voters: one command per voter and more before
    # each effect is observed before the command carrying it goes, and finished after it went
    sends = [i for i, line in enumerate(rcon.log) if isinstance(line, str) and line.startswith("sent")]
    assert rcon.log[0] is effects[0] and rcon.log[-1] == f"after {len(effects) - 1}"
    for k, effect in enumerate(effects):  # observed before "after", and "after" follows a send
        seen = next(i for i, line in enumerate(rcon.log) if line is effect)
        done = rcon.log.index(f"after {k}")
        assert seen < done and any(seen < s < done for s in sends)

    alone = _World()  # the same effects, every command alone, as before batches
    handouts = Handouts("t1")
    for effect, ids in zip(effects, handouts.feed(effects), strict=True):
        for c in render_give_once(effect, ids) if isinstance(effect, GiveItem) and ids else render(effect, CTX):
            alone.world.execute(c.text)
    for name in NAMES:
        got, want = rcon.world.player(name), alone.world.player(name)
        assert got.dialog == want.dialog and got.inventory == want.inventory
        # the same text (a long prompt's chat line was two messages, now it is one)
        assert "".join(m.text for m in got.chat) == "".join(m.text for m in want.chat)
        assert [m.click_events() for m in got.chat if m.click_events()] == [
            [e for m in want.chat for e in m.click_events()]
        ]
    assert rcon.world.errors == [] and [c for t in rcon.sent for c in unpack(t)][0].startswith(
        "function traitors:ui/clock"
    )
