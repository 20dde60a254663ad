"""The sandbox reads the pack as each release does: the overlays that release applies, vanilla's warning for a
pack whose range leaves it out, and the advancement forms it refuses; the Sacred Sword works on every release."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bridge.minecraft.datapack import built_pack_root, write_pack
from bridge.minecraft.versions import OLDEST, SUPPORTED, McVersion, version_named
from bridge.sandbox.datapack import Datapack, DatapackError, project_pack
from bridge.sandbox.world import World

HIT, STRUCK = "traitors:sword/hit", "traitors:sword/struck"
GIVE_SWORD = (
    'give Alex minecraft:iron_sword[custom_name={text:"Sacred Sword",color:"gold",italic:false},'
    'custom_data={traitors:{item:"sacred_sword"}},enchantment_glint_override=true,unbreakable={}] 1'
)


def _sword_world(pack: Datapack) -> World:
    world = World()
    world.load_datapack(pack)
    for name in ("Alex", "Kai"):
        world.join(name)
    world.execute(GIVE_SWORD)
    return world


@pytest.mark.parametrize("name", ["1.21.11", "26.2", "26.3"])
def test_the_sacred_sword_hit_runs_its_function_on(name: str) -> None:
    world = _sword_world(Datapack.load(built_pack_root(), version_named(name)))
    world.hit("Alex", "Kai")
    queue = world.storage_python("traitors:io").get("queue", [])
    assert [e["input"] for e in queue] == ["sword_hit", "sword_struck"]
    assert world.errors == []


def test_the_overlays_supply_each_release_its_form() -> None:
    hit = {
        v.name: Datapack.load(built_pack_root(), v).advancements[HIT]["criteria"]["hit"]["conditions"]
        for v in SUPPORTED
    }
    assert isinstance(hit["1.21.11"]["player"], list) and hit["1.21.11"] == hit["26.1"]
    assert hit["1.21.11"]["entity"][0]["predicate"] == {"type": "minecraft:player"}
    assert hit["26.2"]["entity"][0]["predicate"] == {"entity_type": "minecraft:player"}  # ov_26_2
    assert hit["26.3"]["player"]["type"] == "minecraft:entity_properties"  # ov_26_3, the later overlay, wins
    assert hit["26.3"]["entity"]["predicate"] == {"entity_type": "minecraft:player"}
    struck = Datapack.load(built_pack_root(), version_named("26.3")).advancements[STRUCK]
    assert struck["criteria"]["struck"]["conditions"]["damage"]["source_entity"]["entity_type"] == "minecraft:player"


def _base_only(tmp_path: Path) -> Path:
    """The installed pack without its overlays (what a pack made for 1.21.11 alone would give a newer server)."""
    root = write_pack(tmp_path / "pack")
    for overlay in ("ov_26_2", "ov_26_3"):
        shutil.rmtree(root / overlay)
    return root


def test_a_26_3_sandbox_refuses_the_list_form_as_26_3_does(tmp_path: Path) -> None:
    pack = Datapack.load(_base_only(tmp_path), version_named("26.3"))
    assert HIT not in pack.advancements and STRUCK not in pack.advancements  # not loaded
    hit = [e for e in pack.errors if f"'{HIT}'" in e]
    assert hit and all("from 'data/traitors/advancement/sword/hit.json'" in e for e in hit)
    assert any("conditions.player: a list of conditions is not accepted" in e for e in hit)
    world = _sword_world(pack)
    world.hit("Alex", "Kai")
    assert world.storage_python("traitors:io").get("queue", []) == []  # the Sacred Sword stops working, as on 26.3


def test_a_26_3_sandbox_refuses_a_condition_keyed_condition(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack")
    path = root / "ov_26_3" / "data" / "traitors" / "advancement" / "sword" / "hit.json"
    data = json.loads(path.read_text())
    data["criteria"]["hit"]["conditions"]["player"]["condition"] = data["criteria"]["hit"]["conditions"]["player"].pop(
        "type"
    )
    path.write_text(json.dumps(data))
    pack = Datapack.load(root, version_named("26.3"))
    assert HIT not in pack.advancements
    assert any(
        "ov_26_3/data/traitors/advancement/sword/hit.json" in e and "no key type (keyed condition" in e
        for e in pack.errors
    )
    assert Datapack.load(root, version_named("26.2")).errors == []  # 26.2 reads ov_26_2's file, not this one


def test_a_26_2_sandbox_refuses_type_in_an_entity_predicate(tmp_path: Path) -> None:
    root = _base_only(tmp_path)
    pack = Datapack.load(root, version_named("26.2"))
    assert HIT not in pack.advancements and STRUCK not in pack.advancements
    assert any("'minecraft:type'" in e and "struck.json" in e for e in pack.errors)
    old = Datapack.load(root, version_named("26.1"))
    assert old.errors == [] and {HIT, STRUCK} <= set(old.advancements)


def _with_range(tmp_path: Path, low: object, high: object) -> Path:
    root = write_pack(tmp_path / "pack")
    meta = json.loads((root / "pack.mcmeta").read_text())
    meta["pack"].update(min_format=low, max_format=high)
    (root / "pack.mcmeta").write_text(json.dumps(meta))
    return root


def test_a_pack_made_for_another_version_warns_and_still_loads(tmp_path: Path) -> None:
    newer = McVersion("26.4", 778, 5200, (130, 0), (100, 0), "3.1.0", 25, "2026-12")
    pack = Datapack.load(built_pack_root(), newer)
    assert len(pack.warnings) == 1 and "made for an older version of Minecraft" in pack.warnings[0]
    assert pack.overlays == ["ov_26_2", "ov_26_3"] and {HIT, STRUCK} <= set(pack.advancements)  # newest forms
    old = Datapack.load(_with_range(tmp_path, 101, [101, 1]), OLDEST)
    assert "made for a newer version" in old.warnings[0] and "101.0..101.1" in old.warnings[0]
    assert old.functions  # loaded anyway


def test_a_pack_without_a_format_range_is_refused(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack")
    (root / "pack.mcmeta").write_text('{"pack": {"description": "", "min_format": 94}}')
    with pytest.raises(DatapackError, match="must declare both min_format and max_format"):
        Datapack.load(root)


def test_a_broken_overlay_entry_is_skipped(tmp_path: Path) -> None:
    root = write_pack(tmp_path / "pack")
    meta = json.loads((root / "pack.mcmeta").read_text())
    meta["overlays"]["entries"][1] = {"directory": "ov_26_3"}  # no format range: vanilla skips it
    (root / "pack.mcmeta").write_text(json.dumps(meta))
    pack = Datapack.load(root, version_named("26.3"))
    assert pack.overlays == ["ov_26_2"] and HIT not in pack.advancements  # so the 26.2 list form meets 26.3


def test_project_pack_is_read_once_per_version() -> None:
    assert project_pack(version_named("26.3")) is project_pack(version_named("26.3"))
    assert project_pack().version == OLDEST and project_pack(version_named("26.3")).overlays == ["ov_26_2", "ov_26_3"]
