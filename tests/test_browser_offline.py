"""A phone that loses its connection: what it taps waits, visibly, and goes once when it is back; an answer lost on
its way back is sent again and applied once."""

from __future__ import annotations

import re

import pytest

from tests.browser import PHONE, cannonball_table, host_bids, screenshot, start_server, stop_server

pytestmark = pytest.mark.browser

WAITING = "Not sent yet: no connection. It goes as soon as the phone is back."


def edition(page) -> int:
    """The version of the table this screen shows: one more for every change the table stored (its edition is
    twice that, plus one once a count ended)."""
    return int(page.locator("#table").get_attribute("data-edition")) // 2


def offline_tap(page, tap, name: str = "") -> None:
    """`page`'s phone loses its connection, taps, sees the tap waiting, and gets its connection back."""
    from playwright.sync_api import expect

    page.context.set_offline(True)
    tap()
    expect(page.locator("#waiting-taps")).to_contain_text(WAITING)
    if name:
        screenshot(page, f"85-{name}-waiting-390")
    page.wait_for_timeout(500)  # nothing goes while offline
    expect(page.locator("#waiting-taps")).to_contain_text(WAITING)
    page.context.set_offline(False)
    expect(page.locator("#waiting-taps")).to_be_empty()


def settled(pages, editions: dict, more: int = 1) -> None:
    """Every screen shows the table one change (`more`) on from where it was: the tap was applied once."""
    for page in pages:
        wanted = editions[page] + more
        page.wait_for_function(f"() => Math.floor(document.querySelector('#table').dataset.edition / 2) >= {wanted}",
                               timeout=15_000)
    pages[0].wait_for_timeout(500)  # a second application would have shown by now
    assert [edition(page) for page in pages] == [editions[page] + more for page in pages]


def test_a_bid_a_load_and_done_tapped_offline_go_once_when_the_phone_is_back(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = cannonball_table(browser, live_server)
    anne, ben = phones["Anne"], phones["Ben"]
    screens = (host, anne, ben)

    # A bid tapped offline.
    before = {page: edition(page) for page in screens}
    offline_tap(anne, lambda: anne.locator(".numpad.mine button[value='1']").click(), "bid")
    expect(anne.locator("#main").get_by_text("Your bid is 1")).to_be_visible()
    settled(screens, before)
    expect(host.locator("#bidders li.ready")).to_have_count(1)

    ben.locator(".numpad.mine button[value='0']").click()
    host_bids(host, {2: 0})
    expect(ben.get_by_role("heading", name="Load your cannon in secret")).to_be_visible()

    # A cannon loaded offline.
    before = {page: edition(page) for page in screens}
    offline_tap(ben, lambda: ben.get_by_role("button", name="Grapeshot").click(), "load")
    expect(ben.locator("#main").get_by_text("Your cannon is loaded with Grapeshot.")).to_be_visible()
    settled(screens, before)
    anne.get_by_role("button", name="Cannonball").click()
    host.locator("#loader-2 summary").click()
    host.locator("#loader-2 button.load-grapeshot").click()
    expect(anne.get_by_role("heading", name="Your result")).to_be_visible()

    # Done tapped offline.
    before = {page: edition(page) for page in screens}
    offline_tap(anne, lambda: anne.get_by_role("button", name="Done").click(), "done")
    settled(screens, before)
    expect(host.locator("#table")).to_contain_text("Anne")
    expect(anne.get_by_role("button", name="Done")).to_have_count(0)


def test_one_more_trick_nobody_won_whose_answer_was_lost_counts_once(browser, live_server: str) -> None:
    """The request reaches the table but its answer never comes back: the page sends it again, with the same tap,
    and the table answers as it did the first time."""
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(("Anne", "Ben")):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=advanced_cards]")
    host.get_by_role("button", name="Start the game").click()
    host.locator(".house-rule summary").click()
    host.fill("#cards", "3")
    host.get_by_role("button", name="Change the cards").click()
    expect(host.locator(".facts dd.big")).to_have_text("3")
    host_bids(host, {0: 0, 1: 0})
    more = host.locator(".lost-buttons button[value='lost-more']")
    expect(more).to_be_visible()
    before = edition(host)
    lost: list[str] = []

    def answer_lost(route) -> None:
        # The table gets the request and answers; the answer is lost on its way back, once.
        route.fetch()
        lost.append(route.request.headers.get("x-tap", ""))
        route.abort("connectionreset")
        host.unroute("**/hands/1", answer_lost)

    host.route("**/hands/1", answer_lost)
    more.click()
    settled((host,), {host: before})
    expect(host.locator("#waiting-taps")).to_be_empty()
    host.wait_for_timeout(500)
    assert edition(host) == before + 1 and lost and lost[0]
    expect(host.locator("#table .lost-count strong")).to_have_text("1")


def test_a_free_pad_score_and_a_skip_bo_count_tapped_offline_go_once(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    from tests.test_browser_shelf_live import start

    host, phones = start(browser, live_server, "free-pad", {"#game-name": "Rummy"}, ("Anne", "Ben"))
    anne, ben = phones["Anne"], phones["Ben"]
    screens = (host, anne, ben)
    before = {page: edition(page) for page in screens}
    anne.fill("#points-0", "-3")
    offline_tap(anne, lambda: anne.get_by_role("button", name="Save").click(), "free-pad")
    settled(screens, before)
    for page in screens:
        expect(page.locator(".status-list li", has_text="Anne").get_by_text("−3")).to_be_visible()

    host, phones = start(browser, live_server, "skip-bo", {"#target": "500"}, ("Anne", "Ben"))
    anne, ben = phones["Anne"], phones["Ben"]
    screens = (host, anne, ben)
    anne.get_by_role("button", name="I went out").click()
    ben.wait_for_selector("#left-1")
    before = {page: edition(page) for page in screens}
    ben.fill("#left-1", "7")
    offline_tap(ben, lambda: ben.get_by_role("button", name="Save").click(), "skip-bo")
    settled(screens, before)
    # Ben's 7 cards were the last count: the game is scored, Anne's +60 on every screen.
    for page in screens:
        expect(page.locator("#main")).to_contain_text("+60")


def test_a_waiting_tap_refused_when_it_goes_says_why_and_raises_no_script_error(browser, live_server: str) -> None:
    """Anne's bid waits while she is offline; meanwhile the host frees her seat. Back online, the tap goes again and
    is refused (403): the page says so in words, and no script error is raised on the way."""
    from playwright.sync_api import expect

    host, phones = cannonball_table(browser, live_server)
    anne = phones["Anne"]
    errors: list[str] = []
    anne.on("pageerror", lambda error: errors.append(str(error)))
    anne.context.set_offline(True)
    anne.locator(".numpad.mine button[value='1']").click()
    expect(anne.locator("#waiting-taps")).to_contain_text(WAITING)
    host.locator("#phones summary").click()
    host.get_by_role("button", name="Free the seat of Anne").click()
    expect(host.get_by_role("button", name="Free the seat of Anne")).to_have_count(0)
    # Still offline when the page tries it again by itself (every few seconds): that try fails without a word.
    anne.wait_for_timeout(4500)
    expect(anne.locator("#waiting-taps")).to_contain_text(WAITING)
    anne.context.set_offline(False)
    refused = anne.locator("#waiting-taps .refused")
    expect(refused).to_contain_text("Not applied: Only that player's own phone or the host can change this.")
    expect(anne.locator("#waiting-taps")).not_to_contain_text(WAITING)
    assert errors == []


def test_a_bid_waiting_survives_a_reload_and_a_closed_tab_and_goes_once(browser, live_server: str) -> None:
    """Anne's bid cannot go (her connection drops every try): it waits, is still waiting after she reloads the page
    and after she closes the tab and opens the game again, and goes once, with its own tap id, when it can."""
    from playwright.sync_api import expect

    host, phones = cannonball_table(browser, live_server)
    anne = phones["Anne"]
    game = anne.url
    before = edition(host)
    sent: list[str] = []

    def no_connection(route) -> None:
        sent.append(route.request.headers.get("x-tap", ""))
        route.abort("internetdisconnected")

    anne.context.route("**/hands/1/bid", no_connection)
    anne.locator(".numpad.mine button[value='1']").click()
    expect(anne.locator("#waiting-taps")).to_contain_text(WAITING)
    anne.reload()
    expect(anne.locator("#waiting-taps")).to_contain_text(WAITING)
    screenshot(anne, "86-bid-waiting-after-reload-390")
    anne.close()
    anne = phones["Anne"].context.new_page()
    anne.goto(game)
    expect(anne.locator("#waiting-taps")).to_contain_text(WAITING)
    expect(host.locator("#bidders li.ready")).to_have_count(0)
    assert len(sent) >= 3 and len(set(sent)) == 1, sent  # one tap, tried again after the reload and the new tab

    anne.context.unroute("**/hands/1/bid", no_connection)
    expect(anne.locator("#main").get_by_text("Your bid is 1")).to_be_visible(timeout=10_000)
    expect(anne.locator("#waiting-taps")).to_be_empty()
    settled([host], {host: before})
    expect(host.locator("#bidders li.ready")).to_have_count(1)
    # Answered: nothing is kept any more, and the next page sends nothing.
    assert anne.evaluate("Object.keys(localStorage).filter(key => key.startsWith('taps:'))") == []
    anne.reload()
    anne.wait_for_timeout(500)
    settled([host], {host: before})


UNANSWERED = "Not applied yet: the table did not answer. Trying again…"
# What a proxy in front of the table answers while the app restarts or is slow: none of it the app's answer.
PROXY_ANSWERS = [
    {"status": 502, "content_type": "text/html", "body": "<html><body><main><p>502 Bad Gateway</p></main></body></html>"},
    {"status": 502, "body": ""},
    {"status": 503, "content_type": "text/html", "body": "<p class='message'>Service Unavailable</p>",
     "headers": {"Retry-After": "0"}},
    {"status": 504, "content_type": "text/plain", "body": "Gateway Timeout"},
]


def failing_proxy(page, path: str, answers: list[dict]) -> list[str]:
    """Taps to `path` answered by `answers` in turn (a proxy's pages), then by the app; the tap ids of every try."""
    tries: list[str] = []

    def handle(route) -> None:
        tries.append(route.request.headers.get("x-tap", ""))
        if len(tries) <= len(answers):
            route.fulfill(**answers[len(tries) - 1])
        else:
            route.continue_()

    page.route(f"**{path}", handle)
    return tries


@pytest.mark.parametrize("offline_first", [False, True], ids=["online", "queued offline"])
def test_a_bid_a_proxy_answers_502_503_504_stays_waiting_and_goes_once(browser, live_server: str,
                                                                       offline_first: bool) -> None:
    """A proxy's 502 (an HTML page, then an empty body), 503 and 504: the bid stays waiting, says the table did not
    answer, is sent again with its own tap id and applied once when the app answers; the same for a bid tapped
    offline whose first tries meet the proxy."""
    from playwright.sync_api import expect

    host, phones = cannonball_table(browser, live_server)
    anne = phones["Anne"]
    screens = (host, anne)
    before = {page: edition(page) for page in screens}
    if offline_first:
        anne.context.set_offline(True)
        anne.locator(".numpad.mine button[value='1']").click()
        expect(anne.locator("#waiting-taps")).to_contain_text(WAITING)
        # Back online, its first tries meet the proxy.
        tries = failing_proxy(anne, "/hands/1/bid", PROXY_ANSWERS)
        anne.context.set_offline(False)
    else:
        tries = failing_proxy(anne, "/hands/1/bid", PROXY_ANSWERS)
        anne.locator(".numpad.mine button[value='1']").click()
    expect(anne.locator("#waiting-taps")).to_contain_text(UNANSWERED)
    screenshot(anne, f"85-proxy-unanswered-{'offline' if offline_first else 'online'}-390")
    # Nothing of the proxy's pages is drawn into the page, nor taken for a refusal.
    expect(anne.locator("#main")).not_to_contain_text("Bad Gateway")
    expect(anne.locator("#waiting-taps .refused")).to_have_count(0)
    expect(anne.locator("#waiting-taps")).to_be_empty(timeout=30_000)
    expect(anne.locator("#main").get_by_text("Your bid is 1")).to_be_visible()
    settled(screens, before)
    assert len(tries) == len(PROXY_ANSWERS) + 1 and len(set(tries)) == 1 and tries[0], tries


def test_a_bid_the_busy_table_turns_away_goes_again_when_told_and_once(browser, tmp_path) -> None:
    """Another writer holds the table's database: Anne's bid waits its bound (a third of a second here) and is answered
    503 with Retry-After; the page says it is not applied yet, sends it again with its own tap id no sooner than told,
    and once the table is free it is applied once."""
    import sqlite3
    import time

    from playwright.sync_api import expect

    server, url = start_server(tmp_path, WRITE_WAIT_SECONDS="0.3")
    try:
        host, phones = cannonball_table(browser, url)
        anne = phones["Anne"]
        screens = (host, anne)
        before = {page: edition(page) for page in screens}
        tries: list[tuple[float, str, int]] = []
        anne.on("response", lambda answer: answer.url.endswith("/hands/1/bid") and tries.append(
            (time.monotonic(), answer.request.headers.get("x-tap", ""), answer.status)))
        other = sqlite3.connect(tmp_path / "scorekeeper.sqlite", isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            anne.locator(".numpad.mine button[value='1']").click()
            expect(anne.locator("#waiting-taps")).to_contain_text(UNANSWERED)
            anne.wait_for_timeout(2500)
        finally:
            other.execute("ROLLBACK")
            other.close()
        expect(anne.locator("#waiting-taps")).to_be_empty(timeout=15_000)
        expect(anne.locator("#main").get_by_text("Your bid is 1")).to_be_visible()
        settled(screens, before)
        expect(host.locator("#bidders li.ready")).to_have_count(1)
        turned_away = [at for at, _, status in tries if status == 503]
        assert turned_away and tries[-1][2] < 400 and len({tap for _, tap, _ in tries}) == 1, tries
        # Each try after a 503 came no sooner than its Retry-After (a second at the least).
        assert all(later - at >= 0.9 for (at, _, status), (later, _, _) in zip(tries, tries[1:]) if status == 503)
    finally:
        stop_server(server)


def test_no_page_with_a_secret_is_kept_for_back_and_back_shows_what_the_phone_may_see(browser,
                                                                                       live_server: str) -> None:
    """Anne bids 1 on her phone and opens the rules: no page is kept in the browser's storage (htmx's history cache
    held the page with "Your bid is 1"). The host frees her seat meanwhile; Back on her phone shows no bid of hers."""
    from playwright.sync_api import expect

    host, phones = cannonball_table(browser, live_server)
    anne = phones["Anne"]
    anne.locator(".numpad.mine button[value='1']").click()
    expect(anne.locator("#main").get_by_text("Your bid is 1")).to_be_visible()
    anne.locator("#main a", has_text="Rules").first.click()
    expect(anne).to_have_url(re.compile(r"/rules$"))
    kept = anne.evaluate("JSON.stringify(Object.entries(localStorage))")
    assert "Your bid is" not in kept and "htmx-history-cache" not in kept, kept
    host.locator("#phones summary").click()
    host.get_by_role("button", name="Free the seat of Anne").click()
    expect(host.get_by_role("button", name="Free the seat of Anne")).to_have_count(0)
    anne.go_back()
    expect(anne).not_to_have_url(re.compile(r"/rules$"))
    expect(anne.locator("#main h1")).not_to_contain_text("Rules")
    anne.wait_for_load_state("networkidle")
    assert "Your bid is 1" not in anne.locator("body").inner_text()
