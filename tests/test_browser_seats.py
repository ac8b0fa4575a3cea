"""A lost phone in a real browser: the player takes a new phone, asks, the host lets it in, play goes on."""

from __future__ import annotations

import pytest

from tests.browser import PHONE, screenshot

pytestmark = pytest.mark.browser


def test_a_lost_phone_rejoins_its_seat(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(("Anne", "Ben")):
        host.fill(f"#player-{seat}", name)
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    game = host.url

    lost = browser.new_context(viewport=PHONE, locale="en-GB")
    page = lost.new_page()
    page.goto(game + "/join")
    page.get_by_role("button", name="Anne", exact=True).click()
    page.locator(".numpad.mine button[value='1']").click()
    expect(page.locator("#main").get_by_text("Your bid is 1.")).to_be_visible()
    lost.close()  # the battery is flat

    new = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    new.goto(game + "/join")
    new.get_by_role("button", name="I'm Anne on a new phone").click()
    expect(new.get_by_role("heading", name="Waiting for the host")).to_be_visible()
    code = new.locator(".request-code strong").inner_text()
    screenshot(new, "35-waiting-for-the-host-390")
    # The host's screen shows the request at the top, pushed live, with one tap to answer.
    expect(host.get_by_role("heading", name="Anne asks to play on a new phone")).to_be_visible()
    screenshot(host, "36-host-lets-a-phone-in-390")
    host.get_by_role("button", name=f"Let in the phone showing {code}").click()
    # The new phone moves on by itself; Anne bids again there (her old bid was the old phone's).
    expect(new.locator("#main").get_by_text("You are Anne")).to_be_visible()
    assert new.url == game
    new.locator(".numpad.mine button[value='1']").click()
    host.locator("#bidder-1 summary").click()
    host.locator("#bidder-1 .numpad button[value='0']").click()
    expect(new.get_by_role("heading", name="Your result")).to_be_visible()
    new.get_by_role("button", name="Done").click()
    host.get_by_role("button", name="Score the hand").click()
    for page in (host, new):
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()
