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
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import nbtlib

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script from a checkout: make the project importable
    sys.path.insert(0, str(HERE.parent.parent))

from bridge.minecraft.datapack import pack_root, write_pack, write_resourcepack  # noqa: E402
from bridge.minecraft.versions import SUPPORTED, McVersion  # noqa: E402
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
)
"""A 1.21.5-era ``clickEvent`` (``click_event`` since) in a tellraw, broken everywhere; a trigger's list form,
broken from 26.3; the base pack's ``sword/struck.json`` (``"type"`` in an entity predicate), broken from 26.2."""


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
    (``"<release>: <path>"``: a file it cannot read, or a harness fault) and the seconds the Node processes
    took."""

    files: Mapping[str, int]
    commands: Mapping[str, int]
    problems: tuple[Problem, ...]
    missed_canaries: tuple[str, ...]
    unchecked: tuple[str, ...]
    seconds: float


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
    work: Path, commands: Mapping[str, list[str]], versions: Iterable[McVersion] = SUPPORTED
) -> dict[str, object]:
    """Write one folder per release under ``work`` and return the job ``run.mjs`` reads.

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
        projects.append(
            {"version": SPYGLASS_VERSION.get(version.name, version.name), "name": version.name, "root": str(root)}
        )
    return {"cache": str(work / "cache"), "projects": projects}


_UNDECLARED = re.compile(r"Cannot find (\w+) “minecraft:[^”]*” \(rule: undeclaredSymbol\)")


def expected(message: str) -> bool:
    """Whether ``message`` is one of the :data:`EXPECTED_WARNINGS`."""
    found = _UNDECLARED.fullmatch(message)
    return found is not None and found.group(1) in EXPECTED_WARNINGS


def run(job: Mapping[str, object], node: str = "node", processes: int = 2) -> Report:
    """Check the prepared folders with Spyglass and sort what it says. The releases are shared out between
    ``processes`` Node processes running at once (each checks its releases one after another; the work is
    CPU-bound, and CI has two cores).

    Raises:
        RuntimeError: Node failed (its stderr in the message) or Spyglass logged errors of its own (it could not
            load its data).
    """
    projects: list[dict[str, str]] = list(job["projects"])  # type: ignore[call-overload]
    jobs = [dict(job, projects=projects[i::processes]) for i in range(processes) if projects[i::processes]]
    with tempfile.TemporaryDirectory(prefix="castle-spyglass-job-") as tmp:
        started = time.monotonic()
        running = []
        for i, part in enumerate(jobs):
            (Path(tmp) / f"{i}.json").write_text(json.dumps(part), encoding="utf-8")
            running.append(
                subprocess.Popen(
                    [node, str(HERE / "run.mjs"), str(Path(tmp) / f"{i}.json")],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
            )
        outputs = [(p.communicate(), p.returncode) for p in running]
        seconds = time.monotonic() - started
    checked: list[dict[str, object]] = []
    for (stdout, stderr), code in outputs:
        if code != 0:
            raise RuntimeError(f"spyglass: node exited {code}: {stderr.strip()[-2000:]}")
        out = json.loads(stdout)
        if out["errors"]:
            raise RuntimeError("spyglass could not load its data: " + "; ".join(out["errors"])[:2000])
        checked += out["projects"]
    names = {p["root"]: p["name"] for p in projects}
    order = {p["name"]: i for i, p in enumerate(projects)}
    return _report(sorted(checked, key=lambda p: order[names[str(p["root"])]]), names, seconds)


def _report(projects: list[dict[str, object]], names: Mapping[str, str], seconds: float) -> Report:
    files, commands, kept, missed, unchecked = {}, {}, [], [], []
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
    return Report(files, commands, tuple(kept), tuple(missed), tuple(unchecked), seconds)


def _command_count(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def check(commands: Mapping[str, list[str]] | None = None, node: str = "node") -> Report:
    """Capture the demo commands (unless given), prepare every release's folder in a temporary directory and run
    Spyglass over them."""
    commands = capture_commands() if commands is None else commands
    with tempfile.TemporaryDirectory(prefix="castle-spyglass-") as tmp:
        return run(prepare(Path(tmp), commands), node)


def main() -> int:
    """Print the figures of a whole check and every problem; 0 when there is none, 1 otherwise."""
    if not (HERE / "node_modules" / "@spyglassmc" / "java-edition").is_dir():
        print(f"spyglass: not installed; run `npm ci` in {HERE}", file=sys.stderr)
        return 2
    started = time.monotonic()
    commands = capture_commands()
    captured = time.monotonic() - started
    report = check(commands)
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
    print(f"demo commands captured in {captured:.1f} s; Spyglass ran {report.seconds:.1f} s")
    return 1 if report.problems or report.missed_canaries or report.unchecked else 0


if __name__ == "__main__":
    sys.exit(main())
