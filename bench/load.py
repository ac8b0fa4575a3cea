"""Drive simulated tables of six phones through whole games against the app run as in production.

Each table is a host screen and six phones, each with its own cookies, its live-update stream
and the same reactions as the page script: a phone refreshes its page when the stream says
the game moved on, and after the YO-HO-HO count. Phones join, bid secretly, tap their tricks
and report their results; the last report scores the hand. Times follow a real table,
sped up by --speed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the server is started by the same helper the tests use

from tests.production import ProductionServer  # noqa: E402
PLAYERS = 6
VERSION = re.compile(r'id="live"[^>]*data-version="(\d+)"')
COUNT = re.compile(r'data-count-ms="(\d+)"')
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')

# A real table, in seconds: thinking over a bid, playing one trick, reporting a result, dealing.
REAL_BID, REAL_TRICK, REAL_REPORT, REAL_DEAL = 15.0, 20.0, 10.0, 30.0


@dataclass
class Figures:
    """Everything measured in one run."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    by_hand: dict[int, list[float]] = field(default_factory=dict)
    delays: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    finished: int = 0

    def add(self, kind: str, seconds: float, hand: int | None = None) -> None:
        """Record one request's latency."""
        self.requests += 1
        self.latencies.setdefault(kind, []).append(seconds)
        if hand is not None and kind.startswith("write"):
            self.by_hand.setdefault(hand, []).append(seconds)


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


class Browser:
    """One phone or the host's screen: cookies, the rendered page and its live stream."""

    def __init__(self, base: str, connector: aiohttp.TCPConnector, figures: Figures) -> None:
        self.base = base
        self.figures = figures
        self.session = aiohttp.ClientSession(
            connector=connector, connector_owner=False, cookie_jar=aiohttp.CookieJar(unsafe=True),
            headers={"Accept-Encoding": "br, gzip"}, timeout=aiohttp.ClientTimeout(total=None, sock_read=None),
        )
        self.token = ""
        self.page = ""
        self.html = ""
        self.version = -1
        self.renders: list[tuple[float, int]] = []
        self.changed = asyncio.Event()
        self.latest = -1
        self.refreshing = False
        self.behind = False
        self.stream: asyncio.Task | None = None
        self.hand = 0

    async def request(self, kind: str, method: str, path: str, data: dict | None = None,
                      headers: dict | None = None) -> tuple[int, str, str]:
        """One request, timed and checked; redirects are returned, not followed."""
        if data is not None:
            data = {**data, "csrf_token": self.token}
        started = time.perf_counter()
        try:
            async with self.session.request(method, self.base + path, data=data, headers=headers,
                                            allow_redirects=False) as response:
                body = await response.text()
                status, location = response.status, response.headers.get("Location", "")
        except (aiohttp.ClientError, asyncio.TimeoutError) as error:
            self.figures.errors.append(f"{kind} {path}: {error!r}")
            return 0, "", ""
        self.figures.add(kind, time.perf_counter() - started, self.hand or None)
        if status >= 400:
            self.figures.errors.append(f"{kind} {path}: HTTP {status}")
        found = TOKEN.search(body)
        if found:
            self.token = found.group(1)
        return status, body, location

    def show(self, html: str) -> None:
        """Take a rendered page, as the page script would, and start the count if there is one."""
        found = VERSION.search(html)
        if not found:
            return
        version = int(found.group(1))
        if version < self.version:
            return  # an answer overtaken by a newer one; the page script drops it too
        self.html, self.version = html, version
        self.renders.append((time.monotonic(), version))
        self.changed.set()
        count = COUNT.search(html)
        if count:
            asyncio.get_running_loop().call_later(int(count.group(1)) / 1000 + 0.15,
                                                  lambda: asyncio.ensure_future(self.refresh()))

    async def open(self, path: str) -> None:
        """First load of a page, then listen to its game's stream."""
        self.page = path
        status, body, _ = await self.request("page load", "GET", path)
        if status == 200:
            self.show(body)
            self.stream = asyncio.ensure_future(self.listen(path + "/events"))

    async def listen(self, path: str) -> None:
        """Follow the live-update stream; every newer version refreshes the page."""
        try:
            async with self.session.get(self.base + path) as response:
                event = ""
                async for raw in response.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:") and event == "changed":
                        self.latest = int(line[5:])
                        if self.latest > self.version:
                            asyncio.ensure_future(self.refresh())
        except (aiohttp.ClientError, asyncio.CancelledError):
            return

    async def refresh(self) -> None:
        """Fetch the page again; one fetch at a time, and once more if the game moved meanwhile."""
        if self.refreshing:
            self.behind = True
            return
        self.refreshing = True
        try:
            headers = {"HX-Request": "true", "X-Keep-Open": "1"}
            status, body, location = await self.request("live refresh", "GET", self.page, headers=headers)
            if status == 303:
                # The game is over: the page moves on to the end, as htmx follows the redirect.
                self.page = location
                status, body, _ = await self.request("live refresh", "GET", location, headers=headers)
            if status == 200:
                self.show(body)
        finally:
            self.refreshing = False
        if self.behind:
            self.behind = False
            if self.latest > self.version:
                await self.refresh()

    async def write(self, kind: str, path: str, data: dict) -> float:
        """Post a form as htmx does, then show the page the redirect leads to; return when sent."""
        sent = time.monotonic()
        status, body, location = await self.request("write: " + kind, "POST", path, data,
                                                    headers={"HX-Request": "true"})
        if status == 303:
            status, body, _ = await self.request("page after write", "GET", location,
                                                 headers={"HX-Request": "true"})
        if status in (200, 422):
            self.show(body)
        return sent

    async def until(self, test, what: str, timeout: float = 120) -> None:  # noqa: ANN001
        """Wait until the shown page passes `test`; like a real page, only the live stream moves it on."""
        deadline = time.monotonic() + timeout
        while not test(self.html):
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                if os.environ.get("BENCH_DEBUG"):
                    print(self.html, file=sys.stderr)
                raise TimeoutError(f"page {self.page} never showed {what} (hand {self.hand}, version {self.version})")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                continue

    async def close(self) -> None:
        """Stop listening and forget the cookies."""
        if self.stream:
            self.stream.cancel()
        await self.session.close()


async def pause(real_seconds: float, speed: float) -> None:
    """Wait a human's while, sped up."""
    await asyncio.sleep(random.uniform(0.5, 1.5) * real_seconds / speed)


async def play_table(index: int, base: str, connector: aiohttp.TCPConnector, figures: Figures,
                     hands: int, speed: float, writes: list[tuple[int, float, int]],
                     browsers: dict[int, list[Browser]]) -> None:
    """One table through a whole game: the host starts it, six phones join and play every hand."""
    host = Browser(base, connector, figures)
    phones = [Browser(base, connector, figures) for _ in range(PLAYERS)]
    browsers[index] = [host, *phones]
    try:
        await host.request("page load", "GET", "/games/new")
        names = [f"Player {index}-{seat}" for seat in range(PLAYERS)]
        status, _, game = await host.request("write: new game", "POST", "/games/new",
                                             {"ruleset": "classic", "player": names})
        if status != 303:
            return
        await host.open(game)
        for seat, phone in enumerate(phones):
            await pause(REAL_BID / 3, speed)
            await phone.request("page load", "GET", f"{game}/join")
            await phone.write("join", f"{game}/join", {"seat": seat})
            await phone.open(game)
        for number in range(1, hands + 1):
            for browser in browsers[index]:
                browser.hand = number
            await pause(REAL_DEAL, speed)

            async def bid(phone: Browser, seat: int) -> None:
                await phone.until(lambda html: f"/hands/{number}/bid" in html, "the bids")
                await pause(REAL_BID, speed)
                sent = await phone.write("bid", f"{game}/hands/{number}/bid", {"bid": random.randint(0, number)})
                writes.append((index, sent, phone.version))

            await asyncio.gather(*(bid(phone, seat) for seat, phone in enumerate(phones)))
            await asyncio.gather(*(phone.until(lambda html: 'value="done"' in html or 'value="draft"' in html, "the results")
                                   for phone in phones))
            tricks = [0] * PLAYERS
            for _ in range(number):
                await pause(REAL_TRICK, speed)
                winner = random.randrange(PLAYERS)
                tricks[winner] += 1
                sent = await phones[winner].write("trick", f"{game}/hands/{number}", {"intent": "trick"})
                writes.append((index, sent, phones[winner].version))

            async def report(phone: Browser, seat: int) -> None:
                await pause(REAL_REPORT, speed)
                sent = await phone.write("result", f"{game}/hands/{number}",
                                         {"intent": "done", f"tricks-{seat}": tricks[seat]})
                writes.append((index, sent, phone.version))

            await asyncio.gather(*(report(phone, seat) for seat, phone in enumerate(phones)))
            following = f"/hands/{number + 1}/"
            await asyncio.gather(*(phone.until(lambda html: following in html or phone.page.endswith("/end"), "the next hand")
                                   for phone in phones))
        figures.finished += 1
    except TimeoutError as error:
        figures.errors.append(f"table {index}: {error}")


def write_delays(writes: list[tuple[int, float, int]], browsers: dict[int, list[Browser]]) -> list[float]:
    """For every write and every other screen at its table: time until that screen showed it."""
    delays = []
    for table, sent, version in writes:
        for browser in browsers[table]:
            shown = next((at for at, seen in browser.renders if seen >= version and at >= sent), None)
            if shown is not None:
                delays.append(shown - sent)
    return delays


class MemoryWatch:
    """Peak resident memory of the server's processes, sampled while the load runs."""

    def __init__(self, pid: int) -> None:
        self.root = psutil.Process(pid)
        self.peak = 0

    def sample(self) -> None:
        """Add up the server's processes now and keep the peak."""
        try:
            processes = [self.root, *self.root.children(recursive=True)]
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


async def drive(base: str, tables: int, hands: int, speed: float,
                memory: MemoryWatch | None) -> tuple[Figures, float]:
    """Play all tables at once; return the figures and how long it took."""
    figures = Figures()
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    writes: list[tuple[int, float, int]] = []
    browsers: dict[int, list[Browser]] = {}
    watching = asyncio.ensure_future(memory.run()) if memory else None
    started = time.monotonic()

    async def staggered(index: int) -> None:
        # Tables sit down over the first minute of real time, not all in the same instant.
        await asyncio.sleep(random.uniform(0, 60 / speed))
        await play_table(index, base, connector, figures, hands, speed, writes, browsers)

    await asyncio.gather(*(staggered(index) for index in range(tables)))
    elapsed = time.monotonic() - started
    if watching:
        watching.cancel()
    for group in browsers.values():
        for browser in group:
            await browser.close()
    await connector.close()
    figures.delays = write_delays(writes, browsers)
    return figures, elapsed


def fill_stored_games(database_url: str, count: int) -> None:
    """Store `count` finished ten-hand games of six, as a service has after a while."""
    from sqlalchemy import create_engine, func, insert, select

    from scorekeeper.models import EntryRecord, Event, Game, HandRecord, Seat

    engine = create_engine(database_url)
    with engine.begin() as connection:
        first = connection.execute(select(func.coalesce(func.max(Game.id), 0))).scalar_one() + 1
        hand_id = connection.execute(select(func.coalesce(func.max(HandRecord.id), 0))).scalar_one() + 1
        for batch in range(first, first + count, 1000):
            games, seats, hands, entries, events = [], [], [], [], []
            for game_id in range(batch, min(batch + 1000, first + count)):
                # Eight characters: never one of the six-character codes new games draw.
                games.append({"id": game_id, "ruleset": "classic", "options": {}, "version": 70,
                              "join_code": f"S{game_id:07d}"})
                seats.extend({"game_id": game_id, "position": p, "name": f"P{p}"} for p in range(PLAYERS))
                for number in range(1, 11):
                    hands.append({"id": hand_id, "game_id": game_id, "number": number, "cards": number,
                                  "phase": "scored"})
                    entries.extend({"hand_id": hand_id, "position": p, "bid": 0, "tricks": number if p == 0 else 0,
                                    "done": True} for p in range(PLAYERS))
                    hand_id += 1
                events.extend({"game_id": game_id, "version": v, "kind": "result", "hand": 10} for v in range(1, 71))
            connection.execute(insert(Game), games)
            connection.execute(insert(Seat), seats)
            connection.execute(insert(HandRecord), hands)
            connection.execute(insert(EntryRecord), entries)
            connection.execute(insert(Event), events)
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
    rows = ["| Stored games | writes p50 ms | writes p95 ms | refreshes p50 ms | refreshes p95 ms |",
            "|---:|---:|---:|---:|---:|"]
    have = 0
    for wanted in (10, stored):
        fill_stored_games(database_url, wanted - have)
        have = wanted
        figures, _ = await drive(base, tables, 3, speed, None)
        writes = [v for kind, values in figures.latencies.items() if kind.startswith("write") for v in values]
        refreshes = figures.latencies.get("live refresh", [])
        rows.append(f"| {wanted:,} | {percentile(writes, .5) * 1000:.1f} | {percentile(writes, .95) * 1000:.1f} | "
                    f"{percentile(refreshes, .5) * 1000:.1f} | {percentile(refreshes, .95) * 1000:.1f} |")
        print(rows[-1], flush=True)
    return rows


def report(args: argparse.Namespace, figures: Figures, elapsed: float, weights: dict[str, int],
           peak: int, flat: list[str]) -> str:
    """The README's performance section."""
    real_minutes = sum(REAL_DEAL + REAL_BID + REAL_REPORT + n * REAL_TRICK for n in range(1, args.hands + 1)) / 60
    phones = args.tables * PLAYERS
    lines = [
        f"Command: `bash bench/run --readme` (defaults: --tables {args.tables} --speed {args.speed:g} "
        f"--stored {args.stored})  ",
        f"Machine: {machine()}  ",
        f"Database: {args.database_label}; server: gunicorn as in the Procfile, {args.workers} gevent workers; "
        f"the load runs on the same machine.  ",
        f"Measured on {time.strftime('%Y-%m-%d')}.",
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
        f"From a write to the page showing it on every screen of the table (p50 / p95 / p99 / max): "
        f"**{summary(figures.delays)}**.",
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
        lines += ["", f"The same load, {args.flat_tables} tables for 3 hands at {args.flat_speed:g} times a real table's "
                  "speed, with few and with many games stored:",
                  "", *flat]
    if figures.errors:
        lines += ["", "First errors:", "", *(f"- `{error}`" for error in figures.errors[:5])]
    return "\n".join(lines)


def write_readme(section: str) -> None:
    """Put the section between the README's benchmark markers."""
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    start, end = "<!-- benchmark:start -->", "<!-- benchmark:end -->"
    before, rest = text.split(start, 1)
    _, after = rest.split(end, 1)
    readme.write_text(f"{before}{start}\n{section}\n{end}{after}", encoding="utf-8")


async def run(args: argparse.Namespace) -> None:
    """Start the server, measure, stop it, report."""
    with tempfile.TemporaryDirectory() as instance:
        database_url = args.database_url or f"sqlite:///{instance}/scorekeeper.sqlite"
        args.database_label = "PostgreSQL" if database_url.startswith("postgresql") else "SQLite (WAL)"
        server = ProductionServer(Path(instance), database_url, WEB_CONCURRENCY=str(args.workers))
        server.start()
        base = server.base
        try:
            weights = await page_weights(base)
            print("first loads:", {k: f"{v / 1024:.1f} KiB" for k, v in weights.items()}, flush=True)
            memory = MemoryWatch(server.process.pid)
            figures, elapsed = await drive(base, args.tables, args.hands, args.speed, memory)
            flat = await flatness(base, database_url, args.stored, args.flat_tables, args.flat_speed) if args.stored else []
        finally:
            server.stop()
    section = report(args, figures, elapsed, weights, memory.peak, flat)
    print(section)
    if args.readme:
        write_readme(section)


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
    parser.add_argument("--readme", action="store_true", help="write the figures into README.md")
    args = parser.parse_args()
    random.seed(1)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
