"""A blind player's hand, with the keyboard alone: focus is never lost to the page's body, and the page's standing live
regions say the reveal, a refusal (to the phones concerned) and the new standings, each once; the trick judge by
keyboard, counted key by key."""

from __future__ import annotations

import pytest

from tests.browser import PHONE
from tests.test_browser_keyboard import tab_to

pytestmark = pytest.mark.browser

# What each standing live region of the page says, as a screen reader would hear it, in order.
RECORD_SPEECH = """
window.spoken = [];
document.addEventListener("DOMContentLoaded", () => {
  for (const id of ["announce-polite", "announce-urgent", "lost-table", "waiting-taps"]) {
    const region = document.getElementById(id);
    if (!region) continue;
    new MutationObserver(() => {
      const text = region.textContent.replace(/\\s+/g, " ").trim();
      if (text) window.spoken.push([id, text]);
    }).observe(region, {childList: true, characterData: true, subtree: true});
  }
});
"""


def spoken(page) -> list[tuple[str, str]]:
    return [tuple(item) for item in page.evaluate("window.spoken")]


def times_said(page, words: str, region: str | None = None) -> int:
    return sum(words in text for where, text in spoken(page) if region is None or where == region)


def said_once(page, words: str, region: str | None = None) -> None:
    """`words` said once: waited for (a live region is given its words a moment after it is emptied, so that the
    same words are said again), then not said a second time."""
    page.wait_for_function("([words, region]) => window.spoken.some(([where, text]) =>"
                           " text.includes(words) && (!region || where === region))", arg=[words, region],
                           timeout=5000)
    page.wait_for_timeout(300)
    assert times_said(page, words, region) == 1, "\n".join(map(str, spoken(page)))


def focus_kept(pages) -> None:
    """No page has lost its focus to the body (after its swaps have settled)."""
    for name, page in pages.items():
        page.wait_for_timeout(300)
        page.wait_for_function("() => document.activeElement && document.activeElement !== document.body",
                               timeout=5000)
        assert page.evaluate("document.activeElement.closest('#main') !== null"), name


def press(page, selector: str, key: str = "Enter") -> None:
    tab_to(page, selector)
    page.keyboard.press(key)


def test_a_doubloons_hand_by_keyboard_keeps_focus_and_says_everything_once(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    host.check("#ruleset-doubloons")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.locator("form.new-game button[type=submit]").click()
    host.wait_for_selector("#table")
    phones = {}
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        context.add_init_script(RECORD_SPEECH)
        page = context.new_page()
        page.goto(host.url + "/join")
        press(page, f"button.seat-choice[value='{seat}']")
        expect(page.locator("#main").get_by_text(f"You are {name}")).to_be_visible()
        phones[name] = page
    focus_kept(phones)
    anne, ben, cara = phones["Anne"], phones["Ben"], phones["Cara"]

    # The bids, each confirmed in words; the others hear who is ready.
    for name, bid in (("Anne", 1), ("Ben", 1), ("Cara", 0)):
        press(phones[name], f".numpad.mine button[value='{bid}']")
        if name != "Cara":
            expect(phones[name].locator("#announce-polite")).to_contain_text(f"Your bid is {bid}.")
            focus_kept(phones)
    for page in phones.values():
        expect(page.get_by_role("heading", name="Your result")).to_be_visible()
    focus_kept(phones)
    assert times_said(ben, "Anne is ready: 1 of 3.") == 1
    for page in phones.values():
        # The count, then the bids, each once (Cara's bid completed them: her answer and the push say it once).
        said_once(page, "Everyone is ready: the bids show in a moment.")
        said_once(page, "The bids: ")

    # Anne's Skull King took a pirate: one key on the capture, confirmed when stored; then everyone says Done.
    press(anne, "#pirates_by_skull_king-0-more")
    expect(anne.locator("#announce-polite")).to_contain_text("Pirates taken by the Skull King: 1.")
    assert anne.evaluate("document.activeElement.id") == "pirates_by_skull_king-0-more"
    for name in ("Anne", "Ben"):
        press(phones[name], "button[name=intent][value=done]")
        focus_kept(phones)
    # Two tricks for one card: the results go back to Anne and Ben, focus on the problem, said once each.
    for page in (anne, ben):
        expect(page.locator("#card .problems", has_text="Your result clashes")).to_be_visible()
        page.wait_for_function("() => document.activeElement.closest('.problems') !== null", timeout=5000)
        said_once(page, "Your result clashes", "announce-urgent")
    assert times_said(cara, "Your result clashes") == 0, "\n".join(map(str, spoken(cara)))
    focus_kept(phones)

    # Ben won none after all; Cara says Done: the hand is scored and every phone hears the new standings, once.
    tab_to(ben, "input[name=tricks-1]:checked")
    ben.keyboard.press("ArrowLeft")
    expect(ben.locator("#table .status-list li", has_text="Ben")).to_contain_text("−10")
    focus_kept(phones)
    press(ben, "button[name=intent][value=done]")
    focus_kept(phones)
    press(cara, "button[name=intent][value=done]")
    for page in phones.values():
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()
    focus_kept(phones)
    for page in phones.values():
        said_once(page, "Leaderboard: ")
        said_once(page, "Leaderboard: Anne 50")


def test_the_trick_judge_by_keyboard_six_cards_in_few_keys(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    names = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn")
    host_context = browser.new_context(viewport=PHONE, locale="en-GB")
    host_context.add_init_script(RECORD_SPEECH)
    host = host_context.new_page()
    host.goto(live_server + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(names):
        host.fill(f"#player-{seat}", name)
    host.locator("form.new-game button[type=submit]").click()
    host.wait_for_selector("#table")
    for seat in range(len(names)):
        host.locator(f"#bidder-{seat} summary").click()
        host.locator(f"#bidder-{seat} .numpad button[value='0']").click()
        host.wait_for_function(f"() => !!document.querySelector('li.ready > #bidder-{seat}')"
                               f" || !document.querySelector('#bidder-{seat}')")
    host.get_by_role("link", name="Who wins this trick?").first.click()
    expect(host.get_by_role("heading", name="Who wins this trick?")).to_be_visible()

    presses = 0

    def key(name: str) -> None:
        nonlocal presses
        presses += 1
        host.keyboard.press(name)
        host.wait_for_timeout(60)

    def card_entered(count: int) -> None:
        expect(host.locator(".trick-cards li")).to_have_count(count)
        host.wait_for_function("() => document.activeElement.closest('[data-keypad]') !== null"
                               " || document.activeElement.matches('[data-focus-here]')", timeout=5000)

    # Into the keypad: Tab until a key has focus.
    while not host.evaluate("document.activeElement.closest('[data-keypad]') !== null"):
        key("Tab")
        assert presses < 15
    # Green 7, green 14, green 3 (Dan has none), Pirate, Mermaid, Skull King: a suit's first letter, Enter, the
    # number, Enter; a special's first letters, Enter.
    # Ben leads (Anne deals): Ben green 7, Cara green 14, Dan green 3, Eve a Pirate, Finn a Mermaid, Anne the Skull
    # King: the Mermaid takes the Skull King.
    for typed, count in (("g", None), ("7", 1), ("g", None), ("14", 2), ("g", None), ("3", 3), ("pi", 4),
                         ("m", 5), ("s", 6)):
        for letter in typed:
            key(letter)
        key("Enter")
        if count is None:
            host.wait_for_function("() => document.querySelector('.number-keys') !== null"
                                   " && document.activeElement.closest('.number-keys') !== null", timeout=5000)
            if typed == "g" and presses > 8:
                # A card played is a disabled button: no stop for the keyboard, and no link.
                expect(host.locator(".number-keys button[disabled][aria-label='Green 7']")).to_have_count(1)
        else:
            card_entered(count)
    print(f"six cards entered with {presses} key presses")
    assert presses <= 30
    verdict = "Finn wins the trick with Mermaid."
    expect(host.locator("#verdict")).to_contain_text(verdict)
    said_once(host, verdict, "announce-polite")
    # Focus stays with the trick: on what comes next (claiming it for Finn, or the next trick), not lost.
    assert host.evaluate("document.activeElement.matches('[data-focus-here]')")


def test_every_control_says_whose_it_is_and_no_two_share_a_name(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(live_server + "/games/new")
    page.fill("#player-0", "Anne")
    page.fill("#player-1", "Ben")
    # The radio of each row is named with its player, as typed.
    expect(page.get_by_role("radio", name="Anne deals first")).to_have_count(1)
    expect(page.get_by_role("radio", name="Ben deals first")).to_have_count(1)
    # The site's name is the way to the start page, not a second "Skull King" beside the judge's key.
    expect(page.get_by_role("link", name="Skull King – start page")).to_have_count(1)
    page.locator("form.new-game button[type=submit]").click()
    page.wait_for_selector("#table")
    # The join link is read as what it is, not letter by letter.
    expect(page.get_by_role("link", name="The join link of this game")).to_have_count(1)
