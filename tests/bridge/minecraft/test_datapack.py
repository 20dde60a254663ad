"""The data pack: every file parses (mecha, JSON), it matches the bridge's trigger table, the sandbox runs it
(macros, return, advancements, dialogs, unsupported commands), and ``install-datapack`` is idempotent."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest
from mecha import DiagnosticCollection, Mecha

from bridge.app.cli import main
from bridge.config.castle import default_castle
from bridge.minecraft.core import MAX_COMMAND_BYTES, utf8_size
from bridge.minecraft.datapack import (
    OVERLAY_OPEN_MAX,
    OVERLAYS,
    PACK_NAME,
    built_pack_root,
    generated_files,
    install,
    pack_files,
    pack_root,
    resourcepack_mcmeta,
)
from bridge.minecraft.inputs import HostControl
from bridge.minecraft.render import RenderContext, prompt_dialog
from bridge.minecraft.syntax import check_command
from bridge.minecraft.triggers import TRIGGER_TITLES, TRIGGERS, encode
from bridge.minecraft.versions import (
    ENTITY_PREDICATE_MAP_FROM,
    NEWEST,
    OLDEST,
    SINGLE_TRIGGER_CONDITION_FROM,
    SUPPORTED,
    version_named,
)
from bridge.sandbox.datapack import Datapack, DatapackError
from bridge.sandbox.world import Source, World
from engine.actions import ChooseEvent
from engine.effects import Choice, Prompt, msg
from engine.ids import NightEvent

ROOT = built_pack_root()
"""The whole pack as ``install-datapack`` writes it: the shipped files and the functions made from the tables."""
SHIPPED = pack_root()
FUNCTIONS = sorted((ROOT / "data").rglob("*.mcfunction"))
JSONS = sorted(ROOT.rglob("*.json")) + [ROOT / "pack.mcmeta"]


def _world(*players: str) -> World:
    world = World()
    world.load_datapack(Datapack.load(ROOT))
    for p in players:
        world.join(p)
    return world


@pytest.mark.parametrize("path", FUNCTIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_function_compiles_with_mecha(path: Path) -> None:
    report = DiagnosticCollection()
    fid = "traitors:" + path.relative_to(ROOT / "data" / "traitors" / "function").with_suffix("").as_posix()
    Mecha(version="1.21").compile(path.read_text(encoding="utf-8"), resource_location=fid, report=report)
    assert not report.exceptions, [str(e) for e in report.exceptions]


@pytest.mark.parametrize("path", JSONS, ids=lambda p: str(p.relative_to(SHIPPED if SHIPPED in p.parents else ROOT)))
def test_every_json_file_parses(path: Path) -> None:
    json.loads(path.read_text(encoding="utf-8"))


def test_pack_mcmeta_spans_the_versions_table_with_one_overlay_per_form() -> None:
    meta = json.loads((ROOT / "pack.mcmeta").read_text())
    pack = meta["pack"]
    assert pack["min_format"] == list(OLDEST.data_pack) == [94, 1]  # 1.21.11
    assert pack["max_format"] == list(NEWEST.data_pack) == [121, 0]  # 26.3
    assert "supported_formats" not in pack and "pack_format" not in pack  # refused from format 82 on
    entries = meta["overlays"]["entries"]
    assert [(e["directory"], e["min_format"]) for e in entries] == [
        ("ov_26_2", list(ENTITY_PREDICATE_MAP_FROM)),
        ("ov_26_3", list(SINGLE_TRIGGER_CONDITION_FROM)),
    ]
    assert all(e["max_format"] == OVERLAY_OPEN_MAX for e in entries)  # a newer release keeps the newest forms
    assert all((ROOT / e["directory"] / "data").is_dir() for e in entries)
    resources = json.loads(resourcepack_mcmeta())["pack"]
    assert resources["min_format"] == list(OLDEST.resource_pack) == [75, 0]
    assert resources["max_format"] == list(NEWEST.resource_pack) == [97, 1]


def test_every_supported_version_reads_the_pack_with_its_overlays() -> None:
    for version in SUPPORTED:
        pack = Datapack.load(ROOT, version)
        assert not pack.warnings and not pack.errors, (version.name, pack.warnings, pack.errors)
        want = [o.directory for o in OVERLAYS if version.data_pack >= o.first]
        assert pack.overlays == want
        assert set(pack.advancements) == {"traitors:sword/hit", "traitors:sword/struck"}
    assert Datapack.load(ROOT, version_named("26.1")).overlays == []
    assert Datapack.load(ROOT, version_named("26.3")).overlays == ["ov_26_2", "ov_26_3"]


def test_a_broken_function_is_reported_with_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "pack.mcmeta").write_text('{"pack": {"description": "", "min_format": 94, "max_format": 94}}')
    fn = tmp_path / "data" / "t" / "function"
    fn.mkdir(parents=True)
    (fn / "bad.mcfunction").write_text("say ok\ngive @z paper\n")
    with pytest.raises(DatapackError, match=r"bad.mcfunction:2"):
        Datapack.load(tmp_path)


def test_the_generated_functions_are_every_function_checked_here() -> None:
    generated = generated_files()
    assert {
        Path("data/traitors/function/input/objectives.mcfunction"),
        Path("data/traitors/function/input/player.mcfunction"),
        Path("data/traitors/function/setup.mcfunction"),
        Path("data/traitors/function/item/give/one.mcfunction"),
        Path("data/traitors/dialog/host/console.json"),
        Path("pack.mcmeta"),
    } == set(generated)
    assert {ROOT / rel for rel in generated if rel.suffix == ".mcfunction"} <= set(FUNCTIONS)
    assert all((ROOT / rel).read_text(encoding="utf-8") == text for rel, text in generated.items())
    # no hand-kept copy of a generated function is shipped next to it
    assert not any((SHIPPED / rel).exists() for rel in generated)


def test_the_datapack_knows_every_trigger_of_the_bridge() -> None:
    load = (ROOT / "data/traitors/function/load.mcfunction").read_text()
    objectives = (ROOT / "data/traitors/function/input/objectives.mcfunction").read_text()
    player = (ROOT / "data/traitors/function/input/player.mcfunction").read_text()
    assert "function traitors:input/objectives" in load.splitlines()
    assert re.findall(r"objectives add (traitors\.\w+) trigger", objectives) == list(TRIGGERS)
    titles = re.findall(r'trigger \{translate:"traitors\.trigger\.(\w+)",fallback:"([^"]+)"\}', objectives)
    assert titles == [(t.split(".", 1)[1], TRIGGER_TITLES[t]) for t in TRIGGERS]
    assert re.findall(r"enable @s (traitors\.\w+)", player) == list(TRIGGERS)
    assert re.findall(r'capture \{input:"(\w+)"\}', player) == [t.split(".", 1)[1] for t in TRIGGERS]
    console = json.loads((ROOT / "data/traitors/dialog/host/console.json").read_text())
    commands = [a["action"]["command"] for a in console["actions"]]
    assert commands == [f"/trigger traitors.host set {c.value}" for c in HostControl]
    for command in commands:
        check_command(command)


def test_sword_hit_advancement_queues_an_event_and_rearms() -> None:
    world = _world("Alex", "Kai")
    adv = world.datapack.advancements["traitors:sword/hit"]
    criterion = adv["criteria"]["hit"]
    assert criterion["trigger"] == "minecraft:player_hurt_entity"
    mainhand = criterion["conditions"]["player"][0]["predicate"]["equipment"]["mainhand"]
    assert mainhand["predicates"]["minecraft:custom_data"] == '{traitors:{item:"sacred_sword"}}'
    assert world.award("Alex", "traitors:sword/hit") is True
    assert world.award("Kai", "traitors:sword/struck") is True
    queue = world.storage_python("traitors:io")["queue"]
    assert [(e["input"], e["seq"]) for e in queue] == [("sword_hit", 1), ("sword_struck", 2)]
    # the reward revoked it, so the next hit counts again
    assert "traitors:sword/hit" not in world.player("Alex").advancements
    assert world.award("Alex", "traitors:sword/hit") is True
    assert world.errors == []


def test_macro_needs_its_arguments_and_return_ends_a_function() -> None:
    world = _world("Alex")
    assert world.execute("function traitors:input/capture").startswith("Function traitors:input/capture requires")
    assert world.execute('execute as @a run function traitors:ui/console {player:"Alex"}') == ""
    assert world.player("Alex").dialog["title"]["fallback"] == "Host console"
    assert world.errors == []


def test_return_and_conditions_in_a_pack(tmp_path: Path) -> None:
    (tmp_path / "pack.mcmeta").write_text('{"pack": {"description": "", "min_format": 94, "max_format": 94}}')
    fn = tmp_path / "data" / "t" / "function"
    fn.mkdir(parents=True)
    (fn / "f.mcfunction").write_text(
        "scoreboard objectives add n dummy\n"
        "scoreboard players set #a n 7\n"
        "execute if score #a n matches 5..9 run return run scoreboard players get #a n\n"
        "scoreboard players set #a n 100\n"
    )
    (fn / "g.mcfunction").write_text("execute as @a[tag=x] run tag @s add y\n")
    (fn / "h.mcfunction").write_text("execute as @a run execute positioned 0 0 0 run say hi\n")
    world = World()
    world.load_datapack(Datapack.load(tmp_path))
    for name in ("Alex", "Kai"):
        world.join(name)
    world.player("Kai").tags.add("x")
    assert world.run_function("t:f") == 7 and world.scores["#a"]["n"] == 7
    assert world.execute("execute store result storage t:s v int 2 run function t:f") == ""
    assert world.storage_python("t:s") == {"v": 14}
    world.run_function("t:g", Source(world.player("Alex")))
    assert world.player("Kai").tags == {"x", "y"} and world.player("Alex").tags == set()
    assert world.errors == []
    world.execute("function t:h")
    assert world.errors and "unsupported" in world.errors[0]


def test_a_big_prompt_dialog_fits_rcon_and_arrives_whole() -> None:
    names = [f"Player{i:02d}" for i in range(1, 16)]
    seats = {n: i for i, n in enumerate(["Alex", *names], start=1)}
    choices = tuple(
        Choice(f"{e.value} {n}", ChooseEvent("Alex", e, n))
        for e in (NightEvent.MURDER, NightEvent.SEDUCE)
        for n in names
    )
    effect = Prompt(frozenset({"Alex"}), msg("turret.choose.seduce_or_murder"), choices)
    commands = prompt_dialog("Alex", effect, RenderContext(default_castle(), seats))
    assert len(commands) > 2 and all(utf8_size(c.text) <= MAX_COMMAND_BYTES for c in commands)
    world = _world("Alex")
    for c in commands:
        reply = world.execute(c.text)
        assert not reply.startswith(("Sandbox", "Unknown", "Incorrect")), reply
    dialog = world.player("Alex").dialog
    expected = [f"/trigger {o} set {v}" for o, v in (encode(c.action, seats) for c in choices)]
    assert [a["action"]["command"] for a in dialog["actions"]] == expected
    assert dialog["title"]["translate"] == "traitors.dialog.title.turret"
    assert "prompt" not in world.storage_python("traitors:ui")  # the macro cleans up after itself
    assert world.errors == []


def test_the_setup_function_runs_the_setup_commands() -> None:
    """``traitors:setup`` is ``setup_commands`` in one call (its objectives from ``traitors:load``); run twice on
    a world that has everything already, it changes nothing (the objective adds just fail)."""
    from bridge.minecraft.render import setup_call, setup_commands

    source = (ROOT / "data/traitors/function/setup.mcfunction").read_text()
    lines = [line for line in source.splitlines() if line and not line.startswith("#")]
    one_by_one = [c.text for c in setup_commands(RenderContext(default_castle(), {}))]
    assert lines == (
        one_by_one[:2]
        + ["function traitors:load"]
        + [c for c in one_by_one[2:] if not c.startswith("scoreboard objectives add")]
    )
    world = _world("Alex", "Kai")
    for _ in range(2):
        assert world.execute(setup_call().text) == "Executed function 'traitors:setup'"
    assert world.gamerules["send_command_feedback"] == world.gamerules["log_admin_commands"] == "false"
    assert "traitors:clock" in world.bossbars and set(TRIGGERS) <= set(world.objectives)
    assert {(p, t) for p in ("Alex", "Kai") for t in TRIGGERS} <= world.unlocked
    assert world.errors == []


def test_the_clock_function_shows_the_phase_clock_to_everyone() -> None:
    from bridge.minecraft.render import render, setup_commands
    from engine.effects import ClockStarted

    world = _world("Alex", "Kai")
    ctx = RenderContext(default_castle(), {"Alex": 1, "Kai": 2})
    for c in setup_commands(ctx):
        world.execute(c.text)
    (command,) = render(ClockStarted(phase_seq=3, label=msg("clock.vote"), seconds=89.5, deadline=0.0), ctx)
    assert world.execute(command.text).startswith("Executed function")
    bar = world.bossbars["traitors:clock"]
    assert (bar.max, bar.value, bar.visible) == (90, 90, True)
    assert bar.name["translate"] == "traitors.clock.vote" and set(bar.players) == {"Alex", "Kai"}
    assert world.errors == []


def test_a_small_prompt_dialog_is_one_inline_call() -> None:
    seats = {"Alex": 1, "Kai": 2, "Zuri": 3}
    effect = Prompt(
        frozenset({"Alex"}),
        msg("turret.choose.murder"),
        tuple(Choice(f"murder {n}", ChooseEvent("Alex", NightEvent.MURDER, n)) for n in ("Kai", "Zuri")),
    )
    (command,) = prompt_dialog("Alex", effect, RenderContext(default_castle(), seats))
    assert command.text.startswith('function traitors:ui/prompt {player:"Alex",')
    world = _world("Alex", "Kai")
    assert world.execute(command.text).startswith("Executed function")
    assert [a["action"]["command"] for a in world.player("Alex").dialog["actions"]] == [
        f"/trigger {o} set {v}" for o, v in (encode(c.action, seats) for c in effect.choices)
    ]
    assert world.player("Kai").dialog is None and world.errors == []


def test_install_datapack_is_idempotent(tmp_path: Path) -> None:
    world = tmp_path / "world"
    world.mkdir()
    (world / "level.dat").write_bytes(b"")
    for _ in range(2):
        assert main(["install-datapack", "--world", str(world)]) == 0
    installed = world / "datapacks" / PACK_NAME
    got = sorted(p.relative_to(installed) for p in installed.rglob("*") if p.is_file())
    assert got == pack_files() and Path("pack.mcmeta") in got
    assert all((installed / rel).read_text(encoding="utf-8") == text for rel, text in generated_files().items())
    assert not any(p.suffix == ".py" or p.parts[0] == "resourcepack" for p in got)
    # as a zip: the folder is replaced by the zip, again idempotently
    for _ in range(2):
        archive = install(world, as_zip=True)
    assert not installed.exists() and sorted(zipfile.ZipFile(archive).namelist()) == sorted(p.as_posix() for p in got)
    player = zipfile.ZipFile(archive).read("data/traitors/function/input/player.mcfunction").decode("utf-8")
    assert player == generated_files()[Path("data/traitors/function/input/player.mcfunction")]
    out = tmp_path / "lang.zip"
    assert main(["install-datapack", "--world", str(world), "--resourcepack", str(out)]) == 0
    assert {"pack.mcmeta", "assets/traitors/lang/ru_ru.json"} <= set(zipfile.ZipFile(out).namelist())
    assert json.loads(zipfile.ZipFile(out).read("pack.mcmeta")) == json.loads(resourcepack_mcmeta())
    assert main(["install-datapack", "--world", str(tmp_path / "nowhere")]) == 2
