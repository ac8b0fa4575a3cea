"""Wizard in the browser: three phones and the host play rounds with bids in turn (whose turn on every screen, the
one number the last bidder may not bid, refused with its reason) and with secret bids (no screen shows a bid before
the count ends, then all show together); screenshots at 320, 390, 1280 and 1920 px."""

from __future__ import annotations

import re

import pytest

from tests.browser import join_phones, screenshot

pytestmark = pytest.mark.browser

NAMES = ("Anne", "Ben", "Cara", "Dan")
ON_PHONES = ("Anne", "Ben", "Cara")  # Dan has no phone: the host enters for him


def wizard_table(browser, live_server: str, **options: bool):
    """A new game of Wizard for four, Anne dealing first; the host (a laptop), the big screen (a TV) and a phone
    each for Anne (320 px wide), Ben and Cara."""
    from playwright.sync_api import expect

    host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
    host.goto(f"{live_server}/games/new/wizard")
    for seat, name in enumerate(NAMES):
        host.fill(f"#player-{seat}", name)
    if options.get("secret"):
        host.check("#bidding-secret")
    if options.get("no_even_bids"):
        host.check("input[name=no_even_bids]")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("#round-title")).to_have_text("Round 1 of 15")
    phones = join_phones(browser, host.url + "/join", ("Ben", "Cara"))
    small = browser.new_context(viewport={"width": 320, "height": 640}, locale="en-GB").new_page()
    small.goto(host.url + "/join")
    small.get_by_role("button", name="Anne", exact=True).click()
    expect(small.locator("#main").get_by_text("You are Anne")).to_be_visible()
    phones["Anne"] = small
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    tv.goto(host.url + "/screen")
    return host, tv, phones


def tap(page, field: str, value: int, seat: int | None = None) -> None:
    """Tap a number of the own card's pad (a phone), or of the pad for the player at `seat` (the host)."""
    form = "form.numpad.mine" if seat is None else f"form.numpad:has(input[name=seat][value='{seat}'])"
    page.locator(f"#card {form} button[name={field}][value='{value}']").click()


def test_three_phones_and_the_host_bid_in_turn_under_no_even_bids(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, tv, phones = wizard_table(browser, live_server, no_even_bids=True)
    anne, ben, cara = phones["Anne"], phones["Ben"], phones["Cara"]
    screens = [host, tv, anne, ben, cara]
    # Anne deals round 1: Ben bids first, then Cara, Dan (by the host) and Anne last.
    for page in screens:
        expect(page.locator("#now-title")).to_have_text("Ben's turn to bid")
    expect(ben.locator("#my-bid-title")).to_have_text("Your turn to bid")
    expect(cara.locator("#card")).to_contain_text("Wait for your turn: Ben bids now.")
    tap(ben, "bid", 0)
    for page in screens:
        expect(page.locator("#now-title")).to_have_text("Cara's turn to bid")
        expect(page.locator("#bidders li", has_text="Ben").locator(".bid-big")).to_have_text("0")
    tap(cara, "bid", 0)
    expect(host.locator("#card")).to_contain_text("Bid of Dan")
    tap(host, "bid", 0, seat=3)
    # Anne bids last: every screen says which number she may not bid, and her phone refuses it with the reason.
    for page in screens:
        expect(page.locator("#table")).to_contain_text(
            "Anne bids last and may not bid 1: the bids would add up to the cards dealt (no even bids).")
    expect(anne.locator("#card")).to_contain_text("You bid last: you may not bid 1")
    screenshot(anne, "90-wizard-last-bidder-320")
    tap(anne, "bid", 1)
    expect(anne.locator("#problems")).to_contain_text(
        "Round 1, Anne: you bid last and may not bid 1: the bids would then add up to 1, the cards dealt "
        "(no even bids).")
    expect(tv.locator("#bidders li", has_text="Anne").locator(".bid-big")).to_have_count(0)
    tap(anne, "bid", 0)
    for page in screens:
        expect(page.locator("#now-title")).to_have_text("Play the round, then enter your tricks")
        expect(page.locator("#table")).to_contain_text("Bids: 0 for 1 trick")
    # Tricks from each phone, and the host's for Dan: one too many is told to everyone, then put right.
    tap(anne, "tricks", 1)
    tap(ben, "tricks", 1)
    tap(cara, "tricks", 0)
    tap(host, "tricks", 0, seat=3)
    for page in screens:
        expect(page.locator("#table-problems")).to_contain_text(
            "The tricks add up to 2, but this round has 1: every trick goes to somebody.")
    tap(ben, "tricks", 0)
    for page in screens:
        expect(page.locator("#round-title")).to_have_text("Round 2 of 15")
        expect(page.locator("#now-title")).to_have_text("Cara's turn to bid")
    screenshot(ben, "91-wizard-waiting-390")
    # Round 2, dealt by Ben: Cara, Dan, Anne, then Ben.
    tap(cara, "bid", 1)
    tap(host, "bid", 0, seat=3)
    tap(anne, "bid", 0)
    expect(ben.locator("#card")).to_contain_text("You bid last: you may not bid 1")
    tap(ben, "bid", 2)
    for name, tricks in (("Anne", 0), ("Ben", 2), ("Cara", 0)):
        tap(phones[name], "tricks", tricks)
    screenshot(host, "92-wizard-host-1280")
    tap(host, "tricks", 0, seat=3)
    for page in screens:
        expect(page.locator("#round-title")).to_have_text("Round 3 of 15")
    # The pad and the leaderboard: Anne −10 + 20, Ben 20 + 40, Cara 20 − 10, Dan 20 + 20.
    expect(tv.locator(".match-pad tbody tr")).to_have_count(2)
    expect(tv.locator(".leaderboard")).to_contain_text("Ben")
    assert [tv.locator(".leaderboard tbody tr").nth(i).locator("td").nth(1).inner_text() for i in range(4)] == \
        ["60", "40", "10", "10"]
    screenshot(tv, "93-wizard-big-screen-1920")


def test_three_phones_and_the_host_bid_in_secret_and_nobody_sees_a_bid_before_the_count(browser,
                                                                                       live_server: str) -> None:
    from playwright.sync_api import expect

    host, tv, phones = wizard_table(browser, live_server, secret=True)
    anne, ben, cara = phones["Anne"], phones["Ben"], phones["Cara"]
    screens = {"host": host, "tv": tv, "Anne": anne, "Ben": ben, "Cara": cara}
    own = {"Anne": 1, "Ben": 0, "Cara": 1}
    for name, bid in own.items():
        tap(phones[name], "bid", bid)
        expect(phones[name].locator("#card")).to_contain_text(f"Your bid is {bid}.")
    for page in screens.values():
        expect(page.locator("#now-title")).to_have_text("Secret bids: 3 of 4 in")
    # Before the reveal no screen shows any bid but each phone its own, on its own card.
    for who, page in screens.items():
        assert page.locator("#table .bid-big").count() == 0, who
        assert not re.search(r"bids \d", page.locator("#table").inner_text()), who
        card = page.locator("#card").inner_text() if page.locator("#card").count() else ""
        assert (f"Your bid is {own[who]}." in card) if who in own else ("Your bid is" not in card), who
    screenshot(anne, "94-wizard-secret-320")
    host.locator("#card details", has_text="Dan").locator("summary").click()
    tap(host, "bid", 0, seat=3)
    # The count runs on every screen, then all four bids show together.
    for page in screens.values():
        expect(page.locator("#table .bid-big")).to_have_count(4)
        expect(page.locator("#bidders li", has_text="Anne").locator(".bid-big")).to_have_text("1")
        expect(page.locator("#bidders li", has_text="Dan").locator(".bid-big")).to_have_text("0")
    for name, tricks in (("Anne", 1), ("Ben", 0), ("Cara", 0)):
        tap(phones[name], "tricks", tricks)
    tap(host, "tricks", 0, seat=3)
    for page in screens.values():
        expect(page.locator("#round-title")).to_have_text("Round 2 of 15")
        expect(page.locator("#now-title")).to_have_text("Secret bids: 0 of 4 in")
    screenshot(tv, "95-wizard-secret-big-screen-1920")
