"""The big screen for a room: filled at 1280×720 and 1920×1080, no "()", plurals right, no focus ring, 320 px."""

from __future__ import annotations

import pytest

from tests.browser import cannonball_table, host_bids, screenshot
from tests.test_browser_a11y import scrolls_sideways

pytestmark = pytest.mark.browser

# Six bids of 0 for the one trick of hand 1, as each language says it.
BIDS_FOR_ONE_TRICK = {"en": "Bids: 0 for 1 trick", "de": "Ansagen: 0 für 1 Stich", "fr": "Annonces : 0 pour 1 pli",
                      "it": "Dichiarazioni: 0 per 1 presa"}
NAMES = ("Anne-Kathrin", "Maximilian", "Bartholomew", "Christabel", "Wolfgang-Amadeus", "Guinevere")


def assert_tools_cover_nothing(tv) -> None:
    """The big screen's buttons (full screen, sound) sit over nothing of the table: no heading, count, bid, table."""
    tools = tv.locator(".screen-tools").bounding_box()
    for part in tv.locator(".screen-frame :is(h1, h2, p, li, th, td)").all():
        box = part.bounding_box()
        if box is None or not box["width"]:
            continue
        assert (tools["y"] + tools["height"] <= box["y"] or box["y"] + box["height"] <= tools["y"]
                or tools["x"] + tools["width"] <= box["x"] or box["x"] + box["width"] <= tools["x"]), (tools, box)


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_the_big_screen_fills_a_room_s_screen(browser, live_server: str, language: str) -> None:
    from playwright.sync_api import expect

    host, _ = cannonball_table(browser, live_server, NAMES, (), {"width": 1280, "height": 800}, language)
    screen_url = host.locator(".join-panel a[href$='/screen']").get_attribute("href")
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=language).new_page()
    tv.goto(live_server + screen_url)
    # Every bid in: the count, then the loads are awaited; the pad's row has bids and no totals yet.
    host_bids(host, dict.fromkeys(range(len(NAMES)), 0))
    expect(host.locator("#loader-0")).to_be_visible()
    expect(tv.locator(".screen-pad tbody tr")).to_have_count(1)
    # The bids against the tricks, on the room's screen and the host's, in the page's language.
    for page in (tv, host):
        expect(page.locator(".bids-total")).to_have_text(BIDS_FOR_ONE_TRICK[language])
    text = tv.locator(".big-screen").inner_text()
    assert "()" not in text and "1 cards" not in text and "1 Karten" not in text
    box = tv.locator(".big-screen").bounding_box()
    assert box["width"] >= 0.9 * 1920 and box["height"] >= 0.85 * (1080 - 120), box
    assert int(tv.locator(".leaderboard td.total").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 36
    # The screen redrew itself live; whatever it focused for a screen reader shows no ring.
    assert tv.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") in ("none", "")
    assert_tools_cover_nothing(tv)
    screenshot(tv, f"15-big-screen-1920-{language}")
    tv.set_viewport_size({"width": 1280, "height": 720})
    assert tv.locator(".big-screen").bounding_box()["width"] >= 0.9 * 1280
    assert_tools_cover_nothing(tv)
    screenshot(tv, f"15-big-screen-1280-{language}")
    tv.set_viewport_size({"width": 320, "height": 720})
    assert not scrolls_sideways(tv), f"the big screen scrolls sideways at 320 px in {language}"
    screenshot(tv, f"15-big-screen-320-{language}")


def test_a_big_screen_and_a_pad_show_the_bids_when_the_phones_do(browser, live_server: str) -> None:
    """Left open, they are pushed the revealed bids at the count's end: no request of their own."""
    from playwright.sync_api import expect

    from tests.browser import PHONE, join_phones

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.locator("form button.primary[type=submit]").last.click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    game = host.url
    phones = join_phones(browser, game + "/join", ("Anne", "Ben"))
    tv = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB").new_page()
    tv.goto(game + "/screen")
    pad = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    pad.goto(game + "/pad")
    expect(pad.locator(".pad tbody tr").first.locator(".bid-col").first).to_have_text("?")
    requests: dict[str, list[str]] = {"tv": [], "pad": []}
    for name, page in (("tv", tv), ("pad", pad)):
        page.on("request", lambda request, name=name: requests[name].append(request.url))
    phones["Anne"].locator(".numpad.mine button[value='1']").click()
    expect(tv.locator(".screen-status")).to_have_text("1 of 2 players ready")
    phones["Ben"].locator(".numpad.mine button[value='0']").click()
    # The count runs on every screen; then the bids show on the phones, the TV and the pad alike.
    expect(phones["Ben"].get_by_role("heading", name="Your result")).to_be_visible()
    expect(tv.locator(".screen-pad tbody tr").first.locator("small").first).to_have_text("1")
    expect(pad.locator(".pad tbody tr").first.locator(".bid-col").first).to_have_text("1")
    expect(pad.locator(".pad tbody tr").first.locator(".bid-col").nth(1)).to_have_text("0")
    tv.wait_for_timeout(300)
    for name, urls in requests.items():
        assert [url for url in urls if "/events" not in url] == [], name


def test_the_big_screen_follows_every_moment_of_the_table(browser, live_server: str) -> None:
    """At 1920×1080: the count while the phones count, who is ready, every load once revealed, who is done, and at
    the end who won, above the standings."""
    from playwright.sync_api import expect

    from tests.browser import join_phones

    host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.select_option("#scoring", "rascal")
    host.check("input[name=cannonball]")
    host.select_option("#rounds", "past-your-bedtime")
    host.locator("form button.primary[type=submit]").last.click()
    expect(host.locator(".facts .big")).to_have_text("1")
    game = host.url
    phones = join_phones(browser, game + "/join", ("Anne", "Ben"))
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    tv.goto(game + "/screen")

    phones["Anne"].locator(".numpad.mine button[value='1']").click()
    expect(tv.locator("#bidders li.ready")).to_have_count(1)
    expect(tv.locator("#bidders li.ready")).to_contain_text("Anne")
    phones["Ben"].locator(".numpad.mine button[value='0']").click()
    host_bids(host, {2: 0})
    # YO… HO… HO! on the big screen too, while the phones count.
    expect(tv.locator(".yoho-count .count")).to_be_visible(timeout=5_000)
    screenshot(tv, "16-big-screen-count-1920")
    # The bids show; then who has loaded (not what), then every load at once.
    expect(tv.locator("#bidders .bid-big")).to_have_count(3)
    phones["Anne"].get_by_role("button", name="Cannonball").click()
    phones["Ben"].get_by_role("button", name="Grapeshot").click()
    expect(tv.locator("#bidders li.ready")).to_have_count(2)
    assert tv.locator(".shot").count() == 0
    host.locator("#loader-2 summary").click()
    host.locator("#loader-2 button.load-grapeshot").click()
    expect(tv.locator("#bidders .shot-cannonball")).to_have_count(1)
    expect(tv.locator("#bidders .shot-grapeshot")).to_have_count(2)
    screenshot(tv, "16-big-screen-loads-1920")
    # Who is done, then the end: the winner above the standings.
    phones["Anne"].get_by_role("button", name="Done").click()
    expect(tv.locator("#bidders li.ready")).to_have_count(1)
    phones["Ben"].get_by_role("button", name="Done").click()
    host.fill("#tricks-2", "0")
    host.locator("button[name=intent][value=score]").click()
    expect(tv.locator(".screen-headline")).to_have_text("Anne wins!")
    headline, board = tv.locator(".screen-headline").bounding_box(), tv.locator(".leaderboard").bounding_box()
    assert headline["y"] < board["y"]
    assert tv.locator(".screen-headline").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 48
    for cell in tv.locator(".screen-pad thead th").all():
        assert cell.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 24
    screenshot(tv, "16-big-screen-winner-1920")



@pytest.mark.parametrize("opened", ["by its address", "from the host's page"])
def test_the_big_screen_goes_full_screen_and_back(browser, live_server: str, opened: str) -> None:
    """One button shows the big screen full screen and another tap leaves it; opened from the host's page (htmx
    swaps it in, its script comes with it) or by its address (a TV's browser)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import expect

    host, _ = cannonball_table(browser, live_server, NAMES[:3], (), {"width": 1280, "height": 800})
    link = host.locator(".join-panel a[href$='/screen']")
    if opened == "by its address":
        tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
        tv.goto(live_server + link.get_attribute("href"))
    else:
        tv = host
        link.click()
    button = tv.get_by_role("button", name="Full screen")
    expect(button).to_be_visible()
    button.click()
    full = "() => document.fullscreenElement === document.documentElement"
    try:
        tv.wait_for_function(full, timeout=5000)
    except PlaywrightTimeoutError:
        # Headless Chromium on a loaded machine once refused a page's first request (seen in CI, not reproduced
        # here); a person taps again, and so does this test. A button that never works still fails.
        button.click()
        tv.wait_for_function(full)
    tv.get_by_role("button", name="Leave full screen").click()
    tv.wait_for_function("() => document.fullscreenElement === null")
    expect(tv.get_by_role("button", name="Full screen")).to_be_visible()
