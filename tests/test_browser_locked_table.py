"""A locked table on real browsers: the host locks it once everyone sits; a new phone opening the join link is told in
words that the table is closed and finds no free seat to take; a player whose phone went flat gets the seat back on a
new phone, let in by the host; with watchers turned away, a watcher's screen is shown the join page instead of the
game. The pages pass axe at 320 px without sideways scroll, in German too."""

from __future__ import annotations

import pytest

from tests.browser import new_classic_game
from tests.test_browser_another_host import NARROW, looked_at

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_a_locked_table_refuses_a_new_phone_and_lets_a_lost_one_back(browser, live_server: str, locale: str) -> None:
    from playwright.sync_api import expect

    german = locale == "de-DE"
    words = {"fold": "Der Tisch: geschlossen, Zuschauer" if german else "The table: locked, watchers",
             "lock": "Tisch schließen" if german else "Lock the table",
             "locked": "Der Tisch ist geschlossen: Kein neues Handy" if german else "The table is locked",
             "closed": ("Der Tisch ist geschlossen: Die Spielleitung hat ihn geschlossen" if german
                        else "The table is closed: the host locked it once everyone sat."),
             "anne": "Ich bin Anne auf einem neuen Handy" if german else "I'm Anne on a new phone",
             "let_in": "Das Handy mit {} hereinlassen" if german else "Let in the phone showing {}",
             "you": "Du bist Anne" if german else "You are Anne",
             "away": "Keine Zuschauer" if german else "Turn watchers away",
             "off": "Zuschauen ist aus" if german else "Watching is off"}
    host = new_classic_game(browser, live_server, ("Anne", "Ben", "Cara"), locale=locale, viewport=NARROW)
    game = host.url
    contexts = [browser.new_context(viewport=NARROW, locale=locale) for _ in range(4)]
    anne, stranger, new_phone, watcher = (context.new_page() for context in contexts)
    anne.goto(game + "/join")
    anne.get_by_role("button", name="Anne", exact=True).click()
    expect(anne.locator("#main").get_by_text(words["you"])).to_be_visible()
    watcher.goto(game)
    expect(watcher.locator("#table")).to_be_visible()

    host.get_by_text(words["fold"]).click()
    host.get_by_role("button", name=words["lock"]).click()
    expect(host.locator("#access .hint")).to_contain_text(words["locked"])
    host.get_by_text(words["fold"]).click()
    looked_at(host, f"locked-table-host-{locale}-320")

    # A new phone: told the table is closed, and offered only the way back for a seat a phone plays.
    stranger.goto(game + "/join")
    expect(stranger.locator(".table-closed")).to_contain_text(words["closed"])
    expect(stranger.locator("button[name=seat]")).to_have_count(0)
    looked_at(stranger, f"locked-table-join-{locale}-320")

    # Anne's phone went flat: her new phone asks, the host lets it in by its code, and it plays her seat.
    contexts[0].close()
    new_phone.goto(game + "/join")
    new_phone.get_by_role("button", name=words["anne"]).click()
    code = new_phone.locator(".request-code strong").inner_text()
    host.get_by_role("button", name=words["let_in"].format(code)).click()
    expect(new_phone.locator("#main").get_by_text(words["you"])).to_be_visible()

    # Watchers turned away: the watcher's screen, opened again, is the join page saying so.
    host.get_by_text(words["fold"]).click()
    host.get_by_role("button", name=words["away"]).click()
    expect(host.locator("#access .hint")).to_contain_text("Keine Zuschauer" if german else "No watchers")
    watcher.goto(game)
    expect(watcher.locator("#main")).to_contain_text(words["off"])
    expect(watcher.locator("#table")).to_have_count(0)
    looked_at(watcher, f"no-watchers-{locale}-320")
    for context in (host.context, *contexts[1:]):
        context.close()
