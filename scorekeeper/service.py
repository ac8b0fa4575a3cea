"""Every change a table can make, one function each.

Each function takes plain values and the acting browser's credentials, checks access and
the rules, changes the records, bumps the game's version and logs the event, all in one
transaction; it answers with an `Outcome` (what happened, or the problems, with nothing
stored) or raises `NotFound` / `NotAllowed`. Nothing else in the app writes a game.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import delete, func, select

from . import games, rows, shelf
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
from .shelf.skullking import hands, rules, tricks
from .shelf.skullking.forms import EntryReport
from .shelf.skullking.rules import N_, Entry, Hand, Problem, Table

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


class Intent(StrEnum):
    """What a screen means by a results request."""

    TRICK = "trick"  # "I won a trick": one more for this phone
    MADE = "made"  # made the bid: the tricks are the bid, the rest as the form says
    DRAFT = "draft"  # saved as typed, not complete yet
    DONE = "done"  # this phone's result is complete
    CHANGE = "change"  # not complete after all: the phone changes it
    SCORE = "score"  # the host closes the hand
    LOST_MORE = "lost-more"  # one more trick nobody won (Kraken, White Whale, ghost)
    LOST_LESS = "lost-less"  # one fewer: a tap taken back


@dataclass(frozen=True)
class Results:
    """The results a screen reports for a hand in play: a phone its own, the host anyone's."""

    intent: Intent
    reports: Mapping[int, EntryReport]
    lost_tricks: int | None = None


# --- the transaction ------------------------------------------------------------------


# Where a change keeps the moment its lock was granted, by the clock that ends the counts.
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


def create(kind: shelf.GameKind, setup: Any, plays: Sequence[Any] = (), credentials: Credentials | None = None,
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
    found = shelf.stored(game)
    if found is None:
        db.session.rollback()
        raise NotFound(public_id)
    kind, setup, closed, open_play = found.rules, found.setup, found.closed, found.open_play
    if drawn_for is not None and drawn_for != len(closed) + 1:
        return _stale(game)
    actor = identify(game, credentials)
    applied = kind.apply(setup, closed, found.draft, shelf.Player(actor.seat, actor.is_host), change)
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
    kind = shelf.kind_of(game)
    setup = kind.rematch(kind.setup_of(game))
    db.session.rollback()
    return create(kind, setup, credentials=credentials, after=public_id)


def _close_hand(game: games.GameState, table: Table, before: games.HandState, after: games.HandState) -> Outcome:
    """Store a scored hand and open the next one, or finish the game if none is left."""
    after = replace(after, stored_phase=Phase.SCORED, phase=Phase.SCORED)
    rows.write_hand(before, after)
    number = len(game.hands) + 1
    cards = hands.cards_of_hand(table, number)
    if cards is None:
        finished_at = game.finished_at or utcnow()
        finished = replace(game, finished_at=finished_at,
                           hands=tuple(after if h.number == after.number else h for h in game.hands))
        # What the crew's statistics read, from the game as it now stands.
        rows.finish(game.id, finished_at, games.summary_of(finished))
    else:
        rows.open_hand(game.id, number, cards, table.options.cannonball, len(game.seats))
    return _commit_values(game, "score", after.number)


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


def _forget_hidden_bid(game: Game, position: int) -> tuple[str, int | None]:
    """A seat changing hands loses its secrets: a bid (or a cannon's load) belongs to the phone that made it.

    Returns the kind of event to log, and its hand: a cleared bid is logged as such, so the
    table can see who must bid again (that a player was ready is no secret).
    """
    record = games.current_hand(game)
    if record is None:
        return "seat", None
    entry = record.entries[position]
    if record.phase.loads_secret and not record.phase.is_secret and entry.shot is not None:
        entry.shot = None
        if record.phase == Phase.FIRING:
            record.reveal_at = None
            record.stored_phase = Phase.LOADING
        return "seat", record.number
    if not record.phase.is_secret or entry.bid is None:
        return "seat", None
    entry.bid = None
    if record.phase == Phase.COUNTING:
        record.reveal_at = None
        record.stored_phase = Phase.BIDDING
    return f"{games.BID_CLEARED}{position}", record.number


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
    kind, number = _forget_hidden_bid(game, seat.position)
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
    kind, number = _forget_hidden_bid(game, request.position)
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
    kind, number = _forget_hidden_bid(game, position)
    return _commit(game, kind, number)


# --- bids -----------------------------------------------------------------------------


def _entering_for(game: games.AnyGame, actor: Actor, seat: int | None) -> int | None:
    """The seat this browser enters for (a bid, a load, a claimed trick): a phone its own, the host one
    without a phone; None for no such seat."""
    if actor.role == Role.VIEWER:
        raise _deny()
    if actor.role == Role.SEAT:
        if seat is not None and seat != actor.seat:
            raise _deny()
        return actor.seat
    seats: Sequence[Seat | games.SeatState] = game.seats
    target = _seat_at(seats, seat)
    if target is not None and target.token_hash is not None:
        # The host enters for players without a phone only: a phone's bid, load or trick is its own.
        raise _deny()
    return target.position if target is not None else None


def _count_when_all_in(all_in: bool, waiting: Phase, counting: Phase,
                       count_seconds: float) -> tuple[Phase, datetime | None]:
    """Secrets revealed together: once every seat's is in, YO-HO-HO counts (again, after any change)
    and they show when it ends, by the clock of `games.as_it_stands`. The hand's phase and the
    count's end to store."""
    if all_in:
        return counting, _lock_time() + timedelta(seconds=count_seconds)
    return waiting, None


def place_bid(public_id: str, credentials: Credentials, number: int, seat: int | None, bid: int | None,
              count_seconds: float) -> Outcome:
    """A secret bid: a phone for its own seat, the host for a seat with no phone.

    When every seat is ready the YO-HO-HO count starts. Every bid during the count starts
    it again and moves the version by one, whatever the value, so nothing another screen
    can see depends on a hidden bid. Once the count has ended, a bid is refused.
    """
    game = _locked_values(public_id)
    actor = identify(game, credentials)
    record = _hand(game, number)
    seat = _entering_for(game, actor, seat)
    if not record.phase.is_secret:
        return _refuse(game, Problem(N_("The bids of this hand are already revealed."), hand=number))
    if seat is None:
        return _refuse(game, Problem(N_("Pick a player to bid for."), hand=number))
    if bid is None or not 0 <= bid <= record.cards:
        return _refuse(game, Problem(N_("%(names)s: a bid is 0 to %(cards)d."), {"cards": record.cards},
                                     number, (game.seats[seat].name,)))
    entries = tuple(replace(e, bid=bid, ready=True) if e.position == seat else e for e in record.entries)
    counting = all(e.bid is not None for e in entries)
    phase, reveal_at = _count_when_all_in(counting, Phase.BIDDING, Phase.COUNTING, count_seconds)
    if counting:
        # Ready for the results the moment the count ends, with no write needed then.
        entries = tuple(replace(e, tricks=None, shot=None, loaded=False, done=False, fixing=False) for e in entries)
    rows.write_hand(record, replace(record, entries=entries, stored_phase=phase, reveal_at=reveal_at))
    # The kind stays in the log (no screen is sent it): the version alone moves, by one either way.
    return _commit_values(game, "count" if counting else "bid", number)


def load_cannon(public_id: str, credentials: Credentials, number: int, seat: int | None, shot: str | None,
                count_seconds: float) -> Outcome:
    """A secret load, with the cannonball rule: grapeshot or cannonball, once the bids are revealed.

    A phone loads its own cannon, the host those of players without a phone. The others see
    only that it is loaded; when all are, a second YO-HO-HO, then all loads show at once, and
    stay as they are. As with bids, every load moves the version by one, whatever it is.
    """
    game = _locked(public_id)
    actor = identify(game, credentials)
    record = _hand(game, number)
    seat = _entering_for(game, actor, seat)
    if not record.cannons:
        return _refuse(game, Problem(N_("Grapeshot and cannonball need Rascal's scoring with the cannonball "
                                        "option."), hand=number))
    if record.phase.is_secret:
        return _refuse(game, Problem(N_("The cannons are loaded once the bids are revealed."), hand=number))
    if not record.phase.loads_secret:
        return _refuse(game, Problem(N_("The loads of this hand are already revealed."), hand=number))
    if seat is None:
        return _refuse(game, Problem(N_("Pick a player to load for."), hand=number))
    if shot not in rules.SHOTS:
        return _refuse(game, Problem(N_("%(names)s: load grapeshot or cannonball."), hand=number,
                                     players=(game.seats[seat].name,)))
    record.entries[seat].shot = shot
    firing = all(e.shot is not None for e in record.entries)
    record.stored_phase, record.reveal_at = _count_when_all_in(firing, Phase.LOADING, Phase.FIRING, count_seconds)
    return _commit(game, "fire" if firing else "load", number)


def change_cards(public_id: str, credentials: Credentials, number: int, cards: int | None) -> Outcome:
    """The host changes the cards dealt in a hand still being bid (a house rule); everyone bids again."""
    game = _locked(public_id)
    if not identify(game, credentials).is_host:
        raise _deny()
    record = _hand(game, number)
    table = games.table_of(game)
    cap = rules.max_cards(table.ruleset, len(table.players))
    if not record.phase.is_secret:
        return _refuse(game, Problem(N_("The cards can only change before the bids are revealed."), hand=number))
    if cards is None or not 1 <= cards <= cap:
        return _refuse(game, Problem(
            N_("%(cards)s cards cannot be dealt: with %(count)d players each gets 1 to %(cap)d cards."),
            {"cards": "" if cards is None else cards, "count": len(table.players), "cap": cap}, number))
    record.cards = cards
    record.reveal_at = None
    record.stored_phase = Phase.BIDDING
    # A new deal means new cards: everyone bids again. (Clearing only the bids that no
    # longer fit would tell the table which players had bid high.)
    for entry in record.entries:
        entry.bid = None
    return _commit(game, "cards", number)


# --- results --------------------------------------------------------------------------


# A step of the tricks nobody won: counted on the stored total, so two phones never overwrite each other.
LOST_STEPS = {Intent.LOST_MORE: 1, Intent.LOST_LESS: -1}


def _lost_tricks(results: Results, stored: int) -> int:
    """The tricks nobody won after this request: a step, a total given (the host's form), or as stored."""
    if results.intent in LOST_STEPS:
        return stored + LOST_STEPS[results.intent]
    return stored if results.lost_tricks is None else results.lost_tricks


def _own_entry(results: Results, stored: Entry, revealed_bid: int) -> Entry | None:
    """A phone's entry after its request; None when a form's fields are missing."""
    if results.intent == Intent.TRICK:
        return replace(stored, tricks=(stored.tricks or 0) + 1)
    if results.intent in LOST_STEPS or results.intent == Intent.CHANGE:
        return stored
    report = next(iter(results.reports.values()), None)
    if results.intent == Intent.MADE:
        # Made the bid: the tricks are the bid (Harry's change included), the captures as the card shows them.
        entry = report.entry(stored.player, revealed_bid) if report else stored
        return replace(entry, tricks=entry.bid)
    return report.entry(stored.player, revealed_bid) if report else None


def _refusing(problems: list[Problem], reporting: set[str], lost_changed: bool) -> list[Problem]:
    """The problems that refuse a request: those among the players it reports only, and of the
    table's lost tricks when it changed them. A clash with players who report on their own
    phones never refuses a result: it waits until all of them have entered theirs (`games.clashes`)."""
    return [p for p in problems if (p.players and set(p.players) <= reporting) or (not p.players and lost_changed)]


def _settle(game: games.GameState, record: games.HandState,
            editing: int | None) -> tuple[games.HandState, list[Problem]]:
    """After a change of results: the players of a clash that all of them have entered check theirs again.

    Their "done" is withdrawn and they are marked as fixing, so each phone shows one state
    and the table sees who is fixing what. A player who stands by their result says Done
    again; it goes back once more only when all of them did. Once a clash is settled by
    someone else's change (the other player's, a trick nobody won), a result sent back for it
    stands again as entered; the seat `editing` its result now stays open until it says Done.
    Returns the hand so settled and the clashes left.
    """
    names = [seat.name for seat in game.seats]
    seat_of = {name: position for position, name in enumerate(names)}
    entries = list(record.entries)
    concerned = {name for problem in games.find_clashes(game, record) for name in problem.players}
    for entry in record.entries:
        if entry.fixing and entry.position != editing and names[entry.position] not in concerned:
            entries[entry.position] = replace(entry, fixing=False, done=True)
    # Restored results may clash anew; a clash goes back once all its players say they are done
    # (while one of them is still fixing it, the others' results stand).
    record = replace(record, entries=tuple(entries))
    clashes = games.find_clashes(game, record)
    for problem in clashes:
        if all(entries[seat_of[name]].done for name in problem.players):
            for name in problem.players:
                entries[seat_of[name]] = replace(entries[seat_of[name]], fixing=True, done=False)
    return replace(record, entries=tuple(entries)), clashes


def _with_entered(game: games.GameState, record: games.HandState, hand: Hand) -> games.HandState:
    """The stored hand with the values of the rules' `hand` entered (the phones' done and fixing kept)."""
    positions = {s.name: s.position for s in game.seats}
    entries = list(record.entries)
    for entry in hand.entries:
        position = positions[entry.player]
        values = {**hands.entry_columns(entry, positions), "ready": entry.bid is not None,
                  "loaded": entry.shot is not None}
        values["loot_with"] = tuple(values["loot_with"])
        entries[position] = replace(entries[position], **values)
    return replace(record, cards=hand.cards, lost_tricks=hand.lost_tricks, entries=tuple(entries))


def record_results(public_id: str, credentials: Credentials, number: int, results: Results) -> Outcome:
    """Results of a hand in play, from a phone (its own) or the host (anyone's, and closing it).

    A request is held up only by the mistakes of the players it reports; clashes between
    players wait until all of them have entered their results, then go back to them. The
    hand closes when the host scores it, or by itself when every phone says its result is
    complete and all of them together pass the rules.
    """
    game = _locked_values(public_id)
    actor = identify(game, credentials)
    record = _hand(game, number)
    if actor.role == Role.VIEWER or (actor.role == Role.SEAT and results.intent == Intent.SCORE):
        raise _deny()
    if record.phase != Phase.PLAYING:
        return _stale(game)
    table = games.table_of(game)
    current = games.hand_of(game, record)
    # Every bid is in once a hand is played.
    revealed = [e.revealed_bid or 0 for e in current.entries]
    closing = actor.is_host and results.intent == Intent.SCORE
    lost = _lost_tricks(results, current.lost_tricks)
    entries = list(current.entries)
    phone = actor.seat if actor.role == Role.SEAT else None
    if phone is not None:
        own = _own_entry(results, current.entries[phone], revealed[phone])
        if own is None:
            return _stale(game)
        entries[phone] = own
        reporting = {own.player}
    else:
        for seat, report in results.reports.items():
            entries[seat] = report.entry(entries[seat].player, revealed[seat])
        reporting = {entries[seat].player for seat in results.reports}
    # The cannons' loads were revealed together and stay as they are, whatever a form says.
    hand = replace(current, entries=tuple(replace(e, shot=c.shot) for e, c in zip(entries, current.entries)),
                   lost_tricks=lost)
    if closing:
        # Closing: nothing not entered is left open (a missing count is none), and every rule applies.
        hand = replace(hand, entries=tuple(replace(e, tricks=e.tricks or 0) for e in hand.entries))
        problems = rules.validate_hand(table, number, hand)
    else:
        problems = _refusing(rules.validate_hand(table, number, hand, in_play=True), reporting,
                             lost != current.lost_tricks)
    if problems:
        return _refuse(game, *problems)
    after = _with_entered(game, record, hand)
    if phone is not None and results.intent not in LOST_STEPS:
        done = results.intent in (Intent.DONE, Intent.MADE)
        mine = after.entries[phone]
        after = _with_entry(after, replace(mine, done=done, fixing=mine.fixing and not done))
    editing = actor.seat if results.intent in (Intent.DRAFT, Intent.TRICK, Intent.CHANGE) else None
    after, clashes = (after, []) if closing else _settle(game, after, editing)
    everyone_done = all(e.done for e in after.entries) and not clashes
    if closing or (everyone_done and not rules.validate_hand(table, number, hand)):
        return _close_hand(game, table, record, after)
    rows.write_hand(record, after)
    return _commit_values(game, "result", number)


def claim_trick(public_id: str, credentials: Credentials, number: int, lead: int, cards: str) -> Outcome:
    """"This trick was mine": the trick judged from its cards (as written, from the seat `lead`)
    goes to its winner's result as a draft, one trick more and what it captured.

    Only the winner's own phone claims it, or the host for a winner without a phone; the
    server judges the cards itself, so a claim carries no captures of its own.
    """
    game = _locked_values(public_id)
    actor = identify(game, credentials)
    record = _hand(game, number)
    if actor.role == Role.VIEWER:
        raise _deny()
    if record.phase != Phase.PLAYING:
        return _stale(game)
    table = games.table_of(game)
    count = len(table.players)
    try:
        played = tricks.parse_trick(table.ruleset, cards, advanced=table.options.advanced_cards)
    except tricks.TrickError as error:
        return _refuse(game, replace(error.problem, hand=number))
    judgement = tricks.judge(table.ruleset, played, count)
    if judgement.winner is None or not 0 <= lead < count or len(played) != count:
        return _refuse(game, Problem(N_("Only a whole trick that someone won can be claimed."), hand=number))
    seat = (lead + judgement.winner) % count
    _entering_for(game, actor, seat)
    current = games.hand_of(game, record)
    mine = current.entries[seat]
    bonuses = dict(mine.bonuses)
    for kind, taken in judgement.captures.as_bonuses().items():
        if taken:
            bonuses[kind] = bonuses.get(kind, 0) + taken
    partners = [table.players[(lead + i) % count] for i in judgement.captures.loot_from]
    claimed = replace(mine, tricks=(mine.tricks or 0) + 1, bonuses=bonuses,
                      loot_with=tuple(dict.fromkeys([*mine.loot_with, *partners])))
    hand = replace(current, entries=tuple(claimed if e.player == mine.player else e for e in current.entries))
    problems = _refusing(rules.validate_hand(table, number, hand, in_play=True), {mine.player}, False)
    if problems:
        return _refuse(game, *problems)
    after = _with_entered(game, record, hand)
    after, _ = _settle(game, _with_entry(after, replace(after.entries[seat], done=False)), seat)
    rows.write_hand(record, after)
    return _commit_values(game, "result", number)


def correct_hand(public_id: str, credentials: Credentials, number: int, hand: Hand) -> Outcome:
    """The host corrects a scored hand; later totals follow and the pad marks it."""
    game = _locked(public_id)
    if not identify(game, credentials).is_host:
        raise _deny()
    record = _hand(game, number)
    if record.phase != Phase.SCORED:
        return _stale(game)
    problems = rules.validate_hand(games.table_of(game), number, hand)
    if problems:
        return _refuse(game, *problems)
    hands.store_entries(game, record, hand)
    record.corrected = True
    return _commit(game, "correct", number)


def _with_entry(record: games.HandState, entry: games.EntryState) -> games.HandState:
    """The hand with one entry changed."""
    return replace(record, entries=tuple(entry if e.position == entry.position else e for e in record.entries))


__all__ = ["Actor", "Credentials", "Intent", "NotAllowed", "NotFound", "Outcome", "Results", "TooManyTries",
           "ask_for_seat", "change_cards", "claim_trick", "correct_hand", "count_try", "create",
           "delete_game", "find_by_join_code", "free_seat", "join", "let_in",
           "load_cannon", "place_bid", "play", "record_results", "rematch", "restore_game", "turn_away"]
