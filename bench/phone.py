"""A cheap phone at the table: how long a tap takes to show, with the CPU 4× slower and 150 ms of latency.

Starts the server as the Procfile does (gunicorn, gevent workers, SQLite), opens a game with
two players in Chromium, and throttles Anne's phone alone through the DevTools protocol:
CPU ×4 (`Emulation.setCPUThrottlingRate`) and 150 ms of round-trip latency
(`Network.emulateNetworkConditions`). Then it times, in the page itself, a tap on a bid and a
tap on Done until the answer is on the screen (the text changed and a frame was drawn), and
counts the requests each tap made. Prints min/median of the repeats.

    .venv/bin/python bench/phone.py [--repeats 5] [--latency 150] [--cpu 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the server is started by the same helper the tests use

from tests.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, join_phones  # noqa: E402
from tests.production import ProductionServer  # noqa: E402

# Click in the page, then wait for the words and one more frame: what the player sees, timed by the phone.
TAP_UNTIL_SHOWN = """async ([selector, words]) => {
  const start = performance.now();
  document.querySelector(selector).click();
  while (!document.querySelector('#main').innerText.includes(words)) {
    // A tap whose answer never shows (refused, lost) is what this measures not to happen: said, not waited for.
    if (performance.now() - start > 10000) return null;
    await new Promise((done) => requestAnimationFrame(done));
  }
  await new Promise((done) => requestAnimationFrame(done));
  return performance.now() - start;
}"""


def figures(name: str, values: list[float], requests: list[int]) -> str:
    """One line of the report."""
    return (f"{name:<6} tap → shown: min {min(values):.0f} ms, median {statistics.median(values):.0f} ms "
            f"(of {len(values)}); requests per tap: {max(requests)}")


def run(args: argparse.Namespace) -> None:
    """Start the server, play a few hands with a throttled phone, report."""
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as instance, sync_playwright() as playwright:
        server = ProductionServer(Path(instance), SCOREKEEPER_REVEAL_SECONDS="1")
        server.start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            host = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
            host.goto(server.base + "/games/new")
            host.fill("#player-0", "Anne")
            host.fill("#player-1", "Ben")
            host.get_by_role("button", name="Start the game").click()
            expect(host.get_by_role("heading", name="Hand 1 of 10")).to_be_visible()
            phones = join_phones(browser, host.url + "/join", ("Anne", "Ben"))
            anne, ben = phones["Anne"], phones["Ben"]
            devtools = anne.context.new_cdp_session(anne)
            devtools.send("Network.enable")
            devtools.send("Network.emulateNetworkConditions", {
                "offline": False, "latency": args.latency, "downloadThroughput": -1, "uploadThroughput": -1})
            devtools.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
            sent: list[str] = []
            anne.on("request", lambda request: sent.append(request.method))

            def timed(selector: str, words: str) -> tuple[float, int]:
                sent.clear()
                elapsed = anne.evaluate(TAP_UNTIL_SHOWN, [selector, words])
                if elapsed is None:
                    waiting = anne.locator("#waiting-taps").text_content()
                    raise SystemExit(f"a tap on {selector} never showed {words!r} in 10 s: {waiting!r}")
                anne.wait_for_timeout(300)  # anything the tap set off has left by now
                return elapsed, sum(method in ("GET", "POST") for method in sent)

            bids, bid_requests, dones, done_requests = [], [], [], []
            for number in range(1, args.repeats + 1):
                expect(anne.get_by_role("heading", name=f"Hand {number} of 10")).to_be_visible()
                # Anne changes her mind once while bidding: two taps timed per hand.
                for value in (1, 0):
                    elapsed, requests = timed(f".numpad.mine button[value='{value}']", f"Your bid is {value}.")
                    bids.append(elapsed)
                    bid_requests.append(requests)
                ben.locator(".numpad.mine button[value='0']").click()
                expect(anne.get_by_role("heading", name="Your result")).to_be_visible(timeout=20_000)
                anne.locator("label", has=anne.locator("input[name='tricks-0'][value='0']")).click()
                elapsed, requests = timed("#card button[value='done']", "Your result is in")
                dones.append(elapsed)
                done_requests.append(requests)
                expect(ben.get_by_role("heading", name="Your result")).to_be_visible()
                ben.locator("label", has=ben.locator(f"input[name='tricks-1'][value='{number}']")).click()
                ben.get_by_role("button", name="Done").click()
            load = os.getloadavg()
            print(f"Chromium, CPU ×{args.cpu}, {args.latency} ms latency; server: gunicorn as in the Procfile, "
                  f"SQLite; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
            print(figures("bid", bids, bid_requests))
            print(figures("Done", dones, done_requests))
        finally:
            browser.close()
            server.stop()


def main() -> None:
    """Parse the options and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="hands played (two bid taps and one Done each)")
    parser.add_argument("--latency", type=float, default=150, help="round-trip latency added, in ms")
    parser.add_argument("--cpu", type=float, default=4, help="how many times slower the phone's CPU is")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
