"""Serving the pages (``bridge/web/server.py``): the bind rule, the host token, the server on a free port."""

from __future__ import annotations

import asyncio
import io
import os
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bridge.config.serve import WebConfig
from bridge.web.hub import WebHub
from bridge.web.server import TOKEN_ENV, announce_pages, check_bind, host_token, serving
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
    token, made = host_token({}, None)
    again, _ = host_token({}, None)
    assert made and len(token) == 32 and int(token, 16) >= 0 and token != again


def test_the_token_comes_from_the_secrets_file_first(tmp_path: Path) -> None:
    file = tmp_path / "castle.secrets"
    file.write_text(f"CASTLE_RCON_PASSWORD=pw\n{TOKEN_ENV}={'a' * 32}\n")
    os.chmod(file, 0o600)
    assert host_token({TOKEN_ENV: "b" * 32}, file) == ("a" * 32, False)
    assert host_token({TOKEN_ENV: "b" * 32}, None) == ("b" * 32, False)


def test_a_short_or_readable_token_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="too short"):
        host_token({TOKEN_ENV: "abc"}, None)
    file = tmp_path / "castle.secrets"
    file.write_text(f"{TOKEN_ENV}={'a' * 32}\n")
    os.chmod(file, 0o644)
    with pytest.raises(ConfigError, match="castle.secrets"):
        host_token({}, file)


def test_serving_on_a_free_port_and_stopping() -> None:
    out = io.StringIO()
    token = "c" * 32

    async def run() -> tuple[int, int]:
        async with serving(WebConfig(port=0), token, hub=WebHub(), announce=announce_pages(out, True)) as pages:
            assert pages is not None
            base = pages.base

            def get(path: str) -> int:
                try:
                    return int(urllib.request.urlopen(base + path, timeout=5).status)
                except urllib.error.HTTPError as exc:
                    return exc.code

            return await asyncio.to_thread(get, "/spectate"), await asyncio.to_thread(get, "/host?token=x")

    assert asyncio.run(run()) == (200, 403)
    assert f"/host?token={token}" in out.getvalue() and "/spectate" in out.getvalue()


def test_a_port_in_use_is_an_os_error() -> None:
    async def run() -> None:
        async with serving(WebConfig(port=0), "d" * 32) as first:
            assert first is not None
            async with serving(WebConfig(port=first.port), "d" * 32):
                pass

    with pytest.raises(OSError):
        asyncio.run(run())


def test_no_web_section_serves_nothing() -> None:
    async def run() -> object:
        async with serving(None, "") as pages:
            return pages

    assert asyncio.run(run()) is None
