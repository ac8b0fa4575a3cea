"""Words for every page: problems, scores, names and lists in the reader's language (a kind adds its own)."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

from babel.lists import format_list
from flask import Flask, url_for
from flask_babel import format_date, get_locale

from .. import kinds
from ..i18n import gettext
from ..problems import MAX_NAME, Problem


def join_names(names: Sequence[str]) -> str:
    """Names joined as a sentence in the reader's language."""
    if not names:
        return ""
    return format_list(list(names), locale=str(get_locale() or "en"))


def say(problem: Problem) -> str:
    """A problem as a sentence in the reader's language."""
    return problem.message(translate=gettext, join=join_names)


def problems_by_player(problems: list[Problem], seated: int) -> dict[str, list[str]]:
    """Each player's problems, so a screen can show them next to that player.

    A problem that concerns the whole table is only shown once, above everyone.
    """
    found: dict[str, list[str]] = {}
    for problem in problems:
        if len(problem.players) >= seated:
            continue
        for player in problem.players:
            found.setdefault(player, []).append(say(problem))
    return found


def format_score(points: int | None) -> str:
    """A score with a true minus sign, which reads better than a hyphen."""
    if points is None:
        return ""
    return f"−{-points}" if points < 0 else str(points)


def standings_text(standings: Sequence[Any]) -> str:
    """The leaderboard in one line, to be read out."""
    return join_names([f"{s.name} {format_score(s.total)}" for s in standings])


def _kind_shown(game: Any) -> kinds.GameKind[Any, Any] | None:
    """The kind of the game a page shows (its `game`, if it has one), or None."""
    kind = getattr(game, "kind", None) if game else None
    shelf = kinds.registered()
    return shelf[kind] if isinstance(kind, str) and kind in shelf else None


def header_name(game: Any = None) -> str:
    """What the header and the window's title name: a game's own name on its pages (its kind's title), the app's
    elsewhere."""
    kind = _kind_shown(game)
    return gettext(kind.TITLE) if kind is not None else gettext("Skull King")


def game_assets(game: Any = None, page: Sequence[tuple[str, str]] = (),
                new: kinds.GameKind[Any, Any] | None = None) -> list[tuple[str, str, str]]:
    """The style sheets and scripts of the page itself (`page`: endpoint, filename) and of the game it shows (or, on
    a new game's form, of the kind of game `new`), the game's last, over the table's: as the frame loads them,
    ("style" or "script", address, the element's id)."""
    kind = _kind_shown(game) or new
    own = kind.ASSETS if kind is not None else ()
    return [("script" if filename.endswith(".js") else "style", url_for(endpoint, filename=filename),
             "asset-" + re.sub(r"[^A-Za-z0-9]+", "-", f"{endpoint} {filename}"))
            for endpoint, filename in (*page, *own)]


def finished_on(game: Any) -> str:
    """The day a finished game ended, as the page's language writes a date ("26 November 2026")."""
    return format_date(game.finished_at, format="long") if game.finished_at else ""


def game_label(game: Any) -> str:
    """A game's name in a list, as its kind gives it (a Skull King game's ruleset, a free pad's game as typed)."""
    return kinds.kind_of(game).label(game)


# The styles of the pages around the games (the start page, a new game's form, joining by a code, a crew's page):
# they come with those pages alone, so a phone in a game never fetches them.
START_ASSETS = (("static", "start.css"),)

# The scripts of every page's frame, in the order they run: htmx, its live stream and idiomorph's morph (pinned
# copies), then the page script and its parts, each a small htmx extension. Served as one file, `app.js`
# (`assets.load_bundle`), which `base.html` loads.
FRAME_SCRIPT = "app.js"
FRAME_SCRIPTS = ("htmx-2.0.11.min.js", "htmx-ext-sse-2.2.4.min.js", "idiomorph-ext-0.8.0.min.js", "app/page.js",
                 "app/taps.js", "app/pushes.js", "app/announce.js", "app/keypad.js", "app/invite.js",
                 "app/worth.js")

# Each language in its own words, so everyone finds theirs.
LANGUAGE_NAMES = (("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("it", "Italiano"))


def init_app(app: Flask) -> None:
    """Give every template these words, and the table's limits so no template retypes them."""
    app.jinja_env.filters["score"] = format_score
    app.jinja_env.globals.update(
        standings_text=standings_text,
        current_locale=lambda: str(get_locale() or "en"),
        now_ms=lambda: int(time.time() * 1000),
        language_names=LANGUAGE_NAMES,
        frame_script=FRAME_SCRIPT,
        join_names=join_names,
        game_label=game_label,
        finished_on=finished_on,
        header_name=header_name,
        game_assets=game_assets,
        # The games the start page offers besides the first, whose new game is its big button.
        more_kinds=lambda: list(kinds.registered())[1:],
        MAX_NAME=MAX_NAME,
    )
