"""How often a request waits for PostgreSQL: a worker waits for each of its round trips in psycopg's C wait, the whole
process held up meanwhile, so a tap and a page go in as few as their statements allow (docs/performance.md, "A
write in two round trips")."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import make_url

from tests.conftest import TEST_DATABASE_URL, make_app, stop_watching
from tests.helpers import new_game

HTMX = {"HX-Request": "true"}

pytestmark = pytest.mark.skipif(not TEST_DATABASE_URL, reason="PostgreSQL's round trips; SQLite answers in the process")


class RoundTrips:
    """A proxy between the app and PostgreSQL that counts round trips: each time a connection sends again after the
    database has answered it."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.count = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = [self.listener]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self) -> None:
        """Relay every connection the app opens."""
        while True:
            try:
                app_side, _ = self.listener.accept()
            except OSError:
                return
            database_side = socket.create_connection(self.target)
            self.sockets += [app_side, database_side]
            answered = [True]
            threading.Thread(target=self.relay, args=(app_side, database_side, answered, True), daemon=True).start()
            threading.Thread(target=self.relay, args=(database_side, app_side, answered, False), daemon=True).start()

    def relay(self, source: socket.socket, sink: socket.socket, answered: list[bool], from_app: bool) -> None:
        """Pass one direction's bytes on; the app's first bytes after an answer start a round trip. The answer is
        marked before it is passed on, so the app cannot send again before it is."""
        try:
            while data := source.recv(65536):
                with self.lock:
                    if from_app and answered[0]:
                        self.count += 1
                    answered[0] = not from_app
                sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        """Stop relaying."""
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def counted(database_url: str) -> Iterator[tuple[Flask, RoundTrips]]:
    """An app whose connections to PostgreSQL go through a `RoundTrips` proxy."""
    url = make_url(database_url)
    proxy = RoundTrips(url.host or "127.0.0.1", url.port or 5432)
    app = make_app(url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False))
    yield app, proxy
    stop_watching(app)
    proxy.close()


def trips(proxy: RoundTrips, client: FlaskClient, method: str, path: str, **kwargs: object) -> int:
    """The round trips one request of `client` takes."""
    before = proxy.count
    response = client.open(path, method=method, headers=HTMX, **kwargs)  # type: ignore[arg-type]
    assert response.status_code < 400, response.get_data(as_text=True)
    return proxy.count - before


def seated_phones(app: Flask, url: str, players: int) -> list[FlaskClient]:
    """A phone joined at each seat of the game at `url`."""
    phones = []
    for seat in range(players):
        phone = app.test_client()
        assert phone.post(f"{url}/join", data={"seat": seat}).status_code == 303
        phones.append(phone)
    return phones


def test_a_bid_and_a_page_wait_for_postgresql_few_times(counted: tuple[Flask, RoundTrips]) -> None:
    """A phone's bid: the lock with BEGIN, the clock and the tap's look-up, then the change with its commit: two round
    trips (no check of the pool's connection first). A page of a game this process has read: the game's version, one.
    A game another process changed, read afresh: one round trip more, whatever its rows."""
    app, proxy = counted
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben", "Cleo"])
    phones = seated_phones(app, url, 3)
    # The pool's connections are open and the game read: what follows counts the requests' own round trips.
    phones[0].get(url, headers=HTMX)
    assert trips(proxy, phones[0], "GET", url) == 1
    assert trips(proxy, phones[0], "POST", f"{url}/hands/1/bid", data={"bid": 1}) == 2
    assert trips(proxy, phones[1], "POST", f"{url}/hands/1/bid", data={"bid": 0}) == 2
    assert trips(proxy, phones[1], "GET", url) == 1
    # Another process's change, as this one sees it: its kept game is of an older version.
    app.extensions["version_caches"].clear()
    assert trips(proxy, phones[2], "GET", url) == 2


def test_the_results_and_the_end_of_a_count_wait_for_postgresql_few_times(counted: tuple[Flask, RoundTrips]) -> None:
    """A phone's results (a draft, then Done) are read against the locked game: two round trips each, no read of the
    game before (three before: its version first). The last bid starts the count, and its end is confirmed under the
    game's lock (BEGIN, the lock, the clock and the end together): one round trip more, where the count here is no
    time at all."""
    app, proxy = counted
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    phones = seated_phones(app, url, 2)
    phones[0].get(url, headers=HTMX)
    assert trips(proxy, phones[0], "POST", f"{url}/hands/1/bid", data={"bid": 1}) == 2
    assert trips(proxy, phones[1], "POST", f"{url}/hands/1/bid", data={"bid": 0}) == 3
    assert trips(proxy, phones[0], "POST", f"{url}/hands/1", data={"intent": "draft", "tricks-0": 0}) == 2
    assert trips(proxy, phones[0], "POST", f"{url}/hands/1", data={"intent": "done", "tricks-0": 0}) == 2
    # The last closes the hand and opens the next one's bids: its answer reads the game afresh (its version, its rows).
    assert trips(proxy, phones[1], "POST", f"{url}/hands/1", data={"intent": "done", "tricks-1": 1}) == 4


def test_a_new_game_and_a_join_wait_for_postgresql_few_times(counted: tuple[Flask, RoundTrips]) -> None:
    """A new game: the try counted against the rate limit (its count sent with BEGIN, then its row with the commit),
    then the game (BEGIN with the tap's look-up, the join code checked unused, the game's row, its seats, the rest
    with the commit): seven round trips. A phone's join: two."""
    app, proxy = counted
    host = app.test_client()
    host.get("/games/new")
    before = proxy.count
    created = host.post("/games/new", data={"player": ["Anne", "Ben"], "ruleset": "classic"},
                        headers={"X-Tap": "c" * 32})
    assert created.status_code == 303
    assert proxy.count - before == 7
    url = created.headers["Location"]
    phone = app.test_client()
    phone.get(f"{url}/join")
    assert trips(proxy, phone, "POST", f"{url}/join", data={"seat": 0}) == 2
