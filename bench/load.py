"""Drive simulated tables of six phones through whole games against the app run as in production.

Each table is a host screen and six phones, each with its own cookies and its live-update
stream, reacting as the page script does: the stream pushes the shared table (and a
screen's own card when that changed), so no screen fetches anything because of another's
change; a screen fetches only after its own write. Phones join, bid secretly, then report
their results as the result card does (a missed bid picks its tricks first); the last report
scores the hand. Times follow a real table, sped up by --speed.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import os
import platform
import random
import re
import secrets
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the server is started by the same helper the tests use

from tests.production import ProductionServer, Router  # noqa: E402

PLAYERS = 6
EDITION = re.compile(r'<div id="table"(?: hx-swap-oob="(?:true|morph)")? data-edition="(\d+)"')
CARD = re.compile(r'<div id="card"(?: hx-swap-oob="(?:true|morph)")? data-key="([^"]+)" data-edition="(\d+)"')
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
# The screen a page names in its htmx headers: its writes say it, and its stream's address carries it.
SCREEN = re.compile(r'"X-Screen": "([^"]+)"')
COUNT_SECONDS = 3.0  # the Procfile's default YO-HO-HO
# How long the page waits for the answer to a tap before it counts it unanswered and sends it again (htmx's timeout).
PAGE_WAITS_SECONDS = 20.0

# A real table, in seconds: thinking over a bid, playing one trick, reporting a result, dealing.
REAL_BID, REAL_TRICK, REAL_REPORT, REAL_DEAL = 15.0, 20.0, 10.0, 30.0


@dataclass
class Figures:
    """Everything measured in one run."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    by_hand: dict[int, list[float]] = field(default_factory=dict)
    delays: list[float] = field(default_factory=list)
    # The same, for screens served by another server instance than the one that took the write.
    across: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    writes: int = 0
    finished: int = 0
    # Compressed bytes of each live update a screen received, by kind (table, card).
    update_bytes: dict[str, list[int]] = field(default_factory=dict)
    # Last bid sent → the revealed bids on a phone, less the count.
    reveals: list[float] = field(default_factory=list)
    cpu_seconds: float = 0.0
    # Behind the router: the requests of each table by the host that answered them, and the router's CPU seconds.
    served: dict[int, dict[str, int]] = field(default_factory=dict)
    router_cpu_seconds: float = 0.0
    # The load generator's own CPU seconds, and the whole machine's busy CPU seconds (every process), over the run.
    load_cpu_seconds: float = 0.0
    machine_busy_seconds: float = 0.0
    # Taps: from the first send to the app's answer (however often sent); the requests the app did not answer (none
    # within the page's 20 s, or a 5xx: each sent again); the longest any request took.
    taps: list[float] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    sent_again: int = 0
    # Live streams that ended or broke, each opened again a second later (as the browser does).
    streams_again: int = 0
    # The most the load generator's own timers fired late.
    load_lag: float = 0.0
    slowest: float = 0.0

    def add(self, kind: str, seconds: float, hand: int | None = None) -> None:
        """Record one request's latency."""
        self.requests += 1
        self.latencies.setdefault(kind, []).append(seconds)
        if kind.startswith("write"):
            self.writes += 1
            if hand is not None:
                self.by_hand.setdefault(hand, []).append(seconds)


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank); NaN for none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Browser:
    """One phone or the host's screen: cookies, what it shows (shared table, own card) and its live stream."""

    def __init__(self, base: str, connector: aiohttp.TCPConnector, figures: Figures, role: str = "phone",
                 instance: int = 0, table: int = 0) -> None:
        self.base = base
        self.table_index = table
        # Which server instance (host) this screen talks to, when there are several.
        self.instance = instance
        self.role = role
        self.figures = figures
        self.session = aiohttp.ClientSession(
            connector=connector, connector_owner=False, cookie_jar=aiohttp.CookieJar(unsafe=True),
            headers={"Accept-Encoding": "br, gzip"}, timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
        )
        self.token = ""
        self.retry_after: float | None = None
        self.sent_again: list[tuple[str, int, float]] = []
        self.screen = ""
        self.page = ""
        self.table = ""
        self.card = ""
        self.card_key = ""
        self.edition = -1
        self.card_edition = -1
        # As the page script does: what the stream pushes while this screen's own write is on its way waits, and
        # is shown after its answer (the newest table and card, each if still news).
        self.writing = 0
        self.held: dict[str, tuple[str, int | None]] = {}
        self.renders: list[tuple[float, int]] = []
        self.changed = asyncio.Event()
        self.stream: asyncio.Task | None = None
        self.hand = 0
        self.revealed_at: dict[int, float] = {}

    @property
    def html(self) -> str:
        """What the screen shows."""
        return self.table + self.card

    async def request(self, kind: str, method: str, path: str, data: dict | None = None,
                      headers: dict | None = None, page_waits: bool = False) -> tuple[int, str, str]:
        """One request, timed and checked; redirects are returned, not followed. `page_waits`: a tap, which the
        page waits 20 s for, and which is sent again (not counted an error) when no answer of the app's comes:
        status 0 then, or the 5xx (its Retry-After kept in `retry_after`)."""
        if data is not None:
            data = {**data, "csrf_token": self.token}
        started = time.perf_counter()
        self.retry_after = None
        waits = {"timeout": aiohttp.ClientTimeout(total=PAGE_WAITS_SECONDS)} if page_waits else {}
        try:
            async with self.session.request(method, self.base + path, data=data, headers=headers,
                                            allow_redirects=False, **waits) as response:
                body = await response.text()
                status, location = response.status, response.headers.get("Location", "")
                self.note_host(response.headers.get("X-Served-By"))
                if "Retry-After" in response.headers:
                    self.retry_after = float(response.headers["Retry-After"])
        except (TimeoutError, aiohttp.ClientError) as error:
            if page_waits:
                self.figures.unanswered.append(f"{kind} {path}: {error!r}")
            else:
                self.figures.errors.append(f"{kind} {path}: {error!r}")
            return 0, "", ""
        seconds = time.perf_counter() - started
        self.figures.slowest = max(self.figures.slowest, seconds)
        if page_waits and status >= 500:
            self.figures.latencies.setdefault(f"answered {status}, sent again", []).append(seconds)
            return status, body, location
        self.figures.add(kind, seconds, self.hand or None)
        if status >= 400:
            self.figures.errors.append(f"{kind} {path}: HTTP {status}")
        found = TOKEN.search(body)
        if found:
            self.token = found.group(1)
        return status, body, location

    def note_host(self, host: str | None) -> None:
        """Behind the router: which host answered a request of this screen's table."""
        if host:
            hosts = self.figures.served.setdefault(self.table_index, {})
            hosts[host] = hosts.get(host, 0) + 1

    def show_table(self, html: str, edition: int) -> None:
        """A newer shared table: shown; an older one (overtaken) is dropped, as the page script does."""
        if edition <= self.edition:
            return
        self.table, self.edition = html, edition
        self.renders.append((time.monotonic(), edition))
        if 'class="bid-big"' in html and self.hand not in self.revealed_at:
            self.revealed_at[self.hand] = time.monotonic()
        self.changed.set()

    def show_card(self, html: str) -> None:
        """This screen's own card, when it differs from the one shown and is not older."""
        found = CARD.search(html)
        if found and found.group(1) != self.card_key and int(found.group(2)) >= self.card_edition:
            self.card, self.card_key, self.card_edition = html, found.group(1), int(found.group(2))
            self.changed.set()

    def pushed(self, kind: str, data: str, edition: int | None) -> None:
        """A part the stream pushed: shown, or held while this screen's own write is on its way."""
        if self.writing:
            self.held[kind] = (data, edition)
        elif kind == "table" and edition is not None:
            self.show_table(data, edition)
        elif kind == "card":
            self.show_card(data)

    def show_held(self) -> None:
        """After the answer to its own write: what the stream pushed meanwhile, if still news."""
        held, self.held = self.held, {}
        for kind in ("table", "card"):
            if kind in held:
                self.pushed(kind, *held[kind])

    def show_page(self, html: str) -> None:
        """A whole page or main fragment: its card, between the hand's facts and the rest of the shared table."""
        edition = EDITION.search(html)
        card = CARD.search(html)
        if edition and card:
            self.show_table(html[:card.start()] + html[edition.start():], int(edition.group(1)))
            self.show_card(html[card.start():edition.start()])

    async def open(self, path: str) -> None:
        """First load of a page, then listen to its game's stream from what it shows."""
        self.page = path
        status, body, _ = await self.request("page load", "GET", path)
        if status == 200:
            self.show_page(body)
            found = SCREEN.search(body)
            self.screen = found.group(1) if found else ""
            self.stream = asyncio.ensure_future(self.follow(path))

    async def follow(self, path: str) -> None:
        """Listen to the page's live stream, and as the browser does when it ends or breaks, again a second later
        from what the screen shows then."""
        try:
            while True:
                query = f"?edition={self.edition}&card={self.card_key}&screen={self.screen}"
                await self.listen(path + "/events" + query)
                self.figures.streams_again += 1
                await asyncio.sleep(1)
        except asyncio.CancelledError:
            return

    async def listen(self, path: str) -> None:
        """Follow the live stream as it arrives compressed, until it ends; count the bytes of each update."""
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        buffer, raw = "", 0
        try:
            async with self.session.get(self.base + path, auto_decompress=False) as response:
                self.note_host(response.headers.get("X-Served-By"))
                async for chunk in response.content.iter_any():
                    raw += len(chunk)
                    buffer += inflate.decompress(chunk).decode()
                    complete = buffer.rfind("\n\n") + 2
                    if complete < 2:
                        continue
                    # The events of one wake come in one chunk: each is counted its share of the bytes received
                    # since the last complete event, by its length.
                    per_char, raw = raw / complete, 0
                    while "\n\n" in buffer:
                        block, buffer = buffer.split("\n\n", 1)
                        size = round(per_char * (len(block) + 2))
                        kind, edition, data = "", None, []
                        for line in block.split("\n"):
                            if line.startswith("event: "):
                                kind = line[7:]
                            elif line.startswith("id: "):
                                edition = int(line[4:])
                            elif line.startswith("data: "):
                                data.append(line[6:])
                        if kind:
                            self.figures.update_bytes.setdefault(f"{self.role}, {kind}", []).append(size)
                        if kind in ("table", "card"):
                            self.pushed(kind, "\n".join(data), edition)
        except aiohttp.ClientError:
            return

    async def tap(self, kind: str, path: str, data: dict, headers: dict | None = None) -> tuple[int, str, str]:
        """Post a form as the page's waiting taps do: with a tap id, sent again with the same id while no answer of
        the app's comes, when the answer says (Retry-After), else a little later each time."""
        started = time.monotonic()
        headers = {**(headers or {}), "X-Tap": secrets.token_hex(16)}
        for tries in itertools.count():
            status, body, location = await self.request("write: " + kind, "POST", path, data, headers=headers,
                                                        page_waits=True)
            if 0 < status < 500:
                break
            self.figures.sent_again += 1
            self.sent_again.append((kind, status, round(time.monotonic() - started, 1)))
            await asyncio.sleep(self.retry_after if self.retry_after is not None else min(30, 0.5 * 2 ** tries))
        self.figures.taps.append(time.monotonic() - started)
        return status, body, location

    async def write(self, kind: str, path: str, data: dict) -> float:
        """Tap (`tap`) as htmx does, then show the page the redirect leads to; return when sent."""
        sent = time.monotonic()
        self.writing += 1
        try:
            headers = {"HX-Request": "true", "X-Screen": self.screen}
            status, body, location = await self.tap(kind, path, data, headers)
            if status == 303:
                status, body, location = await self.request("page after write", "GET", location, headers=headers)
        finally:
            self.writing -= 1
        if status in (200, 422):
            self.show_page(body)
        if not self.writing:
            self.show_held()
        return sent

    async def until(self, test, what: str, timeout: float = 120) -> None:
        """Wait until the screen passes `test`; like a real page, only the live stream moves it on."""
        deadline = time.monotonic() + timeout
        while not test(self.html):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                if os.environ.get("BENCH_DEBUG"):
                    print(self.html, file=sys.stderr)
                raise TimeoutError(f"page {self.page} never showed {what} (hand {self.hand}, edition {self.edition}; "
                                   f"card {self.card_key} {self.card_edition}; taps sent again {self.sent_again})")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                continue

    async def close(self) -> None:
        """Stop listening and forget the cookies."""
        if self.stream:
            self.stream.cancel()
        await self.session.close()


async def pause(real_seconds: float, speed: float) -> None:
    """Wait a human's while, sped up."""
    await asyncio.sleep(random.uniform(0.5, 1.5) * real_seconds / speed)


def seated(index: int, bases: list[str], connector: aiohttp.TCPConnector, figures: Figures, players: int,
           browsers: dict[int, list[Browser]]) -> tuple[Browser, list[Browser]]:
    """The host's screen and a phone per player of table `index`; with several server instances they are
    spread over them, as a load balancer would: the host on one, the phones on every instance in turn."""
    first = index % len(bases)
    host = Browser(bases[first], connector, figures, "host", first, index)
    phones = [Browser(bases[(first + 1 + seat) % len(bases)], connector, figures, "phone",
                      (first + 1 + seat) % len(bases), index) for seat in range(players)]
    browsers[index] = [host, *phones]
    return host, phones


async def sit_down(index: int, host: Browser, phones: list[Browser], new_game: str, form: dict,
                   speed: float) -> str | None:
    """The host starts a game from its form at `new_game`; each phone joins its seat and follows the game.
    The game's address, or None when it could not start."""
    await host.request("page load", "GET", new_game)
    names = [f"Player {index}-{seat}" for seat in range(len(phones))]
    status, _, game = await host.tap("new game", new_game, {"player": names, **form})
    if status != 303:
        return None
    await host.open(game)
    for seat, phone in enumerate(phones):
        await pause(REAL_BID / 3, speed)
        await phone.request("page load", "GET", f"{game}/join")
        await phone.write("join", f"{game}/join", {"seat": seat})
        await phone.open(game)
    return game


async def play_table(index: int, bases: list[str], connector: aiohttp.TCPConnector, figures: Figures,
                     hands: int, speed: float, writes: list[tuple[int, float, int, str, int]],
                     browsers: dict[int, list[Browser]]) -> None:
    """One table through a whole game: the host starts it, six phones join and play every hand."""
    host, phones = seated(index, bases, connector, figures, PLAYERS, browsers)
    try:
        game = await sit_down(index, host, phones, "/games/new", {"ruleset": "classic"}, speed)
        if game is None:
            return
        for number in range(1, hands + 1):
            for browser in browsers[index]:
                browser.hand = number
            await pause(REAL_DEAL, speed)
            bids_sent: list[float] = []

            async def bid(phone: Browser, seat: int) -> None:
                await phone.until(lambda html: f"/hands/{number}/bid" in html, "the bids")
                await pause(REAL_BID, speed)
                bids[seat] = random.randint(0, number)
                sent = await phone.write("bid", f"{game}/hands/{number}/bid", {"bid": bids[seat]})
                bids_sent.append(sent)
                writes.append((index, sent, phone.edition, "bid", phone.instance))

            bids = [0] * PLAYERS
            await asyncio.gather(*(bid(phone, seat) for seat, phone in enumerate(phones)))
            def with_results(html: str) -> bool:
                return 'value="done"' in html or 'value="draft"' in html

            await asyncio.gather(*(phone.until(with_results, "the results") for phone in phones))
            for phone in phones:
                if number in phone.revealed_at:
                    figures.reveals.append(phone.revealed_at[number] - max(bids_sent) - COUNT_SECONDS)
            tricks = [0] * PLAYERS
            for _ in range(number):
                # The cards are played at the table; phones lie still until the hand is over.
                await pause(REAL_TRICK, speed)
                tricks[random.randrange(PLAYERS)] += 1

            async def report(phone: Browser, seat: int) -> None:
                # As the result card has it: the bid is picked already, so a made bid is one tap (Done);
                # a missed one first picks the tricks (saved as a draft), then Done.
                await pause(REAL_REPORT, speed)
                if tricks[seat] != bids[seat]:
                    sent = await phone.write("draft", f"{game}/hands/{number}",
                                             {"intent": "draft", f"tricks-{seat}": tricks[seat]})
                    writes.append((index, sent, phone.edition, "draft", phone.instance))
                sent = await phone.write("result", f"{game}/hands/{number}",
                                         {"intent": "done", f"tricks-{seat}": tricks[seat]})
                writes.append((index, sent, phone.edition, "result", phone.instance))

            await asyncio.gather(*(report(phone, seat) for seat, phone in enumerate(phones)))
            following = f"Hand {number + 1} of " if number < 10 else "The game is over"
            await asyncio.gather(*(phone.until(lambda html: following in html, "the next hand")
                                   for phone in phones))
        figures.finished += 1
    except TimeoutError as error:
        figures.errors.append(f"table {index}: {error}")


# The other games, a small load of each (--shelf): players at a table, the new-game form, rounds played.
SHELF = {"skip-bo": (3, {"target": "500"}), "dracula": (2, {}), "free-pad": (4, {"game": "Bench"}),
         "wizard": (4, {})}
SHELF_ROUNDS = 6
DRACULA_COFFIN = "5H 7H 2C QS 9D QH KD 4S 10S".split()


async def play_shelf_table(kind: str, index: int, bases: list[str], connector: aiohttp.TCPConnector,
                           figures: Figures, speed: float, writes: list[tuple[int, float, int, str, int]],
                           browsers: dict[int, list[Browser]]) -> None:
    """One table of a game from the shelf: the host starts it, its phones join and play a few rounds, each
    phone entering its own (free pad: its points; Skip-Bo: who went out, then the cards left; Dracula: a coffin;
    Wizard: a bid when its turn comes, then its tricks)."""
    players, form = SHELF[kind]
    host, phones = seated(index, bases, connector, figures, players, browsers)
    try:
        game = await sit_down(index, host, phones, f"/games/new/{kind}", form, speed)
        if game is None:
            return

        async def send(phone: Browser, number: int, data: dict) -> None:
            await pause(REAL_REPORT, speed)
            sent = await phone.write(kind, f"{game}/play", {**data, "play": number})
            writes.append((index, sent, phone.edition, kind, phone.instance))

        for number in range(1, SHELF_ROUNDS + 2):
            for browser in browsers[index]:
                browser.hand = number
            # Every phone shows the round (the one after the last: the rounds are over); in Wizard a phone waiting
            # for its turn to bid has nothing to send yet.
            shown = f'data-round="{number}"' if kind == "wizard" else f'name="play" value="{number}"'
            await asyncio.gather(*(phone.until(lambda html: shown in html, "the round") for phone in phones))
            if number > SHELF_ROUNDS:
                break
            if kind == "free-pad":
                await asyncio.gather(*(send(phone, number, {f"points-{seat}": random.randint(-20, 60)})
                                       for seat, phone in enumerate(phones)))
            elif kind == "skip-bo":
                out = random.randrange(players)
                await send(phones[out], number, {"went_out": out})
                others = [(seat, phone) for seat, phone in enumerate(phones) if seat != out]
                await asyncio.gather(*(phone.until(lambda html: 'name="left"' in html, "who went out")
                                       for _, phone in others))
                await asyncio.gather(*(send(phone, number, {"left": random.randint(1, 5), "seat": seat})
                                       for seat, phone in others))
            elif kind == "wizard":
                # The first seat deals the first round: left of the dealer bids first, each when its turn shows.
                for seat in [(number + i) % players for i in range(players)]:
                    await phones[seat].until(lambda html: 'id="my-bid-title"' in html, "its turn to bid")
                    await send(phones[seat], number, {"bid": random.randint(0, number)})
                taken = [random.randrange(players) for _ in range(number)]
                await asyncio.gather(*(phone.until(lambda html: 'name="tricks"' in html, "the tricks")
                                       for phone in phones))
                await asyncio.gather(*(send(phone, number, {"tricks": taken.count(seat)})
                                       for seat, phone in enumerate(phones)))
            else:
                coffin = {f"cell-{i}": card for i, card in enumerate(DRACULA_COFFIN)}
                await send(phones[number % players], number, coffin)
        figures.finished += 1
    except TimeoutError as error:
        figures.errors.append(f"{kind} table {index}: {error}")


def write_delays(writes: list[tuple[int, float, int, str, int]],
                 browsers: dict[int, list[Browser]]) -> tuple[list[float], list[float]]:
    """For every write and every other screen at its table: time until that screen showed it; and the
    same for the screens served by another instance than the one that took the write."""
    delays, across = [], []
    worst = []
    for table, sent, version, kind, instance in writes:
        for browser in browsers[table]:
            shown = next((at for at, seen in browser.renders if seen >= version and at >= sent), None)
            if shown is not None:
                delays.append(shown - sent)
                if browser.instance != instance:
                    across.append(shown - sent)
                worst.append((shown - sent, table, kind, version, browser.role))
    if os.environ.get("BENCH_DEBUG"):
        for item in sorted(worst)[-5:]:
            print("slowest update:", item, file=sys.stderr)
    return delays, across


class MemoryWatch:
    """Peak resident memory of the servers' processes, sampled while the load runs."""

    def __init__(self, pids: list[int]) -> None:
        self.roots = [psutil.Process(pid) for pid in pids]
        self.peak = 0

    def sample(self) -> None:
        """Add up the servers' processes now and keep the peak."""
        try:
            processes = [p for root in self.roots for p in (root, *root.children(recursive=True))]
            total = sum(p.memory_info().rss for p in processes if p.is_running())
        except psutil.Error:
            return
        self.peak = max(self.peak, total)

    async def run(self) -> None:
        """Sample twice a second until cancelled."""
        while True:
            self.sample()
            await asyncio.sleep(0.5)


async def first_load(session: aiohttp.ClientSession, base: str, path: str) -> int:
    """Bytes on the wire for a first visit to `path`: the page, its stylesheet and scripts, compressed."""
    async with session.get(base + path, allow_redirects=False) as response:
        total = len(await response.read())
    async with session.get(base + path, allow_redirects=False, headers={"Accept-Encoding": "identity"}) as response:
        html = (await response.read()).decode()
    # What a browser fetches to show the page: stylesheet, scripts, favicon and manifest
    # (the apple-touch-icon only when the page is added to a home screen).
    for asset in re.findall(r'<(?:script|link(?! rel="apple-touch-icon"))[^>]*(?:src|href)="(/static/[^"]+)"', html):
        async with session.get(base + asset) as response:
            total += len(await response.read())
    return total


async def page_weights(base: str) -> dict[str, int]:
    """Compressed first-load bytes of each page, as the host and as a player's phone see them."""

    def browser() -> aiohttp.ClientSession:
        # No decompression: what is counted is what crosses the network.
        return aiohttp.ClientSession(auto_decompress=False, headers={"Accept-Encoding": "br, gzip"},
                                     cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def token(session: aiohttp.ClientSession, path: str) -> str:
        async with session.get(base + path, headers={"Accept-Encoding": "identity"}) as response:
            return TOKEN.search((await response.read()).decode()).group(1)

    weights: dict[str, int] = {}
    async with browser() as host, browser() as phone:
        names = [f"Player {n}" for n in range(PLAYERS)]
        async with host.post(base + "/games/new", allow_redirects=False, data={
                "csrf_token": await token(host, "/games/new"), "ruleset": "classic", "player": names}) as response:
            game = response.headers["Location"]
        for name, path in (("home", "/"), ("new game", "/games/new"), ("host: a hand", game),
                           ("score pad", f"{game}/pad"), ("big screen", f"{game}/screen")):
            weights[name] = await first_load(host, base, path)
        weights["player's phone: join"] = await first_load(phone, base, f"{game}/join")
        async with phone.post(base + f"{game}/join", allow_redirects=False,
                              data={"csrf_token": await token(phone, f"{game}/join"), "seat": 0}):
            pass
        weights["player's phone: a hand"] = await first_load(phone, base, game)
    return weights


def server_cpu(pids: list[int]) -> float:
    """CPU seconds the servers' processes have used so far (user and system)."""
    total = 0.0
    for pid in pids:
        root = psutil.Process(pid)
        for process in (root, *root.children(recursive=True)):
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            total += times.user + times.system
    return total


def machine_busy() -> float:
    """CPU seconds every core of the machine has been busy so far (all processes, not idle or waiting)."""
    times = psutil.cpu_times()
    # On Linux a guest's time is counted in user time already, and steal is time this machine was not given.
    not_busy = ("idle", "iowait", "steal", "guest", "guest_nice")
    return sum(times) - sum(getattr(times, name, 0.0) for name in not_busy)


def cores(figures: Figures, elapsed: float) -> str:
    """How many of the machine's cores the server, the load generator and everything else kept busy, on average."""
    rest = figures.machine_busy_seconds - figures.cpu_seconds - figures.load_cpu_seconds
    return (f"{figures.cpu_seconds / elapsed:.2f} / {figures.load_cpu_seconds / elapsed:.2f} / "
            f"{max(0.0, rest) / elapsed:.2f}")


async def follow_lag(figures: Figures) -> None:
    """How late the load generator's own timers fire (its one core busy): a request measured then is late by as
    much, not for the server's sake."""
    while True:
        started = time.monotonic()
        await asyncio.sleep(0.1)
        figures.load_lag = max(figures.load_lag, time.monotonic() - started - 0.1)


async def drive(bases: list[str], tables: int, hands: int, speed: float,
                memory: MemoryWatch | None, pids: list[int] | None = None,
                kind: str = "skull-king") -> tuple[Figures, float]:
    """Play all tables of one game kind at once; return the figures and how long it took."""
    figures = Figures()
    cpu_before = server_cpu(pids) if pids else 0.0
    load_before, busy_before = time.process_time(), machine_busy()
    # Idle connections are closed before the server's keep-alive (5 s) would, as browsers do,
    # so a request never goes out on a connection the server is closing.
    connector = aiohttp.TCPConnector(limit=0, force_close=False, keepalive_timeout=3)
    writes: list[tuple[int, float, int, str, int]] = []
    browsers: dict[int, list[Browser]] = {}
    watching = asyncio.ensure_future(memory.run()) if memory else None
    lag = asyncio.ensure_future(follow_lag(figures))
    started = time.monotonic()

    async def staggered(index: int) -> None:
        # Tables sit down over the first minute of real time, not all in the same instant.
        await asyncio.sleep(random.uniform(0, 60 / speed))
        if kind == "skull-king":
            await play_table(index, bases, connector, figures, hands, speed, writes, browsers)
        else:
            await play_shelf_table(kind, index, bases, connector, figures, speed, writes, browsers)

    await asyncio.gather(*(staggered(index) for index in range(tables)))
    elapsed = time.monotonic() - started
    # Workers that ended meanwhile are not counted; none end during a run.
    figures.cpu_seconds = server_cpu(pids) - cpu_before if pids else 0.0
    figures.load_cpu_seconds = time.process_time() - load_before
    figures.machine_busy_seconds = machine_busy() - busy_before
    if watching:
        watching.cancel()
    lag.cancel()
    for group in browsers.values():
        for browser in group:
            await browser.close()
    await connector.close()
    figures.delays, figures.across = write_delays(writes, browsers)
    return figures, elapsed


def fill_stored_games(database_url: str, count: int) -> None:
    """Store `count` finished ten-hand games of six, as a service has after a while."""
    from sqlalchemy import create_engine, func, insert, select

    from scorekeeper.models import Event, Game, Play, Seat, SecretEntry
    from scorekeeper.shelf.skullking.storage import HAND, EntryRow, HandRow, Phase

    engine = create_engine(database_url)
    with engine.begin() as connection:
        first = connection.execute(select(func.coalesce(func.max(Game.id), 0))).scalar_one() + 1
        for batch in range(first, first + count, 1000):
            games, seats, plays, bids, events = [], [], [], [], []
            for game_id in range(batch, min(batch + 1000, first + count)):
                # Eight characters: never one of the six-character codes new games draw.
                games.append({"id": game_id, "kind": "skull-king", "ruleset": "classic", "options": {},
                              "version": 70, "join_code": f"S{game_id:07d}"})
                seats.extend({"game_id": game_id, "position": p, "name": f"P{p}"} for p in range(PLAYERS))
                for number in range(1, 11):
                    entries = tuple(EntryRow(tricks=number if p == 0 else 0, done=True) for p in range(PLAYERS))
                    hand = HandRow(number, 0, Phase.SCORED, False, False, (), entries)
                    plays.append({"game_id": game_id, "number": number, "data": HAND.dump(hand), "closed": True})
                    bids.extend({"game_id": game_id, "play": number, "seat": p, "name": "bid", "value": 0}
                                for p in range(PLAYERS))
                events.extend({"game_id": game_id, "version": v, "kind": "result", "hand": 10} for v in range(1, 71))
            connection.execute(insert(Game), games)
            connection.execute(insert(Seat), seats)
            connection.execute(insert(Play), plays)
            connection.execute(insert(SecretEntry), bids)
            connection.execute(insert(Event), events)
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            # Written back into the database file now, as SQLite does by itself over time: not by the next write.
            connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()


def machine() -> str:
    """The machine the figures come from, in one line."""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    memory = psutil.virtual_memory().total / 2**30
    return (f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def latency_rows(figures: Figures) -> list[str]:
    """Latency per kind of request, as a Markdown table."""
    rows = ["| Request | Count | p50 ms | p95 ms | p99 ms |", "|---|---:|---:|---:|---:|"]
    for kind in sorted(figures.latencies):
        values = figures.latencies[kind]
        rows.append(f"| {kind} | {len(values)} | {percentile(values, .5) * 1000:.1f} | "
                    f"{percentile(values, .95) * 1000:.1f} | {percentile(values, .99) * 1000:.1f} |")
    return rows


def summary(values: list[float]) -> str:
    """p50 / p95 / p99 / max in milliseconds."""
    if not values:
        return "none measured"
    return " / ".join(f"{percentile(values, share) * 1000:.0f}" for share in (.5, .95, .99, 1.0)) + " ms"


async def flatness(base: str, database_url: str, stored: int, tables: int, speed: float) -> list[str]:
    """The same small load with 10 and with `stored` games stored: do requests slow down?"""
    rows = ["| Stored games | writes p50 ms | writes p95 ms | update on every screen p95 ms |",
            "|---:|---:|---:|---:|"]
    have = 0
    for wanted in (10, stored):
        fill_stored_games(database_url, wanted - have)
        have = wanted
        figures, _ = await drive([base], tables, 3, speed, None)
        if figures.errors or not figures.delays:
            print(f"with {wanted:,} games stored:", *figures.errors[:5], sep="\n", flush=True)
        writes = [v for kind, values in figures.latencies.items() if kind.startswith("write") for v in values]
        rows.append(f"| {wanted:,} | {percentile(writes, .5) * 1000:.1f} | {percentile(writes, .95) * 1000:.1f} | "
                    f"{percentile(figures.delays, .95) * 1000:.0f} |")
        print(rows[-1], flush=True)
    return rows


def router_lines(figures: Figures) -> list[str]:
    """Behind the router: how much of each table went to one host, and the router's own CPU."""
    if not figures.served:
        return []
    shares = sorted(max(hosts.values()) / sum(hosts.values()) for hosts in figures.served.values())
    writes = max(1, figures.writes)
    return ["", f"Through the router (HAProxy, `deploy/haproxy.cfg`): the share of each table's requests served by "
                f"one host: **{100 * sum(shares) / len(shares):.1f} %** on average, {100 * shares[0]:.1f} % at the "
                f"least ({len(shares)} tables); the router's own CPU per write: "
                f"{1000 * figures.router_cpu_seconds / writes:.2f} ms."]


def busy_count(figures: Figures) -> int:
    """How many requests the app answered 503 (its write did not get its turn in time)."""
    return len(figures.latencies.get("answered 503, sent again", []))


def report(args: argparse.Namespace, figures: Figures, elapsed: float, weights: dict[str, int],
           peak: int, flat: list[str], lock: str = "") -> str:
    """The figures' section of docs/performance.md."""
    real_minutes = sum(REAL_DEAL + REAL_BID + REAL_REPORT + n * REAL_TRICK for n in range(1, args.hands + 1)) / 60
    phones = args.tables * PLAYERS
    instances = f" --instances {args.instances} --database-url …" if args.instances > 1 else ""
    if args.router:
        instances += f" --router {args.router}"
    servers = (f"{args.instances} instances on their own ports (as separate hosts), {args.workers} gevent workers "
               f"each, " + ("every screen through HAProxy, which picks the host by the game" if args.router else
                            "the screens of every table spread over them") if args.instances > 1
               else f"{args.workers} gevent workers")
    lines = [
        f"Command: `bash bench/run --tables {args.tables} --hands {args.hands} --speed {args.speed:g} "
        f"--stored {args.stored}{instances} --readme`  ",
        f"Machine: {machine()}  ",
        f"Database: {args.database_label}; server: gunicorn as in the Procfile, {servers}; "
        f"the load runs on the same machine.  ",
        f"Measured on {time.strftime('%Y-%m-%d')}, load average {args.started_load} at the start.",
        "",
        f"**{args.tables} tables, {phones:,} phones and {args.tables} host screens** played {args.hands} hands each "
        f"in {elapsed:.0f} s: a game that takes a real table about {real_minutes:.0f} minutes, "
        f"{args.speed:g} times faster. **{figures.finished} of {args.tables} tables finished their game** "
        f"(a table gives up when a screen waits 2 minutes for a change). {figures.requests:,} requests, "
        f"**{figures.requests / elapsed:.0f} requests per second**, {len(figures.errors)} errors "
        f"({sum('HTTP' in e or 'Error(' in e for e in figures.errors)} of them failed requests).",
        "",
        *latency_rows(figures),
        "",
        f"Taps, from the first send to the app's answer (p50 / p95 / p99 / max): **{summary(figures.taps)}**; "
        f"**{figures.sent_again:,} sent again** (the app answered {busy_count(figures):,} of them 503 with "
        f"Retry-After; {len(figures.unanswered)} had no answer within the page's {PAGE_WAITS_SECONDS:g} s); the "
        f"slowest request of the run took **{figures.slowest:.1f} s**; {figures.streams_again:,} live streams ended "
        f"and were opened again; the load generator's own timers fired up to {figures.load_lag:.1f} s late.",
        *(["", lock] if lock else []),
        "",
        f"From a write to the page showing it on every screen of the table (p50 / p95 / p99 / max): "
        f"**{summary(figures.delays)}**.",
        *(["", f"From a write on one instance to the page showing it on a screen served by another "
                f"(p50 / p95 / p99 / max): **{summary(figures.across)}** ({len(figures.across):,} updates)."]
          if figures.across else []),
        "",
        f"Per write ({figures.writes:,} writes): **{figures.requests / max(1, figures.writes):.2f} requests** in all "
        f"(the write, the page after it, and every page load and join of the run); no screen fetches anything "
        f"because another screen wrote. "
        f"**Server CPU per write: {1000 * figures.cpu_seconds / max(1, figures.writes):.1f} ms** "
        f"({figures.cpu_seconds:.0f} CPU seconds over the run, live streams included).",
        *router_lines(figures),
        "",
        f"The machine's {os.cpu_count()} cores, busy on average over the run (server / load generator / every "
        f"other process): **{cores(figures, elapsed)}**.",
        "",
        "Bytes per live update on a screen, compressed on the wire (mean / p95 / max): "
        + "; ".join(f"{kind}: **{sum(values) / len(values):.0f}** / {percentile(values, .95):.0f} / {max(values)} B"
                    f" ({len(values):,} updates)" for kind, values in sorted(figures.update_bytes.items())) + ".",
        "",
        f"Last bid sent → the revealed bids on each phone, less the {COUNT_SECONDS:g} s count "
        f"(p50 / p95 / p99 / max): **{summary(figures.reveals)}**.",
        "",
        "Writes by hand (p50 / p95 / p99 / max): "
        + "; ".join(f"hand {n}: {summary(v)}" for n, v in sorted(figures.by_hand.items())) + ".",
        "",
        f"Peak memory of the server (all processes): **{peak / 2**20:.0f} MiB**.",
        "",
        "| First load, compressed (page + CSS + scripts) | KiB |",
        "|---|---:|",
        *(f"| {name} | {size / 1024:.1f} |" for name, size in weights.items()),
    ]
    if flat:
        lines += ["", f"The same load, {args.flat_tables} tables for 3 hands at {args.flat_speed:g} times "
                  "a real table's speed, with few and with many games stored:",
                  "", *flat]
    if figures.errors:
        lines += ["", "First errors:", "", *(f"- `{error}`" for error in figures.errors[:5])]
    return "\n".join(lines)


def server_failures(log: Path) -> list[str]:
    """The tracebacks and errors in a server's log (none when it has no log)."""
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return []
    found, inside = [], False
    for line in lines:
        inside = inside and (line.startswith((" ", "\t")) or not line.strip()) or "Traceback" in line
        if inside or "[ERROR]" in line or "Error:" in line or "Exception" in line:
            found.append(line)
    return found


def write_readme(section: str, name: str = "benchmark") -> None:
    """Put the section between the markers of that name in docs/performance.md."""
    readme = ROOT / "docs" / "performance.md"
    text = readme.read_text(encoding="utf-8")
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    readme.write_text(f"{before}{start}\n{section}\n{end}{after}", encoding="utf-8")


def load_average() -> str:
    """The machine's load average over the last minute, as the figures' context."""
    return f"{os.getloadavg()[0]:.2f}"


# The targets every level of the knee search is held to.
WRITE_P99, UPDATE_P95 = 0.100, 0.150


def misses(figures: Figures, tables: int) -> list[str]:
    """The targets a run missed, in words; none when it met them all."""
    missed = []
    if figures.errors or figures.finished < tables:
        missed.append(f"{len(figures.errors)} errors, {figures.finished} of {tables} tables finished")
    for kind, values in sorted(figures.latencies.items()):
        if kind.startswith("write") and percentile(values, .99) >= WRITE_P99:
            missed.append(f"{kind} p99 {percentile(values, .99) * 1000:.0f} ms")
    if figures.delays and percentile(figures.delays, .95) >= UPDATE_P95:
        missed.append(f"update on every screen p95 {percentile(figures.delays, .95) * 1000:.0f} ms")
    return missed


async def knee(args: argparse.Namespace, bases: list[str], pids: list[int]) -> str:
    """Raise the load step by step from --knee table-equivalents until a target is missed."""
    rows = ["| Table-equivalents | Tables | Load avg. at start | Errors | Finished | Answered 503, sent again "
            "| Worst write p99 ms | Update p95 ms | CPU per write ms | Cores busy: server / load / other | Targets |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    level = args.knee
    while level <= args.knee_max:
        tables = round(level / args.speed)
        started_load = load_average()
        figures, elapsed = await drive(bases, tables, args.hands, args.speed, None, pids)
        writes = [percentile(v, .99) for k, v in figures.latencies.items() if k.startswith("write")]
        missed = misses(figures, tables)
        rows.append(f"| {level} | {tables} | {started_load} | {len(figures.errors)} | {figures.finished} "
                    f"| {busy_count(figures)} | {max(writes) * 1000:.0f} "
                    f"| {percentile(figures.delays, .95) * 1000:.0f} "
                    f"| {1000 * figures.cpu_seconds / max(1, figures.writes):.1f} | {cores(figures, elapsed)} "
                    f"| {'met' if not missed else 'missed: ' + '; '.join(missed)} |")
        print(rows[-1], flush=True)
        if missed:
            break
        level += args.knee_step
    return "\n".join([
        f"Command: `bash bench/run --knee {args.knee} --knee-step {args.knee_step} --speed {args.speed:g} "
        f"--hands {args.hands} --workers {args.workers}"
        + (" --database-url postgresql+psycopg://…" if args.database_label == "PostgreSQL" else "") + "`  ",
        f"Machine: {machine()}  ",
        f"Database: {args.database_label}; the load runs on the same machine. Measured on {time.strftime('%Y-%m-%d')}.",
        "", *rows])


SETUP_WRITES = ("write: new game", "write: join")


async def shelf(args: argparse.Namespace, bases: list[str], pids: list[int]) -> str:
    """--shelf N: N tables of each game in turn, Skull King first, on the same servers; what a write costs each."""
    rows = ["| Game | Tables | Load avg. at start | Errors | Finished | Writes | Requests per write, all "
            "| Requests per tap of play | Server CPU per write ms | Write p99 ms | Update on every screen p95 ms |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for kind in ("skull-king", *SHELF):
        started_load = load_average()
        figures, _ = await drive(bases, args.shelf, args.hands, args.speed, None, pids, kind)
        plays = [v for k, v in figures.latencies.items() if k.startswith("write") and k not in SETUP_WRITES]
        # A tap of play: the write, and the page it leads to when the answer is not that page already.
        taps = sum(map(len, plays)) + len(figures.latencies.get("page after write", []))
        rows.append(f"| {kind} | {args.shelf} | {started_load} | {len(figures.errors)} | {figures.finished} "
                    f"| {figures.writes:,} | {figures.requests / max(1, figures.writes):.2f} "
                    f"| {taps / max(1, sum(map(len, plays))):.2f} "
                    f"| {1000 * figures.cpu_seconds / max(1, figures.writes):.1f} "
                    f"| {max(percentile(v, .99) for v in plays) * 1000:.0f} "
                    f"| {percentile(figures.delays, .95) * 1000:.0f} |")
        print(rows[-1], flush=True)
        for error in figures.errors[:3]:
            print("  error:", error, flush=True)
    return "\n".join([
        f"Command: `bash bench/run --shelf {args.shelf} --speed {args.speed:g} --hands {args.hands} "
        f"--workers {args.workers}`  ",
        f"Machine: {machine()}  ",
        f"Database: {args.database_label}; the load runs on the same machine. Measured on {time.strftime('%Y-%m-%d')}.",
        "", *rows])


CACHE_FIGURES = re.compile(r"cache '([^']+)': (\d+) found, (\d+) made in (\d+) ms")


def lock_times(logs: list[Path]) -> str:
    """How long writes waited for the write lock and held it, and how long the app took to answer, from what the
    server's processes logged as they stopped (`scorekeeper.durations`), in words; nothing when they logged none."""
    from scorekeeper.durations import Durations

    found = Durations.parse(line for log in logs for line in log.read_text(errors="replace").splitlines())

    def times(name: str) -> str:
        kept = found[name]
        return (f"p50 **{kept.percentile(.5) * 1000:.2f} ms**, p99 **{kept.percentile(.99) * 1000:.2f} ms**, "
                f"max {kept.percentile(1) * 1000:.0f} ms")

    if "write lock held" not in found or "answer" not in found:
        return ""
    return (f"The write lock ({found['write lock held'].count:,} writes): waited {times('write lock waited')}; "
            f"held {times('write lock held')} (from the game locked and read to the commit). The app's answer to "
            f"a request, from its view's start to its answer made ({found['answer'].count:,}): {times('answer')}.")


def caches_worth(logs: list[Path]) -> str:
    """What each of the server's caches was worth over the run, from what its processes logged as they stopped: the
    values found kept, the values made and the time making them took; a value found saved about a make's mean."""
    found: dict[str, list[int]] = {}
    for log in logs:
        for match in CACHE_FIGURES.finditer(log.read_text(errors="replace")):
            sums = found.setdefault(match[1], [0, 0, 0])
            for i in range(3):
                sums[i] += int(match[i + 2])
    rows = [f"| {name} | {hits:,} | {made:,} | {ms:,} | {hits * ms / made if made else 0:,.0f} |"
            for name, (hits, made, ms) in sorted(found.items(), key=lambda item: -item[1][0] * item[1][2]
                                                  / max(item[1][1], 1))]
    if not rows:
        return ""
    return "\n".join(["| cache | found | made | ms making | ms saved (about) |", "|---|---:|---:|---:|---:|", *rows])


async def run(args: argparse.Namespace) -> None:
    """Start the server (or several instances sharing one database), measure, stop them, report."""
    with tempfile.TemporaryDirectory() as instance:
        database_url = args.database_url or f"sqlite:///{instance}/scorekeeper.sqlite"
        args.database_label = "PostgreSQL" if database_url.startswith("postgresql") else "SQLite (WAL)"
        servers = []
        for number in range(args.instances):
            folder = Path(instance) / f"host-{number}"
            folder.mkdir()
            # Hosts behind one address share their secret key, as they would in production.
            # Behind the router each host reads the client's address from its X-Forwarded-For.
            proxied = {"TRUSTED_PROXIES": "1"} if args.router else {}
            servers.append(ProductionServer(folder, database_url, WEB_CONCURRENCY=str(args.workers),
                                            SECRET_KEY="bench-shared-secret", SCOREKEEPER_FIGURES="1",
                                            **proxied))
        router = Router(servers, Path(instance) / "haproxy.log") if args.router else None
        try:
            for server in servers:
                server.start()  # one after the other: the first one brings the database up to date
            if router is not None:
                router.start()
            # Every screen through the router, which picks the host by the game; else spread over the hosts.
            bases = [router.base] if router is not None else [server.base for server in servers]
            pids = [server.process.pid for server in servers]
            # A comparison of the games, or the knee: a section of its own, then stop.
            other = ("shelf", shelf) if args.shelf else ("knee", knee) if args.knee else None
            if other is not None:
                section = await other[1](args, bases, pids)
                print(section)
                if args.readme:
                    write_readme(section, other[0])
                return
            weights = await page_weights(bases[0])
            print("first loads:", {k: f"{v / 1024:.1f} KiB" for k, v in weights.items()}, flush=True)
            memory = MemoryWatch(pids)
            args.started_load = load_average()
            router_before = server_cpu([router.process.pid]) if router is not None and router.process else 0.0
            figures, elapsed = await drive(bases, args.tables, args.hands, args.speed, memory, pids)
            if router is not None and router.process:
                figures.router_cpu_seconds = server_cpu([router.process.pid]) - router_before
            flat = (await flatness(bases[0], database_url, args.stored, args.flat_tables, args.flat_speed)
                    if args.stored else [])
        finally:
            if router is not None:
                router.stop()
            for server in servers:
                server.stop()
            # What the servers logged of their own failures (an exception in a stream ends it with no error the
            # screen sees): said with the figures, since the logs go with the run's folder.
            failures = [line for server in servers for line in server_failures(server.instance / "gunicorn.log")]
            logs = [server.instance / "gunicorn.log" for server in servers]
            worth, lock = caches_worth(logs), lock_times(logs)
    section = report(args, figures, elapsed, weights, memory.peak, flat, lock)
    print(section)
    if worth:
        print("\n" + worth)
    if failures:
        print("\nThe servers logged:\n\n" + "\n".join(failures[:60]))
    if args.readme:
        write_readme(section, "instances" if args.instances > 1 else "benchmark")


def main() -> None:
    """Parse the options and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--hands", type=int, default=10, help="hands per game (10: a whole classic game)")
    parser.add_argument("--speed", type=float, default=1, help="how much faster than a real table")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--stored", type=int, default=100_000,
                        help="also compare 10 with this many stored games (0: skip)")
    parser.add_argument("--flat-tables", type=int, default=5, help="tables for the stored-games comparison")
    parser.add_argument("--flat-speed", type=float, default=10, help="their speed")
    parser.add_argument("--database-url", help="default: a new SQLite file")
    parser.add_argument("--instances", type=int, default=1,
                        help="server instances sharing the database, as separate hosts would (PostgreSQL)")
    parser.add_argument("--router", choices=["haproxy"],
                        help="every screen through HAProxy (deploy/haproxy.cfg) in front of the instances")
    parser.add_argument("--knee", type=int, default=0, metavar="LEVEL",
                        help="search the knee: table-equivalents (tables x speed) to start from")
    parser.add_argument("--knee-step", type=int, default=150, help="table-equivalents added per step")
    parser.add_argument("--knee-max", type=int, default=1500, help="the highest level tried")
    parser.add_argument("--shelf", type=int, default=0, metavar="TABLES",
                        help="compare the games: this many tables of each (Skull King, Skip-Bo, Dracula, free pad, "
                             "Wizard)")
    parser.add_argument("--readme", action="store_true", help="write the figures into docs/performance.md")
    args = parser.parse_args()
    if args.instances > 1 and not (args.database_url or "").startswith("postgresql"):
        parser.error("several instances share one PostgreSQL database: give --database-url")
    random.seed(1)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
