"""``traitors doctor``: checks a server's settings over RCON and MSMP and says how to fix each problem.

What it checks (``docs/minecraft.md#rcon``, ``#msmp``, ``#player-input``; docs/operator.md explains every setting):

* RCON reachable and the password accepted;
* ``broadcast-rcon-to-ops`` is false. Neither RCON nor MSMP can read it, so it is read from
  ``server.properties`` when ``--server-dir`` is given; otherwise it is reported as unknown, with what can be
  inferred from ``send_command_feedback``;
* game rules ``send_command_feedback`` and ``log_admin_commands`` are false (read with MSMP
  ``minecraft:gamerules``; with ``--fix`` set through MSMP ``minecraft:gamerules/update``, or over RCON when the
  server refuses that);
* MSMP reachable, its secret accepted, its version (``rpc.discover``; one of the supported releases' in
  ``bridge.minecraft.versions``), and TLS (``wss://``) when the server is not on loopback;
* the server's Minecraft release (MSMP ``server/status``, else the RCON ``version`` command;
  ``bridge/loop/version.py``): supported, newer than the newest supported (a warning), or older (a FAIL);
* the castle's datapack is enabled (``datapack list enabled`` over RCON);
* ``server.properties`` is not readable by others (it holds the RCON password and the MSMP secret).

Secrets come only from the environment (``CASTLE_RCON_PASSWORD``, ``CASTLE_MSMP_SECRET``) or a secrets file
that only its owner may read (``KEY=value`` lines); never from the command line, and never printed.
"""

from __future__ import annotations

import ipaddress
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from bridge.config.files import read_secret_lines
from bridge.errors import BridgeError, MsmpAuthError, MsmpError, RconAuthError
from bridge.io.msmp import MsmpClient
from bridge.io.rcon import RconClient
from bridge.loop.version import KNOWN, UnsupportedVersion, detect_version
from bridge.minecraft.versions import SUPPORTED, names
from engine.errors import ConfigError

__all__ = [
    "Check",
    "DoctorOptions",
    "format_report",
    "load_secrets",
    "read_properties",
    "run_doctor",
]

RCON_ENV = "CASTLE_RCON_PASSWORD"
MSMP_ENV = "CASTLE_MSMP_SECRET"
FEEDBACK_RULES = ("send_command_feedback", "log_admin_commands")
DEFAULT_DATAPACK = "file/traitors"

OK, WARN, FAIL, UNKNOWN, FIXED = "ok", "warn", "FAIL", "unknown", "fixed"


@dataclass(frozen=True, slots=True)
class Check:
    """One line of the report: ``status`` is ok, warn, FAIL, unknown or fixed; ``fix`` says what to do."""

    name: str
    status: str
    detail: str
    fix: str = ""


@dataclass
class DoctorOptions:
    """What to check.

    Args:
        rcon_host, rcon_port: RCON address (``server-ip``/``rcon.port``).
        rcon_password: from ``load_secrets``; never shown.
        msmp_url: ``ws://host:port`` or ``wss://host:port``; None skips the MSMP checks.
        msmp_secret: from ``load_secrets``; never shown.
        msmp_ca_file: a PEM file to trust for ``wss://`` (the server's self-signed certificate or its CA), or
            None (the system's trust store).
        server_dir: the server's folder (for ``server.properties``), or None.
        datapack: the castle's data pack id as ``datapack list`` shows it (``file/<folder>``).
        fix: set the feedback game rules off.
        timeout: seconds per connection and per request.
    """

    rcon_host: str = "127.0.0.1"
    rcon_port: int = 25575
    rcon_password: str | None = field(default=None, repr=False)
    msmp_url: str | None = None
    msmp_secret: str | None = field(default=None, repr=False)
    msmp_ca_file: Path | None = None
    server_dir: Path | None = None
    datapack: str = DEFAULT_DATAPACK
    fix: bool = False
    timeout: float = 5.0


_PROP_RE = re.compile(r"((?:\\.|[^=:\s\\])+)\s*[=:]?\s*(.*)$")


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def read_properties(path: Path) -> dict[str, str]:
    """Parse a ``server.properties`` file (``key=value`` lines, ``#``/``!`` comments, Java ``\\`` escapes).

    Raises:
        ConfigError: the file cannot be read (the message names it).
    """
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the file ({exc.strerror})") from None
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#!":
            continue
        m = _PROP_RE.match(line)
        if m:
            out[_unescape(m.group(1))] = _unescape(m.group(2))
    return out


def load_secrets(env: Mapping[str, str], secrets_file: Path | None) -> tuple[str | None, str | None]:
    """The RCON password and MSMP secret: from ``secrets_file`` (if given) else the environment.

    Args:
        env: the environment (``os.environ``).
        secrets_file: ``KEY=value`` lines with ``CASTLE_RCON_PASSWORD`` / ``CASTLE_MSMP_SECRET``; it must not be
            readable or writable by group or others (``chmod 600``).

    Returns:
        ``(rcon_password, msmp_secret)``; None where not given.

    Raises:
        ConfigError: the file cannot be read, others may read it, or a line is not ``KEY=value``.
    """
    values = read_secret_lines(secrets_file) if secrets_file is not None else {}
    rcon = values.get(RCON_ENV, env.get(RCON_ENV))
    msmp = values.get(MSMP_ENV, env.get(MSMP_ENV))
    return rcon or None, msmp or None


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def tls_check(url: str, properties: Mapping[str, str] | None = None) -> Check:
    """MSMP TLS: ``wss://`` is fine anywhere; plain ``ws://`` only on loopback (the secret travels in clear)."""
    parsed = urlparse(url)
    host = parsed.hostname or ""
    tls_prop = (properties or {}).get("management-server-tls-enabled")
    if parsed.scheme == "wss":
        return Check("msmp-tls", OK, f"TLS (wss://) to {host}")
    if is_loopback(host):
        note = ""
        if tls_prop == "true":
            note = "; but server.properties says management-server-tls-enabled=true (use wss://)"
        return Check(
            "msmp-tls",
            WARN if note else OK,
            f"plain ws:// on loopback ({host}){note}",
            "connect with wss://" if note else "",
        )
    return Check(
        "msmp-tls",
        FAIL,
        f"plain ws:// to {host}, which is not loopback: the MSMP secret crosses the network in clear",
        "set management-server-tls-enabled=true with management-server-tls-keystore (PKCS12) and "
        "management-server-tls-keystore-password, then connect with wss://; or keep MSMP on 127.0.0.1",
    )


_PACK_RE = re.compile(r"\[([^\]\s]+)(?: \([^)]*\))?\]")


def parse_datapacks(reply: str) -> list[str]:
    """Pack ids in a ``datapack list …`` reply (``[file/traitors (world)]`` → ``file/traitors``)."""
    return _PACK_RE.findall(reply)


async def run_doctor(opts: DoctorOptions) -> list[Check]:
    """Run every check; never raises for a server problem (each becomes a FAIL line with its fix).

    Returns:
        The checks in report order.
    """
    checks: list[Check] = []
    props = _properties(opts.server_dir, checks)
    rcon = await _connect_rcon(opts, checks)
    msmp: MsmpClient | None = None
    try:
        msmp = await _connect_msmp(opts, checks)
        if opts.msmp_url is not None:
            checks.append(tls_check(opts.msmp_url, props))
        if msmp is not None:
            checks.append(_msmp_version(msmp))
        if rcon is not None or msmp is not None:
            checks.append(await _minecraft_version(rcon, msmp))
        rules = await _feedback_rules(rcon, msmp)
        checks.append(_broadcast_check(props, rules))
        for rule in FEEDBACK_RULES:
            checks.append(await _rule_check(rule, rules.get(rule), opts.fix, rcon, msmp))
        if rcon is not None:
            checks.append(await _datapack_check(rcon, opts.datapack))
        else:
            checks.append(Check("datapack", UNKNOWN, "needs RCON", "fix RCON first"))
    finally:
        if rcon is not None:
            await rcon.close()
        if msmp is not None:
            await msmp.close()
    return checks


def _properties(server_dir: Path | None, checks: list[Check]) -> dict[str, str] | None:
    """``server.properties`` of ``server_dir`` (``None`` without one), with a check of who may read it."""
    if server_dir is None:
        return None
    path = server_dir / "server.properties"
    try:
        props = read_properties(path)
        mode = path.stat().st_mode
    except (ConfigError, OSError) as exc:
        checks.append(Check("server.properties", FAIL, str(exc), "pass the folder that holds server.properties"))
        return None
    if os.name == "posix" and mode & stat.S_IROTH:
        checks.append(
            Check(
                "server.properties",
                WARN,
                f"{path} is readable by every user; it holds rcon.password and management-server-secret",
                f"chmod 640 {path}",
            )
        )
    else:
        checks.append(Check("server.properties", OK, f"read {path}"))
    return props


async def _connect_rcon(opts: DoctorOptions, checks: list[Check]) -> RconClient | None:
    """An RCON client logged in to the server, or ``None`` (with the FAIL check that says why)."""
    if not opts.rcon_password:
        checks.append(
            Check(
                "rcon",
                FAIL,
                "no RCON password given",
                f"export {RCON_ENV}=<rcon.password> or put it in a secrets file (chmod 600)",
            )
        )
        return None
    rcon = RconClient(opts.rcon_host, opts.rcon_port, opts.rcon_password, timeout=opts.timeout)
    try:
        await rcon.connect()
    except RconAuthError:
        checks.append(
            Check(
                "rcon",
                FAIL,
                f"{opts.rcon_host}:{opts.rcon_port} refused the password",
                f"set {RCON_ENV} to the server's rcon.password",
            )
        )
        return None
    except BridgeError as exc:
        checks.append(
            Check(
                "rcon",
                FAIL,
                str(exc),
                "set enable-rcon=true, rcon.port and rcon.password in "
                "server.properties, restart the server, and check the address",
            )
        )
        return None
    checks.append(Check("rcon", OK, f"logged in to {opts.rcon_host}:{opts.rcon_port}"))
    return rcon


async def _connect_msmp(opts: DoctorOptions, checks: list[Check]) -> MsmpClient | None:
    """An MSMP client connected to the server, or ``None`` (with the check that says why)."""
    if opts.msmp_url is None:
        checks.append(
            Check(
                "msmp",
                WARN,
                "no MSMP address given; MSMP checks skipped",
                "pass --msmp wss://127.0.0.1:<management-server-port> (or --server-dir)",
            )
        )
        return None
    if not opts.msmp_secret:
        checks.append(
            Check(
                "msmp",
                FAIL,
                "no MSMP secret given",
                f"export {MSMP_ENV}=<management-server-secret> or put it in a secrets file",
            )
        )
        return None
    msmp = MsmpClient(opts.msmp_url, opts.msmp_secret, timeout=opts.timeout, ca_file=opts.msmp_ca_file)
    try:
        await msmp.start()
    except MsmpAuthError:
        checks.append(
            Check(
                "msmp",
                FAIL,
                f"{opts.msmp_url} answered 401: wrong secret",
                f"set {MSMP_ENV} to the server's management-server-secret (40 characters)",
            )
        )
        return None
    except BridgeError as exc:
        checks.append(
            Check(
                "msmp",
                FAIL,
                str(exc),
                "set management-server-enabled=true, a fixed "
                "management-server-port and management-server-host, restart the server",
            )
        )
        return None
    checks.append(Check("msmp", OK, f"connected to {opts.msmp_url}"))
    return msmp


def _msmp_version(msmp: MsmpClient) -> Check:
    """MSMP ``info.version``: one a supported release reports (the versions table)."""
    version = msmp.version or "?"
    releases = [v.name for v in SUPPORTED if v.msmp == version]
    if releases:
        return Check("msmp-version", OK, f"MSMP {version} (rpc.discover; Minecraft {', '.join(releases)})")
    spoken = ", ".join(dict.fromkeys(v.msmp for v in SUPPORTED))
    return Check(
        "msmp-version",
        WARN,
        f"MSMP {version}; Castle speaks {spoken}",
        f"run one of Minecraft {', '.join(names())}, and run traitors rehearse first",
    )


async def _minecraft_version(rcon: RconClient | None, msmp: MsmpClient | None) -> Check:
    """The server's release, mapped through the versions table (``bridge/loop/version.py``)."""
    try:
        found = await detect_version(rcon, msmp)
    except UnsupportedVersion as exc:
        return Check("minecraft-version", FAIL, str(exc), f"run one of Minecraft {', '.join(names())}")
    if found.support == KNOWN:
        return Check("minecraft-version", OK, f"{found.summary}; needs Java {found.forms.java}")
    return Check(
        "minecraft-version",
        WARN,
        found.summary,
        f"run one of Minecraft {', '.join(names())}, and run traitors rehearse first",
    )


def _broadcast_check(props: Mapping[str, str] | None, rules: Mapping[str, bool | int | None]) -> Check:
    """``broadcast-rcon-to-ops``: not observable over RCON or MSMP, so read from ``server.properties``."""
    if props is None:
        inferred = (
            "send_command_feedback is false, so vanilla shows no command feedback to ops either way"
            if rules.get("send_command_feedback") is False
            else "send_command_feedback is not false, so if it is true every op player sees RCON feedback"
        )
        return Check(
            "broadcast-rcon-to-ops",
            UNKNOWN,
            "neither RCON nor MSMP can read it; " + inferred,
            "check server.properties for broadcast-rcon-to-ops=false (or pass --server-dir)",
        )
    value = props.get("broadcast-rcon-to-ops", "true")
    if value == "false":
        return Check("broadcast-rcon-to-ops", OK, "false in server.properties")
    return Check(
        "broadcast-rcon-to-ops",
        FAIL,
        f"{value} in server.properties (default true): op players see "
        "the feedback of every RCON command (e.g. who was given the Sacred Sword)",
        "set broadcast-rcon-to-ops=false in server.properties and restart the server",
    )


async def _rule_check(
    rule: str, value: bool | int | None, fix: bool, rcon: RconClient | None, msmp: MsmpClient | None
) -> Check:
    """One feedback game rule: false is fine; true is fixed with ``--fix`` or reported."""
    if value is False:
        return Check(rule, OK, "false")
    if value is None:
        return Check(rule, UNKNOWN, "could not read it over MSMP or RCON", f"run: gamerule {rule} false")
    if fix:
        return await _fix_rule(rule, rcon, msmp)
    return Check(
        rule,
        FAIL,
        f"{value}: trigger presses and RCON commands are shown to op players and logged "
        '(docs/operator.md, "Game rules")',
        f"traitors doctor --fix, or run: gamerule {rule} false",
    )


async def _feedback_rules(rcon: RconClient | None, msmp: MsmpClient | None) -> dict[str, bool | int | None]:
    """The feedback game rules, read over MSMP (typed) or else over RCON (reply text)."""
    out: dict[str, bool | int | None] = {}
    if msmp is not None:
        try:
            for entry in await msmp.call("minecraft:gamerules"):
                name = str(entry.get("key", "")).removeprefix("minecraft:")  # 1.21.11+: registry ids
                if name in FEEDBACK_RULES:
                    out[name] = entry.get("value")
        except BridgeError:
            pass
    if rcon is not None:
        for rule in FEEDBACK_RULES:
            if rule in out:
                continue
            try:
                reply = await rcon.command(f"gamerule {rule}")
            except BridgeError:
                continue
            m = re.search(r"currently set to: (\w+)", reply)
            if m:
                out[rule] = m.group(1) == "true" if m.group(1) in ("true", "false") else None
    return out


async def _fix_rule(rule: str, rcon: RconClient | None, msmp: MsmpClient | None) -> Check:
    if msmp is not None:
        try:
            key = "minecraft:" + rule  # the registry id a 1.21.11+ server keys its game rules by
            result = await msmp.call("minecraft:gamerules/update", {"gamerule": {"key": key, "value": False}})
            if isinstance(result, dict) and result.get("value") is False:
                return Check(rule, FIXED, "was true; set to false through MSMP (minecraft:gamerules/update)")
        except (MsmpError, BridgeError) as exc:
            refused = f"MSMP refused the update ({exc}); "
        else:
            refused = "MSMP did not change it; "
    else:
        refused = ""
    if rcon is not None:
        try:
            reply = await rcon.command(f"gamerule {rule} false")
            if "now set to: false" in reply:
                return Check(rule, FIXED, refused + "set to false over RCON")
        except BridgeError:
            pass
    return Check(rule, FAIL, refused + "could not set it", f"run: gamerule {rule} false")


async def _datapack_check(rcon: RconClient, pack: str) -> Check:
    try:
        enabled = parse_datapacks(await rcon.command("datapack list enabled"))
        if pack in enabled:
            return Check("datapack", OK, f"{pack} is enabled")
        available = parse_datapacks(await rcon.command("datapack list available"))
    except BridgeError as exc:
        return Check("datapack", UNKNOWN, f"could not list data packs: {exc}", "run: datapack list")
    if pack in available:
        return Check("datapack", FAIL, f"{pack} is installed but not enabled", f'run: datapack enable "{pack}"')
    return Check(
        "datapack",
        FAIL,
        f"{pack} is not installed (enabled: {', '.join(enabled) or 'none'})",
        "traitors install-datapack --world <world folder>, then /reload",
    )


def format_report(checks: list[Check]) -> str:
    """The report as text: one line per check, and a ``fix:`` line under each that needs one."""
    width = max((len(c.name) for c in checks), default=10)
    lines = []
    for c in checks:
        lines.append(f"{c.status:<8} {c.name:<{width}}  {c.detail}")
        if c.fix and c.status not in (OK, FIXED):
            lines.append(f"{'':<8} {'':<{width}}  fix: {c.fix}")
    failed = sum(c.status == FAIL for c in checks)
    lines.append(f"{failed} problem(s) to fix." if failed else "No problems found.")
    return "\n".join(lines)


def options_from_properties(props: Mapping[str, str]) -> tuple[str, int, str | None]:
    """RCON host and port and the MSMP URL that ``server.properties`` describes (``docs/minecraft.md#rcon``,
    ``#msmp``)."""
    host = props.get("server-ip") or "127.0.0.1"
    port = int(props.get("rcon.port") or 25575)
    url = None
    if props.get("management-server-enabled") == "true" and props.get("management-server-port", "0") != "0":
        scheme = "ws" if props.get("management-server-tls-enabled") == "false" else "wss"
        mhost = props.get("management-server-host") or "localhost"
        url = f"{scheme}://{mhost}:{props['management-server-port']}"
    return host, port, url
