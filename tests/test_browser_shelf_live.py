"""Another phone's save reaches a Skip-Bo, Dracula or free-pad screen as the pushed table alone: no request of its
own, and what its player is typing keeps its value and focus."""

from __future__ import annotations

import pytest

from tests.browser import PHONE, join_phones

pytestmark = pytest.mark.browser


def start(browser, live_server: str, kind: str, form: dict[str, str], names: tuple[str, ...],
          on_phones: tuple[str, ...] | None = None):
    """A new game of `kind` from its form, and a joined phone for each name (or each of `on_phones`)."""
    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(f"{live_server}/games/new/{kind}")
    for seat, name in enumerate(names):
        host.fill(f"#player-{seat}", name)
    for field, value in form.items():
        host.fill(field, value)
    host.locator("form.new-game button[type=submit]").click()
    host.wait_for_selector("#card")
    return host, join_phones(browser, host.url + "/join", names if on_phones is None else on_phones)


def typing_survives(page, field: str, typed: str, save, shows) -> None:
    """`page`'s player types into `field`; another's `save` shows on it (`shows`) with no request of its own,
    and the typing is as it was, still focused."""
    from playwright.sync_api import expect

    page.locator(field).click()
    page.locator(field).fill(typed)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    save()
    expect(shows).to_be_visible()
    page.wait_for_timeout(300)  # a fetch set off by the push would have started by now
    assert [url for url in requests if not url.endswith("/events") and "/events?" not in url] == []
    expect(page.locator(field)).to_have_value(typed)
    assert page.evaluate("document.activeElement.id") == field.lstrip("#")


def test_skipbo_a_count_arrives_while_another_is_typed(browser, live_server: str) -> None:
    host, phones = start(browser, live_server, "skip-bo", {"#target": "500"}, ("Anne", "Ben", "Cara"))
    phones["Anne"].get_by_role("button", name="I went out").click()
    ben, cara = phones["Ben"], phones["Cara"]
    ben.wait_for_selector("#left-1")
    cara.wait_for_selector("#left-2")

    def cara_saves() -> None:
        cara.fill("#left-2", "7")
        cara.get_by_role("button", name="Save").click()

    typing_survives(ben, "#left-1", "4", cara_saves,
                    ben.locator(".status-list li", has_text="Cara").get_by_text("7 cards left"))


def test_free_pad_points_arrive_while_others_are_typed(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    host, phones = start(browser, live_server, "free-pad", {"#game-name": "Rummy"}, ("Anne", "Ben", "Cara", "Dan"),
                         on_phones=("Anne", "Ben", "Cara"))
    anne, ben = phones["Anne"], phones["Ben"]
    annes_requests: list[str] = []
    anne.on("request", lambda request: annes_requests.append(request.url))

    def anne_saves() -> None:
        anne.fill("#points-0", "-3")
        anne.get_by_role("button", name="Save").click()

    typing_survives(ben, "#points-1", "12", anne_saves,
                    ben.locator(".status-list li", has_text="Anne").get_by_text("−3"))
    # Her own save redrew Anne's page in one answer and kept the stream it had: no second request, no new stream.
    expect(anne.locator(".status-list li", has_text="Anne").get_by_text("−3")).to_be_visible()
    assert [url.rsplit("/", 1)[-1] for url in annes_requests] == ["play"]
    # The host, typing for Dan (no phone), keeps what it typed too when a phone saves.
    typing_survives(host, "#points-3", "5", lambda: (ben.get_by_role("button", name="Save").click()),
                    host.locator(".status-list li", has_text="Ben").get_by_text("12"))


def test_dracula_a_coffin_arrives_while_another_is_typed(browser, live_server: str) -> None:
    host, phones = start(browser, live_server, "dracula", {}, ("Anne", "Ben"))
    anne, ben = phones["Anne"], phones["Ben"]

    def anne_saves() -> None:
        for cell, card in enumerate("5H 7H 2C QS 9D QH KD 4S 10S".split()):
            anne.fill(f"#cell-{cell}", card)
        anne.locator(".coffin-form button[type=submit]").click()

    typing_survives(ben, "#cell-4", "KH", anne_saves, ben.locator(".last-round"))
