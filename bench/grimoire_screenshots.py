"""Screenshots of the host's grimoire and the spectator page mid-series, for ``docs/host.md`` and the README
(``docs/img/grimoire-host.png``, ``docs/img/grimoire-spectator.png``, and the grimoire on a phone,
``docs/img/grimoire-phone.png``).

A 12-contestant series runs in the sandbox with the pages up (``bridge/web/rig.py``); the host moves on to the
first round table's vote, every contestant votes and one is banished, then on to day two's vote, where half the
papers are cast, and the host writes a note on one seat. Then Debian's Chromium (headless, through chromedriver)
photographs both pages at desktop width, and the grimoire at a phone's (390 px).

Usage: python bench/grimoire_screenshots.py [--out docs/img] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from pathlib import Path
from typing import Any

from selenium.webdriver.common.by import By

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.web.headless import chromium
from bridge.web.rig import HOST, SandboxRig


async def vote(rig: SandboxRig, rng: random.Random, share: float) -> None:
    """``share`` of the voters cast a paper, each for one of three favourites."""
    ballot = rig.game.ballot
    favourites = rng.sample(list(ballot.candidates), 3)
    for voter in list(ballot.voters)[: int(len(ballot.voters) * share)]:
        target = rng.choice([c for c in favourites if c != voter])
        before = len(rig.game.log)
        await rig.press(voter, "traitors.vote", rig.game.seats()[target])
        await rig.until(lambda b=before: len(rig.game.log) > b)


def shoot(driver: Any, url: str, path: Path, wait_for: str) -> None:
    driver.get(url)
    end = time.monotonic() + 15
    while len(driver.find_elements(By.CSS_SELECTOR, wait_for)) < 12 and time.monotonic() < end:
        time.sleep(0.1)
    time.sleep(1.0)  # the clock's first tick
    driver.save_screenshot(str(path))
    print(f"wrote {path}")


async def main(out: Path, seed: int) -> None:
    rng = random.Random(seed)
    async with SandboxRig(seed=seed) as rig:
        await rig.advance_to("vote")
        await vote(rig, rng, 1.0)
        await rig.advance_to("discussion")
        await rig.advance_to("vote")
        await vote(rig, rng, 0.5)
        suspect = rig.game.present()[2]
        rig.hub.save_note(HOST, {"contestant": suspect, "text": "voted late both days; watch at breakfast"})
        out.mkdir(parents=True, exist_ok=True)
        driver = chromium(1500, 1150)
        try:
            await asyncio.to_thread(shoot, driver, rig.web.host_url(), out / "grimoire-host.png", "#table .seat")
            await asyncio.to_thread(
                shoot, driver, rig.web.base + "/spectate", out / "grimoire-spectator.png", "#table .seat"
            )
        finally:
            driver.quit()
        phone = chromium(390, 844, phone=True)
        try:
            await asyncio.to_thread(shoot, phone, rig.web.host_url(), out / "grimoire-phone.png", "#table .seat")
        finally:
            phone.quit()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "img")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.out, args.seed))
