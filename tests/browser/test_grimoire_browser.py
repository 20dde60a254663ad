"""The web pages in a real browser: Debian's Chromium driven by Selenium through chromedriver, against a series
in the sandbox (``bridge/web/rig.py``; ``docs/host.md``, "The web grimoire").

Skipped, with the reason shown, where ``chromium`` or ``chromedriver`` is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import asyncio
import re
import shutil
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import pytest

from bridge.web.rig import SandboxRig

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                reason="no chromium/chromedriver: apt-get install chromium chromium-driver")  # fmt: skip

T = TypeVar("T")


class Running:
    """The rig on an event loop of its own thread, so that Selenium (blocking) can drive the browser meanwhile."""

    def __init__(self, rig: SandboxRig | None = None) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.rig = rig or SandboxRig(seed=7)
        self.run(self.rig.__aenter__())

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        self.run(self.rig.__aexit__(None, None, None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture(scope="module")
def running() -> Iterator[Running]:
    r = Running()
    try:
        yield r
    finally:
        r.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Poll ``check`` until it returns something true; that value."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("the page did not show it in time")


def text(browser: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    return " ".join(e.text for e in browser.find_elements(By.CSS_SELECTOR, css))


def open_host(browser: Any, running: Running) -> None:
    from selenium.webdriver.common.by import By

    browser.get(running.rig.web.host_url())
    until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#table .seat")) == 12)
    until(lambda: "live" in text(browser, "#link"))


def test_the_host_page_shows_the_twelve_seats(browser: Any, running: Running) -> None:
    from selenium.webdriver.common.by import By

    open_host(browser, running)
    assert browser.current_url.endswith("/host"), "the token leaves the address bar"
    seats = browser.find_elements(By.CSS_SELECTOR, "#table .seat")
    names = {s.get_attribute("data-name") for s in seats}
    assert names == set(running.rig.game.contestants())
    game = running.rig.game
    for seat in seats:
        p = game.players[seat.get_attribute("data-name")]
        assert p.allegiance.title in seat.text, "the host sees every allegiance"


def test_pause_shows_on_the_page_and_in_the_record(browser: Any, running: Running) -> None:
    from selenium.webdriver.common.by import By

    open_host(browser, running)
    browser.find_element(By.CSS_SELECTOR, "[data-control=pause_clock]").click()
    until(lambda: "paused" in text(browser, "#clock"))
    actions = running.rig.game.record.to_dict()["host_actions"]
    assert actions[-1]["action"] == "pause_clock" and actions[-1]["host"] == "Host"
    browser.find_element(By.CSS_SELECTOR, "[data-control=resume_clock]").click()
    until(lambda: "paused" not in text(browser, "#clock"))


def test_a_vote_cast_in_the_sandbox_arrives_on_the_page(browser: Any, running: Running) -> None:
    open_host(browser, running)
    rig = running.rig
    running.run(rig.advance_to("vote"))
    voter, target = rig.game.present()[0], rig.game.present()[2]
    running.run(rig.press(voter, "traitors.vote", rig.game.seats()[target]))
    until(lambda: f"{voter} → {target}" in text(browser, "#vote .body"))


def test_the_spectator_page_holds_no_secret_of_a_living_contestant(browser: Any, running: Running) -> None:
    from selenium.webdriver.common.by import By

    rig = running.rig
    browser.get(rig.web.base + "/spectate")
    until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#table .seat")) == 12)
    until(lambda: text(browser, "#events"))
    game = rig.game
    lines = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#table .seat, #events li, header")]
    assert lines
    for name, p in game.players.items():
        if not p.alive:
            continue
        secret = {p.allegiance.title, *(x.title for x in (p.power, p.false_power) if x is not None)}
        for line in lines:
            if re.search(rf"\b{name}\b", line):
                assert not any(word in line for word in secret), f"{name}'s hand on the spectator page: {line}"
    assert "The Drunk" not in browser.find_element(By.TAG_NAME, "body").text


def test_the_login_form_takes_the_token_and_the_address_never_does(browser: Any, running: Running) -> None:
    """A token in the address shows the login form (no grimoire, no cookie); a wrong token typed in is refused;
    the right one opens the grimoire at ``/host``, and no address the browser went through holds the token."""
    from selenium.webdriver.common.by import By

    rig = running.rig
    browser.delete_all_cookies()
    browser.get(rig.web.base + "/host?token=" + rig.token)
    assert "never goes in the address" in browser.find_element(By.TAG_NAME, "body").text
    assert not browser.get_cookies() and not browser.find_elements(By.CSS_SELECTOR, "#table")

    def log_in(token: str) -> None:
        field = browser.find_element(By.CSS_SELECTOR, "input[name=token]")
        field.send_keys(token)
        browser.find_element(By.CSS_SELECTOR, "form button").click()

    log_in("0" * 32)
    until(lambda: "A wrong token" in browser.find_element(By.TAG_NAME, "body").text)
    log_in(rig.token)
    until(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#table .seat")) == 12)
    until(lambda: "live" in text(browser, "#link"))
    assert browser.current_url == rig.web.base + "/host"
    assert all(rig.token not in c["value"] for c in browser.get_cookies())


def test_no_other_page_can_frame_the_grimoire(browser: Any, running: Running) -> None:
    """A page on another port of 127.0.0.1 frames the grimoire: the browser refuses to show it there, even with
    the host's cookie (``frame-ancestors 'none'``)."""
    import http.server

    from selenium.webdriver.common.by import By

    open_host(browser, running)  # logged in: the cookie is in the browser
    target = running.rig.web.base + "/host"

    class Framing(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            body = f'<!doctype html><iframe id="f" src="{target}" width="800" height="600"></iframe>'.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    other = http.server.HTTPServer(("127.0.0.1", 0), Framing)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{other.server_address[1]}/")
        time.sleep(1.5)
        browser.switch_to.frame(browser.find_element(By.ID, "f"))
        assert not browser.find_elements(By.CSS_SELECTOR, "#table .seat"), "the grimoire showed in another page's frame"
        browser.switch_to.default_content()
    finally:
        other.shutdown()
        other.server_close()


def test_the_page_reconnects_after_a_restart_and_shows_the_resumed_state(browser: Any, running: Running) -> None:
    """The pages' server goes away and comes back on the same address (a service restart); meanwhile the host
    paused the clock from the castle. The page reconnects by itself and shows the clock paused."""
    from bridge.config.serve import WebConfig
    from bridge.web.server import WebServer

    rig = running.rig
    open_host(browser, running)
    if rig.game.paused is not None:
        running.run(rig.press("Host", "traitors.host", 9))  # resume
        until(lambda: rig.game.paused is None)

    async def restart() -> None:
        port = rig.web.port
        await rig.web.stop()
        before = len(rig.game.log)
        await rig.press("Host", "traitors.host", 8)  # pause, from the castle's console
        await rig.until(lambda: len(rig.game.log) > before)
        rig.web = WebServer(rig.hub, WebConfig(port=port), rig.keys)
        await rig.web.start()

    running.run(restart())
    until(lambda: "live" not in text(browser, "#link") or "paused" in text(browser, "#clock"))
    until(lambda: "live" in text(browser, "#link") and "paused" in text(browser, "#clock"), timeout=20)
    assert len(rig.hub.hosts) == 1, "the old connection is gone: the page opened a new one"
