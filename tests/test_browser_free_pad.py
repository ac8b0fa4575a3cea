"""The free pad played in Chromium on two phones and the host: live, exported, imported, on the crew page."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.browser import PHONE, join_phones, screenshot

pytestmark = pytest.mark.browser


def test_a_free_pad_on_two_phones_and_the_host(browser, live_server: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    host.goto(live_server + "/")
    host.get_by_role("link", name="Free pad").click()
    host.fill("#game-name", "Wizard")
    host.fill("#player-0", "Anne")
    host.fill("#player-1", "Ben")
    host.get_by_label("After a number of rounds").check()
    host.fill("#rounds", "2")
    screenshot(host, "80-free-pad-new-390")
    host.get_by_role("button", name="Start the game").click()
    expect(host.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    phones = join_phones(browser, host.url + "/join", ("Anne", "Ben"))
    anne, ben = phones["Anne"], phones["Ben"]

    # Each phone types its own points; every other screen shows them as they come, with no reload.
    anne.fill("#points-0", "-10")
    anne.get_by_role("button", name="Save").click()
    for page in (host, ben):
        expect(page.locator(".status-list li", has_text="Anne")).to_contain_text("−10")
        expect(page.locator(".status-list li", has_text="Ben")).to_contain_text("not in yet")
    screenshot(ben, "81-free-pad-typing-390")
    ben.fill("#points-1", "25")
    ben.get_by_role("button", name="Save").click()
    for page in (host, anne, ben):
        expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
        expect(page.locator(".leaderboard tbody tr").first).to_contain_text("Ben")

    # The host types only for players without a phone: none offered while both play on phones. The phones put
    # away (their seats freed), the host types both for the last round: the game is over on every screen.
    expect(host.locator("#points-0")).to_have_count(0)
    for name in ("Anne", "Ben"):
        # The panel of the phones, closed again by the answer to the host's own tap, opened for each.
        host.locator("#phones summary").click()
        host.get_by_role("button", name=f"Free the seat of {name}").click()
        expect(host.get_by_role("button", name=f"Free the seat of {name}")).to_have_count(0)
    host.fill("#points-0", "40")
    host.fill("#points-1", "0")
    host.get_by_role("button", name="Save").click()
    for page in (host, anne, ben):
        expect(page.get_by_role("heading", name="Anne wins!")).to_be_visible()
    expect(host.locator(".match-pad tfoot")).to_contain_text("30")
    screenshot(anne, "82-free-pad-end-390")
    for width in (320, 390):
        anne.set_viewport_size({"width": width, "height": PHONE["height"]})
        assert anne.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(anne, "82-free-pad-end-320")

    with host.expect_download() as download_info:
        host.get_by_role("link", name="CSV").click()
    rows = list(csv.DictReader(io.StringIO(download_info.value.path().read_text(encoding="utf-8"))))
    assert [(r["round"], r["player"], r["total"]) for r in rows[-2:]] == [("2", "Anne", "30"), ("2", "Ben", "25")]
    with host.expect_download() as download_info:
        host.get_by_role("link", name="Pad file").click()
    pad = json.loads(download_info.value.path().read_text(encoding="utf-8"))
    assert pad["format"] == "free-pad" and pad["winners"] == ["Anne"]

    # The crew page heads the statistics with the game's own name.
    host.get_by_role("link", name="Our games and statistics").click()
    expect(host.get_by_role("heading", name="Wizard")).to_be_visible()
    expect(host.locator(".crew-stats tbody tr").first).to_contain_text("Anne")

    # Brought back from its file on another device: the same finished pad.
    file = tmp_path / "wizard.json"
    file.write_text(json.dumps(pad), encoding="utf-8")
    other = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    other.goto(live_server + "/")
    other.set_input_files("input[type=file][name=pad]", str(file))
    other.locator("form[action$='/games/import'] button[type=submit]").click()
    expect(other.get_by_role("heading", name="Anne wins!")).to_be_visible()
    expect(other.locator(".match-pad tbody tr")).to_have_count(2)
