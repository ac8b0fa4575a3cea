"""Games in the database as plain values, kept per version; what a screen may see of them, and when a count ends.

Reading only; every change goes through `service`. The table keeps every game's plays and secret
entries in its own rows; a game reads its plays through its own rules.
"""

from __future__ import annotations

import operator
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any, TypeVar, cast

from flask import Flask, current_app, has_app_context
from sqlalchemy import bindparam, exists, func, literal, select
from sqlalchemy.orm import selectinload

from . import host_cache, kinds, pace
from .access import token_hash
from .clock import aware, utcnow
from .extensions import POSTGRESQL, WRITE_LOCK, db, driven, locked_together, write_deadline
from .models import Event, Game, HostGrant, Play, Seat, SeatRequest, SecretEntry

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def find_game(public_id: str, deleted: bool = False) -> Game | None:
    """The game with this public id, or None (a record to read: every write locks and reads it in the unit of work).

    A game its host deleted is found only when asked for (`deleted`: to undo it).
    """
    if not PUBLIC_ID.fullmatch(public_id):
        # No game has such an id; and some databases refuse characters like NUL outright.
        return None
    query = select(Game).where(Game.public_id == public_id).options(selectinload(Game.seats))
    if not deleted:
        query = query.where(Game.deleted_at.is_(None))
    return db.session.scalar(query)


def games_among(public_ids: Sequence[str], crew: str | None = None) -> list[Game]:
    """The games with these public ids (of `crew` only, and not deleted, if given), with their seats, newest first."""
    if not public_ids:
        return []
    query = (select(Game).where(Game.public_id.in_(public_ids)).options(selectinload(Game.seats))
             .order_by(Game.created_at.desc(), Game.id.desc()))
    if crew is not None:
        query = query.where(Game.crew == crew, Game.deleted_at.is_(None))
    return list(db.session.scalars(query).all())


def crew_games(crew: str) -> Sequence[Any]:
    """What a crew's page shows of its games (not deleted), oldest first: each one's public id, kind, ruleset,
    start, end, summary and options."""
    return db.session.execute(select(Game.public_id, Game.kind, Game.ruleset, Game.created_at, Game.finished_at,
                                     Game.summary, Game.options).where(Game.crew == crew, Game.deleted_at.is_(None))
                              .order_by(Game.created_at, Game.id)).all()


def played_by(browser: str) -> Sequence[Any]:
    """The finished games (not deleted) a browser played a seat of (`access.browser_key`), in the order they ended:
    each one's public id, kind, ruleset, options, summary and the seat's place."""
    return db.session.execute(
        select(Game.public_id, Game.kind, Game.ruleset, Game.options, Game.summary, Seat.position)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.browser_key == browser, Game.summary.is_not(None), Game.deleted_at.is_(None))
        .order_by(Game.finished_at, Game.id)).all()


@dataclass(frozen=True)
class Grant:
    """A way for another device to become a host of a game, as stored: the host's key masked by its code, until
    when it works, and when it was used (None: not yet)."""

    id: int
    key: str
    expires_at: datetime
    used_at: datetime | None

    def open_at(self, moment: datetime) -> bool:
        """Whether it still works at `moment`: not used, not expired."""
        return self.used_at is None and moment < self.expires_at


def open_grant(game_id: int, code: str, moment: datetime) -> Grant | None:
    """The way to another host of that game whose code this is, if it still works at `moment` (not used, not
    expired); else None. The page that asks and the change that uses it decide alike."""
    row = db.session.execute(select(HostGrant.id, HostGrant.key, HostGrant.expires_at, HostGrant.used_at)
                             .where(HostGrant.game_id == game_id, HostGrant.code_hash == token_hash(code))).first()
    grant = Grant(row.id, row.key, row.expires_at, row.used_at) if row is not None else None
    return grant if grant is not None and grant.open_at(moment) else None


def hosts_added(game_id: int) -> int:
    """How many devices became a host of the game by a code."""
    return db.session.scalar(select(func.count()).select_from(HostGrant)
                             .where(HostGrant.game_id == game_id, HostGrant.used_at.is_not(None))) or 0


def find_game_by_code(code: str, in_play_only: bool = True) -> Game | None:
    """The game with this join code, or None; the code of a finished game has expired."""
    if not PUBLIC_ID.fullmatch(code):
        return None
    query = select(Game).where(Game.join_code == code, Game.deleted_at.is_(None))
    if in_play_only:
        query = query.where(Game.finished_at.is_(None))
    return db.session.scalar(query)


# The event kind of a secret entry cleared because its seat changed phones: followed by its name and the seat.
CLEARED = "cleared "


# --- a game read as plain values ----------------------------------------------------------
#
# Pages and live streams read games far more often than anyone writes one: a game is read
# in a few plain SQL queries into frozen values, kept per (game, version) in the process,
# and shared by every screen of the table. Changes start from these values too (`rows`).


StateT = TypeVar("StateT")


def pickled_as_fields(cls: type[StateT]) -> type[StateT]:
    """A frozen dataclass pickled as the values of its fields and made again by its own constructor."""
    # Kept for the server's other processes (`keep`): the dataclasses' own pickling of a slotted class lists its
    # fields for every object, which made pickling a game twice as slow.
    values = operator.attrgetter(*(f.name for f in fields(cls)))  # type: ignore[arg-type]

    def __reduce__(self: StateT) -> tuple[type[StateT], tuple[Any, ...]]:
        return cls, values(self)

    cls.__reduce__ = __reduce__  # type: ignore[assignment,method-assign]
    return cls


# Slots: thousands of these are kept, and fewer objects make shorter garbage collections.
@pickled_as_fields
@dataclass(frozen=True, slots=True)
class SeatState:
    """A seat as stored; `token_hash` only says who this phone is, it is never shown."""

    position: int
    name: str
    token_hash: str | None
    # Which browser plays it (`access.browser_key`), for its record; never shown.
    browser_key: str | None = None

    @property
    def has_phone(self) -> bool:
        """Whether a phone holds this seat."""
        return self.token_hash is not None


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class RequestState:
    """A new phone asking for a seat; `token_hash` only says which phone asks, it is never shown."""

    id: int
    position: int
    code: str
    token_hash: str
    turned_away: bool
    browser_key: str | None = None


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class SecretState:
    """A secret entry as stored (`value` None where this view may only know that it is in)."""

    play: int
    seat: int
    name: str
    value: Any


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Count:
    """The secret entries the table collects now: those named `name` of play `play`. While `reveal_at` is None
    they are coming in; then the YO-HO-HO count runs until `reveal_at`, and once it is `over` (as the game was
    looked at) everyone sees them."""

    play: int
    name: str
    reveal_at: datetime | None
    over: bool = False


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class PlayState:
    """One play of a game whose plays the table keeps, as stored: its entries, and whether it is closed."""

    number: int
    data: dict[str, Any]
    closed: bool


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class GameState:
    """A whole game at one version, as plain values."""

    id: int
    public_id: str
    kind: str
    crew: str
    ruleset: str
    options: dict[str, Any]
    version: int
    # The SHA-256 of the host's key: whoever holds the key (in their session) runs the game.
    host_key_hash: str
    join_code: str
    finished_at: datetime | None
    first_dealer: int
    seats: tuple[SeatState, ...]
    # New phones asking for seats, oldest first (answered ones only while turned away).
    requests: tuple[RequestState, ...] = ()
    # The game its host started next with these players: the phones follow there.
    next_game: str | None = None
    # Its plays (hands, rounds, games of a match), in order, as the table keeps them for every game.
    plays: tuple[PlayState, ...] = ()
    # Its secret entries, all of them (`as_seen_by` decides who sees which), and the count that reveals them.
    secrets: tuple[SecretState, ...] = ()
    count: Count | None = None
    # Seats whose secret entry of the count running now was cleared when they changed phones.
    cleared: frozenset[int] = field(default_factory=frozenset)
    # Whose view this is: "" as stored, else what `as_seen_by` kept of it ("table", "seat 2").
    view: str = ""
    # When its host deleted it (undone for a while).
    deleted_at: datetime | None = None
    # Locked by the host: no new phone takes a free seat. Watchers: anyone with the link may watch.
    locked: bool = False
    watchers: bool = True

    @property
    def open_requests(self) -> tuple[RequestState, ...]:
        """The seat requests the host has not answered yet."""
        return tuple(r for r in self.requests if not r.turned_away)

    def at(self, now: datetime) -> GameState:
        """The game as it stands at `now` by this process's clock alone (nothing is written).

        Only `as_it_stands` may show what this reveals: it confirms a count's end first.
        """
        count = self.count
        if count is None or count.reveal_at is None:
            return self
        over = count.reveal_at <= now
        return self if over == count.over else replace(self, count=replace(count, over=over))

    @property
    def reveal_at(self) -> datetime | None:
        """When the count running now ends, if one is running."""
        count = self.count
        return count.reveal_at if count is not None and not count.over else None

    @property
    def edition(self) -> int:
        """Orders what the table may see: every version, and the end of a count within one."""
        return self.version * 2 + (self.count is not None and self.count.over)

    def secrets_of(self, play: int, name: str) -> dict[int, Any]:
        """The secret entries `name` of `play` in this view, by seat (a value None: in, but not shown here)."""
        return {s.seat: s.value for s in self.secrets if s.play == play and s.name == name}

    def completes(self, play: int, name: str, seat: int) -> bool:
        """Whether the secret entry of `seat` makes the entries `name` of `play` complete: every seat's is in."""
        return set(self.secrets_of(play, name)) | {seat} >= set(range(len(self.seats)))


class MovedOn(Exception):
    """The game changed between the two statements of one read."""


def read_state(game_id: int) -> GameState | None:
    """Read one game into plain values at one version: game with seats, its plays, its
    secret entries, its seat requests."""
    for _ in range(5):
        try:
            return _read_game_once(game_id)
        except MovedOn:
            continue
    return None


_games, _seats, _secrets = Game.__table__, Seat.__table__, SecretEntry.__table__
_requests, _events = SeatRequest.__table__, Event.__table__
# Plain SQL statements, built once: the ORM's machinery is for writes, reading needs none of it.
_SEATS_OF_GAME = (
    select(_games.c.public_id, _games.c.kind, _games.c.crew, _games.c.ruleset, _games.c.options, _games.c.version,
           _games.c.host_key_hash, _games.c.next_game, _games.c.count_play, _games.c.count_name, _games.c.reveal_at,
           _games.c.deleted_at, _games.c.locked, _games.c.watchers,
           _games.c.join_code, _games.c.finished_at, _games.c.first_dealer, _seats.c.position, _seats.c.name,
           _seats.c.token_hash, _seats.c.browser_key,
           # Whether there is anything to read of the rarer rows (seat requests, entries cleared when a seat changed
           # phones): most games have none, and are read with two statements fewer.
           exists().where(_requests.c.game_id == _games.c.id).label("has_requests"),
           exists().where(_events.c.game_id == _games.c.id, _events.c.hand == _games.c.count_play,
                          _events.c.kind.startswith(literal(CLEARED) + _games.c.count_name + literal(" ")))
           .label("has_cleared"))
    .join_from(_games, _seats, _seats.c.game_id == _games.c.id)
    .where(_games.c.id == bindparam("game_id")).order_by(_seats.c.position))

_plays = Play.__table__
_PLAYS_OF_GAME = (
    select(_games.c.version, _plays.c.number, _plays.c.data, _plays.c.closed)
    .join_from(_plays, _games, _games.c.id == _plays.c.game_id)
    .where(_plays.c.game_id == bindparam("game_id")).order_by(_plays.c.number))

_SECRETS_OF_GAME = (
    select(_games.c.version, _secrets.c.play, _secrets.c.seat, _secrets.c.name, _secrets.c.value)
    .join_from(_secrets, _games, _games.c.id == _secrets.c.game_id)
    .where(_secrets.c.game_id == bindparam("game_id")).order_by(_secrets.c.play, _secrets.c.name, _secrets.c.seat))

_REQUESTS_OF_GAME = (
    select(_games.c.version, _requests.c.id, _requests.c.position, _requests.c.code, _requests.c.token_hash,
           _requests.c.browser_key, _requests.c.turned_away)
    .join_from(_requests, _games, _games.c.id == _requests.c.game_id)
    .where(_requests.c.game_id == bindparam("game_id")).order_by(_requests.c.id))

_VERSION_OF_GAME = select(_games.c.id, _games.c.version).where(_games.c.public_id == bindparam("public_id"),
                                                              _games.c.deleted_at.is_(None))


# A game's rows as PostgreSQL is sent them together, by psycopg itself (`_read_together`).
_TOGETHER = tuple(statement.compile(dialect=POSTGRESQL)
                  for statement in (_SEATS_OF_GAME, _PLAYS_OF_GAME, _SECRETS_OF_GAME, _REQUESTS_OF_GAME))


def _read_together(connection: Any, game_id: int) -> list[list[Any]]:
    """A game's seats, plays, secret entries and seat requests, read from PostgreSQL in one round trip (psycopg's
    pipeline): its reads went one round trip each while the worker waited (docs/performance.md, "A write in two
    round trips"). Its moments are read back timezone-aware, as `clock.Moment` reads them."""
    from psycopg.rows import namedtuple_row

    with driven(connection) as driver:
        with driver.pipeline():
            cursors = []
            for compiled in _TOGETHER:
                cursor = driver.cursor(row_factory=namedtuple_row)
                cursor.execute(str(compiled), {**compiled.params, "game_id": game_id})
                cursors.append(cursor)
        found = [cursor.fetchall() for cursor in cursors]
    seats = found[0]
    if seats:
        first = seats[0]
        found[0] = [first._replace(**{name: aware(getattr(first, name)) for name in ("reveal_at", "finished_at",
                                                                                    "deleted_at")
                                      if getattr(first, name) is not None}), *seats[1:]]
    return found


def _read_game_once(game_id: int) -> GameState | None:
    # Each query may see a newer commit (PostgreSQL reads committed data per statement):
    # each carries the version, and a mismatch is read again.
    connection = db.session.connection()
    together = _read_together(connection, game_id) if connection.dialect.name == "postgresql" else None
    seat_rows = together[0] if together else connection.execute(_SEATS_OF_GAME, {"game_id": game_id}).all()
    if not seat_rows:
        return None
    first = seat_rows[0]
    kind = kinds.registered()[first.kind]
    play_rows = together[1] if together else connection.execute(_PLAYS_OF_GAME, {"game_id": game_id}).all()
    plays = tuple(PlayState(r.number, dict(r.data or {}), bool(r.closed)) for r in at_version(play_rows,
                                                                                               first.version))
    count = Count(first.count_play, first.count_name, first.reveal_at) if first.count_name is not None else None
    secrets: tuple[SecretState, ...] = ()
    if kind.SECRETS:
        secret_rows = together[2] if together else connection.execute(_SECRETS_OF_GAME, {"game_id": game_id}).all()
        secrets = tuple(SecretState(r.play, r.seat, r.name, r.value) for r in at_version(secret_rows, first.version))
    requests: tuple[RequestState, ...] = ()
    if first.has_requests:
        request_rows = together[3] if together else connection.execute(_REQUESTS_OF_GAME,
                                                                       {"game_id": game_id}).all()
        requests = tuple(RequestState(r.id, r.position, r.code, r.token_hash, bool(r.turned_away), r.browser_key)
                         for r in at_version(request_rows, first.version))
    cleared = _cleared(connection, game_id, count) if first.has_cleared else frozenset()
    return GameState(game_id, first.public_id, first.kind, first.crew, first.ruleset, dict(first.options or {}),
                     first.version, first.host_key_hash, first.join_code, first.finished_at, first.first_dealer,
                     tuple(SeatState(r.position, r.name, r.token_hash, r.browser_key) for r in seat_rows),
                     requests, first.next_game, plays, secrets, count, cleared,
                     deleted_at=first.deleted_at, locked=bool(first.locked), watchers=bool(first.watchers))


def at_version(rows: Sequence[Any], version: int) -> Sequence[Any]:
    """Rows read with the game's version (each query of a read selects it): read again if a commit came between
    this query and the game's first (raises `MovedOn`, which `read_state` catches)."""
    if any(row.version != version for row in rows[:1]):
        raise MovedOn()
    return rows


def _cleared(connection: Any, game_id: int, count: Count | None) -> frozenset[int]:
    """The seats whose secret entry of the count running now was cleared when they changed phones."""
    if count is None or count.reveal_at is not None:
        return frozenset()
    prefix = f"{CLEARED}{count.name} "
    found = connection.execute(select(Event.__table__.c.kind).where(
        Event.__table__.c.game_id == game_id, Event.__table__.c.hand == count.play,
        Event.__table__.c.kind.startswith(prefix))).scalars().all()
    return frozenset(int(kind.removeprefix(prefix)) for kind in found)


def as_seen_by(game: GameState, seat: int | None) -> GameState:
    """The game as a screen may see it: a secret entry (a bid, a load) only on its own seat's phone, no secret at
    all. Everyone may know that an entry is in, not what it is.

    `seat` None is the whole table (host, big screen, anyone with the link): no hidden entry.
    Every page and the live stream draw from what this returns, so no secret can leak by mistake.
    Made once per game, version, count and seat in a process: a change's answer and every stream it wakes ask
    for the same views.
    """
    if not has_app_context():
        return _seen_by(game, seat)
    count = game.count
    made_of = (game.version, count.over if count is not None else None)
    return cache("seen by").kept_while((game.id, game.view, seat), made_of, lambda: _seen_by(game, seat))


def _seen_by(game: GameState, seat: int | None) -> GameState:
    """`as_seen_by`, worked out."""
    count = game.count
    secrets = game.secrets
    # Made by their constructors, not `replace`: seven views of every version, each of every seat.
    if count is not None and not count.over:
        secrets = tuple(SecretState(s.play, s.seat, s.name, None)
                        if (s.play, s.name) == (count.play, count.name) and s.seat != seat else s for s in secrets)
    seats = tuple(SeatState(s.position, s.name, "" if s.token_hash is not None else None) for s in game.seats)
    requests = tuple(RequestState(r.id, r.position, r.code, "", r.turned_away) for r in game.requests)
    view = "table" if seat is None else f"seat {seat}"
    return replace(game, secrets=secrets, seats=seats, requests=requests, host_key_hash="", view=view)


def secrets_for(game: GameState, play: int) -> kinds.Secrets:
    """The secret entries of `play` in this view of the game (`as_seen_by` made it), and where their count stands."""
    entries: dict[str, dict[int, Any]] = {}
    for secret in game.secrets:
        if secret.play == play:
            entries.setdefault(secret.name, {})[secret.seat] = secret.value
    count = game.count
    ours = count is not None and count.play == play
    if not ours or count is None:
        return kinds.Secrets(entries)
    return kinds.Secrets(entries, None if count.over else count.reveal_at, count.over, count.name, game.cleared)


def secrets_seen_by(game: GameState, seat: int | None, play: int) -> kinds.Secrets:
    """The secret entries of `play` as the screen of `seat` may see them (`as_seen_by` decides), for the rules of a
    game whose plays the table keeps; a game with none asks nothing more."""
    if not game.secrets and game.count is None:
        return kinds.Secrets()
    return secrets_for(as_seen_by(game, seat), play)


# Records (for writes) or plain values (for reading): the rules see them alike.
AnyGame = Game | GameState


@dataclass(frozen=True)
class Plays:
    """A game at one version as its rules read it: its setup, its closed plays in order and the draft of the one open
    (None: none open), as the rules' own values."""

    setup: Any
    closed: tuple[Any, ...]
    draft: Any
    version: int
    # Each closed play as stored, to know which of them the next version has as they were.
    stored: tuple[Any, ...] = field(default=(), compare=False, repr=False)
    # What the game's rules make of these plays for every screen alike (`alike`), made once.
    kept: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # What they made of each closed play (`each`), by name; and what the version before made of its first plays,
    # those stored as they were (the setup the same).
    each_kept: dict[str, tuple[Any, ...]] = field(default_factory=dict, compare=False, repr=False)
    before: dict[str, tuple[Any, ...]] = field(default_factory=dict, compare=False, repr=False)

    def alike(self, name: str, make: Callable[[], Made]) -> Made:
        """What the game's rules make of these plays for every screen alike (`name` names it): made once a version and
        process, kept with the plays."""
        if name not in self.kept:
            self.kept[name] = make()
        found: Made = self.kept[name]
        return found

    def each(self, name: str, make: Callable[[int, Any], Made]) -> tuple[Made, ...]:
        """What the game's rules make of each closed play (`make(number, play)`; `name` names it), alike for every
        screen: made once for a play while it stays as stored and the setup as it is, not again at each version."""
        found = self.each_kept.get(name)
        if found is None:
            before = self.before.get(name, ())
            found = before + tuple(make(number, play) for number, play in
                                   enumerate(self.closed[len(before):], start=len(before) + 1))
            self.each_kept[name] = found
        return found

    def made_of_each(self, same: int) -> dict[str, tuple[Any, ...]]:
        """What `each` made of its first `same` closed plays, by name, or would take from the version before: for the
        next version to take (a version nothing drew, as a change reads it, passes it on)."""
        return {name: made[:same] for name, made in {**self.before, **self.each_kept}.items()}


def plays_of(game: GameState) -> Plays:
    """The game as its rules read it (its plays), once per version and process: what its pages, each screen's view
    of it and its changes all read. The closed plays stored as the version before had them are not read again."""
    def read(before: Plays | None) -> Plays:
        kind = kinds.kind_of(game)
        stored = tuple(p.data for p in game.plays if p.closed)
        same = 0 if before is None else _same_start(before.stored, stored)
        closed, draft = kinds.decoded_plays(kind.played_rules, game, before.closed[:same] if before is not None else ())
        setup = kind.setup_of(game)
        carried = before.made_of_each(same) if before is not None and setup == before.setup else {}
        return Plays(setup, tuple(closed), draft, game.version, stored, before=carried)

    found: Plays = cache("plays").renewed(game.id, game.version, read)
    return found


def _same_start(before: tuple[Any, ...], now: tuple[Any, ...]) -> int:
    """How many plays, from the first, are stored now as they were before."""
    same = 0
    for old, new in zip(before, now):
        if old != new:
            break
        same += 1
    return same


def seen_plays(game: GameState, seat: int | None, make: Callable[[Plays, kinds.Secrets], Made]) -> Made:
    """What a game's rules make (`make`, one function of theirs) of its plays at this version and the secret entries
    of the open one as the screen of `seat` may see them (`secrets_seen_by` decides; None: the whole table): made once
    per version, count and view in a process, as a version's every page, card and stream ask for it."""
    count = game.count
    made_of = (game.version, count.over if count is not None else None)

    def made() -> Made:
        read = plays_of(game)
        return make(read, secrets_seen_by(game, seat, len(read.closed) + 1))

    found: Made = cache("seen plays").kept_while((game.id, seat, make), made_of, made)
    return found


Made = TypeVar("Made")


class VersionCache:
    """The newest few values by key, in one process; for keys whose value never changes (a game's version).

    No lock: each step on the ordered dict is atomic, and one that finds its key gone meanwhile (another thread let
    it go) only misses, as an older key would. A lock cost more than the lookups it guarded (under gevent a lock
    is Python code), and a stream's wake makes a dozen of them.
    """

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self.items: OrderedDict[Any, Any] = OrderedDict()
        # What it is worth (`cache_figures`): values found kept, values made, and the seconds making them took.
        self.hits = 0
        self.made = 0
        self.making = 0.0

    def get(self, key: Any) -> Any:
        """The value kept for `key`, or None (counted: a value found, or one its caller makes)."""
        value = self._get(key)
        if value is None:
            self.made += 1
        else:
            self.hits += 1
        return value

    def _get(self, key: Any) -> Any:
        """The value kept for `key`, or None, marked as used now."""
        items = self.items
        value = items.get(key)
        if value is not None:
            try:
                items.move_to_end(key)
            except KeyError:
                pass
        return value

    def kept_or_made(self, key: Any, make: Callable[[], Made]) -> Made:
        """The value kept for `key`, else `make()`, kept under it."""
        found: Made | None = self._get(key)
        if found is None:
            found = self._made(make)
            self.put(key, found)
        else:
            self.hits += 1
        return found

    def kept_while(self, key: Any, made_of: Any, make: Callable[[], Made]) -> Made:
        """The value kept under `key` while what it is `made_of` (a game's version) stays, else `make()`, kept in
        its place: one value per key, not one per version, so a process keeps no game's past."""
        found = self._get(key)
        if found is not None and found[0] == made_of:
            self.hits += 1
            return cast(Made, found[1])
        value = self._made(make)
        self.put(key, (made_of, value))
        return value

    def renewed(self, key: Any, made_of: Any, make: Callable[[Made | None], Made]) -> Made:
        """As `kept_while`, `make` given the value it replaces (None: none kept), to take from it what still holds."""
        found = self._get(key)
        if found is not None and found[0] == made_of:
            self.hits += 1
            return cast(Made, found[1])
        value = self._made(lambda: make(found[1] if found is not None else None))
        self.put(key, (made_of, value))
        return value

    def _made(self, make: Callable[[], Made]) -> Made:
        """`make()`, counted and timed."""
        started = time.perf_counter()
        value = make()
        self.making += time.perf_counter() - started
        self.made += 1
        return value

    def put(self, key: Any, value: Any) -> None:
        """Keep a value; the one used longest ago goes when there are too many."""
        items = self.items
        items[key] = value
        try:
            items.move_to_end(key)
            while len(items) > self.size:
                items.popitem(last=False)
        except KeyError:
            pass


# What is drawn keeps each game's parts (its table, its pad, its big screen, its end, the stream's events of them) in
# each language, an edition each: as many as the six caches it replaced kept in a benchmark's run (a larger size
# made the server's processes 115 MiB larger there, for no fewer drawings).
CACHE_SIZES = {"drawn": 2048}


def cache(name: str) -> VersionCache:
    """The app's cache called `name` (each app has its own database, so its own caches)."""
    caches: dict[str, VersionCache] = current_app.extensions.setdefault("version_caches", {})
    if name not in caches:
        caches[name] = VersionCache(CACHE_SIZES.get(name, 1024))
    return caches[name]


def cache_figures(app: Flask) -> list[str]:
    """What each of the app's caches was worth in this process, a line each: the values found kept, the values made
    (or asked for and not found) and the milliseconds making them took (a value found saved about a make's mean)."""
    caches: dict[str, VersionCache] = app.extensions.get("version_caches", {})
    return [f"cache {name!r}: {kept.hits} found, {kept.made} made in {kept.making * 1000:.0f} ms"
            for name, kept in sorted(caches.items())]


def keep(state: GameState) -> None:
    """Keep the game at its version, as stored, in this process and for the server's other processes."""
    _keep_here(state)
    host = host_cache.current()
    if host is not None:
        host.put(("game", state.id, state.version), state)


def _keep_here(state: GameState) -> None:
    """Keep the game in this process: its newest version alone (a reader of an older one replaces nothing)."""
    kept = cache("games")
    found = kept.get(state.id)
    if found is None or found.version <= state.version:
        kept.put(state.id, state)


def kept_here(game_id: int, version: int) -> GameState | None:
    """The game at `version` if this process keeps it (it keeps the newest version it stored or read)."""
    state: GameState | None = cache("games").get(game_id)
    return state if state is not None and state.version == version else None


def _kept(game_id: int, version: int) -> GameState | None:
    """The game at `version` as this process keeps it, else as another process of the server kept it."""
    state = kept_here(game_id, version)
    host = host_cache.current() if state is None else None
    if host is not None:
        state = host.get(("game", game_id, version))
        if state is not None:
            _keep_here(state)
    return state


def load_heard(game_id: int, version: int, now: datetime | None = None) -> GameState | None:
    """The game at a version this process heard of, or newer, as it stands now, with no query for its version: as
    this process or another of the server kept it, else read by one of the screens that ask while the others wait
    for it. None if it is gone, deleted, or has moved on while a count's end was confirmed (then `load` says which).
    """
    state = _kept(game_id, version)
    if state is None:
        # A change made on another host is kept by none of this host's processes: every screen of the game here
        # wakes for it at once, and one read serves them all.
        with _one_at_a_time("game read locks", game_id):
            state = kept_or_read(game_id, version)
    if state is None or state.deleted_at is not None or state.version < version:
        return None
    return as_it_stands(state, now or utcnow())


def kept_or_read(game_id: int, version: int) -> GameState | None:
    """The game at `version` as kept (`_kept`), or read now and kept (under the version it was read at)."""
    state = _kept(game_id, version)
    if state is None:
        state = read_state(game_id)
        if state is not None:
            keep(state)
    return state


def load(public_id: str, now: datetime | None = None) -> GameState | None:
    """The game with this public id as plain values, as it stands now; None if there is none.

    One indexed query for the version; the rest only when this process has not read that version yet.
    """
    if not PUBLIC_ID.fullmatch(public_id):
        return None
    for _ in range(5):
        row = db.session.connection().execute(_VERSION_OF_GAME, {"public_id": public_id}).first()
        if row is None:
            return None
        state = kept_or_read(row.id, row.version)
        if state is None:
            return None
        shown = as_it_stands(state, now or utcnow())
        if shown is not None:
            return shown
        # A writer committed while the count ran out: read the game again, in a new transaction
        # (on SQLite a read transaction keeps seeing what it saw first).
        db.session.rollback()
    # Moving on faster than it can be read: shown as stored, so nothing is revealed that may not be.
    return state


# --- the end of a count -----------------------------------------------------------------
#
# A count (the bids' YO-HO-HO, the cannons' second one) ends by the clock, with no write. Every
# process and host must agree on when, or one could show the bids while a writer elsewhere
# still takes a late bid and makes them secret again. So the end is decided in one place, the
# way writers decide it, and it is airtight for this reason:
#
# - a writer (`work.transaction`) holds the game's write lock, reads the deciding clock, and
#   changes a secret only if the count has not ended by that clock;
# - before anything is shown revealed, `as_it_stands` takes the same lock, checks that the
#   version it is about to reveal is still the one committed, and reads the same clock.
#
# The lock puts the two in one order. If the reveal is confirmed first, every later writer
# reads the clock later, finds the count over and refuses to make the hand secret again. If a
# writer came first, it committed a new version, and the confirmation finds the version moved
# on and shows nothing. The clock is the database's (PostgreSQL's clock_timestamp(), read after
# the lock is granted: now() would be when the transaction began, perhaps before), so hosts with
# skewed clocks still agree; SQLite is a file on one machine, whose processes share its clock.
# Once confirmed, a count's end (game, hand, moment) holds for good, so each process confirms it
# once, whatever the number of screens.


# The deciding clock on PostgreSQL: the database's, the same for every process and host.
CLOCK_SQL = "SELECT clock_timestamp() AT TIME ZONE 'UTC'"


def locked_now(connection: Any) -> datetime:
    """The time by the clock that ends the counts, read on `connection` while it holds the game's lock."""
    if connection.dialect.name == "postgresql":
        return aware(connection.exec_driver_sql(CLOCK_SQL).scalar_one())
    return utcnow()


def _confirm_count_end(game_id: int) -> tuple[int | None, datetime]:
    """The version committed now and the deciding clock, read under the game's write lock (nothing written)."""
    with db.engine.connect() as connection:
        connection.execution_options(**{WRITE_LOCK: write_deadline()})
        if connection.dialect.name == "postgresql":
            # BEGIN, the lock, the clock and the end in one round trip, the lock waited for in the process.
            row, moment = locked_together(connection, _SHARED_VERSION_SQL, {"game_id": game_id}, [(CLOCK_SQL, None)],
                                          end=True)
            assert moment is not None, "the clock answers a row"
            return (row[0] if row is not None else None), aware(moment[0])
        with connection.begin() as transaction:
            version = connection.execute(_VERSION_BY_ID, {"game_id": game_id}).scalar()
            now = locked_now(connection)
            transaction.rollback()
    return version, now


_VERSION_BY_ID = select(_games.c.version).where(_games.c.id == bindparam("game_id"))
# FOR SHARE waits for a writer's FOR UPDATE (and it for this), but not for other screens.
_SHARED_VERSION_SQL = (str(_VERSION_BY_ID.with_for_update(read=True).compile(dialect=POSTGRESQL)),
                       str(_VERSION_BY_ID.with_for_update(read=True, nowait=True).compile(dialect=POSTGRESQL)))


def _standing(state: GameState, now: datetime) -> GameState:
    """`state.at(now)`, the same object for every screen that asks once its count ran out (each stream of the game
    wakes then, and a new one would be made for each)."""
    count = state.count
    if count is None or count.reveal_at is None or (count.reveal_at <= now) == count.over:
        return state
    made_of = (state.version, not count.over)
    return cache("games as they stand").kept_while((state.id, state.view), made_of, lambda: state.at(now))


def as_it_stands(state: GameState, now: datetime) -> GameState | None:
    """The game as it stands at `now`, a count that ran out revealed only once confirmed (see above).

    None: the game has moved on since `state` was read. A count over by this process's clock
    but not yet by the deciding one (another host's) still shows as a count.
    """
    shown = _standing(state, now)
    count = shown.count
    if count is None or not count.over:
        return shown
    kept = cache("counts ended")
    key = (state.id, count.play, count.name, count.reveal_at)
    if kept.get(key):
        return shown
    # The screens of one game wake together when its count runs out: one of them asks.
    with _one_at_a_time("count end locks", key):
        if kept.get(key):
            return shown
        try:
            version, deciding_now = _confirm_count_end(state.id)
        except pace.Busy:
            # The lock not had in time: the count shows a moment longer, and the screen asks again (its stream soon).
            return replace(shown, count=replace(count, over=False))
        if version != state.version:
            return None
        confirmed = state.at(deciding_now)
        if confirmed.count is None or not confirmed.count.over:
            return confirmed
        kept.put(key, True)
    return shown


def _one_at_a_time(name: str, key: Any) -> threading.Lock:
    """The lock that lets one screen of this process do the work `name` for `key` while the others wait for it.

    Made in the app's own process on first use: a lock made at import could be made before the
    server's workers switch to gevent's locks, and would stop a whole worker while it waits.
    """
    locks: tuple[threading.Lock, ...] | None = current_app.extensions.get(name)
    if locks is None:
        locks = current_app.extensions.setdefault(name, tuple(threading.Lock() for _ in range(64)))
    return locks[hash(key) % len(locks)]
