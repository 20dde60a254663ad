"""Languages: every translation key the project sends exists in en_us, ru_ru and uk_ua with the same arguments,
and en_us is exactly what the catalogues generate."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bridge.minecraft.datapack import built_pack_root, resourcepack_root
from bridge.minecraft.items import item_stack
from bridge.minecraft.lang import LANGUAGES, arguments, english, lang_format, load
from bridge.minecraft.text import message_component
from bridge.minecraft.ui_text import UI_TEXT
from engine.ids import Item
from engine.messages import CATALOG

_TRANSLATE = re.compile(r'"?translate"?\s*:\s*"(traitors\.[A-Za-z0-9_.]+)"')


def pack_paths() -> list[Path]:
    """Every file of the data pack as installed (with its generated functions) and of the resource pack."""
    return [*built_pack_root().rglob("*"), *resourcepack_root().rglob("*")]


def used_keys() -> set[str]:
    """Every key: engine messages, bridge UI texts, item names, and every translate key in the data pack."""
    keys = {"traitors." + k for k in CATALOG} | set(UI_TEXT)
    for item in Item:
        stack = item_stack(item, label="Alex")
        keys |= set(_TRANSLATE.findall(stack.argument()))
    for path in pack_paths():
        if path.suffix in (".mcfunction", ".json", ".mcmeta") and "lang" not in path.parts:
            keys |= set(_TRANSLATE.findall(path.read_text(encoding="utf-8")))
    return keys


def test_en_us_is_generated_from_the_catalogues() -> None:
    assert load("en_us") == english()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_used_is_in_every_language(language: str) -> None:
    table = load(language)
    missing = sorted(used_keys() - set(table))
    assert not missing, missing
    assert set(table) == set(english())  # no stale keys either


@pytest.mark.parametrize("language", ["ru_ru", "uk_ua"])
def test_translations_keep_the_arguments_and_are_translated(language: str) -> None:
    en, table = english(), load(language)
    for key, text in table.items():
        assert arguments(text) == arguments(en[key]), key
        assert re.sub(r"%\d+\$s", "", text).count("%") % 2 == 0, key  # a lone % would break the format
    cyrillic = sum(bool(re.search("[а-яіїєґА-ЯІЇЄҐ]", t)) for t in table.values())
    assert cyrillic > 0.9 * len(table)


def test_datapack_fallbacks_match_english() -> None:
    en = english()
    for path in pack_paths():
        if path.suffix not in (".mcfunction", ".json", ".mcmeta") or "lang" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for key, fallback in re.findall(r'"?translate"?\s*:\s*"([^"]+)"\s*,\s*"?fallback"?\s*:\s*"([^"]*)"', text):
            if re.search(r"%\d+\$s", fallback):  # a template the pack fills in (vanilla formats a fallback too)
                assert en[key] == fallback, (path.name, key)
            else:
                assert en[key] == fallback.replace("%", "%%"), (path.name, key)


def test_lang_format_numbers_arguments_in_first_appearance_order() -> None:
    assert lang_format("{voter}: {target} {voter} 50%") == "%1$s: %2$s %1$s 50%%"
    component = message_component(
        __import__("engine.effects", fromlist=["msg"]).msg("vote.reveal", target="B", voter="A")
    )
    assert [a.text for a in component.args] == ["A", "B"]  # the order of the English text, not of the call
    assert json.loads(json.dumps(load("ru_ru")))  # plain JSON
