"""Series files, serve configs and `traitors check-config`: every shipped file loads; errors name file and key."""

from __future__ import annotations

import dataclasses
import importlib.resources
import os
import stat
from pathlib import Path

import pytest

from bridge.app.cli import main
from bridge.app.doctor import load_secrets
from bridge.app.serve import init_config
from bridge.config.castle import castle_toml, default_castle
from bridge.config.series import load_series, parse_series, shipped_series
from bridge.config.serve import load_serve_config
from bridge.config.settings import ScenarioError
from bridge.config.settings_json import settings_from_json, settings_to_json
from engine.errors import ConfigError
from engine.rulesets import RULESETS, new_game

NAMES = ["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea"]


def test_every_shipped_world_config_file_loads() -> None:
    default_castle()
    files = shipped_series()
    assert "traitors-12.toml" in files
    for name, series in files.items():
        settings = series.settings_for([f"Player{i:02d}" for i in range(1, series.contestant_count + 1)])
        new_game(settings, 1)  # the engine accepts them
        assert settings_from_json(settings_to_json(settings)) == settings, name
    classic = files["traitors-12.toml"].settings_for(NAMES)
    assert classic.traitors == 3 and classic.drunk == "possible" and classic.joker_night == 2


def test_every_registered_ruleset_ships_a_sample_series_file() -> None:
    """``docs/rulesets.md``, "A new ruleset": its sample series is ``world_config/series/<ruleset>.toml``."""
    files = shipped_series()
    for name in RULESETS:
        assert f"{name}.toml" in files, f"no sample series world_config/series/{name}.toml"
        assert files[f"{name}.toml"].ruleset == name


def _problems(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as info:
        parse_series(text, "s.toml")
    assert all(line.startswith("s.toml: ") for line in str(info.value).splitlines())
    return info.value.problems


def test_series_errors_name_the_key_and_what_is_wrong() -> None:
    assert _problems("contestant_count = 12\n[durations]\nvote = -5\n") == [
        "durations.vote: -5.0 must be a positive number of seconds, at most 86400 (a day)"
    ]
    (p,) = _problems('contestant_count = 12\npower_pool = ["The Sobr"]\n')
    assert p.startswith("power_pool[0]: unknown power 'The Sobr'; did you mean 'The Sober'?")
    (p,) = _problems("contestant_count = 16\n")
    assert p.startswith("power_pool: 12 Faithful powers cannot deal") and "4 short" in p
    (p,) = _problems("contestant_count = 12\n[duration]\nvote = 5\n")
    assert p == "duration: unknown key; did you mean 'durations'?"
    (p,) = _problems("contestant_count = 12\n[durations]\nvotes = 5\n")
    assert p.startswith("durations.votes: unknown phase; did you mean 'vote'?")
    assert _problems("contestant_count = 12\nseed = 4\n")[0].startswith("seed: ")
    assert _problems('ruleset = "traitor"\ncontestant_count = 12\n')[0].startswith(
        "ruleset: unknown ruleset 'traitor'; did you mean 'traitors'?"
    )
    assert _problems("traitors = 2\n") == [
        "contestant_count: field required (or name the contestants: contestants = [...])"
    ]


@pytest.mark.parametrize("ruleset", ["traitors", "black_knights", "mafia_yakuza"])
def test_a_phase_clock_longer_than_a_day_is_refused(ruleset: str) -> None:
    """The clock's seconds go to the boss bar (a 32-bit int): 99999999999 seconds is refused in one line, a day
    is kept."""
    head = f'ruleset = "{ruleset}"\ncontestant_count = 12\n[durations]\nvote = '
    assert _problems(head + "99999999999\n") == [
        "durations.vote: 99999999999.0 must be a positive number of seconds, at most 86400 (a day)"
    ]
    assert parse_series(head + "86400\n", "s.toml").settings_for(NAMES).durations["vote"] == 86400


@pytest.mark.parametrize("cast", [[], ["Alex", "Kai"], NAMES[:4]])
def test_a_cast_too_small_is_named_before_the_finalists_counted_against_it(cast: list[str]) -> None:
    """[house] rulebook §1: a series has 6-16 contestants. A cast of two is told so, not that its four
    finalists outnumber it."""
    assert _problems(f"contestants = {cast!r}\n".replace("'", '"')) == [
        f"contestants: {len(cast)} contestants; a series has 6-16 ([house] rulebook §1)"
    ]


def test_check_config_reports_every_file_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a castle with 12 seats, homes and breakfast places: the shipped one cut after seat 12 (its [built] table says so)
    shipped = default_castle()
    assert shipped.built is not None
    cut = dataclasses.replace(
        shipped,
        **{
            "seats": shipped.seats[:12],
            "homes": shipped.homes[:12],
            "breakfast": shipped.breakfast[:12],
            "built": dataclasses.replace(shipped.built, seats=12),
        },
    )
    small = tmp_path / "castle.toml"
    small.write_text(castle_toml(cut))
    big = tmp_path / "big.toml"
    big.write_text("contestant_count = 16\npowers = false\ntraitors = 4\n")
    bad = tmp_path / "bad.toml"
    bad.write_text("contestant_count = 12\n[durations]\nvote = -5\n")
    good = str(importlib.resources.files("world_config.series").joinpath("traitors-12.toml"))
    code = main(["check-config", str(small), str(big), str(bad), good])
    out, err = capsys.readouterr()
    assert code == 2
    assert f"{small}: OK (castle: 12 seats, 12 homes)" in out and f"{good}: OK (series: traitors" in out
    assert f"{bad}: durations.vote: -5.0 must be a positive number of seconds, at most 86400 (a day)" in err
    assert f"{small}: seats: 12 seats, but {big} has 16 contestants: no seat for contestant 13" in err
    assert err.splitlines() and all(line.startswith("traitors: ") for line in err.splitlines()), err
    assert main(["check-config", good]) == 0


def test_check_config_reads_a_club_series_file_as_a_series_file(capsys: pytest.CaptureFixture[str]) -> None:
    """A series file is a series file whatever its ruleset: the club rulesets' ``[deal]`` table (contestant count
    → roles) is a series setting, not a scenario's explicit deal."""
    folder = importlib.resources.files("world_config.series")
    files = [str(folder.joinpath(f"{name}.toml")) for name in ("black_knights", "mafia_yakuza")]
    assert main(["check-config", *files]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{files[0]}: OK (series: black_knights, 12 contestants)",
        f"{files[1]}: OK (series: mafia_yakuza, 12 contestants)",
    ]


def test_a_club_series_file_refuses_what_a_series_file_refuses(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_series('ruleset = "black_knights"\ncontestant_count = 8\nseed = 3\n', "bk.toml")
    assert info.value.problems == ["seed: a series is dealt from a fresh seed at start; seeds belong in scenario files"]
    with pytest.raises(ScenarioError) as info:
        parse_series('ruleset = "black_knights"\ncontestant_count = 8\n[deal]\nx = ["lord"]\n', "bk.toml")
    assert info.value.problems == ["deal.x: a key is a contestant count, e.g. deal = { 8 = [...] }"]


def _serve_files(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "series.toml").write_text('contestant_count = 12\nhosts = ["Host"]\n')
    cfg = tmp_path / "serve.toml"
    names = ", ".join(f'"{n}"' for n in NAMES)
    cfg.write_text(f'series = "series.toml"\ncontestants = [{names}]\n{extra}[rcon]\nport = 25575\n')
    return cfg


def test_serve_config_loads_relative_files_and_refuses_secrets(tmp_path: Path) -> None:
    cfg = load_serve_config(_serve_files(tmp_path))
    assert cfg.store == tmp_path / "series.db" and cfg.settings.contestants == tuple(NAMES)
    assert cfg.msmp_url is None and cfg.log_format == "json"
    with pytest.raises(ConfigError, match="secrets do not belong"):
        load_serve_config(_serve_files(tmp_path, 'rcon_password = "x"\n'))
    path = _serve_files(tmp_path)
    path.write_text(path.read_text().replace('"Rhea"', '"Rhea", "Extra"'))
    with pytest.raises(ConfigError, match="13 names were given"):
        load_serve_config(path)


def test_an_unreadable_or_non_utf8_serve_config_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"serve\.toml: cannot read the file"):
        load_serve_config(tmp_path / "serve.toml")
    bad = tmp_path / "serve.toml"
    bad.write_bytes(b'series = "s\xe9ries.toml"\n')  # Latin-1, not UTF-8
    with pytest.raises(ConfigError, match=r"serve\.toml: not UTF-8 text"):
        load_serve_config(bad)


def test_world_readable_secrets_file_is_refused_by_name(tmp_path: Path) -> None:
    f = tmp_path / "castle.secrets"
    f.write_text("CASTLE_RCON_PASSWORD=pw\n")
    os.chmod(f, 0o644)
    with pytest.raises(ConfigError, match=f"{f}: others may read"):
        load_secrets({}, f)
    os.chmod(f, stat.S_IRUSR | stat.S_IWUSR)
    assert load_secrets({}, f) == ("pw", None)


def test_check_config_refuses_a_secrets_file_others_may_read_as_serve_does(tmp_path: Path, capsys) -> None:
    secrets = tmp_path / "castle.secrets"
    secrets.write_text("CASTLE_RCON_PASSWORD=hunter2\n")
    os.chmod(secrets, 0o644)
    cfg = _serve_files(tmp_path, 'secrets_file = "castle.secrets"\n')
    serve_says = f"{secrets}: others may read this secrets file (mode 644); run chmod 600 on it"
    with pytest.raises(ConfigError, match="others may read") as refused:
        load_secrets({}, load_serve_config(cfg).secrets_file)
    assert str(refused.value) == serve_says
    assert main(["check-config", str(cfg)]) == 2
    out = capsys.readouterr()
    assert out.err == f"traitors: {serve_says}\n" and "OK" not in out.out and "hunter2" not in out.out + out.err
    os.chmod(secrets, stat.S_IRUSR | stat.S_IWUSR)
    assert main(["check-config", str(cfg)]) == 0
    assert capsys.readouterr().out.startswith(f"{cfg}: OK (serve:")
    secrets.write_text("# the RCON password\nCASTLE_RCON_PASSWORD hunter2\n")  # no "=": serve refuses it
    assert main(["check-config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert err == f"traitors: {secrets}: line 2: expected KEY=value\n" and "hunter2" not in err


def test_load_series_names_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read the file"):
        load_series(tmp_path / "missing.toml")


def test_every_package_is_in_the_wheel() -> None:
    """A non-editable install must hold every package (engine.rulesets.traitors.powers was missing: `traitors` failed to import)."""
    import tomllib

    root = Path(__file__).resolve().parents[3]
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(root).parts)
        for top in ("engine", "bridge", "world_config", "datapack")
        for p in (root / top).rglob("__init__.py")
    }
    assert found <= listed


def test_msmp_ca_file_is_read_relative_to_the_config(tmp_path: Path) -> None:
    path = _serve_files(tmp_path)
    path.write_text(path.read_text() + '[msmp]\nurl = "wss://127.0.0.1:25585"\nca_file = "msmp-ca.pem"\n')
    cfg = load_serve_config(path)
    assert cfg.msmp_url == "wss://127.0.0.1:25585" and cfg.msmp_ca_file == tmp_path / "msmp-ca.pem"
    path.write_text(path.read_text().replace('ca_file = "msmp-ca.pem"\n', ""))
    assert load_serve_config(path).msmp_ca_file is None


def test_init_config_writes_wss_by_default(tmp_path: Path) -> None:
    init_config(tmp_path)
    text = (tmp_path / "serve.toml").read_text()
    assert 'url = "wss://127.0.0.1:25585"' in text and "ws:// only" in text
    assert load_serve_config(tmp_path / "serve.toml").msmp_url == "wss://127.0.0.1:25585"
