"""The host's role shared, on real browsers: the host asks for "Another host", a second device opens the link (its QR
code's), is asked, becomes a host and runs the game beside the first; a third opens the used link and is told in
words. The new pages pass axe at 320 px without sideways scroll, in German too."""

from __future__ import annotations

import pytest

from tests.browser import new_classic_game, screenshot
from tests.test_browser_a11y import overflowing_controls, scrolls_sideways, small_targets, violations

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 720}


def looked_at(page, name: str) -> None:
    """The page as it is now: axe finds nothing, no control too small or overflowing, no sideways scroll."""
    page.wait_for_load_state()
    found = violations(page, every_rule=True) + small_targets(page) + overflowing_controls(page)
    assert not found and not scrolls_sideways(page), found
    screenshot(page, name)


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_second_device_becomes_a_host_by_the_link_and_a_used_link_is_refused(browser, live_server: str,
                                                                               locale: str) -> None:
    from playwright.sync_api import expect

    german = locale == "de-DE"
    words = {"another": "Weitere Spielleitung" if german else "Another host",
             "role": "Die Spielleitung: eine weitere" if german else "The host's role: another host",
             "ask": "Spielleitung dieses Spiels werden?" if german else "Become a host of this game?",
             "become": "Spielleitung werden" if german else "Become a host",
             "invite": "Einladen" if german else "Invite",
             "gone": ("Dieser Link zur Spielleitung ist schon benutzt oder zu alt" if german
                      else "This link to become a host is used already or too old")}
    host = new_classic_game(browser, live_server, ("Anne", "Ben", "Cara"), locale=locale, viewport=NARROW)
    others = [browser.new_context(viewport=NARROW, locale=locale) for _ in range(2)]
    other, third = (context.new_page() for context in others)

    host.get_by_text(words["role"]).click()
    host.get_by_role("button", name=words["another"], exact=True).click()
    expect(host.get_by_role("heading", name=words["another"])).to_be_visible()
    expect(host.locator(".another-host .qr svg")).to_be_visible()
    link = host.locator(".another-host .join-link a").inner_text().strip()
    assert link.startswith(live_server + "/games/") and "/hosts/" in link
    looked_at(host, f"another-host-{locale}-320")

    # The second device: asked first, then a host; the host's own controls (the join panel's Invite) are its own.
    other.goto(link)
    expect(other.get_by_role("heading", name=words["ask"])).to_be_visible()
    looked_at(other, f"become-host-{locale}-320")
    other.get_by_role("button", name=words["become"]).click()
    expect(other.get_by_role("button", name=words["invite"])).to_be_visible()
    # Both run the game: each sees the host's bid keys for the players without a phone.
    for page in (host, other):
        page.goto(link.split("/hosts/")[0])
        expect(page.locator("#bidder-0")).to_be_visible()

    # The link worked once: a third device is told so in words, and is no host.
    third.goto(link)
    expect(third.locator("#main .message")).to_contain_text(words["gone"])
    third.goto(link.split("/hosts/")[0])
    expect(third.locator("#bidder-0")).to_have_count(0)
    for context in (host.context, *others):
        context.close()
