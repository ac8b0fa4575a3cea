"""What a browser keeps between visits: the games it hosts and the seats it holds, in its session."""

from __future__ import annotations

import re
import secrets
import time

from flask import Flask, current_app, g, request, session, url_for
from flask_wtf.csrf import generate_csrf

from .. import service
from ..access import Actor, Credentials, identify, seat_secret
from ..clock import utcnow
from ..games import AnyGame, GameState, as_it_stands, cache, load

KEPT_GAMES = 20
# How long one signed CSRF token serves a browser's pages in one process (each stays good for the hour the check
# allows from when it was signed, so a page drawn last in these minutes has its forms good for 55 minutes).
TOKEN_SERVES_SECONDS = 300


def csrf_token() -> str:
    """The CSRF token of this browser's forms: signed once every few minutes per browser and process rather than
    for every page drawn (110 µs each here)."""
    if not isinstance(session.get("csrf_token"), str):
        generate_csrf()  # the browser's first: its secret goes into its session, the token it signs into `g`
    key = (session["csrf_token"], int(time.time() // TOKEN_SERVES_SECONDS))
    token: str = cache("signed csrf tokens").kept_or_made(key, generate_csrf)
    return token


def init_app(app: Flask) -> None:
    """The pages' CSRF tokens, signed once in a while (`csrf_token`)."""
    # The global serves the macros (imported without the context); CSRFProtect hands its own signer to every
    # template through a context processor, which this later one takes the place of.
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.context_processor(lambda: {"csrf_token": csrf_token})


def client_address() -> str:
    """The client's address: behind a proxy, the one it reports (ProxyFix, by configuration)."""
    return (request.remote_addr or "unknown")[:48]


def browser_id() -> str:
    """A random name for this browser, kept in its session: what per-browser limits count by."""
    if not isinstance(session.get("browser"), str):
        session["browser"] = secrets.token_urlsafe(12)
    found: str = session["browser"]
    return found


def too_many_new_games() -> bool:
    """Count a new game or an import from this address; whether it is one too many this minute."""
    try:
        service.count_try({f"new {client_address()}": current_app.config["NEW_GAMES_PER_MINUTE"]})
    except service.TooManyTries:
        return True
    return False


def _remember(key: str, public_id: str, value: str | None) -> None:
    """Keep `value` for a game in the session, for the newest games only (a change that gave no secret: nothing)."""
    if value is None:
        return
    kept = dict(session.get(key, {}))
    kept.pop(public_id, None)
    kept[public_id] = value
    session[key] = dict(list(kept.items())[-KEPT_GAMES:])
    session.permanent = True


def keep_host_key(public_id: str, token: str | None) -> None:
    """This browser runs the game from now on."""
    _remember("hosting", public_id, token)


def forget_host_key(public_id: str) -> None:
    """This browser no longer runs the game (another does)."""
    kept = dict(session.get("hosting", {}))
    if kept.pop(public_id, None) is not None:
        session["hosting"] = kept


def keep_seat_token(public_id: str, token: str | None) -> None:
    """This browser is the phone of a seat from now on."""
    _remember("seats", public_id, token)


def keep_asking_token(public_id: str, token: str | None) -> None:
    """This browser asked the host for a seat with this secret (the seat's own once let in)."""
    _remember("asking", public_id, token)


# A tap id as a page makes it: random, URL-safe, long enough that no two phones make the same.
TAP_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def tap_id() -> str | None:
    """The id of the tap this write carries (the `X-Tap` header a page sends, or a form's `tap` field), if any."""
    tap = request.headers.get("X-Tap") or request.form.get("tap") or ""
    return tap if TAP_ID.fullmatch(tap) else None


def credentials(public_id: str | None) -> Credentials:
    """The secrets this browser holds for a game (None: a game not made yet), with the tap this request carries."""
    def kept(key: str) -> str | None:
        value = session.get(key, {}).get(public_id) if public_id is not None else None
        return value if isinstance(value, str) else None

    browser = session.get("browser")
    return Credentials(kept("hosting"), kept("seats"), kept("asking"), tap_id(),
                       browser if isinstance(browser, str) else None)


def follow_next_game(game: AnyGame, endpoint: str = "pages.game") -> str | None:
    """Where this browser goes once the host started the next game with these players; None: it stays.

    A phone goes to its seat there (the seat kept its secret: this browser keeps it for the new
    game too), or to the join page if its name is gone; anyone watching watches the next game
    (`endpoint`: the big screen stays a big screen). The host went there already.
    """
    if game.next_game is None or visitor(game).is_host:
        return None
    following = load(game.next_game)
    if following is None:
        return None
    secret = seat_secret(game, credentials(game.public_id))
    if secret is None:
        return url_for(endpoint, public_id=following.public_id)
    if seat_secret(following, Credentials(seat_token=secret)) is None:
        return url_for("pages.join", public_id=following.public_id)
    keep_seat_token(following.public_id, secret)
    return url_for("pages.game", public_id=following.public_id)


def visitor(game: AnyGame) -> Actor:
    """Who this browser is at `game`."""
    return identify(game, credentials(game.public_id))


def load_state(public_id: str, stored: GameState | None = None) -> GameState:
    """The game of the URL as plain values, as it stands now, or NotFound (a 404 page); `stored`: as a change has
    just stored it (read only if it has moved on since). A page read once per request: the check of who may watch
    read it before the view (a GET writes nothing, so it stands)."""
    state = as_it_stands(stored, utcnow()) if stored is not None else None
    read: GameState | None = g.get("game_read")
    if state is None and request.method == "GET" and read is not None and read.public_id == public_id:
        return read
    if state is None:
        state = load(public_id)
    if state is None:
        raise service.NotFound(public_id)
    if request.method == "GET":
        g.game_read = state
    return state
