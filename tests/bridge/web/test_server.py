"""Serving the pages (``bridge/web/server.py``): the bind rule, the hosts' tokens, the server on a free port."""

from __future__ import annotations

import asyncio
import io
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bridge.config.serve import WebConfig
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from bridge.web.server import TOKEN_ENV, announce_pages, check_bind, host_keys, serving
from engine.errors import ConfigError


@pytest.mark.parametrize("bind", ["127.0.0.1", "localhost", "::1", "127.0.0.2"])
def test_loopback_needs_nothing(bind: str) -> None:
    check_bind(WebConfig(bind=bind))


def test_another_address_needs_tls_or_the_flag(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--insecure-bind"):
        check_bind(WebConfig(bind="0.0.0.0"))
    check_bind(WebConfig(bind="0.0.0.0"), insecure_bind=True)
    check_bind(WebConfig(bind="192.168.1.5", tls_cert=tmp_path / "c.pem", tls_key=tmp_path / "k.pem"))


def test_a_token_is_made_when_none_is_given() -> None:
    keys, again = host_keys({}, None, ["Host"]), host_keys({}, None, ["Host"])
    token = keys.tokens["Host"]
    assert keys.made == {"Host"} and len(token) == 32 and int(token, 16) >= 0 and token != again.tokens["Host"]


def test_the_token_comes_from_the_secrets_file_first(tmp_path: Path) -> None:
    file = tmp_path / "castle.secrets"
    file.write_text(f"CASTLE_RCON_PASSWORD=pw\n{TOKEN_ENV}={'a' * 32}\n")
    os.chmod(file, 0o600)
    assert host_keys({TOKEN_ENV: "b" * 32}, file, ["Host"]).tokens == {"Host": "a" * 32}
    assert host_keys({TOKEN_ENV: "b" * 32}, None, []).tokens == {"": "b" * 32}


def test_serving_on_a_free_port_and_stopping() -> None:
    out = io.StringIO()
    keys = HostKeys.one("Host")

    async def run() -> tuple[int, int]:
        async with serving(WebConfig(port=0), keys, hub=WebHub(), announce=announce_pages(out)) as pages:
            assert pages is not None
            base = pages.base

            def get(path: str) -> int:
                try:
                    return int(urllib.request.urlopen(base + path, timeout=5).status)
                except urllib.error.HTTPError as exc:
                    return exc.code

            return await asyncio.to_thread(get, "/spectate"), await asyncio.to_thread(get, "/host/login?once=x")

    assert asyncio.run(run()) == (200, 403)
    printed = out.getvalue()
    assert "/host/login?once=" in printed and f"host token: {keys.tokens['Host']}" in printed and "/spectate" in printed


def test_a_port_in_use_is_an_os_error() -> None:
    async def run() -> None:
        async with serving(WebConfig(port=0), HostKeys.one("Host")) as first:
            assert first is not None
            async with serving(WebConfig(port=first.port), HostKeys.one("Host")):
                pass

    with pytest.raises(OSError):
        asyncio.run(run())


def test_no_web_section_serves_nothing() -> None:
    async def run() -> object:
        async with serving(None, HostKeys({})) as pages:
            return pages

    assert asyncio.run(run()) is None
