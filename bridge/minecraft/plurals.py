"""Plural forms across the shipped languages: one language-file key per count that every language can decline.

Minecraft's language files have no plural rules (a key maps to one string), and one ``tellraw`` reaches clients in
different languages, so the bridge cannot pick "the Russian form" for a count. It picks a *count class*
instead: counts that take the same plural category in every shipped language (CLDR plural rules,
https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html) share one class, and each
counted phrase has one key per class (``traitors.plural.<phrase>.<class>``). Each language file gives, for each
class, the form its own rule asks for. With English (one: 1; other) and Russian and Ukrainian (one: 1, 21, 31…
but not 11; few: 2-4, 22-24… but not 12-14; many: the rest) there are four classes, named after their smallest
count: ``n0`` (0, 5-20, 25-30, 11, 111…), ``n1`` (1), ``n2`` (2-4, 22-24…) and ``n21`` (21, 31, 101…).

A new language adds its rule to ``RULES``; the classes (and the keys every file must have) follow from it. The
rules are written here rather than read from Babel's CLDR data, whose import would add about 90 ms to every
service start; a test checks them against Babel for every count below 2,000.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["CLASSES", "RULES", "count_class", "category"]


def _english(n: int) -> str:
    """CLDR ``en`` (whole numbers): one for 1, other otherwise."""
    return "one" if n == 1 else "other"


def _east_slavic(n: int) -> str:
    """CLDR ``ru`` and ``uk`` (whole numbers): one, few, many."""
    if n % 10 == 1 and n % 100 != 11:
        return "one"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"
    return "many"


RULES: dict[str, Callable[[int], str]] = {"en_us": _english, "ru_ru": _east_slavic, "uk_ua": _east_slavic}
"""Language → its plural category of a whole number (the shipped languages, ``bridge.minecraft.lang.LANGUAGES``)."""

PERIOD = 100
"""Every rule in ``RULES`` depends on ``n`` only through ``n % 100`` once ``n >= 100`` (so counts below
``2 * PERIOD`` show every class)."""


def _signature(n: int) -> tuple[str, ...]:
    return tuple(rule(n) for rule in RULES.values())


def _classes() -> dict[tuple[str, ...], str]:
    out: dict[tuple[str, ...], str] = {}
    for n in range(2 * PERIOD):
        out.setdefault(_signature(n), f"n{n}")
    return out


_BY_SIGNATURE = _classes()

CLASSES: tuple[str, ...] = tuple(sorted(_BY_SIGNATURE.values(), key=lambda c: int(c[1:])))
"""Every count class (``n0``, ``n1``, ``n2``, ``n21``), each named after its smallest count."""


def count_class(n: int) -> str:
    """The class of a whole number ``n >= 0`` (a negative count is classed by its size)."""
    return _BY_SIGNATURE[_signature(abs(n) % PERIOD + (PERIOD if abs(n) >= PERIOD else 0))]


def category(language: str, count_class_name: str) -> str:
    """The CLDR category ``language`` gives to every count of a class (``category("ru_ru", "n21") == "one"``).

    Raises:
        KeyError: an unknown language or class.
    """
    return RULES[language](int(count_class_name.removeprefix("n")))
