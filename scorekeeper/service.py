"""Every change a table can make, one function each, decided on plain values inside the unit of work.

Each change opens the unit of work (`work.transaction`: the lock, the game read as plain values,
the request's tap), checks access and the rules, says what to write (`Write`'s lists) and keeps it
with its event, or answers without keeping anything: an `Outcome` (what happened, or the problems)
or `NotFound` / `NotAllowed`. A game's change is its decision (`play`'s `decide`), which reads
plain values and says what to write (`kinds.Decided`). Nothing here writes or commits: the unit
of work does, once, when the change's block ends.

Every write is applied once per tap (`Credentials.tap`, made on the phone): the tap is stored
with the change it made, in its transaction, and a repeat (a retry after a lost answer) gets the
first answer without a second change (`once`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import timedelta
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from . import games, kinds, rows, work
from .access import Actor, Credentials, Role, browser_key, identify, masked, token_hash
from .clock import utcnow
from .models import new_join_code, new_public_id
from .problems import N_, Problem
from .work import Write

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
    # A secret the acting browser keeps: a new game's host key, or a claimed seat's.
    secret: str | None = None
    # Nothing was done: the hand has moved on since the screen was drawn (a late autosave).
    stale: bool = False
    # The game as the change stored it (kept for the processes' screens too), so that its answer reads nothing;
    # None: read it.
    stored: games.GameState | None = None
    # A tap applied already, answered again (`once`).
    repeat: bool = False

    @property
    def ok(self) -> bool:
        """Whether the change was stored."""
        return not self.problems


# --- taps: every write applied once ---------------------------------------------------------

Params = ParamSpec("Params")


def once(write: Callable[Params, Outcome]) -> Callable[Params, Outcome]:
    """A write of the table, applied once per tap: a repeat answers as the first did, and changes nothing."""
    @wraps(write)
    def applied_once(*args: Params.args, **kwargs: Params.kwargs) -> Outcome:
        try:
            return write(*args, **kwargs)
        except rows.AppliedAlready as repeat:
            public_id, secret = repeat.answer
            return Outcome(public_id, secret=secret, repeat=True)
    return applied_once


@contextmanager
def changing(public_id: str, credentials: Credentials | None = None, deleted: bool = False) -> Iterator[Write]:
    """The unit of work of a change of one game (`work.transaction`): NotFound when there is no such game (one its
    host deleted is found only when asked for, to undo it)."""
    try:
        with work.transaction(public_id, credentials, deleted) as write:
            yield write
    except work.GameGone:
        raise NotFound(public_id) from None


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


def refuse(game: games.AnyGame, *problems: Problem) -> Outcome:
    """The answer when the change breaks the rules, as `problems` say: nothing is kept."""
    return Outcome(game.public_id, problems=problems)


def deny(phone_seat: bool = False) -> NotAllowed:
    """The answer when the acting browser may not make this change (raise it): nothing is kept."""
    return NotAllowed(phone_seat)


def stale(game: games.AnyGame) -> Outcome:
    """The answer when the play the screen was drawn for has moved on (a late autosave, a second tap): nothing is
    kept."""
    return Outcome(game.public_id, stale=True)


def not_found(what: object) -> NotFound:
    """The answer when there is no such play (raise it): nothing is kept."""
    return NotFound(what)


# What a page says of a change that came too late to apply (a tap sent again after the table moved on).
MOVED_ON = Problem(N_("Not applied: by the time this arrived, the table had moved on (its hand or round was closed)."))


def refusal(state: games.GameState, problems: Sequence[Problem]) -> Outcome:
    """The answer to a request refused before it reached a game (its form could not be read): nothing stored; the
    game as the request read it, shown again with no second read."""
    return Outcome(state.public_id, problems=tuple(problems), stored=state)


def commit(write: Write, kind: str, hand: int | None = None, secret: str | None = None,
           kept: games.GameState | None = None) -> Outcome:
    """Keep the change of the locked game when its unit of work ends: its version bumped with the columns it set,
    the event logged, its tap kept; `secret`: what it hands the acting browser (a seat's); `kept`: the game as it
    is stored (`_as_stored`), kept for the screens and the answer."""
    write.keep(kind, hand, secret, kept)
    return Outcome(write.locked.public_id, secret=secret, stored=kept)


# --- new games ------------------------------------------------------------------------


def unused_join_code() -> str:
    """A join code no stored game has (codes are unique): with many games stored, a random one may be taken."""
    while True:
        code = new_join_code()
        if games.find_game_by_code(code, in_play_only=False) is None:
            return code


def _follow(write: Write, public_id: str) -> list[tuple[str | None, str | None]]:
    """The phones of the earlier game (the one locked) follow into the new game `public_id`, each to the seat with
    its player's name; what each new seat holds.

    The seat keeps the phone's secret, so only that phone plays it; the earlier game names the
    new one, and its screens (a new version) move on by themselves. A phone whose name is gone
    goes to the join page.
    """
    earlier = write.locked
    held = {seat.name: (seat.token_hash, seat.browser_key) for seat in earlier.seats if seat.token_hash}
    write.set_columns(next_game=public_id)
    write.keep("next-game")
    return [held.get(name, (None, None)) for name in write.new_game.players] if write.new_game else []


@once
def create(kind: kinds.GameKind[kinds.SetupT, kinds.PlayT], setup: kinds.SetupT, plays: Sequence[kinds.PlayT] = (),
           credentials: Credentials | None = None, after: str | None = None) -> Outcome:
    """Start a game of any kind from a checked setup, resuming after `plays` (an imported pad's); the secret is
    the host's key, of which the table keeps only a hash.

    `after`: an earlier game whose players these are (locked: it will say where they went), which
    joins the new game to its crew (for their statistics); its host alone may say so.
    """
    try:
        with work.transaction(after or None, credentials) as write:
            earlier = write.game
            if after and (earlier is None or credentials is None or not identify(earlier, credentials).is_host):
                raise deny()
            players, kept = kind.columns(setup)
            columns: dict[str, object] = {**kept}
            public_id, host_key = new_public_id(), secrets.token_urlsafe(24)
            columns.update(kind=kind.NAME, crew=earlier.crew if earlier else new_public_id(),
                           join_code=unused_join_code(), public_id=public_id, host_key_hash=token_hash(host_key),
                           version=1)
            started = kind.start(setup, plays)
            if started.collects is not None:
                columns["count_play"], columns["count_name"] = started.collects
            if kind.finished(setup, plays):
                # What its crew's statistics read.
                columns.update(finished_at=utcnow(), summary=kind.summary(setup, list(plays)))
            write.new_game = work.NewGame(columns, players, [(None, None)] * len(players))
            if earlier is not None:
                write.new_game.held = _follow(write, public_id)
            write.writes.plays += [(number, values, closed, True)
                                   for number, (values, closed) in enumerate(started.plays, 1)]
            write.writes.secrets += [(number, seat, name, value, True) for number, seat, name, value in started.secrets]
            write.events.append((None, 1, "import" if plays else "create", None))
            write.keep_new(public_id, host_key)
    except work.GameGone:
        raise deny() from None
    return Outcome(public_id, secret=host_key)


# A game's decision of one change: the game locked, as plain values, and who acts; what to write (`kinds.Decided`).
Decision = Callable[[games.GameState, Actor], kinds.Decided]


@once
def play(public_id: str, credentials: Credentials, decide: Decision, count_seconds: float = 3.0) -> Outcome:
    """A change of a game, the table's one way for every game: the game locked and read as plain values, the acting
    browser found, the game's decision (`decide`, which answers with a value: `kinds.Decided`), then what it says
    written, the event logged and all of it stored in one unit of work; or nothing stored.

    A secret entry (`Change.secret`) is the table's, revealed with the others after `count_seconds`.
    """
    with changing(public_id, credentials) as write:
        game = write.locked
        actor = identify(game, credentials)
        match decide(game, actor):
            case kinds.Denied(phone_seat=phone_seat):
                raise deny(phone_seat)
            case kinds.Missing(what=what):
                raise not_found(what)
            case kinds.Stale():
                return stale(game)
            case kinds.Refused(problems=problems):
                return refuse(game, *problems)
            case kinds.Change() as applied:
                pass
        # The host enters for the players without a phone only: a phone's entries are its own, in every game.
        if actor.is_host and not all(actor.enters_for(s) for s in applied.seats):
            raise deny(phone_seat=True)
        number = applied.play
        if applied.secret is not None:
            assert number is not None, "a secret entry belongs to a play"
            entry = applied.secret
            count = game.count
            if count is not None and (count.play, count.name) == (number, entry.name) and count.over:
                # Shown already (the count ended, by the deciding clock, before this tap was taken): nothing changes.
                return stale(game)
            enter_secret(write, number, entry.seat, entry.name, entry.value, count_seconds)
        _apply(write, applied)
        # The game as it will be stored, made before the commit, which keeps it for the screens and the answer.
        return commit(write, applied.event, number, kept=_as_stored(write))


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


def _apply(write: Write, applied: kinds.Change[Any, Any]) -> None:
    """Add to the change under way what a game's decision says of its plays, its entries shown already, the secrets
    collected next and the game's end (the unit of work writes them)."""
    game, number = write.locked, applied.play
    values = applied.closed if applied.closed is not None else applied.draft
    if number is None:
        assert values is None and not applied.shown and applied.opens is None, "a change of a play names it"
    else:
        for entry in applied.shown:
            write.writes.secrets.append((number, entry.seat, entry.name, entry.value,
                                         entry.seat not in write.entered(number, entry.name)))
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


def by_rules(change: object, kind_name: str, drawn_for: int | None = None) -> Decision:
    """A tap on a game's screen, as its decision by its rules (`PlayedRules`): they say what it does to the play open
    now (or to the closed one it names); a play that closes ends the game, or the next collects its secret entries.

    `change`: the tap as the rules of the kind `kind_name` parsed it (`parse_change`), a value of the game's own; a
    game of another kind has no such tap (its address finds nothing there).

    `drawn_for`: the number of the round the screen showed; a tap that arrives after it closed
    (a late or repeated tap) changes nothing rather than land in the next one.
    """
    def decide(game: games.GameState, actor: Actor) -> kinds.Decided:
        kind = kinds.kind_of(game)
        if kind.NAME != kind_name:
            return kinds.Missing(game.public_id)
        rules = kind.played_rules
        read = games.plays_of(game)
        setup, closed, draft = read.setup, list(read.closed), read.draft
        number = len(closed) + 1
        if drawn_for is not None and drawn_for != number:
            return kinds.STALE
        # The rules see the secret entries as the acting browser may (`games.as_seen_by`).
        secrets = games.secrets_seen_by(game, actor.seat, number)
        applied = rules.apply(setup, closed, draft, actor, change, secrets)
        if not isinstance(applied, kinds.Change):
            return applied
        # A change names the play it writes when it is not the open one (a scored play corrected).
        play = applied.play if applied.play is not None else number
        stored = replace(applied.stored_with(rules.PLAY, rules.DRAFT), play=play)
        if applied.closed is None:
            return stored
        if play < number:
            # A correction: a finished game's statistics follow.
            played = [applied.closed if n == play else p for n, p in enumerate(closed, start=1)]
            return replace(stored, summary=rules.summary(setup, played)) if rules.finished(setup, played) else stored
        played = [*closed, applied.closed]
        if rules.finished(setup, played):
            return replace(stored, summary=rules.summary(setup, played))
        return replace(stored, collects=(number + 1, kind.SECRETS[0])) if kind.SECRETS else stored
    return decide


@once
def rematch(public_id: str, credentials: Credentials) -> Outcome:
    """The host starts the same game again with the same players (in Skull King the next player deals first)."""
    with changing(public_id, credentials) as write:
        game = write.locked
        if not identify(game, credentials).is_host:
            raise deny()
        kind = kinds.kind_of(game)
        setup = kind.rematch(kind.setup_of(game))
    return create(kind, setup, credentials=credentials, after=public_id)


# --- the games list -------------------------------------------------------------------

# How long a deleted game can be brought back; after that it is removed for good.
UNDO_SECONDS = 600


@once
def delete_game(public_id: str, credentials: Credentials) -> Outcome:
    """The host deletes a finished game: gone from every page and statistic, undone within a short time."""
    with changing(public_id, credentials) as write:
        game = write.locked
        if not identify(game, credentials).is_host:
            raise deny()
        if game.finished_at is None:
            return refuse(game, Problem(N_("Only a finished game can be deleted.")))
        now = utcnow()
        write.set_columns(deleted_at=now)
        write.writes.purge_before = now - timedelta(seconds=UNDO_SECONDS)
        return commit(write, "delete")


@once
def restore_game(public_id: str, credentials: Credentials) -> Outcome:
    """The host takes back a deletion, while it can still be undone."""
    with changing(public_id, credentials, deleted=True) as write:
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
    with work.counted_tries() as tries:
        if any(tries.recent(bucket) >= limit for bucket, limit in buckets.items()):
            raise TooManyTries()
        tries.buckets += buckets


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
    with changing(public_id, credentials) as write:
        game = write.locked
        seat = seat_at(game.seats, position)
        if seat is None:
            return refuse(game, Problem(N_("Pick your name from the list.")))
        seated = _already_seated(game, identify(game, credentials))
        if seated is not None:
            return seated
        if game.locked:
            return refuse(game, TABLE_LOCKED)
        if seat.token_hash is not None:
            return refuse(game, Problem(
                N_("%(names)s already plays on another phone. Ask the host to let this phone in instead."),
                players=(seat.name,)))
        token = secrets.token_urlsafe(32)
        write.writes.seats.append((seat.position, token_hash(token), browser_key(credentials.browser)))
        _drop_requests(write, credentials)
        kind, number = _forget_secret(write, seat.position)
        return commit(write, kind, number, secret=token)


# A host's card lists this many phones asking for one seat at most: a flood of strangers stops there.
OPEN_REQUESTS_PER_SEAT = 4


def _asking(credentials: Credentials) -> str | None:
    """What is stored of the secret this browser asked for a seat with, if it asked."""
    return token_hash(credentials.asking_token) if credentials.asking_token else None


def _drop_requests(write: Write, credentials: Credentials) -> None:
    """Forget what this browser asked for (it has a seat now, or asks anew)."""
    digest = _asking(credentials)
    write.writes.dropped_requests += [r.id for r in write.locked.requests if r.token_hash == digest]


@once
def ask_for_seat(public_id: str, credentials: Credentials, position: int | None,
                 buckets: Mapping[str, int]) -> Outcome:
    """A new phone asks for a seat another phone holds (that one lost or flat); the host lets it in.

    The secret is the new phone's, kept by it; it plays the seat once the host picks it by the
    short code it shows. One open request per browser (asking again replaces it); a few per seat;
    a few a minute per browser and address (`buckets`), or TooManyTries.
    """
    count_try(buckets)
    with changing(public_id, credentials) as write:
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
        _drop_requests(write, credentials)
        token = secrets.token_urlsafe(32)
        taken = {r.code for r in waiting}
        code = next(c for c in iter(lambda: f"{secrets.randbelow(90) + 10}", None) if c not in taken)
        write.writes.requests.append((seat.position, token_hash(token), code, browser_key(credentials.browser)))
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
    with changing(public_id, credentials) as write:
        game = write.locked
        request = _request_for_host(game, credentials, request_id)
        if request is None:
            return stale(game)
        write.writes.seats.append((request.position, request.token_hash, request.browser_key))
        write.writes.dropped_requests.append(request.id)
        write.writes.turned_away += [r.id for r in game.requests
                                     if r.position == request.position and r.id != request.id]
        kind, number = _forget_secret(write, request.position)
        return commit(write, kind, number)


@once
def turn_away(public_id: str, credentials: Credentials, request_id: int) -> Outcome:
    """The host says no to a phone asking for a seat (a mistaken name, a stranger with the link); it is told."""
    with changing(public_id, credentials) as write:
        game = write.locked
        request = _request_for_host(game, credentials, request_id)
        if request is None:
            return stale(game)
        write.writes.turned_away.append(request.id)
        return commit(write, "seat")


@once
def free_seat(public_id: str, credentials: Credentials, position: int) -> Outcome:
    """The host frees a seat, so another phone (or the host) can play it."""
    with changing(public_id, credentials) as write:
        game = write.locked
        if not identify(game, credentials).is_host:
            raise deny()
        if seat_at(game.seats, position) is None:
            raise not_found(position)
        write.writes.seats.append((position, None, None))
        kind, number = _forget_secret(write, position)
        return commit(write, kind, number)


# --- who may come in ------------------------------------------------------------------------

# What a new phone is told when it would take a free seat of a locked table.
TABLE_LOCKED = Problem(N_("The table is closed: the host locked it once everyone sat. A player whose phone was lost "
                          "asks for their seat on a new phone; anyone else asks the host to open the table."))


@once
def set_access(public_id: str, credentials: Credentials, locked: bool | None = None,
               watchers: bool | None = None) -> Outcome:
    """A host locks the table (no new phone takes a free seat) or opens it, and welcomes watchers or turns them
    away; None leaves that as it is. Logged as the game's event."""
    with changing(public_id, credentials) as write:
        game = write.locked
        if not identify(game, credentials).is_host:
            raise deny()
        columns = {name: value for name, value in (("locked", locked), ("watchers", watchers)) if value is not None}
        write.set_columns(**columns)
        # An event's kind is short: what the tap changed (a page's button changes one of the two).
        if locked is not None:
            kind = "table locked" if locked else "table opened"
        else:
            kind = "watchers welcome" if watchers in (None, True) else "no watchers"
        return commit(write, kind)


# --- another host -----------------------------------------------------------------------

# What a link to the host's role says once it is used or too old.
GRANT_GONE = Problem(N_("This link to become a host is used already or too old: ask a host of the game for a new "
                        "one."))


def masked_key(key: str, code: str) -> str:
    """The host's key as a way to another host stores it: masked by its code, in hex."""
    return masked(key.encode(), f"host grant:{code}").hex()


def unmasked_key(stored: str, code: str) -> str:
    """The host's key a way to another host stored, read back with its code."""
    return masked(bytes.fromhex(stored), f"host grant:{code}").decode()


@once
def grant_host(public_id: str, credentials: Credentials, lifetime: timedelta) -> Outcome:
    """A host asks for a way for another device to become a host too: a code that works once, for `lifetime`,
    handed to this browser (the link carries it) and logged as the game's event."""
    with changing(public_id, credentials) as write:
        game = write.locked
        if not identify(game, credentials).is_host or credentials.host_key is None:
            raise deny()
        code = secrets.token_urlsafe(16)
        write.writes.grants.append((token_hash(code), masked_key(credentials.host_key, code),
                                    write.lock_time + lifetime))
        return commit(write, "host grant", secret=code)


@once
def become_host(public_id: str, credentials: Credentials, code: str) -> Outcome:
    """Another device becomes a host by a code a host shared: once, while it works; the host's key is handed to this
    browser, and the game logs it."""
    with changing(public_id, credentials) as write:
        game = write.locked
        grant = games.open_grant(game.id, code, write.lock_time)
        if grant is None:
            return refuse(game, GRANT_GONE)
        write.writes.grants_used.append((grant.id, write.lock_time))
        return commit(write, "host added", secret=unmasked_key(grant.key, code))


__all__ = ["Actor", "Credentials", "NotAllowed", "NotFound", "Outcome", "TooManyTries", "once",
           "MOVED_ON", "Decision", "ask_for_seat", "by_rules", "collect_secrets", "commit", "refusal",
           "count_try",
           "create", "deny", "enter_secret", "changing",
           "Write", "not_found", "refuse", "seat_at", "stale",
           "delete_game", "find_by_join_code", "free_seat", "join", "let_in",
           "play", "rematch", "restore_game", "turn_away", "GRANT_GONE", "grant_host", "become_host",
           "TABLE_LOCKED", "set_access"]
