"""Spyglass, offline, over everything Castle gives a server: for every supported release
(``bridge.minecraft.versions.SUPPORTED``), the installed data pack with that release's overlays applied, the
resource pack, every command a demo of each ruleset sent, and a give of every castle item with the blocks Castle
sets down (docs/minecraft.md, "Two validators").

Run: ``python tools/spyglass/check.py`` (after ``npm ci`` in this folder); prints one line per release and every
problem, exits 1 when there is one. The tests (``tests/tools/spyglass/test_check.py``) run the same check.

How: :func:`prepare` writes one folder per release (``datapack/`` as that release reads it, ``resourcepack/``,
and the captured commands as functions of the namespace ``castle_commands``), ``run.mjs`` checks every folder in
one Node process, and :func:`problems` keeps what Spyglass reports except the expected warnings
(:data:`EXPECTED_WARNINGS`). Each folder also holds the canaries (:data:`CANARIES`), files broken on purpose under
the namespace ``castle_canary``: a run only counts when Spyglass reports each canary where it is broken, so a
harness that stopped checking cannot pass.

Most of a release's set-up is Spyglass binding its vanilla types and registering that release's registries, the
same every run: ``run.mjs`` keeps them, nothing of the project's in them, in the folder :func:`vanilla_cache` names
(outside the checkout, keyed by everything that goes into them), and builds a release's when it is missing. Built
once per set-up key (:func:`setup_keys`: the content of what that release's set-up is made of), so releases whose
inputs are the same byte for byte share one file and one build.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import nbtlib

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script from a checkout: make the project importable
    sys.path.insert(0, str(HERE.parent.parent))

from bridge.minecraft.datapack import pack_root, write_pack, write_resourcepack  # noqa: E402
from bridge.minecraft.versions import SUPPORTED, McVersion, version_named  # noqa: E402
from bridge.sandbox.datapack import Datapack, effective_files, project_pack  # noqa: E402
from bridge.sandbox.nbt import serialize  # noqa: E402
from bridge.sandbox.packmeta import applied_overlays  # noqa: E402

RULESETS = ("traitors", "black_knights", "mafia_yakuza")
"""The rulesets whose demo commands are checked (``engine.rulesets.RULESETS``): each one's commands go in
``castle_commands/function/<ruleset>.mcfunction``, and the macro lines they ran in ``<ruleset>_macros``."""

SPYGLASS_VERSION = {"26.3": "26.3-rc-3"}
"""Spyglass's version id for a supported release, where it differs from the release's name: Spyglass 0.3.69's
newest 26.3 entry is its third release candidate, whose data format (121.0) and resource format (97.1) are the
release's."""

ERROR, WARNING = 3, 2
"""Spyglass's severities counted (its hints and information are not problems)."""

EXPECTED_WARNINGS = {
    "trigger_type": "vanilla's advancement triggers are a registry of the vanilla data pack, which is not offline",
    "loot_condition_type": "vanilla's loot condition types, likewise a registry the offline data lacks",
}
"""Warnings filtered out: ``Cannot find <registry> “minecraft:…”`` for these registries, and only for vanilla's
namespace (a misspelt ``traitors:`` id is still reported). Anything else, an unknown objective or function of the
project's own included, is a problem: the project's files are checked together, so they link."""

CANARY_NS = "castle_canary"
BROKEN_ADVANCEMENT = {
    "criteria": {
        "hit": {
            "trigger": "minecraft:player_hurt_entity",
            "conditions": {"player": [{"condition": "minecraft:entity_properties", "entity": "this", "predicate": {}}]},
        }
    },
    "rewards": {"function": "traitors:sword/hit"},
}
"""The list form of a trigger condition, keyed ``condition``: valid up to 26.2, refused from 26.3."""


@dataclass(frozen=True, slots=True)
class Canary:
    """A file broken on purpose: ``path`` under the pack, ``text``, and the releases where it is broken."""

    path: str
    text: str
    broken_on: frozenset[str]


CANARIES = (
    Canary(
        f"data/{CANARY_NS}/function/click_event.mcfunction",
        'tellraw @a {"text":"x","clickEvent":{"action":"run_command","value":"/say hi"}}\n',
        frozenset(v.name for v in SUPPORTED),
    ),
    Canary(
        f"data/{CANARY_NS}/advancement/list_form.json",
        json.dumps(BROKEN_ADVANCEMENT, indent=2) + "\n",
        frozenset(v.name for v in SUPPORTED if v.single_trigger_condition),
    ),
    Canary(
        f"data/{CANARY_NS}/advancement/entity_type.json",
        (pack_root() / "data/traitors/advancement/sword/struck.json").read_text(encoding="utf-8"),
        frozenset(v.name for v in SUPPORTED if v.entity_predicate_map),
    ),
    Canary(
        f"data/{CANARY_NS}/function/plain_nbt.mcfunction",
        'tellraw @a {"nbt":"x","storage":"castle:canary","plain":true}\n',
        frozenset(v.name for v in SUPPORTED if v.data_pack < version_named("26.1").data_pack),
    ),
    Canary(
        f"data/{CANARY_NS}/function/inline_predicate.mcfunction",
        'execute if predicate {condition:"minecraft:entity_properties",entity:"this",'
        'predicate:{type:"minecraft:pig"}} run say pig\n',
        frozenset(v.name for v in SUPPORTED if v.entity_predicate_map),
    ),
)
"""A 1.21.5-era ``clickEvent`` (``click_event`` since) in a tellraw, broken everywhere; a trigger's list form,
broken from 26.3; the base pack's ``sword/struck.json`` (``"type"`` in an entity predicate), broken from 26.2.
And two commands whose validity changes between releases: a tellraw of an NBT text with ``plain`` (a key since
26.1), broken before 26.1; an inline entity predicate with ``type``, broken from 26.2. So each release is checked
against its own vanilla data, the set-up :func:`vanilla_cache` keeps included, in both directions."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One diagnostic Spyglass reported: the release, the file (relative to the release's folder), line, column
    (1-based), severity and message."""

    version: str
    file: str
    line: int
    column: int
    severity: int
    message: str

    def __str__(self) -> str:
        kind = "error" if self.severity >= ERROR else "warning"
        return f"{self.version}: {self.file}:{self.line}:{self.column}: {kind}: {self.message}"


@dataclass(frozen=True, slots=True)
class Report:
    """A whole run: per release the files checked and the commands among them; every problem outside the
    canaries; the canaries Spyglass missed (``"<release>: <path>"``); the prepared files Spyglass did not check
    (``"<release>: <path>"``: a file it cannot read, or a harness fault); the seconds the Node process took and
    the releases whose vanilla set-up it built (the others it read from :func:`vanilla_cache`)."""

    files: Mapping[str, int]
    commands: Mapping[str, int]
    problems: tuple[Problem, ...]
    missed_canaries: tuple[str, ...]
    unchecked: tuple[str, ...]
    seconds: float
    built: tuple[str, ...] = ()


def capture_commands(rulesets: Iterable[str] = RULESETS, contestants: int = 8, seed: int = 1) -> dict[str, list[str]]:
    """Every command form the service sent to the sandbox in one demo series of each ruleset, in first-sent order
    (``SandboxThread.command_log``; :func:`distinct_forms`), a batch of commands (``function traitors:run``,
    ``bridge.minecraft.batch``) opened into the commands it carries. The demos run at once on one event loop.

    Returns:
        ruleset name → commands.
    """
    from bridge.app.demo import DEMO_NAMES, play_demo
    from bridge.minecraft.batch import unpack

    async def both() -> list[list[str]]:
        async def one(ruleset: str) -> list[str]:
            _, sandbox, _ = await play_demo(contestants, seed, ruleset=ruleset, keep_sandbox=True, fast_forward=True)
            try:
                return list(dict.fromkeys(c for text, _, _ in sandbox.command_log() for c in unpack(text)))
            finally:
                sandbox.stop()

        return list(await asyncio.gather(*(one(r) for r in rulesets)))

    pack = project_pack()
    sent: dict[str, list[str]] = {}
    for ruleset, lines in zip(list(rulesets), asyncio.run(both()), strict=True):
        sent[ruleset] = lines
        sent[f"{ruleset}_macros"] = macro_lines(lines, pack)
    sent["lobby"] = lobby_commands()
    sent["lobby_macros"] = macro_lines(sent["lobby"], pack)
    sent["castle_items"] = item_commands()
    return distinct_forms(sent, DEMO_NAMES)


def lobby_commands() -> list[str]:
    """Every form of command the lobby sends between series (``bridge.minecraft.lobby``): the board, the action
    bar, the sign-up dialog (to sign up and to withdraw) and the host's lobby console in each of its states."""
    from bridge.app.demo import DEMO_NAMES
    from bridge.minecraft import lobby

    names = list(DEMO_NAMES[:14])
    out = [
        lobby.board_gone(),
        *lobby.board_commands((88.5, 68.0, -7.5), names, 12),
        *lobby.actionbar(names, 12),
        *lobby.invitation("Alex", names[:3], 12, signed_up=False),
        *lobby.invitation("Kai", names, 12, signed_up=True),
        *lobby.host_console("Host", names, [], 12),
        *lobby.host_console("Host", names, names[:12], 12),
        *lobby.host_console("Host", [], [], 12),
    ]
    return list(dict.fromkeys(c.text for c in out))


def item_commands() -> list[str]:
    """A give of every castle item (``bridge.minecraft.items.ITEMS``; a named one with a name, a letter with its
    pages, the seer book's page as the translated component it is) and the head Castle sets down at a breakfast
    place and takes away again: forms a demo need not send (the host's finale torches: the demo has no host; the
    twists it does not schedule)."""
    from bridge.config.castle import default_castle
    from bridge.minecraft.items import ITEMS
    from bridge.minecraft.render import RenderContext, render
    from engine.effects import ClearPlace, GiveItem, Label, PlaceItem, msg
    from engine.ids import Item, Place
    from engine.terms import term

    ctx = RenderContext(default_castle(), {"Alex": 1})
    effects: list[object] = []
    for item, spec in ITEMS.items():
        label: Label = "Alex" if spec.labelled else None
        if item is Item.SEER_BOOK:
            label = msg("seer.book.page", player="Alex", allegiance=term("term.allegiance.a_traitor"))
        elif spec.label_pages:
            label = "The reply, written by the Traitors."
        effects.append(GiveItem(frozenset({"Host"}), item, label))
    effects += [
        PlaceItem(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, 1, "Alex"),
        ClearPlace(Item.PLAYER_HEAD, Place.BREAKFAST_TABLE, (1,)),
    ]
    return [c.text for e in effects for c in render(e, ctx)]  # type: ignore[arg-type]


_CALL = re.compile(r"function (\S+) (\{.*\})$")
_STORAGE_CALL = re.compile(r"function (\S+) with storage (\S+) (\S+)$")
_STORAGE_SET = re.compile(r"data modify storage (\S+) (\S+) set value (\{.*\})$")
_STORAGE_APPEND = re.compile(r"data modify storage (\S+) (\S+)\.(\w+) append value (.*)$")


def macro_lines(commands: Iterable[str], pack: Datapack) -> list[str]:
    """The command lines the pack's macro functions ran for ``commands``, with their arguments put in as vanilla
    puts them (a string as it is, anything else as SNBT): a call with inline arguments
    (``function traitors:ui/prompt {player:…}``) and a call ``with storage`` whose compound the commands before it
    built (``set value`` of the whole path, then ``append value`` to one of its lists; the form the bridge uses).
    So Spyglass checks the dialogs and bossbar texts these functions make, which storage and macro arguments
    (untyped compounds) do not show it. A call Castle does not make this way is left out.
    """
    stored: dict[tuple[str, str], nbtlib.Compound] = {}
    out: list[str] = []
    for command in commands:
        args: nbtlib.Compound | None = None
        if found := _STORAGE_SET.match(command):
            stored[(found[1], found[2])] = nbtlib.parse_nbt(found[3])
        elif (found := _STORAGE_APPEND.match(command)) and (found[1], found[2]) in stored:
            stored[(found[1], found[2])].setdefault(found[3], nbtlib.List()).append(nbtlib.parse_nbt(found[4]))
        elif found := _STORAGE_CALL.match(command):
            args = stored.get((found[2], found[3]))
        elif found := _CALL.match(command):
            args = nbtlib.parse_nbt(found[2])
        function = pack.functions.get(found[1]) if found and args is not None else None
        if function is None or args is None:
            continue
        texts = {k: str(v) if isinstance(v, str) else serialize(v) for k, v in args.items()}
        out += [
            line.substitute(texts) for line in function.lines if line.is_macro and set(line.variables()) <= set(texts)
        ]
    return out


def distinct_forms(commands: Mapping[str, list[str]], players: Iterable[str]) -> dict[str, list[str]]:
    """The commands with every repeat of a form left out: two commands of one form differ only in a player's name
    (one of ``players``) or a whole number, so Spyglass would say the same of both; the first one sent is kept, and
    a form an earlier ruleset sent is not checked again for a later one.

    Returns:
        ruleset name → its commands of forms not seen before, in order.
    """
    names = re.compile(r"\b(?:" + "|".join(map(re.escape, players)) + r")\b")
    seen: set[str] = set()
    out: dict[str, list[str]] = {}
    for ruleset, lines in commands.items():
        out[ruleset] = []
        for line in lines:
            form = re.sub(r"\b\d+\b", "0", names.sub("P", line))
            if form not in seen:
                seen.add(form)
                out[ruleset].append(line)
    return out


def prepare(
    work: Path,
    commands: Mapping[str, list[str]],
    versions: Iterable[McVersion] = SUPPORTED,
    vanilla: Path | None = None,
) -> dict[str, object]:
    """Write one folder per release under ``work`` and return the job ``run.mjs`` reads, with ``vanilla`` (default
    ``work/vanilla``, which goes with ``work``) the folder of the releases' vanilla set-ups (:func:`vanilla_cache`).

    Each ``work/<release>/`` holds ``datapack/`` (the installed pack with the overlays that release applies merged
    in, as the server sees it), ``resourcepack/``, ``datapack/data/castle_commands/function/<ruleset>.mcfunction``
    (the captured commands, one a line) and the :data:`CANARIES`.
    """
    built = write_pack(work / "installed")
    meta = json.loads((built / "pack.mcmeta").read_text(encoding="utf-8"))
    projects = []
    for version in versions:
        root = work / version.name
        pack = root / "datapack"
        for rel, src in effective_files(built, applied_overlays(meta, version)).items():
            (pack / "data" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, pack / "data" / rel)
        shutil.copyfile(built / "pack.mcmeta", pack / "pack.mcmeta")
        write_resourcepack(root / "resourcepack")
        functions = pack / "data" / "castle_commands" / "function"
        functions.mkdir(parents=True)
        for ruleset, lines in commands.items():
            (functions / f"{ruleset}.mcfunction").write_text("".join(c + "\n" for c in lines), encoding="utf-8")
        for canary in CANARIES:
            (pack / canary.path).parent.mkdir(parents=True, exist_ok=True)
            (pack / canary.path).write_text(canary.text, encoding="utf-8")
        projects.append({"version": spyglass_id(version), "name": version.name, "root": str(root)})
    return {"cache": str(work / "cache"), "vanilla": str(vanilla or work / "vanilla"), "projects": projects}


CACHE_INPUTS = ("package-lock.json", "run.mjs", "data")
"""What a release's vanilla set-up is made of, besides the installed Spyglass packages: the pinned versions, the
harness that configures Spyglass, and the offline game data it serves."""


def vanilla_key(tool: Path = HERE) -> str:
    """A digest of everything a vanilla set-up is made of: the files of :data:`CACHE_INPUTS` under ``tool`` (the
    ``data`` folder file by file, with their names) and every installed ``@spyglassmc`` package's
    ``package.json``, so another Spyglass, other game data or another harness never reads an older set-up.
    Returns 16 hex digits."""
    digest = hashlib.sha256()
    installed = sorted((tool / "node_modules" / "@spyglassmc").glob("*/package.json"))
    for path in [*(tool / name for name in CACHE_INPUTS), *installed]:
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.is_file():
                digest.update(file.relative_to(tool).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def vanilla_cache(environ: Mapping[str, str] = os.environ) -> Path:
    """The folder of the releases' vanilla set-ups: ``castle-spyglass/<vanilla_key()>`` under the user's cache
    folder (``$XDG_CACHE_HOME``, else ``~/.cache``), so every checkout on the machine, a fresh clone's CI run
    included, shares them; one file per set-up key (``setup-<key>.json.gz``, :func:`setup_keys`) and, per release,
    a link to its key's file (``<Spyglass version id>.json.gz``). Deleting it only costs the next run the time to
    build them again."""
    home = environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(home) / "castle-spyglass" / vanilla_key()


_UNDECLARED = re.compile(r"Cannot find (\w+) “minecraft:[^”]*” \(rule: undeclaredSymbol\)")


def expected(message: str) -> bool:
    """Whether ``message`` is one of the :data:`EXPECTED_WARNINGS`."""
    found = _UNDECLARED.fullmatch(message)
    return found is not None and found.group(1) in EXPECTED_WARNINGS


def run(job: Mapping[str, object], node: str = "node") -> Report:
    """Check the prepared folders with Spyglass, every release one after another in one Node process, and sort
    what it says. One process, not one per core: the releases share its start-up and its compiled code (two
    processes took a sixth more CPU time for the same work).

    Raises:
        RuntimeError: Node failed (its stderr in the message) or Spyglass logged errors of its own (it could not
            load its data, or a release's vanilla set-up in ``job["vanilla"]``).
    """
    projects: list[dict[str, str]] = list(job["projects"])  # type: ignore[call-overload]
    with tempfile.TemporaryDirectory(prefix="castle-spyglass-job-") as tmp:
        (Path(tmp) / "job.json").write_text(json.dumps(job), encoding="utf-8")
        started = time.monotonic()
        done = subprocess.run(
            [node, str(HERE / "run.mjs"), str(Path(tmp) / "job.json")], capture_output=True, text=True, check=False
        )
        seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"spyglass: node exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    out = json.loads(done.stdout)
    if out["errors"]:
        raise RuntimeError(
            f"spyglass could not load its data (vanilla set-ups: {job['vanilla']}): " + "; ".join(out["errors"])[:2000]
        )
    names = {p["root"]: p["name"] for p in projects}
    return _report(out["projects"], names, seconds)


def _report(projects: list[dict[str, object]], names: Mapping[str, str], seconds: float) -> Report:
    files, commands, kept, missed, unchecked = {}, {}, [], [], []
    built = tuple(names[str(p["root"])] for p in projects if p.get("built"))
    for project in projects:
        name, root = names[str(project["root"])], Path(str(project["root"]))
        checked = [str(f) for f in project["files"]]  # type: ignore[attr-defined]
        files[name] = len(checked)
        prepared = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
        unchecked += [f"{name}: {f}" for f in sorted(prepared - set(checked))]
        commands[name] = sum(
            _command_count(Path(str(project["root"])) / f)
            for f in checked
            if f.startswith("datapack/data/castle_commands/")
        )
        found = [
            Problem(name, **d)
            for d in project["diagnostics"]  # type: ignore[attr-defined]
            if d["severity"] >= WARNING and not expected(d["message"])
        ]
        canary_files = {f"datapack/{c.path}": c for c in CANARIES}
        kept += [p for p in found if p.file not in canary_files]
        for path, canary in canary_files.items():
            hit = any(p.file == path for p in found)
            if hit != (name in canary.broken_on):
                missed.append(f"{name}: {path} ({'not reported' if not hit else 'reported where it is valid'})")
    return Report(files, commands, tuple(kept), tuple(missed), tuple(unchecked), seconds, built)


def _command_count(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def check(commands: Mapping[str, list[str]] | None = None, node: str = "node", vanilla: Path | None = None) -> Report:
    """Capture the demo commands (unless given), prepare every release's folder in a temporary directory and run
    Spyglass over them, the releases' vanilla set-ups kept in ``vanilla`` (default :func:`vanilla_cache`). The
    set-ups missing there are built by a Node process of their own while the demos play (:func:`build_missing`).

    Raises:
        RuntimeError: as :func:`run`, or building a vanilla set-up failed.
    """
    with tempfile.TemporaryDirectory(prefix="castle-spyglass-") as tmp:
        vanilla = vanilla or kept_folder(vanilla_cache()) or Path(tmp) / "vanilla"
        building, missing = build_missing(vanilla, Path(tmp) / "build", node)
        try:
            commands = capture_commands() if commands is None else commands
        finally:
            stderr = building.communicate()[1] if building is not None else ""
        if building is not None and building.returncode != 0:
            raise RuntimeError(f"spyglass: building the vanilla set-ups failed: {stderr.strip()[-2000:]}")
        report = run(prepare(Path(tmp), commands, vanilla=vanilla), node)
    return replace(report, built=(*missing, *report.built))


def build_missing(
    vanilla: Path, work: Path, node: str = "node", versions: Iterable[McVersion] = SUPPORTED
) -> tuple[subprocess.Popen[str] | None, tuple[str, ...]]:
    """Start a Node process building the vanilla set-ups of ``versions`` missing from ``vanilla`` (``run.mjs`` with
    no project to check; ``work`` its scratch folder), so that the work overlaps whatever the caller does next.

    Returns:
        the process (``None`` when nothing is missing) and the names of the releases it builds.
    """
    missing = [v for v in versions if not (vanilla / f"{spyglass_id(v)}.json.gz").is_file()]
    if not missing:
        return None, ()
    work.mkdir(parents=True, exist_ok=True)
    job = {"cache": str(work / "cache"), "vanilla": str(vanilla), "build": [spyglass_id(v) for v in missing]}
    (work / "build.json").write_text(json.dumps(job), encoding="utf-8")
    process = subprocess.Popen(
        [node, str(HERE / "run.mjs"), str(work / "build.json")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    return process, tuple(v.name for v in missing)


def setup_keys(versions: Iterable[str], node: str = "node", tool: Path = HERE) -> dict[str, str]:
    """The set-up key of each Spyglass version id in ``versions`` (``run.mjs``'s ``setupKey``, with the harness and
    data of ``tool``): a digest of the content of everything that release's vanilla set-up is built from and may
    differ by release (the files served to it, its own under ``data/versions/<id>/`` first, and the outcome of the
    version comparisons Spyglass makes while building it). Releases of one key share one set-up.

    Returns:
        version id → 16 hex digits.

    Raises:
        RuntimeError: Node failed (its stderr in the message).
    """
    with tempfile.TemporaryDirectory(prefix="castle-spyglass-keys-") as tmp:
        (Path(tmp) / "job.json").write_text(json.dumps({"keys": list(versions)}), encoding="utf-8")
        done = subprocess.run(
            [node, str(tool / "run.mjs"), str(Path(tmp) / "job.json")], capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise RuntimeError(f"spyglass: node exited {done.returncode}: {done.stderr.strip()[-2000:]}")
    keys: dict[str, str] = json.loads(done.stdout)["keys"]
    return keys


def spyglass_id(version: McVersion) -> str:
    """Spyglass's version id for ``version`` (:data:`SPYGLASS_VERSION`, else the release's name)."""
    return SPYGLASS_VERSION.get(version.name, version.name)


STALE_AFTER = 7 * 24 * 3600.0
"""Seconds after its last use that another key's folder of vanilla set-ups is deleted (:func:`kept_folder`)."""


def kept_folder(folder: Path, now: float | None = None) -> Path | None:
    """Create ``folder`` (a :func:`vanilla_cache` folder), mark it used now, and delete its sibling folders unused
    for :data:`STALE_AFTER` seconds (set-ups of another Spyglass, game data or harness). Returns ``folder``, or
    ``None`` when it cannot be written (the run then builds every set-up in its temporary folder)."""
    now = time.time() if now is None else now
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder, (now, now))
    except OSError:
        return None
    for other in folder.parent.iterdir():
        try:
            stale = other != folder and other.is_dir() and other.stat().st_mtime < now - STALE_AFTER
        except OSError:  # deleted meanwhile by another run
            continue
        if stale:
            shutil.rmtree(other, ignore_errors=True)
    return folder


def main() -> int:
    """Print the figures of a whole check and every problem; 0 when there is none, 1 otherwise."""
    if not (HERE / "node_modules" / "@spyglassmc" / "java-edition").is_dir():
        print(f"spyglass: not installed; run `npm ci` in {HERE}", file=sys.stderr)
        return 2
    started = time.monotonic()
    report = check()
    took = time.monotonic() - started
    for name in report.files:
        print(
            f"{name}: {report.files[name]} files, {report.commands[name]} commands, "
            f"{sum(p.version == name for p in report.problems)} problems"
        )
    for line in [
        *map(str, report.problems),
        *(f"canary missed: {m}" for m in report.missed_canaries),
        *(f"not checked: {u}" for u in report.unchecked),
    ]:
        print(line)
    built = f" (built the vanilla set-up of {', '.join(report.built)})" if report.built else ""
    print(f"{took:.1f} s in all; Spyglass checked for {report.seconds:.1f} s{built}")
    return 1 if report.problems or report.missed_canaries or report.unchecked else 0


if __name__ == "__main__":
    sys.exit(main())
