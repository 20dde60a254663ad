"""Twists and the castle's items end to end in the sandbox (real data pack, real loopback RCON, the service):
the right items appear in the right inventories and disappear when they should; the Sacred Sword's hit pairs
attacker and victim; books are read from the inventory; the host's twist list; the bar."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.service import SeriesService
from bridge.sandbox import Sandbox
from engine.actions import Action, Advance, CastVote, ChooseEvent, SwearOath
from engine.ids import Allegiance, NightEvent, Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings
from engine.rulesets.traitors.twists.murder import ChooseSwordBearer

PASSWORD = "pw-twist-flow"
HOST = "Hosty"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe")
TRAITORS = ("Sunny", "Efe")
DEAL = tuple(DealEntry(n, Allegiance.TRAITOR if n in TRAITORS else Allegiance.FAITHFUL) for n in NAMES)

Body = Callable[[Sandbox, SeriesService], Awaitable[None]]


def run(twists: dict[int, tuple[Twist, ...]], body: Body, **kw: Any) -> None:
    settings = Settings(contestants=NAMES, hosts=(HOST,), deal=DEAL, powers=False, twists=twists, **kw)

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*NAMES, HOST):
            sb.world.join(name)
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                service = SeriesService(Game(settings, seed=3), rcon, default_castle())
                await service.start()
                await body(sb, service)
                assert sb.world.errors == []
                assert service.failed_commands == []
                service.phase_clock.close()
        finally:
            await sb.stop()

    asyncio.run(main())


async def to(service: SeriesService, phase: Phase) -> None:
    """The host moves on (Traitors swear the Oath) until ``phase``."""
    for _ in range(40):
        g = service.game
        if g.phase is phase:
            return
        if g.phase is Phase.OATH and g.night.oath_taking:
            await must(service, SwearOath(g.night.oath_queue[0]))
        else:
            await must(service, Advance(HOST))
    raise AssertionError(f"never reached {phase}; at {service.game.phase}")


async def must(service: SeriesService, action: Action) -> None:
    before = len(service.game.log)
    await service.apply(action)
    assert len(service.game.log) == before + 1, f"refused: {action}"


async def press(sb: Sandbox, service: SeriesService, player: str, objective: str, value: int) -> None:
    """A player presses a trigger; the data pack queues it; the service applies it."""
    sb.world.tick()
    assert sb.world.press_trigger(player, objective, value).startswith("Triggered")
    sb.world.tick()
    await service.poll_once()


def count(sb: Sandbox, name: str, item: str) -> int:
    return sb.world.player(name).count_items(item)


def chat(sb: Sandbox, name: str) -> str:
    return "\n".join(m.text for m in sb.world.player(name).chat)


def test_sacred_sword_appears_strikes_and_vanishes() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to(service, Phase.TURRET)  # night 0: the Traitors name the sword's bearer for day 1
        for t in TRAITORS:
            await press(sb, service, t, "traitors.bearer", NAMES.index("Efe") + 1)
        await to(service, Phase.DISCUSSION)
        assert count(sb, "Efe", "sacred_sword") == 1
        assert all(count(sb, n, "sacred_sword") == 0 for n in NAMES if n != "Efe")
        # a hit on a Traitor does nothing
        sb.world.hit("Efe", "Sunny")
        sb.world.tick()
        await service.poll_once()
        assert service.game.players["Sunny"].alive
        assert "Nothing happens." in chat(sb, "Efe")
        # a hit by someone without the sword is no sword hit at all
        sb.world.hit("Kai", "Alex")
        sb.world.tick()
        await service.poll_once()
        assert service.game.players["Alex"].alive
        # the sword's hit on a Faithful: one queue entry names both players; murdered in plain sight
        sb.world.hit("Efe", "Zuri")
        sb.world.tick()
        await service.poll_once()
        assert not service.game.players["Zuri"].alive
        assert "Zuri has been murdered with the Sacred Sword." in chat(sb, "Alex")
        assert "Efe" not in chat(sb, "Alex").split("Sacred Sword.")[-2].splitlines()[-1]
        await to(service, Phase.ROUND_TABLE)
        assert count(sb, "Efe", "sacred_sword") == 0

    run({1: (Twist.MURDER,)}, body)


def test_an_attackerless_struck_entry_pairs_with_the_hit_before_it() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to(service, Phase.TURRET)
        for t in TRAITORS:
            await must(service, ChooseSwordBearer(t, "Sunny"))
        await to(service, Phase.DISCUSSION)
        # an older data pack: the struck event carries no attacker
        sb.world.tick()
        sb.world.execute('execute as Sunny run function traitors:input/event {input:"sword_hit",value:1}')
        sb.world.execute('execute as Kai run function traitors:input/event {input:"sword_struck",value:1}')
        await service.poll_once()
        assert not service.game.players["Kai"].alive

    run({1: (Twist.MURDER,)}, body)


def test_confession_chests_books_shields_and_the_response_book() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to(service, Phase.DISCUSSION)
        assert all(count(sb, n, "confession_book") == 1 for n in NAMES)
        await press(sb, service, "Alex", "traitors.chest", 1)
        assert count(sb, "Alex", "murder_shield") == 1  # every chest holds a shield (confession_shields = 8)
        # a confession written in the book, sent with the trigger, read from the inventory over RCON
        sb.world.write_book("Kai", "confession_book", ["I saw Efe", "near the Turret."])
        await press(sb, service, "Kai", "traitors.confess", 1)
        assert service.game.twist_state.confessions == {"Kai": "I saw Efe\nnear the Turret."}
        assert "Your confession is sent to the Traitors." in chat(sb, "Kai")
        await press(sb, service, "Ari", "traitors.confess", 1)  # an unwritten book
        assert "Write something in the book first." in chat(sb, "Ari")
        # A book picked up from someone else is not read as one's own: Noor holds Zuri's written book first.
        sb.world.write_book("Zuri", "confession_book", ["Zuri wrote this."])
        zuri = sb.world.player("Zuri").inventory
        (book,) = [s for s in zuri if s.custom_data.get("traitors", {}).get("item") == "confession_book"]
        zuri.remove(book)
        sb.world.player("Noor").inventory.insert(0, book)
        await press(sb, service, "Noor", "traitors.confess", 1)
        assert "Noor" not in service.game.twist_state.confessions
        assert "Write something in the book first." in chat(sb, "Noor")
        await to(service, Phase.ROUND_TABLE)
        assert all(count(sb, n, "confession_book") == 0 for n in NAMES)
        await to(service, Phase.VOTE)
        for v in service.game.ballot.voters:
            await must(service, CastVote(v, "Noor" if v != "Noor" else "Ari"))
        await to(service, Phase.TURRET)  # night one's Oath clock, nobody to swear (phases house rule 9)
        # in the Turret: cloak (worn: slower), lantern and the response draft, for the Traitors only
        for n in NAMES:
            traitor = n in TRAITORS and service.game.players[n].alive
            assert (
                count(sb, n, "traitors_cloak") == count(sb, n, "lantern") == count(sb, n, "response_draft") == traitor
            )
            assert (sb.world.player(n).movement_speed() < 0.1) is traitor
        assert "Confession from Kai: I saw Efe" in chat(sb, "Sunny")
        assert "Confession from Kai" not in chat(sb, "Alex")
        sb.world.write_book("Sunny", "response_draft", ["We read you."])
        await press(sb, service, "Sunny", "traitors.respond", 1)
        await must(service, Advance(HOST))  # the Confession's clock ends: the decisions (rule T8.4)
        for t in TRAITORS:
            await must(service, ChooseEvent(t, NightEvent.MURDER, "Alex"))
        await to(service, Phase.BREAKFAST)
        assert service.game.players["Alex"].alive  # the shield saved Alex
        for n in NAMES:
            assert count(sb, n, "traitors_cloak") == count(sb, n, "lantern") == count(sb, n, "response_draft") == 0
            assert sb.world.player(n).movement_speed() == 0.1
            assert count(sb, n, "murder_shield") == 0
        living = [n for n in NAMES if service.game.players[n].alive]
        for n in living:
            (book,) = [
                s
                for s in sb.world.player(n).inventory
                if s.custom_data.get("traitors", {}).get("item") == "response_book"
            ]
            pages = book.components["minecraft:written_book_content"]["pages"]
            assert "We read you." in str(pages)

    run({1: (Twist.CONFESSION,)}, body, confession_shields=8)


def test_drinks_at_the_bar() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to(service, Phase.DISCUSSION)
        await press(sb, service, "Noor", "traitors.drink", 2)
        await press(sb, service, "Sunny", "traitors.drink", 1)
        assert count(sb, "Noor", "traitors_tipple") == 1 and count(sb, "Sunny", "faithful_fancy") == 1
        await press(sb, service, "Noor", "traitors.drink", 1)
        assert "You have already had your drink in this series." in chat(sb, "Noor")
        await to(service, Phase.ROUND_TABLE)
        assert all(count(sb, n, "traitors_tipple") + count(sb, n, "faithful_fancy") == 0 for n in NAMES)

    run({}, body)


def test_the_host_starts_and_cancels_a_twist_from_the_console() -> None:
    async def body(sb: Sandbox, service: SeriesService) -> None:
        await to(service, Phase.DISCUSSION)
        await press(sb, service, HOST, "traitors.host", 6)  # "Start a twist": a list of twists
        assert "Start which twist?" in chat(sb, HOST)
        await press(sb, service, HOST, "traitors.twist", 6)  # the Trial, tonight
        assert "The Trial is scheduled for day 1." in chat(sb, HOST)
        assert service.game.twist_on(1, Twist.TRIAL)
        await press(sb, service, HOST, "traitors.twist", 6)
        assert "The Trial is already scheduled for day 1." in chat(sb, HOST)
        await press(sb, service, HOST, "traitors.twist", 106)
        assert not service.game.twist_on(1, Twist.TRIAL)
        # a contestant cannot
        await press(sb, service, "Alex", "traitors.twist", 1)
        assert "Only the host can do that." in chat(sb, "Alex")
        assert not service.game.twist_on(2, Twist.DOUBLE_VOTE)
        # the precondition is checked: the guess needs powers, this series has none
        await press(sb, service, HOST, "traitors.twist", 4)
        assert "The Guess twist: this series deals no powers." in chat(sb, HOST)

    run({}, body)
