"""Debian's Chromium, headless through chromedriver, for the browser tests and the screenshot scripts
(``tests/browser``, ``bench/stats_screenshots.py``). Selenium is a test dependency: it is imported only when a
browser is started."""

from __future__ import annotations

import shutil
from typing import Any

__all__ = ["CHROMEDRIVER", "CHROMIUM", "chromium"]

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


def chromium(width: int, height: int, *, phone: bool = False) -> Any:
    """A headless Chromium with a window of ``width`` × ``height`` pixels; ``phone``: a phone's screen of that size
    (device emulation, 2 device pixels a CSS pixel: a headless window is never narrower than 500 px).

    Raises:
        RuntimeError: chromium or chromedriver is not installed (``apt-get install chromium chromium-driver``).
    """
    if CHROMIUM is None or CHROMEDRIVER is None:
        raise RuntimeError("no chromium/chromedriver: apt-get install chromium chromium-driver")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={max(width, 500)},{height}",
    ):
        options.add_argument(arg)
    if phone:
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 2.0}}
        )
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
