"""The table every game is played at: its page and the way to it, seats, the live stream, joining.

A game's page is drawn by its kind (`pushed.Pages`, by the kind's name; a game whose plays the
table keeps is drawn from its rules by `plays`): the views here never name a game. The big
screen is the table's frame around what the kind shows on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from flask import abort, current_app, request, stream_with_context, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from jinja2_fragments.flask import render_block
from werkzeug.wrappers import Response

from .. import event_stream, forms, games, kinds, service
from ..access import Actor, Credentials, Role, identify, request_of
from ..clock import utcnow
from ..extensions import db
from ..i18n import gettext
from ..live import KEEPALIVE_SECONDS, Watcher
from . import bp, plays
from .labels import say
from .pushed import GAME, PushedPage, card_fingerprint, pages
from .rendering import after, answered_edition, open_page, page, see_other, show_game
from .sessions import (
    browser_id,
    client_address,
    credentials,
    follow_next_game,
    keep_asking_token,
    keep_seat_token,
    load_state,
    visitor,
)


@bp.get("/games/<public_id>")
def game(public_id: str) -> ResponseReturnValue:
    """The game as this browser may see it: the hand being played, or a game's one screen."""
    return show_game(load_state(public_id))


@bp.get("/games/<public_id>/join.svg")
def join_qr(public_id: str) -> ResponseReturnValue:
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
    drawn: str = image.to_string(encoding="unicode")
    return drawn


# --- the live stream --------------------------------------------------------------------


# The parts of a page the stream redraws, each an element with its id: a shared table's (`hand`,
# `table`, `board`) and a browser's own card.
PUSHED_PART = re.compile(r'<div id="(?:hand|table|board|card)"')


def swapped_by_id(html: str) -> str:
    """Parts as the stream sends them: each marked to be morphed into the element of its id wherever it sits on
    the page (htmx's out-of-band swap with idiomorph's morph, which keeps what the player has focused, opened and
    typed there), not to fill the element that received the event."""
    return PUSHED_PART.sub(lambda found: found[0] + ' hx-swap-oob="morph"', html)


def event(kind: str, data: str, edition: int | None = None) -> str:
    """One server-sent event carrying page parts; `id` is the edition a reconnecting screen says it has."""
    # Each line of the data its own `data:` line (the browser joins them again), split where the event stream's
    # format ends a line; made with str.replace, a third of the time a loop over the lines took.
    body = swapped_by_id(data)
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")
    body = body.removesuffix("\n").replace("\n", "\ndata: ")
    return (f"id: {edition}\n" if edition is not None else "") + f"event: {kind}\ndata: {body}\n\n"


def shared_event(screen: str, state: games.GameState, kind: str,
                 render: Callable[[games.GameState], str]) -> event_stream.SharedEvent:
    """An event every `screen` of the game is sent alike at this edition, in this language: `render`ed, written
    out and compressed once per process, whichever of its streams comes first."""
    key = (f"{screen} {kind} event", state.id, state.edition, str(get_locale()))
    # Kept with what is drawn (`rendering.drawn_once`), as its parts are.
    text = games.cache("drawn").kept_or_made(key, lambda: event(kind, render(state), state.edition))
    return event_stream.SharedEvent(key, text)


def live_table(public_id: str, game_id: int, creds: Credentials, edition_seen: int, card_seen: str | None,
               view: str | None, screen: str | None = None) -> Iterator[event_stream.Item]:
    """The stream of one screen: each new edition of the shared table, and its own card when that changed.

    The shared table comes from the per-edition cache, so however many screens follow a
    game it is rendered once. A count that runs out is pushed when it does, with no write.
    The game page is pushed as its kind draws it; the other pages (by the stream's `view`:
    the big screen, the join page, a kind's own such as a score pad) the same way. `screen`: the page's own (see
    `rendering.screen_id`), never sent the edition its own tap's answer showed it.
    """
    watcher: Watcher = current_app.extensions["live_watcher"]
    yield "retry: 1000\n\n"
    heard: int | None = None
    with watcher.watching(game_id, request.remote_addr or "") as wait:
        while True:
            # The version this process heard of is usually read already (by the writer, or
            # another screen): then no query at all. Otherwise read the game afresh.
            state = games.load_heard(game_id, heard) if heard is not None else None
            if state is None:
                state = games.load(public_id)
            db.session.remove()
            if state is None:
                return
            pushed = pages().pushed(state.kind, view or GAME)
            if pushed is None:
                return
            if not state.watchers and view != "join" and not may_watch(state, identify(state, creds)):
                # Its host turned watchers away: a watcher's stream ends (opened again, the join page says why).
                return
            # This screen's own tap is answered with this very edition: it shows it already. Looked for in the
            # other processes' notes only before a card would be drawn, the costly part.
            answered = view is None and answered_edition(game_id, screen) == state.edition
            me, key = None, None
            if pushed.card_key is not None and pushed.card is not None:
                me = identify(state, creds)
                key = pushed.card_key(state, me)
                if key != card_seen and view is None and not answered:
                    answered = answered_edition(game_id, screen, on_host=True) == state.edition
            if answered:
                edition_seen, card_seen = max(edition_seen, state.edition), key or card_seen
            # What changed for this screen, sent together: one chunk, one write to its socket.
            changed: list[str | event_stream.SharedEvent] = []
            if pushed.shared is not None and state.edition > edition_seen:
                edition_seen = state.edition
                changed.append(shared_event(view or "game", state, "table", pushed.shared))
            if pushed.card is not None and me is not None and key is not None and key != card_seen:
                card = pushed.card(state, me, key)
                if card is not None:
                    card_seen = key
                    changed.append(event("card", card))
            if changed:
                yield tuple(changed)
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
def events(public_id: str) -> ResponseReturnValue:
    """Server-sent events: the shared table of each new edition, and this browser's card when it changed."""
    state = load_state(public_id)
    db.session.remove()
    view = request.args.get("view") or None
    if view is not None and pages().pushed(state.kind, view) is None:
        abort(404)
    # A screen that reconnects says what it has; it is sent only what is newer.
    try:
        edition_seen = int(request.headers.get("Last-Event-ID") or request.args.get("edition") or -1)
    except ValueError:
        edition_seen = -1
    card_seen = request.args.get("card")
    screen = request.args.get("screen") or None
    # Flask's typing has it yield text; it passes on whatever the generator yields.
    stream = stream_with_context(live_table(public_id, state.id, credentials(public_id),  # type: ignore[type-var]
                                            edition_seen, card_seen, view, screen))
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
def join(public_id: str) -> ResponseReturnValue:
    """Pick a free seat (this phone is that player from then on), or ask the host for one whose phone is lost."""
    if request.method == "GET":
        game = load_state(public_id)
        if visitor(game).role != Role.VIEWER:
            # Seated (or let in while this page waited): to the game, its address in the bar.
            return open_page(url_for("pages.game", public_id=public_id))
        return join_page(game)
    # The seat keeps which browser plays it (its record across games): named before the change reads it.
    browser_id()
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


def join_page(game: games.GameState, status: int = 200, problems: list[str] | None = None) -> Response:
    """Who are you? The seats to pick from; for a phone that asked for a seat, its code and the wait for the
    host, or that the host said no."""
    return page("join.html", status, title=gettext("Join the game"),
                **join_card_context(game, visitor(game), problems or []))


def join_card_context(game: games.GameState, me: Actor, problems: list[str], key: str | None = None) -> dict[str, Any]:
    """The join page, all of it this browser's own: the seats, its request for one, or the seat it was let in to.

    `key`: its card key, when the stream has worked it out already.
    """
    asking = request_of(game, credentials(game.public_id))
    return {"game": game, "visitor": me, "asking": asking, "edition": game.edition, "problems": problems,
            "card_key": key or _join_key(game, me, asking)}


def _join_key(game: games.GameState, me: Actor, asking: Any) -> str:
    # Nothing is typed on this page, so a seat taken elsewhere may redraw it.
    parts = (me.role, me.seat, asking.turned_away if asking is not None else None,
             tuple(seat.has_phone for seat in game.seats), game.locked, game.watchers)
    return card_fingerprint(parts)


def join_card_key(game: games.GameState, me: Actor) -> str:
    """What this browser's join page shows: its role, where its request stands, and which seats a phone plays."""
    return _join_key(game, me, request_of(game, credentials(game.public_id)))


def join_card(game: games.GameState, me: Actor, key: str) -> str:
    """This browser's join page as the stream sends it: let in, it leads to the game by itself."""
    return render_block("join.html", "card", **join_card_context(game, me, [], key))


JOIN_PAGE = PushedPage(None, join_card_key, join_card)


# --- the big screen -----------------------------------------------------------------------


def screen_content(state: games.GameState) -> str:
    """What the big screen of a game whose plays the table keeps shows: its shared table, as on its screen."""
    return plays.shared_screen(plays.played(state), state)


# What the big screen shows of a game whose kind brings no content of its own for it.
PLAYED_SCREEN = PushedPage(screen_content)


# The rules pages' styles come with them alone.
RULES_ASSETS = (("static", "rules.css"),)


@bp.get("/games/<public_id>/rules")
def rules(public_id: str) -> ResponseReturnValue:
    """The rules of the game shown, as it is played: its cards, what beats what, the points and its options, read
    from its kind's scoring rules (no number written twice)."""
    state = load_state(public_id)
    kind = kinds.kind_of(state)
    return page(kind.RULES_TEMPLATE, title=gettext("Rules"), page_assets=RULES_ASSETS, game=state,
                label=kind.label(state), **kind.rules_context(kind.setup_of(state)))


# The big screen's styles (the pad's table among them) and its full-screen button's script come with its page alone.
SCREEN_ASSETS = (("static", "pad.css"), ("static", "screen.css"), ("static", "screen.js"))


@bp.get("/games/<public_id>/screen")
def screen(public_id: str) -> ResponseReturnValue:
    """The big-screen view for a TV or laptop: the table's frame (the game's name, big type, pushed live) around
    what the game's kind shows on it."""
    state = load_state(public_id)
    following = follow_next_game(state, "pages.screen")
    if following:
        # A rematch: the big screen shows the next game.
        return open_page(following)
    pushed = pages().pushed(state.kind, "screen")
    assert pushed is not None and pushed.shared is not None  # the table's own, at least
    kind = kinds.kind_of(state)
    # The table lays out what a kind brings no layout of its own for: its shared table beside its board.
    return page("screen.html", title=gettext("Leaderboard"), page_assets=SCREEN_ASSETS, game=state,
                label=kind.label(state),
                shared=pushed.shared(state), edition=state.edition, laid_out_here=pushed is PLAYED_SCREEN)


@bp.post("/games/<public_id>/seats/<int:position>/free")
def free_seat(public_id: str, position: int) -> ResponseReturnValue:
    """The host frees a seat, so another phone (or the host) can play it."""
    return after(service.free_seat(public_id, credentials(public_id), position))


@bp.post("/games/<public_id>/requests/<int:request_id>/let-in")
def let_in(public_id: str, request_id: int) -> ResponseReturnValue:
    """The host lets in the asking phone whose code they picked."""
    return after(service.let_in(public_id, credentials(public_id), request_id))


@bp.post("/games/<public_id>/access")
def access(public_id: str) -> ResponseReturnValue:
    """A host locks the table or opens it (`lock`), welcomes watchers or turns them away (`watchers`): 1 or 0."""
    choices = {name: request.form.get(name) for name in ("lock", "watchers")}
    if any(value not in (None, "0", "1") for value in choices.values()) or set(choices.values()) == {None}:
        return page("error.html", 422, title=gettext("Sorry"),
                    message=gettext("Choose to lock or open the table, or whether watchers are welcome."))
    locked, watchers = ((None if value is None else value == "1") for value in choices.values())
    return after(service.set_access(public_id, credentials(public_id), locked=locked, watchers=watchers))


# The pages of a game anyone with its link may open, whatever its host chose of watchers: the way in (the join page
# and its QR code), a host's links, and the games' static files.
OPEN_TO_ALL = frozenset({"pages.join", "pages.join_qr", "pages.host", "pages.become_host"})


@bp.before_app_request
def watchers_welcome() -> ResponseReturnValue | None:
    """A game whose host turned watchers away shows its pages to its players and hosts alone: anyone else opening
    one is shown the join page (403), which says so, and the live stream answers 403."""
    public_id = (request.view_args or {}).get("public_id")
    endpoint = request.endpoint or ""
    if request.method != "GET" or not isinstance(public_id, str) or endpoint in OPEN_TO_ALL \
            or endpoint.endswith("static"):
        return None
    game = load_state(public_id)
    if may_watch(game, visitor(game)):
        return None
    if endpoint == "pages.events":
        return Response(gettext("The host keeps this game to its players."), 403, mimetype="text/plain")
    return join_page(game, 403)


def may_watch(game: games.GameState, me: Actor) -> bool:
    """Whether this browser may see the game's pages: its players and hosts always, anyone else if its host welcomes
    watchers."""
    return game.watchers or me.role != Role.VIEWER


@bp.post("/games/<public_id>/requests/<int:request_id>/turn-away")
def turn_away(public_id: str, request_id: int) -> ResponseReturnValue:
    """The host says no to a phone asking for a seat."""
    return after(service.turn_away(public_id, credentials(public_id), request_id))


