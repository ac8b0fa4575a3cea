"""The pages of the app: views that parse a request, call one service function or read, and render.

The table's blueprint, `pages`, whatever module a view lives in; each game brings a Blueprint of its own.
"""

from __future__ import annotations

import random

from flask import Blueprint, Flask, current_app, jsonify, make_response, request, url_for
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException, NotFound

from .. import kinds, service
from ..i18n import gettext
from ..logs import one_line
from ..pace import Busy

bp = Blueprint("pages", __name__)

from . import crews, headers, labels, offline, plays, pushed, sessions, start, table  # noqa: E402, F401  (their views register on bp)
from .rendering import not_yours, page, refuse, screen_id  # noqa: E402


def _asks_the_import_api() -> bool:
    """Whether the request is a script's import (answered in JSON), not a page's."""
    return request.path == url_for("pages.import_game") and request.is_json


def error_page(error: HTTPException) -> ResponseReturnValue:
    """A clear page (or JSON for the import API) instead of a bare error."""
    messages = {
        400: gettext("The request could not be understood. Reload the page and try again."),
        404: gettext("There is nothing here. Check the link, or start a new game."),
        405: gettext("That is not something this page can do."),
        413: gettext("That file is too large for a pad file."),
    }
    if isinstance(error, CSRFError):
        message = gettext("This page was open too long or came from elsewhere. Reload it and try again.")
    else:
        message = messages.get(error.code or 400, gettext("Something went wrong."))
    if _asks_the_import_api():
        return jsonify(problems=[message]), error.code or 400
    return page("error.html", error.code or 400, title=gettext("Sorry"), message=message)


def not_found(error: service.NotFound) -> ResponseReturnValue:
    """No such game or hand: the 404 page."""
    return error_page(NotFound())


def not_allowed(error: service.NotAllowed) -> ResponseReturnValue:
    """A change this browser may not make, refused in words."""
    if error.phone_seat:
        return refuse(gettext("That player's seat has its own phone now: only their phone can change it."))
    return not_yours()


# When a write turned away is to come again, in seconds: spread, so the writes turned away together do not all come
# back in the same instant.
RETRY_AFTER_SECONDS = (1, 3)


def busy(error: Busy) -> ResponseReturnValue:
    """A write turned away (see pace.py): 503 and when to send it again (the page's waiting tap does, once); nothing
    of it is done."""
    current_app.logger.warning("write to %s turned away (%s): answered 503", request.path, error)
    return come_again()


def come_again() -> ResponseReturnValue:
    """503 with when to send the request again (the page's waiting tap does, once), saying nothing was changed."""
    message = gettext("The table is very busy just now: nothing was changed. Try again in a moment.")
    response = make_response(jsonify(problems=[message]), 503) if _asks_the_import_api() else refuse(message, 503)
    response.headers["Retry-After"] = str(random.randint(*RETRY_AFTER_SECONDS))
    return response


def connection_lost(error: DBAPIError) -> ResponseReturnValue:
    """A request that met a connection the database had dropped (it restarted): answered as a write turned away,
    503 and when to come again (a new connection replaces it); nothing of it is done. Any other error of the
    database's is the server's error."""
    if not error.connection_invalidated:
        raise error
    current_app.logger.warning("%s %s met a connection the database had dropped (%s): answered 503", request.method,
                               request.path, one_line(error.orig or error))
    return come_again()


def name_the_browser() -> None:
    """A page opened gives its browser an id (in its session) before it sends any tap: the taps it sends belong to
    it, and a tap sent again after a lost answer carries the same id (`rows.Tap`). A write from a client with no
    session (a script's import) is named too, afresh: its tap is its own, never answered to another such client."""
    if request.endpoint is not None and not request.endpoint.endswith("static"):
        sessions.browser_id()


def init_app(app: Flask) -> None:
    """Register the pages on `app` (each kind's own first); every answer gets `Vary: HX-Request` and the
    protective headers."""
    labels.init_app(app)
    sessions.init_app(app)
    app.jinja_env.globals["screen_id"] = screen_id
    table_pages = pushed.pages_of(app).table
    table_pages["join"], table_pages["screen"] = table.JOIN_PAGE, table.PLAYED_SCREEN
    table_pages[pushed.GAME] = plays.PLAYED_PAGE
    for kind in app.extensions[kinds.EXTENSION]:
        kind.init_app(app)
    app.register_blueprint(bp)
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, error_page)
    app.register_error_handler(service.NotFound, not_found)
    app.register_error_handler(service.NotAllowed, not_allowed)
    app.register_error_handler(Busy, busy)
    app.register_error_handler(DBAPIError, connection_lost)
    app.before_request(name_the_browser)
    headers.init_app(app)

