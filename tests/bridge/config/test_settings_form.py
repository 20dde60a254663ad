"""Each ruleset's settings keys come from its registry entry (``Ruleset.form``): the file model holds exactly
the registered keys, the store's JSON is read and written by the entry alone, and resuming a stored series needs
no pydantic."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bridge.config.model import ConfigModel
from bridge.config.settings import ScenarioError, SettingsModel, _file_fields
from bridge.config.settings_json import settings_from_json, settings_to_json
from bridge.web.rig import NAMES, rig_settings
from engine.core.settings_form import Key, choice, plain, raw, whole
from engine.rulesets import RULESETS, register, unregister

ROOT = Path(__file__).resolve().parents[3]


def test_the_file_model_holds_every_registered_settings_key_and_no_other() -> None:
    registered = {key for spec in RULESETS.values() for key in spec.form.keys}
    assert set(SettingsModel.model_fields) - {"ruleset"} == registered


def _fields_with(extra: dict[str, Key]) -> dict[str, object]:
    """The file model's fields with a ruleset registered whose keys are the club ones and ``extra``."""
    base = RULESETS["black_knights"]
    form = dataclasses.replace(base.form, keys={**base.form.keys, **extra})
    register(dataclasses.replace(base, name="toy_keys", form=form, messages={}))
    try:
        return _file_fields(SettingsModel.__annotations__)
    finally:
        unregister("toy_keys")


def test_a_plain_settings_key_takes_its_file_field_from_its_row() -> None:
    fields = _fields_with({"toy_rounds": Key(whole, plain), "toy_mode": Key(choice("calm", "wild"), plain)})

    class Toy(ConfigModel):
        __annotations__ = {k: fields[k] for k in ("toy_rounds", "toy_mode")}

    assert Toy().toy_rounds is None and Toy().toy_mode is None  # not written: the engine's default
    assert Toy(toy_rounds=3, toy_mode="wild").model_dump() == {"toy_rounds": 3, "toy_mode": "wild"}
    with pytest.raises(ValidationError) as bad:
        Toy(toy_rounds="three", toy_mode="loud")
    assert {e["loc"][0] for e in bad.value.errors()} == {"toy_rounds", "toy_mode"}
    assert "'calm' or 'wild'" in str(bad.value)


def test_a_settings_key_of_no_plain_type_needs_its_own_field() -> None:
    with pytest.raises(TypeError, match="'toy_table' of the toy_keys ruleset needs a field"):
        _fields_with({"toy_table": Key(raw, plain)})


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_rulesets_usual_settings_pass_its_check_and_survive_json(name: str) -> None:
    spec = RULESETS[name]
    settings = rig_settings(12, name)
    assert isinstance(settings, spec.settings)
    spec.form.check(settings)
    data = json.loads(json.dumps(settings_to_json(settings)))
    assert data["ruleset"] == name
    assert list(data)[1:] == list(spec.form.keys)
    assert settings_from_json(data) == settings


@pytest.mark.parametrize(
    ("name", "key", "value", "problem"),
    [
        ("traitors", "traitors", "three", "traitors: 'three' is not a whole number"),
        ("traitors", "powers", 1, "powers: 1 is not true or false"),
        ("traitors", "power_pool", ["bartender", "wizard"], "power_pool[1]: unknown code 'wizard'"),
        ("traitors", "twists", {"first": ["double_vote"]}, "twists.first: a key is a day number"),
        ("traitors", "durations", {"vote": "long"}, "durations.vote: 'long' is not a number of seconds"),
        ("traitors", "max_days", 3, "max_days: not a setting of the traitors ruleset"),
        ("black_knights", "drunk", "none", "drunk: not a setting of the black_knights ruleset"),
        ("mafia_yakuza", "morning_news", "loud", "morning_news: 'loud' is not one of named, unnamed, dead_only"),
        ("mafia_yakuza", "deal_table", {"8": "mafia"}, "deal_table.8: 'mafia' is not a list of names"),
    ],
)
def test_bad_stored_settings_name_the_source_and_the_key(name: str, key: str, value: object, problem: str) -> None:
    data = settings_to_json(rig_settings(8, name))
    data[key] = value
    with pytest.raises(ScenarioError) as err:
        settings_from_json(data, "series.db: series 2: settings")
    assert str(err.value).startswith(f"series.db: series 2: settings: {problem}")


def test_stored_settings_of_an_unknown_ruleset_are_refused() -> None:
    with pytest.raises(ScenarioError, match="ruleset: unknown ruleset 'chess'"):
        settings_from_json({"ruleset": "chess", "contestants": list(NAMES[:8])})


def test_resuming_a_stored_series_on_the_shipped_castle_imports_no_pydantic() -> None:
    """What ``traitors serve-demo`` imports before it opens the store, the shipped castle, the store and the
    replay: pydantic's import is a third of it, and stored settings and the shipped castle were checked before."""
    script = (
        "import sys, asyncio, bridge.app.cli, bridge.app.demo, bridge.app.stored, bridge.loop.faults\n"
        "import bridge.loop.runner, bridge.loop.recovery, bridge.loop.store, bridge.config.settings_json\n"
        "from bridge.config.castle import default_castle\n"
        "default_castle()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
