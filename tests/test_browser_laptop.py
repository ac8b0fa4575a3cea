"""The host on a laptop (1280×800): the hand beside the table and the leaderboard, the join panel folded once play is on."""

from __future__ import annotations

import pytest

from tests.browser import join_phones, screenshot

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}


def test_the_host_laptop_shows_what_the_table_waits_for_above_the_fold(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    join_url = host.locator(".join-link a").get_attribute("href")
    phones = join_phones(browser, live_server + join_url if join_url.startswith("/") else join_url, ("Anne", "Ben"))
    # While phones join, the join panel is open; the table's state is beside the card, above the fold.
    expect(host.locator(".join-panel .qr")).to_be_visible()
    for locator in (host.locator("#table"), host.locator("#board")):
        box = locator.bounding_box()
        assert box["y"] < LAPTOP["height"] and box["x"] > LAPTOP["width"] / 2 - 100, box
    screenshot(host, "70-host-laptop-joining-1280")
    for phone in phones.values():
        phone.locator(".numpad.mine button[value='0']").click()
    host.locator("#bidder-2 summary").click()
    host.locator("#bidder-2 .numpad button[value='1']").click()
    expect(host.get_by_role("heading", name="The bids")).to_be_visible()
    # Play is on: the join panel folds away, one tap opens it again.
    expect(host.locator(".join-panel .qr")).to_be_hidden()
    assert host.locator("#table").bounding_box()["y"] < LAPTOP["height"]
    assert host.locator("form.results").bounding_box()["y"] < LAPTOP["height"]
    screenshot(host, "71-host-laptop-playing-1280")
    host.locator(".join-fold summary").click()
    expect(host.locator(".join-panel .qr")).to_be_visible()
