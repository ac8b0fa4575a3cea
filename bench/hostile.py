"""Hostile requests against the Procfile's server (gunicorn, 2 gevent workers, SQLite), with figures.

1. Every pathological import shape under the size limit: how long each is refused in, and how
   long a page takes meanwhile (all shapes sent at once from several connections).
2. SIGTERM with 300 open live streams and 50 idle keep-alive connections: how long until every
   process of the server is gone (the promise: 2 s at most).

Run: .venv/bin/python bench/hostile.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3, help="SIGTERM runs")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
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
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
