"""The sandbox's MSMP held to a client nobody here wrote: the npm library ``mc-server-management`` 3.2.2
(Aternos) exercises every method family over ``wss://`` (``run.mjs``), trusting the sandbox's certificate.

Runs when Node and this folder's ``node_modules`` are installed (``npm ci`` here; ``.ci/run`` does it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from bridge.sandbox.server import SandboxThread
from bridge.sandbox.uuids import offline_uuid

HERE = Path(__file__).parent
SECRET = "Sx7Qp2Lm9Vb4Nc8Zr1Tk6Hf3Jd5Wg0Ya2Ue4Io7P"


def _node() -> str:
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the mc-server-management conformance test needs them")
    if not (HERE / "node_modules" / "mc-server-management").is_dir():
        pytest.skip(f"mc-server-management is not installed: run `npm ci` in {HERE}")
    return node


def test_mc_server_management_drives_every_method_family_over_wss() -> None:
    node = _node()
    sb = SandboxThread("rcon-pw", tick_rate=0, msmp_secret=SECRET)
    sb.start()
    try:
        sb.join("Alice")
        sb.join("Bob")
        url, ca = sb.sandbox.msmp_url, sb.sandbox.msmp_cert_file
        assert url is not None and url.startswith("wss://") and ca is not None
        proc = subprocess.run(
            [node, str(HERE / "run.mjs"), url, SECRET, str(ca), offline_uuid("Bob")],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=HERE,
        )
        assert proc.returncode == 0, proc.stderr
        got = json.loads(proc.stdout)
        alice = sb.world.players["Alice"]
        assert "Bob" not in sb.world.players  # kicked by UUID
        assert alice.actionbar == {"text": "Night falls"}  # the overlay message
        assert [m.text for m in alice.chat] == ["Bob is banished."]  # translatable, rendered
    finally:
        sb.stop()
    assert got == {
        "status": {"started": True, "players": ["Alice", "Bob"], "protocol": 774},
        "registry": True,
        "allowlist": ["Alice"],
        "allowlist_cleared": [],
        "operator": {"name": "Alice", "level": 2, "bypasses": True},
        "operators_after": 0,
        "ban": {"name": "Mallory", "reason": "griefing", "source": "Management server"},
        "bans_after": 0,
        "ip_bans": ["203.0.113.7"],
        "ip_bans_after": 0,
        "difficulty": "easy",
        "difficulty_set": "hard",
        "motd": "A Minecraft Server",
        "max_players": 20,
        "gamerule_count": 59,
        "advance_time": True,
        "advance_time_updated": {"key": "minecraft:advance_time", "value": False},
        "overlay": True,
        "translated": True,
        "kicked": ["Bob"],
        "saved": True,
        "stopped": True,
    }
