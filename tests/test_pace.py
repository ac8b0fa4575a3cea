"""Past the knee every tap is answered in time: a write that gets no lock in time, or that comes while its process
runs far behind, is turned away at once, 503 with Retry-After, nothing of it stored; sent again (the page's waiting
tap, with its id), it is applied once. How long writes waited for the lock and held it is counted per process."""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import timedelta

import gevent
import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from scorekeeper import games, pace
from scorekeeper.clock import utcnow
from scorekeeper.durations import Durations, durations, lines
from scorekeeper.extensions import db
from scorekeeper.models import Event, Tap
from tests.conftest import TEST_DATABASE_URL, make_app, stop_watching
from tests.helpers import hand_now, new_game, public_id, set_count

BUSY = "The table is very busy just now: nothing was changed."


@pytest.fixture
def waiting_app(database_url: str) -> Iterator[Flask]:
    """An app whose writes wait a fifth of a second for the database's lock."""
    app = make_app(database_url, WRITE_WAIT_SECONDS=0.2)
    yield app
    stop_watching(app)


@contextmanager
def lock_held_elsewhere(app: Flask, url: str) -> Iterator[None]:
    """Another process's writer holds the game's lock for the block: SQLite's one write lock, PostgreSQL's lock of the
    game's row."""
    address = app.config["SQLALCHEMY_DATABASE_URI"]
    if not TEST_DATABASE_URL:
        other = sqlite3.connect(address.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            other.execute("ROLLBACK")
            other.close()
        return
    import psycopg

    with psycopg.connect(make_url(address).set(drivername="postgresql").render_as_string(hide_password=False)
                         ) as other:
        other.execute("SELECT id FROM game WHERE public_id = %s FOR UPDATE", (public_id(url),))
        yield
        other.rollback()


def let_go_after(seconds: float, held: AbstractContextManager[None]) -> threading.Thread:
    """A thread that lets the lock `held` go after `seconds`."""
    def let_go() -> None:
        time.sleep(seconds)
        held.__exit__(None, None, None)

    thread = threading.Thread(target=let_go)
    thread.start()
    return thread


def logged(app: Flask, kind: str) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Event).where(Event.kind == kind)) or 0


def taps_kept(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Tap)) or 0


def test_a_write_that_gets_no_lock_in_time_is_answered_503_and_applied_once_when_sent_again(waiting_app: Flask
                                                                                             ) -> None:
    host = waiting_app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    tap = {"X-Tap": secrets.token_hex(16)}
    bid = {"seat": 0, "bid": 1}
    kept_before = taps_kept(waiting_app)
    with lock_held_elsewhere(waiting_app, url):
        started = time.monotonic()
        busy = host.post(f"{url}/hands/1/bid", data=bid, headers=tap)
        waited = time.monotonic() - started
    assert busy.status_code == 503
    assert 1 <= int(busy.headers["Retry-After"]) <= 3
    assert BUSY in busy.get_data(as_text=True)
    # It waited its bound for the lock, not the ten seconds a command line's write may.
    assert 0.2 <= waited < 2
    # Nothing of it is stored: no bid, no event, no tap (a repeat is tried afresh).
    assert logged(waiting_app, "bid") == 0 and taps_kept(waiting_app) == kept_before
    with waiting_app.app_context():
        assert hand_now(url).entries[0].bid is None
    # The page's waiting tap goes again with its id: applied once, however often it comes.
    for _ in range(2):
        assert host.post(f"{url}/hands/1/bid", data=bid, headers=tap).status_code == 303
    assert logged(waiting_app, "bid") == 1
    with waiting_app.app_context():
        assert hand_now(url).entries[0].bid == 1


def test_a_lock_let_go_within_the_bound_is_waited_for_and_the_write_applied(waiting_app: Flask) -> None:
    """Another writer's lock held a tenth of a second, within the fifth a write waits: the write waits for it (on
    PostgreSQL in the process, where its other requests run meanwhile) and is applied, once."""
    host = waiting_app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    held = lock_held_elsewhere(waiting_app, url)
    held.__enter__()
    letting_go = let_go_after(0.1, held)
    started = time.monotonic()
    answer = host.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}, headers={"X-Tap": "b" * 32})
    waited = time.monotonic() - started
    letting_go.join()
    assert answer.status_code == 303
    assert 0.1 <= waited < 0.2
    assert logged(waiting_app, "bid") == 1


def test_a_process_far_behind_turns_a_write_away_at_once_and_still_shows_its_pages(app: Flask) -> None:
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    behind = pace.Pace()
    app.extensions[pace.EXTENSION] = behind
    behind.behind = app.config["BEHIND_SECONDS"] + 0.5
    turned_away = host.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}, headers={"X-Tap": "a" * 32})
    assert turned_away.status_code == 503 and turned_away.headers["Retry-After"]
    assert logged(app, "bid") == 0
    # Pages are not turned away: they carry no tap to send again.
    assert host.get(url).status_code == 200
    # Caught up, the same tap goes through.
    behind.behind = 0.0
    assert host.post(f"{url}/hands/1/bid", data={"seat": 0, "bid": 1}, headers={"X-Tap": "a" * 32}).status_code == 303
    assert logged(app, "bid") == 1


def test_an_import_turned_away_says_so_in_json(app: Flask, example_pad: dict) -> None:
    behind = app.extensions[pace.EXTENSION] = pace.Pace()
    behind.behind = 60.0
    answer = app.test_client().post("/games/import", json=example_pad)
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert answer.json is not None and BUSY in answer.json["problems"][0]


def test_the_pace_is_how_late_a_timer_fires() -> None:
    followed = pace.Pace()
    follower = gevent.spawn(followed.follow)
    try:
        gevent.sleep(0.25)
        assert followed.behind < 0.1
        # The process busy half a second, with no turn for anyone else.
        busy_until = time.monotonic() + 0.5
        while time.monotonic() < busy_until:
            pass
        # The timer set before fires now, late by as much; the next one fires on time again.
        gevent.sleep(0.01)
        assert followed.behind >= 0.3
        gevent.sleep(0.3)
        assert followed.behind < 0.1
    finally:
        follower.kill()


def test_a_count_whose_end_cannot_be_confirmed_in_time_still_shows_as_a_count(waiting_app: Flask) -> None:
    host = waiting_app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    with waiting_app.app_context():
        set_count(url, 1, "bid", utcnow() - timedelta(seconds=1))
        with lock_held_elsewhere(waiting_app, url):
            shown = games.load(public_id(url))
        assert shown is not None and shown.count is not None and not shown.count.over
        # The lock let go, the next look confirms the end and shows it.
        again = games.load(public_id(url))
        assert again is not None and again.count is not None and again.count.over


def test_writes_count_how_long_they_waited_for_the_lock_and_held_it(app: Flask) -> None:
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    for seat in (0, 1):
        assert host.post(f"{url}/hands/1/bid", data={"seat": seat, "bid": 1}).status_code == 303
    waited, held = durations("write lock waited", app), durations("write lock held", app)
    # The new game and the two bids.
    assert waited.count == held.count == 3
    assert 0 < held.percentile(0.5) < 1
    logged_lines = lines(app)
    assert Durations.parse(logged_lines)["write lock held"].spans == held.spans


def test_durations_add_up_across_processes_and_give_percentiles_within_five_per_cent() -> None:
    first, second = Durations(), Durations()
    values = [0.0001 * (1.07 ** i) for i in range(200)]
    for i, value in enumerate(values):
        (first if i % 3 else second).add(value)
    found = Durations.parse([first.line("write lock held"), "some other line", second.line("write lock held")])
    together = found["write lock held"]
    assert together.count == len(values)
    ordered = sorted(values)
    for share in (0.5, 0.9, 0.99, 1.0):
        exact = ordered[max(1, round(share * len(values))) - 1]
        assert abs(together.percentile(share) - exact) <= 0.05 * exact, share
    assert Durations().percentile(0.5) == 0.0


def test_a_worker_takes_up_to_sixteen_new_connections_a_turn_whatever_gunicorn_sets(monkeypatch) -> None:
    import socket

    from gunicorn.workers import ggevent

    from scorekeeper.gunicorn_config import ACCEPTED_IN_A_TURN, accept_in_turn

    monkeypatch.setattr(ggevent, "StreamServer", ggevent.StreamServer)
    accept_in_turn(ACCEPTED_IN_A_TURN)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    # As gunicorn's worker makes its server when it runs more than one worker.
    server = ggevent.StreamServer(listener, handle=lambda *args: None)
    server.max_accept = 1
    server.start()
    try:
        assert server.max_accept == ACCEPTED_IN_A_TURN == 16
    finally:
        server.close()
