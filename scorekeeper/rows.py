"""The table's rows a write changes, as plain statements: a game's lock, a new game, its plays, the secret entries
with the count that reveals them, the seats and the phones asking for one, the event log, the taps applied, the
tries counted against a rate limit.

Only the unit of work (`work`) runs them, inside its transaction; it commits. A change writes only
the rows it changes: no ORM object is loaded, nothing is flushed. This module knows the tables and
nothing of the streams that follow the changes.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, cast

from sqlalchemy import Table, Update, bindparam, delete, func, insert, select, update

from . import games
from .access import masked
from .clock import aware, stored, utcnow
from .extensions import POSTGRESQL, WRITE_LOCK, begun_together, db, locked_together
from .models import Event, Game, HostGrant, LimitedTry, Play, Seat, SeatRequest, SecretEntry
from .models import Tap as TapRecord

_games, _events, _secrets, _plays, _seats, _requests, _taps, _tries, _grants = (
    cast(Table, model.__table__)
    for model in (Game, Event, SecretEntry, Play, Seat, SeatRequest, TapRecord, LimitedTry, HostGrant))

# Each write's statements are built once: building one per call (and working out its cache key) cost more than
# running it. Parameters named unlike the columns they set (which SQLAlchemy reserves for values given directly).
# A row a change adds asks no id back (`inline`: no RETURNING), so a write's statements go to PostgreSQL together
# (`extensions.committed_together`), none awaiting its answer.
_ANNOUNCE = insert(_events).inline()
_KEEP_TAP = insert(_taps).inline()
_ADD_PLAY = insert(_plays).inline()
_SET_PLAY = (update(_plays).where(_plays.c.game_id == bindparam("game"), _plays.c.number == bindparam("play"))
             .values(data=bindparam("new_data"), closed=bindparam("new_closed")))
_ADD_SECRET = insert(_secrets).inline()
_COUNT_TRY = insert(_tries).inline()
_ADD_GRANT = insert(_grants).inline()
_USE_GRANT = update(_grants).where(_grants.c.id == bindparam("grant")).values(used_at=bindparam("used"))
_SET_SECRET = (update(_secrets)
               .where(_secrets.c.game_id == bindparam("game"), _secrets.c.play == bindparam("of_play"),
                      _secrets.c.seat == bindparam("at_seat"), _secrets.c.name == bindparam("named"))
               .values(value=bindparam("new_value")))

_LOCK_ANY = select(_games.c.id, _games.c.version).where(_games.c.public_id == bindparam("public_id")).with_for_update()
_LOCK = _LOCK_ANY.where(_games.c.deleted_at.is_(None))


def lock(public_id: str, deleted: bool = False) -> tuple[int, int] | None:
    """Lock a game's row until the transaction ends; its id and version, or None if there is no such game (one
    its host deleted only when asked for)."""
    if not games.PUBLIC_ID.fullmatch(public_id):
        return None
    row = db.session.connection().execute(_LOCK_ANY if deleted else _LOCK, {"public_id": public_id}).first()
    return (row.id, row.version) if row is not None else None


@dataclass(frozen=True)
class Locked:
    """What a write finds as it begins: the game's row locked (its id and version; None: no such game), the
    deciding clock's moment once the lock is had, and the answer the request's tap was given if it was applied
    already."""

    game: tuple[int, int] | None
    now: datetime
    tap_answer: tuple[str, str | None] | None


def lock_with_tap(public_id: str, deleted: bool, tap: Tap | None) -> Locked:
    """Lock a game's row (`lock`), then read the deciding clock and look the tap up, under the lock.

    On PostgreSQL the three go in one round trip with the transaction's BEGIN (`extensions.locked_together`): the
    database runs them in order, each statement reading what was committed when it starts, so the clock and
    the tap are read once the lock is had, as one after the other would; a lock another request holds is waited
    for in the process (docs/performance.md, "A write in two round trips" and "Results read against the locked
    game").
    """
    connection = db.session.connection()
    if connection.dialect.name != "postgresql" or not games.PUBLIC_ID.fullmatch(public_id):
        found = lock(public_id, deleted)
        return Locked(found, games.locked_now(connection), tap_answer(tap) if tap is not None else None)
    then: list[tuple[str, dict[str, Any] | None]] = [(games.CLOCK_SQL, None)]
    if tap is not None:
        then.append((_TAP_ANSWER_SQL, {"key": tap.key}))
    row, moment, *looked_up = locked_together(connection, _LOCK_SQL[deleted], {"public_id": public_id}, then)
    assert moment is not None, "the clock answers a row"
    answer = looked_up[0] if looked_up else None
    return Locked((row[0], row[1]) if row is not None else None, aware(moment[0]),
                  _answer(tap, answer[0], answer[1]) if tap is not None and answer is not None else None)


def log_event(game_id: int, version: int, kind: str, hand: int | None) -> None:
    """Log that a game reached `version`: the event every screen follows, in every process."""
    db.session.connection().execute(_ANNOUNCE, {"game_id": game_id, "version": version, "kind": kind, "hand": hand,
                                                "at": utcnow()})


def drop_events_before(moment: datetime) -> None:
    """Forget the events logged before `moment`."""
    db.session.connection().execute(delete(_events).where(_events.c.at < moment))


def add_game(columns: Mapping[str, Any], players: Sequence[str],
             held: Sequence[tuple[str | None, str | None]]) -> int:
    """A new game's row with `columns`, and its seats: the players in order, each held by a phone (its secret's
    hash) or none; its id."""
    connection = db.session.connection()
    inserted = connection.execute(insert(_games).values(**columns)).inserted_primary_key
    assert inserted is not None
    game_id = inserted[0]
    connection.execute(insert(_seats), [{"game_id": game_id, "position": position, "name": name,
                                         "token_hash": token, "browser_key": browser}
                                        for position, (name, (token, browser))
                                        in enumerate(zip(players, held, strict=True))])
    return int(game_id)


def set_game(game_id: int, columns: Mapping[str, Any]) -> None:
    """Columns of a game's own row: its version with its count, its end, its deletion, the game that follows it."""
    db.session.connection().execute(_setting(tuple(sorted(columns))),
                                    {"game": game_id, **{f"new_{name}": value for name, value in columns.items()}})


@lru_cache(maxsize=32)
def _setting(names: tuple[str, ...]) -> Update:
    """The statement setting these columns of a game's row, built once (a change sets one of a few sets of them)."""
    return update(_games).where(_games.c.id == bindparam("game")).values(
        {name: bindparam(f"new_{name}") for name in names})


def purge_deleted_before(moment: datetime) -> None:
    """Remove for good the games deleted before `moment`, with everything that is theirs (the database's cascades)."""
    db.session.connection().execute(delete(_games).where(_games.c.deleted_at < moment))


# --- taps applied, and the end of a change ------------------------------------------------------

_TAP_ANSWER = select(_taps.c.public_id, _taps.c.secret).where(_taps.c.key == bindparam("key"))
# The lock, the tap's look-up and the tries' count as PostgreSQL is sent them in a pipeline, by psycopg itself.
# Each lock as `extensions.locked_together` takes it: waited for in the database, and with NOWAIT.
_LOCK_SQL = {deleted: (str(statement.compile(dialect=POSTGRESQL)),
                       str(statement.with_for_update(nowait=True).compile(dialect=POSTGRESQL)))
             for deleted, statement in ((False, _LOCK), (True, _LOCK_ANY))}
_TAP_ANSWER_SQL = str(_TAP_ANSWER.compile(dialect=POSTGRESQL))
_RECENT_TRIES = select(func.count()).select_from(_tries).where(_tries.c.bucket == bindparam("bucket"),
                                                              _tries.c.at > bindparam("since"))
_RECENT_TRIES_SQL = str(_RECENT_TRIES.compile(dialect=POSTGRESQL))
# A phone's waiting taps are sent again in the order tapped, so a tap sent again is never older than the taps its
# browser made since: the newest hundred per browser and game cover every tap a phone makes in a whole game
# (a Skull King game of ten hands is some fifty), and a flood of taps keeps no more.
TAPS_KEPT_PER_BROWSER = 100
# A phone that was away for hours and sends what it tapped then still finds its tap applied once.
TAPS_KEPT = timedelta(days=1)


@dataclass(frozen=True)
class Tap:
    """The tap a write carries, and the browser that sent it (its id, kept in its session; None: it had none yet)."""

    id: str
    browser: str | None = None

    @property
    def key(self) -> str:
        """What is stored of it: the SHA-256 of the browser's id and the tap's, so the stored taps give nobody a
        phone's answer and the same tap id from another browser is another tap."""
        return hashlib.sha256(f"{self.browser or ''}\n{self.id}".encode()).hexdigest()

    @property
    def browser_key(self) -> str:
        """What is stored of its browser: the SHA-256 of its id (of nothing, for a browser without one)."""
        return hashlib.sha256((self.browser or "").encode()).hexdigest()

    def masked(self, data: bytes) -> bytes:
        """`data` masked by the browser's id and the tap, which the table does not keep: a secret handed over by a
        tap's change (a seat's) is stored so, and only that browser's tap reads it back."""
        return masked(data, f"tap answer:{self.browser or ''}\n{self.id}")


class AppliedAlready(Exception):
    """This browser's tap was applied already: `answer` is the answer it was given then (the game it showed, the
    secret it handed over), and nothing of the repeat is stored."""

    def __init__(self, answer: tuple[str, str | None]) -> None:
        super().__init__(answer[0])
        self.answer = answer


def tap_answer(tap: Tap) -> tuple[str, str | None] | None:
    """The answer a tap was given when it was applied (the game it showed, the secret it handed over), or None.

    On PostgreSQL, sent with the transaction's BEGIN when it is the first statement of a write (a new game's); read
    alone elsewhere (after a write's rollback), where no transaction is wanted."""
    connection = db.session.connection()
    if connection.dialect.name == "postgresql" and WRITE_LOCK in connection.get_execution_options():
        (row,) = begun_together(connection, [(_TAP_ANSWER_SQL, {"key": tap.key})])
    else:
        row = connection.execute(_TAP_ANSWER, {"key": tap.key}).first()
    return _answer(tap, row[0], row[1]) if row is not None else None


def _answer(tap: Tap, public_id: str, secret: str | None) -> tuple[str, str | None]:
    """A tap's stored answer as its browser is given it again: the game, and the secret unmasked."""
    return public_id, tap.masked(bytes.fromhex(secret)).decode() if secret else None


# The newest tap of a browser and game past its bound, if it has that many: those older than it go.
_OLDEST_KEPT = (select(_taps.c.at)
                .where(_taps.c.game_id == bindparam("game_id"), _taps.c.browser == bindparam("browser"))
                .order_by(_taps.c.at.desc()).limit(1).offset(bindparam("kept")).scalar_subquery())
_PAST_THE_BOUND = delete(_taps).where(_taps.c.game_id == bindparam("game_id"), _taps.c.browser == bindparam("browser"),
                                      _taps.c.at <= _OLDEST_KEPT)
# A process prunes the taps past their day this often, with whatever change it stores then.
PRUNE_OLD_TAPS_SECONDS = 60.0
_pruned_at = [0.0]


def keep_tap(tap: Tap, game_id: int, public_id: str, secret: str | None) -> None:
    """A tap applied, with its answer; its browser's oldest taps of this game past the bound go (one indexed
    statement, which finds nothing to do until there are that many), and now and then every tap past its day (by
    whichever process stores a change)."""
    connection = db.session.connection()
    now = utcnow()
    browser = tap.browser_key
    connection.execute(_KEEP_TAP, {"key": tap.key, "browser": browser, "game_id": game_id, "public_id": public_id,
                                   "at": now, "secret": tap.masked(secret.encode()).hex() if secret else None})
    connection.execute(_PAST_THE_BOUND, {"game_id": game_id, "browser": browser, "kept": TAPS_KEPT_PER_BROWSER})
    if time.monotonic() - _pruned_at[0] > PRUNE_OLD_TAPS_SECONDS:
        _pruned_at[0] = time.monotonic()
        connection.execute(delete(_taps).where(_taps.c.at < now - TAPS_KEPT))


@dataclass
class Writes:
    """What a change writes besides the game's own row, in this order: secret entries forgotten (play, name, one
    seat's or all), secret entries put (play, seat, name, value, new), plays put (number, values, closed, new), seats
    held (position, the phone's secret's hash or None, its browser), requests for a seat added (position, hash,
    code, browser), dropped
    (ids) and turned away (ids), ways to another host given and used, the games deleted before `purge_before`
    removed for good; and the game's end (when, what its crew's statistics read)."""

    forgotten: list[tuple[int, str, int | None]] = field(default_factory=list)
    secrets: list[tuple[int, int, str, Any, bool]] = field(default_factory=list)
    plays: list[tuple[int, dict[str, Any], bool, bool]] = field(default_factory=list)
    seats: list[tuple[int, str | None, str | None]] = field(default_factory=list)
    requests: list[tuple[int, str, str, str | None]] = field(default_factory=list)
    dropped_requests: list[int] = field(default_factory=list)
    turned_away: list[int] = field(default_factory=list)
    purge_before: datetime | None = None
    finished: tuple[datetime, Mapping[str, object] | None] | None = None
    # Ways for another device to become a host (the code's hash, the host's key masked, until when), and those used
    # now (id, when).
    grants: list[tuple[str, str, datetime]] = field(default_factory=list)
    grants_used: list[tuple[int, datetime]] = field(default_factory=list)


def write(game_id: int, writes: Writes) -> dict[str, Any]:
    """Write what a change writes of a game besides its own row; the columns of that row it sets (its end)."""
    for play, name, seat in writes.forgotten:
        _drop_secrets(game_id, play, name, seat)
    for play, seat, name, value, new in writes.secrets:
        _put_secret(game_id, play, seat, name, value, new)
    for number, values, closed, new in writes.plays:
        _put_play(game_id, number, values, closed, new)
    for position, token_hash, browser in writes.seats:
        _set_seat(game_id, position, token_hash, browser)
    for position, token_hash, code, browser in writes.requests:
        _add_request(game_id, position, token_hash, code, browser)
    _drop_requests(writes.dropped_requests)
    _turn_away(writes.turned_away)
    connection = db.session.connection()
    for code_hash, key, expires_at in writes.grants:
        connection.execute(_ADD_GRANT, {"game_id": game_id, "code_hash": code_hash, "key": key,
                                        "expires_at": expires_at, "used_at": None})
    for grant, used in writes.grants_used:
        connection.execute(_USE_GRANT, {"grant": grant, "used": used})
    if writes.purge_before is not None:
        purge_deleted_before(writes.purge_before)
    if writes.finished is None:
        return {}
    finished_at, summary = writes.finished
    return {"finished_at": finished_at, "summary": summary}


# --- seats and the phones asking for one ----------------------------------------------------


def _set_seat(game_id: int, position: int, token_hash: str | None, browser: str | None) -> None:
    """The phone that plays a seat (by its secret's hash) and its browser, or none."""
    db.session.connection().execute(update(_seats).where(_seats.c.game_id == game_id, _seats.c.position == position)
                                    .values(token_hash=token_hash, browser_key=browser))


def _add_request(game_id: int, position: int, token_hash: str, code: str, browser: str | None) -> None:
    """A new phone (of `browser`) asks for a seat, showing `code`."""
    db.session.connection().execute(insert(_requests).inline().values(
        game_id=game_id, position=position, token_hash=token_hash, code=code, at=utcnow(), turned_away=False,
        browser_key=browser))


def _drop_requests(ids: list[int]) -> None:
    """Forget these requests (answered, or asked anew)."""
    if ids:
        db.session.connection().execute(delete(_requests).where(_requests.c.id.in_(ids)))


def _turn_away(ids: list[int]) -> None:
    """The host said no to these requests; they are kept so their phones are told."""
    if ids:
        db.session.connection().execute(update(_requests).where(_requests.c.id.in_(ids)).values(turned_away=True))


def _put_play(game_id: int, number: int, data: dict[str, Any], closed: bool, new: bool) -> None:
    """A play of a game whose plays the table keeps: `new`, or a change of the one still open."""
    connection = db.session.connection()
    if new:
        connection.execute(_ADD_PLAY, {"game_id": game_id, "number": number, "data": data, "closed": closed})
        return
    connection.execute(_SET_PLAY, {"game": game_id, "play": number, "new_data": data, "new_closed": closed})


# --- secret entries and their count ---------------------------------------------------------


def _put_secret(game_id: int, play: int, seat: int, name: str, value: Any, new: bool) -> None:
    """A seat's secret entry: `new`, or a change of the one stored."""
    connection = db.session.connection()
    if new:
        connection.execute(_ADD_SECRET, {"game_id": game_id, "play": play, "seat": seat, "name": name, "value": value})
        return
    connection.execute(_SET_SECRET, {"game": game_id, "of_play": play, "at_seat": seat, "named": name,
                                     "new_value": value})


def _drop_secrets(game_id: int, play: int, name: str, seat: int | None = None) -> None:
    """Forget the secret entries `name` of `play` (of one seat, or all)."""
    where = [_secrets.c.game_id == game_id, _secrets.c.play == play, _secrets.c.name == name]
    if seat is not None:
        where.append(_secrets.c.seat == seat)
    db.session.connection().execute(delete(_secrets).where(*where))


# --- tries counted against a rate limit -----------------------------------------------------


@dataclass
class Tries:
    """Tries counted against a rate limit since `since` (a minute ago): the buckets of this one (what is limited,
    for whom), each cut to what the column holds."""

    since: datetime
    buckets: list[str] = field(default_factory=list)

    def recent(self, bucket: str) -> int:
        """How many tries `bucket` counted since `since` (on PostgreSQL, the first with the transaction's BEGIN)."""
        connection = db.session.connection()
        values = {"bucket": bucket[:64], "since": self.since}
        if connection.dialect.name != "postgresql":
            return int(connection.execute(_RECENT_TRIES, values).scalar_one())
        # Sent by psycopg itself, not through `clock.Moment`: as the column holds it.
        values["since"] = stored(self.since)
        (row,) = begun_together(connection, [(_RECENT_TRIES_SQL, values)])
        assert row is not None, "a count answers a row"
        return int(row[0])


def count_tries(tries: Tries) -> None:
    """Count the tries, and forget those older than a minute."""
    connection = db.session.connection()
    connection.execute(delete(_tries).where(_tries.c.at < tries.since))
    for bucket in tries.buckets:
        # One by one (a try counts a bucket or two): SQLAlchemy reads back what a many-rows insert answers, so one
        # would not go with the rest (`extensions.committed_together`).
        connection.execute(_COUNT_TRY, {"bucket": bucket[:64], "at": utcnow()})
