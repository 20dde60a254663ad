"""NBT helpers for the sandbox: SNBT values (nbtlib tags), NBT paths and partial matching.

SNBT is parsed by mecha while it parses the command (``AstNbt*.evaluate()`` gives ``nbtlib`` tags,
``docs/minecraft.md#player-input``) and printed with ``nbtlib.serialize_tag``, whose non-compact form matches vanilla's
``{seq: 1, player: "Alice"}`` style closely enough for the bridge's parser.

NBT paths follow vanilla's ``NbtPathArgument``: ``a.b``, ``a[0]``, ``a[-1]``, ``a[]``, ``a[{k:v}]`` (list
elements that match the compound), ``a{k:v}`` (keep ``a`` only if it matches) and a leading ``{k:v}``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import nbtlib
from mecha import ast as mast
from nbtlib import Compound, List

__all__ = [
    "NbtPath",
    "Step",
    "matches",
    "from_python",
    "path_from_ast",
    "serialize",
    "to_python",
]


def to_python(tag: Any) -> Any:
    """Turn nbtlib tags (or JSON-ish values) into plain Python: dict, list, str, int, float.

    Bytes stay ints (``true`` in SNBT is ``1b`` → ``1``).
    """
    if isinstance(tag, dict):
        return {str(k): to_python(v) for k, v in tag.items()}
    if isinstance(tag, (list, tuple)):
        return [to_python(v) for v in tag]
    if isinstance(tag, nbtlib.Array):  # numpy-backed arrays
        return [int(v) for v in tag]
    if isinstance(tag, str):
        return str(tag)
    if isinstance(tag, bool):
        return int(tag)
    if isinstance(tag, int):
        return int(tag)
    if isinstance(tag, float):
        return float(tag)
    return tag


def from_python(value: Any) -> Any:
    """Plain Python (as ``to_python`` gives) back into nbtlib tags: dict → Compound, list → List (of one tag
    type), str → String, int → Int, float → Double."""
    if isinstance(value, nbtlib.tag.Base):
        return value
    if isinstance(value, dict):
        return nbtlib.Compound({str(k): from_python(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        items = [from_python(v) for v in value]
        return nbtlib.List[type(items[0])](items) if items else nbtlib.List()
    if isinstance(value, str):
        return nbtlib.String(value)
    if isinstance(value, bool):
        return nbtlib.Byte(int(value))
    if isinstance(value, int):
        return nbtlib.Int(value)
    if isinstance(value, float):
        return nbtlib.Double(value)
    raise TypeError(f"no NBT form for {type(value).__name__}")


def serialize(tag: Any) -> str:
    """SNBT text of an nbtlib tag, vanilla-like spacing (``{a: 1, b: "x"}``)."""
    return str(nbtlib.serialize_tag(tag))


def matches(value: Any, pattern: Any) -> bool:
    """Vanilla partial NBT match (``NbtUtils.compareNbt(pattern, value, partial=true)``).

    Compounds: every key of ``pattern`` must be in ``value`` and match. Lists: every element of the pattern
    must match some element of ``value`` (an empty pattern list matches only an empty list). Anything else:
    equal values of the same kind.
    """
    if isinstance(pattern, dict):
        if not isinstance(value, dict):
            return False
        return all(k in value and matches(value[k], v) for k, v in pattern.items())
    if isinstance(pattern, list) and not isinstance(pattern, nbtlib.Array):
        if not isinstance(value, list):
            return False
        if not pattern:
            return not value
        return all(any(matches(v, p) for v in value) for p in pattern)
    if isinstance(pattern, str) or isinstance(value, str):
        return isinstance(pattern, str) and isinstance(value, str) and str(pattern) == str(value)
    try:
        return type(pattern) is type(value) and bool(pattern == value)
    except ValueError:  # numpy arrays
        return list(pattern) == list(value)


@dataclass(frozen=True, slots=True)
class Step:
    """One NBT path step: ``kind`` is "key", "index", "all", "list_filter" or "match"."""

    kind: str
    key: str | None = None
    index: int | None = None
    pattern: Any = None


@dataclass(frozen=True, slots=True)
class NbtPath:
    """A parsed NBT path (``steps``) with its source ``text`` for messages."""

    steps: tuple[Step, ...]
    text: str


def path_from_ast(node: mast.AstNbtPath, text: str) -> NbtPath:
    """Convert mecha's ``AstNbtPath`` into an :class:`NbtPath`.

    Args:
        node: the parsed path.
        text: the path as written (used in "Found no elements matching <text>").

    Raises:
        ValueError: a path component the sandbox does not know.
    """
    steps: list[Step] = []
    for comp in node.components:
        if isinstance(comp, mast.AstNbtPathKey):
            steps.append(Step("key", key=str(comp.value)))
        elif isinstance(comp, mast.AstNbtPathSubscript):
            if comp.index is None:
                steps.append(Step("all"))
            elif isinstance(comp.index, mast.AstNumber):
                steps.append(Step("index", index=int(comp.index.value)))
            else:
                steps.append(Step("list_filter", pattern=comp.index.evaluate()))
        elif isinstance(comp, mast.AstNbtCompound):
            steps.append(Step("match", pattern=comp.evaluate()))
        else:
            raise ValueError(f"unsupported NBT path component {type(comp).__name__}")
    return NbtPath(tuple(steps), text)


# A slot is (container, key): container[key] is the value. The root slot is ({"": root}, "").
Slot = tuple[Any, Any]


def _children(slot: Slot, step: Step, create_next: Step | None) -> list[Slot]:
    container, key = slot
    value = container[key]
    if step.kind == "match":
        return [slot] if matches(value, step.pattern) else []
    if step.kind == "key":
        if not isinstance(value, dict):
            return []
        assert step.key is not None
        if step.key not in value:
            if create_next is None:
                return []
            value[step.key] = _empty_for(create_next)
        return [(value, step.key)]
    if not isinstance(value, list):
        return []
    if step.kind == "all":
        return [(value, i) for i in range(len(value))]
    if step.kind == "index":
        assert step.index is not None
        i = step.index if step.index >= 0 else len(value) + step.index
        return [(value, i)] if 0 <= i < len(value) else []
    if step.kind == "list_filter":
        return [(value, i) for i, v in enumerate(value) if matches(v, step.pattern)]
    raise ValueError(step.kind)


def _empty_for(step: Step) -> Any:
    return List() if step.kind in ("index", "all", "list_filter") else Compound()


def resolve(root: Compound, path: NbtPath, *, create: bool = False, create_last: Step | None = None) -> list[Slot]:
    """All slots the path selects in ``root`` (creating missing compounds/lists when ``create``).

    Args:
        root: the storage compound.
        path: the path.
        create: create missing parents along the way (vanilla ``getOrCreate``).
        create_last: when creating, what kind of value a missing last key gets (the step that follows it).
    """
    slots: list[Slot] = [({"": root}, "")]
    steps = path.steps
    for n, step in enumerate(steps):
        nxt = steps[n + 1] if n + 1 < len(steps) else create_last
        slots = [child for s in slots for child in _children(s, step, nxt if create else None)]
    return slots


def get(root: Compound, path: NbtPath) -> list[Any]:
    """The values at ``path`` (empty list when none)."""
    return [c[k] for c, k in resolve(root, path)]


def set_value(root: Compound, path: NbtPath, value: Any) -> int:
    """``data modify … set value``: put a copy of ``value`` at every selected place.

    Returns:
        How many places changed (0 = "Nothing changed").
    """
    if not path.steps:
        if not isinstance(value, dict):
            raise ValueError("root must be a compound")
        changed = root != value
        root.clear()
        root.update(copy.deepcopy(value))
        return int(changed)
    parents = resolve(root, NbtPath(path.steps[:-1], path.text), create=True, create_last=path.steps[-1])
    last = path.steps[-1]
    changed = 0
    for container, key in parents:
        parent = container[key]
        if last.kind == "key" and isinstance(parent, dict):
            if last.key in parent and parent[last.key] == value and type(parent[last.key]) is type(value):
                continue
            parent[last.key] = copy.deepcopy(value)
            changed += 1
        elif isinstance(parent, list):
            for _, pi in _children((container, key), last, None):
                current = container[key][pi]
                if current == value and type(current) is type(value):
                    continue
                _list_put(container, key, pi, value, replace=True)
                changed += 1
    return changed


def insert(root: Compound, path: NbtPath, index: int, value: Any) -> int:
    """``data modify … append|prepend|insert <i> value``: insert into every list at ``path``.

    ``index`` -1 appends, 0 prepends. Missing lists are created.

    Returns:
        How many lists changed.
    """
    slots = resolve(root, path, create=True, create_last=Step("all"))
    changed = 0
    for container, key in slots:
        lst = container[key]
        if not isinstance(lst, list):
            continue
        i = len(lst) if index == -1 else (index if index >= 0 else len(lst) + index + 1)
        if not 0 <= i <= len(lst):
            continue
        _list_put(container, key, i, value, replace=False)
        changed += 1
    return changed


def _list_put(container: Any, key: Any, i: int, value: Any, *, replace: bool) -> None:
    lst = container[key]
    items = list(lst)
    if replace:
        items[i] = copy.deepcopy(value)
    else:
        items.insert(i, copy.deepcopy(value))
    subtype = type(value) if (not lst or (replace and len(lst) == 1)) else lst.subtype
    if not isinstance(value, subtype):
        raise ValueError("list element type does not match")
    container[key] = List[subtype](items)


def merge(root: Compound, path: NbtPath, value: Any) -> int:
    """``data modify … merge value {…}``: deep-merge a compound into every compound at ``path``."""
    if not isinstance(value, dict):
        raise ValueError("merge needs a compound")
    slots = resolve(root, path, create=True, create_last=Step("match")) if path.steps else [({"": root}, "")]
    changed = 0
    for container, key in slots:
        target = container[key]
        if isinstance(target, dict):
            before = copy.deepcopy(target)
            if isinstance(target, Compound):
                target.merge(copy.deepcopy(value))
            else:
                target.update(copy.deepcopy(value))
            changed += int(before != target)
    return changed


def remove(root: Compound, path: NbtPath) -> int:
    """``data remove``: delete every selected value.

    Returns:
        How many values were removed.
    """
    if not path.steps:
        return 0
    slots = resolve(root, path)
    # Delete list elements from the highest index down so earlier indices stay valid.
    slots.sort(key=lambda s: s[1] if isinstance(s[1], int) else -1, reverse=True)
    for container, key in slots:
        del container[key]
    return len(slots)
