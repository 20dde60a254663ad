"""The sandbox serves MSMP as ``wss://`` with a certificate made at start; Castle's client trusts it as an
operator configures it, by naming the certificate as its CA file (``bridge/sandbox/tls.py``)."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import pytest
from cryptography import x509

from bridge.errors import MsmpUnavailable
from bridge.io.msmp import MsmpClient, tls_context
from bridge.sandbox import Sandbox
from bridge.sandbox.tls import self_signed
from engine.errors import ConfigError

SECRET = "Sx7Qp2Lm9Vb4Nc8Zr1Tk6Hf3Jd5Wg0Ya2Ue4Io7P"


def test_the_sandbox_serves_wss_by_default_and_a_client_trusting_its_certificate_connects() -> None:
    async def main() -> None:
        sb = Sandbox("rcon-pw", tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        sb.world.join("Alice")
        try:
            assert sb.msmp_url == f"wss://127.0.0.1:{sb.msmp_port}"
            assert sb.msmp_cert_file is not None and sb.msmp_cert_file.read_bytes().startswith(b"-----BEGIN CERT")
            async with MsmpClient(sb.msmp_url, SECRET, timeout=2, ca_file=sb.msmp_cert_file) as client:
                assert client.tls
                assert [p["name"] for p in await client.call("minecraft:players")] == ["Alice"]
        finally:
            await sb.stop()

    asyncio.run(main())


def test_a_client_that_does_not_trust_the_certificate_is_refused() -> None:
    async def main() -> None:
        sb = Sandbox("rcon-pw", tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        try:
            assert sb.msmp_url is not None
            with pytest.raises(MsmpUnavailable):
                await MsmpClient(sb.msmp_url, SECRET, timeout=0.5).start()  # the system trust store only
            with pytest.raises(MsmpUnavailable):  # plain ws:// to a TLS socket
                await MsmpClient(sb.msmp_url.replace("wss://", "ws://"), SECRET, timeout=0.5).start()
        finally:
            await sb.stop()

    asyncio.run(main())


def test_plain_ws_is_an_explicit_choice() -> None:
    async def main() -> None:
        sb = Sandbox("rcon-pw", tick_rate=0, msmp_secret=SECRET, msmp_tls=False)
        await sb.start()
        try:
            assert sb.msmp_cert_file is None and sb.msmp_url == f"ws://127.0.0.1:{sb.msmp_port}"
            async with MsmpClient(sb.msmp_url, SECRET, timeout=2) as client:
                assert not client.tls and await client.call("minecraft:players") == []
        finally:
            await sb.stop()

    asyncio.run(main())


def test_the_certificate_names_loopback_and_a_bad_ca_file_is_a_config_error(tmp_path: Path) -> None:
    cert = self_signed()
    assert isinstance(cert.server_context(), ssl.SSLContext)
    names = (
        x509.load_pem_x509_certificate(cert.cert_pem)
        .extensions.get_extension_for_class(x509.SubjectAlternativeName)
        .value
    )
    assert names.get_values_for_type(x509.DNSName) == ["localhost"]
    assert [str(ip) for ip in names.get_values_for_type(x509.IPAddress)] == ["127.0.0.1", "::1"]
    folder = tmp_path
    ca = cert.write_cert(folder / "ca.pem")
    system = ssl.create_default_context().cert_store_stats()["x509_ca"]
    assert tls_context(ca).cert_store_stats()["x509_ca"] == system + 1
    with pytest.raises(ConfigError, match="not-there.pem"):
        tls_context(folder / "not-there.pem")
    (folder / "junk.pem").write_text("not a certificate")
    with pytest.raises(ConfigError, match="junk.pem"):
        tls_context(folder / "junk.pem")
