"""Live updates: one watcher per server process hears of every change and wakes the screens.

State lives in the database, so any process may have written a change. On PostgreSQL each
change is announced with NOTIFY when it commits and every process LISTENs, so the other
workers hear of it at once. On SQLite each process polls the event log once per interval
(one cheap indexed query, whatever the number of phones). Either way the watcher wakes the
server-sent-event streams of the games that changed, and only those.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from typing import Any

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from . import work
from .extensions import db
from .logs import Trouble, one_line
from .models import Event, Game

# One cheap indexed query per tick and process, however many screens watch.
POLL_SECONDS = 0.025
# Where PostgreSQL announces changes: "<game id>:<version>".
CHANNEL = "scorekeeper_changes"
# The application name of each process's LISTEN connection, followed by its process id.
LISTENER_NAME = "scorekeeper live"
KEEPALIVE_SECONDS = 15.0
# Where an app keeps its watcher: a change that commits wakes this process's streams through it at once
# (`work.committed`), the other processes hear of it by NOTIFY or the log.
WATCHER = "live_watcher"
# After the LISTEN connection is lost (the database restarted), the log is polled, and listening tried again this often.
RELISTEN_SECONDS = 1.0
# The versions of games nobody watches are forgotten this often.
FORGET_VERSIONS_SECONDS = 600.0

_watchers: weakref.WeakSet[Watcher] = weakref.WeakSet()


def stop_all_streams() -> None:
    """End every open stream of this process at once, so a shutdown need not wait for them."""
    for watcher in list(_watchers):
        watcher.stop()


def readable(fd: int, timeout: float) -> bool:
    """Whether `fd` has something to read within `timeout` seconds."""
    import select as system_select  # looked up at call time: gevent patches it in place

    ready, _, _ = system_select.select([fd], [], [], timeout)
    return bool(ready)


class Watcher:
    """Follows the event log and wakes the streams waiting on the games that changed."""

    def __init__(self, session_factory: Callable[[], Session], listen_url: str | None = None,
                 log: SqliteLog | None = None, per_address: int = 32, per_game: int = 48,
                 logger: logging.Logger | None = None, lost: Callable[[], None] | None = None) -> None:
        self.session_factory = session_factory
        # What it does when its LISTEN connection is lost (the app's pool of connections dropped: they are lost too).
        self.lost = lost
        # Where it says what happened to its LISTEN connection and the log it polls (the app's logger), a trouble
        # once until it is over.
        self.logger = logger or logging.getLogger(__name__)
        self.trouble = Trouble(self.logger, "live")
        # A PostgreSQL address to LISTEN on; None polls the event log instead.
        self.listen_url = listen_url
        # SQLite's cheap way to the log (`SqliteLog`); None: a session reads it.
        self.log = log
        self.listening = False
        # One lock for the changes below. Each open stream waits on an event of its own, no lock (under gevent a lock
        # is Python code): set when its game moves on, when the server stops, or when the stream is one too many and
        # closed (so closing one wakes that one alone). By game, and by client address, oldest first.
        self.lock = threading.Lock()
        self.waiting: dict[int, dict[object, threading.Event]] = {}
        self.by_address: dict[str, dict[object, int]] = {}
        self.versions: dict[int, int] = {}
        self.closed: set[object] = set()
        # Streams one process keeps open from one client address, and for one game (the app's STREAMS_PER_ADDRESS
        # and STREAMS_PER_GAME): a table behind one router is nine phones, a host and a screen or two, each page one
        # stream. Past either, the oldest of them is closed (its page opens it again a second later, and closes the
        # next oldest): a client opening thousands holds no more of the process.
        self.per_address, self.per_game = per_address, per_game
        self.stopping = False
        self.last_event: int | None = None
        self.last_forget = time.monotonic()
        self.thread: threading.Thread | None = None
        _watchers.add(self)

    def start(self) -> None:
        """Start the watching thread (LISTEN or polling) once per process."""
        with self.lock:
            if self.thread is None or not self.thread.is_alive():
                self.thread = threading.Thread(target=self.run, name="live-watcher", daemon=True)
                self.thread.start()

    def stop(self) -> None:
        """End every stream now (the server is shutting down)."""
        with self.lock:
            self.stopping = True
            woken = [event for streams in self.waiting.values() for event in streams.values()]
        for event in woken:
            event.set()

    def poll(self) -> None:
        """Read new events and wake the streams of their games."""
        if self.last_event is not None and self.log is not None:
            found = self.log.events_after(self.last_event)
            if found is not None:
                if found:
                    self.last_event = found[-1][0]
                    self.wake([(game_id, version) for _, game_id, version in found])
                return
        with self.session_factory() as session:
            if self.last_event is None:
                self.last_event = session.scalar(select(func.max(Event.id))) or 0
                return
            rows = session.execute(
                select(Event.id, Event.game_id, Event.version).where(Event.id > self.last_event).order_by(Event.id)
            ).all()
        if rows:
            self.last_event = rows[-1][0]
            self.wake([(game_id, version) for _, game_id, version in rows])

    def wake(self, changes: list[tuple[int, int]]) -> None:
        """Games reached these versions: wake the streams that wait on them."""
        with self.lock:
            changed = set()
            for game_id, version in changes:
                if version > self.versions.get(game_id, 0):
                    self.versions[game_id] = version
                    changed.add(game_id)
            woken = [event for game_id in changed & self.waiting.keys() for event in self.waiting[game_id].values()]
        for event in woken:
            event.set()

    def forget_if_due(self) -> None:
        """Now and then, forget the versions of games nobody watches (the events themselves go with the changes
        stored: `work`)."""
        if time.monotonic() - self.last_forget < FORGET_VERSIONS_SECONDS:
            return
        self.last_forget = time.monotonic()
        with self.lock:
            # Versions of games nobody watches are read afresh when a stream opens.
            self.versions = {g: v for g, v in self.versions.items() if g in self.waiting}

    def catch_up(self) -> None:
        """Read afresh the versions of the games that streams wait on: after a time not listening, nothing is missed."""
        with self.lock:
            watched = list(self.waiting)
        if not watched:
            return
        with self.session_factory() as session:
            found = session.execute(select(Game.id, Game.version).where(Game.id.in_(watched))).all()
        self.wake([(game_id, version) for game_id, version in found])

    def listen(self) -> None:
        """Hear every change that commits, from any process, as PostgreSQL announces it, until the server stops or
        the connection is lost."""
        import psycopg

        assert self.listen_url is not None  # run() listens only with an address
        # Named after its process, so an operator (or a test) sees which processes listen.
        with psycopg.connect(self.listen_url, autocommit=True, connect_timeout=5,
                             application_name=f"{LISTENER_NAME} {os.getpid()}") as connection:
            connection.execute(f"LISTEN {CHANNEL}")
            self.listening = True
            if self.trouble.now is None:
                self.logger.info("live: listening for changes on PostgreSQL")
            self.trouble.over("listening for changes on PostgreSQL again")
            # What committed while nobody listened (before this connection, or since the last one was lost).
            self.catch_up()
            while not self.stopping:
                # select() (gevent's, under the server) waits without holding up the process;
                # psycopg's own wait may be one chosen before gevent patched anything.
                if readable(connection.fileno(), 1.0):
                    changes = []
                    for note in connection.notifies(timeout=0):
                        game_id, _, version = note.payload.partition(":")
                        changes.append((int(game_id), int(version)))
                    self.wake(changes)
                self.forget_if_due()

    def run(self) -> None:
        """Listen (PostgreSQL) or poll the event log (SQLite) until the server stops. A lost LISTEN connection is
        no reason to poll for good: the log is polled until listening works again, tried every second."""
        while not self.stopping:
            if self.listen_url:
                try:
                    self.listen()
                except Exception as error:
                    # Whatever broke it (the database restarted, the network), the log is polled meanwhile.
                    self.trouble.said("LISTEN connection lost" if self.listening else "cannot LISTEN",
                                      f" ({one_line(error)}); polling the event log, trying to listen again every "
                                      f"{RELISTEN_SECONDS:g} s")
                    if self.listening and self.lost is not None:
                        self.lost()
                self.listening = False
            self.poll_for(RELISTEN_SECONDS if self.listen_url else float("inf"))

    def poll_for(self, seconds: float) -> None:
        """Poll the event log for `seconds`, or until the server stops; what changed before the first poll is read
        from the games themselves."""
        deadline = time.monotonic() + seconds
        caught_up = self.last_event is not None
        while not self.stopping and time.monotonic() < deadline:
            try:
                self.poll()
                if not caught_up:
                    self.catch_up()
                    caught_up = True
                self.forget_if_due()
                if not self.listen_url:
                    self.trouble.over("reading the event log again")
            except Exception as error:
                # The database is away (restarting, locked too long): the streams wait, the log is read again.
                self.trouble.said("cannot read the event log", f" ({one_line(error)}); trying again every second")
                time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
            time.sleep(POLL_SECONDS)

    def _enter(self, stream: object, game_id: int, address: str) -> threading.Event:
        """Count a new stream and give it its event; close the oldest of its address, or of its game, past their
        bounds (its own event set: it alone wakes, and ends)."""
        with self.lock:
            event = self.waiting.setdefault(game_id, {})[stream] = threading.Event()
            of_address = self.by_address.setdefault(address, {})
            of_address[stream] = game_id
            for oldest in self._beyond(of_address, self.per_address):
                self._close(oldest, of_address[oldest])
            for oldest in self._beyond(self.waiting[game_id], self.per_game):
                self._close(oldest, game_id)
        return event

    def _beyond(self, streams: dict[object, Any], most: int) -> list[object]:
        """The oldest of `streams` still open past the `most` newest (under the lock)."""
        still = [stream for stream in streams if stream not in self.closed]
        return still[:max(0, len(still) - most)]

    def _close(self, stream: object, game_id: int) -> None:
        """Close one stream: it wakes and ends (under the lock)."""
        self.closed.add(stream)
        self.waiting[game_id][stream].set()

    def _leave(self, stream: object, game_id: int, address: str) -> None:
        with self.lock:
            of_game, of_address = self.waiting.get(game_id, {}), self.by_address.get(address, {})
            of_game.pop(stream, None)
            of_address.pop(stream, None)
            if not of_game:
                self.waiting.pop(game_id, None)
            if not of_address:
                self.by_address.pop(address, None)
            self.closed.discard(stream)

    def version(self, game_id: int) -> int:
        """The newest version of a game this process has heard of (0: none)."""
        with self.lock:
            return self.versions.get(game_id, 0)

    @contextmanager
    def watching(self, game_id: int, address: str = "") -> Iterator[Callable[[int, float], bool | None]]:
        """Follow one game for as long as the block runs, for a client at `address`.

        Gives `wait(version, timeout)`: True once the game is past `version`, False when
        `timeout` passed first, None when the server is stopping or this stream was closed (one too many of its
        address or game: see `per_address`).
        """
        self.start()
        me = object()
        event = self._enter(me, game_id, address)

        def wait(version: int, timeout: float) -> bool | None:
            if version > self.versions.get(game_id, 0):
                # The stream read a version this process had not heard of: the watcher knows it from now on, and the
                # game's other streams here, waiting on an older one, wake for it (the watcher's own news of it,
                # when it comes, is no news and wakes nobody: without this they would sleep to their next wake).
                self.wake([(game_id, version)])
            # Cleared before the version is looked at: a change that comes after sets it again.
            event.clear()
            if not self.stopping and me not in self.closed and self.versions.get(game_id, 0) <= version:
                event.wait(timeout)
            if self.stopping or me in self.closed:
                return None
            return self.versions.get(game_id, 0) > version

        try:
            yield wait
        finally:
            self._leave(me, game_id, address)


class SqliteLog:
    """The event log of an SQLite database as the watcher polls it, on a connection of its own that never writes
    (in autocommit: no transaction stays open).

    Most polls find nothing new: the database's `data_version`, which moves when any other connection commits,
    says so without reading a table. When it moved, the new events are read with a plain statement: no session,
    no pooled connection checked and pinged, no statement compiled, 40 times a second in every process.
    """

    def __init__(self, connect: Callable[[], Any]) -> None:
        self.connect = connect
        self.connection: Any = None
        self.seen: int | None = None

    def events_after(self, last: int) -> list[tuple[int, int, int]] | None:
        """The events (id, game, version) after `last`, in order: none while nothing was committed; None when the
        log could not be read this way (the watcher reads it as usual)."""
        try:
            if self.connection is None:
                self.connection = self.connect()
            database = self.connection.driver_connection
            version = database.execute("PRAGMA data_version").fetchone()[0]
            if version == self.seen:
                return []
            found = database.execute("SELECT id, game_id, version FROM event WHERE id > ? ORDER BY id",
                                     (last,)).fetchall()
        except sqlite3.Error:
            # Read the usual way instead, which says what is wrong if it is wrong (`Watcher.poll_for`).
            self.close()
            return None
        self.seen = version
        return [(int(i), int(g), int(v)) for i, g, v in found]

    def close(self) -> None:
        """Let the connection go (it is opened again when next asked)."""
        connection, self.connection, self.seen = self.connection, None, None
        if connection is not None:
            # A connection that broke may fail to close too: it is let go either way.
            with suppress(sqlite3.Error):
                connection.close()


# --- the app's watcher, and the wake-up when a change commits ------------------------------


def watcher_sessions(app: Flask) -> Callable[[], Session]:
    """Sessions for the live watcher's thread, which runs outside any request."""
    def new_session() -> Session:
        with app.app_context():
            return Session(db.engine)

    return new_session


def drop_connections(app: Flask) -> None:
    """Close the app's pooled connections to the database (it restarted): the next requests open new ones."""
    with app.app_context():
        db.engine.dispose()


def listen_address(app: Flask) -> str | None:
    """The database's address for LISTEN, on PostgreSQL; None elsewhere (the event log is polled)."""
    with app.app_context():
        url = db.engine.url
    if url.get_backend_name() != "postgresql":
        return None
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def sqlite_log(app: Flask) -> SqliteLog | None:
    """On SQLite, the watcher's cheap way to the event log (`SqliteLog`), on a connection of the app's engine; None
    elsewhere."""
    with app.app_context():
        engine = db.engine
    if engine.dialect.name != "sqlite":
        return None
    # The pool's connection is kept checked out (held here) for as long as the process runs.
    return SqliteLog(engine.raw_connection)


def _announce(app: Flask, connection: Connection, changes: list[tuple[int, int]]) -> None:
    """In the transaction of a change, on PostgreSQL: NOTIFY every process of the versions it stores (delivered when
    it commits, not before)."""
    if connection.dialect.name == "postgresql":
        for game_id, version in changes:
            # A statement that answers no rows, so it goes with the rest of the change
            # (`extensions.committed_together`); the payload is two numbers.
            connection.exec_driver_sql(f"NOTIFY {CHANNEL}, '{int(game_id)}:{int(version)}'")


def _wake(app: Flask, changes: list[tuple[int, int]]) -> None:
    """Once a change committed: this process's streams of its games follow at once."""
    app.extensions[WATCHER].wake(changes)


def init_app(app: Flask) -> None:
    """Give `app` its watcher, and hook it to the unit of work: every change the table stores is announced to the
    other processes and wakes this process's streams, in a request or not (the command line, a test)."""
    app.extensions[WATCHER] = Watcher(watcher_sessions(app), listen_address(app), sqlite_log(app),
                                      app.config["STREAMS_PER_ADDRESS"], app.config["STREAMS_PER_GAME"],
                                      app.logger, partial(drop_connections, app))
    work.storing.connect(_announce, sender=app, weak=False)
    work.committed.connect(_wake, sender=app, weak=False)
