"""The start page's "Your record" and "Tonight" on a real browser: a phone that played a seat of a finished game finds
them on its start page, axe clean at 320 px without sideways scroll, in English and German."""

from __future__ import annotations

import json

import pytest

from tests.browser import take_over_as_host
from tests.test_browser_another_host import NARROW, looked_at
from tests.test_browser_share import FINISHED_FREE_PAD

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_phone_finds_its_record_and_tonight_on_the_start_page(browser, live_server: str, locale: str) -> None:
    from playwright.sync_api import expect

    german = locale == "de-DE"
    host = browser.new_context(viewport=NARROW, locale=locale).new_page()
    host.goto(live_server + "/")
    pad = {**FINISHED_FREE_PAD, "round_count": 3}
    answer = host.request.post(live_server + "/games/import", data=json.dumps(pad),
                               headers={"Content-Type": "application/json"})
    take_over_as_host(host, answer.json()["host_url"])
    game = host.url
    phone = browser.new_context(viewport=NARROW, locale=locale).new_page()
    phone.goto(game + "/join")
    phone.get_by_role("button", name="Anne", exact=True).click()
    phone.locator("input[name='points-0']").fill("7")
    phone.locator("button.turn-end").click()
    expect(phone.locator("#table")).to_contain_text("7")
    host.goto(game)
    host.locator("input[name='points-1']").fill("1")
    host.locator("input[name='points-2']").fill("2")
    host.locator("button.turn-end").click()
    # The last round scored: the game is over, nothing more to save.
    expect(host.locator("button.turn-end")).to_have_count(0)
    phone.goto(live_server + "/")
    record = phone.locator(".record-table tbody tr")
    expect(record).to_have_count(1)
    expect(record.first).to_contain_text("Darts")
    expect(phone.locator(".tonight-standings tbody tr")).to_have_count(3)
    expect(phone.get_by_role("heading", name="Deine Bilanz" if german else "Your record")).to_be_visible()
    looked_at(phone, f"my-record-{locale}-320")
    host.context.close()
    phone.context.close()
