"""The stats pages in a real browser (Debian's Chromium through chromedriver), served by the web app with a
records database of bot series: on a phone (390 px wide) nothing runs off the side of the page, the charts are
drawn, and a player's link leads to their page. Skipped, with the reason, without chromium or chromedriver."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.app.demo_settings import demo_settings
from bridge.app.records import record_bot_series
from bridge.app.stats import fill_predictions
from bridge.config.serve import WebConfig
from bridge.records.db import RecordsDb
from bridge.records.stats import lab_key
from bridge.web.headless import CHROMEDRIVER, CHROMIUM, chromium
from bridge.web.hub import WebHub
from bridge.web.server import WebServer
from bridge.web.stats_pages import stats_routes

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no chromium/chromedriver: apt-get install chromium chromium-driver",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = RecordsDb(str(tmp_path_factory.mktemp("stats") / "records.db"))
    record_bot_series(
        db,
        [(demo_settings(8), seed, "north") for seed in range(1, 7)] + [(demo_settings(8, "black_knights"), 7, "south")],
        season="spring",
    )
    fill_predictions(db, 30, 1)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    server = WebServer(WebHub(), WebConfig(port=0), "0" * 32, extra_routes=stats_routes(db, lab_key(30, 1)))
    asyncio.run_coroutine_threadsafe(server.start(), loop).result(30)
    try:
        yield server.base
    finally:
        asyncio.run_coroutine_threadsafe(server.stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    driver = chromium(390, 844, phone=True)
    try:
        yield driver
    finally:
        driver.quit()


def test_the_overview_fits_a_phone_and_draws_its_charts(phone: Any, site: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{site}/stats")
    assert phone.execute_script("return window.innerWidth") <= 390
    assert phone.execute_script("return document.documentElement.scrollWidth") <= phone.execute_script(
        "return window.innerWidth"
    )  # wide tables scroll inside their box, not the page
    charts = phone.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) >= 4 and all(c.size["width"] > 200 and c.size["height"] > 40 for c in charts)
    assert "The lab check" in phone.find_element(By.TAG_NAME, "main").text


def test_a_player_link_leads_to_the_players_page(phone: Any, site: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{site}/stats")
    link = phone.find_element(By.CSS_SELECTOR, "table a[href^='/stats/player/']")
    name = link.text
    phone.get(link.get_attribute("href"))
    assert phone.find_element(By.TAG_NAME, "h1").text == name
    assert "on the winning side" in phone.find_element(By.TAG_NAME, "main").text
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390


def test_a_series_page_shows_the_rulebooks_tables(phone: Any, site: str) -> None:
    from selenium.webdriver.common.by import By

    phone.get(f"{site}/stats/series/1")
    headings = [h.text for h in phone.find_elements(By.CSS_SELECTOR, ".record h2")]
    assert "Cast" in headings and any(h.startswith("Round table") for h in headings)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 390


def test_screenshots_can_be_taken(site: str, tmp_path: Path) -> None:
    desktop = chromium(1280, 1600)
    try:
        desktop.get(f"{site}/stats")
        path = tmp_path / "stats.png"
        desktop.save_screenshot(str(path))
        assert path.stat().st_size > 10_000
    finally:
        desktop.quit()
