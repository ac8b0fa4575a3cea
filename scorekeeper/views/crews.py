"""The table's memory: the games this browser took part in, a crew's statistics, a play for BG Stats."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import timedelta
from typing import Any

from flask import abort, current_app, request, session, url_for
from flask.typing import ResponseReturnValue

from .. import bgstats, games, kinds, service, stats
from ..access import Role, browser_key
from ..clock import utcnow
from ..i18n import gettext
from ..models import Game
from . import bp
from .labels import game_label, say
from .rendering import download, open_page, page, see_other, start_page
from .sessions import credentials, keep_host_key, load_state, visitor

# The start page lists at most this many games of this browser, newest first.
LISTED = 20
# The crew's chart of totals shows this many of its latest games.
CHARTED_GAMES = 50


def my_public_ids() -> list[str]:
    """The games this browser's session names: hosted, seats taken, seats asked for."""
    ids = [*session.get("hosting", {}), *session.get("seats", {}), *session.get("asking", {})]
    return [i for i in dict.fromkeys(ids) if isinstance(i, str)]


def _mine(crew: str | None = None) -> list[Game]:
    """The games among this browser's (of `crew` only, if given) that it hosts or plays a seat of now, newest first.

    A session remembers what a browser once asked for; access follows what the game says now,
    so a phone the host turned away, or one whose seat went to a new phone, sees none of it.
    """
    return [g for g in games.games_among(my_public_ids(), crew) if visitor(g).role != Role.VIEWER]


def my_games() -> tuple[list[Game], list[Game]]:
    """This browser's games, newest first; and those it deleted that can still be brought back."""
    found = _mine()
    since = utcnow() - timedelta(seconds=service.UNDO_SECONDS)
    listed = [g for g in found if g.deleted_at is None][:LISTED]
    undoable = [g for g in found if g.deleted_at is not None and g.deleted_at >= since
                and visitor(g).is_host]
    return listed, undoable


# Tonight's standings: the games of a crew that ended in the hours before its latest one.
TONIGHT = timedelta(hours=12)


def my_record() -> tuple[dict[str, stats.Record], dict[str, str]]:
    """This browser's record per game over the finished games it played a seat of, across every crew, with each
    game's heading; none for a browser that never took a seat."""
    browser = session.get("browser")
    key = browser_key(browser) if isinstance(browser, str) else None
    played = list(games.played_by(key)) if key else []
    return (stats.record([(row.summary, row.position) for row in played]),
            {stats.group_of(row.summary): game_label(row) for row in played})


def tonight(listed: list[Game]) -> tuple[Game, list[stats.Standing]] | None:
    """The crew of this browser's game that ended last, and each player's wins and points over its games of the 12
    hours up to then; None before any of its games ended."""
    ended = [g for g in listed if g.summary and g.finished_at is not None]
    if not ended:
        return None
    last = max(ended, key=lambda g: g.finished_at or g.created_at)
    assert last.finished_at is not None
    since = last.finished_at - TONIGHT
    night = [r.summary for r in games.crew_games(last.crew)
             if r.summary and r.finished_at is not None and since <= r.finished_at <= last.finished_at]
    return last, stats.standings(night)


def share_key(crew: str) -> str:
    """The key in a crew's shared link: made from the app's secret, so nobody can guess it from the crew."""
    secret = current_app.config["SECRET_KEY"]
    secret = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(secret, f"crew {crew}".encode(), hashlib.sha256).hexdigest()[:24]


def may_see_crew(crew: str) -> bool:
    """Whether this browser took part in a game of the crew, or holds the link the host shared."""
    key = request.args.get("key", "")
    if key and hmac.compare_digest(key.encode(), share_key(crew).encode()):
        return True
    return bool(_mine(crew))


def _finished_crew(crew: str) -> tuple[list[Any], list[kinds.Summary]]:
    """A crew's games, oldest first, and the summaries of the finished ones in the order they ended; 404 for a
    crew this browser may not see, or none."""
    if not games.PUBLIC_ID.fullmatch(crew) or not may_see_crew(crew):
        abort(404)
    rows = list(games.crew_games(crew))
    if not rows:
        abort(404)
    ended = sorted((r for r in rows if r.summary), key=lambda r: r.finished_at or r.created_at)
    return rows, [r.summary for r in ended]


def _headings(rows: list[Any]) -> dict[str, str]:
    """Each game's statistics headed by its name: the kind's, or a free pad's game as typed (its latest game's)."""
    headings: dict[str, str] = {}
    for row in reversed(rows):
        # A name is worked out in the reader's language: once a game, not once a row.
        if row.summary and stats.group_of(row.summary) not in headings:
            headings[stats.group_of(row.summary)] = game_label(row)
    return headings


def _rating_charts(ratings: dict[str, stats.Ratings], styles: dict[str, int],
                   only: str | None = None) -> dict[str, stats.Chart]:
    """Each game's ratings over the games that ended (of one player, if `only`), the latest alone on a long
    course."""
    charts = {}
    for group, board in ratings.items():
        course = {name: points for name, points in board.course.items() if only is None or name == only}
        if not course:
            continue
        charts[group] = stats.chart({name: [(x, y) for x, y in points if x >= board.games - CHARTED_GAMES]
                                     for name, points in course.items()},
                                    gettext("games"), styles=styles, from_zero=False)
    return charts


@bp.get("/crews/<crew>")
def crew(crew: str) -> ResponseReturnValue:
    """A crew's games and each player's statistics and rating, with their charts; for the devices that took part."""
    rows, ended = _finished_crew(crew)
    finished = [r for r in rows if r.summary]
    summaries = [r.summary for r in finished]
    by_kind = stats.statistics(summaries)
    # A player keeps one colour and dash in every chart of the page.
    styles = stats.player_styles(summaries)
    charts = {}
    for kind, players in by_kind.items():
        latest = [place for place, s in enumerate(summaries, start=1) if stats.group_of(s) == kind][-CHARTED_GAMES:]
        first = latest[0] if latest else 0
        charts[kind] = stats.chart({p.name: [(x, y) for x, y in p.totals if x >= first] for p in players},
                                   gettext("games"), styles=styles)
    ratings = stats.ratings(ended)
    chosen = request.args.get("game")
    shown = next((r for r in finished if r.public_id == chosen), finished[-1] if finished else None)
    hand_chart = (stats.chart(stats.running(shown.summary["per_hand"], shown.summary["players"]), gettext("hands"),
                              styles=styles) if shown else None)
    hosted = set(session.get("hosting", {}))
    return start_page("crew.html", title=gettext("Our games"), crew=crew, rows=rows[::-1][:LISTED], count=len(rows),
                      by_kind=by_kind, headings=_headings(rows), charts=charts, shown=shown, hand_chart=hand_chart,
                      ratings=ratings, rating_charts=_rating_charts(ratings, styles), key=request.args.get("key"),
                      share=url_for("pages.crew", crew=crew, key=share_key(crew), _external=True)
                      if any(r.public_id in hosted for r in rows) else None)


@bp.get("/crews/<crew>/players/<path:name>")
def player(crew: str, name: str) -> ResponseReturnValue:
    """One player of a crew: their record in each game, their rating, head to head with each other player and their
    rival; for the devices that may see the crew."""
    rows, ended = _finished_crew(crew)
    if not any(name in s["players"] for s in ended):
        abort(404)
    mine = [s for s in ended if name in s["players"]]
    records = {group: next(p for p in players if p.name == name)
               for group, players in stats.statistics(mine).items()}
    ratings = stats.ratings(ended)
    standing = {group: round(board.now[name]) for group, board in ratings.items() if name in board.now}
    styles = stats.player_styles(ended)
    return start_page("player.html", title=name, crew=crew, name=name, records=records, headings=_headings(rows),
                      standing=standing, rating_charts=_rating_charts(ratings, styles, only=name),
                      rivals=stats.head_to_head(ended, name), rival=stats.rival(ended, name),
                      key=request.args.get("key"))


@bp.post("/games/<public_id>/delete")
def delete(public_id: str) -> ResponseReturnValue:
    """The host deletes a finished game; the start page offers to undo it for a while."""
    outcome = service.delete_game(public_id, credentials(public_id))
    if not outcome.ok:
        return page("error.html", 422, title=gettext("Sorry"), message=" ".join(say(p) for p in outcome.problems))
    return see_other(url_for("pages.index"))


@bp.post("/games/<public_id>/restore")
def restore(public_id: str) -> ResponseReturnValue:
    """The host brings back a game deleted a moment ago."""
    service.restore_game(public_id, credentials(public_id))
    return see_other(url_for("pages.index"))


@bp.get("/games/<public_id>/play.bgsplay")
def bgsplay(public_id: str) -> ResponseReturnValue:
    """A finished game as a play for the BG Stats app to import."""
    game = games.find_game(public_id)
    if game is None or game.summary is None:
        abort(404)
    kind = kinds.kind_of(game)
    play = bgstats.play(game.summary, game.public_id, game.created_at, game.finished_at,
                        kind.bg_stats_game(kind.setup_of(game)))
    return download(json.dumps(play, indent=2, ensure_ascii=False), "application/json",
                    f"{game.kind}-{public_id[:8]}.bgsplay")


@bp.post("/games/<public_id>/rematch")
def rematch(public_id: str) -> ResponseReturnValue:
    """A new game with the same table and rules; the next player deals first."""
    outcome = service.rematch(public_id, credentials(public_id))
    keep_host_key(outcome.public_id, outcome.secret)
    return open_page(url_for("pages.game", public_id=outcome.public_id))


def pad_download(public_id: str, csv: bool = False) -> ResponseReturnValue:
    """The game's pad file (or its CSV) as a download, of whatever kind: what the whole table has seen."""
    state = games.as_seen_by(load_state(public_id), None)
    kind = kinds.kind_of(state)
    setup, played = kind.setup_of(state), kind.played(state)
    if csv:
        return download(kind.write_csv(setup, played), "text/csv", f"{kind.NAME}-{public_id[:8]}.csv")
    return download(json.dumps(kind.write_pad(setup, played), indent=2, ensure_ascii=False), "application/json",
                    f"{kind.NAME}-{public_id[:8]}.json")


@bp.get("/games/<public_id>/pad.json")
def pad_json(public_id: str) -> ResponseReturnValue:
    """The pad file of the game, as a download."""
    return pad_download(public_id)


@bp.get("/games/<public_id>/pad.csv")
def pad_csv(public_id: str) -> ResponseReturnValue:
    """The pad as CSV: one row per hand (or round) and player, with points and running total."""
    return pad_download(public_id, csv=True)
