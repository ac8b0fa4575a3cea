"""'Invite' on the host's join panel: the join link handed to the device's share sheet where the browser has one (here
a stubbed `navigator.share`), else copied, else selected for the host to copy, said in words each time; in German
too, at 320 px, the QR code kept."""

from __future__ import annotations

import pytest

from tests.browser import new_classic_game, screenshot

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 720}
# A share sheet: what it was handed is kept.
SHARE_SHEET = "window.shared = null; navigator.share = async (data) => { window.shared = data; };"
# A browser without a share sheet.
NO_SHARE_SHEET = "Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });"
# ... and without a clipboard the page may write to (a page over plain HTTP on the home network).
NO_CLIPBOARD = NO_SHARE_SHEET + """
Object.defineProperty(Navigator.prototype, 'clipboard', {
  value: { writeText: () => Promise.reject(new DOMException('not allowed', 'NotAllowedError')) }, configurable: true });
"""


def hosting(browser, base: str, script: str, locale: str = "en-GB", permissions: tuple[str, ...] = ()):
    """A new classic game for three, hosted on a new browser at 320 px that runs `script` first (and may use the
    clipboard with `permissions`); its page and join link."""
    page = new_classic_game(browser, base, ("Anne", "Ben", "Cara"), script, locale, NARROW)
    if permissions:
        page.context.grant_permissions(list(permissions))
    return page, page.locator(".join-link a").inner_text().strip()


def no_sideways_scroll(page) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_invite_hands_the_join_link_to_the_share_sheet(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    page, link = hosting(browser, live_server, SHARE_SHEET)
    assert link.startswith(live_server + "/games/") and link.endswith("/join")
    page.get_by_role("button", name="Invite").click()
    page.wait_for_function("() => window.shared !== null")
    shared = page.evaluate("window.shared")
    assert shared["url"] == link and shared["title"] == "Join our game of Classic (2007)", shared
    # The share sheet said it all: the panel says nothing more, and the QR code stays.
    expect(page.locator(".invite-note")).to_have_text("")
    expect(page.get_by_role("img", name="QR code of the join link")).to_be_visible()
    page.context.close()


def test_invite_without_a_share_sheet_copies_the_join_link_and_says_so_in_german(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    page, link = hosting(browser, live_server, NO_SHARE_SHEET, "de-DE",
                         permissions=("clipboard-read", "clipboard-write"))
    page.get_by_role("button", name="Einladen").click()
    copied = "Der Beitrittslink ist kopiert: füge ihn in eine Nachricht an die Mitspieler ein."
    expect(page.locator(".invite-note")).to_have_text(copied)
    expect(page.locator("#announce-polite")).to_have_text(copied)
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    no_sideways_scroll(page)
    screenshot(page, "invite-copied-de-320")
    page.context.close()


def test_invite_without_a_clipboard_selects_the_join_link_for_the_host(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    page, link = hosting(browser, live_server, NO_CLIPBOARD)
    page.get_by_role("button", name="Invite").click()
    expect(page.locator(".invite-note")).to_have_text(
        "The join link is selected: copy it and send it to the players.")
    assert page.evaluate("() => getSelection().toString().trim()") == link
    no_sideways_scroll(page)
    page.context.close()
