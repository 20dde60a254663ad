"""The Traitors' night end to end in the sandbox (the built castle, the real data pack, loopback RCON, the
service): where each contestant stands, what each wears and how fast they walk, and what each reads in chat, from
the Oath through the Turret to an offer at a contestant's home and back (rulebook §7.1, §7.2, §7.3; §10 "Traitors'
Equipment").

Sunny and Efe are the Traitors (no powers), Kai is The Guardian (the host visits him); the Double Vote on day one gives night zero's Turret a choice to make,
so the Traitors' meeting there can be seen; Zuri is banished on day one, and on night one the Traitors seduce Alex.
"""

from __future__ import annotations

import asyncio

import pytest

from bridge.config.castle import default_castle
from bridge.io.rcon import RconClient
from bridge.loop.service import SeriesService
from bridge.minecraft.batch import unpack
from bridge.minecraft.castle.blueprint import plan_castle
from bridge.sandbox import Sandbox
from bridge.sandbox.model import BASE_MOVEMENT_SPEED, Player
from engine.actions import Action, Advance, CastVote
from engine.ids import Allegiance, Place, Power, Twist
from engine.rulesets.traitors.game import Game
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.settings import DealEntry, Settings

PASSWORD = "pw-night-flow"
HOST = "Hosty"
NAMES = ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe")
TRAITORS = ("Sunny", "Efe")
CASTLE = default_castle()
SLOWED = BASE_MOVEMENT_SPEED * 0.7


def at(p: Player, place: Place, seat: int | None = None, k: int = 0) -> bool:
    loc = CASTLE.visitor(seat, k) if place is Place.HOME_VISIT and seat else CASTLE.location(place, seat)
    return p.pos == (loc.x, loc.y, loc.z)


def wears(p: Player) -> tuple[str | None, str | None]:
    """The castle items in the chest slot and the off hand."""
    return tuple(  # type: ignore[return-value]
        (p.equipment[s].custom_data.get("traitors", {}).get("item") if s in p.equipment else None)
        for s in ("armor.chest", "weapon.offhand")
    )


def chat(p: Player) -> list[str]:
    return [m.text for m in p.chat]


def in_order(lines: list[str], fragments: tuple[str, ...]) -> bool:
    """Whether each fragment is found in ``lines``, each in a line after the one before."""
    i = 0
    for fragment in fragments:
        while i < len(lines) and fragment not in lines[i]:
            i += 1
        if i == len(lines):
            return False
        i += 1
    return True


@pytest.mark.rule("T7.1", "T7.3", "T7.6")
def test_a_night_in_the_castle_oath_turret_offer_and_home() -> None:
    """ "One Traitor at a time will take the Traitors' Oath before entering the Traitors' Turret for the first
    time." / "When The Traitors meet each other, or with a Faithful during the night, they will be equipped with
    their cloak and lantern. While equipped, a Traitor will move more slowly than usual." / "After making all of
    the necessary decisions, The Traitors will be sent to their individual homes." """
    deal = tuple(
        DealEntry(
            n, Allegiance.TRAITOR if n in TRAITORS else Allegiance.FAITHFUL, Power.GUARDIAN if n == "Kai" else None
        )
        for n in NAMES
    )
    settings = Settings(contestants=NAMES, hosts=(HOST,), deal=deal, joker_night=None, twists={1: (Twist.DOUBLE_VOTE,)})

    async def main() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0)
        port = await sb.start()
        for name in (*NAMES, HOST):  # online first: their chunks are loaded, so the castle can be built
            sb.world.join(name)
        for command in plan_castle((64, 64, -64), 16).commands():  # the shipped castle file's castle, built
            sb.world.execute(command)
        world = sb.world
        seat = {n: i for i, n in enumerate(NAMES, 1)}
        p = {n: world.player(n) for n in NAMES}
        try:
            async with RconClient("127.0.0.1", port, PASSWORD, timeout=5) as rcon:
                service = SeriesService(Game(settings, seed=3), rcon, CASTLE)
                await service.start()

                async def must(action: Action) -> None:
                    before = len(service.game.log)
                    await service.apply(action)
                    assert len(service.game.log) == before + 1, f"refused: {action}"

                async def press(player: str, objective: str, value: int) -> None:
                    world.tick()
                    assert world.press_trigger(player, objective, value).startswith("Triggered")
                    world.tick()
                    await service.poll_once()

                await must(Advance(HOST))  # night zero: everyone home, Sunny alone at the Oath spot
                assert at(p["Sunny"], Place.OATH_SPOT) and at(p["Efe"], Place.HOME, seat["Efe"])
                assert all(at(p[n], Place.HOME, seat[n]) for n in NAMES if n != "Sunny")
                for _ in range(2):
                    await press("Sunny", "traitors.oath", 1)
                assert not any("You stand before" in t for t in chat(p["Efe"]))  # one Traitor at a time
                await press("Sunny", "traitors.oath", 1)
                assert in_order(
                    chat(p["Sunny"]),
                    (
                        "to take the Traitors' Oath.",
                        "throughout this game? [I do.]",
                        "every single night? [I am.]",
                        "a secret? [I do.]",
                        "Then you are now, officially, a Traitor.",
                        "Go home and wait",
                    ),
                )
                # sworn: the cloak on, slower, home to wait; the Oath's clock runs on (phases house rule 9), then
                # Efe, alone, at the Oath spot
                assert at(p["Sunny"], Place.HOME, seat["Sunny"]) and wears(p["Sunny"]) == ("traitors_cloak", None)
                assert p["Sunny"].movement_speed() == pytest.approx(SLOWED)
                assert not at(p["Efe"], Place.OATH_SPOT)
                await must(Advance(HOST))
                assert at(p["Efe"], Place.OATH_SPOT) and wears(p["Efe"]) == (None, None)
                for _ in range(3):
                    await press("Efe", "traitors.oath", 1)
                await must(Advance(HOST))
                # both sworn: they meet in the Turret in cloak and lantern, both slowed
                assert service.game.phase is Phase.TURRET
                for t in TRAITORS:
                    assert at(p[t], Place.TURRET) and wears(p[t]) == ("traitors_cloak", "lantern")
                    assert p[t].movement_speed() == pytest.approx(SLOWED)
                    assert any("The Traitors: Sunny, Efe." in m for m in chat(p[t]))
                await press("Sunny", "traitors.nominate", seat["Sunny"])
                sent = len(world.command_log)
                await press("Efe", "traitors.nominate", seat["Sunny"])
                await must(Advance(HOST))  # the Turret's clock ends
                # the decisions are made: cloak and lantern handed back, home; then (no murder tonight) breakfast
                log = [c for r in world.command_log[sent:] for c in unpack(r.text)]  # batches opened
                for t in TRAITORS:
                    home, hall = CASTLE.location(Place.HOME, seat[t]), CASTLE.location(Place.BREAKFAST_ROOM)
                    back = log.index(f'clear {t} *[custom_data~{{traitors:{{item:"traitors_cloak"}}}}]')
                    assert (
                        back
                        < log.index(f"tp {t} {home.x} {home.y} {home.z} {home.yaw} {home.pitch}")
                        < next(i for i, c in enumerate(log) if c.startswith(f"tp {t} {hall.x} {hall.y} {hall.z} "))
                    )
                    assert wears(p[t]) == (None, None) and p[t].movement_speed() == BASE_MOVEMENT_SPEED
                # day one: Zuri is banished; night one: the Traitors seduce Alex
                while service.game.phase is not Phase.VOTE:
                    await must(Advance(HOST))
                for voter in list(service.game.ballot.voters):
                    await must(CastVote(voter, "Zuri" if voter != "Zuri" else "Alex"))
                await must(Advance(HOST))  # night one's Oath clock, with nobody to swear
                assert service.game.phase is Phase.TURRET
                for t in TRAITORS:
                    await press(t, "traitors.seduce", seat["Alex"])
                while service.game.phase is not Phase.OFFER:  # the Turret's and the Traitor powers' clocks end
                    await must(Advance(HOST))
                # the Traitors come to Alex's home, still in cloak and lantern; Alex stays home with the letter
                assert service.game.phase is Phase.OFFER
                for k, t in enumerate(TRAITORS):
                    assert at(p[t], Place.HOME_VISIT, seat["Alex"], k), (t, p[t].pos)
                    assert wears(p[t]) == ("traitors_cloak", "lantern")
                    assert p[t].movement_speed() == pytest.approx(SLOWED)
                assert at(p["Alex"], Place.HOME, seat["Alex"]) and p["Alex"].count_items("diary_book") == 1
                met = "The Traitors come to your home in cloak and lantern: Sunny, Efe."
                assert any(met in t for t in chat(p["Alex"]))
                assert [n for n in NAMES if n != "Alex" for t in chat(p[n]) if met in t] == []
                await press("Alex", "traitors.offer", 2)  # he declines
                await must(Advance(HOST))  # the offer's clock ends
                assert service.game.phase is Phase.HOST_VISIT  # the host visits Kai; the Traitors are home
                for t in TRAITORS:
                    assert at(p[t], Place.HOME, seat[t]) and wears(p[t]) == (None, None)
                    assert p[t].movement_speed() == BASE_MOVEMENT_SPEED and any(
                        "Alex declined." in m for m in chat(p[t])
                    )
                assert at(p["Alex"], Place.HOME, seat["Alex"]) and p["Alex"].count_items("diary_book") == 0
                assert world.bad_landings == []  # every spot anyone was sent to is standable in the built castle
                assert world.errors == [] and service.failed_commands == []
                service.phase_clock.close()
        finally:
            await sb.stop()

    asyncio.run(main())
