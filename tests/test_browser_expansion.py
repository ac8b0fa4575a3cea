"""The 2025 Expansion Pack at a table of nine: every player bids and enters their result on their own phone, the
host's laptop shows the same pad, every screen's totals equal the rules, and the exported pad scores to itself."""

from __future__ import annotations

import json

import pytest

from scorekeeper.shelf import score_any
from scorekeeper.shelf.skullking import rules
from scorekeeper.shelf.skullking.rules import Entry, Hand, Options, Setup
from tests.browser import host_bids, join_phones, screenshot

pytestmark = pytest.mark.browser

NAMES = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn", "Greta", "Hugo", "Ida")
# What each player bids, takes and captures, hand by hand (hand n deals n cards). Hand 1: Anne's one trick holds a
# compass 8; Ben bid 0 and his Davy Jones destroyed the Stingray. Hand 2: Cara's Skull King took Con, a compass 7
# in her tricks; Dan missed his bid by one.
PLAN: list[dict[str, tuple[int, int, dict[str, int]]]] = [
    {"Anne": (1, 1, {"expansion_eights": 1}), "Ben": (0, 0, {"davy_jones_monsters": 1})},
    {"Cara": (2, 2, {"expansion_sevens": 1, "first_mate_taken": 1}), "Dan": (1, 0, {})},
]
TABLE = Setup("modern", NAMES, Options(expansion=True))


def planned(number: int, name: str) -> tuple[int, int, dict[str, int]]:
    """A player's bid, tricks and captures in hand `number` (those not named bid 0 and take nothing)."""
    return PLAN[number - 1].get(name, (0, 0, {}))


def expected_totals() -> dict[str, int]:
    totals = dict.fromkeys(NAMES, 0)
    for number in range(1, len(PLAN) + 1):
        hand = Hand(number, tuple(Entry(name, *planned(number, name)) for name in NAMES))
        assert rules.validate_hand(TABLE, number, hand) == []
        for name, points in rules.score_hand(TABLE, hand).items():
            totals[name] += points
    return totals


def test_nine_phones_play_an_expansion_game_and_every_screen_agrees(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
    errors: list[str] = []
    host.on("pageerror", lambda error: errors.append(str(error)))
    host.goto(live_server + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(NAMES):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=expansion]")
    host.locator("form button.primary[type=submit]").last.click()
    join_url = host.locator(".join-link a").get_attribute("href")
    phones = join_phones(browser, live_server + join_url if join_url.startswith("/") else join_url, NAMES)
    # The smallest phone and a common one, for the result card's pictures.
    phones["Anne"].set_viewport_size({"width": 320, "height": 640})
    for page in phones.values():
        page.on("pageerror", lambda error: errors.append(str(error)))

    for number in range(1, len(PLAN) + 1):
        for name, page in phones.items():
            bid = planned(number, name)[0]
            page.locator(f"#card form.numpad.mine button[value='{bid}']").click()
        for seat, (name, page) in enumerate(phones.items()):
            _, tricks, captures = planned(number, name)
            expect(page.locator("#card .done-button")).to_be_visible()
            page.locator(f"#card .tricks-pad label:has(input[value='{tricks}'])").click()
            expect(page.locator(f"#tricks-{seat}-{tricks}")).to_be_checked()
            for kind, count in captures.items():
                if kind in ("first_mate_taken", "davy_jones_monsters"):
                    more = page.locator(f"#more-{seat}")
                    if more.get_attribute("open") is None:
                        more.locator("summary").click()
                if kind == "first_mate_taken":
                    page.locator(f"#{kind}-{seat}").check()
                else:
                    for _ in range(count):
                        page.locator(f"#{kind}-{seat}-more").click()
                expect(page.locator(f"#{kind}-{seat}")).to_have_value("on" if kind == "first_mate_taken"
                                                                      else str(count))
            if number == 1 and name in ("Anne", "Ben"):
                screenshot(page, f"93-expansion-result-{page.viewport_size['width']}")
            page.locator("#card .done-button").click()
        expect(host.locator("h1")).to_contain_text(f"Hand {number + 1} of 10")

    totals = expected_totals()
    for page in [host, *phones.values()]:
        for name, total in totals.items():
            row = page.locator(".leaderboard tbody tr", has_text=name).first
            expect(row.locator(".total")).to_have_text(str(total).replace("-", "−"))
    screenshot(host, "93-expansion-host-1280")
    pad = host.request.get(host.url.split("?")[0] + "/pad.json").json()
    assert pad["options"]["expansion"] is True
    assert score_any(json.dumps(pad)) == pad
    assert pad["totals"] == totals
    assert errors == []


def judge_by_keyboard(page, keys: list[str]) -> None:
    """Each entry: the letters or digits that find a key of the judge's keypad, then Enter on it."""
    from playwright.sync_api import expect

    for typed in keys:
        # After each key the page puts the focus on the keypad again (the first suit, or the first number).
        expect(page.locator("[data-keypad] .key:focus")).to_have_count(1)
        before = page.url
        page.keyboard.type(typed)
        page.keyboard.press("Enter")
        page.wait_for_function("before => location.href !== before", arg=before)


def test_the_judge_by_keyboard_on_a_phone_for_a_last_volley_and_a_walk_the_plank_trick(browser,
                                                                                        live_server: str) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
    errors: list[str] = []
    host.on("pageerror", lambda error: errors.append(str(error)))
    host.goto(live_server + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=expansion]")
    host.locator("form button.primary[type=submit]").last.click()
    host_bids(host, {0: 1, 1: 0, 2: 0})
    expect(host.locator("form.results")).to_be_visible()
    judge = host.locator(".judge-link a").first.get_attribute("href")

    # Ben leads (Anne dealt): Ben yellow 6, Cara the Last Volley, Anne yellow 9; then Cara's second card, yellow 12.
    host.goto(live_server + judge if judge.startswith("/") else judge)
    host.locator(".suit-keys a").first.focus()
    judge_by_keyboard(host, ["y", "6", "la", "y", "9"])
    expect(host.get_by_role("heading", name="Last Volley: Cara's second card")).to_be_visible()
    judge_by_keyboard(host, ["y", "12"])
    expect(host.locator("#verdict")).to_contain_text("Cara wins the trick with Last Volley, then Yellow 12.")
    screenshot(host, "94-judge-last-volley-390")

    # The next trick from the start: Ben a Pirate, Cara Mary Thorne, Anne Walk the Plank; Anne makes Mary walk.
    host.goto(live_server + judge if judge.startswith("/") else judge)
    host.locator(".suit-keys a").first.focus()
    judge_by_keyboard(host, ["pi", "ma", "wa"])
    expect(host.get_by_role("heading", name="Walk the Plank: which Pirate walks?")).to_be_visible()
    judge_by_keyboard(host, ["ma"])
    expect(host.locator("#verdict")).to_contain_text("Ben wins the trick with Pirate.")
    screenshot(host, "94-judge-walk-the-plank-390")
    assert errors == []
