"""Every change a table can make, one function each.

Each function takes plain values and the acting browser's credentials, checks access and
the rules, changes the records, bumps the game's version and logs the event, all in one
transaction; it answers with an `Outcome` (what happened, or the problems, with nothing
stored) or raises `NotFound` / `NotAllowed`. Nothing else in the app writes a game.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, func, select

from . import games, kinds, rows
from .access import Actor, Credentials, Role, identify, token_hash
from .extensions import begin_write, db
from .live import CHANGES, CHANNEL
from .models import (
    Game,
    JoinAttempt,
    Phase,
    Play,
    Seat,
    SeatRequest,
    new_join_code,
    new_public_id,
    utcnow,
)
from .problems import N_, Problem

# A seat as stored, or as the pages read it.
SeatOf = TypeVar("SeatOf")


class NotFound(LookupError):
    """No such game or hand."""


class NotAllowed(PermissionError):
    """The acting browser may not make this change."""


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

    @property
    def ok(self) -> bool:
        """Whether the change was stored."""
        return not self.problems


LOCKED_AT = "locked_at"


def _locked(public_id: str) -> Game:
    """The game, locked for writing until this transaction ends, or NotFound.

    Its hands' phases are fixed by the deciding clock read under the lock, so a count that has
    ended for any screen has ended for this change too (see "the end of a count" in games.py).
    """
    begin_write()
    game = games.find_game(public_id, for_update=True)
    if game is None:
        db.session.rollback()
        raise NotFound(public_id)
    now = db.session.info[LOCKED_AT] = games.locked_now(db.session.connection())
    for record in game.hands:
        record.see_at(now)
    return game


def _locked_values(public_id: str) -> games.GameState:
    """The game as plain values, its row locked for writing until this transaction ends, or NotFound.

    For the changes made most often: no record of the game is loaded, and their hands' phases
    stand by the deciding clock read under the lock, as `_locked`'s do.
    """
    begin_write()
    found = rows.lock(public_id)
    # Under the lock the version cannot move, so the game kept (or read) for it is the game.
    game = games.kept_or_read(*found) if found is not None else None
    if game is None:
        db.session.rollback()
        raise NotFound(public_id)
    now = db.session.info[LOCKED_AT] = games.locked_now(db.session.connection())
    return game.at(now)


def _lock_time() -> datetime:
    """When the lock of the change under way was granted, by the deciding clock."""
    return db.session.info[LOCKED_AT]


def count_when_all_in(all_in: bool, waiting: Phase, counting: Phase,
                      count_seconds: float) -> tuple[Phase, datetime | None]:
    """Secrets revealed together, for any kind whose entries are secret until every seat's is in: then the
    YO-HO-HO count starts (again, after any change, from the lock's moment) and they show when it ends, by the
    clock of `games.as_it_stands`. The phase and the count's end to store."""
    if all_in:
        return counting, _lock_time() + timedelta(seconds=count_seconds)
    return waiting, None


def _hand(game: Any, number: int) -> Any:
    if not 1 <= number <= len(game.hands):
        db.session.rollback()
        raise NotFound(number)
    return game.hands[number - 1]


def _refuse(game: games.AnyGame, *problems: Problem) -> Outcome:
    db.session.rollback()
    return Outcome(game.public_id, problems=problems)


def _deny() -> NotAllowed:
    db.session.rollback()
    return NotAllowed()


def _stale(game: games.AnyGame) -> Outcome:
    db.session.rollback()
    return Outcome(game.public_id, stale=True)


def _commit(game: Game, kind: str, hand: int | None = None, secret: str | None = None) -> Outcome:
    """Log one change of `game`, so every screen follows, and store it."""
    _log(game, kind, hand)
    # A finished game keeps what its crew's statistics read, up to date with every correction.
    game.summary = games.summary_of(game)
    public_id = game.public_id  # read now: after the commit it would be loaded again
    db.session.commit()
    return Outcome(public_id, secret=secret)


def _commit_values(game: games.GameState, kind: str, hand: int | None = None) -> Outcome:
    """Log one change of a game locked by `_locked_values` (its rows written already), and store it."""
    version = game.version + 1
    rows.bump(game.id, version)
    _announce(game.id, version, kind, hand)
    db.session.commit()
    return Outcome(game.public_id)


def _log(game: Game, kind: str, hand: int | None = None) -> None:
    """Bump `game`'s version and log the event, announced to every process once the transaction commits."""
    game.version = (game.version or 0) + 1
    if game.id is None:
        db.session.flush()
    _announce(game.id, game.version, kind, hand)


def _announce(game_id: int, version: int, kind: str, hand: int | None) -> None:
    """Log that a game reached `version`, so that every screen follows once the transaction commits."""
    rows.log(game_id, version, kind, hand)
    if db.session.get_bind().dialect.name == "postgresql":
        # Delivered when the transaction commits, to every process that listens (see live.py).
        db.session.execute(select(func.pg_notify(CHANNEL, f"{game_id}:{version}")))
    # Streams in this process hear of it once it commits (see live.py); others by NOTIFY or the log.
    db.session.info.setdefault(CHANGES, []).append((game_id, version))


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
        raise _deny()
    return earlier


def _follow(earlier: Game | None, game: Game) -> None:
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
    _log(earlier, "next-game")


def create(kind: kinds.GameKind, setup: Any, plays: Sequence[Any] = (), credentials: Credentials | None = None,
           after: str | None = None) -> Outcome:
    """Start a game of any kind from a checked setup, resuming after `plays` (an imported pad's); the secret is
    the host's token.

    `after`: an earlier game whose players these are, which joins the new game to its crew
    (for their statistics); its host alone may say so.
    """
    begin_write()
    earlier = _earlier(credentials, after)
    players, columns = kind.columns(setup)
    game = _seated_game(players, earlier.crew if earlier else None, kind=kind.NAME, **columns)
    _follow(earlier, game)
    kind.start(game, setup, plays)
    if kind.finished(setup, plays):
        game.finished_at = game.finished_at or utcnow()
    return _commit(game, "import" if plays else "create", secret=game.host_token)


def play(public_id: str, credentials: Credentials, change: Mapping[str, Any], drawn_for: int | None = None) -> Outcome:
    """A change to a game of another kind (a tap on its screen): the kind's rules say what it does.

    `drawn_for`: the number of the game or round the screen showed; a tap that arrives after it
    closed (a late or repeated tap) changes nothing rather than land in the next one.
    """
    game = _locked(public_id)
    found = kinds.stored(game)
    if found is None:
        db.session.rollback()
        raise NotFound(public_id)
    kind, setup, closed, open_play = found.rules, found.setup, found.closed, found.open_play
    if drawn_for is not None and drawn_for != len(closed) + 1:
        return _stale(game)
    actor = identify(game, credentials)
    applied = kind.apply(setup, closed, found.draft, kinds.Player(actor.seat, actor.is_host), change)
    if applied.denied:
        raise _deny()
    if applied.problems:
        return _refuse(game, *applied.problems)
    entries = applied.closed if applied.closed is not None else applied.draft
    if open_play is None:
        open_play = Play(number=len(closed) + 1)
        game.plays.append(open_play)
    open_play.data = entries
    open_play.closed = applied.closed is not None
    if applied.closed is not None and kind.finished(setup, [*closed, applied.closed]):
        game.finished_at = utcnow()
    return _commit(game, "play", open_play.number)


def rematch(public_id: str, credentials: Credentials) -> Outcome:
    """The host starts the same game again with the same players (in Skull King the next player deals first)."""
    game = _locked(public_id)
    if not identify(game, credentials).is_host:
        raise _deny()
    kind = kinds.kind_of(game)
    setup = kind.rematch(kind.setup_of(game))
    db.session.rollback()
    return create(kind, setup, credentials=credentials, after=public_id)


# --- the games list -------------------------------------------------------------------

# How long a deleted game can be brought back; after that it is removed for good.
UNDO_SECONDS = 600


def delete_game(public_id: str, credentials: Credentials) -> Outcome:
    """The host deletes a finished game: gone from every page and statistic, undone within a short time."""
    game = _locked(public_id)
    if not identify(game, credentials).is_host:
        raise _deny()
    if game.finished_at is None:
        return _refuse(game, Problem(N_("Only a finished game can be deleted.")))
    game.deleted_at = utcnow()
    _remove_deleted_long_ago()
    return _commit(game, "delete")


def restore_game(public_id: str, credentials: Credentials) -> Outcome:
    """The host takes back a deletion, while it can still be undone."""
    begin_write()
    game = games.find_game(public_id, for_update=True, deleted=True)
    if game is None or game.deleted_at is None or game.deleted_at < utcnow() - timedelta(seconds=UNDO_SECONDS):
        db.session.rollback()
        raise NotFound(public_id)
    if not identify(game, credentials).is_host:
        raise _deny()
    game.deleted_at = None
    return _commit(game, "restore")


def _remove_deleted_long_ago() -> None:
    """Remove for good the games deleted longer ago than they can be undone (with their hands and seats)."""
    since = utcnow() - timedelta(seconds=UNDO_SECONDS)
    for old in db.session.scalars(select(Game).where(Game.deleted_at < since)):
        db.session.delete(old)


# --- seats ----------------------------------------------------------------------------


def count_try(buckets: Mapping[str, int]) -> None:
    """Count one try in each bucket (what is limited, for whom); TooManyTries if any is past its limit a minute.

    Used for typed join codes (guessing), new games and imports (their cost).
    """
    begin_write()
    since = utcnow() - timedelta(minutes=1)
    for bucket, limit in buckets.items():
        recent = db.session.scalar(select(func.count()).select_from(JoinAttempt).where(
            JoinAttempt.address == bucket[:64], JoinAttempt.at > since)) or 0
        if recent >= limit:
            db.session.rollback()
            raise TooManyTries()
    db.session.execute(delete(JoinAttempt).where(JoinAttempt.at < since))
    db.session.add_all(JoinAttempt(address=bucket[:64]) for bucket in buckets)
    db.session.commit()


def find_by_join_code(buckets: Mapping[str, int], code: str) -> str | None:
    """The game in play that a typed join code opens, or None; TooManyTries when guessed too fast."""
    count_try(buckets)
    game = games.find_game_by_code(code) if code else None
    return game.public_id if game else None


def _seat_at(seats: Sequence[SeatOf], position: int | None) -> SeatOf | None:
    return seats[position] if position is not None and 0 <= position < len(seats) else None


def _already_seated(game: Game, actor: Actor) -> Outcome | None:
    """A browser holds one seat at most, and the host none (it enters for the players without a phone)."""
    if actor.is_host:
        return _refuse(game, Problem(N_("You host this game: enter the bids and results of the players "
                                        "without a phone on your own screen.")))
    if actor.seat is not None:
        return _refuse(game, Problem(N_("This phone already plays %(names)s in this game."),
                                     players=(game.seats[actor.seat].name,)))
    return None


def join(public_id: str, credentials: Credentials, position: int | None) -> Outcome:
    """Claim a free seat for this phone; the secret is the seat's, kept by the phone."""
    game = _locked(public_id)
    seat = _seat_at(game.seats, position)
    if seat is None:
        return _refuse(game, Problem(N_("Pick your name from the list.")))
    seated = _already_seated(game, identify(game, credentials))
    if seated is not None:
        return seated
    if seat.token_hash is not None:
        return _refuse(game, Problem(
            N_("%(names)s already plays on another phone. Ask the host to let this phone in instead."),
            players=(seat.name,)))
    token = secrets.token_urlsafe(32)
    seat.token_hash = token_hash(token)
    _drop_requests(game, credentials)
    kind, number = kinds.kind_of(game).forget_secrets(game, seat.position)
    return _commit(game, kind, number, secret=token)


# A host's card lists this many phones asking for one seat at most: a flood of strangers stops there.
OPEN_REQUESTS_PER_SEAT = 4


def _drop_requests(game: Game, credentials: Credentials) -> None:
    """Forget what this browser asked for (it has a seat now, or asks anew)."""
    digest = token_hash(credentials.asking_token) if credentials.asking_token else None
    for request in [r for r in game.requests if r.token_hash == digest]:
        game.requests.remove(request)


def ask_for_seat(public_id: str, credentials: Credentials, position: int | None,
                 buckets: Mapping[str, int]) -> Outcome:
    """A new phone asks for a seat another phone holds (that one lost or flat); the host lets it in.

    The secret is the new phone's, kept by it; it plays the seat once the host picks it by the
    short code it shows. One open request per browser (asking again replaces it); a few per seat;
    a few a minute per browser and address (`buckets`), or TooManyTries.
    """
    count_try(buckets)
    game = _locked(public_id)
    seat = _seat_at(game.seats, position)
    if seat is None:
        return _refuse(game, Problem(N_("Pick your name from the list.")))
    if identify(game, credentials).role != Role.VIEWER:
        # The host, or a phone that already has a seat, is not a new phone.
        raise _deny()
    if seat.token_hash is None:
        return _refuse(game, Problem(N_("%(names)s is free now: take the seat."), players=(seat.name,)))
    _drop_requests(game, credentials)
    waiting = [r for r in game.requests if r.position == seat.position and not r.turned_away]
    if len(waiting) >= OPEN_REQUESTS_PER_SEAT:
        return _refuse(game, Problem(N_("Too many phones are asking for the seat of %(names)s. "
                                        "Ask the host to answer them first."), players=(seat.name,)))
    token = secrets.token_urlsafe(32)
    taken = {r.code for r in waiting}
    code = next(c for c in iter(lambda: f"{secrets.randbelow(90) + 10}", None) if c not in taken)
    game.requests.append(SeatRequest(position=seat.position, token_hash=token_hash(token), code=code))
    return _commit(game, "ask", secret=token)


def _request_for_host(game: Game, credentials: Credentials, request_id: int) -> SeatRequest | None:
    """The open request the host answers; None if answered already (another tap, another screen)."""
    if not identify(game, credentials).is_host:
        raise _deny()
    return next((r for r in game.requests if r.id == request_id and not r.turned_away), None)


def let_in(public_id: str, credentials: Credentials, request_id: int) -> Outcome:
    """The host lets in the one asking phone whose code they picked; the old phone loses the seat,
    and the other phones asking for it are turned away (and told)."""
    game = _locked(public_id)
    request = _request_for_host(game, credentials, request_id)
    if request is None:
        return _stale(game)
    seat = game.seats[request.position]
    seat.token_hash = request.token_hash
    game.requests.remove(request)
    for other in game.requests:
        if other.position == request.position:
            other.turned_away = True
    kind, number = kinds.kind_of(game).forget_secrets(game, request.position)
    return _commit(game, kind, number)


def turn_away(public_id: str, credentials: Credentials, request_id: int) -> Outcome:
    """The host says no to a phone asking for a seat (a mistaken name, a stranger with the link); it is told."""
    game = _locked(public_id)
    request = _request_for_host(game, credentials, request_id)
    if request is None:
        return _stale(game)
    request.turned_away = True
    return _commit(game, "seat")


def _seat_for_host(game: Game, credentials: Credentials, position: int) -> Seat:
    if not identify(game, credentials).is_host:
        raise _deny()
    seat = _seat_at(game.seats, position)
    if seat is None:
        db.session.rollback()
        raise NotFound(position)
    return seat


def free_seat(public_id: str, credentials: Credentials, position: int) -> Outcome:
    """The host frees a seat, so another phone (or the host) can play it."""
    game = _locked(public_id)
    seat = _seat_for_host(game, credentials, position)
    seat.token_hash = None
    kind, number = kinds.kind_of(game).forget_secrets(game, position)
    return _commit(game, kind, number)


__all__ = ["Actor", "Credentials", "NotAllowed", "NotFound", "Outcome", "TooManyTries",
           "ask_for_seat", "count_try", "count_when_all_in", "create",
           "delete_game", "find_by_join_code", "free_seat", "join", "let_in",
           "play", "rematch", "restore_game", "turn_away"]
