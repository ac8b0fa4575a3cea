"""Two games with a rematch, then the crew's page with both and its charts, in Chromium."""

from __future__ import annotations

import json

import pytest

from tests.browser import PHONE, host_bids, screenshot, take_over_as_host
from tests.test_crews import GAME_A

pytestmark = pytest.mark.browser


def test_two_games_with_a_rematch_then_the_crew_page(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/")
    imported = host.request.post(live_server + "/games/import", data=json.dumps(GAME_A),
                                 headers={"Content-Type": "application/json"})
    take_over_as_host(host, imported.json()["host_url"])
    expect(host.get_by_role("heading", name="Anne wins!")).to_be_visible()
    host.get_by_role("button", name="Rematch with the same table").click()
    for number, bids, tricks in ((1, (0, 1), (0, 1)), (2, (1, 1), (1, 1))):
        expect(host.get_by_role("heading", name=f"Hand {number} of 2")).to_be_visible()
        host_bids(host, dict(enumerate(bids)))
        expect(host.get_by_role("button", name="Score the hand")).to_be_visible()
        for seat, won in enumerate(tricks):
            host.fill(f"#tricks-{seat}", str(won))
        host.get_by_role("button", name="Score the hand").click()
    expect(host.get_by_role("heading", name="Ben wins!")).to_be_visible()
    host.get_by_role("link", name="Our games and statistics").click()
    expect(host.get_by_role("heading", name="Our games")).to_be_visible()
    expect(host.locator("#main").get_by_text("2 games")).to_be_visible()
    expect(host.locator(".game-list li")).to_have_count(2)
    expect(host.locator(".crew-stats tbody tr")).to_have_count(2)
    for chart in ("Totals over the games", "Running totals"):
        figure = host.locator("figure.chart", has_text=chart)
        expect(figure.locator("polyline")).to_have_count(2)
    screenshot(host, "50-crew-390")
    for width, scheme in ((320, "light"), (320, "dark")):
        host.set_viewport_size({"width": width, "height": PHONE["height"]})
        host.emulate_media(color_scheme=scheme)
        assert host.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(host, f"51-crew-{width}-{scheme}")
    # A player's page from their name: their figures, rating, head to head and rival, at 320 px without sideways
    # scrolling.
    host.locator(".crew-ratings").get_by_role("link", name="Ben").click()
    expect(host.get_by_role("heading", name="Ben", exact=True)).to_be_visible()
    expect(host.locator(".head-to-head tbody tr")).to_have_count(1)
    expect(host.locator(".rival")).to_contain_text("Rival: Anne, just ahead of Ben in 1 of their 2 games together.")
    expect(host.locator("figure.chart", has_text="Rating over the games").locator("polyline")).to_have_count(1)
    assert host.evaluate("document.documentElement.scrollWidth") <= 320
    screenshot(host, "53-player-320")
    # The start page lists both games, newest first, each a tap away.
    host.goto(live_server + "/")
    expect(host.locator(".game-list li")).to_have_count(2)
    expect(host.locator(".game-list li").first).to_contain_text("won by Ben")
    screenshot(host, "52-your-games-320")
