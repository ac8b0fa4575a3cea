"""A hand whose trick went to the Kraken, closed from the phones alone: no host needed."""

from __future__ import annotations

import pytest

from tests.browser import PHONE, join_phones, screenshot

pytestmark = pytest.mark.browser

PLAYERS = ("Anne", "Ben", "Cara")


def test_a_kraken_hand_is_closed_from_the_phones(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=ruleset][value=modern]")
    host.check("input[name=advanced_cards]")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    join_url = host.locator(".join-link a").get_attribute("href")
    join_url = live_server + join_url if join_url.startswith("/") else join_url

    phones = join_phones(browser, join_url, PLAYERS)
    for page in phones.values():
        page.locator(".numpad.mine button[value='0']").click()
    for page in phones.values():
        expect(page.get_by_role("heading", name="Your result")).to_be_visible()

    # One card each, and the Kraken took the only trick: Ben and Cara made their zero bids.
    for name in ("Ben", "Cara"):
        phones[name].get_by_role("button", name="Done").click()
        expect(phones[name].locator("#main").get_by_text("Your result is in")).to_be_visible()
    anne = phones["Anne"]
    anne.locator(".lost-buttons").get_by_role("button", name="One more").click()
    # The count is the table's: every screen shows it.
    for page in (*phones.values(), host):
        expect(page.locator(".lost-count strong")).to_have_text("1")
    screenshot(anne, "16-kraken-from-a-phone")
    anne.get_by_role("button", name="Done").click()
    for page in (*phones.values(), host):
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()
