"""The server stops mid-hand with five phones open: every page says it lost the table, a bid tapped meanwhile waits,
and once a new server answers on the same address every page shows the newest table, nothing lost."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.browser import PHONE, host_bids, join_phones, screenshot
from tests.production import ProductionServer

pytestmark = pytest.mark.browser

NAMES = ("Anne", "Ben", "Cara", "Dan", "Eve")
LOST = "Reconnecting… the scores shown may be old."


def test_the_server_stops_mid_hand_and_every_page_finds_the_table_again(browser, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    server = ProductionServer(tmp_path, SCOREKEEPER_REVEAL_SECONDS="1")
    server.start()
    try:
        host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
        host.goto(server.base + "/games/new")
        for seat, name in enumerate((*NAMES, "Finn")):
            host.fill(f"#player-{seat}", name)
        host.get_by_role("button", name="Start the game").click()
        expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
        phones = join_phones(browser, host.url + "/join", NAMES)
        pages = (host, *phones.values())
        # Two bids are in (acknowledged), then the server goes.
        for name in ("Anne", "Ben"):
            phones[name].locator(".numpad.mine button[value='1']").click()
            expect(phones[name].locator("#main").get_by_text("Your bid is 1")).to_be_visible()
        for page in pages:
            expect(page.locator("#bidders li.ready")).to_have_count(2)

        server.stop()
        stopped = time.monotonic()
        for page in pages:
            expect(page.locator("#lost-table")).to_have_text(LOST, timeout=3_000)
        print(f"every page showed the bar {time.monotonic() - stopped:.1f} s after the server stopped")
        # The bar sits above the page: it covers no control.
        bar = phones["Cara"].locator("#lost-table").bounding_box()
        numpad = phones["Cara"].locator(".numpad.mine").bounding_box()
        assert bar is not None and numpad is not None and bar["y"] + bar["height"] <= numpad["y"]
        # Cara bids while the server is away: it waits, visibly.
        phones["Cara"].locator(".numpad.mine button[value='1']").click()
        expect(phones["Cara"].locator("#waiting-taps")).to_contain_text("Not sent yet")
        screenshot(phones["Cara"], "86-lost-the-table-390")

        server.start()
        for page in pages:
            expect(page.locator("#lost-table")).to_be_empty(timeout=15_000)
            expect(page.locator("#bidders li.ready")).to_have_count(3, timeout=15_000)
        expect(phones["Cara"].locator("#waiting-taps")).to_be_empty()
        expect(phones["Cara"].locator("#main").get_by_text("Your bid is 1")).to_be_visible()
        # Nothing was lost: the last bids bring the reveal as ever.
        for name in ("Dan", "Eve"):
            phones[name].locator(".numpad.mine button[value='0']").click()
        host_bids(host, {5: 0})
        for page in pages:
            expect(page.locator("#table .bid-big")).to_have_count(6)
    finally:
        server.stop()


def test_phone_size_screenshot_of_the_bar(browser, tmp_path: Path) -> None:
    """The bar at 320 px, as a phone shows it: one short line above the page."""
    from playwright.sync_api import expect

    server = ProductionServer(tmp_path)
    server.start()
    try:
        page = browser.new_context(viewport={**PHONE, "width": 320}, locale="de-DE").new_page()
        page.goto(server.base + "/games/new")
        for seat, name in enumerate(("Anne", "Ben")):
            page.fill(f"#player-{seat}", name)
        page.locator("form.new-game button[type=submit]").click()
        page.wait_for_selector("#table")
        server.stop()
        expect(page.locator("#lost-table")).not_to_be_empty(timeout=3_000)
        screenshot(page, "86-lost-the-table-de-320")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        server.stop()
