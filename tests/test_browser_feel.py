"""The count felt and heard, where a device asked for it: one toggle on every game screen (off until tapped,
remembered), then a vibration and a sound for YO, HO and HO and the reveal, a refusal and "your turn"; nothing at
all with it off. `navigator.vibrate` and audio are instrumented: what the page asked of them is recorded."""

from __future__ import annotations

import pytest

from tests.browser import host_bids, join_phones, new_classic_game, screenshot

pytestmark = pytest.mark.browser

# What the page asks of the phone's vibration and sound, in order: ("vibrate", pattern) and ("sound", file).
RECORD = """
window.felt = [];
Object.defineProperty(Navigator.prototype, "vibrate", { configurable: true, value: function (pattern) {
  window.felt.push(["vibrate", JSON.stringify(pattern)]); return true; } });
HTMLMediaElement.prototype.play = function () {
  window.felt.push(["sound", new URL(this.src).pathname.split("/").pop()]); return Promise.resolve(); };
"""


def new_host(browser, live_server: str, names=("Anne", "Ben")):
    """A host's page of a new classic game for `names`, every move of it recorded."""
    return new_classic_game(browser, live_server, names, RECORD)


def felt(page) -> list[list[str]]:
    return page.evaluate("window.felt")


def sounds(page) -> list[str]:
    return [what for kind, what in felt(page) if kind == "sound"]


def test_the_count_is_felt_and_heard_once_turned_on_and_remembered(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = new_host(browser, live_server)
    toggle = host.get_by_role("button", name="Sound and vibration")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    host.wait_for_function("() => typeof window.feelIt === 'function'")
    screenshot(host, "87-sound-and-vibration-on-390")
    host_bids(host, {0: 0, 1: 1})
    expect(host.locator(".bids-total")).to_have_text("Bids: 1 for 1 trick")
    host.wait_for_function("() => window.felt.some(([kind, what]) => what === 'reveal.wav')")
    assert sounds(host) == ["yo.wav", "ho.wav", "ho.wav", "reveal.wav"]
    vibrations = [what for kind, what in felt(host) if kind == "vibrate"]
    assert len(vibrations) == 4 and vibrations[2] != vibrations[1], vibrations  # the last HO is longer

    # A refusal is felt too: a bid sent after the reveal.
    host.evaluate("""() => htmx.ajax("POST", location.pathname + "/hands/1/bid",
                                      {target: "#main", values: {seat: 0, bid: 1}})""")
    expect(host.locator("#main .problems").first).to_contain_text("already revealed")
    host.wait_for_function("() => window.felt.some(([kind, what]) => what === 'refused.wav')")

    # Remembered on this device: the next page has it on, and its script.
    host.reload()
    expect(host.get_by_role("button", name="Sound and vibration")).to_have_attribute("aria-pressed", "true")
    host.wait_for_function("() => typeof window.feelIt === 'function'")


def test_nothing_is_felt_or_heard_with_it_off(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host = new_host(browser, live_server)
    host_bids(host, {0: 0, 1: 1})
    expect(host.locator(".bids-total")).to_have_text("Bids: 1 for 1 trick")
    host.wait_for_timeout(800)  # past the reveal's moment
    assert felt(host) == []
    assert host.evaluate("typeof window.feelIt") == "undefined"  # not even loaded


def test_a_wizard_phone_feels_its_turn_to_bid(browser, live_server: str) -> None:
    """Bids in turn: Ben's phone, with the toggle on, feels his turn when it comes to him (pushed by the table), once."""
    from playwright.sync_api import expect

    from tests.test_browser_wizard import tap

    host = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB").new_page()
    host.goto(f"{live_server}/games/new/wizard")
    for seat, name in enumerate(("Anne", "Ben", "Cara")):
        host.fill(f"#player-{seat}", name)
    host.locator("form.new-game button[type=submit]").click()
    expect(host.locator("#round-title")).to_have_text("Round 1 of 20")
    phones = join_phones(browser, host.url + "/join", ("Ben", "Cara"))
    ben, cara = phones["Ben"], phones["Cara"]
    ben.context.add_init_script(RECORD)
    ben.reload()
    ben.get_by_role("button", name="Sound and vibration").click()
    ben.wait_for_function("() => typeof window.feelIt === 'function'")
    # Anne deals round 1, Ben bids first: his turn was there before he turned it on, and is not felt again.
    expect(ben.locator("#my-bid-title")).to_have_text("Your turn to bid")
    tap(ben, "bid", 0)
    tap(cara, "bid", 1)
    tap(host, "bid", 0, seat=0)
    tap(ben, "tricks", 0)
    tap(cara, "tricks", 1)
    tap(host, "tricks", 0, seat=0)
    # Round 2, Ben deals: Cara bids first, then Anne (by the host), then Ben's turn comes to his phone.
    expect(cara.locator("#my-bid-title")).to_have_text("Your turn to bid")
    assert sounds(ben) == []
    tap(cara, "bid", 1)
    tap(host, "bid", 0, seat=0)
    expect(ben.locator("#my-bid-title")).to_have_text("Your turn to bid")
    ben.wait_for_function("() => window.felt.some(([kind, what]) => what === 'turn.wav')")
    assert sounds(ben) == ["turn.wav"]
    assert ["vibrate", "[80,80,80]"] in felt(ben)


# The screen's wake lock, instrumented: every lock granted ("taken", after `grantDelay` ms) and let go of by the page
# ("released"), in order. The browser's own letting go (the page hidden) is `BROWSER_RELEASES`.
WAKE_LOCK = """
window.locks = [];
window.grantDelay = 0;
const grant = () => new Promise((resolve) => setTimeout(() => {
  const lock = Object.assign(new EventTarget(), { released: false, release() {
    if (!this.released) { this.released = true; window.locks.push("released"); }
    return Promise.resolve(); } });
  window.locks.push("taken");
  window.lastLock = lock;
  resolve(lock);
}, window.grantDelay));
Object.defineProperty(Navigator.prototype, "wakeLock", { configurable: true, value: { request: grant } });
"""
# The page hidden and shown again (`times` times, quickly): the browser lets go of the lock, the page is told.
BROWSER_RELEASES = """(times) => {
  window.lastLock.released = true;
  window.lastLock.dispatchEvent(new Event("release"));
  for (let i = 0; i < times; i++) document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_the_screen_stays_awake_while_a_game_is_open(browser, live_server: str) -> None:
    """One lock while a game is open, however often the page is redrawn; asked for once again when the browser let
    go of it (the page was hidden) and it shows again, however quickly that repeats; let go of on leaving the game,
    also when it is granted only after the player left."""
    from playwright.sync_api import expect

    host = new_classic_game(browser, live_server, ("Anne", "Ben"), WAKE_LOCK)
    host.wait_for_function("() => window.locks.length === 1")
    host_bids(host, {0: 0, 1: 1})
    expect(host.locator(".bids-total")).to_have_text("Bids: 1 for 1 trick")
    assert host.evaluate("window.locks") == ["taken"]

    host.evaluate("window.grantDelay = 300")
    host.evaluate(BROWSER_RELEASES, 2)
    host.wait_for_function("() => window.locks.length === 2")
    host.wait_for_timeout(500)
    assert host.evaluate("window.locks") == ["taken", "taken"]

    # Hidden and shown, and the game left (the header's link home, opened by htmx) before the lock is granted.
    host.evaluate(BROWSER_RELEASES, 1)
    host.locator("header a.brand").click()
    host.wait_for_function("() => !document.getElementById('live')")
    host.wait_for_function("() => window.locks.length === 4")
    assert host.evaluate("window.locks") == ["taken", "taken", "taken", "released"]
