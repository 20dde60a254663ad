"""Language files of the resource pack (``datapack/resourcepack/assets/traitors/lang/``).

Every text players see is a ``translate`` component with an English ``fallback`` (``bridge.minecraft.text``); the
resource pack maps the keys to ``en_us``, ``ru_ru`` and ``uk_ua`` so each client shows its own language.
``en_us.json`` is generated from ``engine.messages.CATALOG`` (keys ``traitors.<key>``) and
``bridge.minecraft.ui_text.UI_TEXT``; ``python -m bridge.minecraft.lang`` rewrites it. The other languages are written by hand and
must have exactly the same keys and placeholders (``tests/bridge/minecraft/test_lang.py``).

Placeholders: ``{name}`` (or ``{name:phrase}``) in the English catalogue becomes ``%N$s`` (N = the order in
which the placeholders first appear in the English text, which is the order of the ``with`` arguments), and
``%`` becomes ``%%``. A term (``traitors.term.*``: a power's name, a torch…) is a key of its own that the
messages take as an argument. A counted phrase has one key per count class (``traitors.plural.<phrase>.<class>``,
``bridge.minecraft.plurals``) whose only argument, ``%1$s``, is the count.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from bridge.minecraft.datapack import resourcepack_root
from bridge.minecraft.plurals import CLASSES, category
from bridge.minecraft.ui_text import UI_TEXT
from engine.messages import CATALOG, template_placeholders
from engine.messages_terms import PLURALS

__all__ = ["LANGUAGES", "english", "lang_dir", "lang_format", "load", "plural_keys", "write_english"]

LANGUAGES = ("en_us", "ru_ru", "uk_ua")
"""The shipped languages (the two mafia rulesets come from Russian and Ukrainian rulebooks)."""

_ARG = re.compile(r"%(\d+)\$s")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::[a-z_]+)?\}")


def lang_format(template: str) -> str:
    """An English catalogue text (``{name}`` or ``{name:phrase}`` placeholders) as a language-file string."""
    number = {name: i for i, name in enumerate(template_placeholders(template), start=1)}
    return _PLACEHOLDER.sub(lambda m: f"%{number[m.group(1)]}$s", template.replace("%", "%%"))


def plural_keys(phrase: str) -> list[str]:
    """The language-file keys of a counted phrase, one per count class."""
    return [f"traitors.plural.{phrase}.{c}" for c in CLASSES]


def english() -> dict[str, str]:
    """Every translation key → its ``en_us`` string, sorted by key."""
    entries = {"traitors." + k: lang_format(v) for k, v in CATALOG.items()}
    entries.update({k: lang_format(v) for k, v in UI_TEXT.items()})
    for phrase, (one, other) in PLURALS.items():
        for key, c in zip(plural_keys(phrase), CLASSES, strict=True):
            entries[key] = lang_format(one if category("en_us", c) == "one" else other)
    return dict(sorted(entries.items()))


def lang_dir() -> Path:
    """The folder of the language files."""
    return resourcepack_root() / "assets" / "traitors" / "lang"


def load(language: str) -> dict[str, str]:
    """One language file as a dict.

    Raises:
        OSError, ValueError: missing or unreadable file.
    """
    data = json.loads((lang_dir() / f"{language}.json").read_text(encoding="utf-8"))
    return {str(k): str(v) for k, v in data.items()}


def arguments(text: str) -> set[int]:
    """The argument numbers a language string uses (``%1$s`` → 1)."""
    return {int(n) for n in _ARG.findall(text)}


def write_english() -> Path:
    """Rewrite ``en_us.json`` from the catalogues; returns its path."""
    path = lang_dir() / "en_us.json"
    path.write_text(json.dumps(english(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_english(), file=sys.stderr)
