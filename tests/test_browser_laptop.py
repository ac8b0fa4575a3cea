"""The host on a laptop (1280×800): the hand beside the table and the leaderboard, the join panel folded once play is on."""

from __future__ import annotations

import pytest

from tests.browser import join_phones, screenshot, take_over_as_host

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}


def test_the_host_laptop_shows_what_the_table_waits_for_above_the_fold(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    join_url = host.locator(".join-link a").get_attribute("href")
    phones = join_phones(browser, live_server + join_url if join_url.startswith("/") else join_url, ("Anne", "Ben"))
    # While phones join, the join panel is open; the table's state is beside the card, above the fold.
    expect(host.locator(".join-panel .qr")).to_be_visible()
    for locator in (host.locator("#table"), host.locator("#board")):
        box = locator.bounding_box()
        assert box["y"] < LAPTOP["height"] and box["x"] > LAPTOP["width"] / 2 - 100, box
    screenshot(host, "70-host-laptop-joining-1280")
    for phone in phones.values():
        phone.locator(".numpad.mine button[value='0']").click()
    host.locator("#bidder-2 summary").click()
    host.locator("#bidder-2 .numpad button[value='1']").click()
    expect(host.get_by_role("heading", name="The bids")).to_be_visible()
    # Play is on: the join panel folds away, one tap opens it again.
    expect(host.locator(".join-panel .qr")).to_be_hidden()
    assert host.locator("#table").bounding_box()["y"] < LAPTOP["height"]
    assert host.locator("form.results").bounding_box()["y"] < LAPTOP["height"]
    screenshot(host, "71-host-laptop-playing-1280")
    host.locator(".join-fold summary").click()
    expect(host.locator(".join-panel .qr")).to_be_visible()


@pytest.mark.parametrize("players", [6, 8])
def test_the_whole_leaderboard_stays_above_the_fold_with_six_players(browser, live_server: str, players: int) -> None:
    """1280×800, every phase of a hand: with 6 players the last leaderboard row above 800 px; with 8, one short
    scroll at most."""
    from playwright.sync_api import expect

    from tests.browser import cannonball_table, host_bids

    names = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn", "Gus", "Hal")[:players]
    host, _ = cannonball_table(browser, live_server, names, (), LAPTOP)
    limit = LAPTOP["height"] if players <= 6 else LAPTOP["height"] * 1.3
    bottoms = {}

    def measure(phase: str) -> None:
        last = host.locator("#board .leaderboard tbody tr").last.bounding_box()
        bottoms[phase] = round(last["y"] + last["height"])
        screenshot(host, f"72-host-laptop-{players}-{phase}-1280")

    host_bids(host, dict.fromkeys(range(players - 1), 0))
    measure("bidding")
    host_bids(host, {players - 1: 0})
    expect(host.locator("#loader-0")).to_be_visible()
    measure("loading")
    for seat in range(players):
        host.locator(f"#loader-{seat} summary").click()
        host.locator(f"#loader-{seat} button.load-grapeshot").click()
        if seat < players - 1:
            host.wait_for_function(f"() => !!document.querySelector('li.ready > #loader-{seat}')"
                                   f" || !document.querySelector('#loader-{seat}')")
    expect(host.locator("form.results")).to_be_visible()
    measure("results")
    print(f"{players} players: the last leaderboard row ends at", bottoms)
    assert all(bottom <= limit for bottom in bottoms.values()), bottoms


def test_the_printed_pad_has_the_paper_pad_s_details_on_one_a4_page(browser, live_server: str) -> None:
    """Ten hands of six players: the tricks won, the bonus points and the tricks nobody won, on one A4 page."""
    import re

    players = ["Anne", "Ben", "Cara", "Dan", "Eve", "Finn"]
    hands = []
    for cards in range(1, 11):
        lost = 1 if cards == 5 else 0
        entries = [{"player": "Anne", "bid": cards - lost, "tricks": cards - lost,
                    "bonuses": {"pirates_by_skull_king": 1} if cards == 3 else {}}]
        entries += [{"player": name, "bid": 0, "tricks": 0} for name in players[1:]]
        hands.append({"cards": cards, "lost_tricks": lost, "entries": entries})
    pad = {"format": "skull-king-pad", "version": 1, "ruleset": "modern",
           "options": {"scoring": "standard", "advanced_cards": True}, "players": players, "hands": hands}
    page = browser.new_context(viewport=LAPTOP, locale="en-GB").new_page()
    imported = page.request.post(live_server + "/games/import", data=pad)
    assert imported.status == 201, imported.text()
    take_over_as_host(page, imported.json()["host_url"])
    page.goto(imported.headers["location"] + "/pad")
    page.emulate_media(media="print")
    printed = " ".join(page.locator("table.pad").inner_text().split())
    assert "won 3 · +30" in printed and "1 trick nobody won" in printed and "won 0" in printed, printed[:300]
    pdf = page.pdf(format="A4", print_background=False)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    print(f"the printed pad of 10 hands for 6 players: {pages} A4 page(s)")
    assert pages == 1
