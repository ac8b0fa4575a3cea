"""The phone without the network: the app's service worker controls its pages; a page reloaded offline is the app's
offline page in the page's language (not the browser's error page), listing the taps still waiting; a bid tapped
offline survives that reload and a closed and reopened tab, and is applied once when the network is back; the
worker's caches hold no page of a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import PHONE, screenshot
from tests.production import ProductionServer
from tests.test_browser_offline import edition, settled

pytestmark = pytest.mark.browser

# Every address the service worker's caches hold.
CACHED = """async () => {
  const urls = [];
  for (const name of await caches.keys()) {
    for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
  }
  return urls;
}"""


def controlled(page) -> None:
    """The page is reloaded once the worker is ready, so that the worker controls it."""
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


@pytest.mark.parametrize("language, offline_title, waiting", [
    ("de", "Der Tisch ist nicht erreichbar", "Noch nicht gesendet"),
    ("fr", "La table est injoignable", "Pas encore envoyé"),
])
def test_a_bid_tapped_offline_survives_an_offline_reload_and_a_new_tab_and_goes_once(
        browser, tmp_path: Path, language: str, offline_title: str, waiting: str) -> None:
    """The table's server goes away (a phone off the Wi-Fi sees the same: no answer) while Anne's page is open."""
    from playwright.sync_api import expect

    server = ProductionServer(tmp_path)
    server.start()
    try:
        host = browser.new_context(viewport=PHONE, locale=language).new_page()
        host.goto(server.base + "/games/new")
        for seat, name in enumerate(("Anne", "Ben")):
            host.fill(f"#player-{seat}", name)
        host.locator("form button.primary[type=submit]").last.click()
        expect(host.locator(".facts .big")).to_have_text("1")
        phone_context = browser.new_context(viewport=PHONE, locale=language)
        anne = phone_context.new_page()
        anne.goto(host.url + "/join")
        anne.locator("#main form button[name=seat][value='0']").click()
        expect(anne.locator(".numpad.mine")).to_be_visible()
        game = anne.url
        controlled(anne)
        expect(host.locator("#bidders .phone-mark")).to_have_count(1)  # the host's page shows Anne joined
        before = edition(host)

        server.stop()
        anne.locator(".numpad.mine button[value='1']").click()
        expect(anne.locator("#waiting-taps")).to_contain_text(waiting)
        anne.reload()
        expect(anne.get_by_role("heading", name=offline_title)).to_be_visible()
        expect(anne.locator("html")).to_have_attribute("lang", language)
        expect(anne.locator("#waiting-taps")).to_contain_text(waiting)
        screenshot(anne, f"88-offline-page-{language}-390")
        anne.close()
        anne = phone_context.new_page()
        anne.goto(game)
        expect(anne.get_by_role("heading", name=offline_title)).to_be_visible()
        expect(anne.locator("#waiting-taps")).to_contain_text(waiting)
        cached = anne.evaluate(CACHED)
        assert cached and not [url for url in cached if url.startswith("/games/")], cached
        assert "/offline" in cached and any(url.endswith("/app.js") for url in cached), cached

        # Back: the page opens the game by itself, and the bid goes, once.
        server.start()
        expect(anne.locator(".numpad.mine")).to_be_visible(timeout=15_000)
        expect(anne.locator("#waiting-taps")).to_be_empty(timeout=15_000)
        settled([host], {host: before})
        expect(host.locator("#bidders li.ready")).to_have_count(1)
        assert not [url for url in anne.evaluate(CACHED) if url.startswith("/games/")]
    finally:
        server.stop()
