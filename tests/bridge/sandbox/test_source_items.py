"""Three items of the rulebook in the sandbox: the engine plays the case, the renderer's commands run in the
sandbox world, and the right item is in the right inventory, the right block at the right place: the seer book
(T8.5), the host's finale torches (T9.3), the player heads of the breakfast table (T10.2).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from bridge.config.castle import default_castle
from bridge.minecraft.castle.blueprint import plan_castle
from bridge.minecraft.lang import load
from bridge.minecraft.render import RenderContext, render
from bridge.sandbox.text import plain_text
from bridge.sandbox.world import World
from engine import actions
from engine import effects as fx
from engine.actions import Advance, ChooseEvent, ChooseTorch, UsePower
from engine.effects import Effect, GiveItem, TakeItem
from engine.ids import Allegiance, NightEvent, Power, Torch, Twist
from engine.rulesets.traitors.phases import Phase
from engine.rulesets.traitors.twists.guess import AskSeer, VoteNominee
from tests.engine.rulesets.traitors.test_source_items import HOST, Series

T, F = Allegiance.TRAITOR, Allegiance.FAITHFUL
CASTLE = default_castle()
ORIGIN = (64, 64, -64)
"""The origin the shipped castle file was built at (its ``[built]`` table)."""


class Played(Series):
    """The engine's scripted series (``tests/engine/rulesets/traitors/test_source_items.py``) whose item and block
    effects also run in a sandbox world, with every contestant and the host online (and the shipped castle built,
    with ``castle``)."""

    def __init__(
        self, hands: Iterable[tuple[str, Allegiance, Power | None]], *, castle: bool = False, **kw: object
    ) -> None:
        hands = tuple(hands)
        self.world = World()
        if castle:
            self.world.blocks.apply(plan_castle(ORIGIN, 16).ops)
        for name in (*(h[0] for h in hands), HOST):
            self.world.join(name)
        super().__init__(hands, **kw)

    def do(self, action: object) -> list[Effect]:
        effects = super().do(action)
        ctx = RenderContext(CASTLE, self.g.seats())
        for e in effects:
            if isinstance(e, (GiveItem, TakeItem, fx.PlaceItem, fx.ClearPlace)):
                for command in render(e, ctx):
                    self.world.execute(command.text)
        assert self.world.errors == []
        return effects

    def stacks(self, name: str, item: str) -> list[object]:
        return [s for s in self.world.players[name].inventory if s.custom_data.get("traitors", {}).get("item") == item]


# ---------------------------------------------------------------------------------------------- T8.5


@pytest.mark.rule("T8.5")
def test_the_nominee_alone_holds_the_seer_book_and_its_page_tells_the_truth_in_their_language() -> None:
    """Rulebook §10: "the seer book, which reveals whether a player is a Faithful or a Traitor during the Seer
    twist". Sunny, a Traitor falsified by The Falsifier that night, is shown a Traitor on the book's page, which
    reads in each reader's language; nobody else holds a seer book."""
    hands = (
        ("Sunny", T, Power.BARTENDER),
        ("Efe", T, Power.FALSIFIER),
        ("Makena", T, Power.SILENCER),
        *((n, F, None) for n in ("Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Lena", "Omar", "Vic")),
    )
    p = Played(hands, twists={2: (Twist.SEER,)})
    p.banish("Vic")
    for t in ("Sunny", "Efe", "Makena"):
        p.do(ChooseEvent(t, NightEvent.MURDER, "Omar"))
    p.advance_to(Phase.TRAITOR_POWERS)  # the Turret's clock ends (phases house rule 9)
    p.do(UsePower("Efe", "Sunny"))
    p.advance_to(Phase.NOMINATION)
    for v in list(p.g.twist_state.nominators):
        p.do(VoteNominee(v, "Noor" if v != "Noor" else "Ari"))
    p.advance_to(Phase.NOMINEE)
    p.do(AskSeer("Noor", "Sunny"))
    (book,) = p.stacks("Noor", "seer_book")
    assert book.item == "minecraft:written_book" and book.name == "Seer Book"
    (page,) = book.components["minecraft:written_book_content"]["pages"]
    assert plain_text(page) == "The Seer reveals:\n\nSunny is a Traitor."
    assert plain_text(page, load("ru_ru")) == "Провидец открывает:\n\nSunny — предатель."
    assert plain_text(page, load("uk_ua")) == "Провидець відкриває:\n\nSunny — зрадник."
    assert all(p.stacks(n, "seer_book") == [] for n in p.world.players if n != "Noor")


# ---------------------------------------------------------------------------------------------- T9.3

FINALE_HANDS = tuple((n, T if n == "Sunny" else F, None) for n in ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor"))


def _finale() -> Played:
    p = Played(FINALE_HANDS, powers=False)
    p.banish("Efe")
    p.banish("Noor")
    assert p.g.phase is Phase.TORCHES
    return p


def _torches(p: Played) -> list[tuple[str, str]]:
    """The host's finale torches: (the block it places, the finalist it is named for), sorted."""
    held = p.stacks(HOST, "banish_torch") + p.stacks(HOST, "end_torch")
    return sorted((s.item, plain_text(s.components["minecraft:custom_name"])) for s in held)


@pytest.mark.rule("T9.3")
def test_the_host_holds_one_torch_per_finalist_of_their_latest_vote_and_no_finalist_holds_one() -> None:
    """Rulebook §10: each vote "will give the host a torch"; "a finale vote can be changed until the vote is
    locked" (the host's torch for that finalist is replaced)."""
    p = _finale()
    p.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
    p.do(ChooseTorch("Kai", Torch.BANISH_AGAIN))
    p.do(ChooseTorch("Zuri", Torch.END_GAME))
    assert _torches(p) == [
        ("minecraft:copper_torch", "Zuri"),
        ("minecraft:redstone_torch", "Alex"),
        ("minecraft:redstone_torch", "Kai"),
    ]
    p.do(ChooseTorch("Alex", Torch.END_GAME))
    p.do(actions.AskHappy(HOST))
    p.do(ChooseTorch("Kai", Torch.END_GAME))  # changed after the question, before the lock
    assert _torches(p) == [
        ("minecraft:copper_torch", "Alex"),
        ("minecraft:copper_torch", "Kai"),
        ("minecraft:copper_torch", "Zuri"),
    ]
    assert all(p.stacks(n, "banish_torch") == p.stacks(n, "end_torch") == [] for n in ("Alex", "Kai", "Zuri", "Sunny"))
    assert all(s.components["minecraft:item_model"] == "minecraft:torch" for s in p.stacks(HOST, "end_torch"))


@pytest.mark.rule("T9.3")
def test_a_torch_the_host_places_turns_red_for_banish_again_and_green_for_end_game() -> None:
    """Rulebook §10: "a torch, which will either turn red for banish again, or green for end game when placed":
    after the lock the host sets them down in the finale area; the blocks are a redstone torch (red) and a copper
    torch (green)."""
    p = _finale()
    p.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
    p.do(ChooseTorch("Kai", Torch.END_GAME))
    p.do(actions.AskHappy(HOST))
    p.do(Advance(HOST))  # locked: not unanimous, another banishment
    assert p.g.phase is Phase.VOTE
    area = CASTLE.places.finale_area
    x, y, z = int(area.x // 1), int(area.y // 1), int(area.z // 1)
    assert p.world.place_held(HOST, "banish_torch", (x - 1, y, z - 2)) == "minecraft:redstone_torch"
    assert p.world.place_held(HOST, "end_torch", (x + 1, y, z - 2)) == "minecraft:copper_torch"
    assert p.world.blocks.get((x - 1, y, z - 2)) == "minecraft:redstone_torch"
    assert p.world.blocks.get((x + 1, y, z - 2)) == "minecraft:copper_torch"
    assert _torches(p) == []


# ---------------------------------------------------------------------------------------------- T10.2

HEAD_HANDS = tuple(
    (n, T if n in ("Sunny", "Efe") else F, None)
    for n in ("Alex", "Kai", "Zuri", "Sunny", "Efe", "Noor", "Ari", "Steve", "Lena")
)


def _spot(seat: int) -> tuple[int, int, int]:
    loc = CASTLE.breakfast[seat - 1]
    return int(loc.x // 1), int(loc.y // 1), int(loc.z // 1)


@pytest.mark.rule("T10.2")
def test_the_heads_of_the_arrivals_stand_at_their_breakfast_places_and_go_at_night() -> None:
    """Rulebook §10: "the player heads used in the breakfast room". In the built castle, at day two's breakfast,
    every contestant who arrived has a player head naming them, facing out from the table, on the table at their
    seat's place; the banished and the murdered contestants' places are empty; when the night begins the heads
    are gone."""
    p = Played(HEAD_HANDS, castle=True, powers=False)
    assert all(p.world.blocks.get(_spot(n)) == "minecraft:air" for n in range(1, 17))  # the places are free
    p.banish("Alex")
    for t in ("Sunny", "Efe"):
        p.do(ChooseEvent(t, NightEvent.MURDER, "Kai"))
    p.advance_to(Phase.BREAKFAST)
    seats = p.g.seats()
    for name, seat in seats.items():
        here = p.world.blocks.get(_spot(seat))
        if name in ("Alex", "Kai"):
            assert here == "minecraft:air", name
            continue
        rotation = 4 if seat % 2 else 12  # odd seats on the table's west side face west, even ones east
        assert here == f"minecraft:player_head[rotation={rotation}]", name
        x, y, z = _spot(seat)
        assert (
            p.world.execute(f"data get block {x} {y} {z} profile.name")
            == f'{x}, {y}, {z} has the following block data: "{name}"'
        )
        assert p.world.blocks.get((x, y - 1, z)) == "minecraft:spruce_planks"  # on the breakfast table
    p.banish("Noor")
    assert all(p.world.blocks.get(_spot(n)) == "minecraft:air" for n in range(1, 17))


@pytest.mark.rule("T10.2", "T9.3")
def test_a_resync_after_a_lost_world_sets_the_heads_again_and_gives_the_host_their_torches() -> None:
    """After the server lost what it had (a crash without a save), the service's re-sync (``docs/recovery.md``)
    puts the finalists' heads back at the breakfast table and gives the host back one torch per finalist's vote."""
    from bridge.loop.recovery import Handouts, Rebuilt, resync_commands

    p = Played(FINALE_HANDS, castle=True, powers=False)
    p.banish("Efe")
    p.banish("Noor")
    p.do(ChooseTorch("Alex", Torch.BANISH_AGAIN))
    p.do(ChooseTorch("Kai", Torch.END_GAME))
    handouts = Handouts("s1")
    handouts.feed(p.fx)
    lost = World()
    lost.blocks.apply(plan_castle(ORIGIN, 16).ops)
    for name in p.world.players:
        lost.join(name)
    for command in resync_commands(Rebuilt(p.g, handouts, None), RenderContext(CASTLE, p.g.seats()), p.now):
        lost.execute(command.text)
    assert lost.errors == []
    seats = p.g.seats()
    for name in ("Alex", "Kai", "Zuri", "Sunny"):  # day two's arrivals, still in
        x, y, z = _spot(seats[name])
        assert lost.blocks.get((x, y, z)).startswith("minecraft:player_head"), name
        assert lost.blocks.entity((x, y, z))["profile"] == {"name": name}
    assert all(lost.blocks.get(_spot(seats[n])) == "minecraft:air" for n in ("Efe", "Noor"))
    p.world = lost
    assert _torches(p) == [("minecraft:copper_torch", "Kai"), ("minecraft:redstone_torch", "Alex")]
