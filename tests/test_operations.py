"""Running the service: a shutdown with many open streams, the event log kept short, and wake-ups per game."""

from __future__ import annotations

import os
import signal
import socket
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from scorekeeper.extensions import db
from scorekeeper.live import Watcher, prune_events
from scorekeeper.models import Event, Game, utcnow
from tests.helpers import Phone, new_game
from tests.production import ProductionServer


def test_sigterm_with_300_open_streams_stops_the_server_within_two_seconds(tmp_path: Path) -> None:
    server = ProductionServer(tmp_path)
    server.start()
    streams = []
    try:
        host = Phone(server.base)
        host.get("/games/new")
        status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
        assert status == 303
        for _ in range(300):
            connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            connection.sendall(f"GET {game}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            streams.append(connection)
        for connection in streams:
            assert b"text/event-stream" in connection.recv(4096)
        started = time.monotonic()
        # As a service manager stops it: SIGTERM to the master, which passes it on to the workers.
        os.kill(server.process.pid, signal.SIGTERM)
        server.process.wait(timeout=20)
        took = time.monotonic() - started
    finally:
        for connection in streams:
            connection.close()
        server.stop()
    assert took <= 2.0, f"the server took {took:.1f} s to stop"


def test_old_events_are_pruned_and_recent_ones_kept(app: Flask, client) -> None:
    new_game(client, ["Anne", "Ben"])
    with app.app_context():
        game_id = db.session.scalar(select(Game.id))
        db.session.add(Event(game_id=game_id, version=0, kind="old", at=utcnow() - timedelta(hours=2)))
        db.session.commit()
        with Session(db.engine) as session:
            assert prune_events(session) == 1
        kinds = db.session.scalars(select(Event.kind)).all()
    assert kinds == ["create"]


def test_a_change_wakes_only_the_streams_of_its_game(app: Flask, client) -> None:
    """Each game has its own waiting point: a change elsewhere wakes nobody here."""
    new_game(client, ["Anne", "Ben"])
    new_game(client, ["Cara", "Dan"])
    with app.app_context():
        first, second = db.session.scalars(select(Game.id).order_by(Game.id)).all()
        def sessions() -> Session:
            return Session(db.engine)

        watcher = Watcher(sessions)
        watcher.poll()  # where the log stands now
        woken = []

        def follow(name: str, game_id: int) -> None:
            with watcher.watching(game_id) as wait:
                woken.append((name, wait(1, 30)))

        threads = [threading.Thread(target=follow, args=("watched", first), daemon=True),
                   threading.Thread(target=follow, args=("other", second), daemon=True)]
        for thread in threads:
            thread.start()
        time.sleep(0.1)
        conditions = {game_id: condition for game_id, (condition, _) in watcher.waiting.items()}
        assert set(conditions) == {first, second} and conditions[first] is not conditions[second]
        db.session.add(Event(game_id=first, version=2, kind="bid"))
        db.session.commit()
        watcher.poll()
        threads[0].join(timeout=5)
        assert woken == [("watched", True)]
        watcher.stop()
        threads[1].join(timeout=5)
        assert woken[1:] == [("other", None)]  # stopped, never woken by the other game's change


def test_on_postgresql_a_change_reaches_the_streams_by_notify_without_polling(app: Flask, client) -> None:
    """Every process LISTENs: a commit in any of them wakes the streams at once, not on the next poll."""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            pytest.skip("LISTEN/NOTIFY is PostgreSQL's; SQLite polls the event log")
    url = new_game(client, ["Anne", "Ben"])
    watcher = app.extensions["live_watcher"]
    with app.app_context():
        game = db.session.execute(select(Game.id, Game.version).where(Game.public_id == url.rsplit("/", 1)[-1])).one()
    woken = []
    listening = threading.Event()

    def follow() -> None:
        with watcher.watching(game.id) as wait:  # it starts the watcher, which listens
            listening.set()
            woken.append((wait(game.version, 30), time.monotonic()))

    waiting = threading.Thread(target=follow, daemon=True)
    waiting.start()
    listening.wait(5)
    deadline = time.monotonic() + 10
    while not watcher.listening and time.monotonic() < deadline:
        time.sleep(0.01)
    assert watcher.listening
    time.sleep(0.2)
    sent = time.monotonic()
    assert client.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}).status_code == 303
    waiting.join(timeout=5)
    assert woken and woken[0][0] is True
    # The event log is never polled while listening: the news came by NOTIFY.
    assert watcher.last_event is None
    print(f"woken {1000 * (woken[0][1] - sent):.1f} ms after the write was sent")
    watcher.stop()
