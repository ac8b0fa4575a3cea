"""Every change a table can make, one function each, and the transaction every game's changes go through.

Each change takes plain values and the acting browser's credentials, checks access and the
rules, writes, bumps the game's version and logs the event, all in one transaction; it
answers with an `Outcome` (what happened, or the problems, with nothing stored) or raises
`NotFound` / `NotAllowed`. The transaction is an object in sight, `Write`: `locked` begins it
(the game's row locked, the game read as plain values, the lock's moment, the request's tap),
a game's decision (`play`'s `decide`) reads its plain values and says what to write (`kinds.Applied`),
which the table writes, and `commit` takes it (the version with the game's own columns, the event, the tap), or
`refuse` / `deny` / `stale` store nothing. Nothing else in the app writes a game.

Every write is applied once per tap (`Credentials.tap`, made on the phone): the tap is stored
with the change it made, in its transaction, and a repeat (a retry after a lost answer) gets the
first answer without a second change (`once`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import delete, func, select

from . import games, kinds, rows
from .access import Actor, Credentials, Role, identify, token_hash
from .clock import utcnow
from .extensions import begin_write, db
from .models import Game, LimitedTry, Seat, new_join_code, new_public_id
from .problems import N_, Problem

# A seat as stored, or as the pages read it.
SeatOf = TypeVar("SeatOf")


class NotFound(LookupError):
    """No such game or hand."""


class NotAllowed(PermissionError):
    """The acting browser may not make this change; `phone_seat`: the host's, for a seat that has its own phone."""

    def __init__(self, phone_seat: bool = False) -> None:
        super().__init__()
        self.phone_seat = phone_seat


class TooManyTries(Exception):
    """Too many tries of one kind (join codes, new games) from one browser or address this minute."""


@dataclass(frozen=True)
class Outcome:
    """What a change did: the game it concerns, or the problems that kept it from being stored."""

    public_id: str
    problems: tuple[Problem, ...] = ()
    # A secret the acting browser keeps: a new game's host token, or a claimed seat's.
    secret: str | None = None
    # Nothing was done: the hand has moved on since the screen was drawn (a late autosave).
    stale: bool = False
    # The game as the change stored it (kept for the processes' screens too), so that its answer reads nothing;
    # None: read it.
    stored: games.GameState | None = None

    @property
    def ok(self) -> bool:
        """Whether the change was stored."""
        return not self.problems


# --- a change under way --------------------------------------------------------------------


@dataclass
class Write:
    """A change under way, from `locked` (or a new game's start) to `commit` or `refuse`: all it carries, in sight.

    `game` is the game locked and read as plain values (None for a new game, stored through its
    records); `now` the lock's moment by the deciding clock; `tap` the request's tap, stored with
    the change; `columns` what the change sets of the game's own row (its count, its deletion),
    written with the version in one statement; `events` those it logs besides the locked game's
    own (game, version, kind, play: a new game's, the earlier game a rematch follows); `writes` what it
    writes of the game's plays and secret entries, and its end (`rows.Writes`). `commit` takes it all to
    `rows.store`, which writes it in one go.
    """

    game: games.GameState | None = None
    now: datetime | None = None
    tap: rows.Tap | None = None
    columns: dict[str, Any] = field(default_factory=dict)
    events: list[tuple[int, int, str, int | None]] = field(default_factory=list)
    writes: rows.Writes = field(default_factory=rows.Writes)

    @property
    def locked(self) -> games.GameState:
        """The game this change holds the lock of."""
        assert self.game is not None, "a new game holds no lock"
        return self.game

    @property
    def lock_time(self) -> datetime:
        """When the lock was granted, by the deciding clock."""
        assert self.now is not None, "a new game holds no lock"
        return self.now

    def entered(self, play: int, name: str) -> set[int]:
        """The seats whose secret entries `name` of `play` the locked game holds."""
        return {s.seat for s in self.locked.secrets if s.play == play and s.name == name}

    def set_columns(self, **columns: Any) -> None:
        """Columns of the game's own row this change sets, written with its version."""
        self.columns.update(columns)


# --- taps: every write applied once ---------------------------------------------------------

Params = ParamSpec("Params")


def _check_tap(credentials: Credentials | None) -> rows.Tap | None:
    """AppliedAlready with its first answer if this browser's tap was applied already; else the tap, to store with the
    change (`commit`). The same tap id from another browser is another tap."""
    if credentials is None or not credentials.tap:
        return None
    tap = rows.Tap(credentials.tap, credentials.browser)
    found = rows.tap_answer(tap)
    if found is not None:
        _rollback()
        raise rows.AppliedAlready(found)
    return tap


def once(write: Callable[Params, Outcome]) -> Callable[Params, Outcome]:
    """A write of the table, applied once per tap: a repeat answers as the first did, and changes nothing."""
    @wraps(write)
    def applied_once(*args: Params.args, **kwargs: Params.kwargs) -> Outcome:
        try:
            return write(*args, **kwargs)
        except rows.AppliedAlready as repeat:
            public_id, secret = repeat.answer
            return Outcome(public_id, secret=secret)
    return applied_once


def locked(public_id: str, credentials: Credentials | None = None, deleted: bool = False) -> Write:
    """A change of the game begins: its row locked for writing until this transaction ends, the game read as plain
    values, the lock's moment; or NotFound (a game its host deleted only when asked for, to undo it); AppliedAlready if
    the request's tap (`credentials.tap`) was applied already.

    Where a count stands is fixed by the deciding clock read under the lock, so a count that has
    ended for any screen has ended for this change too (see "the end of a count" in games.py).
    No record of the game is loaded: a change writes only the rows it changes.
    """
    begin_write()
    found = rows.lock(public_id, deleted)
    # Under the lock the version cannot move, so the game kept (or read) for it is the game.
    game = games.kept_or_read(*found) if found is not None else None
    if game is None:
        # A repeated delete finds its game gone: it is answered as the first was.
        _check_tap(credentials)
        _rollback()
        raise NotFound(public_id)
    # Under the lock, so a repeat sent while the first was on its way waits for it and finds it stored.
    tap = _check_tap(credentials)
    now = games.locked_now(db.session.connection())
    return Write(game.at(now), now, tap)


def locked_by(public_id: str, credentials: Credentials) -> tuple[Write, Actor]:
    """The game locked and read as plain values (`locked`), and who the acting browser is at it."""
    write = locked(public_id, credentials)
    return write, identify(write.locked, credentials)


def enter_secret(write: Write, play: int, seat: int, name: str, value: Any, count_seconds: float) -> bool:
    """A seat's secret entry (a bid, a cannon's load), seen by its own phone alone, of the entries the table collects
    now (`name` of `play`): once every seat's is in, the YO-HO-HO count starts, again after any change, from the
    lock's moment, and they all show when it ends, by the clock of `games.as_it_stands`. Whether the count runs.

    The kind has checked that these entries may still change (not shown yet); whatever the value, the version
    moves by one, so nothing another screen can see depends on a hidden entry.
    """
    game = write.locked
    entered = write.entered(play, name)
    write.writes.secrets.append((play, seat, name, value, seat not in entered))
    all_in = entered | {seat} >= set(range(len(game.seats)))
    count = games.Count(play, name, write.lock_time + timedelta(seconds=count_seconds) if all_in else None)
    if count != game.count:
        write.set_columns(count_play=count.play, count_name=count.name, reveal_at=count.reveal_at)
    return all_in


def collect_secrets(write: Write, play: int, name: str, forget: bool = False) -> None:
    """The table collects the secret entries `name` of `play` from now on (`forget`: those entered before are
    forgotten), written with the version by the change under way."""
    if forget:
        write.writes.forgotten.append((play, name, None))
    write.set_columns(count_play=play, count_name=name, reveal_at=None)


def _forget_secret(write: Write, seat: int) -> tuple[str, int | None]:
    """A seat changing phones loses its secret entry still hidden: it belongs to the phone that made it. A count
    running stops until that seat enters again. The event to log, and its play: a cleared entry is logged as such,
    so the table can see who must enter again (that a player had entered is no secret)."""
    game = write.locked
    count = game.count
    if count is None or count.over or seat not in write.entered(count.play, count.name):
        return "seat", None
    write.writes.forgotten.append((count.play, count.name, seat))
    if count.reveal_at is not None:
        write.set_columns(reveal_at=None)
    return f"{games.CLEARED}{count.name} {seat}", count.play


def _rollback() -> None:
    """Nothing of the change under way is stored (nor its tap: a repeat is tried afresh)."""
    db.session.rollback()


def refuse(game: games.AnyGame, *problems: Problem) -> Outcome:
    """Nothing is stored: the change breaks the rules, as `problems` say."""
    _rollback()
    return Outcome(game.public_id, problems=problems)


def deny(phone_seat: bool = False) -> NotAllowed:
    """Nothing is stored: the acting browser may not make this change (raise what this returns)."""
    _rollback()
    return NotAllowed(phone_seat)


def stale(game: games.AnyGame) -> Outcome:
    """Nothing is stored: the play the screen was drawn for has moved on (a late autosave, a second tap)."""
    _rollback()
    return Outcome(game.public_id, stale=True)


def not_found(what: object) -> NotFound:
    """Nothing is stored: no such play (raise what this returns)."""
    _rollback()
    return NotFound(what)


def _stored(write: Write, game_id: int, public_id: str, secret: str | None,
            game_row: dict[str, Any] | None = None, kept: games.GameState | None = None) -> Outcome:
    """Store the change under way with its events and tap, in one transaction (`rows.store`, which keeps `kept`,
    the game as stored; AppliedAlready with the first answer if a repeat of its tap raced it)."""
    rows.store(game_id, write.events, write.tap, (public_id, secret), game_row, write.writes, kept)
    return Outcome(public_id, secret=secret, stored=kept)


# What a page says of a change that came too late to apply (a tap sent again after the table moved on).
MOVED_ON = Problem(N_("Not applied: by the time this arrived, the table had moved on (its hand or round was closed)."))


def refusal(public_id: str, problems: Sequence[Problem]) -> Outcome:
    """The answer to a request refused before it reached a game (its form could not be read): nothing stored."""
    return Outcome(public_id, problems=tuple(problems))


def commit(write: Write, kind: str, hand: int | None = None, secret: str | None = None,
           kept: games.GameState | None = None) -> Outcome:
    """Store the change of the locked game (its rows written already): its version bumped with the columns it set,
    the event logged, its tap kept, in one transaction; `secret`: what it hands the acting browser (a seat's);
    `kept`: the game as it is stored (`_as_stored`), kept for the screens and the answer."""
    game = write.locked
    version = game.version + 1
    write.events.append((game.id, version, kind, hand))
    return _stored(write, game.id, game.public_id, secret, {**write.columns, "version": version}, kept)


def _log(write: Write, game: Game, kind: str, hand: int | None = None) -> None:
    """Bump a stored game record's version (a new game once flushed, or the earlier game a new one follows); its
    event is logged when the change is stored."""
    game.version = (game.version or 0) + 1
    write.events.append((game.id, game.version, kind, hand))


# --- new games ------------------------------------------------------------------------


def unused_join_code() -> str:
    """A join code no stored game has (codes are unique): with many games stored, a random one may be taken."""
    while True:
        code = new_join_code()
        if games.find_game_by_code(code, in_play_only=False) is None:
            return code


def _seated_game(players: Sequence[str], crew: str | None = None, **columns: Any) -> Game:
    """A new game of any kind with its players' seats, its own codes and a crew (an earlier game's, or its own)."""
    game = Game(crew=crew or new_public_id(), join_code=unused_join_code(), public_id=new_public_id(),
                host_token=new_public_id(), **columns)
    game.seats = [Seat(position=i, name=name) for i, name in enumerate(players)]
    db.session.add(game)
    return game


def _earlier(credentials: Credentials | None, after: str | None) -> Game | None:
    """An earlier game whose players a new game has (locked: it will say where they went); only its host may say so."""
    if not after:
        return None
    earlier = games.find_game(after, for_update=True)
    if earlier is None or credentials is None or not identify(earlier, credentials).is_host:
        raise deny()
    return earlier


def _follow(write: Write, earlier: Game | None, game: Game) -> None:
    """The phones of the earlier game follow into `game`, each to the seat with its player's name.

    The seat keeps the phone's secret, so only that phone plays it; the earlier game names the
    new one, and its screens (a new version) move on by themselves. A phone whose name is gone
    goes to the join page.
    """
    if earlier is None:
        return
    held = {seat.name: seat.token_hash for seat in earlier.seats if seat.token_hash}
    for seat in game.seats:
        seat.token_hash = held.get(seat.name)
    earlier.next_game = game.public_id
    _log(write, earlier, "next-game")


@once
def create(kind: kinds.GameKind[kinds.SetupT, kinds.PlayT], setup: kinds.SetupT, plays: Sequence[kinds.PlayT] = (),
           credentials: Credentials | None = None, after: str | None = None) -> Outcome:
    """Start a game of any kind from a checked setup, resuming after `plays` (an imported pad's); the secret is
    the host's token.

    `after`: an earlier game whose players these are, which joins the new game to its crew
    (for their statistics); its host alone may say so.
    """
    begin_write()
    write = Write(tap=_check_tap(credentials))
    earlier = _earlier(credentials, after)
    players, columns = kind.columns(setup)
    game = _seated_game(players, earlier.crew if earlier else None, kind=kind.NAME, **columns)
    _follow(write, earlier, game)
    # Stored now, so the game's own rows (its plays, its secret entries) can name it.
    db.session.flush()
    started = kind.start(setup, plays)
    write.writes.plays += [(number, values, closed, True) for number, (values, closed) in enumerate(started.plays, 1)]
    write.writes.secrets += [(number, seat, name, value, True) for number, seat, name, value in started.secrets]
    if started.collects is not None:
        game.count_play, game.count_name = started.collects
    if kind.finished(setup, plays):
        game.finished_at = game.finished_at or utcnow()
        # What its crew's statistics read.
        game.summary = kind.summary(setup, list(plays))
    _log(write, game, "import" if plays else "create")
    return _stored(write, game.id, game.public_id, game.host_token)


# A game's decision of one change: the game locked, as plain values, and who acts; what to write (`Applied`).
Decision = Callable[[games.GameState, Actor], kinds.Applied]


@once
def play(public_id: str, credentials: Credentials, decide: Decision, count_seconds: float = 3.0) -> Outcome:
    """A change of a game, the table's one way for every game: the game locked and read as plain values, the acting
    browser found, the game's decision (`decide`, which may raise `deny()` or `not_found()`), then what it says
    written, the event logged and all of it stored in one transaction; or nothing stored.

    A secret entry (`Applied.secret`) is the table's, revealed with the others after `count_seconds`.
    """
    write, actor = locked_by(public_id, credentials)
    game = write.locked
    applied = decide(game, actor)
    # The host enters for the players without a phone only: a phone's entries are its own, in every game.
    if applied.denied:
        raise deny()
    if actor.is_host and any(game.seats[s].has_phone for s in applied.seats):
        raise deny(phone_seat=True)
    if applied.stale:
        return stale(game)
    if applied.problems:
        return refuse(game, *applied.problems)
    number = applied.play
    if applied.secret is not None:
        assert number is not None, "a secret entry belongs to a play"
        seat, name, value = applied.secret
        count = game.count
        if count is not None and (count.play, count.name) == (number, name) and count.over:
            # Shown already (the count ended, by the deciding clock, before this tap was taken): nothing changes.
            return stale(game)
        enter_secret(write, number, seat, name, value, count_seconds)
    _apply(write, applied)
    # The game as it will be stored, made before the commit, which keeps it for the screens and the answer.
    stored = _as_stored(write)
    return commit(write, applied.event, number, kept=stored)


# The columns of the game's own row that a play's change sets and `_as_stored` knows how to follow.
_FOLLOWED_COLUMNS = frozenset({"count_play", "count_name", "reveal_at", "version"})


def _as_stored(write: Write) -> games.GameState | None:
    """The game as a read of it finds it once this change of its plays and secret entries is stored: the game
    locked, with what the change wrote (each value as JSON gives it back); None where that is not sure (a column
    besides its count, a new count's entries cleared earlier), and the game is read again.

    Its answer and this process's screens then need no read of the game they have just written.
    """
    game, writes = write.locked, write.writes
    version = game.version + 1
    columns = {**write.columns, "version": version}
    if not columns.keys() <= _FOLLOWED_COLUMNS:
        return None
    secrets_by_key = {(s.play, s.name, s.seat): s for s in game.secrets}
    for play, name, seat in writes.forgotten:
        secrets_by_key = {key: s for key, s in secrets_by_key.items()
                          if (key[0], key[1]) != (play, name) or (seat is not None and key[2] != seat)}
    for play, seat, name, value, _ in writes.secrets:
        secrets_by_key[(play, name, seat)] = games.SecretState(play, seat, name, json.loads(json.dumps(value)))
    plays = {p.number: p for p in game.plays}
    for number, values, closed, _ in writes.plays:
        plays[number] = games.PlayState(number, dict(json.loads(json.dumps(values))), closed)
    old = game.count
    count_play = columns.get("count_play", old.play if old else None)
    count_name = columns.get("count_name", old.name if old else None)
    reveal_at = columns.get("reveal_at", old.reveal_at if old else None)
    count = None if count_name is None or count_play is None else games.Count(count_play, count_name, reveal_at)
    cleared = game.cleared
    if count is None or count.reveal_at is not None:
        cleared = frozenset()
    elif old is None or (old.play, old.name) != (count.play, count.name) or old.reveal_at is not None:
        # Entries cleared earlier for these are in the event log: read it.
        return None
    finished_at = writes.finished[0] if writes.finished is not None else game.finished_at
    return replace(game, version=version, plays=tuple(plays[n] for n in sorted(plays)),
                   secrets=tuple(secrets_by_key[key] for key in sorted(secrets_by_key)), count=count,
                   cleared=cleared, finished_at=finished_at)


def _apply(write: Write, applied: kinds.Applied) -> None:
    """Add to the change under way what a game's decision says of its plays, its entries shown already, the secrets
    collected next and the game's end (`rows.store` writes them)."""
    game, number = write.locked, applied.play
    values = applied.closed if applied.closed is not None else applied.draft
    if number is None:
        assert values is None and not applied.shown and applied.opens is None, "a change of a play names it"
    else:
        for seat, name, value in applied.shown:
            write.writes.secrets.append((number, seat, name, value, seat not in write.entered(number, name)))
        if values is not None:
            stored = any(p.number == number for p in game.plays)
            write.writes.plays.append((number, values, applied.closed is not None, not stored))
        if applied.opens is not None:
            write.writes.plays.append((number + 1, applied.opens, False, True))
    if applied.collects is not None:
        collect_secrets(write, *applied.collects, forget=applied.forget)
    if applied.summary is not None:
        # What its crew's statistics read.
        write.writes.finished = (game.finished_at or utcnow(), applied.summary)


def by_rules(change: Mapping[str, Any], drawn_for: int | None = None) -> Decision:
    """A tap on the one screen the table draws for a game (`PlayedRules`), as its decision: the rules say what it
    does to the play open now; a play that closes ends the game, or the next collects its secret entries.

    `drawn_for`: the number of the round the screen showed; a tap that arrives after it closed
    (a late or repeated tap) changes nothing rather than land in the next one.
    """
    def decide(game: games.GameState, actor: Actor) -> kinds.Applied:
        kind = kinds.kind_of(game)
        rules = kind.played_rules
        if rules is None:
            raise not_found(game.public_id)
        setup, (closed, draft) = kind.setup_of(game), kinds.plays_of(rules, game)
        number = len(closed) + 1
        if drawn_for is not None and drawn_for != number:
            return kinds.STALE
        # The rules see the secret entries as the acting browser may (`games.as_seen_by`).
        secrets = games.secrets_seen_by(game, actor.seat, number)
        applied = rules.apply(setup, closed, draft, actor, change, secrets)
        stored = replace(applied.stored_with(rules.PLAY, rules.DRAFT), play=number)
        if applied.closed is None:
            return stored
        played = [*closed, applied.closed]
        if rules.finished(setup, played):
            return replace(stored, summary=rules.summary(setup, played))
        return replace(stored, collects=(number + 1, kind.SECRETS[0])) if kind.SECRETS else stored
    return decide


@once
def rematch(public_id: str, credentials: Credentials) -> Outcome:
    """The host starts the same game again with the same players (in Skull King the next player deals first)."""
    game = locked(public_id, credentials).locked
    if not identify(game, credentials).is_host:
        raise deny()
    kind = kinds.kind_of(game)
    setup = kind.rematch(kind.setup_of(game))
    _rollback()
    return create(kind, setup, credentials=credentials, after=public_id)


# --- the games list -------------------------------------------------------------------

# How long a deleted game can be brought back; after that it is removed for good.
UNDO_SECONDS = 600


@once
def delete_game(public_id: str, credentials: Credentials) -> Outcome:
    """The host deletes a finished game: gone from every page and statistic, undone within a short time."""
    write = locked(public_id, credentials)
    game = write.locked
    if not identify(game, credentials).is_host:
        raise deny()
    if game.finished_at is None:
        return refuse(game, Problem(N_("Only a finished game can be deleted.")))
    write.set_columns(deleted_at=utcnow())
    # Removed for good with everything that is theirs (the database's cascades).
    db.session.execute(delete(Game).where(Game.deleted_at < utcnow() - timedelta(seconds=UNDO_SECONDS)))
    return commit(write, "delete")


@once
def restore_game(public_id: str, credentials: Credentials) -> Outcome:
    """The host takes back a deletion, while it can still be undone."""
    write = locked(public_id, credentials, deleted=True)
    game = write.locked
    if game.deleted_at is None or game.deleted_at < utcnow() - timedelta(seconds=UNDO_SECONDS):
        raise not_found(public_id)
    if not identify(game, credentials).is_host:
        raise deny()
    write.set_columns(deleted_at=None)
    return commit(write, "restore")


# --- seats ----------------------------------------------------------------------------


def count_try(buckets: Mapping[str, int]) -> None:
    """Count one try in each bucket (what is limited, for whom); TooManyTries if any is past its limit a minute.

    Used for typed join codes (guessing), new games and imports (their cost).
    """
    begin_write()
    since = utcnow() - timedelta(minutes=1)
    for bucket, limit in buckets.items():
        recent = db.session.scalar(select(func.count()).select_from(LimitedTry).where(
            LimitedTry.bucket == bucket[:64], LimitedTry.at > since)) or 0
        if recent >= limit:
            db.session.rollback()
            raise TooManyTries()
    db.session.execute(delete(LimitedTry).where(LimitedTry.at < since))
    db.session.add_all(LimitedTry(bucket=bucket[:64]) for bucket in buckets)
    db.session.commit()


def find_by_join_code(buckets: Mapping[str, int], code: str) -> str | None:
    """The game in play that a typed join code opens, or None; TooManyTries when guessed too fast."""
    count_try(buckets)
    game = games.find_game_by_code(code) if code else None
    return game.public_id if game else None


def seat_at(seats: Sequence[SeatOf], position: int | None) -> SeatOf | None:
    """The seat at `position`, or None for no such seat."""
    return seats[position] if position is not None and 0 <= position < len(seats) else None


def _already_seated(game: games.GameState, actor: Actor) -> Outcome | None:
    """A browser holds one seat at most, and the host none (it enters for the players without a phone)."""
    if actor.is_host:
        return refuse(game, Problem(N_("You host this game: enter the bids and results of the players "
                                       "without a phone on your own screen.")))
    if actor.seat is not None:
        return refuse(game, Problem(N_("This phone already plays %(names)s in this game."),
                                    players=(game.seats[actor.seat].name,)))
    return None


@once
def join(public_id: str, credentials: Credentials, position: int | None) -> Outcome:
    """Claim a free seat for this phone; the secret is the seat's, kept by the phone."""
    write = locked(public_id, credentials)
    game = write.locked
    seat = seat_at(game.seats, position)
    if seat is None:
        return refuse(game, Problem(N_("Pick your name from the list.")))
    seated = _already_seated(game, identify(game, credentials))
    if seated is not None:
        return seated
    if seat.token_hash is not None:
        return refuse(game, Problem(
            N_("%(names)s already plays on another phone. Ask the host to let this phone in instead."),
            players=(seat.name,)))
    token = secrets.token_urlsafe(32)
    rows.set_seat(game.id, seat.position, token_hash(token))
    _drop_requests(game, credentials)
    kind, number = _forget_secret(write, seat.position)
    return commit(write, kind, number, secret=token)


# A host's card lists this many phones asking for one seat at most: a flood of strangers stops there.
OPEN_REQUESTS_PER_SEAT = 4


def _asking(credentials: Credentials) -> str | None:
    """What is stored of the secret this browser asked for a seat with, if it asked."""
    return token_hash(credentials.asking_token) if credentials.asking_token else None


def _drop_requests(game: games.GameState, credentials: Credentials) -> None:
    """Forget what this browser asked for (it has a seat now, or asks anew)."""
    digest = _asking(credentials)
    rows.drop_requests([r.id for r in game.requests if r.token_hash == digest])


@once
def ask_for_seat(public_id: str, credentials: Credentials, position: int | None,
                 buckets: Mapping[str, int]) -> Outcome:
    """A new phone asks for a seat another phone holds (that one lost or flat); the host lets it in.

    The secret is the new phone's, kept by it; it plays the seat once the host picks it by the
    short code it shows. One open request per browser (asking again replaces it); a few per seat;
    a few a minute per browser and address (`buckets`), or TooManyTries.
    """
    count_try(buckets)
    write = locked(public_id, credentials)
    game = write.locked
    seat = seat_at(game.seats, position)
    if seat is None:
        return refuse(game, Problem(N_("Pick your name from the list.")))
    if identify(game, credentials).role != Role.VIEWER:
        # The host, or a phone that already has a seat, is not a new phone.
        raise deny()
    if seat.token_hash is None:
        return refuse(game, Problem(N_("%(names)s is free now: take the seat."), players=(seat.name,)))
    digest = _asking(credentials)
    waiting = [r for r in game.requests if r.position == seat.position and not r.turned_away
               and r.token_hash != digest]
    if len(waiting) >= OPEN_REQUESTS_PER_SEAT:
        return refuse(game, Problem(N_("Too many phones are asking for the seat of %(names)s. "
                                       "Ask the host to answer them first."), players=(seat.name,)))
    _drop_requests(game, credentials)
    token = secrets.token_urlsafe(32)
    taken = {r.code for r in waiting}
    code = next(c for c in iter(lambda: f"{secrets.randbelow(90) + 10}", None) if c not in taken)
    rows.add_request(game.id, seat.position, token_hash(token), code)
    return commit(write, "ask", secret=token)


def _request_for_host(game: games.GameState, credentials: Credentials, request_id: int) -> games.RequestState | None:
    """The open request the host answers; None if answered already (another tap, another screen)."""
    if not identify(game, credentials).is_host:
        raise deny()
    return next((r for r in game.requests if r.id == request_id and not r.turned_away), None)


@once
def let_in(public_id: str, credentials: Credentials, request_id: int) -> Outcome:
    """The host lets in the one asking phone whose code they picked; the old phone loses the seat,
    and the other phones asking for it are turned away (and told)."""
    write = locked(public_id, credentials)
    game = write.locked
    request = _request_for_host(game, credentials, request_id)
    if request is None:
        return stale(game)
    rows.set_seat(game.id, request.position, request.token_hash)
    rows.drop_requests([request.id])
    rows.turn_away([r.id for r in game.requests if r.position == request.position and r.id != request.id])
    kind, number = _forget_secret(write, request.position)
    return commit(write, kind, number)


@once
def turn_away(public_id: str, credentials: Credentials, request_id: int) -> Outcome:
    """The host says no to a phone asking for a seat (a mistaken name, a stranger with the link); it is told."""
    write = locked(public_id, credentials)
    game = write.locked
    request = _request_for_host(game, credentials, request_id)
    if request is None:
        return stale(game)
    rows.turn_away([request.id])
    return commit(write, "seat")


@once
def free_seat(public_id: str, credentials: Credentials, position: int) -> Outcome:
    """The host frees a seat, so another phone (or the host) can play it."""
    write = locked(public_id, credentials)
    game = write.locked
    if not identify(game, credentials).is_host:
        raise deny()
    if seat_at(game.seats, position) is None:
        raise not_found(position)
    rows.set_seat(game.id, position, None)
    kind, number = _forget_secret(write, position)
    return commit(write, kind, number)


__all__ = ["Actor", "Credentials", "NotAllowed", "NotFound", "Outcome", "TooManyTries", "once",
           "MOVED_ON", "Decision", "ask_for_seat", "by_rules", "collect_secrets", "commit", "refusal",
           "count_try",
           "create", "deny", "enter_secret", "locked",
           "Write", "not_found", "refuse", "seat_at", "stale",
           "delete_game", "find_by_join_code", "free_seat", "join", "let_in",
           "play", "rematch", "restore_game", "turn_away"]
