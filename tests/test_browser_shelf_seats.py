"""A lost phone in Skip-Bo, Dracula and the free pad, in a real browser: the new phone asks for the taken seat, the
host lets it in by its code, the old phone becomes a watcher; the host frees a seat."""

from __future__ import annotations

import pytest

from tests.browser import PHONE, screenshot
from tests.test_browser_shelf_live import start

pytestmark = pytest.mark.browser

GAMES = {
    "skip-bo": {"#target": "500"},
    "dracula": {},
    "free-pad": {"#game-name": "Rummy"},
}


@pytest.mark.parametrize("kind", list(GAMES))
def test_a_lost_phone_gets_back_in_and_the_host_frees_a_seat(browser, live_server: str, kind: str) -> None:
    from playwright.sync_api import expect

    host, phones = start(browser, live_server, kind, GAMES[kind], ("Anne", "Ben"))
    game = host.url
    old = phones["Anne"]

    new = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    new.goto(game + "/join")
    new.get_by_role("button", name="I'm Anne on a new phone").click()
    expect(new.get_by_role("heading", name="Waiting for the host")).to_be_visible()
    code = new.locator(".request-code strong").inner_text()

    # The host's card shows the request, pushed live, with the code to pick.
    expect(host.get_by_role("heading", name="Anne asks to play on a new phone")).to_be_visible()
    screenshot(host, f"83-{kind}-host-lets-a-phone-in-390")
    host.get_by_role("button", name=f"Let in the phone showing {code}").click()

    # The new phone moves on to the game by itself, as Anne; the old one only watches now.
    expect(new.locator("#main").get_by_text("You are Anne")).to_be_visible()
    assert new.url == game
    expect(old.get_by_role("link", name="Join as a player")).to_be_visible()
    expect(old.locator("#main").get_by_text("You are Anne")).to_have_count(0)
    expect(host.get_by_role("heading", name="Anne asks to play on a new phone")).to_have_count(0)

    # Ben's phone is lost too: the host frees his seat, and another phone takes it at once.
    host.locator("#phones summary").click()
    host.get_by_role("button", name="Free the seat of Ben").click()
    ben = phones["Ben"]
    expect(ben.get_by_role("link", name="Join as a player")).to_be_visible()
    other = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    other.goto(game + "/join")
    other.get_by_role("button", name="Ben", exact=True).click()
    expect(other.locator("#main").get_by_text("You are Ben")).to_be_visible()


@pytest.mark.parametrize("kind", list(GAMES))
def test_every_game_s_big_screen_is_the_table_s_frame(browser, live_server: str, kind: str) -> None:
    """Skip-Bo, Dracula and the free pad on a TV: the game's name in the header, its table and leaderboard in type
    for a room, no card and no way to join; it follows the phones live; it fits a 320 px screen too."""
    from playwright.sync_api import expect

    from tests.test_browser_a11y import scrolls_sideways

    host, phones = start(browser, live_server, kind, GAMES[kind], ("Anne", "Ben"))
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB").new_page()
    tv.goto(host.url + "/screen")
    expect(tv.locator("header .brand")).not_to_have_text("☠ Skull King")
    expect(tv.locator(".screen-frame .leaderboard")).to_be_visible()
    expect(tv.locator("#card")).to_have_count(0)
    expect(tv.get_by_role("link", name="Join as a player")).to_have_count(0)
    assert int(tv.locator(".leaderboard td.total").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)")) >= 30
    # A phone's save reaches the big screen with no request of its own.
    requests: list[str] = []
    tv.on("request", lambda request: requests.append(request.url))
    if kind == "free-pad":
        phones["Anne"].fill("#points-0", "12")
        phones["Anne"].get_by_role("button", name="Save").click()
        expect(tv.locator(".status-list li", has_text="Anne").get_by_text("12")).to_be_visible()
    elif kind == "skip-bo":
        phones["Anne"].get_by_role("button", name="I went out").click()
        expect(tv.get_by_role("heading", name="Anne went out")).to_be_visible()
    else:
        phones["Anne"].fill("#cell-4", "KH")
        expect(tv.locator(".screen-frame .leaderboard")).to_be_visible()
    assert [url for url in requests if "/events" not in url] == []
    screenshot(tv, f"84-{kind}-big-screen-1920")
    tv.set_viewport_size({"width": 320, "height": 720})
    assert not scrolls_sideways(tv), f"the big screen of {kind} scrolls sideways at 320 px"
    screenshot(tv, f"84-{kind}-big-screen-320")
