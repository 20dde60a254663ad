"""Spyglass, offline, over the installed data pack (each release's overlays applied), the resource pack and every
command form of a demo of each ruleset, on every supported release: no problem, and the canaries (files broken on
purpose) reported exactly where they are broken. Also: the versions table agrees with Spyglass's version list.

The Spyglass run needs Node and ``tools/spyglass/node_modules`` (``npm ci`` there; ``.ci/run`` does it); without
them it is skipped, and pytest says why.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
import os
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from bridge.minecraft.versions import SUPPORTED

TOOL = Path(__file__).resolve().parents[3] / "tools" / "spyglass"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("castle_spyglass_check", TOOL / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


check = _load()


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Spyglass check (tools/spyglass) is skipped")
    if not (TOOL / "node_modules" / "@spyglassmc" / "java-edition").is_dir():
        pytest.skip(f"Spyglass is not installed: run `npm ci` in {TOOL}; the Spyglass check is skipped")
    return node


@pytest.fixture(scope="module")
def report() -> object:
    node = _node()
    result = check.check(node=node)
    for name in result.files:
        print(f"spyglass {name}: {result.files[name]} files, {result.commands[name]} commands")
    print(f"spyglass ran {result.seconds:.1f} s")
    return result


@pytest.mark.slow(reason="Spyglass checks the packs and three demos' commands on every release: a minute of Node CPU")
def test_spyglass_finds_no_problem_on_any_supported_version(report: object) -> None:
    assert [str(p) for p in report.problems] == []  # type: ignore[attr-defined]
    assert report.unchecked == ()  # type: ignore[attr-defined]  # every prepared file was checked
    assert list(report.files) == [v.name for v in SUPPORTED]  # type: ignore[attr-defined]
    for name in report.files:  # type: ignore[attr-defined]
        assert report.files[name] >= 20 and report.commands[name] >= 200  # type: ignore[attr-defined]


def test_spyglass_reports_every_injected_breakage_where_it_is_broken(report: object) -> None:
    # clickEvent in a tellraw (every release), a trigger's list form (26.3), "type" in an entity predicate (26.2+),
    # and two commands: "plain" in an NBT text (before 26.1), "type" in an inline entity predicate (26.2+)
    assert report.missed_canaries == ()  # type: ignore[attr-defined]
    commands = [c for c in check.CANARIES if c.path.endswith(".mcfunction") and c.broken_on]
    assert any({v.name for v in SUPPORTED} - c.broken_on for c in commands)  # valid on some releases, not all


def test_the_kept_vanilla_set_ups_hold_nothing_of_a_project(report: object) -> None:
    # Each release's file is its set-up key's file, and the only file: address in it is the empty folder it was built
    # over: no function, objective or file of a checked project is carried into the next run or another release.
    folder = check.vanilla_cache()
    if not folder.is_dir():
        pytest.skip(f"{folder} cannot be written: this run built the vanilla set-ups in a temporary folder")
    keys = check.setup_keys([check.spyglass_id(v) for v in SUPPORTED], _node())
    assert {p.name for p in folder.glob("setup-*.json.gz")} >= {f"setup-{k}.json.gz" for k in keys.values()}
    for version in SUPPORTED:
        kept = (folder / f"{check.spyglass_id(version)}.json.gz").read_bytes()
        assert kept == (folder / f"setup-{keys[check.spyglass_id(version)]}.json.gz").read_bytes(), version.name
        text = gzip.decompress(kept)
        roots = json.loads(re.search(rb'"projectRoots":(\[[^]]*\])', text)[1])  # type: ignore[index]
        assert len(roots) == 1 and roots[0].startswith("file:")
        assert {u.decode() for u in re.findall(rb'"(file:[^"]*)"', text)} == set(roots), version.name
        assert b'"archive://vanilla-mcdoc/' in text


def test_a_missed_or_misplaced_canary_fails_the_check() -> None:
    canary = check.CANARIES[1]  # the list form: broken on 26.3 only
    path = f"datapack/{canary.path}"
    found = {"file": path, "line": 6, "column": 19, "severity": check.ERROR, "message": "Expected a map-like"}
    projects = [{"root": f"/nonexistent/{v.name}", "files": [path], "diagnostics": [found]} for v in SUPPORTED]
    names = {f"/nonexistent/{v.name}": v.name for v in SUPPORTED}
    got = check._report(projects, names, 0.0)
    assert got.problems == ()
    misplaced = {m.split(":")[0] for m in got.missed_canaries if canary.path in m}
    assert misplaced == {v.name for v in SUPPORTED} - canary.broken_on  # reported where it is valid
    silent = check._report([dict(p, diagnostics=[]) for p in projects], names, 0.0)
    assert any(m.startswith("26.3:") and canary.path in m for m in silent.missed_canaries)  # not reported


def test_only_the_absent_vanilla_registries_are_filtered() -> None:
    assert check.expected("Cannot find trigger_type “minecraft:player_hurt_entity” (rule: undeclaredSymbol)")
    assert check.expected("Cannot find loot_condition_type “minecraft:entity_properties” (rule: undeclaredSymbol)")
    assert not check.expected("Cannot find trigger_type “traitors:typo” (rule: undeclaredSymbol)")
    assert not check.expected("Cannot find objective “traitors.host” (rule: undeclaredSymbol)")
    assert not check.expected("Cannot find entity_sub_predicate_type “minecraft:type” (rule: undeclaredSymbol)")
    assert not check.expected("Unknown key “clickEvent”")


def test_commands_of_one_form_are_checked_once() -> None:
    sent = {
        "traitors": [
            'clear Alex *[custom_data~{traitors:{item:"vote_paper"}}]',
            'clear Kai *[custom_data~{traitors:{item:"vote_paper"}}]',
            "scoreboard players set Kai traitors.power2 12",
            "scoreboard players set Alex traitors.power2 7",
        ],
        "mafia_yakuza": ['clear Kai *[custom_data~{traitors:{item:"vote_paper"}}]', 'tellraw Kai "Kaiser"'],
    }
    got = check.distinct_forms(sent, ["Alex", "Kai"])
    assert got == {"traitors": [sent["traitors"][0], sent["traitors"][2]], "mafia_yakuza": ['tellraw Kai "Kaiser"']}


def test_the_versions_table_agrees_with_spyglass() -> None:
    entries = {e["id"]: e for e in json.loads((TOOL / "data" / "versions-1.21.11-to-26.3rc3.json").read_text())}
    for version in SUPPORTED:
        entry = entries[check.spyglass_id(version)]
        assert (entry["data_pack_version"], entry["data_pack_version_minor"]) == version.data_pack, version.name
        assert (entry["resource_pack_version"], entry["resource_pack_version_minor"]) == version.resource_pack
        if version.name in check.SPYGLASS_VERSION:  # 26.3 as its last release candidate: one data version before
            assert entry["type"] == "snapshot" and entry["data_version"] == version.data_version - 1
        else:
            assert entry["type"] == "release" and entry["protocol_version"] == version.protocol
            assert entry["data_version"] == version.data_version


def test_macro_calls_are_checked_as_the_lines_they_run() -> None:
    from bridge.sandbox.datapack import project_pack

    prompt = (
        '{player:"Kai",title:{text:"T"},body:{text:"B"},actions:[{label:{text:"Alex"},action:'
        '{type:"run_command",command:"/trigger traitors.vote set 1"}}]}'
    )
    sent = [
        f"function traitors:ui/prompt {prompt}",
        f"data modify storage traitors:ui prompt set value {prompt}",
        'data modify storage traitors:ui prompt.actions append value {label:{text:"Zuri"},action:'
        '{type:"run_command",command:"/trigger traitors.vote set 3"}}',
        "function traitors:ui/prompt with storage traitors:ui prompt",
        "say not a macro call",
    ]
    got = check.macro_lines(sent, project_pack())
    assert len(got) == 2 and all(
        line.startswith('dialog show Kai {type:"minecraft:multi_action",title:') for line in got
    )
    assert "traitors.vote set 1" in got[0] and "Zuri" not in got[0]
    assert "traitors.vote set 1" in got[1] and "traitors.vote set 3" in got[1]  # the appended button is in


def _tool(tmp: Path) -> Path:
    tool = tmp / "tool"
    (tool / "data").mkdir(parents=True)
    (tool / "node_modules" / "@spyglassmc" / "core").mkdir(parents=True)
    (tool / "package-lock.json").write_text("{}")
    (tool / "run.mjs").write_text("// harness")
    (tool / "data" / "registries.json").write_text("{}")
    (tool / "node_modules" / "@spyglassmc" / "core" / "package.json").write_text('{"version": "0.4.56"}')
    return tool


def test_the_vanilla_set_ups_are_keyed_by_everything_they_are_made_of(tmp_path: Path) -> None:
    tool = _tool(tmp_path)
    first = check.vanilla_key(tool)
    assert check.vanilla_key(tool) == first and re.fullmatch(r"[0-9a-f]{16}", first)
    keys = {first}
    for path, text in [
        ("data/registries.json", '{"item": []}'),  # other game data
        ("data/commands_26.1.json", "{}"),  # a file more
        ("run.mjs", "// another harness"),
        ("package-lock.json", '{"lockfileVersion": 3}'),
        ("node_modules/@spyglassmc/core/package.json", '{"version": "0.4.57"}'),  # another installed Spyglass
    ]:
        (tool / path).write_text(text)
        keys.add(check.vanilla_key(tool))
    assert len(keys) == 6
    home = check.vanilla_cache({"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert home == tmp_path / "xdg" / "castle-spyglass" / check.vanilla_key()


def test_set_ups_of_another_key_unused_for_a_week_are_deleted(tmp_path: Path) -> None:
    now = 1_000_000_000.0
    old, recent = tmp_path / "0123456789abcdef", tmp_path / "fedcba9876543210"
    for folder, age in [(old, check.STALE_AFTER + 60), (recent, check.STALE_AFTER - 60)]:
        (folder / "26.1.json.gz").parent.mkdir()
        (folder / "26.1.json.gz").write_bytes(b"")
        os.utime(folder, (now - age, now - age))
    mine = tmp_path / "aaaaaaaaaaaaaaaa"
    assert check.kept_folder(mine, now) == mine and mine.stat().st_mtime == now
    assert not old.exists() and recent.exists()
    (tmp_path / "file").write_text("")
    assert check.kept_folder(tmp_path / "file" / "sub", now) is None  # cannot be written: a temporary folder instead


def test_releases_share_a_set_up_exactly_when_its_inputs_are_the_same(tmp_path: Path) -> None:
    node = _node()
    tool = tmp_path / "tool"
    tool.mkdir()
    shutil.copyfile(TOOL / "run.mjs", tool / "run.mjs")
    shutil.copytree(TOOL / "data", tool / "data")
    (tool / "node_modules").symlink_to(TOOL / "node_modules")
    ids = [check.spyglass_id(v) for v in SUPPORTED]
    # Spyglass declares builtin models and loot tables by release (before 1.21.2, before 1.21.4): an input too
    old = check.setup_keys([*ids, "1.21.1", "1.21.5"], node, tool)
    keys = {v: old[v] for v in ids}
    assert keys == check.setup_keys(ids, node, TOOL) and all(re.fullmatch(r"[0-9a-f]{16}", k) for k in keys.values())
    if not (TOOL / "data" / "versions").exists():  # every release is served the same files: one set-up
        assert len(set(keys.values())) == 1
    first, second = ids[0], ids[1]
    # the second release given registries of its own: another key; the same bytes under its own name: the same key
    own = tool / "data" / "versions" / second / "registries.json"
    own.parent.mkdir(parents=True)
    registries = (tool / "data" / "registries.json").read_bytes()
    own.write_bytes(registries.replace(b'"stone"', b'"stonf"', 1))
    changed = check.setup_keys(ids, node, tool)
    assert changed[second] != keys[second]
    assert {v: k for v, k in changed.items() if v != second} == {v: k for v, k in keys.items() if v != second}
    own.write_bytes(registries)
    assert check.setup_keys(ids, node, tool) == keys
    assert old["1.21.1"] != old["1.21.5"] and old["1.21.5"] == keys[first]
