"""The Traitors' night in Minecraft terms (rulebook §7, §10 "Traitors' Equipment"): the cloak and lantern are worn
and slow their wearer only while worn; the Traitors who bring an offer stand in the contestant's home; the Oath's
answers are each their own question's, in every language.

The commands are the ones ``render`` sends, run in the sandbox world (mecha-checked, vanilla replies) so that what a
player wears and how fast they walk can be read back.
"""

from __future__ import annotations

import pytest

from bridge.config.castle import default_castle
from bridge.minecraft.lang import load
from bridge.minecraft.render import RenderContext, choice_label, render, render_give_once
from bridge.sandbox.model import BASE_MOVEMENT_SPEED
from bridge.sandbox.world import World
from engine.actions import SwearOath
from engine.effects import Choice, GiveItem, MoveTo, TakeItem, msg
from engine.ids import Item, Place

CASTLE = default_castle()
CTX = RenderContext(castle=CASTLE, seats={"Alex": 1, "Sunny": 7, "Efe": 8})
SLOWED = BASE_MOVEMENT_SPEED * 0.7


def run(world: World, effect: GiveItem | TakeItem | MoveTo) -> list[str]:
    replies = [world.execute(c.text) for c in render(effect, CTX)]
    assert world.errors == []
    return replies


def world_with(*names: str) -> World:
    world = World()
    for n in names:
        world.join(n)
    return world


def marker(stack: object) -> str | None:
    return getattr(stack, "custom_data", {}).get("traitors", {}).get("item")


@pytest.mark.rule("T7.6")
def test_the_cloak_is_worn_and_slows_its_wearer_only_while_worn() -> None:
    """ "When The Traitors meet each other, or with a Faithful during the night, they will be equipped with their
    cloak and lantern. While equipped, a Traitor will move more slowly than usual." """
    world = world_with("Sunny", "Alex")
    run(world, GiveItem(frozenset({"Sunny"}), Item.TRAITORS_CLOAK, None))
    run(world, GiveItem(frozenset({"Sunny"}), Item.LANTERN, None))
    sunny = world.players["Sunny"]
    assert marker(sunny.equipment["armor.chest"]) == "traitors_cloak"
    assert marker(sunny.equipment["weapon.offhand"]) == "lantern"
    assert sunny.inventory == []  # worn and carried in hand, nothing extra in the inventory
    assert sunny.movement_speed() == pytest.approx(SLOWED)  # 30 % slower, as Slowness II
    assert world.players["Alex"].movement_speed() == BASE_MOVEMENT_SPEED and not world.players["Alex"].equipment
    modifiers = sunny.equipment["armor.chest"].components["minecraft:attribute_modifiers"]
    assert modifiers == [
        {
            "type": "minecraft:movement_speed",
            "id": "traitors:cloak",
            "amount": -0.3,
            "operation": "add_multiplied_total",
            "slot": "chest",
        }
    ]
    run(world, TakeItem(Item.TRAITORS_CLOAK, ("Sunny",)))
    run(world, TakeItem(Item.LANTERN, ("Sunny",)))
    assert sunny.equipment == {} and sunny.movement_speed() == BASE_MOVEMENT_SPEED


@pytest.mark.rule("T7.6")
def test_equipping_never_overwrites_what_a_player_wears() -> None:
    """A Traitor already wearing a chestplate and holding a shield keeps them: cloak and lantern go into the
    inventory, and the cloak slows nobody until it is put on ("While equipped")."""
    world = world_with("Efe")
    world.execute("item replace entity Efe armor.chest with minecraft:iron_chestplate 1")
    world.execute("item replace entity Efe weapon.offhand with minecraft:shield 1")
    run(world, GiveItem(frozenset({"Efe"}), Item.TRAITORS_CLOAK, None))
    run(world, GiveItem(frozenset({"Efe"}), Item.LANTERN, None))
    efe = world.players["Efe"]
    assert efe.equipment["armor.chest"].item == "minecraft:iron_chestplate"
    assert efe.equipment["weapon.offhand"].item == "minecraft:shield"
    assert sorted(marker(s) or "" for s in efe.inventory) == ["lantern", "traitors_cloak"]
    assert efe.movement_speed() == BASE_MOVEMENT_SPEED
    run(world, TakeItem(Item.TRAITORS_CLOAK, ("Efe",)))
    assert [marker(s) for s in efe.inventory] == ["lantern"] and efe.equipment["armor.chest"].item.endswith(
        "iron_chestplate"
    )


@pytest.mark.rule("T7.6")
def test_a_resent_hand_out_equips_one_cloak() -> None:
    """After a crash the service sends a hand-out again (``render_give_once``): still one cloak, worn."""
    world = world_with("Sunny")
    effect = GiveItem(frozenset({"Sunny"}), Item.TRAITORS_CLOAK, None)
    for _ in range(2):
        for c in render_give_once(effect, {"Sunny": "s1/Sunny/4"}):
            world.execute(c.text)
    sunny = world.players["Sunny"]
    assert world.errors == [] and sunny.inventory == []
    assert sunny.count_items("traitors_cloak") == 1 and sunny.movement_speed() == pytest.approx(SLOWED)


@pytest.mark.rule("T7.6")
def test_the_traitors_bringing_an_offer_stand_in_the_contestants_home_facing_them() -> None:
    """The Traitors are brought to the contestant (rulebook §7.2): side by side inside Alex's home, in front of
    him, facing him."""
    home = CASTLE.location(Place.HOME, 1)
    out = [c.text for c in render(MoveTo(("Sunny", "Efe"), Place.HOME_VISIT, (1, 1)), CTX)]
    spots = [CASTLE.visitor(1, 0), CASTLE.visitor(1, 1)]
    assert out == [f"tp {n} {s.x} {s.y} {s.z} {s.yaw} 0.0" for n, s in zip(("Sunny", "Efe"), spots, strict=True)]
    assert spots[0] != spots[1] and all(s.y == home.y for s in spots)
    assert home.yaw == -90.0 and all(s.yaw == 90.0 and s.x == home.x + 2 for s in spots)  # he faces east, they west
    assert sorted(abs(s.z - home.z) for s in spots) == [1.0, 1.0]
    # the one Traitor of an ultimatum, or a Traitor re-synced alone, takes the first spot
    assert [c.text for c in render(MoveTo(("Sunny",), Place.HOME_VISIT, (1,)), CTX)] == [out[0]]


ANSWERS = {
    "en_us": ("I do.", "I am.", "I do."),
    "ru_ru": ("Обязуюсь.", "Готов(а).", "Клянусь."),
    "uk_ua": ("Зобов'язуюся.", "Готовий(-а).", "Присягаюся."),
}
OATH = {
    "en_us": (
        "You stand before the Traitors' Turret. Before I give you this cloak, I'm going to need you to take the "
        "Traitors' Oath.",
        "Do you commit to lie and deceive throughout this game?",
        "Are you willing to murder one of your fellow players every single night?",
        "And do you vow to keep your identity, and the identity of your fellow Traitors, a secret?",
        "Then you are now, officially, a Traitor.",
    ),
    "ru_ru": (
        "Вы стоите перед башней предателей. Прежде чем я вручу вам этот плащ, вам нужно принести клятву предателей.",
        "Обязуетесь ли вы лгать и обманывать на протяжении всей этой игры?",
        "Готовы ли вы убивать одного из своих товарищей по игре каждую ночь, без исключения?",
        "И клянётесь ли вы хранить в тайне свою личность и личности своих товарищей-предателей?",
        "Тогда отныне вы официально предатель.",
    ),
    "uk_ua": (
        "Ви стоїте перед вежею зрадників. Перш ніж я вручу вам цей плащ, вам потрібно скласти клятву зрадників.",
        "Чи зобов'язуєтеся ви брехати й обманювати впродовж усієї цієї гри?",
        "Чи готові ви вбивати одного зі своїх товаришів по грі щоночі, без винятку?",
        "І чи присягаєтеся ви зберігати в таємниці свою особу та особи своїх товаришів-зрадників?",
        "Тоді відтепер ви офіційно зрадник.",
    ),
}


@pytest.mark.rule("T7.1")
@pytest.mark.parametrize("language", sorted(OATH))
def test_the_oath_in_every_language(language: str) -> None:
    """ "Host:You stand before the Traitors' Turret. Before I give you this cloak, I'm going to need you to take
    the Traitors' Oath." … "Sunny:I do." … "Sunny:I am." … "Host:Then you are now, officially, a Traitor." The
    English is the source's, word for word; Russian and Ukrainian say the same (each answer fits its verb)."""
    table = load(language)
    keys = ("opening", "question.1", "question.2", "question.3", "closing")
    assert tuple(table[f"traitors.oath.{k}"] for k in keys) == OATH[language]
    assert tuple(table[f"traitors.oath.answer.{q}"] for q in (1, 2, 3)) == ANSWERS[language]


@pytest.mark.rule("T7.1")
def test_each_oath_answer_is_shown_as_its_own_questions_answer() -> None:
    """The first and third answers read "I do." in English but differ in Russian and Ukrainian: the button shows
    the answer of the question it answers."""
    for q in (1, 2, 3):
        choice = Choice(msg(f"oath.answer.{q}").text, SwearOath("Sunny"))
        label = choice_label(choice, msg(f"oath.question.{q}"))
        assert label.translate == f"traitors.oath.answer.{q}"
