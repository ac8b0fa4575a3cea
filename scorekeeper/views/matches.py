"""The other games on the shelf (Skip-Bo, Dracula): their new-game forms, their one screen, their taps.

Each game's `kind` module says what its screen shows and what a tap does; the table's
machinery (join, seats, the live stream, pad files) is the same as Skull King's.
"""

from __future__ import annotations

import json
from typing import Any

from flask import abort, request, url_for
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from .. import games, service, shelf
from . import bp
from .labels import say
from .rendering import is_htmx, open_page, page, see_other, shown_after_change
from .sessions import credentials, follow_next_game, keep_host_token, too_many_new_games, visitor


def kind_named(name: str) -> shelf.Kind:
    """The game of the shelf called `name`, or a 404."""
    kind = shelf.kinds().get(name)
    if kind is None:
        abort(404)
    return kind


@bp.route("/games/new/<kind_name>", methods=["GET", "POST"])
def new_match(kind_name: str):
    """The new-game form of another game on the shelf; a valid one starts it, run by this browser."""
    kind = kind_named(kind_name)
    title = gettext(kind.TITLE)
    after = request.values.get("after") or None
    if request.method == "GET":
        return page(kind.NEW_TEMPLATE, title=title, form=players_of(kind, after), problems=[], kind=kind, after=after)
    if too_many_new_games():
        return page(kind.NEW_TEMPLATE, 429, title=title, form=request.form, kind=kind, after=after,
                    problems=[gettext("Too many new games from here. Wait a minute and try again.")])
    found = kind.setup_from_form(request.form)
    if found.setup is None:
        return page(kind.NEW_TEMPLATE, 422, title=title, form=request.form, kind=kind, after=after,
                    problems=[say(p) for p in found.problems])
    # With an earlier game's players it joins that game's crew (their statistics); its host alone may say so.
    outcome = service.create_match(kind, found.setup, credentials(after) if after else None, after)
    keep_host_token(outcome.public_id, outcome.secret)
    return open_page(url_for("pages.game", public_id=outcome.public_id))


def players_of(kind: shelf.Kind, public_id: str | None) -> MultiDict | None:
    """The new-game form filled in with an earlier game's players, for "New game with these players"."""
    game = games.find_game(public_id) if public_id else None
    if game is None or game.kind != kind.NAME:
        return None
    return MultiDict(kind.form_fields(kind.from_stored([s.name for s in game.seats], game.options)))


def match_page(public_id: str, status: int = 200, problems: list[str] | None = None):
    """The one screen of a shelf game: the table, this browser's own taps, the pad and the leaderboard."""
    game = games.find_game(public_id)
    if game is None:
        raise service.NotFound(public_id)
    following = follow_next_game(game)
    if following and status == 200:
        # The host started the next game with these players: every phone follows, no scan.
        return open_page(following)
    found = shelf.stored(game)
    if found is None:
        raise service.NotFound(public_id)
    me = visitor(game)
    context = found.kind.context(found.setup, found.closed, found.draft, shelf.Player(me.seat, me.is_host))
    # Every tap names the game or round it was drawn for: one that comes late changes nothing.
    return page(found.kind.TEMPLATE, status, title=gettext(found.kind.TITLE), game=game, visitor=me, kind=found.kind,
                problems=problems or [], play_number=len(found.closed) + 1, **context)


@bp.post("/games/<public_id>/play")
def play(public_id: str):
    """A tap on a shelf game's screen: who went out, cards left, a coffin."""
    game = games.find_game(public_id)
    kind = shelf.kinds().get(game.kind) if game is not None else None
    if kind is None:
        raise service.NotFound(public_id)
    change = kind.parse_change(request.form)
    if change is None:
        return match_page(public_id, 422,
                          [gettext("The request could not be understood. Reload the page and try again.")])
    drawn_for = request.form.get("play", "")
    outcome = service.play(public_id, credentials(public_id), change,
                           int(drawn_for) if drawn_for.isascii() and drawn_for.isdigit() else None)
    if outcome.stale:
        return see_other(url_for("pages.game", public_id=public_id))
    if not outcome.ok:
        return match_page(public_id, 422, [say(p) for p in outcome.problems])
    url = url_for("pages.game", public_id=public_id)
    # htmx gets the screen in this answer; a plain form is sent there (post/redirect/get).
    return shown_after_change(match_page(public_id), url) if is_htmx() else see_other(url)


def export(game: Any) -> tuple[dict[str, Any], str]:
    """The pad file of a shelf game, and the start of its file name."""
    found = shelf.stored(game)
    if found is None:
        raise service.NotFound(game.public_id)
    return found.kind.write_pad(found.setup, found.closed), found.kind.NAME


def pad_text(doc: dict[str, Any]) -> str:
    """A pad document as its file holds it."""
    return json.dumps(doc, indent=2, ensure_ascii=False)
