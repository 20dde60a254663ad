"""``traitors doctor`` against the sandbox over real loopback RCON and MSMP (issue 6)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.app.cli import main
from bridge.app.doctor import (
    DoctorOptions,
    load_secrets,
    options_from_properties,
    parse_datapacks,
    read_properties,
    run_doctor,
    tls_check,
)
from bridge.app.serve import init_config
from bridge.minecraft.versions import names, version_named
from bridge.sandbox import Sandbox
from bridge.sandbox.server import SandboxThread
from engine.errors import ConfigError

PASSWORD = "doctor-rcon-Pw"
SECRET = "D0ct0rSecretD0ct0rSecretD0ct0rSecret1234"


def _props(tmp: Path, **over: str) -> Path:
    lines = {
        "enable-rcon": "true",
        "rcon.port": "25575",
        "broadcast-rcon-to-ops": "false",
        "management-server-enabled": "true",
        "management-server-host": "127.0.0.1",
        "management-server-port": "25585",
        "management-server-tls-enabled": "false",
        **over,
    }
    path = tmp / "server.properties"
    path.write_text("#Minecraft server properties\n" + "".join(f"{k}={v}\n" for k, v in lines.items()))
    path.chmod(0o600)
    return tmp


async def _doctor(sb: Sandbox, **kw: object) -> dict[str, tuple[str, str, str]]:
    opts = DoctorOptions(
        rcon_port=sb.port or 0,
        rcon_password=PASSWORD,
        msmp_url=sb.msmp_url,
        msmp_ca_file=sb.msmp_cert_file,
        msmp_secret=SECRET,
        timeout=2,
    )
    for k, v in kw.items():
        setattr(opts, k, v)
    return {c.name: (c.status, c.detail, c.fix) for c in await run_doctor(opts)}


def test_fresh_server_reports_each_problem_with_its_fix(tmp_path: Path) -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        sb.world.datapacks["file/traitors"] = False
        try:
            report = await _doctor(sb, server_dir=_props(tmp_path, **{"broadcast-rcon-to-ops": "true"}))
            assert report["rcon"][0] == "ok" and report["msmp"][0] == "ok"
            assert report["msmp-version"][:2] == ("ok", "MSMP 2.0.0 (rpc.discover; Minecraft 1.21.11, 26.1)")
            assert report["minecraft-version"][0] == "ok" and "supported as 1.21.11" in report["minecraft-version"][1]
            assert report["msmp-tls"][:2] == ("ok", "TLS (wss://) to 127.0.0.1")
            assert report["broadcast-rcon-to-ops"][0] == "FAIL"
            assert "broadcast-rcon-to-ops=false" in report["broadcast-rcon-to-ops"][2]
            for rule in ("send_command_feedback", "log_admin_commands"):
                assert report[rule][0] == "FAIL" and f"gamerule {rule} false" in report[rule][2]
            assert report["datapack"] == (
                "FAIL",
                "file/traitors is installed but not enabled",
                'run: datapack enable "file/traitors"',
            )
            assert sb.world.gamerules == {}  # nothing changed without --fix
        finally:
            await sb.stop()

    asyncio.run(main_())


@pytest.mark.parametrize("name", names())
def test_doctor_reports_the_servers_release_from_the_versions_table(name: str) -> None:
    async def main_() -> None:
        version = version_named(name)
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=SECRET, datapack=False, version=version, startup_delay=0.2)
        await sb.start()
        try:
            report = await _doctor(sb)
            assert report["msmp-version"][0] == "ok" and f"MSMP {version.msmp} " in report["msmp-version"][1]
            status, detail, _ = report["minecraft-version"]
            assert status == "ok" and f"protocol {version.protocol}) over MSMP: supported as {name}" in detail
            assert f"needs Java {version.java}" in detail
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_doctor_reads_the_release_over_rcon_without_msmp() -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, datapack=False, version=version_named("26.2"))
        await sb.start()
        try:
            report = await _doctor(sb, msmp_url=None)
            assert (
                report["minecraft-version"][0] == "ok"
                and "over RCON: supported as 26.2" in report["minecraft-version"][1]
            )
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_fix_sets_the_game_rules_through_msmp(tmp_path: Path) -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        try:
            report = await _doctor(sb, fix=True, server_dir=_props(tmp_path))
            for rule in ("send_command_feedback", "log_admin_commands"):
                assert report[rule][0] == "fixed" and "through MSMP" in report[rule][1]
                assert sb.world.gamerules[rule] == "false"
            updates = [r for r in sb.msmp.requests if r["method"] == "minecraft:gamerules/update"]
            assert len(updates) == 2
            assert not any(r.text.startswith("gamerule ") and r.text.endswith(" false") for r in sb.world.command_log)
            assert report["datapack"][0] == "ok" and report["broadcast-rcon-to-ops"][0] == "ok"
            again = await _doctor(sb, server_dir=tmp_path)
            assert not [k for k, v in again.items() if v[0] not in ("ok",)]
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_game_rules_are_read_and_set_by_their_namespaced_msmp_keys(tmp_path: Path) -> None:
    """A 1.21.11 server keys ``gamerules`` by registry id (``minecraft:send_command_feedback``)."""

    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        try:
            report = await _doctor(sb, fix=True, server_dir=_props(tmp_path))
            assert report["send_command_feedback"][0] == "fixed"
            assert not [r.text for r in sb.world.command_log if r.text.startswith("gamerule ")]  # all over MSMP
            keys = [
                r["params"]["gamerule"]["key"] for r in sb.msmp.requests if r["method"] == "minecraft:gamerules/update"
            ]
            assert keys == ["minecraft:send_command_feedback", "minecraft:log_admin_commands"]
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_fix_falls_back_to_rcon_when_msmp_refuses(tmp_path: Path) -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        sb.msmp.gamerule_updates_allowed = False
        try:
            report = await _doctor(sb, fix=True)
            status, detail, _ = report["send_command_feedback"]
            assert status == "fixed" and "MSMP refused" in detail and "over RCON" in detail
            assert sb.world.gamerules["send_command_feedback"] == "false"
            # without server.properties the broadcast setting is unknown, with what can be inferred
            status, detail, fix = report["broadcast-rcon-to-ops"]
            assert status == "unknown" and "neither RCON nor MSMP" in detail and "server.properties" in fix
        finally:
            await sb.stop()

    asyncio.run(main_())


def test_wrong_secrets_and_missing_server_are_reported_not_raised() -> None:
    async def main_() -> None:
        sb = Sandbox(PASSWORD, tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        try:
            report = await _doctor(sb, rcon_password="nope", msmp_secret="X" * 40)
            assert report["rcon"][0] == "FAIL" and "CASTLE_RCON_PASSWORD" in report["rcon"][2]
            assert report["msmp"][0] == "FAIL" and "401" in report["msmp"][1]
            assert report["datapack"][0] == "unknown"
            port, mport = sb.port, sb.msmp_port
        finally:
            await sb.stop()
        opts = DoctorOptions(
            rcon_port=port or 0,
            rcon_password=PASSWORD,
            msmp_url=f"ws://127.0.0.1:{mport}",
            msmp_secret=SECRET,
            timeout=0.3,
        )
        down = {c.name: c.status for c in await run_doctor(opts)}
        assert down["rcon"] == "FAIL" and down["msmp"] == "FAIL"

    asyncio.run(main_())


def test_tls_check() -> None:
    assert tls_check("wss://castle.example:25585").status == "ok"
    assert tls_check("ws://127.0.0.1:25585").status == "ok"
    assert tls_check("ws://localhost:25585").status == "ok"
    remote = tls_check("ws://192.0.2.7:25585")
    assert remote.status == "FAIL" and "management-server-tls-enabled=true" in remote.fix
    assert tls_check("ws://127.0.0.1:1", {"management-server-tls-enabled": "true"}).status == "warn"


def test_properties_secrets_and_datapack_parsing(tmp_path: Path) -> None:
    props = read_properties(_props(tmp_path, **{"server-ip": "", "rcon.port": "25600"}) / "server.properties")
    assert options_from_properties(props) == ("127.0.0.1", 25600, "ws://127.0.0.1:25585")
    assert options_from_properties({"management-server-enabled": "true", "management-server-port": "9"})[2] == (
        "wss://localhost:9"
    )  # TLS is on by default (docs/minecraft.md#msmp)
    assert parse_datapacks("There are 2 data pack(s) enabled: [vanilla (built-in)], [file/traitors (world)]") == [
        "vanilla",
        "file/traitors",
    ]
    secrets = tmp_path / "secrets"
    secrets.write_text("# castle\nCASTLE_RCON_PASSWORD=from-file\n")
    secrets.chmod(0o644)
    with pytest.raises(ConfigError, match=f"^{secrets}: others may read"):
        load_secrets({}, secrets)
    secrets.chmod(0o600)
    assert load_secrets({"CASTLE_MSMP_SECRET": "env-secret"}, secrets) == ("from-file", "env-secret")
    assert load_secrets({}, None) == (None, None)


@pytest.fixture
def server() -> Iterator[tuple[SandboxThread, int]]:
    """A running sandbox with MSMP (and its RCON port), stopped after the test."""
    sb = SandboxThread(PASSWORD, tick_rate=0, msmp_secret=SECRET)
    port = sb.start()
    try:
        yield sb, port
    finally:
        sb.stop()


def test_cli_doctor_reads_secrets_from_the_environment_and_never_prints_them(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    server: tuple[SandboxThread, int],
) -> None:
    sb, port = server
    monkeypatch.setenv("CASTLE_RCON_PASSWORD", PASSWORD)
    monkeypatch.setenv("CASTLE_MSMP_SECRET", SECRET)
    args = [
        "doctor",
        "--rcon",
        f"127.0.0.1:{port}",
        "--msmp",
        str(sb.sandbox.msmp_url),
        "--msmp-ca-file",
        str(sb.sandbox.msmp_cert_file),
    ]
    assert main(args) == 1  # the game rules are still on
    out = capsys.readouterr().out
    assert "FAIL     send_command_feedback" in out and "fix: traitors doctor --fix" in out
    assert main([*args, "--fix"]) == 0
    out = capsys.readouterr().out
    assert "fixed" in out and "No problems found." in out
    assert PASSWORD not in out and SECRET not in out
    bad = tmp_path / "secrets"
    bad.write_text(f"CASTLE_RCON_PASSWORD={PASSWORD}\n")
    bad.chmod(0o666)
    assert main([*args, "--secrets-file", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and PASSWORD not in err
    assert main(["doctor", "--rcon", "nonsense"]) == 2
    assert main(["doctor", "--rcon", "127.0.0.1:99999"]) == 2
    assert main(["doctor", "--timeout", "0"]) == 2
    err = capsys.readouterr().err
    assert "a port 1..65535" in err and "--timeout: 0.0" in err and "unexpected" not in err


def test_cli_doctor_takes_the_addresses_and_secrets_file_of_a_serve_config(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    server: tuple[SandboxThread, int],
) -> None:
    sb, port = server
    init_config(tmp_path)  # the shipped castle, series files and serve.toml
    secrets_file = tmp_path / "castle.secrets"
    secrets_file.write_text(f"CASTLE_RCON_PASSWORD={PASSWORD}\nCASTLE_MSMP_SECRET={SECRET}\n")
    secrets_file.chmod(0o600)
    serve = tmp_path / "serve.toml"
    text = serve.read_text().split("[msmp]")[0].replace("port = 25575", f"port = {port}")
    serve.write_text(
        f'secrets_file = "castle.secrets"\n{text}[msmp]\nurl = "{sb.sandbox.msmp_url}"\n'
        f'ca_file = "{sb.sandbox.msmp_cert_file}"\n'
    )
    monkeypatch.setattr(os, "environ", {})
    assert main(["doctor", "--config", str(serve), "--fix"]) == 0
    out = capsys.readouterr().out
    assert f"127.0.0.1:{port}" in out and "No problems found." in out
    assert PASSWORD not in out and SECRET not in out
    # the option wins; a short timeout, as nothing listens on port 1 and each retry waits twice as long
    assert main(["doctor", "--config", str(serve), "--rcon", "127.0.0.1:1", "--timeout", "1"]) == 1
    assert "cannot connect to RCON at 127.0.0.1:1:" in capsys.readouterr().out
    assert main(["doctor", "--config", str(tmp_path / "none.toml")]) == 2
    assert "none.toml" in capsys.readouterr().err
