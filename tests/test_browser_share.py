"""'Share' on a game's end: a picture of the final standings (PNG, at least 1080 px wide) with the game's name and
date, handed to the phone's share sheet where the browser takes files (here a stubbed `navigator.share`), else
downloaded. Skull King's end page and a game of the shelf's (the free pad's)."""

from __future__ import annotations

import json
import re
import struct

import pytest

from tests.browser import PHONE, screenshot, take_over_as_host
from tests.test_crews import GAME_A

pytestmark = pytest.mark.browser

# A share sheet that takes files: what it was handed is kept, with the picture's size as the browser decodes it.
SHARE_SHEET = """
window.shared = null;
navigator.canShare = (data) => Boolean(data && data.files && data.files.length);
navigator.share = async (data) => {
  const file = data.files[0];
  const picture = await createImageBitmap(file);
  window.shared = { name: file.name, type: file.type, size: file.size, width: picture.width,
                    height: picture.height, title: data.title };
};
"""

FINISHED_FREE_PAD = {"format": "free-pad", "version": 1, "game": "Darts", "players": ["Anne", "Ben", "Cara"],
                     "lowest_wins": False, "round_count": 2,
                     "rounds": [{"Anne": 30, "Ben": 10, "Cara": 20}, {"Anne": 5, "Ben": 40, "Cara": 20}]}


def imported(page, base: str, doc: dict) -> None:
    """Import `doc` as this browser's game and open it as its host."""
    page.goto(base + "/")
    answer = page.request.post(base + "/games/import", data=json.dumps(doc), headers={"Content-Type": "application/json"})
    take_over_as_host(page, answer.json()["host_url"])


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_share_hands_the_standings_as_a_png_to_the_share_sheet(browser, live_server: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, locale="en-GB")
    context.add_init_script(SHARE_SHEET)
    host = context.new_page()
    imported(host, live_server, GAME_A)
    expect(host.get_by_role("heading", name="Anne wins!")).to_be_visible()
    host.get_by_role("button", name="Share").click()
    host.wait_for_function("() => window.shared !== null")
    shared = host.evaluate("window.shared")
    assert shared["type"] == "image/png" and shared["width"] >= 1080 and shared["size"] > 5_000, shared
    assert re.fullmatch(r"skull-king-\d{4}-\d{2}-\d{2}\.png", shared["name"]), shared["name"]
    assert shared["title"] == "Skull King 2021"
    # One row a player below the heading: the picture grows with the table.
    assert shared["height"] >= 330 + 2 * 96
    screenshot(host, "89-share-skull-king-390")


def test_share_downloads_the_picture_where_the_browser_cannot_share_files(browser, live_server: str, tmp_path) -> None:
    from playwright.sync_api import expect

    host = browser.new_context(viewport=PHONE, locale="de-DE", accept_downloads=True).new_page()
    imported(host, live_server, FINISHED_FREE_PAD)
    expect(host.locator("#main").get_by_role("button", name="Teilen")).to_be_visible()
    with host.expect_download() as download:
        host.get_by_role("button", name="Teilen").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("free-pad-") and saved.suffix == ".png"
    width, height = png_size(saved.read_bytes())
    assert width >= 1080 and height >= 330 + 3 * 96, (width, height)
