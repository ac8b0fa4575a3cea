"""A host and four phones in headless Chromium: join by the QR code's link, bid in secret, reveal together."""

from __future__ import annotations

import re

import pytest

from tests.browser import PHONE, screenshot, take_over_as_host

pytestmark = pytest.mark.browser

PLAYERS = ("Anne", "Ben", "Cara", "Dan")
BIDS = {"Anne": 2, "Ben": 0, "Cara": 1, "Dan": 0}
TRICKS = {"Anne": 2, "Ben": 0, "Cara": 1, "Dan": 0}


def test_four_phones_bid_in_secret_and_reveal_together(browser, live_server: str) -> None:
    import qrcode
    import qrcode.image.svg
    from playwright.sync_api import expect

    host_context = browser.new_context(viewport=PHONE, locale="en-GB")
    host = host_context.new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        host.fill(f"#player-{seat}", name)
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    # Three cards this hand (a house rule), so there is something to bid.
    host.locator(".house-rule summary").click()
    host.fill("#cards", "3")
    host.get_by_role("button", name="Change the cards").click()
    expect(host.locator(".facts .big")).to_have_text("3")

    join_url = host.locator(".join-link a").get_attribute("href")
    join_url = live_server + join_url if join_url.startswith("/") else join_url
    # The QR code on the host screen encodes exactly this link.
    expected_qr = qrcode.make(join_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    image = host.locator(".qr img").get_attribute("src")
    drawn = host.request.get(live_server + image if image.startswith("/") else image).text()
    found = re.search(r' d="([^"]+)"', drawn)
    assert found and found.group(1) in expected_qr.to_string(encoding="unicode")

    phones, contexts, traffic = {}, {}, {}
    for name in PLAYERS:
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        page = context.new_page()
        traffic[name] = []
        page.on("response", lambda response, seen=traffic[name]: seen.append(response))
        page.goto(join_url)
        if name == "Anne":
            screenshot(page, "10-join")
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.locator("#main").get_by_text(f"You are {name}")).to_be_visible()
        phones[name], contexts[name] = page, context

    # Everyone but Dan bids; each phone sees only fists for the others.
    for name in ("Anne", "Ben", "Cara"):
        phones[name].locator(f".numpad.mine button[value='{BIDS[name]}']").click()
        expect(phones[name].locator("#main").get_by_text(f"Your bid is {BIDS[name]}.")).to_be_visible()
    expect(phones["Dan"].locator(".status-list li.ready")).to_have_count(3)
    expect(host.locator(".status-list li.ready")).to_have_count(3)
    screenshot(phones["Dan"], "11-waiting-for-bids")

    # Until the reveal no other party's page or traffic carries a bid.
    def bodies(name: str) -> list[str]:
        found = []
        for response in traffic[name]:
            # The event stream never ends (its content is checked in test_secrecy); redirects have no body.
            if "event-stream" in response.headers.get("content-type", "") or response.status in (204, 303):
                continue
            found.append(response.text())
        return found

    for name in PLAYERS:
        received = bodies(name)
        # A phone is told one bid only: its own.
        told = {int(n) for b in received for n in re.findall(r"Your bid is (\d+)\.", b)}
        assert told <= {BIDS[name]}
        # No list of revealed bids has reached any phone yet.
        assert not any(re.search(r'class="bid-big"|aria-label="bid \d', b) for b in received)
    assert not re.search(r'class="bid-big"|aria-label="bid \d', host.content())

    # Dan's bid completes the table: every phone counts YO… HO… HO!, then all bids show at once.
    phones["Dan"].locator(".numpad.mine button[value='0']").click()
    expect(phones["Anne"].locator(".yoho-count")).to_be_visible()
    screenshot(phones["Anne"], "12-yo-ho-ho")
    for page in phones.values():
        expect(page.get_by_role("heading", name="The bids")).to_be_visible(timeout=10_000)
        for other, bid in BIDS.items():
            expect(page.locator(".status-list li", has_text=other).locator(".bid-big")).to_have_text(str(bid))
    screenshot(phones["Ben"], "13-reveal")

    # Each phone enters its own result; the hand closes when all of them together pass the rules.
    for name in ("Ben", "Dan", "Cara"):
        phones[name].get_by_role("button", name="Done").click()
    anne = phones["Anne"]
    anne.locator(".tricks-pad label:has(input[value='1'])").click()
    expect(anne.locator(".status-list li", has_text="Anne")).to_contain_text("1 so far")
    # A phone reloaded mid-hand keeps its seat and what it entered.
    anne.reload()
    expect(anne.locator("#main").get_by_text("You are Anne")).to_be_visible()
    expect(anne.locator("#tricks-0-1")).to_be_checked()
    anne.locator(".tricks-pad label:has(input[value='2'])").click()
    screenshot(anne, "14-phone-result")
    anne.get_by_role("button", name="Done").click()

    # The scores appear on every phone and on the big screen.
    for page in phones.values():
        expect(page.get_by_role("heading", name="Hand 2 of 10")).to_be_visible(timeout=10_000)
        expect(page.locator(".leaderboard tbody tr", has_text="Anne").locator(".total")).to_have_text("40")
        expect(page.locator(".leaderboard tbody tr", has_text="Ben").locator(".total")).to_have_text("30")
    screen_context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    screen = screen_context.new_page()
    screen.goto(host.url + "/screen")
    expect(screen.locator(".leaderboard tbody tr", has_text="Cara").locator(".total")).to_have_text("20")
    screenshot(screen, "15-big-screen")

    for context in (*contexts.values(), host_context, screen_context):
        context.close()


def modern_game_bid_from_phones(browser, live_server: str, players: tuple[str, ...], with_phones: tuple[str, ...]):
    """A modern game with the advanced cards, started by the host; each of `with_phones` joins on a phone of its
    own and bids 0 there. The host's page, and the phones by name."""
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(players):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=ruleset][value=modern]")
    host.check("input[name=advanced_cards]")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    phones = {}
    for name in with_phones:
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        page.goto(host.url + "/join")
        page.get_by_role("button", name=name, exact=True).click()
        page.locator(".numpad.mine button[value='0']").click()
        expect(page.locator("#main").get_by_text("Your bid is 0.")).to_be_visible()
        phones[name] = page
    return host, phones


def test_another_phones_change_never_redraws_what_a_player_is_typing(browser, live_server: str) -> None:
    """Anne is typing her result when Ben taps his trick: her card, value and focus stay as they are."""
    from playwright.sync_api import expect

    host, phones = modern_game_bid_from_phones(browser, live_server, ("Anne", "Ben", "Cara"), ("Anne", "Ben"))
    host.locator("#bidder-2 summary").click()
    host.locator("#bidder-2 .numpad button[value='1']").click()
    anne, ben = phones["Anne"], phones["Ben"]
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible(timeout=10_000)
    expect(ben.get_by_role("heading", name="Your result")).to_be_visible(timeout=10_000)

    # Anne opens the rare cases and ticks a Loot alliance (saved as a draft: her own change)...
    anne.locator("#more-0 summary").click()
    anne.evaluate("""() => new Promise(saved => {
        document.addEventListener("htmx:afterSettle", saved, {once: true});
        document.querySelector("input[name=loot-0][value='1']").click();
    })""")
    expect(anne.locator("#more-0")).to_have_attribute("open", "")
    # ...then starts typing how many 14s she took: not saved yet.
    anne.evaluate("document.getElementById('card').dataset.untouched = 'yes'")
    count = anne.locator("#standard_fourteens-0")
    count.click()
    anne.keyboard.press("Control+A")
    anne.keyboard.type("1")
    expect(count).to_be_focused()
    # Ben gives his tricks; Anne's shared table shows it...
    ben.locator(".tricks-pad label:has(input[value='1'])").click()
    expect(anne.locator(".status-list li", has_text="Ben")).to_contain_text("1 so far")
    # ...and her card is the very same: not redrawn, her values and focus where they were.
    assert anne.evaluate("document.getElementById('card').dataset.untouched") == "yes"
    expect(count).to_have_value("1")
    expect(count).to_be_focused()
    expect(anne.locator("input[name=loot-0][value='1']")).to_be_checked()
    expect(anne.locator("#more-0")).to_have_attribute("open", "")
    screenshot(anne, "17-typing-while-others-play")
    for page in (host, anne, ben):
        page.context.close()


def test_every_phone_follows_the_table_to_the_end(browser, live_server: str) -> None:
    """The last hand closes from the phones: every screen is pushed on to the final standings."""
    import json

    from playwright.sync_api import expect

    doc = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
           "options": {"scoring": "standard", "rounds": [1, 2]}, "players": ["Anne", "Ben"],
           "hands": [{"cards": 1, "entries": [{"player": "Anne", "bid": 1, "tricks": 1},
                                              {"player": "Ben", "bid": 0, "tricks": 0}]}]}
    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/")
    imported = host.request.post(live_server + "/games/import", data=json.dumps(doc),
                                 headers={"Content-Type": "application/json"})
    take_over_as_host(host, imported.json()["host_url"])
    game = host.url
    phones = []
    for name, bid in (("Anne", 2), ("Ben", 0)):
        page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
        page.goto(game + "/join")
        page.get_by_role("button", name=name, exact=True).click()
        page.locator(f".numpad.mine button[value='{bid}']").click()
        phones.append(page)
    anne, ben = phones
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible(timeout=10_000)
    anne.get_by_role("button", name="Done").click()
    ben.get_by_role("button", name="Done").click()
    for page in (anne, ben, host):
        expect(page.get_by_role("heading", name="Anne wins!")).to_be_visible(timeout=10_000)
        assert page.url.endswith("/end")
    for page in (anne, ben, host):
        page.context.close()


def test_answers_and_pushes_are_morphed_into_the_page_the_player_has(browser, live_server: str) -> None:
    """The answer to a phone's own tap and what the stream pushes are morphed in (idiomorph): the card, the table,
    the control the player is on stay the very same elements, focused and open as they were, with their new
    values; a page opened is drawn anew."""
    from playwright.sync_api import expect

    host, phones = modern_game_bid_from_phones(browser, live_server, ("Anne", "Ben"), ("Anne", "Ben"))
    anne, ben = phones["Anne"], phones["Ben"]
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible(timeout=10_000)
    expect(ben.get_by_role("heading", name="Your result")).to_be_visible(timeout=10_000)

    # Marks on the elements themselves, which a redraw from new HTML would not carry.
    anne.evaluate("""() => {
        for (const id of ["card", "table", "more-0"]) document.getElementById(id).mark = id;
        document.querySelector("#main nav.tabs").mark = "tabs";
    }""")
    anne.locator("#more-0 summary").click()
    anne.evaluate("""() => new Promise(saved => {
        document.addEventListener("htmx:afterSettle", saved, {once: true});
        document.querySelector("input[name=loot-0][value='1']").focus();
        document.querySelector("input[name=loot-0][value='1']").click();
    })""")
    # Her own autosave's answer: the same card, the panel open, the box ticked and focused.
    assert anne.evaluate("document.getElementById('card').mark") == "card"
    expect(anne.locator("#more-0")).to_have_attribute("open", "")
    expect(anne.locator("input[name=loot-0][value='1']")).to_be_checked()
    expect(anne.locator("input[name=loot-0][value='1']")).to_be_focused()
    # Ben's tricks, pushed: Anne's table shows them in the same element; her card and focus as they were.
    ben.locator(".tricks-pad label:has(input[value='1'])").click()
    expect(anne.locator(".status-list li", has_text="Ben")).to_contain_text("1 so far")
    assert anne.evaluate("document.getElementById('table').mark") == "table"
    assert anne.evaluate("document.getElementById('more-0').mark") == "more-0"
    expect(anne.locator("input[name=loot-0][value='1']")).to_be_focused()
    assert anne.evaluate("document.querySelector('#main nav.tabs').mark") == "tabs"
    # Another page opened (the pad) is drawn anew: its tabs are new elements.
    anne.locator("nav.tabs a", has_text="Score pad").click()
    expect(anne.get_by_role("heading", name="Score pad")).to_be_visible()
    assert anne.evaluate("document.querySelector('#main nav.tabs').mark") is None
    for page in (host, anne, ben):
        page.context.close()


def test_htmx_runs_with_the_app_s_settings_on_every_page(browser, live_server: str) -> None:
    """The frame's script gives htmx the app's settings before it starts (no page carries them): a refused form
    (422) is drawn, any other refusal is not swapped in but said, a tap waits 20 s for its answer, no eval, no
    inline style."""
    page = browser.new_context(viewport=PHONE).new_page()
    for path in ("/", "/games/new", "/join"):
        page.goto(live_server + path)
        assert "htmx-config" not in page.content()
        settings = page.evaluate("""() => ({eval: htmx.config.allowEval, styles: htmx.config.includeIndicatorStyles,
            timeout: htmx.config.timeout, boost: htmx.config.scrollIntoViewOnBoost,
            handling: htmx.config.responseHandling.map(rule => [rule.code, rule.swap, Boolean(rule.error)])})""")
        assert settings == {"eval": False, "styles": False, "timeout": 20000, "boost": False,
                            "handling": [["204", False, False], ["[23]..", True, False], ["422", True, False],
                                         ["[45]..", False, True]]}
        assert page.locator("style").count() == 0
    page.context.close()
