"""The sandbox's TLS: a self-signed certificate made at start, so the management socket is served as
``wss://`` like vanilla's (``management-server-tls-enabled=true`` by default; ``docs/minecraft.md#msmp``).

The operator's real server uses a PKCS12 keystore instead; a client trusts either by naming the certificate
(or the CA that signed it) as its CA file.
"""

from __future__ import annotations

import datetime
import ipaddress
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

__all__ = ["SelfSigned", "self_signed"]

VALID_DAYS = 30
"""How long a sandbox certificate is valid (it is made again at every start)."""


@dataclass(frozen=True)
class SelfSigned:
    """A certificate and its key, both PEM, for ``localhost`` / ``127.0.0.1`` / ``::1``."""

    cert_pem: bytes
    key_pem: bytes

    def server_context(self) -> ssl.SSLContext:
        """A TLS server context presenting this certificate (TLS 1.2 or later)."""
        with tempfile.TemporaryDirectory() as folder:  # ssl loads a chain only from files
            cert, key = Path(folder, "cert.pem"), Path(folder, "key.pem")
            cert.write_bytes(self.cert_pem)
            key.write_bytes(self.key_pem)
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(cert, key)
        return context

    def write_cert(self, path: Path) -> Path:
        """Write the certificate (public; a client's CA file) to ``path``; returns ``path``."""
        path.write_bytes(self.cert_pem)
        return path


def self_signed(now: datetime.datetime | None = None) -> SelfSigned:
    """A new P-256 key and a certificate for loopback that signs itself (a CA a client can trust directly).

    Args:
        now: the start of validity (default: the current UTC time, less a minute for clock skew).
    """
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Castle sandbox (not Minecraft)")])
    start = (now or datetime.datetime.now(datetime.UTC)) - datetime.timedelta(minutes=1)
    names = [
        x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
        x509.IPAddress(ipaddress.ip_address("::1")),
    ]
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(start)
        .not_valid_after(start + datetime.timedelta(days=VALID_DAYS))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                key_cert_sign=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return SelfSigned(cert.public_bytes(serialization.Encoding.PEM), key_pem)
