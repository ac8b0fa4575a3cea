"""A hand played with the keyboard alone: two phones join, bid, report and reach the scored pad."""

from __future__ import annotations

import pytest

from tests.browser import PHONE

pytestmark = pytest.mark.browser


def tab_to(page, selector: str, limit: int = 80) -> None:
    """Press Tab until the focused element matches `selector`, as a keyboard user would."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement !== null && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reaches {selector}")


def wait_for_focus_on_the_page(page) -> None:
    """After a swap, focus lands somewhere in the page's content, not lost on the body.

    The swap settles a moment after the new content is visible, so this waits (up to 5 s).
    """
    page.wait_for_function("() => document.getElementById('main').contains(document.activeElement)",
                           timeout=5000)


def test_a_hand_from_joining_to_the_scored_pad_with_the_keyboard_alone(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    setup = browser.new_context(viewport=PHONE, locale="en-GB")
    host = setup.new_page()
    host.goto(live_server + "/games/new")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.keyboard.press("Enter")  # submits the form, as Enter in a text field does
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    join = host.url + "/join"

    phones = {}
    for seat, (name, bid) in enumerate((("Anne", 1), ("Ben", 0))):
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        page.goto(join)
        tab_to(page, f"button.seat-choice[value='{seat}']")
        page.keyboard.press("Enter")
        expect(page.locator("#main").get_by_text(f"You are {name}")).to_be_visible()
        wait_for_focus_on_the_page(page)
        tab_to(page, f".numpad.mine button[value='{bid}']")
        page.keyboard.press("Enter")
        phones[name] = page
    for page in phones.values():
        # Both bids are in: the count runs and the bids show by themselves.
        expect(page.get_by_role("heading", name="Your result")).to_be_visible()

    anne, ben = phones["Anne"], phones["Ben"]
    # Anne's tricks are a group of radio buttons: her bid is picked; the arrow keys move it, saved as she goes.
    tab_to(anne, "input[name=tricks-0]:checked")
    anne.keyboard.press("ArrowLeft")
    expect(anne.locator(".status-list li", has_text="Anne")).to_contain_text("0 so far")
    # Ben's screen follows Anne's change before Ben reaches for his button, as his eyes would.
    expect(ben.locator(".status-list li", has_text="Anne")).to_contain_text("0 so far")
    wait_for_focus_on_the_page(anne)
    tab_to(anne, "input[name=tricks-0]:checked")
    anne.keyboard.press("ArrowRight")
    expect(anne.locator(".status-list li", has_text="Anne")).to_contain_text("1 so far")
    tab_to(ben, "button[name=intent][value=done]")
    ben.keyboard.press("Space")
    expect(ben.locator("#main").get_by_text("Your result is in")).to_be_visible()
    wait_for_focus_on_the_page(anne)
    tab_to(anne, "button[name=intent][value=done]")
    anne.keyboard.press("Enter")
    # The last result scores the hand; the next one opens on every phone.
    expect(anne.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()

    tab_to(anne, "nav.tabs a[href$='/pad']")
    anne.keyboard.press("Enter")
    expect(anne.get_by_role("heading", name="Score pad")).to_be_visible()
    first_hand = anne.locator("table.pad tbody tr").first
    expect(first_hand).to_contain_text("20")
    expect(first_hand).to_contain_text("10")
    totals = {row.locator("th").inner_text().strip(): row.locator(".total").inner_text().strip()
              for row in anne.locator(".leaderboard tbody tr").all()}
    assert totals == {"Anne": "20", "Ben": "10"}


def test_skipbo_and_dracula_with_the_keyboard_alone(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(live_server + "/games/new/skip-bo")
    page.locator("#player-0").focus()
    page.keyboard.type("Anne")
    page.keyboard.press("Tab")
    page.keyboard.type("Ben")
    tab_to(page, "#target")
    page.keyboard.press("Control+A")
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Game 1")).to_be_visible()
    wait_for_focus_on_the_page(page)
    tab_to(page, "button[name=went_out][value='0']")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Anne went out")).to_be_visible()
    wait_for_focus_on_the_page(page)
    tab_to(page, "#left-1")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Anne wins the match!")).to_be_visible()

    page.goto(live_server + "/games/new/dracula")
    page.locator("#player-0").focus()
    page.keyboard.type("Anne")
    tab_to(page, "#player-1")
    page.keyboard.type("Ben")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Set 1, round 1 of 6")).to_be_visible()
    wait_for_focus_on_the_page(page)
    tab_to(page, "#cell-0")
    for card in "5H 7H 2C QS 9D QH KD 4S 10S".split():
        page.keyboard.type(card.lower())
        page.keyboard.press("Tab")
    tab_to(page, ".coffin-form button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Round 1: Anne 29 · Ben 20")).to_be_visible()
