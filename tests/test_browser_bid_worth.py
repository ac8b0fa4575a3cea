"""What a bid is worth, on a phone's bid keys at 320 px, for each Skull King ruleset and Wizard, in English and German:
the key pointed at or focused says what it scores if made and what tricks off cost at once, without a request; the
bid tapped keeps its words; the page never scrolls sideways."""

from __future__ import annotations

import json

import pytest

from tests.browser import screenshot, take_over_as_host
from tests.test_browser_a11y import scrolls_sideways

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 720}
PLAYERS = ["Anne", "Ben", "Cara"]
# Each game with bids, as a pad to start from, and what bid 1 of its first hand (one card) is worth, in English and
# German, by the rules as their texts say.
GAMES = {
    "classic": ({"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": PLAYERS, "hands": []},
                "Made: +20. Each trick off: −10.", "Geschafft: +20. Je Stich daneben: −10."),
    "doubloons": ({"format": "skull-king-pad", "version": 1, "ruleset": "doubloons", "players": PLAYERS,
                   "hands": []},
                  "Made: +20. Each trick off: −10.", "Geschafft: +20. Je Stich daneben: −10."),
    "modern": ({"format": "skull-king-pad", "version": 1, "ruleset": "modern", "players": PLAYERS, "hands": []},
               "Made: +20. Each trick off: −10.", "Geschafft: +20. Je Stich daneben: −10."),
    "rascal": ({"format": "skull-king-pad", "version": 1, "ruleset": "modern",
                "options": {"scoring": "rascal", "cannonball": True}, "players": PLAYERS, "hands": []},
               "Made: +10. One trick off: +5; more: 0. With the cannonball: +15 if made exactly, else 0.",
               "Geschafft: +10. Ein Stich daneben: +5; mehr: 0. Mit der Kanonenkugel: +15, wenn genau geschafft, "
               "sonst 0."),
    "wizard": ({"format": "wizard-pad", "version": 1, "players": PLAYERS, "options": {"bidding": "secret"},
                "rounds": []},
               "Made: +30. Each trick off: −10.", "Geschafft: +30. Je Stich daneben: −10."),
}


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_phone_s_bid_keys_say_what_each_bid_is_worth(browser, live_server: str, locale: str) -> None:
    from playwright.sync_api import expect

    german = locale == "de-DE"
    host = browser.new_context(viewport=NARROW, locale=locale).new_page()
    host.goto(live_server + "/")
    for name, (pad, english, in_german) in GAMES.items():
        answer = host.request.post(live_server + "/games/import", data=json.dumps(pad),
                                   headers={"Content-Type": "application/json"})
        assert answer.status == 201, answer.text()
        take_over_as_host(host, answer.json()["host_url"])
        game = host.url
        phone_context = browser.new_context(viewport=NARROW, locale=locale)
        phone = phone_context.new_page()
        phone.goto(game + "/join")
        phone.get_by_role("button", name="Anne", exact=True).click()
        keys = phone.locator(".numpad.mine")
        expect(keys.locator("button[value='1']")).to_be_visible()
        sent: list[str] = []
        # Anything asked of the server but the page's live stream and its icons opening on their own.
        phone.on("request", lambda request: sent.append(request.url)
                 if "/events?" not in request.url and "/static/" not in request.url else None)
        # Pointed at, then focused by keyboard: its words at once, and nothing asked of the server.
        keys.locator("button[value='1']").hover()
        expect(keys.locator(".worth")).to_have_text(in_german if german else english)
        keys.locator("button[value='0']").focus()
        expect(keys.locator(".worth")).to_have_text(keys.locator("button[value='0']").get_attribute("data-worth"))
        keys.locator("button[value='1']").focus()
        expect(keys.locator(".worth")).to_have_text(in_german if german else english)
        assert sent == [], (name, sent)
        assert not scrolls_sideways(phone), name
        screenshot(phone, f"bid-worth-{name}-{locale}-320")
        # Tapped: the bid is placed and its words stay beside the keys.
        keys.locator("button[value='1']").click()
        expect(keys.locator("button[value='1']")).to_have_attribute("aria-pressed", "true")
        phone.mouse.move(0, 0)
        expect(keys.locator(".worth")).to_have_text(in_german if german else english)
        phone_context.close()
    host.context.close()
