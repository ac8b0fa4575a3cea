"""Hostile requests against the Procfile's server (gunicorn, 2 gevent workers, SQLite), with figures.

1. Every pathological import shape under the size limit: how long each is refused in, and how
   long a page takes meanwhile (all shapes sent at once from several connections).
2. SIGTERM with 300 open live streams and 50 idle keep-alive connections: how long until every
   process of the server is gone (the promise: 2 s at most).
3. Slow clients from one address (127.0.0.2): bodies sent a byte every 5 s to /language, and event streams of a
   game opened again and again, while a normal player (127.0.0.1) opens the game and taps: the player's page and
   tap times (the promise: every one answered, p95 under 2 s), and how the server answered the flood.

Run: .venv/bin/python bench/hostile.py [--repeat 3] [--slow 3000 --streams 3000 --seconds 60] [--only slow]
"""

from __future__ import annotations

import argparse
import os
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.helpers import Phone, hostile_pads
from tests.production import ProductionServer, sigterm_with_open_connections


def post(base: str, body: str) -> tuple[int, float]:
    """Send one import; its status and how long the answer took, in ms."""
    request = urllib.request.Request(base + "/games/import", data=body.encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, (time.perf_counter() - started) * 1000


def imports(server: ProductionServer) -> None:
    """Each shape alone, then all at once while a page is asked for again and again."""
    texts = hostile_pads()
    print("Pathological imports (each alone, ms to the refusal; size in KiB):")
    for name, text in texts.items():
        times = [post(server.base, text) for _ in range(3)]
        print(f"  {name:28s} {len(text) / 1024:6.0f} KiB  status {times[0][0]}  "
              f"median {statistics.median(t for _, t in times):7.1f} ms  max {max(t for _, t in times):7.1f} ms")
    phone = Phone(server.base)
    phone.get("/")
    page_times: list[float] = []
    stop = threading.Event()

    def pages() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            assert phone.get("/")[0] == 200
            page_times.append((time.perf_counter() - started) * 1000)
            time.sleep(0.01)

    watcher = threading.Thread(target=pages)
    watcher.start()
    senders = [threading.Thread(target=lambda t=text: [post(server.base, t) for _ in range(3)])
               for text in texts.values()]
    started = time.perf_counter()
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    flood = (time.perf_counter() - started) * 1000
    stop.set()
    watcher.join()
    print(f"  all {len(texts)} shapes × 3 at once: {flood:.0f} ms in all; the start page meanwhile "
          f"({len(page_times)} requests): median {statistics.median(page_times):.1f} ms, max {max(page_times):.1f} ms")


SLOW_HEAD = (b"POST /language HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
             b"Content-Length: 1000\r\n\r\n")


class Flood:
    """Slow bodies and open streams from one address, each opened again as soon as the server ends it."""

    def __init__(self, port: int, game: str, source: str) -> None:
        self.port, self.source = port, source
        self.stream_head = (f"GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                            .encode())
        self.selector = selectors.DefaultSelector()
        self.answers: dict[str, int] = {}
        self.slow: list[socket.socket] = []

    def open(self, kind: str) -> None:
        connection = socket.socket()
        connection.bind((self.source, 0))
        connection.connect(("127.0.0.1", self.port))
        connection.setblocking(False)
        connection.sendall(SLOW_HEAD + b"l" if kind == "slow" else self.stream_head)
        self.selector.register(connection, selectors.EVENT_READ, kind)
        if kind == "slow":
            self.slow.append(connection)

    def run(self, slow: int, streams: int, seconds: float) -> None:
        for n in range(max(slow, streams)):
            if n < slow:
                self.open("slow")
            if n < streams:
                self.open("stream")
        deadline, next_byte = time.monotonic() + seconds, time.monotonic() + 5
        while time.monotonic() < deadline:
            for key, _ in self.selector.select(timeout=0.5):
                connection, kind = key.fileobj, key.data
                try:
                    data = connection.recv(65536)
                except OSError:
                    data = b""
                if kind == "slow" or not data:
                    status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed"
                    name = f"{kind} {status}"
                    self.answers[name] = self.answers.get(name, 0) + 1
                    self.selector.unregister(connection)
                    if connection in self.slow:
                        self.slow.remove(connection)
                    connection.close()
                    self.open(kind)
            if time.monotonic() >= next_byte:
                next_byte += 5
                for connection in list(self.slow):
                    try:
                        connection.send(b"l")
                    except OSError:
                        pass
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def slow_clients(slow: int, streams: int, seconds: float) -> None:
    """The flood from 127.0.0.2 while a normal player at 127.0.0.1 opens the game and taps, every half second; the
    server with its bounds per address as they ship (the tests' server lifts them: its tables share an address)."""
    from scorekeeper import create_app

    shipped = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "x"}).config
    with tempfile.TemporaryDirectory() as folder:
        server = ProductionServer(Path(folder), **{key: str(shipped[key]) for key in
                                                   ("BODIES_PER_ADDRESS", "STREAMS_PER_ADDRESS", "STREAMS_PER_GAME")})
        server.start()
        try:
            host = Phone(server.base)
            host.get("/games/new")
            game = host.post("/games/new", {"ruleset": "modern", "player": ["Anne", "Ben"],
                                            "advanced_cards": "on"})[1]
            for seat in (0, 1):
                host.post(f"{game}/hands/1/bid", {"seat": seat, "bid": 0})
            flood = Flood(server.port, game, "127.0.0.2")
            flooding = threading.Thread(target=flood.run, args=(slow, streams, seconds))
            flooding.start()
            time.sleep(5)  # the flood in full
            pages: list[float] = []
            taps: list[float] = []
            failed = 0
            while flooding.is_alive():
                for times, act in ((pages, lambda: host.get(game)),
                                   (taps, lambda: host.post(f"{game}/hands/1", {"intent": "lost-more"
                                                                                if len(taps) % 2 == 0 else
                                                                                "lost-less"}))):
                    started = time.perf_counter()
                    try:
                        status = act()[0]
                    except OSError:
                        status = 0
                    failed += status not in (200, 303)
                    times.append((time.perf_counter() - started) * 1000)
                time.sleep(0.5)
            flooding.join()
            for name, times in (("page", pages), ("tap", taps)):
                ranked = sorted(times)
                print(f"  normal player's {name}s: {len(times)}, p50 {ranked[len(ranked) // 2]:.0f} ms, "
                      f"p95 {ranked[int(len(ranked) * 0.95)]:.0f} ms, max {ranked[-1]:.0f} ms")
            print(f"  failed: {failed}; the flood answered: " +
                  ", ".join(f"{name} {count}" for name, count in sorted(flood.answers.items())))
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="SIGTERM runs")
    parser.add_argument("--slow", type=int, default=3000, help="slow bodies at once")
    parser.add_argument("--streams", type=int, default=3000, help="event streams at once")
    parser.add_argument("--seconds", type=float, default=60, help="how long the flood lasts")
    parser.add_argument("--only", choices=["slow"], help="the slow clients alone")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    if args.only == "slow":
        print(f"Slow clients: {args.slow} bodies and {args.streams} streams from one address, {args.seconds:.0f} s:")
        slow_clients(args.slow, args.streams, args.seconds)
        return
    with tempfile.TemporaryDirectory() as folder:
        server = ProductionServer(Path(folder))
        server.start()
        try:
            imports(server)
        finally:
            server.stop()
    times = []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            times.append(sigterm_with_open_connections(Path(folder), 300, 50))
    print("SIGTERM with 300 open streams and 50 idle keep-alive connections, until every process is gone: "
          + ", ".join(f"{t:.2f} s" for t in times) + " (promise: ≤ 2 s)")
    print(f"Slow clients: {args.slow} bodies and {args.streams} streams from one address, {args.seconds:.0f} s:")
    slow_clients(args.slow, args.streams, args.seconds)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
