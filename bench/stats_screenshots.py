"""Screenshots of the stats pages for ``docs/seasons.md`` (``docs/img/stats.png``, ``docs/img/stats-phone.png``).

A records database is filled with a season of bot series (``bridge.app.records.record_bot_series``: two castles,
three setups), the balance lab's predictions are made as ``traitors stats`` makes them, and the web app serves
the stats pages; Debian's Chromium (headless, through chromedriver) photographs the overview on a desktop and on
a 390 px phone.

Usage: python bench/stats_screenshots.py [--out docs/img] [--lab-series 300]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import tempfile
from pathlib import Path

import checkout  # noqa: F401, I001 - this checkout's engine and bridge, not an installed copy
from bridge.app.demo_settings import demo_settings
from bridge.app.records import record_bot_series
from bridge.app.stats import fill_predictions
from bridge.config.serve import WebConfig
from bridge.records.db import RecordsDb
from bridge.records.stats import lab_key
from bridge.web.headless import chromium
from bridge.web.hub import WebHub
from bridge.web.server import WebServer
from bridge.web.stats_pages import stats_routes
from engine.rulesets import RULESETS

CLUB = next(name for name, r in RULESETS.items() if r.family == "club")
"""The first club ruleset: its series fill the records beside The Traitors' (another ruleset's pages)."""


async def main(out: Path, lab_series: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = RecordsDb(str(Path(folder) / "records.db"))
        three = dataclasses.replace(demo_settings(10), traitors=3)
        plays = (
            [(demo_settings(10), seed, "north") for seed in range(1, 13)]
            + [(three, seed, "south") for seed in range(13, 21)]
            + [(demo_settings(10, CLUB), seed, "south") for seed in range(21, 27)]
        )
        record_bot_series(db, plays, season="spring")
        fill_predictions(db, lab_series, 1)
        server = WebServer(WebHub(), WebConfig(port=0), "0" * 32, extra_routes=stats_routes(db, lab_key(lab_series, 1)))
        await server.start()
        try:
            for name, width, height, phone in (("stats.png", 1280, 2200, False), ("stats-phone.png", 390, 1600, True)):
                driver = chromium(width, height, phone=phone)
                try:
                    await asyncio.to_thread(driver.get, f"{server.base}/stats?season=spring")
                    driver.save_screenshot(str(out / name))
                    print(f"wrote {out / name}")
                finally:
                    driver.quit()
        finally:
            await server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img", help="the folder to write the pictures into")
    parser.add_argument("--lab-series", type=int, default=300, help="the lab's series per setup (default 300)")
    args = parser.parse_args()
    asyncio.run(main(Path(args.out), args.lab_series))
