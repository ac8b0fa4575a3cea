"""The unit of work: every write the app makes, from its begin to its commit or its rollback, in one place.

`transaction` begins it (SQLite's write lock taken, or the game's row locked on PostgreSQL; the
game read as plain values; the lock's moment; the request's tap checked) and yields a `Write`,
the change under way in sight. The service decides on plain values and fills the write's lists;
a decision that refuses, denies or finds the play moved on is an answer, and nothing is stored.
Only `Write.keep` asks for the change to be kept: when the block ends, `transaction` writes it
(`rows`' statements), bumps the version, logs the events, keeps the tap, commits, and then tells
whoever listens (`committed`: the live layer wakes its streams). Any other way out of the block
(an answer without `keep`, an exception) rolls everything back.

Nothing else in the app adds to, flushes or commits the database session (`tests/test_work.py`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from blinker import Namespace
from flask import Flask, current_app, has_app_context
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from . import durations, games, rows
from .access import Credentials
from .clock import utcnow
from .extensions import begin_write, committed_together, db

_signals = Namespace()
# Sent before the commit, in the transaction, with its connection and the (game id, version) pairs it stores: what a
# listener says there is said with the change or not at all (PostgreSQL's NOTIFY to the other processes).
storing = _signals.signal("storing")
# Sent once a change is committed, with the (game id, version) pairs it stored: the live layer wakes the streams.
committed = _signals.signal("committed")

# A change's events: (game id, version, kind, hand); a game id of None is the new game the change starts.
EventRow = tuple[int | None, int, str, int | None]

# The event log carries changes across processes only: a screen that reconnects reads its game afresh, so an hour is
# plenty. A process drops older events this often, with whatever change it stores then.
EVENTS_KEPT = timedelta(hours=1)
PRUNE_EVENTS_SECONDS = 600.0
_pruned_at = [time.monotonic()]


@dataclass
class NewGame:
    """A game a change starts: its own row's columns, its players in seat order, and the phone holding each seat."""

    columns: dict[str, object]
    players: Sequence[str]
    held: Sequence[tuple[str | None, str | None]]


@dataclass
class Write:
    """A change under way, from `transaction`'s begin to its commit or rollback: all it carries, in sight.

    `game`: the game locked and read as plain values (None for a new game or a counted try); `now`: the lock's
    moment by the deciding clock; `tap`: the request's tap, kept with the change; `columns`: what it sets of the
    game's own row (its count, its deletion), written with the version in one statement; `events`: those it logs
    besides the locked game's own; `writes`: its plays, secret entries, seats, requests and end (`rows.Writes`);
    `answer`: the public id and secret it answers with, set by `keep` (None: nothing is stored).
    """

    game: games.GameState | None = None
    now: datetime | None = None
    tap: rows.Tap | None = None
    columns: dict[str, Any] = field(default_factory=dict)
    events: list[EventRow] = field(default_factory=list)
    writes: rows.Writes = field(default_factory=rows.Writes)
    new_game: NewGame | None = None
    answer: tuple[str, str | None] | None = None
    # The game as it will be stored, kept for this process's screens and the answer (None: read it again).
    stored: games.GameState | None = None

    @property
    def locked(self) -> games.GameState:
        """The game this change holds the lock of."""
        assert self.game is not None, "no game is locked"
        return self.game

    @property
    def lock_time(self) -> datetime:
        """When the lock was granted, by the deciding clock."""
        assert self.now is not None, "no game is locked"
        return self.now

    def entered(self, play: int, name: str) -> set[int]:
        """The seats whose secret entries `name` of `play` the locked game holds."""
        return {s.seat for s in self.locked.secrets if s.play == play and s.name == name}

    def set_columns(self, **columns: Any) -> None:
        """Columns of the game's own row this change sets, written with its version."""
        self.columns.update(columns)

    def keep(self, kind: str, hand: int | None = None, secret: str | None = None,
             stored: games.GameState | None = None) -> None:
        """Keep this change when the transaction ends: the locked game's version bumped with the columns it set,
        the event `kind` (of play `hand`) logged; `secret`: what it hands the acting browser; `stored`: the game as
        it is stored, kept for the screens and the answer."""
        game = self.locked
        self.set_columns(version=game.version + 1)
        self.events.append((game.id, game.version + 1, kind, hand))
        self.answer, self.stored = (game.public_id, secret), stored

    def keep_new(self, public_id: str, secret: str | None) -> None:
        """Keep the new game this change starts (`new_game`) when the transaction ends."""
        assert self.new_game is not None, "a new game is named first"
        self.answer = (public_id, secret)


def _app() -> Flask:
    """The app of this context itself (what its listeners are connected for), not its proxy."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return app


def _tap_of(credentials: Credentials | None) -> rows.Tap | None:
    """The request's tap, kept with the change (None: it carries none). The same tap id from another browser is
    another tap."""
    if credentials is None or not credentials.tap:
        return None
    return rows.Tap(credentials.tap, credentials.browser)


def _check_tap(credentials: Credentials | None) -> rows.Tap | None:
    """AppliedAlready with its first answer if this browser's tap was applied already; else the tap, to keep with the
    change."""
    tap = _tap_of(credentials)
    found = rows.tap_answer(tap) if tap is not None else None
    if found is not None:
        raise rows.AppliedAlready(found)
    return tap


class GameGone(LookupError):
    """No game has that public id (or its host deleted it, and the write does not ask for deleted ones)."""


def _begin(public_id: str | None, credentials: Credentials | None, deleted: bool) -> Write:
    """The write begun: the game's row locked and read as plain values with the lock's moment, the tap checked.

    Where a count stands is fixed by the deciding clock read under the lock, so a count that has
    ended for any screen has ended for this change too (see "the end of a count" in games.py).
    """
    if public_id is None:
        return Write(tap=_check_tap(credentials))
    # The tap is looked up under the lock, so a repeat sent while the first was on its way waits for it and finds
    # it stored; a repeated delete finds its game gone and is answered as the first was.
    tap = _tap_of(credentials)
    locked = rows.lock_with_tap(public_id, deleted, tap)
    if locked.tap_answer is not None:
        raise rows.AppliedAlready(locked.tap_answer)
    # Under the lock the version cannot move, so the game kept (or read) for it is the game.
    game = games.kept_or_read(*locked.game) if locked.game is not None else None
    if game is None:
        raise GameGone(public_id)
    return Write(game.at(locked.now), locked.now, tap)


@contextmanager
def transaction(public_id: str | None = None, credentials: Credentials | None = None,
                deleted: bool = False) -> Iterator[Write]:
    """One write of the app, begun, locked and read (`_begin`), kept (`Write.keep`) or rolled back, in one place.

    `public_id`: the game it changes (GameGone if there is none; `deleted`: one its host deleted, to
    undo that), or None (a new game, a counted try); `credentials`: the acting browser's, whose tap
    is applied once (AppliedAlready with the first answer for a repeat, also when a repeat races it).
    """
    started = time.perf_counter()
    locked: float | None = None
    try:
        begin_write()
        write = _begin(public_id, credentials, deleted)
        locked = time.perf_counter()
        durations.note("write lock waited", locked - started)
        yield write
        if write.answer is not None:
            changes = _store(write)
    finally:
        if db.session().in_transaction():
            # Not kept, or it failed: nothing of it is stored (nor its tap: a repeat is tried afresh).
            db.session.rollback()
        if locked is not None:
            durations.note("write lock held", time.perf_counter() - locked)
    if write.answer is None:
        return
    if write.stored is not None:
        games.keep(write.stored)
    if changes and has_app_context():
        committed.send(_app(), changes=changes)


def _store(write: Write) -> list[tuple[int, int]]:
    """Write the change, log its events, keep its tap with its answer and commit; the (game id, version) pairs
    stored. A repeat of the tap that raced this change (both looked up before either was stored) raises
    AppliedAlready with the first one's answer, and nothing is stored."""
    assert write.answer is not None
    connection = db.session.connection()
    locked_id = write.game.id if write.game is not None else None
    # The game whose plays, entries, seats and tap these are: the new game the change starts, else the locked one.
    game_id = locked_id
    if write.new_game is not None:
        new = write.new_game
        assert write.writes.finished is None, "a new game's end is one of its columns"
        game_id = rows.add_game(new.columns, new.players, new.held)
    assert game_id is not None, "a write without a game keeps nothing of one"
    try:
        with committed_together(connection):
            changes = _write(write, game_id, locked_id, connection)
        # Committed with its statements on PostgreSQL: the session's transaction ends, with nothing more to send.
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        first = rows.tap_answer(write.tap) if write.tap is not None else None
        db.session.rollback()
        if first is None:
            raise
        raise rows.AppliedAlready(first) from None
    return changes


def _write(write: Write, game_id: int, locked_id: int | None, connection: Connection) -> list[tuple[int, int]]:
    """A change's statements, none of which answers rows (they go to the database together): its plays, entries,
    seats and game's row, its events, their announcement and its tap; the (game id, version) pairs it stores."""
    assert write.answer is not None
    ended = rows.write(game_id, write.writes)
    if locked_id is not None and (write.columns or ended):
        rows.set_game(locked_id, {**write.columns, **ended})
    events = [(game_id if event_game is None else event_game, version, kind, hand)
              for event_game, version, kind, hand in write.events]
    for event in events:
        rows.log_event(*event)
    changes = [(game, version) for game, version, _, _ in events]
    if changes and has_app_context():
        storing.send(_app(), connection=connection, changes=changes)
    if time.monotonic() - _pruned_at[0] > PRUNE_EVENTS_SECONDS:
        _pruned_at[0] = time.monotonic()
        rows.drop_events_before(utcnow() - EVENTS_KEPT)
    if write.tap is not None:
        rows.keep_tap(write.tap, game_id, *write.answer)
    return changes


@contextmanager
def counted_tries() -> Iterator[rows.Tries]:
    """A write of the tries counted against a rate limit: the buckets' recent counts read under the write lock,
    the new tries kept when the block ends without an exception, else nothing."""
    begin_write()
    try:
        tries = rows.Tries(utcnow() - timedelta(minutes=1))
        yield tries
        with committed_together(db.session.connection()):
            rows.count_tries(tries)
        db.session.commit()
    finally:
        if db.session().in_transaction():
            db.session.rollback()
