"""Every page and state, in all four languages, checked by axe-core and at 320 px; sizes, zoom and themes looked at."""

from __future__ import annotations

import json

import pytest

from tests.browser import PHONE, host_bids, screenshot, take_over_as_host

pytestmark = pytest.mark.browser

# WCAG 2.1 A and AA, the level the app promises.
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
# Every rule axe-core has, of any impact: WCAG's and its best practices (unique landmarks, headings in order…).
EVERY_RULE = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                                     "best-practice"]}}


def violations(page, every_rule: bool = False) -> list[str]:
    """What axe-core finds on the page as it is now (against WCAG 2.1 AA, or every rule), one line each."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, options=EVERY_RULE if every_rule else WCAG_21_AA).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}" for v in found]


def small_targets(page) -> list[str]:
    """Controls a finger would struggle with: smaller than 44 px, links inside running text aside."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(
        'button, select, summary, input:not([type=hidden]), a.button, nav a'))
      .filter(e => e.offsetParent !== null && !e.closest('.sr-only'))
      .map(e => [e, ((e.type === 'checkbox' || e.type === 'radio') && e.closest('label') || e).getBoundingClientRect()])
      .filter(([e, r]) => r.height < 43.5 || r.width < 43.5)
      .map(([e, r]) => `${e.outerHTML.slice(0, 80)} ${Math.round(r.width)}x${Math.round(r.height)}`)""")


def scrolls_sideways(page) -> bool:
    """Whether the page is wider than the device's screen (not the layout viewport, which a phone widens to fit
    a page too wide for it)."""
    return page.evaluate("() => document.documentElement.scrollWidth > Math.min(window.innerWidth, screen.width) + 1")


def overflowing_controls(page) -> list[str]:
    """Buttons and links drawn as buttons whose words do not fit in them."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('button, a.button, summary'))
      .filter(e => e.offsetParent !== null && !e.closest('.sr-only') && e.scrollWidth > e.clientWidth + 1)
      .map(e => `${e.outerHTML.slice(0, 80)} ${e.scrollWidth}>${e.clientWidth}`)""")


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_every_page_and_state_passes_axe(browser, live_server: str, language: str,
                                        finished_pad: dict) -> None:
    from playwright.sync_api import expect

    problems: dict[str, list[str]] = {}

    def check(page, state: str) -> None:
        page.wait_for_load_state()
        # English and German are held to every rule of any impact; French and Italian to WCAG 2.1 AA.
        found = violations(page, language in ("en", "de")) + [f"small target: {t}" for t in small_targets(page)]
        if scrolls_sideways(page):
            found.append("the page scrolls sideways")
        # The narrowest phones (and 200 % zoom on a common one): 320 px, in every language.
        size = page.viewport_size
        page.set_viewport_size({"width": 320, "height": size["height"]})
        if scrolls_sideways(page):
            found.append("the page scrolls sideways at 320 px")
        found += [f"words overflow at 320 px: {c}" for c in overflowing_controls(page)]
        page.set_viewport_size(size)
        if found:
            problems[state] = found
        assert page.evaluate("() => document.documentElement.lang") == language, state

    host_context = browser.new_context(viewport=PHONE, locale=language)
    host = host_context.new_page()
    host.goto(live_server + "/")
    check(host, "home")
    host.goto(live_server + "/games/new")
    check(host, "new game")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("#problems li").first).to_be_visible()
    check(host, "new game refused")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator(".qr img")).to_be_visible()
    game = host.url
    check(host, "host: bids and the QR code")

    phone_context = browser.new_context(viewport=PHONE, locale=language)
    phone = phone_context.new_page()
    phone.goto(game + "/join")
    check(phone, "phone: join")
    phone.locator("button.seat-choice", has_text="Anne").click()
    expect(phone.locator(".numpad.mine")).to_be_visible()
    check(phone, "phone: bidding")
    phone.locator(".numpad.mine button[value='1']").click()
    expect(phone.locator(".numpad.mine button[aria-pressed=true]")).to_have_count(1)
    check(phone, "phone: ready")

    # A second phone for Anne (hers is lost): the taken seat, the wait, and the host's one-tap answer.
    second_context = browser.new_context(viewport=PHONE, locale=language)
    second = second_context.new_page()
    second.goto(game + "/join")
    check(second, "phone: join with a seat taken")
    second.locator("button.seat-choice.taken").click()
    expect(second.locator(".waiting")).to_be_visible()
    check(second, "phone: waiting for the host")
    expect(host.locator(".asking")).to_be_visible()
    check(host, "host: a phone asks for a seat")
    host.locator(".asking form").nth(1).locator("button").click()
    expect(host.locator(".asking")).to_have_count(0)
    second_context.close()

    host.locator("#bidder-1 summary").click()
    check(host, "host: bidding for a player")
    host.locator("#bidder-1 .numpad button[value='0']").click()
    expect(host.locator("form.results")).to_be_visible()
    check(host, "host: results")
    host.goto(game + "/trick")
    check(host, "trick judge")
    host.locator(".suit-keys a").first.click()
    expect(host.locator(".number-keys")).to_be_visible()
    check(host, "trick judge: a suit's numbers")
    host.goto(game)
    expect(host.locator("form.results")).to_be_visible()
    expect(phone.locator(".tricks-pad")).to_be_visible()
    check(phone, "phone: results")
    phone.locator(".count-face .face-add").first.click()
    expect(phone.locator(".count-face.counted")).to_have_count(1)
    phone.locator(".count-face .face-less").first.click()
    check(phone, "phone: a bonus card counted and taken back")

    # Anne says her result (she made her bid); the host counts for Ben, who has no phone.
    phone.locator(".done-button").click()
    expect(phone.locator(".done-note")).to_be_visible()
    check(phone, "phone: result in")
    host.fill("#tricks-1", "1")
    host.locator("button[name=intent][value=score]").click()
    expect(host.locator("#problems li").first).to_be_visible()
    check(host, "host: a hand refused")
    host.fill("#tricks-1", "0")
    host.locator("button[name=intent][value=score]").click()
    expect(host.locator("#bidder-1")).to_be_visible()
    check(host, "host: hand 2")
    host.goto(game + "/pad")
    check(host, "score pad")
    host.goto(game + "/screen")
    check(host, "big screen")
    host.goto(game + "/hands/1")
    check(host, "correcting a hand")
    host.goto(game + "/no-such-page")
    check(host, "not found")
    host.goto(game + "/rules")
    check(host, "rules")
    host.goto(live_server + "/offline")
    check(host, "offline page")

    # The other games on the shelf: their forms, a game being entered, a round with its lines.
    host.goto(live_server + "/games/new/skip-bo")
    check(host, "skip-bo: new match")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator(".match-now")).to_be_visible()
    check(host, "skip-bo: who went out")
    host.locator("#card button[name=went_out]").first.click()
    expect(host.locator(".left-form")).to_be_visible()
    check(host, "skip-bo: cards left")
    host.goto(host.url + "/rules")
    check(host, "skip-bo: rules")
    host.goto(host.url.removesuffix("/rules") + "/screen")
    check(host, "skip-bo: big screen")
    host.goto(live_server + "/games/new/free-pad")
    check(host, "free pad: new game")
    host.fill("#game-name", "Rummy")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("#points-0")).to_be_visible()
    check(host, "free pad: a round")
    host.fill("#points-0", "12")
    host.fill("#points-1", "-3")
    host.locator("#card button[type=submit]").first.click()
    expect(host.locator("h1#round-title")).to_contain_text("2")
    check(host, "free pad: round 2, round 1 on the pad")
    host.goto(host.url + "/rules")
    check(host, "free pad: rules")
    host.goto(host.url.removesuffix("/rules") + "/screen")
    check(host, "free pad: big screen")
    host.goto(live_server + "/join")
    check(host, "join by code")
    host.goto(live_server + "/games/new/dracula")
    check(host, "dracula: new game")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator(".coffin")).to_be_visible()
    check(host, "dracula: the coffin")
    for cell, card in enumerate("5H 7H 2C QS 9D QH KD 4S 10S".split()):
        host.fill(f"#cell-{cell}", card)
    host.locator(".coffin-form button[type=submit]").click()
    expect(host.locator(".last-round")).to_be_visible()
    check(host, "dracula: a round scored")
    host.goto(host.url + "/rules")
    check(host, "dracula: rules")
    host.goto(host.url.removesuffix("/rules") + "/screen")
    check(host, "dracula: big screen")
    host.goto(live_server + "/games/new/wizard")
    check(host, "wizard: new game")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.check("input[name=no_even_bids]")
    host.locator("form.new-game button[type=submit]").click()

    def for_seat(seat: int, value: int, field: str = "bid") -> None:
        pad = host.locator(f"#card form.numpad:has(input[name=seat][value='{seat}'])")
        expect(pad.locator(f"button[name={field}]").first).to_be_visible()
        pad.locator(f"button[name={field}][value='{value}']").click()

    for_seat(1, 0)
    for_seat(2, 0)
    expect(host.locator("#card .forbidden-key")).to_be_visible()
    check(host, "wizard: the last bidder may not bid one number")
    for_seat(0, 0)
    for seat, tricks in ((0, 1), (1, 1), (2, 0)):
        for_seat(seat, tricks, "tricks")
    expect(host.locator("#table-problems p")).to_be_visible()
    check(host, "wizard: tricks that do not add up")
    for_seat(1, 0, "tricks")
    expect(host.locator(".match-pad")).to_be_visible()
    check(host, "wizard: round 2, round 1 on the pad")
    game_url = host.url
    host.goto(game_url + "/wizard/rounds/1")
    check(host, "wizard: correct a round")
    host.goto(game_url + "/screen")
    check(host, "wizard: big screen")
    host.goto(game_url + "/rules")
    check(host, "wizard: rules")

    imported = host.request.post(live_server + "/games/import", data=json.dumps(finished_pad),
                                 headers={"Content-Type": "application/json"})
    assert imported.status == 201
    take_over_as_host(host, imported.json()["host_url"])
    host.goto(imported.headers["location"] + "/end")
    check(host, "end")
    host.locator(".delete-game summary").click()
    check(host, "end: delete, with its confirmation")
    host.goto(live_server + "/")
    expect(host.locator(".game-list")).to_be_visible()
    check(host, "home: your games")
    host.goto(imported.headers["location"] + "/end")
    host.locator("a[href*='/crews/']").click()
    expect(host.locator("figure.chart").first).to_be_visible()
    check(host, "crew: statistics and charts")
    host.locator(".rating-explained summary").click()
    check(host, "crew: how the rating works")
    host.locator(".crew-stats tbody a").first.click()
    expect(host.locator("#player-title")).to_be_visible()
    check(host, "crew: a player's page")
    host_context.close()
    phone_context.close()
    assert problems == {}, json.dumps(problems, indent=1)


@pytest.mark.parametrize("width", [320, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bidding_and_the_pad_at_phone_sizes_in_both_themes(browser, live_server: str, width: int,
                                                           scheme: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": width, "height": PHONE["height"]}, color_scheme=scheme,
                                  locale="en-GB")
    host = context.new_page()
    host.goto(live_server + "/games/new")
    for seat, name in enumerate(("Anne", "Ben", "Cara", "Dan")):
        host.fill(f"#player-{seat}", name)
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator(".qr img")).to_be_visible()
    game = host.url
    phone = context.browser.new_context(viewport={"width": width, "height": PHONE["height"]},
                                        color_scheme=scheme, locale="en-GB").new_page()
    phone.goto(game + "/join")
    phone.locator("button.seat-choice", has_text="Cara").click()
    phone.locator(".numpad.mine button[value='1']").click()
    expect(phone.locator(".numpad.mine button[aria-pressed=true]")).to_have_count(1)
    assert not scrolls_sideways(phone)
    screenshot(phone, f"20-bidding-{width}-{scheme}")
    host_bids(host, {0: 0, 1: 0, 3: 0})
    expect(host.locator("form.results")).to_be_visible()
    phone.locator(".done-button").click()
    expect(phone.locator(".done-note")).to_be_visible()
    for seat in (0, 1, 3):
        host.fill(f"#tricks-{seat}", "0")
    host.locator("button[name=intent][value=score]").click()
    expect(host.locator("#bidder-0")).to_be_visible()
    phone.goto(game + "/pad")
    expect(phone.locator("table.pad")).to_be_visible()
    assert not scrolls_sideways(phone)
    screenshot(phone, f"21-pad-{width}-{scheme}")
    phone.context.close()
    context.close()
