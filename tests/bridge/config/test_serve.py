"""The serve config's ``[web]`` section (``bridge/config/serve.py``): its defaults, its paths, its errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.config.serve import WebConfig, serve_config_from_data
from engine.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
BASE = {"series": str(ROOT / "world_config" / "series" / "traitors-12.toml"),
        "contestants": ["Alex", "Kai", "Zuri", "Steve", "Ari", "Noor", "Sunny", "Efe", "Makena", "Lena", "Omar", "Rhea"]}  # fmt: skip


def test_no_web_section_no_pages(tmp_path: Path) -> None:
    assert serve_config_from_data(BASE, tmp_path / "serve.toml").web is None


def test_the_web_section(tmp_path: Path) -> None:
    config = serve_config_from_data({**BASE, "web": {}}, tmp_path / "serve.toml")
    assert config.web == WebConfig("127.0.0.1", 8765, None, None, 0.0, linger=120.0)
    web = {"bind": "0.0.0.0", "port": 9000, "tls_cert": "web.pem", "tls_key": "k.pem", "spectator_delay": 30,
           "linger": 5}  # fmt: skip
    config = serve_config_from_data({**BASE, "web": web}, tmp_path / "serve.toml")
    assert config.web == WebConfig("0.0.0.0", 9000, tmp_path / "web.pem", tmp_path / "k.pem", 30.0, linger=5.0)


@pytest.mark.parametrize(("web", "words"), [
    ({"tls_cert": "web.pem"}, "tls_cert and tls_key go together"),
    ({"port": 70000}, "web.port"),
    ({"spectator_delay": -1}, "web.spectator_delay"),
    ({"linger": -1}, "web.linger"),
    ({"colour": "red"}, "web.colour"),
])  # fmt: skip
def test_a_bad_web_section_names_the_file_and_field(tmp_path: Path, web: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match="serve.toml") as bad:
        serve_config_from_data({**BASE, "web": web}, tmp_path / "serve.toml")
    assert words in str(bad.value)
