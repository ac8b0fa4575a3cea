"""Skip-Bo and Dracula played to their end pages on phones, in Chromium."""

from __future__ import annotations

import time

import pytest

from tests.browser import PHONE, join_phones, screenshot

pytestmark = pytest.mark.browser

def test_a_skipbo_match_of_three_games_on_three_phones(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/")
    host.get_by_role("link", name="Skip-Bo match").click()
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.fill("#target", "100")
    screenshot(host, "40-skipbo-new-390")
    host.get_by_role("button", name="Start the match").click()
    expect(host.get_by_role("heading", name="Game 1")).to_be_visible()
    phones = join_phones(browser, host.url + "/join", ("Anne", "Ben", "Cara"))

    games = [("Anne", {"Ben": 4, "Cara": 7}), ("Cara", {"Anne": 2, "Ben": 9}), ("Anne", {"Ben": 1, "Cara": 2})]
    for number, (winner, left) in enumerate(games, start=1):
        for page in phones.values():
            expect(page.get_by_role("heading", name=f"Game {number}")).to_be_visible()
        phones[winner].get_by_role("button", name="I went out").click()
        for name, cards in left.items():
            page = phones[name]
            expect(page.get_by_role("heading", name=f"{winner} went out")).to_be_visible()
            seat = ("Anne", "Ben", "Cara").index(name)
            page.fill(f"#left-{seat}", str(cards))
            if number == 1 and name == "Ben":
                screenshot(page, "41-skipbo-cards-left-390")
            page.get_by_role("button", name="Save").click()
    for page in (host, *phones.values()):
        expect(page.get_by_role("heading", name="Anne wins the match!")).to_be_visible()
    expect(host.locator(".leaderboard tbody tr", has_text="Anne").locator(".total")).to_have_text("120")
    expect(host.locator(".leaderboard tbody tr", has_text="Cara").locator(".total")).to_have_text("80")
    screenshot(phones["Ben"], "42-skipbo-end-390")
    for width in (320, 390):
        phones["Ben"].set_viewport_size({"width": width, "height": PHONE["height"]})
        assert phones["Ben"].evaluate("document.documentElement.scrollWidth") <= width


EXAMPLE_1 = ["5H", "7H", "2C", "QS", "9D", "QH", "KD", "4S", "10S"]
EXAMPLE_2 = ["3D", "4D", "5D", "2C", "V", "6S", "9H", "8H", "7H"]
ENTRY_ORDER = (4, 1, 3, 5, 7, 0, 2, 6, 8)


def tap_coffin(page, cards: list[str]) -> None:
    """Nine cards as a player taps them: the centre first, each a rank then a suit (or the Vampire)."""
    for place in ENTRY_ORDER:
        card = cards[place]
        if card == "V":
            page.locator("[data-card='V']").click()
        else:
            page.locator(f"[data-rank='{card[:-1]}']").click()
            page.locator(f"[data-suit='{card[-1]}']").click()


def test_a_dracula_set_of_six_rounds_on_two_phones(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new/dracula")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.fill("#target", "300")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Set 1, round 1 of 6")).to_be_visible()
    phones = join_phones(browser, host.url + "/join", ("Anne", "Ben"))
    for number in range(1, 7):
        page = phones["Anne" if number % 2 else "Ben"]
        expect(page.get_by_role("heading", name=f"Set 1, round {number} of 6")).to_be_visible()
        before, started = page.evaluate("window.taps"), time.monotonic()
        tap_coffin(page, EXAMPLE_1 if number % 2 else EXAMPLE_2)
        expect(page.locator("#cell-8")).to_have_value(EXAMPLE_1[8] if number % 2 else EXAMPLE_2[8])
        if number == 1:
            screenshot(page, "43-dracula-coffin-390")
        page.get_by_role("button", name="Score the round").click()
        taps = page.evaluate("window.taps") - before
        print(f"round {number}: {taps} taps, {time.monotonic() - started:.1f} s in the browser")
        # Nine cards: a rank and a suit each (a Vampire is one tap), and the score button.
        assert taps <= 19
        expect(page.get_by_role("heading", name=f"Round {number}:")).to_be_visible()
        if number == 1:
            expect(page.get_by_role("heading", name="Round 1: Anne 29 · Ben 20")).to_be_visible()
            screenshot(page, "44-dracula-lines-390")
    # Six rounds: 3 × (29 + 120) = 447 to 3 × (20 + 18) = 114, the bonus 333: Anne passes 300.
    for page in (host, *phones.values()):
        expect(page.get_by_role("heading", name="Anne wins!")).to_be_visible()
    expect(host.locator(".leaderboard tbody tr", has_text="Anne").locator(".total")).to_have_text("780")
    expect(host.locator(".set-bonus")).to_contain_text("+333")
    screenshot(phones["Ben"], "45-dracula-end-390")
    for width in (320, 390):
        phones["Ben"].set_viewport_size({"width": width, "height": PHONE["height"]})
        assert phones["Ben"].evaluate("document.documentElement.scrollWidth") <= width


def test_a_game_s_styles_and_scripts_come_once_as_htmx_opens_its_pages(browser, live_server: str) -> None:
    """htmx opens a game's pages under the frame; each brings the game's styles and scripts, which the frame takes
    by a morph: one new to it loads and runs, one it has stays as it is, neither fetched nor run again."""
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    fetched: list[str] = []
    host.on("request", lambda request: fetched.append(request.url.split("?")[0].rsplit("/", 1)[-1]))
    host.goto(live_server + "/games/new/dracula")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Set 1, round 1 of 6")).to_be_visible()
    # Opened by htmx from the new game's page: the coffin's script, new to the frame, ran (once fetched: it loads
    # after the page is drawn); its style is in.
    host.wait_for_function("() => window.draculaCoffin === true", timeout=5000)
    assert host.locator("#game-assets script").count() == 1
    assert fetched.count("coffin.js") == 1 and fetched.count("coffin.css") == 1
    host.evaluate("document.querySelector('#game-assets script').keptFromTheStart = true")
    # The rules and back: the rules' own style comes and goes, the game's stay the very same elements.
    host.get_by_role("link", name="Rules").click()
    expect(host.locator("#game-assets link[href*='rules.css']")).to_have_count(1)
    host.get_by_role("link", name="Back to the game").click()
    expect(host.get_by_role("heading", name="Set 1, round 1 of 6")).to_be_visible()
    expect(host.locator("#game-assets link[href*='rules.css']")).to_have_count(0)
    assert host.evaluate("document.querySelector('#game-assets script').keptFromTheStart") is True
    assert fetched.count("coffin.js") == 1 and fetched.count("coffin.css") == 1 and fetched.count("rules.css") == 1
