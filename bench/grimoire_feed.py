"""The host grimoire's live feed over a whole series: engine event → host page latency (target p99 ≤ 100 ms) and
the bytes one host page receives (target: under 2 MB with 16 seats).

The demo's bot series (``bridge/app/demo.py``: the sandbox, bots answering every dialog, the clock skipping the
quiet waits) is played with the web pages up (``bridge/web``); a websocket client stands for the host page
(``/ws/host``, with the session cookie and the page's origin). Each message the hub sends carries the service clock's
``now`` taken when the engine's step came out (``bridge/web/hub.py``); latency = the moment the client has the
message minus that. Transfer = every byte of every message the page was sent, the first whole state included.

Usage: python bench/grimoire_feed.py [--contestants 16] [--seed 1] [--ruleset traitors]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import websockets

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo import play_demo
from bridge.config.serve import WebConfig
from bridge.web.app import COOKIE
from bridge.web.auth import HostKeys
from bridge.web.hub import WebHub
from bridge.web.server import serving
from engine.rulesets import DEFAULT_RULESET


async def measure(contestants: int, seed: int, ruleset: str) -> dict[str, float]:
    keys = HostKeys.one("Host")
    hub = WebHub()
    latencies: list[float] = []
    received = {"bytes": 0, "messages": 0}
    async with serving(WebConfig(port=0), keys, hub=hub) as pages:
        assert pages is not None
        url = f"ws://127.0.0.1:{pages.port}/ws/host"
        cookie = {"Cookie": f"{COOKIE}={keys.session('Host')}"}
        async with websockets.connect(
            url, origin=websockets.Origin(pages.base), max_size=None, additional_headers=cookie
        ) as ws:

            async def read() -> None:
                async for text in ws:
                    got = time.time()
                    received["bytes"] += len(text.encode() if isinstance(text, str) else text)
                    received["messages"] += 1
                    message = json.loads(text)
                    if message["type"] == "diff":
                        latencies.append(got - message["now"])

            reader = asyncio.create_task(read())
            started = time.monotonic()
            game, _, _ = await play_demo(contestants, seed, ruleset=ruleset, on_service=hub.attach)
            await asyncio.sleep(0.5)  # the last messages in flight
            reader.cancel()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return {
        "seconds": time.monotonic() - started,
        "inputs": len(game.log),
        "messages": received["messages"],
        "bytes": received["bytes"],
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": p99 * 1000,
        "max_ms": latencies[-1] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contestants", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default=DEFAULT_RULESET)
    args = parser.parse_args()
    r = asyncio.run(measure(args.contestants, args.seed, args.ruleset))
    print(f"{args.ruleset}, {args.contestants} seats, seed {args.seed}: {r['inputs']} inputs in {r['seconds']:.1f} s")
    print(f"host page: {r['messages']} messages, {r['bytes'] / 1e6:.3f} MB (target < 2 MB)")
    print(
        f"event -> page: p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms (target <= 100 ms), "
        f"max {r['max_ms']:.1f} ms"
    )


if __name__ == "__main__":
    main()
