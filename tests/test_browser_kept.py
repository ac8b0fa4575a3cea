"""Table-tested in Chromium: a refused wager stays on the card and is saved with Done; a short sum offers "one more"."""

from __future__ import annotations

import pytest

from tests.browser import PHONE, join_phones, screenshot

pytestmark = pytest.mark.browser


def new_modern_game(browser, live_server: str, names: tuple[str, ...], cards: int, **toggles: bool):
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(names):
        host.fill(f"#player-{seat}", name)
    for toggle in toggles:
        host.check(f"input[name={toggle}]")
    host.get_by_role("button", name="Start the game").click()
    host.locator(".house-rule summary").click()
    host.fill("#cards", str(cards))
    host.get_by_role("button", name="Change the cards").click()
    expect(host.locator(".facts .big")).to_have_text(str(cards))
    join_url = host.locator(".join-link a").get_attribute("href")
    return host, join_phones(browser, live_server + join_url if join_url.startswith("/") else join_url, names)


def test_a_refused_wager_stays_and_is_saved_with_done(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = new_modern_game(browser, live_server, ("Anne", "Dan"), 2, rascal_wagers=True)
    for page in phones.values():
        page.locator(".numpad.mine button[value='1']").click()
    dan = phones["Dan"]
    expect(dan.get_by_role("heading", name="Your result")).to_be_visible()
    # Dan won no trick, but wagers 10 on the Rascal of Roatán: refused, in words, the wager still his.
    dan.locator("label", has=dan.locator("input[name='tricks-1'][value='0']")).click()
    dan.locator("details.more summary").click()
    dan.locator("input[name='wager-1'][value='10']").check()
    dan.get_by_role("button", name="Done").click()
    expect(dan.locator("#main").get_by_text("won no tricks, so cannot have won the Rascal of Roatán", exact=False)).to_be_visible()
    expect(dan.locator("input[name='wager-1'][value='10']")).to_be_checked()
    screenshot(dan, "72-refused-wager-kept-390")
    # He fixes his tricks and taps Done: the wager he chose is saved with it.
    dan.locator("label", has=dan.locator("input[name='tricks-1'][value='1']")).click()
    dan.get_by_role("button", name="Done").click()
    expect(dan.locator("#main").get_by_text("Your result is in: 1 trick.")).to_be_visible()
    dan.get_by_role("button", name="Change it").click()
    expect(dan.locator("input[name='wager-1'][value='10']")).to_be_checked()


def test_tricks_short_offer_one_more_and_one_tap_closes_the_hand(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = new_modern_game(browser, live_server, ("Anne", "Ben"), 3, advanced_cards=True)
    for page in phones.values():
        page.locator(".numpad.mine button[value='1']").click()
    for page in phones.values():
        expect(page.get_by_role("heading", name="Your result")).to_be_visible()
        page.get_by_role("button", name="Done").click()
    # 1 + 1 of 3: not a quarrel, a trick missing; each phone says so and offers one more right there.
    for page in phones.values():
        expect(page.locator("#main").get_by_text("1 trick is missing: the tricks won add up to less than the cards dealt.")).to_be_visible()
        expect(page.locator("#main").get_by_text("clashes")).to_have_count(0)
    screenshot(phones["Anne"], "73-a-trick-missing-390")
    phones["Ben"].get_by_role("button", name="One more trick nobody won").click()
    for page in (host, *phones.values()):
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()
