"""Helpers for browser tests: a real server on 127.0.0.1 and Debian's headless Chromium."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]
# Every run saves its screenshots in an ignored folder, to look at; the README's pictures in
# tests/screenshots change only when asked for: README_SCREENSHOTS=1 python -m pytest -m browser
SCREENSHOTS = Path(__file__).resolve().parent / ("screenshots" if os.environ.get("README_SCREENSHOTS") else
                                                 "screenshots-latest")
PHONE = {"width": 390, "height": 844}


def require_chromium() -> None:
    """Skip with a reason when Chromium is missing; under CI that is a failure."""
    if Path(CHROMIUM).exists() and shutil.which(CHROMIUM):
        return
    message = f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


SERVE = ["-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", "0"]
# Every game on the shelf and the test game (`tests/highcard`), served alike.
SERVE_EVERY_GAME = ["-m", "tests.highcard.serve"]


def start_server(instance: Path, command: list[str] = SERVE, reveal_seconds: float = 1,
                 **settings: str) -> tuple[subprocess.Popen[str], str]:
    """Start the app (`scorekeeper serve`, or another `command`) on a free loopback port, its YO-HO-HO lasting
    `reveal_seconds` (`settings`: more of its environment); return it and its address."""
    # Every browser of a test comes from this one address: the bounds per address are lifted (unless a test sets them).
    env = {"BODIES_PER_ADDRESS": "100000", "STREAMS_PER_ADDRESS": "100000", **os.environ,
           "SCOREKEEPER_INSTANCE_PATH": str(instance), "SCOREKEEPER_REVEAL_SECONDS": str(reveal_seconds),
           "NEW_GAMES_PER_MINUTE": "100000", **settings}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, *command], cwd=Path(__file__).resolve().parent.parent,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        if found:
            # The server goes on printing a line per request: read them, or the full pipe would stop it.
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
            return server, found.group(0)
        if server.poll() is not None:
            break
    server.kill()
    raise RuntimeError("the server did not start")


def stop_server(server: subprocess.Popen[str]) -> None:
    """Stop a server started by `start_server`."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app served on 127.0.0.1 for the whole session, stopped at the end."""
    require_chromium()
    server, url = start_server(tmp_path_factory.mktemp("instance"))
    try:
        yield url
    finally:
        stop_server(server)


@pytest.fixture(scope="session")
def every_game_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Every game on the shelf and the test game served on 127.0.0.1 for the whole session, stopped at the end."""
    require_chromium()
    # A count long enough to look at the big screen while it runs.
    server, url = start_server(tmp_path_factory.mktemp("every-game"), SERVE_EVERY_GAME, reveal_seconds=4)
    try:
        yield url
    finally:
        stop_server(server)


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright."""
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    # A loaded CI machine can take a few seconds for a live update; wait for it rather than fail.
    expect.set_options(timeout=15_000)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def close_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, close the browser contexts it opened: a page left open goes on running (its stream to the
    session's server, its timers) for the rest of the session, hundreds of them by the end."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def screenshot(page, name: str) -> None:
    """Save a full-page screenshot under SCREENSHOTS."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


# Counts every touch of the screen: a tap is one pointerdown, whatever it lands on (`page.evaluate("window.taps")`).
COUNT_TAPS = "window.taps = 0; document.addEventListener('pointerdown', () => { window.taps += 1; }, true);"


def take_over_as_host(page, host_url: str) -> None:
    """Open a host link and run the game on this browser (the link's page asks; its button does it)."""
    page.goto(host_url)
    # In the page's language: the one button of the link's own form.
    page.locator("form[action*='/host/'] button[type=submit]").click()
    page.wait_for_url(lambda url: "/host/" not in url)


def join_phones(browser, join_url: str, names) -> dict:
    """A phone for each name, each joined to its seat through the join link, counting its taps."""
    from playwright.sync_api import expect

    phones = {}
    for name in names:
        context = browser.new_context(viewport=PHONE, locale="en-GB")
        context.add_init_script(COUNT_TAPS)
        page = context.new_page()
        page.goto(join_url)
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.locator("#main").get_by_text(f"You are {name}")).to_be_visible()
        phones[name] = page
    return phones


def new_classic_game(browser, base: str, names, script: str = "", locale: str = "en-GB", viewport=PHONE):
    """A host's page of a new classic game for `names`, on a phone unless `viewport` says otherwise, with `script`
    run in each of its pages before theirs (an instrument); once the game's first hand shows."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=viewport, locale=locale)
    if script:
        context.add_init_script(script)
    host = context.new_page()
    host.goto(base + "/games/new")
    for seat, name in enumerate(names):
        host.fill(f"#player-{seat}", name)
    host.locator("form button.primary[type=submit]").last.click()
    expect(host.locator(".facts .big")).to_be_visible()
    return host


def host_bids(host, bids: dict[int, int]) -> None:
    """The host bids for players without a phone, one after the other as a person would: each bid taken (the player
    shown ready, or the count started) before the next name is tapped, so the answer to one never closes the panel
    opened for the next."""
    for seat, bid in bids.items():
        host.locator(f"#bidder-{seat} summary").click()
        host.locator(f"#bidder-{seat} .numpad button[value='{bid}']").click()
        host.wait_for_function(f"() => !!document.querySelector('li.ready > #bidder-{seat}')"
                               f" || !document.querySelector('#bidder-{seat}')")


def cannonball_table(browser, base: str, names=("Anne", "Ben", "Cara"), on_phones=("Anne", "Ben"), viewport=PHONE,
                     locale="en-GB"):
    """A modern game with Rascal's scoring and the cannonball rule started by a host (on a phone unless `viewport`
    says otherwise), and a joined phone for each of `on_phones`; the host's page and the phones by name."""
    from playwright.sync_api import expect

    host = browser.new_context(viewport=viewport, locale=locale).new_page()
    host.goto(base + "/games/new")
    host.check("#ruleset-modern")
    for seat, name in enumerate(names):
        host.fill(f"#player-{seat}", name)
    host.select_option("#scoring", "rascal")
    host.check("input[name=cannonball]")
    host.locator("form button.primary[type=submit]").last.click()
    expect(host.locator(".facts .big")).to_have_text("1")
    join_url = host.locator(".join-link a").get_attribute("href")
    phones = join_phones(browser, base + join_url if join_url.startswith("/") else join_url, on_phones)
    # The host's screen shows every phone joined before a test reads where its table stands: a join pushed to it
    # after that reading would count as one change more.
    expect(host.locator("#table .phone-mark")).to_have_count(len(on_phones))
    return host, phones
