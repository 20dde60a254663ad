"""How a given Minecraft release reads a data pack's ``pack.mcmeta`` and the advancement forms it accepts: the
per-version part of the sandbox's pack loader (:meth:`bridge.sandbox.datapack.Datapack.load`).

- The pack's ``min_format``/``max_format`` range: a release whose data format lies outside it still loads the pack
  (a dedicated server refuses nothing; vanilla only flags it, "Made for an older/newer version of Minecraft"),
  so here it is a warning.
- ``overlays.entries``: each entry whose ``min_format``..``max_format`` contains the release's data format applies;
  its folder's files replace the base pack's, a later entry winning over an earlier one (vanilla's order).
- Advancement forms (``bridge.minecraft.versions``): from data format 111 (26.3) a trigger's ``player``/``entity``
  is one loot condition keyed ``type`` (or a predicate id), not a list and not keyed ``condition``; from data
  format 102 (26.2) an entity predicate is a map of named sub-predicates, so ``type`` (now ``entity_type``) and
  ``type_specific`` are unknown. An advancement that breaks a rule is not loaded, and the error names its file, as
  the server log does.

The advancement check covers the places Castle's forms meet: the ``player`` and ``entity`` fields of every
trigger's ``conditions``, the entity predicates inside ``entity_properties`` conditions, inline entity predicates
(before 26.3), and a damage predicate's ``source_entity``/``direct_entity``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bridge.minecraft.versions import McVersion, PackFormat

__all__ = ["FormatRange", "advancement_errors", "applied_overlays", "compatibility_warning", "pack_range"]

_ANY_MINOR = 2**31 - 1
"""Vanilla's minor for a ``max_format`` written as a plain number (``Integer.MAX_VALUE``: any minor)."""

FormatRange = tuple[PackFormat, PackFormat]
"""An inclusive ``(min_format, max_format)`` range of data formats."""

_ENTITY_FIELDS = ("player", "entity")
_RENAMED_SUB_PREDICATES = {"type": "entity_type", "type_specific": "type_specific/<type>"}


def _format(value: Any, *, top: bool) -> PackFormat:
    """A ``min_format``/``max_format`` value: ``N`` or ``[major, minor]`` (a missing minor is 0 for a minimum,
    any minor for a maximum). Raises ``ValueError`` for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, _ANY_MINOR if top else 0)
    if isinstance(value, list) and 1 <= len(value) <= 2 and all(isinstance(v, int) for v in value):
        return (value[0], value[1] if len(value) == 2 else (_ANY_MINOR if top else 0))
    raise ValueError(f"not a pack format: {value!r}")


def pack_range(entry: dict[str, Any]) -> FormatRange:
    """The ``(min_format, max_format)`` of a ``pack`` section or an overlay entry.

    Raises:
        ValueError: one of the two is missing (vanilla: "must declare both min_format and max_format") or is not a
            format.
    """
    if "min_format" not in entry or "max_format" not in entry:
        raise ValueError("must declare both min_format and max_format")
    return _format(entry["min_format"], top=False), _format(entry["max_format"], top=True)


def _show(fmt: PackFormat) -> str:
    return str(fmt[0]) if fmt[1] == _ANY_MINOR else f"{fmt[0]}.{fmt[1]}"


def compatibility_warning(meta: dict[str, Any], version: McVersion) -> str | None:
    """Vanilla's warning for a pack whose range does not contain ``version``'s data format, or ``None``.

    Args:
        meta: the parsed ``pack.mcmeta``.
        version: the release loading the pack.

    Raises:
        ValueError: the ``pack`` section's range is missing or malformed.
    """
    low, high = pack_range(meta.get("pack", {}))
    fmt = version.data_pack
    if low <= fmt <= high:
        return None
    made_for = "an older" if fmt > high else "a newer"
    return (
        f"data pack formats {_show(low)}..{_show(high)} do not include {version.name}'s {_show(fmt)}: "
        f"made for {made_for} version of Minecraft (loaded anyway, as a dedicated server does)"
    )


def applied_overlays(meta: dict[str, Any], version: McVersion) -> list[str]:
    """The overlay folders ``version`` applies, in ``overlays.entries`` order (a later one wins); an entry without
    a directory or a format range is skipped, as vanilla skips it ("Unknown or broken overlay entry")."""
    out = []
    for entry in meta.get("overlays", {}).get("entries", []):
        try:
            low, high = pack_range(entry)
        except (ValueError, AttributeError, TypeError):
            continue
        if isinstance(entry.get("directory"), str) and low <= version.data_pack <= high:
            out.append(entry["directory"])
    return out


def advancement_errors(advancement: Any, version: McVersion) -> list[str]:
    """Why ``version`` refuses to load ``advancement`` (its parsed JSON): one line per problem, each naming the
    JSON path (``criteria.hit.conditions.player``); ``[]`` when it loads."""
    if not isinstance(advancement, dict):
        return ["not a JSON object"]
    errors: list[str] = []
    for name, criterion in (advancement.get("criteria") or {}).items():
        conditions = criterion.get("conditions") if isinstance(criterion, dict) else None
        if not isinstance(conditions, dict):
            continue
        where = f"criteria.{name}.conditions"
        for field in _ENTITY_FIELDS:
            if field in conditions:
                errors += _trigger_field_errors(conditions[field], f"{where}.{field}", version)
        damage = conditions.get("damage")
        if isinstance(damage, dict):
            for key in ("source_entity", "direct_entity"):
                if isinstance(damage.get(key), dict):
                    errors += _entity_predicate_errors(damage[key], f"{where}.damage.{key}", version)
    return errors


def _trigger_field_errors(value: Any, where: str, version: McVersion) -> list[str]:
    """A trigger's ``player``/``entity``: before 26.3 an inline entity predicate or a list of conditions keyed
    ``condition``; from 26.3 one condition keyed ``type`` or a predicate id."""
    if version.single_trigger_condition:
        if isinstance(value, str):
            return []
        if isinstance(value, list):
            return [
                f"{where}: a list of conditions is not accepted from {version.name} on (one condition, keyed "
                "type, or a predicate id)"
            ]
        return _condition_errors(value, where, version)
    if isinstance(value, list):
        return [e for i, c in enumerate(value) for e in _condition_errors(c, f"{where}[{i}]", version)]
    if isinstance(value, dict):
        return _entity_predicate_errors(value, where, version)
    return [f"{where}: not an entity predicate or a list of conditions"]


def _condition_errors(condition: Any, where: str, version: McVersion) -> list[str]:
    """One loot condition: keyed ``type`` from 26.3, ``condition`` before; an ``entity_properties`` one carries an
    entity predicate."""
    key, other = ("type", "condition") if version.single_trigger_condition else ("condition", "type")
    if not isinstance(condition, dict):
        return [f"{where}: not a loot condition"]
    if key not in condition:
        hint = f" (keyed {other} in another version)" if other in condition else ""
        return [f"{where}: no key {key}{hint}"]
    predicate = condition.get("predicate")
    if str(condition[key]).removeprefix("minecraft:") == "entity_properties" and isinstance(predicate, dict):
        return _entity_predicate_errors(predicate, f"{where}.predicate", version)
    return []


def _entity_predicate_errors(predicate: dict[str, Any], where: str, version: McVersion) -> list[str]:
    """An entity predicate (and the ones nested in it): from 26.2 a map of named sub-predicates, where ``type``
    and ``type_specific`` are unknown."""
    errors = []
    if version.entity_predicate_map:
        for key, now in _RENAMED_SUB_PREDICATES.items():
            if key in predicate:
                errors.append(
                    f"{where}: unknown entity sub-predicate 'minecraft:{key}' in {version.name} "
                    f"(written {now} from 26.2 on)"
                )
    for key, inner in _nested_entity_predicates(predicate):
        errors += _entity_predicate_errors(inner, f"{where}.{key}", version)
    return errors


def _nested_entity_predicates(predicate: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for key in ("vehicle", "passenger", "targeted_entity"):
        if isinstance(predicate.get(key), dict):
            yield key, predicate[key]
