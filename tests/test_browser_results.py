"""The phone's result card in a real browser: taps counted, one screen tall, and what a refused hand looks like."""

from __future__ import annotations

import pytest

from tests.browser import PHONE, join_phones, screenshot

pytestmark = pytest.mark.browser

PLAYERS = ("Anne", "Ben", "Cara")


def start_table(browser, live_server: str, cards: int, **options: bool):
    """A modern game with a phone per player, `cards` dealt in hand 1 (the house rule)."""
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=ruleset][value=modern]")
    for option, on in options.items():
        if on:
            host.check(f"input[name={option}]")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    host.locator(".house-rule summary").click()
    host.fill("#cards", str(cards))
    host.get_by_role("button", name="Change the cards").click()
    expect(host.locator(".facts dd.big")).to_have_text(str(cards))
    join_url = host.locator(".join-link a").get_attribute("href")
    join_url = live_server + join_url if join_url.startswith("/") else join_url
    return host, join_phones(browser, join_url, PLAYERS)


def bid(phones, bids: dict[str, int]) -> None:
    from playwright.sync_api import expect

    for name, value in bids.items():
        phones[name].locator(f".numpad.mine button[value='{value}']").click()
    for page in phones.values():
        expect(page.get_by_role("heading", name="Your result")).to_be_visible()


def taps(page) -> int:
    return page.evaluate("window.taps")


def test_the_common_results_take_one_or_two_taps(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = start_table(browser, live_server, 10, advanced_cards=True, rascal_wagers=True)
    bid(phones, {"Anne": 4, "Ben": 3, "Cara": 2})
    anne, ben, cara = phones["Anne"], phones["Ben"], phones["Cara"]
    # With the most cards a hand has, the whole card fits one phone screen, the bonus cards closed.
    for page in phones.values():
        assert page.locator(".own-result").bounding_box()["height"] <= PHONE["height"]
    assert not anne.locator("#more-0").get_attribute("open")
    screenshot(anne, "30-result-card-390")
    before = {name: taps(page) for name, page in phones.items()}

    # Ben made his bid: Done.
    ben.get_by_role("button", name="Done").click()
    # Anne made hers with a black 14 in her tricks: the card, then Done.
    anne.get_by_role("checkbox", name="Black 14").check()
    anne.get_by_role("button", name="Done").click()
    # Cara missed: she bid 2 and won 3: the number, then Done.
    cara.locator(".tricks-pad label", has_text="3").click()
    cara.get_by_role("button", name="Done").click()

    counts = {name: taps(page) - before[name] for name, page in phones.items()}
    print("taps per result:", counts)
    assert counts == {"Anne": 2, "Ben": 1, "Cara": 2}
    for page in (host, *phones.values()):
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()
    # Anne's pad: 4 tricks as bid (+80) and the black 14 (+20); Cara missed by one (−10).
    host.get_by_role("link", name="Score pad").click()
    expect(host.locator("tr.phase-scored td.num").nth(0)).to_contain_text("+100")
    expect(host.locator("tr.phase-scored td.num").nth(2)).to_contain_text("−10")


def test_one_bonus_among_several_and_the_rare_cases_behind_one_more(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = start_table(browser, live_server, 3, advanced_cards=True, rascal_wagers=True)
    bid(phones, {"Anne": 2, "Ben": 1, "Cara": 0})
    anne = phones["Anne"]
    before = taps(anne)
    # Two pirates taken by her Skull King: a tap on the card each, then Done.
    face = anne.locator(".count-face", has_text="Pirates taken by the Skull King")
    face.locator(".face-add").click()
    face.locator(".face-add").click()
    expect(face.locator("input")).to_have_value("2")
    screenshot(anne, "31-result-card-bonus-390")
    anne.get_by_role("button", name="Done").click()
    assert taps(anne) - before == 3
    # The rare abilities open with one tap, for this hand: the next hand's card opens with them closed, so its Done
    # is on the first screen.
    ben = phones["Ben"]
    ben.locator("#more-1 summary").click()
    expect(ben.locator("#main").get_by_text("Rascal of Roatán wager")).to_be_visible()
    ben.get_by_role("button", name="Done").click()
    phones["Cara"].get_by_role("button", name="Done").click()
    for page in (host, *phones.values()):
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()
    bid(phones, {"Anne": 1, "Ben": 1, "Cara": 0})
    expect(ben.locator("#more-1")).not_to_have_attribute("open", "")
    expect(anne.locator("#more-0")).not_to_have_attribute("open", "")
    for width, scheme in ((320, "light"), (320, "dark"), (390, "dark")):
        anne.set_viewport_size({"width": width, "height": PHONE["height"]})
        anne.emulate_media(color_scheme=scheme)
        screenshot(anne, f"32-result-card-{width}-{scheme}")
        assert anne.evaluate("document.documentElement.scrollWidth") <= width


def test_a_refusal_goes_to_the_players_concerned(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = start_table(browser, live_server, 3)
    bid(phones, {"Anne": 1, "Ben": 1, "Cara": 1})
    anne, ben, cara = phones["Anne"], phones["Ben"], phones["Cara"]
    anne.locator(".count-face", has_text="Pirates taken by the Skull King").locator(".face-add").click()
    anne.get_by_role("button", name="Done").click()
    expect(anne.locator("#main").get_by_text("Your result is in")).to_be_visible()
    ben.get_by_role("checkbox", name="Mermaid took the Skull King").check()
    ben.get_by_role("button", name="Done").click()
    claim = "Anne and Ben both claim the Skull King"
    # The two concerned are told, with what to do; their Done is withdrawn.
    for page in (anne, ben):
        expect(page.locator("#card")).to_contain_text("Your result clashes with another player's")
        expect(page.locator("#card")).to_contain_text(claim)
        expect(page.locator("#main").get_by_text("Your result is in")).to_have_count(0)
        expect(page.get_by_role("button", name="Done")).to_be_visible()
    screenshot(ben, "33-refused-concerned-390")
    # The refused card at 320 px, in every language, scrolls no sideways.
    for language in ("de", "fr", "it", "en"):
        ben.select_option("#language-choice", language)
        ben.locator("form.language button").click()
        expect(ben.locator("html")).to_have_attribute("lang", language)
        expect(ben.locator("#card .problems li")).to_have_count(1)
        ben.set_viewport_size({"width": 320, "height": PHONE["height"]})
        assert ben.evaluate("document.documentElement.scrollWidth") <= 320, language
        ben.set_viewport_size(PHONE)
    # Cara's own result is not touched; she sees who is fixing what.
    cara.get_by_role("button", name="Done").click()
    expect(cara.locator("#main").get_by_text("Your result is in")).to_be_visible()
    expect(cara.locator("#table")).to_contain_text("Anne and Ben are checking their results")
    expect(cara.locator("#table")).to_contain_text(claim)
    expect(cara.locator("#card")).not_to_contain_text(claim)
    screenshot(cara, "34-refused-unconcerned-390")
    # Ben had it wrong: he takes his claim back and says Done; Anne's result stands, the hand closes.
    ben.get_by_role("checkbox", name="Mermaid took the Skull King").uncheck()
    ben.get_by_role("button", name="Done").click()
    for page in (host, *phones.values()):
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible()


# Taps a bid key of the next hand's card the moment the push puts it on the page (in the same turn of the page's
# work, as a quick thumb on a slow phone does within the frames after it shows), and notes where the tap went.
TAP_AS_IT_SHOWS = """(hand) => {
  const sent = [];
  document.addEventListener("htmx:beforeRequest", ({ detail }) => sent.push(detail.requestConfig.path));
  new MutationObserver((changes, observer) => {
    const key = document.querySelector(`#card form.numpad.mine[action$='/hands/${hand}/bid'] button[value='1']`);
    if (!key) return;
    observer.disconnect();
    key.click();
    window.tappedAsItShowed = sent;
  }).observe(document.body, { childList: true, subtree: true, attributes: true });
}"""


def test_a_bid_tapped_as_the_next_hand_shows_goes_to_that_hand(browser, live_server: str) -> None:
    """The card of the next hand, pushed when the last result went in, is the card a tap goes from at once: the
    results form it was morphed from (the same element) no longer sends to the hand before."""
    from playwright.sync_api import expect

    host, phones = start_table(browser, live_server, 1)
    bid(phones, {"Anne": 0, "Ben": 1, "Cara": 0})
    anne = phones["Anne"]
    phones["Ben"].get_by_role("button", name="Done").click()
    phones["Cara"].get_by_role("button", name="Done").click()
    anne.evaluate(TAP_AS_IT_SHOWS, 2)
    anne.get_by_role("button", name="Done").click()
    sent = anne.wait_for_function("() => window.tappedAsItShowed").json_value()
    assert sent and sent[-1].endswith("/hands/2/bid"), sent
    expect(anne.locator("#main").get_by_text("Your bid is 1.")).to_be_visible()
    expect(anne.locator("#waiting-taps")).to_have_text("")
