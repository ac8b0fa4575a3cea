"""Games in the database as plain values, kept per version; what a screen may see of them, and when a count ends.

Reading only; every change goes through `service`. A kind reads its plays through its own rules.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, select
from sqlalchemy.orm import selectinload

from . import kinds
from .extensions import WRITE_LOCK, db
from .models import EntryRecord, Event, Game, HandRecord, Phase, Play, Seat, SeatRequest, phase_at, utcnow

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def find_game(public_id: str, for_update: bool = False, deleted: bool = False) -> Game | None:
    """The game with this public id, or None; `for_update` locks it until commit.

    A game its host deleted is found only when asked for (`deleted`: to undo it).
    """
    if not PUBLIC_ID.fullmatch(public_id):
        # No game has such an id; and some databases refuse characters like NUL outright.
        return None
    # A page needs the whole game: three queries, not one per hand.
    query = select(Game).where(Game.public_id == public_id).options(
        selectinload(Game.seats), selectinload(Game.hands).selectinload(HandRecord.entries))
    if not deleted:
        query = query.where(Game.deleted_at.is_(None))
    if for_update:
        # Every write to a game goes through this lock, so two phones writing at
        # once are serialized (on SQLite the write transaction does the same).
        query = query.with_for_update()
    return db.session.scalar(query)


def find_game_by_code(code: str, in_play_only: bool = True) -> Game | None:
    """The game with this join code, or None; the code of a finished game has expired."""
    if not PUBLIC_ID.fullmatch(code):
        return None
    query = select(Game).where(Game.join_code == code, Game.deleted_at.is_(None))
    if in_play_only:
        query = query.where(Game.finished_at.is_(None))
    return db.session.scalar(query)


# The event kind of a bid cleared because its seat changed phones, followed by the seat.
BID_CLEARED = "bid-cleared "


# --- a game read as plain values ----------------------------------------------------------
#
# Pages and live streams read games far more often than anyone writes one: a game is read
# in two or three plain SQL queries into frozen values, kept per (game, version) in the
# process, and shared by every screen of the table. The changes made most often (bids,
# results, claims) start from these values too (`rows`); the others load the game's records.


# Slots: thousands of these are kept, and fewer objects make shorter garbage collections.
@dataclass(frozen=True, slots=True)
class SeatState:
    """A seat as stored; `token_hash` only says who this phone is, it is never shown."""

    position: int
    name: str
    token_hash: str | None

    @property
    def has_phone(self) -> bool:
        """Whether a phone holds this seat."""
        return self.token_hash is not None


@dataclass(frozen=True, slots=True)
class RequestState:
    """A new phone asking for a seat; `token_hash` only says which phone asks, it is never shown."""

    id: int
    position: int
    code: str
    token_hash: str
    turned_away: bool


@dataclass(frozen=True, slots=True)
class EntryState:
    """One player's line in one hand, as stored (the bid too: `hand_of` decides who sees it)."""

    position: int
    bid: int | None
    tricks: int | None
    bonuses: dict[str, int]
    loot_with: tuple[int, ...]
    wager: int | None
    shot: str | None
    bid_changed_from: int | None
    done: bool
    # Whether a bid is in: the table may know that much while the bids are secret.
    ready: bool
    # Refused for a clash with others: this player checks their result again.
    fixing: bool = False
    # Whether a cannon is loaded: the table may know that much while the loads are secret.
    loaded: bool = False


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand as stored, with its phase at the moment the game was looked at."""

    # Its row, which a change writes to.
    id: int
    number: int
    cards: int
    lost_tricks: int
    stored_phase: Phase
    corrected: bool
    reveal_at: datetime | None
    entries: tuple[EntryState, ...]
    phase: Phase
    # The cannonball rule: the players load their cannons in secret once the bids are revealed.
    cannons: bool = False

    def phase_at(self, now: datetime) -> Phase:
        """The phase at `now`: a count that has run out has revealed the bids (or the loads)."""
        return phase_at(self.stored_phase, self.reveal_at, self.cannons, now)

    @property
    def count_over(self) -> bool:
        """Whether a count stored as running is over, as this value was looked at."""
        return self.stored_phase.is_count and self.phase != self.stored_phase


@dataclass(frozen=True, slots=True)
class PlayState:
    """One play of a game whose plays the table keeps, as stored: its entries, and whether it is closed."""

    number: int
    data: dict[str, Any]
    closed: bool


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
    host_token: str
    join_code: str
    finished_at: datetime | None
    first_dealer: int
    seats: tuple[SeatState, ...]
    # Its hands, for a kind that keeps its own (none when the table keeps its plays).
    hands: tuple[HandState, ...]
    # Seats of the hand being bid whose bid was cleared when they changed phones.
    bids_cleared: frozenset[int] = field(default_factory=frozenset)
    # New phones asking for seats, oldest first (answered ones only while turned away).
    requests: tuple[RequestState, ...] = ()
    # The game its host started next with these players: the phones follow there.
    next_game: str | None = None
    # Its plays, when the table keeps them (none for a kind that keeps its own hands).
    plays: tuple[PlayState, ...] = ()

    @property
    def open_requests(self) -> tuple[RequestState, ...]:
        """The seat requests the host has not answered yet."""
        return tuple(r for r in self.requests if not r.turned_away)

    def at(self, now: datetime) -> GameState:
        """The game as it stands at `now` by this process's clock alone (nothing is written).

        Only `as_it_stands` may show what this reveals: it confirms a count's end first.
        """
        hands = tuple(h if h.phase_at(now) == h.phase else replace(h, phase=h.phase_at(now)) for h in self.hands)
        return self if all(a is b for a, b in zip(hands, self.hands)) else replace(self, hands=hands)

    @property
    def reveal_at(self) -> datetime | None:
        """When the count running now ends, if one is running."""
        return next((h.reveal_at for h in self.hands if h.phase.is_count), None)

    @property
    def edition(self) -> int:
        """Orders what the table may see: every version, and the end of a count within one."""
        return self.version * 2 + any(h.count_over for h in self.hands)


class _MovedOn(Exception):
    """The game changed between the two statements of one read."""


def read_state(game_id: int) -> GameState | None:
    """Read one game into plain values: game with seats, then hands with entries, at one version."""
    for _ in range(5):
        try:
            return _read_game_once(game_id)
        except _MovedOn:
            continue
    return None


_games, _seats, _hands, _entries = Game.__table__, Seat.__table__, HandRecord.__table__, EntryRecord.__table__
# Plain SQL statements, built once: the ORM's machinery is for writes, reading needs none of it.
_SEATS_OF_GAME = (
    select(_games.c.public_id, _games.c.kind, _games.c.crew, _games.c.ruleset, _games.c.options, _games.c.version,
           _games.c.host_token, _games.c.next_game,
           _games.c.join_code, _games.c.finished_at, _games.c.first_dealer, _seats.c.position, _seats.c.name,
           _seats.c.token_hash)
    .join_from(_games, _seats, _seats.c.game_id == _games.c.id)
    .where(_games.c.id == bindparam("game_id")).order_by(_seats.c.position))
_ENTRIES_OF_GAME = (
    select(_games.c.version, _hands.c.id.label("hand_id"), _hands.c.number, _hands.c.cards, _hands.c.lost_tricks,
           _hands.c.phase.label("stored_phase"), _hands.c.corrected, _hands.c.reveal_at, _hands.c.cannons,
           _entries.c.position, _entries.c.bid, _entries.c.tricks,
           _entries.c.bonuses, _entries.c.loot_with, _entries.c.wager, _entries.c.shot, _entries.c.bid_changed_from,
           _entries.c.done, _entries.c.fixing)
    .join_from(_hands, _entries, _entries.c.hand_id == _hands.c.id).join(_games, _games.c.id == _hands.c.game_id)
    .where(_hands.c.game_id == bindparam("game_id")).order_by(_hands.c.number, _entries.c.position))


_plays = Play.__table__
_PLAYS_OF_GAME = (
    select(_games.c.version, _plays.c.number, _plays.c.data, _plays.c.closed)
    .join_from(_plays, _games, _games.c.id == _plays.c.game_id)
    .where(_plays.c.game_id == bindparam("game_id")).order_by(_plays.c.number))

_requests = SeatRequest.__table__
_REQUESTS_OF_GAME = (
    select(_games.c.version, _requests.c.id, _requests.c.position, _requests.c.code, _requests.c.token_hash,
           _requests.c.turned_away)
    .join_from(_requests, _games, _games.c.id == _requests.c.game_id)
    .where(_requests.c.game_id == bindparam("game_id")).order_by(_requests.c.id))

_VERSION_OF_GAME = select(_games.c.id, _games.c.version).where(_games.c.public_id == bindparam("public_id"),
                                                              _games.c.deleted_at.is_(None))


def _read_game_once(game_id: int) -> GameState | None:
    # Each query may see a newer commit (PostgreSQL reads committed data per statement):
    # each carries the version, and a mismatch is read again.
    connection = db.session.connection()
    seat_rows = connection.execute(_SEATS_OF_GAME, {"game_id": game_id}).all()
    if not seat_rows:
        return None
    first = seat_rows[0]
    # A game's plays are the table's rows or its kind's own hands, never both: only those are read.
    keeps_plays = kinds.registered()[first.kind].played_rules is not None
    hands, cleared = ((), frozenset()) if keeps_plays else _hands_of(connection, game_id, first.version)
    plays = _plays_of(connection, game_id, first.version) if keeps_plays else ()
    request_rows = _at_version(connection.execute(_REQUESTS_OF_GAME, {"game_id": game_id}).all(), first.version)
    requests = tuple(RequestState(r.id, r.position, r.code, r.token_hash, bool(r.turned_away)) for r in request_rows)
    return GameState(game_id, first.public_id, first.kind, first.crew, first.ruleset, dict(first.options or {}),
                     first.version,
                     first.host_token, first.join_code, first.finished_at, first.first_dealer,
                     tuple(SeatState(r.position, r.name, r.token_hash) for r in seat_rows),
                     hands, cleared, requests, first.next_game, plays)


def _at_version(rows: Sequence[Any], version: int) -> Sequence[Any]:
    """Rows read with the game's version: _MovedOn if a commit came between this query and the first."""
    if any(row.version != version for row in rows[:1]):
        raise _MovedOn()
    return rows


def _hands_of(connection: Any, game_id: int, version: int) -> tuple[tuple[HandState, ...], frozenset[int]]:
    """A game's hands with their entries, and the seats of the hand being bid whose bid was cleared."""
    hand_rows = _at_version(connection.execute(_ENTRIES_OF_GAME, {"game_id": game_id}).all(), version)
    hands: list[HandState] = []
    entries: list[EntryState] = []
    for index, row in enumerate(hand_rows):
        entries.append(EntryState(row.position, row.bid, row.tricks, dict(row.bonuses or {}),
                                  tuple(row.loot_with or ()), row.wager, row.shot, row.bid_changed_from,
                                  bool(row.done), row.bid is not None, bool(row.fixing), row.shot is not None))
        if index + 1 == len(hand_rows) or hand_rows[index + 1].number != row.number:
            phase = Phase(row.stored_phase)
            hands.append(HandState(row.hand_id, row.number, row.cards, row.lost_tricks, phase, row.corrected,
                                   row.reveal_at, tuple(entries), phase, bool(row.cannons)))
            entries = []
    bidding = next((h.number for h in hands if h.stored_phase == Phase.BIDDING), None)
    if bidding is None:
        return tuple(hands), frozenset()
    kinds = connection.execute(select(Event.__table__.c.kind).where(
        Event.__table__.c.game_id == game_id, Event.__table__.c.hand == bidding,
        Event.__table__.c.kind.startswith(BID_CLEARED))).scalars().all()
    return tuple(hands), frozenset(int(kind.removeprefix(BID_CLEARED)) for kind in kinds)


def _plays_of(connection: Any, game_id: int, version: int) -> tuple[PlayState, ...]:
    """The plays of a game whose plays the table keeps, in order."""
    play_rows = _at_version(connection.execute(_PLAYS_OF_GAME, {"game_id": game_id}).all(), version)
    return tuple(PlayState(r.number, dict(r.data or {}), bool(r.closed)) for r in play_rows)


def as_seen_by(game: GameState, seat: int | None) -> GameState:
    """The game as a screen may see it: a secret bid or load only on its own seat's phone, no secret at all.

    `seat` None is the whole table (host, big screen, anyone with the link): no hidden bid.
    Every page and the live stream draw from what this returns, so no bid can leak by mistake.
    """
    def secrets_kept(entry: EntryState, hand: HandState) -> EntryState:
        if entry.position == seat:
            return entry
        if hand.phase.is_secret and entry.bid is not None:
            entry = replace(entry, bid=None)
        if hand.phase.loads_secret and entry.shot is not None:
            entry = replace(entry, shot=None)
        return entry

    hands = tuple(replace(h, entries=tuple(secrets_kept(e, h) for e in h.entries)) if h.phase.loads_secret else h
                  for h in game.hands)
    seats = tuple(replace(s, token_hash="" if s.token_hash is not None else None) for s in game.seats)
    requests = tuple(replace(r, token_hash="") for r in game.requests)
    return replace(game, hands=hands, seats=seats, requests=requests, host_token="")


# Records (for writes) or plain values (for reading): the rules see them alike.
AnyGame = Game | GameState


class VersionCache:
    """The newest few values by key, in one process; for keys whose value never changes (a game's version)."""

    def __init__(self, size: int = 1024) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.items: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        """The value kept for `key`, or None."""
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        """Keep a value; the one used longest ago goes when there are too many."""
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


def cache(name: str) -> VersionCache:
    """The app's cache called `name` (each app has its own database, so its own caches)."""
    caches = current_app.extensions.setdefault("version_caches", {})
    if name not in caches:
        caches[name] = VersionCache()
    return caches[name]


def cached(game_id: int, version: int, now: datetime | None = None) -> GameState | None:
    """The game at `version` as this process read it, as it stands now; None if not read, or if it
    has moved on since (then `load` reads it afresh)."""
    state = cache("games").get((game_id, version))
    return as_it_stands(state, now or utcnow()) if state is not None else None


def kept_or_read(game_id: int, version: int) -> GameState | None:
    """The game at `version` as this process keeps it, or read now and kept (under the version it was read at)."""
    kept = cache("games")
    state = kept.get((game_id, version))
    if state is None:
        state = read_state(game_id)
        if state is not None:
            kept.put((state.id, state.version), state)
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
# - a writer (`service._locked`) holds the game's write lock, reads the deciding clock, and
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


def locked_now(connection: Any) -> datetime:
    """The time by the clock that ends the counts, read on `connection` while it holds the game's lock."""
    if connection.dialect.name == "postgresql":
        return connection.exec_driver_sql("SELECT clock_timestamp() AT TIME ZONE 'UTC'").scalar_one()
    return utcnow()


def _confirm_count_end(game_id: int) -> tuple[int | None, datetime]:
    """The version committed now and the deciding clock, read under the game's write lock (nothing written)."""
    with db.engine.connect() as connection:
        connection.execution_options(**{WRITE_LOCK: True})
        with connection.begin() as transaction:
            query = select(_games.c.version).where(_games.c.id == game_id)
            if connection.dialect.name == "postgresql":
                # FOR SHARE waits for a writer's FOR UPDATE (and it for this), but not for other screens.
                query = query.with_for_update(read=True)
            version = connection.execute(query).scalar()
            now = locked_now(connection)
            transaction.rollback()
    return version, now


def as_it_stands(state: GameState, now: datetime) -> GameState | None:
    """The game as it stands at `now`, a count that ran out revealed only once confirmed (see above).

    None: the game has moved on since `state` was read. A count over by this process's clock
    but not yet by the deciding one (another host's) still shows as a count.
    """
    shown = state.at(now)
    kept = cache("counts ended")
    for hand in shown.hands:
        key = (state.id, hand.number, hand.reveal_at)
        if not hand.count_over or kept.get(key):
            continue
        # The screens of one game wake together when its count runs out: one of them asks.
        with _confirming(key):
            if kept.get(key):
                continue
            version, deciding_now = _confirm_count_end(state.id)
            if version != state.version:
                return None
            if hand.phase_at(deciding_now) == hand.stored_phase:
                return state.at(deciding_now)
            kept.put(key, True)
    return shown


def _confirming(key: Any) -> threading.Lock:
    """The lock that lets one screen of this process confirm a count's end while the others wait.

    Made in the app's own process on first use: a lock made at import could be made before the
    server's workers switch to gevent's locks, and would stop a whole worker while it waits.
    """
    locks = current_app.extensions.get("count end locks")
    if locks is None:
        locks = current_app.extensions.setdefault("count end locks", tuple(threading.Lock() for _ in range(64)))
    return locks[hash(key) % len(locks)]


def summary_of(game: AnyGame) -> dict[str, Any] | None:
    """What a finished game leaves for its crew's statistics, as its kind says; None while it is played."""
    if game.finished_at is None:
        return None
    kind = kinds.kind_of(game)
    return kind.summary(kind.setup_of(game), kind.played(game))
