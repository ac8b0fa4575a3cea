"""A rematch in Chromium: the phones waiting on the end page follow the host into the new game, no scan."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser import PHONE, screenshot, take_over_as_host

pytestmark = pytest.mark.browser


def test_every_phone_follows_the_host_into_the_rematch(browser, live_server: str, finished_pad: dict) -> None:
    from playwright.sync_api import expect

    request = urllib.request.Request(live_server + "/games/import", data=json.dumps(finished_pad).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        links = json.loads(response.read())
    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    take_over_as_host(host, links["host_url"])
    host.goto(links["url"] + "/end")
    expect(host.get_by_role("button", name="Rematch with the same table")).to_be_visible()
    phones = {}
    for name in ("Anne", "Ben"):
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        page.goto(links["url"] + "/join")
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.get_by_role("heading", name="Anne wins!")).to_be_visible()
        phones[name] = page
    host.get_by_role("button", name="Rematch with the same table").click()
    expect(host.get_by_role("heading", name="Hand 1 of 2")).to_be_visible()
    # Each phone moves on by itself to its own seat in the new game.
    for name, page in phones.items():
        expect(page.locator("#main").get_by_text(f"You are {name}")).to_be_visible()
        expect(page.get_by_role("heading", name="Hand 1 of 2")).to_be_visible()
        assert page.url == host.url
    phones["Ben"].locator(".numpad.mine button[value='0']").click()
    expect(phones["Ben"].locator("#main").get_by_text("Your bid is 0.")).to_be_visible()
    expect(host.locator("#bidders li.ready")).to_have_count(1)
    screenshot(phones["Anne"], "53-rematch-followed-390")
