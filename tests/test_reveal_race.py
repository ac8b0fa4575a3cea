"""A cheat re-sends a bid at the very end of the YO-HO-HO count, against several server processes.

The Procfile's server (gunicorn, gevent) with two workers; cookie-less streams watch the table
from both. Whatever moment the bid lands, from 40 ms before the count's end to 10 ms after, no
stream may show the bids and then a secret hand again (the cheat would have seen them and bid
anew), and a bid that comes after the end is refused in words.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import Phone
from tests.production import ProductionServer

WORKERS = 2
STREAMS = 8
COUNT_SECONDS = 0.3
# When the cheat's bid is sent, in milliseconds after the count's end (negative: before it).
MOMENTS_MS = tuple(range(-40, 11, 5))
REVEAL_AT = re.compile(r'data-reveal-at="(\d+)"')


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ProductionServer]:
    """The Procfile's server with two workers, a short count, on 127.0.0.1."""
    production = ProductionServer(tmp_path, database_url, SCOREKEEPER_REVEAL_SECONDS=str(COUNT_SECONDS),
                                  WEB_CONCURRENCY=str(WORKERS))
    production.start()
    try:
        yield production
    finally:
        production.stop()


class Stream(threading.Thread):
    """One cookie-less screen following the table: every shared table it is sent, in order."""

    def __init__(self, port: int, path: str) -> None:
        super().__init__(daemon=True)
        # HTTP/1.0: no chunks to take apart, the events arrive as they are written.
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.connection.sendall(f"GET {path}/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        self.received = b""
        self.start()

    def run(self) -> None:
        try:
            while chunk := self.connection.recv(65536):
                self.received += chunk
        except OSError:
            pass

    def close(self) -> list[bool]:
        """Stop watching; whether each shared table it was sent showed the bids."""
        try:
            # Wakes the reading thread at once (close alone would leave it waiting).
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()
        self.join(timeout=5)
        tables = []
        for event in self.received.decode(errors="replace").split("\n\n"):
            if "event: table" in event:
                tables.append('class="status-list revealed"' in event)
        return tables


def new_table(base: str) -> tuple[Phone, Phone, Phone, str]:
    """A host and two phones, Anne and Ben, at a new game."""
    host = Phone(base)
    host.get("/games/new")
    status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
    assert status == 303
    anne, ben = Phone(base), Phone(base)
    for seat, phone in enumerate((anne, ben)):
        phone.get(f"{game}/join")
        assert phone.post(f"{game}/join", {"seat": seat})[0] == 303
        phone.get(game)
    return host, anne, ben, game


def test_a_bid_at_the_count_s_end_never_hides_bids_already_shown(server: ProductionServer) -> None:
    port = server.port
    accepted, refused_late = [], []
    for moment in MOMENTS_MS:
        host, anne, ben, game = new_table(server.base)
        streams = [Stream(port, game) for _ in range(STREAMS)]
        time.sleep(0.2)
        assert anne.post(f"{game}/hands/1/bid", {"bid": 1})[0] == 303
        assert ben.post(f"{game}/hands/1/bid", {"bid": 0})[0] == 303
        found = REVEAL_AT.search(anne.get(game)[1])
        assert found, "the count did not start"
        reveal_at = int(found.group(1)) / 1000
        time.sleep(max(0.0, reveal_at + moment / 1000 - time.time()))
        status, answer = anne.post(f"{game}/hands/1/bid", {"bid": 0})
        # Long enough for a count started again by that bid to end too.
        time.sleep(COUNT_SECONDS + 1.0)
        for number, tables in enumerate(stream.close() for stream in streams):
            assert tables and tables[-1], f"{moment} ms: stream {number} never showed the bids"
            first_shown = tables.index(True)
            assert all(tables[first_shown:]), (
                f"{moment} ms: stream {number} showed the bids, then a secret hand again: {tables}")
        if status == 303:
            accepted.append(moment)
        else:
            assert status == 422 and "The bids of this hand are already revealed." in answer
            if moment > 0:
                refused_late.append(moment)
        if moment > 0:
            assert status == 422, f"a bid {moment} ms after the count's end was taken"
    # Every moment after the end was refused. (Which moments before it were taken, restarting the count,
    # depends on how fast the machine answers: on a quiet one, all of them.)
    assert refused_late == [m for m in MOMENTS_MS if m > 0]
    print(f"bids taken at {accepted} ms, refused after the end at {refused_late} ms")
