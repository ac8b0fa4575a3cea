"""Running the service: a shutdown with many open streams, the event log kept short, and wake-ups per game."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import create_engine, make_url, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from scorekeeper import work
from scorekeeper.clock import utcnow
from scorekeeper.extensions import db
from scorekeeper.live import LISTENER_NAME, Watcher, sqlite_log
from scorekeeper.models import Event, Game
from tests.helpers import Phone, new_game
from tests.production import ProductionServer, sigterm_with_open_connections


def test_sigterm_with_300_open_streams_and_50_idle_connections_stops_every_process_by_itself(
        tmp_path: Path) -> None:
    """Each worker ends its streams and idle connections and leaves on its own, so no stop waits out
    `graceful_timeout` (2 s, the promise): the seconds it takes are the benchmark's (bench/hostile.py) to print."""
    import scorekeeper.gunicorn_config as settings

    took = sigterm_with_open_connections(tmp_path, streams=300, idle=50)
    print(f"SIGTERM to every process gone: {took:.2f} s")
    assert settings.graceful_timeout <= 2
    log = (tmp_path / "gunicorn.log").read_text(errors="replace")
    # Neither worker was forced: no "graceful timeout" of its own, no SIGKILL from the master.
    assert "graceful timeout" not in log and "SIGKILL" not in log, log[-2000:]
    assert log.count("Worker exiting") == 2 and "Shutting down: Master" in log, log[-2000:]
    # A stop is no error: a line or two per process, no traceback for the connections it ended.
    assert "Traceback" not in log and "GreenletExit" not in log and "[ERROR]" not in log, log[-2000:]
    # The app's own lines: each process says it stops, and that it stopped cleanly.
    assert len(re.findall(r"process \d+ stopped cleanly", log)) == 2, log
    theirs = [line for line in log.splitlines() if not re.search(r"\] (process \d+|database schema) ", line)]
    assert len(theirs) <= 12, log


def test_old_events_are_pruned_and_recent_ones_kept(app: Flask, client, monkeypatch) -> None:
    """Events past their hour go with a change stored when a prune is due, the recent ones stay."""
    url = new_game(client, ["Anne", "Ben"])
    with app.app_context():
        game_id = db.session.scalar(select(Game.id))
        db.session.add(Event(game_id=game_id, version=0, kind="old", at=utcnow() - timedelta(hours=2)))
        db.session.commit()
    monkeypatch.setattr(work, "_pruned_at", [time.monotonic() - work.PRUNE_EVENTS_SECONDS - 1])
    assert client.post(f"{url}/hands/1/cards", data={"cards": 1}).status_code == 303
    with app.app_context():
        kinds = db.session.scalars(select(Event.kind).order_by(Event.id)).all()
    assert kinds[0] == "create" and "old" not in kinds and len(kinds) == 2


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
        # Each stream its own event, by game.
        events = {game_id: list(streams.values()) for game_id, streams in watcher.waiting.items()}
        assert set(events) == {first, second} and len(events[first]) == len(events[second]) == 1
        assert events[first][0] is not events[second][0]
        db.session.add(Event(game_id=first, version=2, kind="bid"))
        db.session.commit()
        watcher.poll()
        threads[0].join(timeout=5)
        assert woken == [("watched", True)]
        watcher.stop()
        threads[1].join(timeout=5)
        assert woken[1:] == [("other", None)]  # stopped, never woken by the other game's change


def test_a_stream_that_read_a_newer_version_wakes_the_others_of_its_game(app: Flask, client) -> None:
    """A stream that read the game itself (it opened after a change this process has not heard of yet) tells the
    watcher, and the game's other streams here, waiting on the older version, wake for it at once: the watcher's own
    news of that version, when it comes, is no news any more and wakes nobody."""
    new_game(client, ["Anne", "Ben"])
    with app.app_context():
        game_id = db.session.scalars(select(Game.id)).one()
        watcher = Watcher(lambda: Session(db.engine))
        watcher.poll()  # where the log stands now
        watcher.wake([(game_id, 3)])
        woken: list[tuple[str, bool | None, float]] = []
        started = time.monotonic()

        def follow(name: str, version: int, timeout: float) -> None:
            with watcher.watching(game_id) as wait:
                woken.append((name, wait(version, timeout), time.monotonic() - started))

        older = threading.Thread(target=follow, args=("older", 3, 30), daemon=True)
        older.start()
        time.sleep(0.1)
        assert woken == []  # waiting on version 3
        newer = threading.Thread(target=follow, args=("newer", 6, 0.2), daemon=True)
        newer.start()
        older.join(timeout=5)
        newer.join(timeout=5)
        watcher.stop()
        assert [(name, result) for name, result, _ in woken] == [("older", True), ("newer", False)]
        assert woken[0][2] < 1.0  # at once, not at its timeout
        assert watcher.version(game_id) == 6


def test_on_sqlite_a_poll_reads_the_log_only_after_a_commit_and_still_hears_of_it(app: Flask, client) -> None:
    """The watcher's look at SQLite's data version stands in for most reads of the event log: nothing committed, no
    read; a commit by any other connection (another process's writer) is read at the next poll, once, on the log's
    own connection. (No thread of the watcher's own runs here: each poll is this test's.)"""
    new_game(client, ["Anne", "Ben"])
    log = sqlite_log(app)
    if log is None:
        pytest.skip("the data version is SQLite's; PostgreSQL announces changes (NOTIFY)")
    with app.app_context():
        game_id = db.session.scalars(select(Game.id)).one()
        sessions_made: list[int] = []

        def sessions() -> Session:
            sessions_made.append(1)
            return Session(db.engine)

        watcher = Watcher(sessions, log=log)
        watcher.poll()  # where the log stands now (read once through a session)
        watcher.poll()  # the log's first look
        said: list[str] = []
        log.connection.driver_connection.set_trace_callback(said.append)
        for _ in range(5):
            watcher.poll()
        assert said and not [s for s in said if "FROM event" in s], "nothing was committed: the log is not read"
        db.session.add(Event(game_id=game_id, version=2, kind="bid"))
        db.session.commit()
        watcher.poll()
        assert watcher.version(game_id) == 2
        watcher.poll()
        assert len([s for s in said if "FROM event" in s]) == 1, "read once"
        assert sessions_made == [1], "the log's own connection read it"
        log.close()
        db.session.add(Event(game_id=game_id, version=3, kind="bid"))
        db.session.commit()
        watcher.poll()  # a log that lost its connection opens another, and reads what it missed
        assert watcher.version(game_id) == 3


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


def restart_database(url: str) -> str:
    """Restart the PostgreSQL server the tests use (as root, with Debian's tools); elsewhere end every connection to
    it, which is what its clients see of a restart. How it was done."""
    if os.geteuid() == 0 and shutil.which("pg_ctlcluster") and Path("/etc/postgresql").is_dir():
        version = sorted(os.listdir("/etc/postgresql"), key=lambda v: [int(p) for p in v.split(".") if p.isdigit()])[-1]
        subprocess.run(["pg_ctlcluster", version, "main", "restart"], check=True, timeout=60)
        done = "restarted"
    else:
        engine = create_engine(url)
        with engine.begin() as connection:
            connection.exec_driver_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        engine.dispose()
        done = "every connection ended"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            engine = create_engine(url)
            with engine.connect() as connection:
                connection.exec_driver_sql("SELECT 1")
            engine.dispose()
            return done
        except OperationalError:
            time.sleep(0.2)
    raise RuntimeError("the database did not come back")


def listeners(url: str, servers: list[ProductionServer]) -> int:
    """How many worker processes of `servers` LISTEN for the table's changes now (each names its connection)."""
    engine = create_engine(url)
    with engine.connect() as connection:
        names = connection.exec_driver_sql(
            "SELECT application_name FROM pg_stat_activity WHERE datname = current_database() "
            "AND query LIKE 'LISTEN %%' AND application_name LIKE %(name)s", {"name": LISTENER_NAME + " %"}
        ).scalars().all()
    engine.dispose()
    masters = {server.process.pid for server in servers if server.process is not None}

    def parent(pid: int) -> int | None:
        try:
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return None

    return sum(parent(int(name.rsplit(" ", 1)[1])) in masters for name in names)


class Stream:
    """A live stream read on its own thread, each piece with the moment it came."""

    def __init__(self, base: str, path: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = socket.create_connection((host, int(port)), timeout=30)
        self.connection.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        self.pieces: list[tuple[float, bytes]] = []
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        try:
            while chunk := self.connection.recv(65536):
                self.pieces.append((time.monotonic(), chunk))
        except OSError:
            pass

    def editions(self) -> list[tuple[float, int]]:
        """The editions of the shared tables received, with when each came."""
        text = b"".join(piece for _, piece in self.pieces).decode(errors="replace")
        arrived = self.pieces[-1][0] if self.pieces else 0.0
        return [(arrived, int(found)) for found in re.findall(r"^id: (\d+)$", text, re.MULTILINE)]

    def close(self) -> None:
        self.connection.close()


def test_on_postgresql_each_process_listens_again_after_the_database_restarts(database_url: str,
                                                                              tmp_path: Path) -> None:
    """Two server processes; the database restarts during play; each listens again, and a change made through one
    reaches a screen of the other within a second."""
    if not database_url.startswith("postgresql"):
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's; SQLite polls the event log")
    servers = []
    streams: list[Stream] = []
    try:
        for name in ("first", "second"):
            (tmp_path / name).mkdir()
            server = ProductionServer(tmp_path / name, database_url, WEB_CONCURRENCY="1")
            server.start()
            servers.append(server)
        first, second = servers
        host = Phone(first.base)
        host.get("/games/new")
        status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
        assert status == 303
        streams = [Stream(server.base, f"{game}/events") for server in servers]
        deadline = time.monotonic() + 15
        while listeners(database_url, servers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert listeners(database_url, servers) == 2, "each process listens for changes"

        how = restart_database(database_url)
        deadline = time.monotonic() + 15
        while listeners(database_url, servers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert listeners(database_url, servers) == 2, "a process went back to polling for good"
        # Each process said so in the server's log, a line each: the connection lost, then listening again.
        for server in servers:
            log = (server.instance / "gunicorn.log").read_text(errors="replace")
            assert "live: LISTEN connection lost" in log, log[-3000:]
            assert "live: listening for changes on PostgreSQL again" in log, log[-3000:]
            assert "Traceback" not in log, log[-3000:]

        # A screen of the second process opened now (a phone reconnecting), then a bid through the first.
        watching = Stream(second.base, f"{game}/events")
        streams.append(watching)
        deadline = time.monotonic() + 10
        while not watching.editions() and time.monotonic() < deadline:
            time.sleep(0.02)
        shown = max(edition for _, edition in watching.editions())
        host.get(game)
        sent = time.monotonic()
        assert host.post(f"{game}/hands/1/bid", {"seat": 0, "bid": 1})[0] == 303
        deadline = time.monotonic() + 5
        while not [e for e in watching.editions() if e[1] > shown] and time.monotonic() < deadline:
            time.sleep(0.01)
        newer = [arrived for arrived, edition in watching.editions() if edition > shown]
        assert newer, "the change never reached the other process's screen"
        took = newer[0] - sent
        print(f"database {how}; the change reached the other process's screen {1000 * took:.0f} ms after it was sent")
        assert took <= 1.0
    finally:
        for stream in streams:
            stream.close()
        for server in servers:
            server.stop()


def test_the_server_log_says_what_happened_and_no_traceback_for_a_client_gone(tmp_path: Path) -> None:
    """gunicorn's error log, as a host reads it: the schema checked, each process warmed up and ready, a clean
    stop on SIGTERM; a client that goes away mid-stream or mid-body (reset, not closed) is no error and logs nothing."""
    server = ProductionServer(tmp_path, WEB_CONCURRENCY="2")
    server.start()
    try:
        host = Phone(server.base)
        host.get("/games/new")
        status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
        assert status == 303
        gone = []
        for request in (f"GET {game}/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n",
                        f"POST {game}/hands/1/cards HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n"
                        "Content-Type: application/x-www-form-urlencoded\r\n\r\ncards=1&"):
            client = socket.create_connection(("127.0.0.1", server.port))
            client.sendall(request.encode())
            gone.append(client)
        time.sleep(0.5)
        for client in gone:
            # Reset, as a phone that lost its network or a browser tab killed does.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            client.close()
        time.sleep(0.5)
        assert host.get(game)[0] == 200
    finally:
        server.stop()
    log = (tmp_path / "gunicorn.log").read_text(errors="replace")
    assert "database schema up to date; worker processes to start: 2" in log, log
    assert len(re.findall(r"process \d+ ready: warmed up in [\d.]+ s", log)) == 2, log
    assert len(re.findall(r"process \d+ stopped cleanly", log)) == 2, log
    assert "Traceback" not in log and "[ERROR]" not in log and "Error handling request" not in log, log


def drop_the_app_s_connections(database_url: str) -> None:
    """The database ends every connection to it but a LISTEN one and this one, as a restart would (the app's
    watcher not told)."""
    engine = create_engine(database_url)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND application_name NOT LIKE %(listener)s", {"listener": f"{LISTENER_NAME}%"})
    engine.dispose()


def socket_url(url: str) -> str:
    """The same database reached through the server's Unix socket (its first socket folder), not TCP, its connections
    named."""
    engine = create_engine(url)
    with engine.connect() as connection:
        folder = str(connection.exec_driver_sql("SHOW unix_socket_directories").scalar()).split(",")[0].strip()
    engine.dispose()
    return (make_url(url).set(host=None, port=None, query={"host": folder, "application_name": "socket test"})
            .render_as_string(hide_password=False))


def test_on_postgresql_the_server_reaches_its_database_through_its_unix_socket(database_url: str,
                                                                            tmp_path: Path) -> None:
    """PostgreSQL on the same machine, given by its socket (as `docs/hosting.md` advises there): the server's
    writes, its reads and its LISTEN go through the socket, and a change reaches a screen."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a Unix socket of PostgreSQL's")
    url = socket_url(database_url)
    try:
        engine = create_engine(url)
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
        engine.dispose()
    except OperationalError as error:
        if os.environ.get("CI") == "true":
            raise  # `.ci/run` lets the test role in through the socket with its password
        pytest.skip(f"this PostgreSQL does not let the test role in through its socket: {error}")
    server = ProductionServer(tmp_path, url, WEB_CONCURRENCY="1")
    stream = None
    try:
        server.start()
        host = Phone(server.base)
        host.get("/games/new")
        status, game = host.post("/games/new", {"ruleset": "classic", "player": ["Anne", "Ben"]})
        assert status == 303
        stream = Stream(server.base, f"{game}/events")
        deadline = time.monotonic() + 15
        while listeners(database_url, [server]) < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert listeners(database_url, [server]) == 1, "the server listens for changes"
        while not stream.editions() and time.monotonic() < deadline:
            time.sleep(0.02)
        shown = max(edition for _, edition in stream.editions())
        assert host.post(f"{game}/hands/1/bid", {"seat": 0, "bid": 1})[0] == 303
        deadline = time.monotonic() + 5
        while not [e for _, e in stream.editions() if e > shown] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [e for _, e in stream.editions() if e > shown], "the change never reached the screen"
        # The server's connections (its pool's, named by the address, and its worker's LISTEN) came through the
        # socket: PostgreSQL sees no client address for them.
        assert server.process is not None
        workers = [int(pid) for pid in Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
                   .read_text().split()]
        names = ["socket test", *(f"{LISTENER_NAME} {pid}" for pid in workers)]
        engine = create_engine(database_url)
        with engine.connect() as connection:
            found = dict(connection.exec_driver_sql(
                "SELECT application_name, bool_and(client_addr IS NULL) FROM pg_stat_activity "
                "WHERE application_name = ANY(%(names)s) GROUP BY application_name", {"names": names}).all())
        engine.dispose()
        assert "socket test" in found and any(name.startswith(LISTENER_NAME) for name in found), found
        assert all(found.values()), found
    finally:
        if stream is not None:
            stream.close()
        server.stop()


@pytest.mark.parametrize("way", ["page", "bid"])
def test_a_request_that_meets_a_dropped_connection_is_answered_503_and_the_next_one_works(
        app: Flask, database_url: str, way: str) -> None:
    """No connection is checked before each use: one the database dropped answers a page or a tap 503 with when to
    come again, in words, nothing changed and no server error; the next request, on a new connection, works."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a dropped connection is PostgreSQL's; SQLite's file is the process's own")
    host = app.test_client()
    url = new_game(host, ["Anne", "Ben"])
    assert host.get(url).status_code == 200
    with app.app_context():
        version = db.session.scalar(select(Game.version))
        db.session.remove()
    drop_the_app_s_connections(database_url)
    htmx = {"HX-Request": "true"}
    if way == "page":
        send = lambda: host.get(url, headers=htmx)  # noqa: E731
    else:
        send = lambda: host.post(f"{url}/hands/1/bid", data={"seat": "0", "bid": "1"}, headers=htmx)  # noqa: E731
    refused = send()
    assert refused.status_code == 503, refused.get_data(as_text=True)
    assert refused.headers["Retry-After"].isdigit()
    assert "nothing was changed" in refused.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Game.version)) == version
        db.session.remove()
    again = send()
    assert again.status_code == 200, again.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Game.version)) == version + (way == "bid")
