"""Helpers for the sandbox's MSMP method tests: a sandbox with MSMP on loopback and a client talking to it."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bridge.io.msmp import MsmpClient
from bridge.sandbox import Sandbox

SECRET = "Sx7Qp2Lm9Vb4Nc8Zr1Tk6Hf3Jd5Wg0Ya2Ue4Io7P"


def run(body: Callable[[Sandbox, MsmpClient, list[tuple[str, Any]]], Awaitable[None]], *players: str) -> None:
    """Start a sandbox (MSMP on over ``wss://``, ``players`` online), connect a client recording every notification, run
    ``body(sandbox, client, notes)`` and stop."""

    async def main() -> None:
        sb = Sandbox("rcon-pw", tick_rate=0, msmp_secret=SECRET)
        await sb.start()
        for name in players:
            sb.world.join(name)
        notes: list[tuple[str, Any]] = []
        try:
            assert sb.msmp_url is not None
            async with MsmpClient(sb.msmp_url, SECRET, timeout=2, ca_file=sb.msmp_cert_file) as client:
                for event in (
                    "allowlist/added",
                    "allowlist/removed",
                    "operators/added",
                    "operators/removed",
                    "bans/added",
                    "bans/removed",
                    "ip_bans/added",
                    "ip_bans/removed",
                    "server/saving",
                    "server/saved",
                    "server/stopping",
                    "gamerules/updated",
                ):
                    client.on(event, lambda params, e=event: notes.append((e, params)))
                await body(sb, client, notes)
        finally:
            await sb.stop()

    asyncio.run(main())


async def settle() -> None:
    """Let notifications sent before the last reply arrive."""
    await asyncio.sleep(0.05)
