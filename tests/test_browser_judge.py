"""The trick judge in Chromium: a phone judges a trick and claims it; taps counted; keyboard, axe, 320 px."""

from __future__ import annotations

import pytest

from tests.browser import COUNT_TAPS, PHONE, host_bids, join_phones, new_classic_game, screenshot
from tests.test_browser_a11y import scrolls_sideways, violations

pytestmark = pytest.mark.browser


def start(browser, live_server: str, names: tuple[str, ...], cards: int, locale: str = "en-GB"):
    """A host page with a classic game of `names` and `cards` cards in hand 1, counting its taps."""
    from playwright.sync_api import expect

    host = new_classic_game(browser, live_server, names, COUNT_TAPS, locale)
    host.locator(".house-rule summary").click()
    host.fill("#cards", str(cards))
    host.locator(".house-rule button[type=submit]").click()
    expect(host.locator(".facts .big")).to_have_text(str(cards))
    return host


def bid_for(host, seats: range) -> None:
    host_bids(host, dict.fromkeys(seats, 1))


def test_a_phone_judges_a_trick_and_claims_it(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = start(browser, live_server, ("Anne", "Ben", "Cara"), 3)
    join_url = host.locator(".join-link a").get_attribute("href")
    phones = join_phones(browser, live_server + join_url if join_url.startswith("/") else join_url, ("Anne", "Ben"))
    anne, ben = phones["Anne"], phones["Ben"]
    for phone in (anne, ben):
        phone.locator(".numpad.mine button[value='1']").click()
    bid_for(host, range(2, 3))
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible()
    ben_card = ben.locator("#card").get_attribute("data-key")

    # Ben leads (Anne dealt): Ben's Pirate, Cara's Skull King, Anne's Mermaid.
    anne.get_by_role("link", name="Who wins this trick?").click()
    expect(anne.get_by_role("heading", name="Who wins this trick?")).to_be_visible()
    expect(anne.get_by_role("heading", name="Ben's card")).to_be_visible()
    # Each key waits for the page its tap opened, as a player's eyes do: a tap on the page before is another trick.
    for count, card in enumerate(("Pirate", "Skull King"), 1):
        anne.locator(".face-keys").get_by_role("link", name=card, exact=True).click()
        expect(anne.locator(".trick-cards li")).to_have_count(count)
    expect(anne.locator("#verdict")).to_contain_text("So far Cara wins with Skull King.")
    anne.locator(".face-keys").get_by_role("link", name="Mermaid", exact=True).click()
    expect(anne.locator("#verdict")).to_contain_text("Anne wins the trick with Mermaid.")
    expect(anne.locator("#verdict")).to_contain_text("The Mermaid takes the Skull King.")
    screenshot(anne, "60-trick-judged-390")
    anne.set_viewport_size({"width": 320, "height": PHONE["height"]})
    assert not scrolls_sideways(anne)
    screenshot(anne, "60-trick-judged-320")
    anne.set_viewport_size(PHONE)
    anne.get_by_role("button", name="This trick was mine").click()

    # Back on the hand: Anne's card has one trick and the Skull King's capture, as a draft.
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible()
    expect(anne.locator("input[name='skull_king_by_mermaid-0']")).to_be_checked()
    expect(anne.locator("input[name='tricks-0'][value='1']")).to_be_checked()
    expect(anne.get_by_role("button", name="Done")).to_be_visible()
    screenshot(anne, "61-claimed-on-the-card-390")
    # Ben's card is untouched: the same card, nothing captured.
    assert ben.locator("#card").get_attribute("data-key") == ben_card
    expect(ben.locator("input[name='skull_king_by_mermaid-1']")).not_to_be_checked()


def test_a_six_card_trick_takes_at_most_fourteen_taps(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    names = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn")
    host = start(browser, live_server, names, 2)
    bid_for(host, range(6))
    expect(host.locator("form.results")).to_be_visible()
    host.evaluate("window.taps = 0")
    host.get_by_role("link", name="Who wins this trick?").click()
    keys = host.locator(".keypad")

    played = host.locator(".trick-cards li")

    # Each key waits for the page its tap opened, as a player's eyes do: a tap on the page before is another trick.
    def suit_card(suit: str, number: int) -> None:
        before = played.count()
        keys.locator(".suit-keys").get_by_role("link", name=suit, exact=True).click()
        keys.locator(".number-keys").get_by_role("link", name=f"{suit} {number}", exact=True).click()
        expect(played).to_have_count(before + 1)

    def face(name: str) -> None:
        before = played.count()
        keys.locator(".face-keys").get_by_role("link", name=name, exact=True).click()
        expect(played).to_have_count(before + 1)

    # Ben leads: yellow 2, yellow 12, an Escape, black 1, blue 13, Scary Mary as Escape.
    suit_card("Yellow", 2)
    suit_card("Yellow", 12)
    face("Escape")
    suit_card("Black", 1)
    suit_card("Blue", 13)
    face("Scary Mary as Escape")
    expect(host.locator("#verdict")).to_contain_text("Eve wins the trick with Black 1.")
    taps = host.evaluate("window.taps")
    assert taps <= 14, f"{taps} taps"
    print(f"a six-card trick judged in {taps} taps")
    screenshot(host, "62-six-card-trick-390")


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_the_judge_with_the_keyboard_and_axe_in_every_language(browser, live_server: str,
                                                               language: str) -> None:
    from playwright.sync_api import expect

    host = start(browser, live_server, ("Anne", "Ben"), 2, locale=language)
    bid_for(host, range(2))
    expect(host.locator("form.results")).to_be_visible()
    host.locator(".judge-link a").first.focus()
    host.keyboard.press("Enter")
    expect(host.locator(".judge")).to_be_visible()
    # The keypad's script came with the page htmx opened: each group of keys is one stop for Tab.
    expect(host.locator(".suit-keys .key[tabindex='0']")).to_have_count(1)
    expect(host.locator(".suit-keys .key[tabindex='-1']")).not_to_have_count(0)
    # The keys are links: Tab reaches them, Enter plays one; the verdict is said by the page's standing region.
    assert host.locator("#verdict").get_attribute("data-announce") == "verdict"
    host.locator(".face-keys a").nth(1).focus()  # a Pirate
    host.keyboard.press("Enter")
    expect(host.locator(".trick-cards li")).to_have_count(1)
    host.locator(".suit-keys a").first.focus()
    host.keyboard.press("Enter")
    expect(host.locator(".number-keys")).to_be_visible()
    found = violations(host)
    assert found == [], found
    for width in (390, 320):
        host.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert not scrolls_sideways(host), f"{language} at {width} px"
    screenshot(host, f"63-judge-keypad-320-{language}")
    host.locator(".number-keys a").first.focus()
    host.keyboard.press("Enter")
    expect(host.locator(".claim button")).to_be_visible()
    assert host.locator(".verdict-winner").inner_text()
    assert violations(host) == []
