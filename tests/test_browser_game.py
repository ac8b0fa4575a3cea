"""A whole classic game for four, played through the pages in headless Chromium."""

from __future__ import annotations

import csv
import io
import re

import pytest

from scorekeeper.shelf.skullking import rules
from scorekeeper.shelf.skullking.rules import Entry, Hand, Setup
from tests.browser import PHONE, SCREENSHOTS, host_bids, new_classic_game, screenshot

pytestmark = pytest.mark.browser

PLAYERS = ("Anne", "Ben", "Cara", "Dan")


def planned_hand(cards: int) -> dict[str, dict]:
    """Bids, tricks and captures the table plays in a hand of `cards` cards."""
    anne, cara = cards // 2, cards // 4
    ben = cards - anne - cara
    plan = {
        "Anne": {"bid": anne, "tricks": anne, "bonuses": {}},
        "Ben": {"bid": ben + 1 if ben + 1 <= cards else ben - 1, "tricks": ben, "bonuses": {}},
        "Cara": {"bid": cara, "tricks": cara, "bonuses": {}},
        "Dan": {"bid": 0, "tricks": 0, "bonuses": {}},
    }
    if cards == 5:
        plan["Anne"]["bonuses"] = {"pirates_by_skull_king": 2}
    if cards == 7:
        plan["Cara"]["bonuses"] = {"skull_king_by_mermaid": 1}
    return plan


def expected_totals(plans: list[dict[str, dict]]) -> dict[str, int]:
    """Totals the rules give for the planned hands."""
    table = Setup("classic", PLAYERS)
    totals = dict.fromkeys(PLAYERS, 0)
    for cards, plan in enumerate(plans, start=1):
        hand = Hand(cards, tuple(Entry(p, plan[p]["bid"], plan[p]["tricks"], plan[p]["bonuses"]) for p in PLAYERS))
        assert rules.validate_hand(table, cards, hand) == []
        for player, points in rules.score_hand(table, hand).items():
            totals[player] += points
    return totals


def bid_round(page, plan: dict[str, dict], number: int) -> None:
    """Every player bids secretly, then YO-HO-HO."""
    from playwright.sync_api import expect

    for seat, player in enumerate(PLAYERS):
        page.locator(".bidder summary", has_text=player).click()
        page.locator(f".bidder:nth-child({seat + 1}) .numpad button[value='{plan[player]['bid']}']").click()
        if seat < len(PLAYERS) - 1:
            expect(page.locator(f".bidder:nth-child({seat + 1})")).to_have_class(re.compile("ready"))
        if number == 2 and seat == 1:
            screenshot(page, "02-bidding")
    # The last bid starts the count; the bids show by themselves.
    expect(page.get_by_role("heading", name="Tricks and bonuses")).to_be_visible()


def enter_results(page, plan: dict[str, dict]) -> None:
    """Tricks with the steppers and the Made-the-bid button; captures in the bonus panel."""
    for seat, player in enumerate(PLAYERS):
        wanted = plan[player]["tricks"]
        if wanted == plan[player]["bid"]:
            page.locator(f"#player-{seat} .made-it").click()
        else:
            page.fill(f"#tricks-{seat}", str(wanted))
        for kind, count in plan[player]["bonuses"].items():
            card = page.locator(f"#player-{seat}")
            if card.locator("details.bonuses").get_attribute("open") is None:
                card.locator("details.bonuses summary").click()
            if kind == "skull_king_by_mermaid":
                page.check(f"#{kind}-{seat}")
            else:
                page.fill(f"#{kind}-{seat}", str(count))


def test_a_whole_classic_game_for_four(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, accept_downloads=True, locale="en-GB")
    page = context.new_page()
    page.goto(live_server + "/")
    page.get_by_role("link", name="New game").click()
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#player-{seat}", name)
    screenshot(page, "01-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
    game_url = page.url

    plans = [planned_hand(cards) for cards in range(1, 11)]
    for number, plan in enumerate(plans, start=1):
        expect(page.get_by_role("heading", name=f"Hand {number} of 10")).to_be_visible()
        bid_round(page, plan, number)
        if number == 3:
            # A wrong count first: the hand is refused with a reason, nothing is scored.
            page.fill("#tricks-0", "3")
            page.fill("#tricks-1", "2")
            page.get_by_role("button", name="Score the hand").click()
            expect(page.locator("#problems")).to_contain_text("the tricks won add up to")
            screenshot(page, "03-tricks-with-problem")
        enter_results(page, plan)
        if number == 6:
            page.get_by_role("link", name="Score pad").click()
            expect(page.get_by_role("heading", name="Score pad")).to_be_visible()
            screenshot(page, "04-pad-mid-game")
            page.get_by_role("link", name="Hand", exact=True).click()
            expect(page.get_by_role("heading", name="Tricks and bonuses")).to_be_visible()
            enter_results(page, plan)
        page.get_by_role("button", name="Score the hand").click()

    expect(page.locator("#main").get_by_text("The game is over")).to_be_visible()

    # Hand 3 was really Ben 0 and Cara 1... the table corrects it afterwards.
    plans[2]["Ben"]["tricks"], plans[2]["Cara"]["tricks"] = plans[2]["Cara"]["tricks"], plans[2]["Ben"]["tricks"]
    page.goto(game_url + "/pad")
    page.get_by_role("link", name="Correct hand 3").click()
    expect(page.get_by_role("heading", name="Correct hand 3")).to_be_visible()
    for seat, player in enumerate(PLAYERS):
        page.fill(f"#tricks-{seat}", str(plans[2][player]["tricks"]))
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#main").get_by_text("corrected")).to_be_visible()

    totals = expected_totals(plans)
    page.goto(game_url + "/end")
    for player, total in totals.items():
        row = page.locator(".leaderboard tbody tr", has_text=player)
        expect(row.locator(".total")).to_have_text(str(total).replace("-", "−"))
    screenshot(page, "05-end")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="CSV").click()
    rows = list(csv.DictReader(io.StringIO(download_info.value.path().read_text(encoding="utf-8"))))
    last = {row["player"]: int(row["total"]) for row in rows if row["hand"] == "10"}
    assert last == totals
    assert len(rows) == 40
    context.close()


def test_the_printed_pad_of_a_full_game_fits_one_a4_page(browser, live_server: str) -> None:
    import json
    import re as regex
    import urllib.request

    from scorekeeper.shelf.skullking.pad import write_pad

    players = ("Anne", "Benedikt", "Cara", "Dan", "Eve", "Finn", "Greta", "Hugo")
    table = Setup("modern", players)
    hands = []
    for cards in rules.cards_per_hand(table):
        entries = [Entry(p, 0, 0) for p in players[1:]]
        hands.append(Hand(cards, (Entry("Anne", cards, cards), *entries)))
    request = urllib.request.Request(live_server + "/games/import", method="POST",
                                     data=json.dumps(write_pad(table, hands)).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        game_url = response.headers["Location"]
    page = browser.new_page()
    page.goto(game_url + "/pad")
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", print_background=False)
    (SCREENSHOTS / "pad-print.pdf").write_bytes(pdf)
    pages = len(regex.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 1
    page.close()


def test_importing_from_the_start_page_puts_the_games_address_in_the_bar(browser, live_server: str,
                                                                           finished_pad: dict, tmp_path) -> None:
    import json

    from playwright.sync_api import expect

    unfinished = {**finished_pad, "hands": finished_pad["hands"][:1]}
    file = tmp_path / "pad.json"
    file.write_text(json.dumps(unfinished), encoding="utf-8")
    page = browser.new_page()
    page.goto(live_server + "/")
    page.set_input_files("input[type=file][name=pad]", str(file))
    page.locator("form[action$='/games/import'] button[type=submit]").click()
    expect(page.get_by_role("heading", name="Hand 2 of 2")).to_be_visible()
    assert re.search(r"/games/[A-Za-z0-9_-]+$", page.url), page.url
    page.reload()
    expect(page.get_by_role("heading", name="Hand 2 of 2")).to_be_visible()
    page.close()


def test_a_stepper_stops_at_its_bounds(browser, live_server: str) -> None:
    """The host's − and + keys of a count go no lower than its least and no higher than its most: no fewer than 0
    tricks, no more than the one card of hand 1; each tap saved as typing would be."""
    from playwright.sync_api import expect

    host = new_classic_game(browser, live_server, ("Anne", "Ben"))
    host_bids(host, {0: 0, 1: 1})
    expect(host.locator(".bids-total")).to_have_text("Bids: 1 for 1 trick")
    tricks = host.locator("#tricks-1")
    less = host.get_by_role("button", name="Less – Tricks won by Ben")
    more = host.get_by_role("button", name="More – Tricks won by Ben")
    less.click()
    expect(tricks).to_have_value("0")
    more.click()
    more.click()
    expect(tricks).to_have_value("1")
    less.click()
    less.click()
    expect(tricks).to_have_value("0")
    # The last tap is saved (its draft sent once the taps pause): the page drawn anew shows it.
    with host.expect_response(lambda response: response.request.method == "POST"):
        more.click()
    expect(tricks).to_have_value("1")
    host.reload()
    expect(host.locator("#tricks-1")).to_have_value("1")
