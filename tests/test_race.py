"""Six phones lock their bids at the same instant against several server processes: one reveal, no bid lost."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from tests.helpers import Phone
from tests.production import ProductionServer

SEATS = 6
HANDS = 10
WORKERS = 3


@pytest.fixture
def workers(tmp_path: Path, database_url: str) -> Iterator[tuple[str, str]]:
    """gunicorn with the production settings and several worker processes, on 127.0.0.1."""
    server = ProductionServer(tmp_path, database_url, SCOREKEEPER_REVEAL_SECONDS="0.3", WEB_CONCURRENCY=str(WORKERS))
    server.start()
    try:
        yield server.base, database_url
    finally:
        server.stop()


def test_simultaneous_bids_give_exactly_one_reveal_and_lose_none(workers: tuple[str, str]) -> None:
    base, database = workers
    host = Phone(base)
    host.get("/games/new")
    names = [f"P{n}" for n in range(SEATS)]
    status, game = host.post("/games/new", {"ruleset": "classic", "player": names})
    assert status == 303
    phones = [Phone(base) for _ in range(SEATS)]
    for seat, phone in enumerate(phones):
        phone.get(f"{game}/join")
        assert phone.post(f"{game}/join", {"seat": seat})[0] == 303

    for number in range(1, HANDS + 1):
        bids = [(seat + number) % (number + 1) for seat in range(SEATS)]
        start = threading.Barrier(SEATS)
        answers: list[int] = [0] * SEATS

        def bid(seat: int) -> None:
            phones[seat].get(game)
            start.wait()
            answers[seat] = phones[seat].post(f"{game}/hands/{number}/bid", {"bid": bids[seat]})[0]

        threads = [threading.Thread(target=bid, args=(seat,)) for seat in range(SEATS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert answers == [303] * SEATS, f"hand {number}: {answers}"

        deadline = time.monotonic() + 20
        pad = {"hands": []}
        while len(pad["hands"]) < number and time.monotonic() < deadline:
            time.sleep(0.1)
            pad = json.loads(host.get(f"{game}/pad.json")[1])
        assert len(pad["hands"]) == number, f"hand {number} was never revealed"
        assert [e["bid"] for e in pad["hands"][-1]["entries"]] == bids

        # Each phone reports its own result; the last one closes the hand.
        for seat, phone in enumerate(phones):
            phone.get(game)
            report = {f"tricks-{seat}": number if seat == 0 else 0, "intent": "done"}
            assert phone.post(f"{game}/hands/{number}", report)[0] == 303

    engine = create_engine(database)
    with engine.connect() as connection:
        counts = connection.exec_driver_sql(
            "SELECT hand, count(*) FROM event WHERE kind = 'count' GROUP BY hand ORDER BY hand").all()
    engine.dispose()
    assert [tuple(row) for row in counts] == [(number, 1) for number in range(1, HANDS + 1)]


def test_open_streams_do_not_hold_the_workers(workers: tuple[str, str]) -> None:
    """300 phones keep their live-update streams open; pages still answer at once."""
    base, _ = workers
    host = Phone(base)
    host.get("/games/new")
    status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
    assert status == 303
    port = int(base.rsplit(":", 1)[1])
    streams = []
    try:
        for _ in range(300):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(f"GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            streams.append(connection)
        for connection in streams[::30]:
            assert b"text/event-stream" in connection.recv(4096)
        started = time.monotonic()
        for _ in range(10):
            assert host.get(game)[0] == 200
        assert time.monotonic() - started < 10
    finally:
        for connection in streams:
            connection.close()
