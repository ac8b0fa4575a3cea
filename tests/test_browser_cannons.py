"""The cannon's load in Chromium: two phones and the host load in secret, a second YO-HO-HO, all show at once."""

from __future__ import annotations

import pytest

from tests.browser import cannonball_table, screenshot

pytestmark = pytest.mark.browser


def test_the_cannons_are_loaded_in_secret_and_fire_together(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = cannonball_table(browser, live_server)
    anne, ben = phones["Anne"], phones["Ben"]
    for phone in (anne, ben):
        phone.locator(".numpad.mine button[value='1']").click()
    host.locator("#bidder-2 summary").click()
    host.locator("#bidder-2 .numpad button[value='0']").click()

    # The bids show, then every phone loads its cannon; the others see a closed fist only.
    expect(anne.get_by_role("heading", name="Load your cannon in secret")).to_be_visible()
    screenshot(anne, "37-load-your-cannon-390")
    anne.get_by_role("button", name="Cannonball").click()
    expect(anne.locator("#main").get_by_text("Your cannon is loaded with Cannonball.")).to_be_visible()
    expect(ben.locator("#bidders li.ready")).to_have_count(1)
    assert ben.locator(".shot").count() == 0 and "Cannonball" not in ben.locator("#table").inner_text()
    screenshot(ben, "38-a-cannon-loaded-390")
    ben.get_by_role("button", name="Grapeshot").click()
    host.locator("#loader-2 summary").click()
    screenshot(host, "39-host-loads-for-a-player-390")
    host.locator("#loader-2 button.load-grapeshot").click()

    # A second YO-HO-HO, then every screen shows every load, and the phones give their results.
    for page in (anne, ben, host):
        expect(page.locator("#table .shot-cannonball")).to_have_count(1)
        expect(page.locator("#table .shot-grapeshot")).to_have_count(2)
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible()
    expect(anne.locator("#main").get_by_text("Your cannon: Cannonball")).to_be_visible()
    screenshot(anne, "39-loads-revealed-390")
    anne.set_viewport_size({"width": 320, "height": 844})
    screenshot(anne, "39-loads-revealed-320")


@pytest.mark.parametrize("language", ["de", "fr", "it", "en"])
def test_loading_a_cannon_fits_a_320_px_phone_in_every_language(browser, live_server: str, language: str) -> None:
    """Measured against the device's width: a phone widens its layout to fit a page too wide for it."""
    from playwright.sync_api import expect

    from tests.test_browser_a11y import overflowing_controls, scrolls_sideways

    host, _ = cannonball_table(browser, live_server, ("Anne", "Ben"), (), {"width": 320, "height": 740}, language)
    phone = browser.new_context(viewport={"width": 320, "height": 740}, locale=language, is_mobile=True,
                                has_touch=True).new_page()
    phone.goto(host.url + "/join")
    phone.locator("button.seat-choice[value='0']").click()
    phone.locator(".numpad.mine button[value='1']").click()
    host.locator("#bidder-1 summary").click()
    host.locator("#bidder-1 .numpad button[value='0']").click()
    expect(phone.locator(".loads.mine")).to_be_visible()
    for page in (phone, host):
        if page is host:
            host.locator("#loader-1 summary").click()
        assert not scrolls_sideways(page), page.evaluate("""() => Array.from(document.querySelectorAll('#main *'))
            .filter(e => e.getBoundingClientRect().right > 321).slice(-4)
            .map(e => e.outerHTML.slice(0, 120) + ' ' + Math.round(e.getBoundingClientRect().right))""")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
        assert overflowing_controls(page) == []
    screenshot(phone, f"39-load-your-cannon-320-{language}")
