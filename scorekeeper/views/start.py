"""The way in: the start page, a new game, a pad file imported, join codes, the language."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from flask import abort, current_app, jsonify, request, session, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from .. import games, kinds, service
from ..access import identify
from ..clock import utcnow
from ..extensions import csrf
from ..i18n import gettext
from ..padfile import PadError
from ..problems import N_
from . import bp
from .crews import my_games, my_record, tonight
from .labels import say
from .rendering import open_page, see_other, start_page
from .sessions import (
    browser_id,
    client_address,
    credentials,
    forget_host_key,
    keep_host_key,
    load_state,
    too_many_new_games,
)
from .table import qr_svg


@bp.get("/")
def index() -> ResponseReturnValue:
    """The start page: begin a new game, join one, reopen one of this browser's, or bring one in from a pad file."""
    listed, undoable = my_games()
    record, headings = my_record()
    return start_page("index.html", title=gettext("Skull King scorekeeper"), my_games=listed, undoable=undoable,
                      record=record, headings=headings, tonight=tonight(listed))


@bp.route("/games/new", methods=["GET", "POST"], defaults={"kind_name": None})
@bp.route("/games/new/<kind_name>", methods=["GET", "POST"])
def new_game(kind_name: str | None) -> ResponseReturnValue:
    """A game's new-game form (the first game on the shelf's without a name); a valid one starts the game, run by
    this browser."""
    offered = kinds.registered()
    if kind_name is not None and kind_name not in offered:
        abort(404)
    kind = offered[kind_name] if kind_name is not None else next(iter(offered))
    after = request.values.get("after") or None
    context = {"title": gettext(kind.TITLE), "kind": kind, "new_game_kind": kind, "after": after,
               **kind.new_game_context()}
    if request.method == "GET":
        return start_page(kind.NEW_TEMPLATE, form=players_of(kind, after), problems=[], **context)
    if too_many_new_games():
        return start_page(kind.NEW_TEMPLATE, 429, form=request.form, **context,
                          problems=[gettext("Too many new games from here. Wait a minute and try again.")])
    found = kind.setup_from_form(request.form)
    if found.setup is None:
        return start_page(kind.NEW_TEMPLATE, 422, form=request.form, problems=[say(p) for p in found.problems],
                          **context)
    # With an earlier game's players it joins that game's crew (their statistics); its host alone may say so.
    outcome = service.create(kind, found.setup, credentials=credentials(after), after=after)
    keep_host_key(outcome.public_id, outcome.secret)
    return open_page(url_for("pages.game", public_id=outcome.public_id))


def players_of(kind: kinds.GameKind[Any, Any], public_id: str | None) -> MultiDict[str, str] | None:
    """The new-game form filled in with an earlier game's players and options, for "New game with these players"."""
    game = games.find_game(public_id) if public_id else None
    if game is None or game.kind != kind.NAME:
        return None
    return MultiDict(kind.form_fields(kind.setup_of(game)))


def import_any(text: bytes) -> service.Outcome:
    """Store a pad file of any game as a new game; PadError when it is refused (nothing stored)."""
    kind, (setup, plays) = kinds.registered().read_any(text)
    return service.create(kind, setup, plays, credentials(None))


@bp.post("/games/import")
@csrf.exempt  # type: ignore[untyped-decorator]  # Flask-WTF's is untyped; it returns the view
def import_game() -> ResponseReturnValue:
    """Bring in a pad file: JSON answers 201 or 422; a file upload answers with pages."""
    if too_many_new_games():
        message = gettext("Too many new games from here. Wait a minute and try again.")
        if request.is_json:
            return jsonify(problems=[message]), 429
        return start_page("index.html", 429, title=gettext("Skull King scorekeeper"), import_problems=[message])
    if request.is_json:
        try:
            outcome = import_any(request.get_data())
        except PadError as error:
            return jsonify(problems=[say(p) for p in error.problems]), 422
        url = url_for("pages.game", public_id=outcome.public_id, _external=True)
        host_url = url_for("pages.host", public_id=outcome.public_id, key=outcome.secret, _external=True)
        response = jsonify(url=url, host_url=host_url)
        response.status_code = 201
        response.headers["Location"] = url
        return response
    # A browser form: JSON posts cannot come from another site's form, uploads can.
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    upload = request.files.get("pad")
    if upload is None or not upload.filename:
        problems = [gettext("Choose a pad file to import.")]
    else:
        try:
            outcome = import_any(upload.read())
        except PadError as error:
            problems = [say(p) for p in error.problems]
        else:
            keep_host_key(outcome.public_id, outcome.secret)
            return open_page(url_for("pages.game", public_id=outcome.public_id))
    return start_page("index.html", 422, title=gettext("Skull King scorekeeper"), import_problems=problems)


@bp.route("/games/<public_id>/host/<key>", methods=["GET", "POST"])
def host(public_id: str, key: str) -> ResponseReturnValue:
    """A host link (given by the import API): its page asks whether to run the game on this browser, and a POST of
    it does; the link's GET changes nothing, and neither sends the key on (no Referer)."""
    game = games.load(public_id)
    if game is None or not identify(game, service.Credentials(host_key=key)).is_host:
        raise service.NotFound(public_id)
    if request.method == "GET":
        response = start_page("host_link.html", title=gettext("Run this game here"), game=game, key=key)
    else:
        keep_host_key(public_id, key)
        current_app.logger.info("host role taken over for game %s", public_id)
        response = see_other(url_for("pages.game", public_id=public_id))
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _private(response: Response) -> Response:
    """A page whose address holds a secret: not sent on to another site, not kept by a cache."""
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/<public_id>/hosts")
def another_host(public_id: str) -> ResponseReturnValue:
    """A host asks for a link another device becomes a host with: shown with its QR code, working once, for a while."""
    seconds = int(current_app.config["HOST_GRANT_SECONDS"])
    outcome = service.grant_host(public_id, credentials(public_id), timedelta(seconds=seconds))
    assert outcome.secret is not None, "a way to another host has its code"
    link = url_for("pages.become_host", public_id=public_id, code=outcome.secret, _external=True)
    if not outcome.repeat:
        current_app.logger.info("game %s: a link to become a host given, for %d s", public_id, seconds)
    # Drawn afresh, not through the join QR's cache: each such link is new, and a secret.
    qr = Markup(qr_svg.__wrapped__(link))
    return _private(start_page("another_host.html", title=gettext("Another host"), game=load_state(public_id),
                               link=link, qr=qr, minutes=max(1, seconds // 60)))


@bp.route("/games/<public_id>/hosts/<code>", methods=["GET", "POST"])
def become_host(public_id: str, code: str) -> ResponseReturnValue:
    """A link to become a host: its page asks whether this device becomes a host of the game, and a POST of it does,
    once; a link used or too old is refused in words. The GET changes nothing."""
    game = load_state(public_id)
    if request.method == "GET":
        if games.open_grant(game.id, code, utcnow()) is None:
            return _private(start_page("error.html", 410, title=gettext("Sorry"), message=say(service.GRANT_GONE)))
        return _private(start_page("become_host.html", title=gettext("Become a host"), game=game, code=code))
    outcome = service.become_host(public_id, credentials(public_id), code)
    if not outcome.ok:
        return _private(start_page("error.html", 410, title=gettext("Sorry"),
                                   message=" ".join(say(p) for p in outcome.problems)))
    keep_host_key(public_id, outcome.secret)
    if not outcome.repeat:
        current_app.logger.info("game %s: another device became a host", public_id)
    return see_other(url_for("pages.game", public_id=public_id))


# What the host is told when leaving the host's role would leave the game without one.
LEAVE_FIRST = N_("Give the host's role to another device first (“Another host”): a game needs a host.")


@bp.post("/games/<public_id>/hosts/leave")
def leave_host(public_id: str) -> ResponseReturnValue:
    """A host leaves the host's role to the others: this browser forgets the host's key, once another device has
    become a host by a link (before that, leaving would leave the game without a host)."""
    game = load_state(public_id)
    if not identify(game, credentials(public_id)).is_host:
        raise service.NotAllowed()
    if games.hosts_added(game.id) == 0:
        return start_page("error.html", 422, title=gettext("Sorry"), message=gettext(LEAVE_FIRST))
    forget_host_key(public_id)
    current_app.logger.info("game %s: a host left the host's role", public_id)
    return see_other(url_for("pages.game", public_id=public_id))


@bp.route("/join", methods=["GET", "POST"])
def join_by_code() -> ResponseReturnValue:
    """Type the short code the host screen shows; guessing is slowed down."""
    if request.method == "GET":
        return start_page("join_code.html", title=gettext("Join a game"), problems=[])
    code = "".join(request.form.get("code", "").split()).upper()[:12]
    limit = current_app.config["JOIN_TRIES_PER_MINUTE"]
    # Each browser has its own count, so one guesser in a café locks only itself; one address
    # (a guesser who drops its cookies) still gets ten times as many tries, no more.
    buckets = {f"join {browser_id()}": limit, f"join {client_address()}": limit * 10}
    try:
        public_id = service.find_by_join_code(buckets, code)
    except service.TooManyTries:
        return start_page("join_code.html", 429, title=gettext("Join a game"),
                          problems=[gettext("Too many tries. Wait a minute, or scan the QR code instead.")])
    if public_id is None:
        return start_page("join_code.html", 422, title=gettext("Join a game"),
                          problems=[gettext("No game has the code “%(code)s”. Check it on the host screen.",
                                            code=code)])
    return open_page(url_for("pages.join", public_id=public_id))


def same_site_path(target: str) -> str | None:
    """`target` if it is a path of this site, else None.

    Browsers drop tabs and newlines inside addresses and read a backslash as a slash,
    so "/\\t/evil.example" would leave the site: any of those refuses the target.
    """
    if any(char.isspace() or ord(char) < 32 or char == "\\" for char in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return None
    return target


@bp.post("/language")
def language() -> ResponseReturnValue:
    """Remember the language the player picked, and show the page it was picked on again."""
    chosen = request.form.get("language", "")
    if chosen in current_app.config["LANGUAGES"]:
        session["language"] = chosen
    # The page the browser shows (its Referer: htmx swaps pages under the header, whose form names the page it was
    # drawn with), else the form's.
    shown = urlsplit(request.referrer or "")
    page_shown = shown.path + (f"?{shown.query}" if shown.query else "") if shown.netloc == request.host else ""
    return see_other(same_site_path(page_shown) or same_site_path(request.form.get("next", ""))
                     or url_for("pages.index"))
