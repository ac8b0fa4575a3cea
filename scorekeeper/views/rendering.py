"""Answering a request: a whole page, or for htmx only its `main` block; redirects after changes."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from typing import Any

from flask import g, make_response, redirect, render_template, request, url_for
from flask_babel import get_locale
from jinja2_fragments.flask import render_block
from markupsafe import escape
from werkzeug.wrappers import Response

from .. import games, host_cache, service
from ..i18n import gettext
from ..problems import Problem
from .labels import START_ASSETS, header_name
from .pushed import GAME, PushedPage, pages
from .sessions import load_state


def is_htmx() -> bool:
    """Whether htmx asked for this page (and wants only its main block)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-History-Restore-Request")


def page(template: str, status: int = 200, /, **context: object) -> Response:
    """The whole page, or for htmx just its `main` block."""
    if is_htmx():
        # The header is outside the part swapped in: it names the game of the page all the same.
        game = context.get("game")
        brand = f'<span id="brand-name" hx-swap-oob="true">{escape(header_name(game))}</span>'
        if request.method == "GET":
            # A page opened (a link, a redirect after a new game) brings its game's styles and scripts into the
            # frame; a tap's answer does not, so a tap is one request.
            brand += render_template("_game_assets.html", game=game, oob=True,
                                     page_assets=context.get("page_assets", ()),
                                     new_game_kind=context.get("new_game_kind"))
        response = make_response(render_block(template, "main", fragment=True, **context) + brand, status)
        if request.method != "GET":
            # A refused form shows its page again; the address stays that of the page.
            response.headers["HX-Push-Url"] = "false"
        return response
    return make_response(render_template(template, **context), status)


def start_page(template: str, status: int = 200, /, **context: object) -> Response:
    """A page around the games (the start page, a new game's form, joining by a code, a crew's page), with their
    styles."""
    return page(template, status, page_assets=START_ASSETS, **context)


def once_per_edition(part: str, game_id: int, edition: int, render: Callable[[], str]) -> str:
    """What every screen of a game sees alike at one edition, in this language: drawn once (`drawn_once`)."""
    return drawn_once(part, game_id, edition, lambda: (render(),))[0]


def drawn_once(part: str, game_id: int, edition: int, draw: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
    """What every screen of a game sees alike at one edition, in this language, in pieces: drawn by the first screen
    that asks, then the same bytes for all. The one cache of what is drawn, by (part, game, edition, language):
    every game's shared table, pad, big screen and end, and the live stream's events of them (`views.table`); kept
    for the server's other processes in its host cache too."""
    key = (part, game_id, edition, str(get_locale()))
    return games.cache("drawn").kept_or_made(key, lambda: drawn_on_host(key, draw))


def drawn_on_host(key: tuple[Any, ...], draw: Callable[[], tuple[str, ...]]) -> tuple[str, ...]:
    """`draw()`, unless another process of the server drew it already or is drawing it now (then its drawing)."""
    shared = host_cache.current()
    if shared is None:
        return draw()
    found = shared.get(key)
    if found is None and not shared.claim(key):
        found = shared.wait(key)
    if found is None:
        found = draw()
        shared.put(key, found)
    drawn: tuple[str, ...] = found
    return drawn


# --- the screen a tap came from -------------------------------------------------------------------------------
#
# A browser's tap is answered with the game as its change left it, and that screen's own stream would push the
# same edition straight after: the shared table and its card again, drawn, compressed and sent for nothing (the
# page drops what it shows already). So each page loaded whole names its screen (a random id, in the frame's htmx
# headers and in its stream's address); a change notes, before it draws its answer, the edition it answers that
# screen with (in its process, and for the server's other processes in the host cache); the screen's stream,
# about to send that edition, sends nothing. It only ever leaves out what the screen is shown anyway: another tab
# of the same player has a screen of its own, and is sent everything.

SCREEN_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")


def _sent_screen() -> str | None:
    """The screen this request's htmx headers name, if they name one as a page does."""
    sent = request.headers.get("X-Screen", "")
    return sent if SCREEN_ID.fullmatch(sent) else None


def screen_id() -> str:
    """This page's screen: the one its htmx requests name, else a new one for a page loaded whole."""
    sent = _sent_screen()
    if sent is not None:
        return sent
    if "screen_id" not in g:
        g.screen_id = secrets.token_urlsafe(9)
    return str(g.screen_id)


def note_answered(game_id: int, edition: int) -> None:
    """The screen this request came from is answered with the game's screen at `edition`."""
    sent = _sent_screen()
    if sent is None:
        return
    key = ("answered", game_id, sent)
    games.cache("answered screens").put(key, edition)
    host = host_cache.current()
    if host is not None:
        host.put(key, edition)


def answered_edition(game_id: int, screen: str | None, on_host: bool = False) -> int | None:
    """The edition of the game's screen a change's answer last showed `screen`, as this process knows it, or,
    `on_host`, as the server's processes together do (the screen's taps may be answered by any of them)."""
    if not screen:
        return None
    key = ("answered", game_id, screen)
    host = host_cache.current() if on_host else None
    edition: int | None = host.get(key) if host is not None else games.cache("answered screens").get(key)
    return edition


def see_other(url: str) -> Response:
    """Redirect after a change, so reloading never repeats it."""
    return redirect(url, code=303)


def shown_after_change(response: Response, url: str) -> Response:
    """An htmx change answered with the page it leads to (`url`), in this one answer: no 303 and
    no second request, which a slow phone feels as a second round trip. The address bar shows
    that page, so a reload fetches it and never repeats the change."""
    if response.status_code == 200:
        response.headers.pop("HX-Push-Url", None)
        response.headers["HX-Replace-Url"] = url
    return response


def open_page(url: str) -> Response:
    """After a change that leads to another page (a new game, an import, a seat taken): go there.

    For htmx, `HX-Location` fetches that page into `main` and puts its address in the bar,
    so a reload stays on it; a plain browser follows a 303.
    """
    if not is_htmx():
        return see_other(url)
    response = make_response("", 200)
    response.headers["HX-Location"] = json.dumps({"path": url, "target": "#main",
                                                  "swap": "innerHTML show:window:top"})
    return response


def refuse(message: str, status: int = 403) -> Response:
    """A refusal in words, as a page (or its main block for htmx)."""
    return page("error.html", status, title=gettext("Sorry"), message=message)


def not_yours() -> Response:
    """Refuse a change that belongs to another phone or to the host."""
    return refuse(gettext("Only that player's own phone or the host can change this."))


def download(body: str, mimetype: str, filename: str) -> Response:
    """A file to save, which no browser may read as anything but its type."""
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


def game_page_of(state: games.GameState) -> PushedPage:
    """How the game's kind shows its own screen (the table's one screen, unless it draws its own)."""
    found = pages().pushed(state.kind, GAME)
    assert found is not None, "the table registers every game's screen"
    return found


def show_game(state: games.GameState, status: int = 200, problems: list[Problem] | None = None,
              **extra: Any) -> Response:
    """The game (as read for this request) as this browser may see it, drawn by its kind."""
    show = game_page_of(state).show
    assert show is not None, "a game's screen is drawn"
    return show(state, status, problems, **extra)


def after(outcome: service.Outcome, **extra: Any) -> Response:
    """The answer to a change: the game as it is now, or the game again with the problems (422).

    htmx gets the game in this answer; a plain form is sent there with a 303 (post/redirect/get).
    `extra`: what the kind's page shows again of a refused form.
    """
    url = url_for("pages.game", public_id=outcome.public_id)
    if outcome.ok and not is_htmx():
        return see_other(url)
    # The game as the change stored it, as it stands now (no read); read for a refusal.
    state = load_state(outcome.public_id, outcome.stored)
    if not outcome.ok:
        return show_game(state, 422, list(outcome.problems), **extra)
    if outcome.stale:
        # Nothing was applied (a tap sent again after its hand closed): the page says so, with the table as it is.
        return show_game(state, 422, [service.MOVED_ON])
    # Before it is drawn: the screen's stream, in another process, may wake while it is. Not for a repeat: it may be
    # a try the page gave up on (no answer in 20 s) and sent again, whose answer the page never gets; its stream
    # must not leave out the edition it shows.
    if not outcome.repeat:
        note_answered(state.id, state.edition)
    return shown_after_change(show_game(state), url)
