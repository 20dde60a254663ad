"""The serve config's ``[web]`` section (``bridge/config/serve.py``): its defaults, its paths, its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.config.serve import WebConfig, serve_config_from_data
from engine.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
BASE = {
    "series": str(ROOT / "world_config" / "series" / "traitors-12.toml"),
    "contestants": ["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea"],
}


def test_no_web_section_no_pages(tmp_path: Path) -> None:
    assert serve_config_from_data(BASE, tmp_path / "serve.toml").web is None


def test_the_web_section(tmp_path: Path) -> None:
    config = serve_config_from_data({**BASE, "web": {}}, tmp_path / "serve.toml")
    assert config.web == WebConfig("127.0.0.1", 8765, None, None, 0.0, linger=120.0)
    web = {
        "bind": "0.0.0.0",
        "port": 9000,
        "tls_cert": "web.pem",
        "tls_key": "k.pem",
        "spectator_delay": 30,
        "linger": 5,
    }
    config = serve_config_from_data({**BASE, "web": web}, tmp_path / "serve.toml")
    assert config.web == WebConfig("0.0.0.0", 9000, tmp_path / "web.pem", tmp_path / "k.pem", 30.0, linger=5.0)


@pytest.mark.parametrize(
    ("web", "words"),
    [
        ({"tls_cert": "web.pem"}, "tls_cert and tls_key go together"),
        ({"port": 70000}, "web.port"),
        ({"spectator_delay": -1}, "web.spectator_delay"),
        ({"linger": -1}, "web.linger"),
        ({"colour": "red"}, "web.colour"),
    ],
)
def test_a_bad_web_section_names_the_file_and_field(tmp_path: Path, web: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match="serve.toml") as bad:
        serve_config_from_data({**BASE, "web": web}, tmp_path / "serve.toml")
    assert words in str(bad.value)


def test_a_missing_named_file_says_where_it_was_looked_for_and_every_problem(tmp_path: Path) -> None:
    """A relative castle or series path is resolved against the serve config's folder: the message gives the
    resolved path and the key that named it, and every problem of the file at once."""
    data = {"castle": "castle.toml", "series": "missing.toml", "web": {"tls_cert": "web.pem"}}
    config = tmp_path / "bad" / "pw.toml"
    with pytest.raises(ConfigError) as bad:
        serve_config_from_data(data, config)
    assert str(bad.value).splitlines() == [
        f"{tmp_path}/bad/castle.toml (castle, from {config}): cannot read the file: No such file or directory",
        f"{tmp_path}/bad/missing.toml (series, from {config}): cannot read the file: No such file or directory",
        f"{config}: web: tls_cert and tls_key go together (a certificate and its private key)",
    ]


def test_a_serve_config_is_told_from_the_other_files_by_its_keys(tmp_path: Path) -> None:
    """``serve --config`` (and doctor, rehearse, build-castle, stats) given a castle or series file says what the
    file is in one line; a serve config whose ``series`` key is misspelt is still checked as a serve config."""
    from bridge.config.kinds import SERVE_KEYS
    from bridge.config.serve import ServeModel, load_serve_config
    from bridge.config.settings import SettingsModel

    assert set(ServeModel.model_fields) - set(SettingsModel.model_fields) == SERVE_KEYS
    with pytest.raises(ConfigError) as refused:
        load_serve_config(ROOT / "world_config" / "castle.toml")
    assert str(refused.value) == (
        f"{ROOT}/world_config/castle.toml: a castle file, not a serve config: a serve config "
        f"names it (castle = ...); `traitors castle-map {ROOT}/world_config/castle.toml` draws it"
    )
    typo = tmp_path / "serve.toml"
    typo.write_text('seires = "series/traitors-12.toml"\nstore = "series.db"\n')
    with pytest.raises(ConfigError) as bad:
        load_serve_config(typo)
    assert sorted(str(bad.value).splitlines()) == [f"{typo}: seires: unknown key", f"{typo}: series: field required"]
    scalar = tmp_path / "scalar.toml"
    scalar.write_text('series = "series/traitors-12.toml"\nstore = "series.db"\nweb = 5\n')
    with pytest.raises(ConfigError) as not_a_table:
        load_serve_config(scalar)
    assert str(not_a_table.value) == f"{scalar}: web: should be a table (a [section] or {{ key = value, … }})"


@pytest.mark.parametrize("name", ["castle.example:8765", "[::1]:8765", "*", "*.castle.example", "a b", ""])
def test_a_server_name_that_could_never_match_is_refused(tmp_path: Path, name: str) -> None:
    """The page guard compares a ``Host`` header's name without its port: a name with a port, a wildcard or a
    space would refuse every page, so the config says so at once."""
    with pytest.raises(ConfigError, match=r"web\.server_names: .*without a port or wildcard"):
        serve_config_from_data({**BASE, "web": {"server_names": [name]}}, tmp_path / "serve.toml")


def test_host_names_and_addresses_are_server_names(tmp_path: Path) -> None:
    names = ["castle.example", "10.0.0.5", "[::1]", "fe80::1"]
    config = serve_config_from_data({**BASE, "web": {"server_names": names}}, tmp_path / "serve.toml")
    assert config.web is not None and config.web.server_names == tuple(names)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("postgresql://castle:hunter2@db.example:5432/records", "a password does not belong in the address"),
        ("ftp://db.example/records", "unknown kind of database 'ftp'"),
        ("sqlite:///", "'sqlite:///' names no file"),
    ],
)
def test_a_records_address_the_service_could_not_open_is_refused_by_the_check(
    tmp_path: Path, url: str, words: str
) -> None:
    """``traitors check-config`` reads the serve config through this function: an address the records database
    would refuse when the series ends is refused now, naming the key, and its password is never repeated."""
    with pytest.raises(ConfigError) as bad:
        serve_config_from_data({**BASE, "records": {"url": url}}, tmp_path / "serve.toml")
    assert f"records.url: {words}" in str(bad.value)
    assert "hunter2" not in str(bad.value)


def test_a_records_address_without_a_password_is_kept(tmp_path: Path) -> None:
    url = "postgresql://castle@db.example:5432/records"
    assert serve_config_from_data({**BASE, "records": {"url": url}}, tmp_path / "serve.toml").records.url == url


@pytest.mark.parametrize(
    ("key", "text", "words"),
    [
        ("series", (ROOT / "world_config" / "castle.toml").read_text("utf-8"), "a castle file, not a series file"),
        ("series", 'series = "s.toml"\n', "a serve config, not a series file"),
        ("castle", (ROOT / "world_config" / "series" / "traitors.toml").read_text("utf-8"), "not a castle file"),
    ],
)
def test_a_named_file_of_another_kind_is_one_line(tmp_path: Path, key: str, text: str, words: str) -> None:
    """The series or castle key naming the wrong file is told in one line saying what that file is, not by each
    key it has or lacks."""
    (tmp_path / "other.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as bad:
        serve_config_from_data({**BASE, key: "other.toml"}, tmp_path / "serve.toml")
    (line,) = str(bad.value).splitlines()
    assert f"other.toml ({key}, from " in line and words in line
