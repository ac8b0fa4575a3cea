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
