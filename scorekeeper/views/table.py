"""The game at the table: a hand as each browser may see it, seats, bids and results."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from flask import Response, abort, current_app, request, stream_with_context, url_for
from flask_babel import get_locale, gettext
from jinja2_fragments.flask import render_block

from .. import event_stream, forms, games, service
from ..access import Actor, Credentials, Role, identify, request_of
from ..extensions import db
from ..live import KEEPALIVE_SECONDS, Watcher
from ..models import Phase, utcnow
from ..service import Intent, Results
from ..shelf.skullking import forms as hand_forms
from ..shelf.skullking import rules
from ..shelf.skullking.rules import Problem
from . import bp, matches
from .labels import problems_by_player, say
from .matches import match_page
from .rendering import is_htmx, not_yours, once_per_edition, open_page, page, see_other, shown_after_change
from .sessions import browser_id, client_address, credentials, keep_asking_token, keep_seat_token, load_state, visitor


def load_hand(game: games.GameState, number: int) -> games.HandState:
    """Hand `number` of `game`, or NotFound."""
    if not 1 <= number <= len(game.hands):
        raise service.NotFound(number)
    return game.hands[number - 1]


def epoch_ms(moment: datetime | None) -> int:
    """A stored (naive UTC) time in milliseconds since 1970, as browsers count."""
    return int(moment.replace(tzinfo=UTC).timestamp() * 1000) if moment else 0


# --- the shared table -------------------------------------------------------------------


def shared_context(state: games.GameState) -> dict[str, Any]:
    """What the whole table may see of a game at one edition, and nothing else.

    Built from the game as seen by no seat (`games.as_seen_by(state, None)`), so no hidden bid
    is in it: the same values, hence the same bytes, for every screen at the table.
    """
    seen = games.as_seen_by(state, None)
    record = games.current_hand(seen)
    context: dict[str, Any] = {"public_id": seen.public_id, "edition": seen.edition, "over": record is None,
                               "standings": games.standings(seen)}
    if record is not None:
        table = games.table_of(seen)
        hand = games.hand_of(seen, record)
        # Results that clash go back to the players concerned; the table sees who is fixing what.
        clashes = games.clashes(seen, record)
        concerned = {name for problem in clashes for name in problem.players}
        context.update(
            table=table, record=record, hand=hand, seats=seen.seats,
            dealer=table.players[rules.dealer_index(table, record.number)],
            leader=table.players[rules.leader_index(table, record.number)],
            hand_count=len(games.schedule(seen, table)),
            provisional=rules.provisional_points(table, hand) if not record.phase.is_secret and not clashes else {},
            waiting=sum(not e.ready for e in record.entries),
            unloaded=sum(not e.loaded for e in record.entries),
            lost_allowed=rules.lost_tricks_allowed(table),
            clashes=[say(p) for p in clashes],
            tricks_missing=max((rules.tricks_missing(p) for p in clashes), default=0),
            fixing=[table.players[e.position] for e in record.entries
                    if e.fixing and table.players[e.position] in concerned],
            bid_again=games.must_bid_again(seen, record),
            reveal_ms=epoch_ms(record.reveal_at),
        )
    # Macros take the whole view as one value.
    context["view"] = context
    return context


@dataclass(frozen=True)
class SharedTable:
    """The shared table, rendered in its three places on the page: the hand's facts above the
    browser's own card (`head`), the players and their bids below it (`table`), then the
    leaderboard (`board`)."""

    head: str
    table: str
    board: str

    def __str__(self) -> str:
        return self.head + self.table + self.board


def shared_table(state: games.GameState) -> SharedTable:
    """The shared table of a game at its edition in this language: rendered once, then the same bytes."""
    def render() -> SharedTable:
        context = shared_context(state)
        return SharedTable(*(render_block("game.html", block, **context) for block in ("head", "table", "board")))

    return once_per_edition("shared tables", state.id, state.edition, render)


# --- the own card -----------------------------------------------------------------------


def card_context(state: games.GameState, record: games.HandState, seen_by: Actor,
                 problems: list[Problem] | None = None, form: Any = None,
                 typed: rules.Entry | None = None) -> dict[str, Any]:
    """What this browser's own card shows: its forms, and what only it may see.

    `typed`: a phone's result as it sent it, refused: the card shows that, not what is stored,
    so nothing the player chose is lost to a refusal.
    """
    problems = problems or []
    seen = games.as_seen_by(state, seen_by.seat)
    record = seen.hands[record.number - 1]
    table = games.table_of(seen)
    hand = games.hand_of(seen, record, shown_to=seen_by.seat)
    if typed is not None and seen_by.seat is not None:
        hand = replace(hand, entries=tuple(typed if i == seen_by.seat else e for i, e in enumerate(hand.entries)))
    mine = clashes_of(seen, record, seen_by)
    context: dict[str, Any] = {
        "visitor": seen_by,
        "game": seen,
        "table": table,
        "record": record,
        "hand": hand,
        "max_cards": rules.max_cards(table.ruleset, len(table.players)),
        "problems": [say(p) for p in problems],
        "player_problems": problems_by_player(problems, len(table.players)),
        "lost_allowed": rules.lost_tricks_allowed(table) and record.phase == Phase.PLAYING,
        "phone_seats": [s.position for s in seen.seats if s.has_phone],
        "requests": seen.open_requests if seen_by.is_host else (),
        "my_clashes": [say(p) for p in mine],
        "judge_helps": any(rules.about_captures(p) for p in problems),
        "tricks_missing": max((rules.tricks_missing(p) for p in mine), default=0),
        "bonus_max": bonus_max(table),
        "form": form,
    }
    context["view"] = context
    return context


def clashes_of(seen: games.GameState, record: games.HandState, seen_by: Actor) -> list[Problem]:
    """The clashes this phone's player is part of: its card says what to do about them."""
    if seen_by.seat is None:
        return []
    name = seen.seats[seen_by.seat].name
    return [p for p in games.clashes(seen, record) if name in p.players]


def bonus_max(table: rules.Table) -> dict[str, int]:
    """The most of each counted capture one player can have in one hand, for the card's counters."""
    in_trick = len(table.players) - 1
    return {rules.PIRATES_BY_SKULL_KING: min(table.spec.pirates, in_trick),
            rules.MERMAIDS_BY_PIRATE: table.spec.mermaids,
            rules.STANDARD_FOURTEENS: 3}


def card_key(state: games.GameState, seen_by: Actor) -> str:
    """A fingerprint of what this browser's card shows; it changes only when the card must be redrawn.

    Made from the game as this browser may see it, so it tells nothing of a hidden bid.
    """
    record = games.current_hand(state)
    if record is None:
        return "over"
    seen = games.as_seen_by(state, seen_by.seat)
    record = seen.hands[record.number - 1]
    parts: list[Any] = [seen_by.role, seen_by.seat, record.number, record.phase, record.cards]
    if seen_by.seat is not None:
        parts += [record.entries[seen_by.seat], clashes_of(seen, record, seen_by)]
    elif seen_by.is_host:
        phones = tuple(s.has_phone for s in seen.seats)
        phoneless = tuple(e for e, seat in zip(record.entries, seen.seats, strict=True) if not seat.has_phone)
        parts += [phones, seen.open_requests, phoneless]
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def game_page(public_id: str, status: int = 200, problems: list[Problem] | None = None, form: Any = None,
              typed: rules.Entry | None = None):
    """The game as this browser may see it: the shared table, and its own card (host, phone or viewer)."""
    state = load_state(public_id)
    if matches.shelf_game(state) is not None:
        # A game whose plays the table keeps: the one screen the table draws from its rules.
        return match_page(public_id, status, [say(p) for p in problems or []])
    me = identify(state, credentials(public_id))
    if problems and me.role == Role.VIEWER:
        # A viewer has no forms: whatever it sent was not its to send.
        return not_yours()
    record = games.current_hand(state)
    if record is None:
        return see_other(url_for("pages.end", public_id=public_id))
    context = card_context(state, record, me, problems, form, typed)
    return page("game.html", status, title=gettext("Hand %(number)d", number=record.number),
                shared=shared_table(state), card_key=card_key(state, me), edition=state.edition, **context)


@bp.get("/games/<public_id>/join.svg")
def join_qr(public_id: str):
    """The join link as a QR code: an image of its own, so the host's card stays small when redrawn."""
    load_state(public_id)
    response = Response(qr_svg(url_for("pages.join", public_id=public_id, _external=True)), mimetype="image/svg+xml")
    # The link of a game never changes.
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@lru_cache(maxsize=1024)
def qr_svg(text: str) -> str:
    """`text` as an SVG QR code."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")


def count_seconds() -> float:
    """How long every phone counts YO… HO… HO! before the bids show."""
    return float(current_app.config.get("REVEAL_COUNT_SECONDS", 3.0))


def after(outcome: service.Outcome, form: Any = None, typed: rules.Entry | None = None):
    """The answer to a change: the game as it is now, or the game again with the problems (422).

    htmx gets the game in this answer; a plain form is sent there with a 303 (post/redirect/get).
    """
    if not outcome.ok:
        return game_page(outcome.public_id, 422, list(outcome.problems), form, typed)
    url = url_for("pages.game", public_id=outcome.public_id)
    return shown_after_change(game_page(outcome.public_id), url) if is_htmx() else see_other(url)


@bp.get("/games/<public_id>")
def game(public_id: str):
    """The hand being played, as this browser may see it."""
    return game_page(public_id)


# --- the live stream --------------------------------------------------------------------


# The parts of a page the stream redraws, each an element with its id: a shared table's (`hand`,
# `table`, `board`) and a browser's own card.
PUSHED_PART = re.compile(r'<div id="(?:hand|table|board|card)"')


def swapped_by_id(html: str) -> str:
    """Parts as the stream sends them: each marked to replace the element of its id wherever it sits on
    the page (htmx's out-of-band swap), not to fill the element that received the event."""
    return PUSHED_PART.sub(lambda found: found[0] + ' hx-swap-oob="true"', html)


def event(kind: str, data: str, edition: int | None = None) -> str:
    """One server-sent event carrying page parts; `id` is the edition a reconnecting screen says it has."""
    lines = "".join(f"data: {line}\n" for line in swapped_by_id(data).splitlines() or [""])
    return (f"id: {edition}\n" if edition is not None else "") + f"event: {kind}\n{lines}\n"


def shared_event(screen: str, state: games.GameState, kind: str, data: str) -> event_stream.SharedEvent:
    """An event every `screen` of the game is sent alike at this edition, in this language: written out and
    compressed once per process, whichever of its streams comes first."""
    key = (screen, state.id, state.edition, str(get_locale()), kind)
    kept = games.cache("shared events")
    text = kept.get(key)
    if text is None:
        text = event(kind, data, state.edition)
        kept.put(key, text)
    return event_stream.SharedEvent(key, text)


@dataclass(frozen=True)
class PushedPage:
    """A page besides the hand whose stream pushes its shared part (`#table`, rendered once per edition
    and language), if it has one, and its own card, if it has one (its key, and its html when the key changed)."""

    shared: Callable[[games.GameState], str] | None
    card_key: Callable[[games.GameState, Actor], str] | None = None
    card: Callable[[games.GameState, Actor], str] | None = None


# Filled in by the views that own these pages (the score pad's module), by the `view` their stream names.
PUSHED_PAGES: dict[str, PushedPage] = {}


def live_table(public_id: str, game_id: int, creds: Credentials, edition_seen: int, card_seen: str | None,
               view: str | None) -> Iterator[str | event_stream.SharedEvent]:
    """The stream of one screen: each new edition of the shared table, and its own card when that changed.

    The shared table comes from the per-edition cache, so however many screens follow a
    game it is rendered once. A count that runs out is pushed when it does, with no write.
    A game of the shelf is drawn by its kind, the same way (`matches.shared_screen`,
    `matches.own_card`). The other pages (`PUSHED_PAGES`, by the stream's `view`: the big
    screen, the score pad, the end, the join page) are pushed the same way.
    """
    watcher: Watcher = current_app.extensions["live_watcher"]
    yield "retry: 1000\n\n"
    heard: int | None = None
    with watcher.watching(game_id) as wait:
        while True:
            # The version this process heard of is usually read already (by the writer, or
            # another screen): then no query at all. Otherwise read the game afresh.
            state = games.cached(game_id, heard) if heard is not None else None
            if state is None:
                state = games.load(public_id)
                db.session.remove()
                if state is None:
                    return
            # A game of the shelf draws its screen through its kind; the rest is the same stream.
            found = matches.shelf_game(state) if view is None else None
            if found is not None:
                db.session.remove()  # read once per version; no connection held while the stream waits
            pushed = PUSHED_PAGES.get(view) if view else None
            if pushed is not None:
                if pushed.shared is not None and state.edition > edition_seen:
                    edition_seen = state.edition
                    yield shared_event(f"page {view}", state, "table", pushed.shared(state))
                if pushed.card_key is not None and pushed.card is not None:
                    me = identify(state, creds)
                    key = pushed.card_key(state, me)
                    if key != card_seen:
                        card_seen = key
                        yield event("card", pushed.card(state, me))
            elif found is not None:
                if state.edition > edition_seen:
                    edition_seen = state.edition
                    yield shared_event("shelf", state, "table", matches.shared_screen(found, state))
                me = identify(state, creds)
                key = matches.card_key(found, me)
                if key != card_seen:
                    card_seen = key
                    yield event("card", matches.own_card(found, state, me))
            else:
                if state.edition > edition_seen:
                    edition_seen = state.edition
                    yield shared_event("hand", state, "table", str(shared_table(state)))
                me = identify(state, creds)
                key = card_key(state, me)
                record = games.current_hand(state)
                if key != card_seen and record is not None:
                    card_seen = key
                    card = render_block("game.html", "card", card_key=key, edition=state.edition,
                                        **card_context(state, record, me))
                    yield event("card", card)
            timeout = KEEPALIVE_SECONDS
            if state.reveal_at is not None:
                # Wake when the count ends, to push the bids the moment they show. A count over by
                # this process's clock but not by the deciding one (the database's) is asked again soon.
                left = (state.reveal_at - utcnow()).total_seconds()
                timeout = min(timeout, left + 0.002 if left > 0 else 0.02)
            woke = wait(state.version, timeout)
            if woke is None:
                return
            heard = watcher.version(game_id)
            if not woke and state.reveal_at is None:
                yield ": still here\n\n"


@bp.get("/games/<public_id>/events")
def events(public_id: str):
    """Server-sent events: the shared table of each new edition, and this browser's card when it changed."""
    state = load_state(public_id)
    db.session.remove()
    view = request.args.get("view") or None
    if view is not None and view not in PUSHED_PAGES:
        abort(404)
    # A screen that reconnects says what it has; it is sent only what is newer.
    try:
        edition_seen = int(request.headers.get("Last-Event-ID") or request.args.get("edition") or -1)
    except ValueError:
        edition_seen = -1
    card_seen = request.args.get("card")
    # Flask's typing has it yield text; it passes on whatever the generator yields.
    stream = stream_with_context(live_table(public_id, state.id, credentials(public_id),  # type: ignore[type-var]
                                            edition_seen, card_seen, view))
    compress = "gzip" in request.headers.get("Accept-Encoding", "")
    body = event_stream.gzipped(stream, games.cache("compressed events")) if compress else event_stream.plain(stream)
    response = Response(body, mimetype="text/event-stream")
    if compress:
        response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.route("/games/<public_id>/join", methods=["GET", "POST"])
def join(public_id: str):
    """Pick a free seat (this phone is that player from then on), or ask the host for one whose phone is lost."""
    if request.method == "GET":
        game = load_state(public_id)
        if visitor(game).role != Role.VIEWER:
            # Seated (or let in while this page waited): to the game, its address in the bar.
            return open_page(url_for("pages.game", public_id=public_id))
        return join_page(game)
    parsed = forms.Parsed()
    if request.form.get("ask"):
        position = forms.whole_number(request.form, "ask", parsed)
        limit = current_app.config["SEAT_REQUESTS_PER_MINUTE"]
        # Per browser, and ten times as many per address (a stranger who drops its cookies).
        buckets = {f"ask {browser_id()}": limit, f"ask {client_address()}": limit * 10}
        try:
            outcome = service.ask_for_seat(public_id, credentials(public_id), position, buckets)
        except service.TooManyTries:
            return join_page(load_state(public_id), 429,
                             [gettext("Too many requests from this phone. Wait a minute and try again.")])
        if outcome.ok:
            keep_asking_token(public_id, outcome.secret)
            return see_other(url_for("pages.join", public_id=public_id))
    else:
        outcome = service.join(public_id, credentials(public_id), forms.whole_number(request.form, "seat", parsed))
        if outcome.ok:
            keep_seat_token(public_id, outcome.secret)
            return open_page(url_for("pages.game", public_id=public_id))
    return join_page(load_state(public_id), 422, [say(p) for p in outcome.problems])


def join_page(game: games.GameState, status: int = 200, problems: list[str] | None = None):
    """Who are you? The seats to pick from; for a phone that asked for a seat, its code and the wait for the
    host, or that the host said no."""
    return page("join.html", status, title=gettext("Join the game"),
                **join_card_context(game, visitor(game), problems or []))


def join_card_context(game: games.GameState, me: Actor, problems: list[str]) -> dict[str, Any]:
    """The join page, all of it this browser's own: the seats, its request for one, or the seat it was let in to."""
    asking = request_of(game, credentials(game.public_id))
    return {"game": game, "visitor": me, "asking": asking, "edition": game.edition, "problems": problems,
            "card_key": _join_key(game, me, asking)}


def _join_key(game: games.GameState, me: Actor, asking: Any) -> str:
    # Nothing is typed on this page, so a seat taken elsewhere may redraw it.
    parts = (me.role, me.seat, asking.turned_away if asking is not None else None,
             tuple(seat.has_phone for seat in game.seats))
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def join_card_key(game: games.GameState, me: Actor) -> str:
    """What this browser's join page shows: its role, where its request stands, and which seats a phone plays."""
    return _join_key(game, me, request_of(game, credentials(game.public_id)))


def join_card(game: games.GameState, me: Actor) -> str:
    """This browser's join page as the stream sends it: let in, it leads to the game by itself."""
    return render_block("join.html", "card", **join_card_context(game, me, []))


PUSHED_PAGES["join"] = PushedPage(None, join_card_key, join_card)


@bp.post("/games/<public_id>/seats/<int:position>/free")
def free_seat(public_id: str, position: int):
    """The host frees a seat, so another phone (or the host) can play it."""
    return after(service.free_seat(public_id, credentials(public_id), position))


@bp.post("/games/<public_id>/requests/<int:request_id>/let-in")
def let_in(public_id: str, request_id: int):
    """The host lets in the asking phone whose code they picked."""
    return after(service.let_in(public_id, credentials(public_id), request_id))


@bp.post("/games/<public_id>/requests/<int:request_id>/turn-away")
def turn_away(public_id: str, request_id: int):
    """The host says no to a phone asking for a seat."""
    return after(service.turn_away(public_id, credentials(public_id), request_id))


@bp.post("/games/<public_id>/hands/<int:number>/bid")
def bid(public_id: str, number: int):
    """Record a secret bid: a phone for its own seat, the host for a seat with no phone."""
    parsed = forms.Parsed()
    seat = forms.whole_number(request.form, "seat", parsed) if request.form.get("seat") else None
    value = forms.whole_number(request.form, "bid", parsed)
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems)
    return after(service.place_bid(public_id, credentials(public_id), number, seat, value, count_seconds()))


@bp.post("/games/<public_id>/hands/<int:number>/load")
def load(public_id: str, number: int):
    """Load a cannon in secret (the cannonball rule): a phone its own, the host one of a player without a phone."""
    parsed = forms.Parsed()
    seat = forms.whole_number(request.form, "seat", parsed) if request.form.get("seat") else None
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems)
    return after(service.load_cannon(public_id, credentials(public_id), number, seat, request.form.get("shot"),
                                     count_seconds()))


@bp.post("/games/<public_id>/hands/<int:number>/cards")
def deal(public_id: str, number: int):
    """The host changes the cards dealt in a hand still being bid (a house rule)."""
    parsed = forms.Parsed()
    cards = forms.whole_number(request.form, "cards", parsed, hand=number)
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems)
    return after(service.change_cards(public_id, credentials(public_id), number, cards))


@bp.route("/games/<public_id>/hands/<int:number>", methods=["GET", "POST"])
def hand(public_id: str, number: int):
    """A hand's results: entered by the phones and the host while played, corrected by the host once scored."""
    game = load_state(public_id)
    record = load_hand(game, number)
    me = visitor(game)
    table = games.table_of(game)
    if request.method == "GET":
        if record.phase != Phase.SCORED or not me.is_host:
            return see_other(url_for("pages.game", public_id=public_id))
        return page("hand.html", title=gettext("Hand %(number)d", number=number), **card_context(game, record, me))
    if request.form.get("intent") == "correct":
        if not me.is_host:
            # Only the host corrects; a phone is not shown a form it cannot use.
            raise service.NotAllowed()
        return correct(game, record, table)
    try:
        intent = Intent(request.form.get("intent", Intent.SCORE))
    except ValueError:
        intent = Intent.SCORE
    # A trick, a trick nobody won or "change it" carry no fields; the others carry a phone's
    # own, or for the host those of the players without a phone (the others enter their own).
    seats: tuple[int, ...] = ()
    if intent in (Intent.DRAFT, Intent.DONE, Intent.MADE, Intent.SCORE):
        if me.is_host:
            seats = tuple(s.position for s in game.seats if not s.has_phone)
        elif me.seat is not None:
            seats = (me.seat,)
    parsed = hand_forms.parse_results(request.form, table, number, seats)
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems, request.form if me.is_host else None)
    outcome = service.record_results(public_id, credentials(public_id), number,
                                     Results(intent, parsed.reports, parsed.lost_tricks))
    if outcome.stale:
        # A late autosave or a second tap for a hand that has moved on: nothing to keep.
        return Response(status=204) if intent == Intent.DRAFT else see_other(url_for("pages.game", public_id=public_id))
    typed = None
    if me.seat is not None and me.seat in parsed.reports:
        # Refused, the card shows what the phone sent, not what is stored.
        player = games.hand_of(game, record).entries[me.seat]
        typed = parsed.reports[me.seat].entry(player.player, player.revealed_bid or 0)
    return after(outcome, request.form if me.is_host else None, typed)


def correct(game: games.GameState, record: games.HandState, table: rules.Table):
    """The host's correction of a scored hand; the pad follows."""
    public_id = game.public_id
    parsed = hand_forms.parse_correction(request.form, table, record.number, record.cards)
    problems = parsed.problems
    if parsed.hand is not None:
        outcome = service.correct_hand(public_id, credentials(public_id), record.number, parsed.hand)
        if outcome.stale:
            return see_other(url_for("pages.game", public_id=public_id))
        if outcome.ok:
            return see_other(url_for("pages.pad", public_id=public_id))
        problems = list(outcome.problems)
    game = load_state(public_id)
    record = load_hand(game, record.number)
    return page("hand.html", 422, title=gettext("Hand %(number)d", number=record.number),
                **card_context(game, record, visitor(game), problems, request.form))
