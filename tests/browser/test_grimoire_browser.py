"""The web pages in a real browser: Debian's Chromium driven by Selenium through chromedriver, against a series
in the sandbox (``bridge/web/rig.py``; ``docs/host.md``, "The web grimoire"), at desktop width and on a phone
(390 × 844: nothing runs off the side, text of 12 px or more, tap targets of 44 px or more; the screenshots are
saved in the test's temporary folder).

Skipped, with the reason shown, where ``chromium`` or ``chromedriver`` is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import asyncio
import re
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bridge.web.headless import chromium
from bridge.web.rig import HOST, SandboxRig

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no chromium/chromedriver: apt-get install chromium chromium-driver",
)

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
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def phone() -> Iterator[Any]:
    driver = chromium(390, 844, phone=True)
    try:
        yield driver
    finally:
        driver.quit()


FITS = """
const width = document.documentElement.clientWidth, out = [], small = [], taps = [];
for (const el of document.querySelectorAll("body *")) {
  const box = el.getBoundingClientRect(), style = getComputedStyle(el);
  if (!box.width || !box.height || style.visibility === "hidden") continue;
  const name = el.tagName + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : "");
  let boxed = false;  // inside a box that scrolls sideways itself (a wide table): the box is what must fit
  for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
    if (["auto", "scroll"].includes(getComputedStyle(up).overflowX)) boxed = true;
  }
  if (!boxed && (box.left < -0.5 || box.right > width + 0.5)) out.push(name + " " + Math.round(box.left) + ".." + Math.round(box.right));
  const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if ((own || el.matches("input, select, textarea")) && parseFloat(style.fontSize) < 12) small.push(name + " " + style.fontSize);
  if (el.matches("button, select, input, textarea") && box.height < 44) taps.push(name + " " + Math.round(box.height));
}
return {width: width, inner: window.innerWidth, scroll: document.documentElement.scrollWidth, out: out,
        small: small, taps: taps};
"""
"""What of the page does not fit a phone: elements beyond the viewport's sides, text under 12 px, tap targets
under 44 px tall."""


def check_fits_a_phone(phone: Any, shot: Path) -> None:
    phone.save_screenshot(str(shot))
    assert shot.stat().st_size > 10_000
    fit = phone.execute_script(FITS)
    assert fit["inner"] == fit["width"] == 390, "the page is laid out at the phone's width, not zoomed out"
    assert fit["scroll"] <= 390, "nothing scrolls sideways"
    assert fit["out"] == [], "every element within the screen's width"
    assert fit["small"] == [], "text of 12 px or more"
    assert fit["taps"] == [], "tap targets 44 px tall or more"


def until(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Poll ``check`` until it returns something true; that value. An element read while the page is replaced
    (a form posted, a navigation) is stale: that look counts as "not yet"."""
    from selenium.common.exceptions import StaleElementReferenceException

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            value = check()
        except StaleElementReferenceException:
            value = None
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


def open_spectator(browser: Any, running: Running) -> None:
    from selenium.webdriver.common.by import By

    browser.get(running.rig.web.base + "/spectate")
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


def test_the_host_page_fits_a_phone(phone: Any, running: Running, tmp_path: Path) -> None:
    """A host runs the series from a phone: one column, the seats as cards that do not overlap, every control
    reachable and readable."""
    from selenium.webdriver.common.by import By

    open_host(phone, running)
    check_fits_a_phone(phone, tmp_path / "host-390.png")
    seats = [s.rect for s in phone.find_elements(By.CSS_SELECTOR, "#table .seat")]
    for i, a in enumerate(seats):
        for b in seats[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"] + 0.5
                or b["x"] + b["width"] <= a["x"] + 0.5
                or a["y"] + a["height"] <= b["y"] + 0.5
                or b["y"] + b["height"] <= a["y"] + 0.5
            )
            assert apart, "no seat card covers another"
    phone.find_element(By.CSS_SELECTOR, "[data-control=pause_clock]").click()
    until(lambda: "paused" in text(phone, "#clock"))
    phone.find_element(By.CSS_SELECTOR, "[data-control=resume_clock]").click()
    until(lambda: "paused" not in text(phone, "#clock"))


def test_the_spectator_page_fits_a_phone(phone: Any, running: Running, tmp_path: Path) -> None:
    open_spectator(phone, running)
    check_fits_a_phone(phone, tmp_path / "spectate-390.png")


def test_a_refused_press_shows_the_refusal(browser: Any, running: Running) -> None:
    """On day zero no vote is open: the console refuses "Close the vote", and the page says so with the
    console's answer instead of "sent"."""
    from selenium.webdriver.common.by import By

    open_host(browser, running)
    assert running.rig.game.phase.value == "day_zero"
    browser.find_element(By.CSS_SELECTOR, "[data-control=close_vote]").click()
    until(lambda: text(browser, "#reply"))
    assert text(browser, "#reply") == "refused: You can't do that now."
    browser.find_element(By.CSS_SELECTOR, "[data-control=pause_clock]").click()
    until(lambda: text(browser, "#reply") == "sent: pause_clock")
    browser.find_element(By.CSS_SELECTOR, "[data-control=resume_clock]").click()
    until(lambda: "paused" not in text(browser, "#clock"))


def test_the_buttons_follow_the_console_list_and_a_new_control_gets_one(browser: Any, running: Running) -> None:
    """The page's buttons are the console's (``bridge.web.hub.controls``), in its order and with its labels; a host
    control registered later (the toy bell of ``tests/test_host_control_plugin.py``) gets a button on a page opened
    then, and pressing it goes through the console into the engine."""
    from selenium.webdriver.common.by import By

    from bridge.web.hub import controls
    from engine.core.host_spec import register_host_control, unregister_host_control
    from tests.test_host_control_plugin import SPEC

    def shown() -> list[dict[str, str]]:
        return [
            {"control": b.get_attribute("data-control"), "label": b.text}
            for b in browser.find_elements(By.CSS_SELECTOR, "#controls [data-control]")
        ]

    open_host(browser, running)
    assert shown() == controls() and shown()[0] == {"control": "advance", "label": "Start the day / move on"}
    register_host_control(SPEC)
    try:
        open_host(browser, running)
        assert shown() == controls() and shown()[-1] == {"control": "ring_bell", "label": "Ring the bell"}
        browser.find_element(By.CSS_SELECTOR, "[data-control=ring_bell]").click()
        until(lambda: text(browser, "#reply") == "sent: ring_bell")
        assert running.rig.game.record.to_dict()["host_actions"][-1]["action"] == "ring_bell"
        until(lambda: "The host rings the castle's bell." in text(browser, "#events"))
    finally:
        unregister_host_control(SPEC)


def test_the_hosts_note_shows_on_the_seat_and_never_to_spectators(browser: Any, running: Running) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_host(browser, running)
    Select(browser.find_element(By.ID, "note-seat")).select_by_value("Zuri")
    box = browser.find_element(By.ID, "note-text")
    box.clear()
    box.send_keys("quiet at breakfast, watch her vote")
    browser.find_element(By.ID, "note-save").click()
    until(lambda: "quiet at breakfast" in text(browser, "#table .seat[data-name=Zuri] .note"))
    until(lambda: text(browser, "#reply") == "note saved")
    assert running.rig.hub.notes.notes == {"Zuri": "quiet at breakfast, watch her vote"}
    open_spectator(browser, running)
    until(lambda: text(browser, "#events"))
    assert "quiet at breakfast" not in browser.find_element(By.TAG_NAME, "body").text
    assert "quiet at breakfast" not in browser.page_source


def test_the_night_order_and_the_vote_history_are_on_the_page(browser: Any, running: Running) -> None:
    open_host(browser, running)
    game = running.rig.game
    sheet = text(browser, "#nightorder li")
    for name, p in game.players.items():
        if p.power is not None and p.power.value not in ("survivor", "joker"):
            assert p.power.title in sheet and name in sheet, "every power in play, with its holder"
    assert "Resolution" in sheet and "the murder" in sheet
    assert "no round table yet" in text(browser, "#votes")


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
    open_spectator(browser, running)
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


FRAME_LOADED = "return location.href !== 'about:blank' && document.readyState === 'complete'"
"""Script run in a frame: whether its navigation has ended (a refused page ends in the browser's error page)."""


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

    # A thread per connection: Chromium may open a spare connection it never sends on (a preconnect, or the
    # backup connection of a slow connect), and a one-at-a-time server would sit reading it while the page's
    # request waits behind it, and its shutdown would wait for it too.
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Framing)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{other.server_address[1]}/")
        browser.switch_to.frame(browser.find_element(By.ID, "f"))
        # the frame's navigation has ended (it left the first, empty document and is loaded): whatever the browser
        # will show there is there now, so the look below cannot come too early
        until(lambda: browser.execute_script(FRAME_LOADED))
        assert not browser.find_elements(By.CSS_SELECTOR, "#table"), (
            "the grimoire's page loaded in another page's frame"
        )
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


def test_the_vote_history_shows_every_paper_and_the_tally(browser: Any, running: Running) -> None:
    """The vote of the round table closes: the history shows each paper, the tally and the result."""
    rig = running.rig
    open_host(browser, running)
    running.run(rig.advance_to("vote"))
    present = rig.game.present()
    for voter in present:
        target = present[0] if voter != present[0] else present[1]
        running.run(rig.press(voter, "traitors.vote", rig.game.seats()[target]))
    until(lambda: f"{present[1]} → {present[0]}" in text(browser, "#votes"), timeout=20)
    history = text(browser, "#votes")
    (table,) = [e for e in rig.game.record.events if type(e).__name__ == "RoundTableRecord"]
    tally = Counter(
        t for v, t in table.rounds[0].votes.items() if t is not None for _ in range(table.rounds[0].weights.get(v, 1))
    )
    assert "tally: " + ", ".join(f"{n} {c}" for n, c in tally.most_common()) in history
    assert "banished" in history


def test_the_finished_series_has_a_timeline_to_step_through(
    browser: Any, running: Running, phone: Any, tmp_path: Path
) -> None:
    """The host ends the series: the timeline appears, starts at the deal, and the slider and the buttons step
    through the record's events to the result; it fits a phone too."""
    from selenium.webdriver.common.by import By

    rig = running.rig
    open_host(browser, running)
    running.run(rig.hub.control(HOST, {"control": "end_series"}))
    until(lambda: browser.find_element(By.ID, "timeline").is_displayed())
    steps = len(rig.hub.parts["timeline"])
    assert text(browser, "#step-title") == f"1/{steps} The deal"
    assert all(name in text(browser, "#step-lines") for name in rig.game.contestants())
    browser.find_element(By.ID, "step-on").click()
    assert text(browser, "#step-title").startswith(f"2/{steps} ")
    browser.execute_script(
        "const s = document.getElementById('scrub'); s.value = s.max;s.dispatchEvent(new Event('input'));"
    )
    assert text(browser, "#step-title") == f"{steps}/{steps} The result"
    browser.find_element(By.ID, "step-back").click()
    assert text(browser, "#step-title").startswith(f"{steps - 1}/{steps} ")
    open_host(phone, running)
    until(lambda: phone.find_element(By.ID, "timeline").is_displayed())
    check_fits_a_phone(phone, tmp_path / "host-over-390.png")
    open_spectator(phone, running)
    until(lambda: phone.find_element(By.ID, "record").is_displayed())
    check_fits_a_phone(phone, tmp_path / "spectate-over-390.png")
